"""Perfect play on Kalah: alpha-beta to the end of the game, the database at the leaves.

The search works on the board seen from the mover, as the database does, and its values are the
margin still to come (the stores are settled). It is a fail-soft negamax with a transposition
table of lower and upper bounds keyed on the board alone, so positions that differ only in their
stores or in who moves share an entry; MTD(f) drives it with zero-width windows, each of which
only asks "at least this much?", and the table carries what one pass learned to the next.
Children are tried in this order: the table's best move, then moves that earn an extra turn, then
by the seeds they bank at once. A board with at most ``max_seeds`` seeds in play is looked up.
The hash, the table, the budget and clock and the ordering are :mod:`mancala_marl.search_core`'s.
"""

from __future__ import annotations

import numpy as np

from mancala_marl.errors import NotSolved

from .._compile import kernel
from ..games.base import GAME_OVER, SPEC_PITS
from ..games.kalah import apply_move
from ..search_core import (BY_DEPTH, BY_TIME, MAX_PLY, NO_MOVE, NODES, NONE, STOPPED, Table, bounds_after, bounds_of,
                           fnv1a, insert_ordered, lookup, new_counters, set_limits, spend, store)
from .kalah_database import canonical, load_state
from .ranking import index

# window[p]: seeds in play, the window (narrowed by the table), the window it was searched with,
# children listed, the next one, the best value and pit so far
W_SEEDS, W_A, W_B, W_A0, W_B0, W_N, W_K, W_BEST, W_PIT = range(9)


@kernel(inline="always")
def board_key(board, cells):
    h = fnv1a(board, cells, NONE, NONE)
    h ^= h >> np.uint64(29)
    return h | np.uint64(1)  # 0 marks an empty slot


@kernel(inline="always")
def mover_view(state, pits, mover):
    """Turn ``state``'s first ``2 * pits`` cells into its pits from ``mover``'s side, in place."""
    if mover == 1:
        for p in range(pits):
            state[p], state[pits + 1 + p] = state[pits + 1 + p], state[p]
    for p in range(pits):
        state[pits + p] = state[pits + 1 + p]


