"""What the library's searches share: the position hash, the transposition table, the node budget
and the clock, and the move ordering. Each search keeps its own loop, where their questions part:

- :mod:`mancala_marl.agents.alphabeta`: depth-limited alpha-beta on every game (``alphabeta``,
  ``greedy``, ``solver``);
- :mod:`mancala_marl.agents.best_response`: can any line of play beat a fixed baseline;
- ``mancala_marl.endgame.kalah_solver``: Kalah's exact margins, MTD(f) over the database;
- ``mancala_marl.endgame.oware_solver``: Oware's exact results, with the history its rules keep.

**The hash** is FNV-1a over a state's cells; its users add what their table needs on top (leave
the stores out, mix the bits further). ``mancala_marl.jax.oware`` computes Oware's hash again in
32-bit halves from the same constants, held to this one by the cross-check.

**The table** (:class:`Table`) holds, for each 64-bit key, bounds on the position's value (``low``
and ``high``: equal when exact), the best move found and, for searches that stop at a horizon,
how much search the entry stands for. A slot is the key's low bits; a later entry replaces an
earlier one. Key 0 marks an empty slot, so keys are made odd. A column a search does not keep is
None rather than an empty array, so that numba compiles each search without it: a test of the
array's length at every probe and store made alpha-beta 3-5% slower.

**The budget and the clock**: an int64 array, ``counters`` (:func:`new_counters`), holds the
nodes searched, the most allowed and why the search stopped (``BY_NODES``, ``BY_TIME``,
``BY_DEPTH``; 0 while it goes on); a deadline (a ``time.perf_counter()``, or None) goes beside it.
The kernels call :func:`spend` once a node; it reads the clock every :data:`CHECK_EVERY` nodes,
so a deadline stops a search within a few milliseconds without paying for the clock at every
node. (numba has no clock of its own: it reads Python's in object mode, which needs the
interpreter lock for the half microsecond it takes.)

**The ordering** (:func:`insert_ordered`) keeps a node's moves best first, ties in the order they
were listed, which each search makes the order it prefers among equals.

The small helpers are inlined by numba (``inline="always"``). The ordering helper, a loop, is a
plain kernel that LLVM inlines itself: numba's inlining of it made alpha-beta 10-15% slower on
Kalah, where the same code written in the search's loop was not (``benchmarks/search_speed.py``).
The table's optional columns are read and written through two overloads that numba compiles to
the column's access or to nothing, by the column's type.
"""

from __future__ import annotations

import time

import numba
import numpy as np
from numba import types
from numba.extending import overload

from ._compile import kernel

FNV_OFFSET = 14695981039346656037
FNV_PRIME = 1099511628211
NONE = -1  # a skipped cell that is no cell

MAX_PLY = 512  # the deepest line a search follows; deeper than any the tests and benchmarks reach
# counters[]
NODES, BUDGET, STOPPED = range(3)
COUNTERS = 3  # a search may keep its own numbers after these
BY_NODES, BY_TIME, BY_DEPTH = 1, 2, 3
NO_LIMIT = 1 << 62
# Nodes between two looks at the clock, which cost half a microsecond: under 1% of a fast game's
# nodes, and a few milliseconds past the deadline on Sungka's slow ones (20,000 a second).
CHECK_EVERY = 256
BOUND = 32000  # no bound: past any value a table entry holds (int16)
NO_MOVE = -1


@kernel(inline="always")
def fnv1a(cells, count, skip_a, skip_b):
    """FNV-1a over ``cells[0:count]``, each value + 1 (so that an empty cell still changes the
    hash), leaving out the cells ``skip_a`` and ``skip_b`` (:data:`NONE`: none)."""
    h = np.uint64(FNV_OFFSET)
    for i in range(count):
        if i != skip_a and i != skip_b:
            h = (h ^ np.uint64(cells[i] + 1)) * np.uint64(FNV_PRIME)
    return h


# -- the budget and the clock ------------------------------------------------------------------
def new_counters(extra: int = 0) -> np.ndarray:
    """A search's counters: :data:`COUNTERS` shared columns, then ``extra`` of its own."""
    counters = np.zeros(COUNTERS + extra, dtype=np.int64)
    set_limits(counters)
    return counters


def set_limits(counters: np.ndarray, nodes: int | None = None) -> None:
    """Ready ``counters`` for a search of at most ``nodes`` nodes (None: no such limit). A
    search's own columns are left as they are."""
    counters[NODES] = 0
    counters[BUDGET] = NO_LIMIT if nodes is None else min(int(nodes), NO_LIMIT)
    counters[STOPPED] = 0


@kernel
def _now():
    with numba.objmode(now="float64"):
        now = time.perf_counter()
    return now


@kernel(inline="always")
def spend(counters, deadline):
    """Count a node; True when the search must stop here (``counters[STOPPED]`` says why).
    ``deadline``: a ``time.perf_counter()``, or None for none."""
    counters[NODES] += 1
    if counters[NODES] > counters[BUDGET]:
        counters[STOPPED] = BY_NODES
        return True
    # None is a type of its own to numba: a search without a deadline is compiled without this
    # branch, and without the call into object mode, which alone slowed Kalah's solver by 8%
    if deadline is not None and counters[NODES] % CHECK_EVERY == 0 and _now() > deadline:
        counters[STOPPED] = BY_TIME
        return True
    return False


# -- the transposition table ---------------------------------------------------------------------
class Table:
    """A transposition table of ``2**bits`` entries (none for ``bits`` 0): ``keys`` (uint64), ``lows``
    and ``highs`` (bounds on the value, of the ``bounds`` dtype: int16 holds :data:`BOUND`, int8
    is enough for an exact search's margins and results) and, with ``moves``, the best move found
    (int8) and, with ``depths``, the effort each entry stands for (int32). A column a search does
    not keep is None: it costs no memory, no cache miss and no code. ``entries`` is what kernels
    take."""

    def __init__(self, bits: int, depths: bool = False, moves: bool = True, bounds=np.int16):
        size = 0 if bits is None or bits <= 0 else 1 << int(bits)
        self.keys = np.zeros(size, dtype=np.uint64)
        self.lows = np.zeros(size, dtype=bounds)
        self.highs = np.zeros(size, dtype=bounds)
        self.moves = np.zeros(size, dtype=np.int8) if moves else None
        self.depths = np.zeros(size, dtype=np.int32) if depths else None
        self.entries = (self.keys, self.lows, self.highs, self.moves, self.depths)

    def __len__(self) -> int:
        return int(self.keys.shape[0])

    def clear(self) -> None:
        self.keys[:] = 0


@kernel(inline="always")
def slot_of(entries, key):
    return key & np.uint64(entries[0].shape[0] - 1)


def _read(column, slot, default):
    """``column[slot]`` as int64, or ``default`` where the table does not keep the column (None)."""
    raise NotImplementedError("compiled code only")


@overload(_read)
def _read_compiled(column, slot, default):
    # (inline="always" here lost the stores of the function it went into, with numba 0.68;
    # LLVM inlines these one-liners itself)
    if isinstance(column, types.NoneType):
        return lambda column, slot, default: default
    return lambda column, slot, default: np.int64(column[slot])


def _write(column, slot, value):
    """``column[slot] = value``, or nothing where the table does not keep the column (None)."""
    raise NotImplementedError("compiled code only")


@overload(_write)
def _write_compiled(column, slot, value):
    if isinstance(column, types.NoneType):
        def nothing(column, slot, value):
            pass
        return nothing

    def write(column, slot, value):
        column[slot] = value
    return write


@kernel(inline="always")
def lookup(entries, key, effort):
    """(found, low, high, move) of ``key``'s entry; its bounds only where it stands for at least
    ``effort`` (a table without depths: always), else (-BOUND, BOUND), which bound nothing. (An
    entry of a shallower pass still gives its move: only then are its bounds read, each array
    another cache miss.) (False, -BOUND, BOUND, NO_MOVE) if absent."""
    keys, lows, highs, moves, depths = entries
    slot = slot_of(entries, key)
    if keys[slot] != key:
        return False, -BOUND, BOUND, NO_MOVE
    move = _read(moves, slot, NO_MOVE)
    if _read(depths, slot, NO_LIMIT) < effort:
        return True, -BOUND, BOUND, move
    return True, np.int64(lows[slot]), np.int64(highs[slot]), move


@kernel(inline="always")
def bounds_of(entries, key, low, high):
    """The bounds ``key``'s entry holds, else ``low, high``: what a search that stores its result
    keeps of what the entry learned since it was read (the move and the depth are not read: a
    cache miss each)."""
    keys, lows, highs, _, _ = entries
    slot = slot_of(entries, key)
    if keys[slot] != key:
        return low, high
    return np.int64(lows[slot]), np.int64(highs[slot])


@kernel(inline="always")
def store(entries, key, low, high, move, depth):
    """``key``'s entry, replacing whatever the slot held (a table without moves or depths drops them)."""
    keys, lows, highs, moves, depths = entries
    slot = slot_of(entries, key)
    keys[slot], lows[slot], highs[slot] = key, low, high
    _write(moves, slot, move)
    _write(depths, slot, depth)


@kernel(inline="always")
def bounds_after(best, alpha, beta, low, high):
    """The bounds a node's search proved, tightening the ``low..high`` it started from: ``best``
    failed low (at most ``alpha``), high (at least ``beta``) or is exact."""
    if best <= alpha:
        return low, min(high, best)
    if best >= beta:
        return max(low, best), high
    return best, best


# -- the move ordering ---------------------------------------------------------------------------
@kernel
def insert_ordered(order, row, scores, n, move, score):
    """Put ``move`` with ``score`` among the first ``n`` of ``order[row]`` (best first, stable: among
    equal scores the earlier listed first); ``n + 1`` moves are listed after. (A row of a 2-D
    array rather than a 1-D one: numba would make a view of the row at every call.)"""
    j = n
    while j > 0 and scores[j - 1] < score:
        order[row, j] = order[row, j - 1]
        scores[j] = scores[j - 1]
        j -= 1
    order[row, j] = move
    scores[j] = score
    return n + 1