@kernel(refcounts=False)
def negamax(seeds, alpha, beta, spec, frames, db, tt, counters, deadline):
    """The margin to come for the mover of ``frames[0][0]`` (``seeds`` in play), exact if it lies
    strictly inside ``(alpha, beta)``, else a bound on the side it failed.

    An explicit stack rather than recursion: ``frames`` is (boards, scratch, window, ply_keys),
    where row ``p`` of ``boards`` (MAX_PLY, 2 * pits + 3) holds the board at ply ``p``, ``scratch``
    (MAX_PLY, 4, pits) its children's gains, next movers, order and scores, ``window``
    (MAX_PLY, 9) int64 its numbers (the ``W_*`` columns), ``ply_keys`` (MAX_PLY) uint64 its table
    key. ``db`` is the database's (values, table, blocks, max_seeds); ``tt`` the search core's table
    entries; ``counters`` and ``deadline`` its budget and clock (a search they stop returns 0,
    ``STOPPED`` set). Without reference counts (:mod:`mancala_marl._compile`): it allocates nothing.
    """
    boards, scratch, window, ply_keys = frames
    values, table, blocks, max_seeds = db
    pits = np.int64(spec[SPEC_PITS])  # int64 like the rest: the ranking kernels specialise on it
    cells = 2 * pits
    p = 0
    window[0, W_SEEDS], window[0, W_A], window[0, W_B] = seeds, alpha, beta
    enter = True
    ret = np.int64(0)
    while True:
        if enter:  # a new node at ply p: answer it at once, or list its children
            enter = False
            board = boards[p]
            n_seeds = window[p, W_SEEDS]
            if n_seeds <= max_seeds:
                ret = np.int64(values[index(board, pits, table, blocks)])
            else:
                ret = np.int64(1 << 40)  # not answered yet
                if spend(counters, deadline):
                    return np.int64(0)
                if p >= MAX_PLY - 1:
                    counters[STOPPED] = BY_DEPTH
                    return np.int64(0)
                key = board_key(board, cells)
                found, low, high, tt_move = lookup(tt, key, 0)
                if not found:
                    low, high = -n_seeds, n_seeds
                else:
                    if low >= window[p, W_B] or low == high:
                        ret = low
                    elif high <= window[p, W_A]:
                        ret = high
                if ret == 1 << 40:
                    a, b = max(window[p, W_A], low), min(window[p, W_B], high)
                    if a >= b:
                        ret = a
                if ret == 1 << 40:
                    window[p, W_A], window[p, W_B], window[p, W_A0], window[p, W_B0] = a, b, a, b
                    node = scratch[p]  # rows: gains, next movers, order, scores
                    gained, nxt, score = node[0], node[1], node[3]
                    state = boards[p + 1]  # free until a child is put there
                    n = 0
                    for pit in range(pits - 1, -1, -1):
                        if board[pit] == 0:
                            continue
                        load_state(state, board, pits)
                        apply_move(state, pit, spec)
                        gained[pit] = state[pits] - state[cells + 1]
                        nxt[pit] = state[cells + 2]
                        s = gained[pit] + (1000 if nxt[pit] == 0 else 0) + (100000 if pit == tt_move else 0)
                        n = insert_ordered(node, 2, score, n, pit, s)
                    window[p, W_N], window[p, W_K] = n, 0
                    window[p, W_BEST], window[p, W_PIT] = -(1 << 30), NO_MOVE
                    ply_keys[p] = key
            if ret != 1 << 40:  # answered: hand it to the parent below
                if p == 0:
                    return ret
                p -= 1
                _hand_down(window, scratch, p, ret)
                continue
        # the next child of the node at ply p, or its end
        k = window[p, W_K]
        if k >= window[p, W_N] or window[p, W_A] >= window[p, W_B]:
            best = window[p, W_BEST]
            n_seeds = window[p, W_SEEDS]
            if best == -(1 << 30):  # no move: the mover's pits are empty (a game already over)
                best = -n_seeds
            else:
                key = ply_keys[p]
                low, high = bounds_of(tt, key, -n_seeds, n_seeds)  # what an entry learned since, kept
                low, high = bounds_after(best, window[p, W_A0], window[p, W_B0], low, high)
                store(tt, key, low, high, window[p, W_PIT], 0)
            if p == 0:
                return best
            p -= 1
            _hand_down(window, scratch, p, best)
            continue
        pit = scratch[p, 2, k]
        v = scratch[p, 0, pit]
        mover = scratch[p, 1, pit]
        if mover == GAME_OVER:
            _combine(window, p, v, pit)
            continue
        child = boards[p + 1]
        load_state(child, boards[p], pits)
        apply_move(child, pit, spec)
        left = window[p, W_SEEDS] - child[pits] - child[cells + 1]
        mover_view(child, pits, mover)
        a, b = window[p, W_A], window[p, W_B]
        window[p + 1, W_SEEDS] = left
        if mover == 0:  # an extra turn: the same side to move, the same sense of the value
            window[p + 1, W_A], window[p + 1, W_B] = a - v, b - v
        else:
            window[p + 1, W_A], window[p + 1, W_B] = v - b, v - a
        p += 1
        enter = True


@kernel(inline="always")
def _hand_down(window, scratch, p, ret):
    """The value ``ret`` of the child being searched, for its own mover, into the node at ply ``p``."""
    pit = scratch[p, 2, window[p, W_K]]
    _combine(window, p, scratch[p, 0, pit] + (ret if scratch[p, 1, pit] == 0 else -ret), pit)


@kernel(inline="always")
def _combine(window, p, v, pit):
    """A child's value ``v`` (for the mover at ply ``p``) into its node; the node moves to its next child."""
    if v > window[p, W_BEST]:
        window[p, W_BEST], window[p, W_PIT] = v, pit
        if v > window[p, W_A]:
            window[p, W_A] = v
    window[p, W_K] += 1


class Solver:
    """MTD(f) over :func:`negamax` for one Kalah game, its table kept between questions.

    Exact final margins (``exact_margins``) of every position of the game (the database only
    speeds the search up); :class:`~mancala_marl.errors.NotSolved` past a deadline.
    """

    exact_margins = True
    covers_every_position = True

    def __init__(self, database, tt_bits: int = 22):
        self.db, self.game = database, database.game
        self.table = Table(tt_bits, bounds=np.int8)
        self.boards = np.zeros((MAX_PLY, 2 * self.game.pits + 3), dtype=np.int32)
        self.frames = (self.boards, np.zeros((MAX_PLY, 4, self.game.pits), dtype=np.int64),
                       np.zeros((MAX_PLY, 9), dtype=np.int64), np.zeros(MAX_PLY, dtype=np.uint64))
        self.counters = new_counters()
        self.nodes = 0

    def to_come(self, state: np.ndarray, deadline: float | None = None, guess: int = 0) -> int:
        """The exact margin still to come for the mover of the non-terminal ``state``."""
        low, high = self.bounds_to_come(state, deadline, guess)
        if low < high:
            raise NotSolved("time")
        return low

    def bounds_to_come(self, state: np.ndarray, deadline: float | None = None, guess: int = 0) -> tuple[int, int]:
        """(low, high): the margin still to come for the mover of the non-terminal ``state`` lies
        in ``low..high``, as far as MTD(f)'s null-window searches proved it before ``deadline``
        (equal once it is exact): how far a search too long for its time got."""
        game = self.game
        canonical(state, game.pits, game.to_move(state), self.boards[0])
        seeds = int(self.boards[0, :2 * game.pits].sum())
        low, high, value = -seeds, seeds, max(-seeds, min(seeds, guess))
        while low < high:
            beta = value + 1 if value == low else value
            try:
                value = self._search(seeds, beta - 1, beta, deadline)
            except NotSolved:
                break
            if value < beta:
                high = value
            else:
                low = value
        return low, high

    def at_least(self, state: np.ndarray, bound: int, deadline: float | None = None) -> bool:
        """Whether the mover of ``state`` can make at least ``bound`` more than the opponent from here."""
        game = self.game
        canonical(state, game.pits, game.to_move(state), self.boards[0])
        return self._search(int(self.boards[0, :2 * game.pits].sum()), bound - 1, bound, deadline) >= bound

    def _search(self, seeds: int, alpha: int, beta: int, deadline: float | None) -> int:
        db = self.db
        set_limits(self.counters)
        value = negamax(seeds, alpha, beta, self.game.spec, self.frames, (db.values, db.table, db.blocks, db.max_seeds),
                        self.table.entries, self.counters, deadline)
        self.nodes += int(self.counters[NODES])
        if self.counters[STOPPED] == BY_TIME:
            raise NotSolved("time")
        if self.counters[STOPPED] == BY_DEPTH:
            raise RuntimeError(f"Kalah search went deeper than {MAX_PLY} plies")
        return int(value)

    # -- questions about a state of the game (final margins, for the player to move) ------------
    def value(self, state: np.ndarray, deadline: float | None = None) -> int:
        """The exact final margin (mover's store - opponent's) of the non-terminal ``state``."""
        stores = self.game.scores(state)
        mover = self.game.to_move(state)
        return stores[mover] - stores[1 - mover] + self.to_come(state, deadline)

    def move_values(self, state: np.ndarray, deadline: float | None = None) -> dict[int, int]:
        """``{pit: the mover's exact final margin after playing it}`` for every legal pit."""
        game, mover = self.game, self.game.to_move(state)
        out = {}
        for pit in np.flatnonzero(game.legal_mask(state)):
            child = game.apply(state.copy(), int(pit))
            if game.is_terminal(child):
                stores = game.scores(child)
                out[int(pit)] = stores[mover] - stores[1 - mover]
            else:
                v = self.value(child, deadline)
                out[int(pit)] = v if game.to_move(child) == mover else -v
        return out

    def best_move(self, state: np.ndarray, deadline: float | None = None) -> tuple[int, int]:
        """(an optimal pit, the exact final margin): the optimal pit nearest the mover's store."""
        best = self.value(state, deadline)
        game, mover = self.game, self.game.to_move(state)
        legal = game.legal_mask(state)
        for pit in range(game.pits - 1, -1, -1):
            if legal[pit] and self._child_at_least(game.apply(state.copy(), pit), mover, best, deadline):
                return pit, best
        raise AssertionError("no move reaches the position's own value")

    def _child_at_least(self, child: np.ndarray, mover: int, bound: int, deadline) -> bool:
        """Whether ``mover`` ends at least ``bound`` ahead from ``child`` under perfect play."""
        game = self.game
        stores = game.scores(child)
        banked = stores[mover] - stores[1 - mover]
        if game.is_terminal(child):
            return banked >= bound
        if game.to_move(child) == mover:
            return self.at_least(child, bound - banked, deadline)
        return not self.at_least(child, banked - bound + 1, deadline)

    def best_moves(self, state: np.ndarray, deadline: float | None = None) -> tuple[int, list[int]]:
        """(the exact final margin for the mover, every optimal pit in increasing order)."""
        best = self.value(state, deadline)
        game, mover = self.game, self.game.to_move(state)
        return best, [int(pit) for pit in np.flatnonzero(game.legal_mask(state))
                      if self._child_at_least(game.apply(state.copy(), int(pit)), mover, best, deadline)]

    def result(self, state: np.ndarray, deadline: float | None = None) -> int:
        """+1, 0 or -1: the result for the mover under perfect play."""
        return int(np.sign(self.value(state, deadline)))

    def move_results(self, state: np.ndarray, deadline: float | None = None) -> dict[int, int]:
        return {pit: int(np.sign(v)) for pit, v in self.move_values(state, deadline).items()}
