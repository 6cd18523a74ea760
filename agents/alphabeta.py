"""Alpha-beta search over the compiled rules kernels: the ``greedy``, ``alphabeta`` and ``solver`` policies.

The search is negamax with alpha-beta pruning, written with numba over the plain int32 state
(see :mod:`mancala_marl.games.base`). Choices:

- **Depth counts turns.** A move that keeps the same player to move (an extra turn, or the
  opponent passing in Sungka) stays on the same side of the tree and does not use depth, so
  ``depth=1`` looks at every sequence of moves that makes up the mover's turn.
- **Values are store margins** (mover's store - opponent's store, in seeds). At the horizon that
  is the evaluation; at the end of the game it is the final margin, so a search that reaches the
  end is exact.
- **Transposition table** (:class:`mancala_marl.search_core.Table`, ``2**tt_bits`` entries) of
  bounds, keyed on the state's first ``game.key_cells`` cells (what decides the rest of the
  game). Where the game declares ``store_free`` (Kalah, Sungka: the rest of a game does not
  depend on the stores) the key leaves the stores out and the table holds bounds *relative* to
  the current store margin,
  so positions that differ only in their stores share an entry; elsewhere (Togyz Kumalak's and
  Oware's majority rules) the key covers the stores too.
- **Legal moves** come from the game's own legality kernel, as everywhere.
- **Move ordering**: the table's best move first, then moves that earn an extra turn, then by
  the store margin right after the move. At the root the order is fixed (pit nearest the own
  store first) and only a strictly better move replaces the best, so ties go to the pit nearest
  the own store and the choice does not depend on the table's history.
- **Bounded work**: every move searches at most ``nodes`` positions (``greedy``: 2**17,
  ``alphabeta``: 2**22; a node budget, not the clock, so the move is the same on any machine),
  and at most ``time_limit`` seconds where given. The search deepens one turn at a time, and an
  iteration the budget or the deadline interrupts is thrown away. Where not even one turn fits
  (passes and extra turns that chain: a turn of 12 moves of 8 holes each is 8**12 lines), the turn
  is followed for 0, 1, 2... of its free moves, each within as many nodes again, and the longest
  that finished gives the move (:func:`search_turn`): a move costs at most twice ``nodes``.

The hash, the table, the budget and clock and the ordering are :mod:`mancala_marl.search_core`'s.
"""

from __future__ import annotations

import time
import warnings
from dataclasses import replace

import numpy as np

from mancala_marl._compile import copy_cells, kernel
from mancala_marl.errors import BadInput, NotSolved
from mancala_marl.games import Param
from mancala_marl.games.base import MAX_TOTAL_SEEDS, SPEC_PITS, action_count
from mancala_marl.games.base import margin as _margin
from mancala_marl.games.dispatch import apply_move as _apply
from mancala_marl.games.dispatch import legal_moves
from mancala_marl.search_core import (BOUND, BUDGET, BY_DEPTH, BY_NODES, BY_TIME, COUNTERS, MAX_PLY, NO_LIMIT, NODES,
                                      NONE, STOPPED, Table, bounds_after, fnv1a, insert_ordered, lookup, new_counters,
                                      set_limits, spend, store)

from .base import SEED, Policy, check_game_on, register_policy

# (``margin`` is imported as ``_margin``: the search uses the name for a local)
GREEDY_MAX_CHAIN = 12
UNBOUNDED = 1 << 30
# after the search core's columns: the best root move; the free moves of the turn its search followed
BEST, CHAIN = COUNTERS, COUNTERS + 1
# The move's node budgets: about 3x the most the shipped games were seen to need, greedy's on
# Sungka (41,302 nodes in 30 games), alphabeta:depth=6's on Sungka's opening (1.4 M)
GREEDY_NODES = 1 << 17
SEARCH_NODES = 1 << 22
SOLVER_NODES = 1 << 27  # past it the solver says it has not solved the position (minutes of search)
# A search without time_limit that looks like taking longer than this a move says so (seconds).
SLOW_MOVE = 60.0

DEPTH = Param("depth", int, 4, "turns", low=1, high=MAX_PLY)  # a turn is one ply or more
TIME_LIMIT = Param("time_limit", float, None, "seconds per move", low=0.001, high=3600, optional=True)
MAX_CHAIN = Param("max_chain", int, 4, "free moves per turn; 2**30: no bound", low=0, high=UNBOUNDED)
NODE_BUDGET = Param("nodes", int, SEARCH_NODES, "positions searched per move at most (a turn that does not fit is "
                    "followed for fewer moves; None: no bound)", low=1, high=NO_LIMIT, optional=True)
TT_BITS = Param("tt_bits", int, None, "the table holds 2**tt_bits entries; 0 turns it off", low=0, high=30,
                optional=True)


@kernel
def position_key(state, pits, store_free, key_cells):
    """The position hash (:func:`mancala_marl.search_core.fnv1a`) of the state's first
    ``key_cells`` cells, leaving out the two stores when ``store_free``: the transposition table's
    key (:mod:`.best_response` keys its table of positions the same way)."""
    if store_free:
        return fnv1a(state, key_cells, pits, 2 * pits + 1) | np.uint64(1)  # 0 marks an empty slot
    return fnv1a(state, key_cells, NONE, NONE) | np.uint64(1)


@kernel(inline="always")
def _combine(p, v, f_best, f_move, f_alpha, f_beta, f_i, f_n, order):
    """A child's value ``v`` (for the mover at ply p) into the node at ply p; beta cut-off ends it."""
    if v > f_best[p]:
        f_best[p] = v
        f_move[p] = order[p, f_i[p]]
        if v > f_alpha[p]:
            f_alpha[p] = v
    f_i[p] += 1
    if f_alpha[p] >= f_beta[p]:
        f_i[p] = f_n[p]


@kernel(refcounts=True)
def search(root, depth, max_chain, spec, keying, table, stack, counters, deadline):
    """Negamax value of the non-terminal ``root`` for its mover, searched ``depth`` turns deep.

    An explicit stack instead of recursion, so that numba can cache the compiled code. Past
    ``max_chain`` moves of one turn, a further move of that turn uses depth like a new turn, which
    bounds Sungka's long turns (a search with unbounded depth is not affected). ``keying`` is
    (store_free, key_cells) (:func:`position_key`); ``table`` a :class:`~mancala_marl.search_core.Table`'s
    entries (with depths, or empty: no table); ``stack`` (MAX_PLY, actions, state size) scratch for the
    children; ``counters`` the search core's budget, then the best root move (``BEST``);
    ``deadline`` its clock. A search the budget or the clock stops returns 0, ``counters[STOPPED]`` set.

    This allocates the search's frames and hands them to :func:`_search`, which runs without
    reference counts (:mod:`mancala_marl._compile`): they were most of a node's time.
    """
    actions = action_count(spec)
    nodes = np.empty((MAX_PLY, root.shape[0]), dtype=np.int32)
    f_depth = np.empty(MAX_PLY, dtype=np.int64)
    f_chain = np.empty(MAX_PLY, dtype=np.int64)
    f_effort = np.empty(MAX_PLY, dtype=np.int64)
    f_alpha = np.empty(MAX_PLY, dtype=np.int64)
    f_beta = np.empty(MAX_PLY, dtype=np.int64)
    f_alpha0 = np.empty(MAX_PLY, dtype=np.int64)
    f_best = np.empty(MAX_PLY, dtype=np.int64)
    f_move = np.empty(MAX_PLY, dtype=np.int64)
    f_n = np.empty(MAX_PLY, dtype=np.int64)
    f_i = np.empty(MAX_PLY, dtype=np.int64)
    f_neg = np.empty(MAX_PLY, dtype=np.bool_)
    f_key = np.empty(MAX_PLY, dtype=np.uint64)
    order = np.empty((MAX_PLY, actions), dtype=np.int64)
    score = np.empty(actions, dtype=np.int64)
    legal = np.empty(actions, dtype=np.bool_)
    return _search(root, depth, max_chain, spec, keying, table, stack, counters, deadline, nodes, f_depth,
                   f_chain, f_effort, f_alpha, f_beta, f_alpha0, f_best, f_move, f_n, f_i, f_neg, f_key, order,
                   score, legal)


@kernel(refcounts=False)
def _search(root, depth, max_chain, spec, keying, table, stack, counters, deadline, nodes, f_depth, f_chain,
            f_effort, f_alpha, f_beta, f_alpha0, f_best, f_move, f_n, f_i, f_neg, f_key, order, score, legal):
    """:func:`search` in the frames it allocated (each row a ply), without reference counts: it
    borrows every array and allocates none."""
    store_free, key_cells = keying
    pits = spec[SPEC_PITS]
    actions = action_count(spec)
    cells = 2 * pits + 2
    use_tt = table[0].shape[0] > 0
    size = root.shape[0]
    copy_cells(root, nodes[0], size)
    f_depth[0], f_chain[0], f_alpha[0], f_beta[0] = depth, 0, -(1 << 29), 1 << 29
    p = 0
    phase = 0  # 0: enter the node at ply p, 1: its next child, 2: return ``ret`` to ply p-1
    ret = 0
    while True:
        if phase == 0:
            if spend(counters, deadline):
                return 0
            state = nodes[p]
            mover = state[cells]
            margin = _margin(state, pits, mover)
            phase = 1
            if p >= MAX_PLY - 1:
                counters[STOPPED] = BY_DEPTH
                return 0
            d, c = f_depth[p], f_chain[p]
            # How much search an entry stands for: more turns, then fewer moves made this turn.
            f_effort[p] = d if d >= UNBOUNDED or max_chain >= UNBOUNDED else d * (max_chain + 1) + max_chain - c
            tt_move = -1
            if use_tt:
                key = position_key(state, pits, store_free, key_cells)
                f_key[p] = key
                # the root only takes the entry's move: its bounds are read where they stand for enough search
                _, low, high, tt_move = lookup(table, key, f_effort[p] if p > 0 else UNBOUNDED + 1)
                if low > -BOUND or high < BOUND:
                    # the table holds bounds relative to the store margin (see the module doc)
                    low = low + margin if low > -BOUND else -UNBOUNDED
                    high = high + margin if high < BOUND else UNBOUNDED
                    if low == high or low >= f_beta[p]:
                        ret, phase = low, 2
                    elif high <= f_alpha[p]:
                        ret, phase = high, 2
                    else:
                        f_alpha[p], f_beta[p] = max(f_alpha[p], low), min(f_beta[p], high)
                    if phase == 2:
                        continue
            n = 0
            legal_moves(state, spec, legal)
            for k in range(actions):
                pit = actions - 1 - k  # nearest the own store first
                if not legal[pit]:
                    continue
                child = stack[p, pit]
                copy_cells(state, child, size)
                _apply(child, pit, spec)
                s = 0
                if p > 0:  # the root keeps the fixed order, so ties go to the pit nearest the store
                    s = _margin(child, pits, mover) - margin
                    if child[cells] == mover:
                        s += 1000
                    if pit == tt_move:
                        s += 100000
                n = insert_ordered(order, p, score, n, pit, s)
            f_n[p], f_i[p] = n, 0
            f_best[p], f_move[p] = -(1 << 30), order[p, 0]
            f_alpha0[p] = f_alpha[p]
        elif phase == 2:
            if p == 0:
                return ret
            p -= 1
            _combine(p, -ret if f_neg[p] else ret, f_best, f_move, f_alpha, f_beta, f_i, f_n, order)
            phase = 1
        else:
            if f_i[p] >= f_n[p]:  # all children done (or cut off)
                best = f_best[p]
                if use_tt:
                    shift = _margin(nodes[p], pits, nodes[p, cells])
                    low, high = bounds_after(best - shift, f_alpha0[p] - shift, f_beta[p] - shift, -BOUND, BOUND)
                    store(table, f_key[p], low, high, f_move[p], f_effort[p])
                if p == 0:
                    counters[BEST] = f_move[0]
                ret, phase = best, 2
                continue
            mover = nodes[p, cells]
            child = stack[p, order[p, f_i[p]]]
            nxt = child[cells]
            d, c = f_depth[p], f_chain[p]
            free = nxt == mover and c < max_chain  # the same turn goes on without using depth
            if nxt < 0 or (d <= 1 and not free):
                # game over: the exact final margin; horizon: the store margin
                _combine(p, _margin(child, pits, mover), f_best, f_move, f_alpha, f_beta, f_i, f_n, order)
                continue
            copy_cells(child, nodes[p + 1], size)
            if nxt == mover:
                f_depth[p + 1] = d if free else d - 1
                f_chain[p + 1] = c + 1
                f_alpha[p + 1], f_beta[p + 1] = f_alpha[p], f_beta[p]
                f_neg[p] = False
            else:
                f_depth[p + 1], f_chain[p + 1] = d - 1, 0
                f_alpha[p + 1], f_beta[p + 1] = -f_beta[p], -f_alpha[p]
                f_neg[p] = True
            p += 1
            phase = 0


@kernel
def no_table():
    """A table of no entries, of a depth-keeping :class:`~mancala_marl.search_core.Table`'s types."""
    return (np.zeros(0, np.uint64), np.zeros(0, np.int16), np.zeros(0, np.int16), np.zeros(0, np.int8),
            np.zeros(0, np.int32))


@kernel(refcounts=True)
def search_turn(root, max_chain, spec, keying, table, stack, counters, deadline):
    """:func:`search` one turn deep within the budget and the clock of ``counters`` and ``deadline``.

    Where the whole turn (``max_chain`` free moves) does not fit, the turn is followed for 0, 1, 2...
    free moves instead, without the table (whose entries stand for the whole turn), each search
    within as many nodes again as the budget, and the longest that finished gives the move. Following
    no free move is one node, which no budget or clock stops, so there is always a move.

    Returns the value for the mover; ``counters[BEST]`` is the move, ``counters[CHAIN]`` the free
    moves its search followed, ``counters[NODES]`` every node spent, and ``counters[STOPPED]`` why
    the whole turn did not fit (0 when it did).
    """
    budget = counters[BUDGET]
    value = search(root, 1, max_chain, spec, keying, table, stack, counters, deadline)
    counters[CHAIN] = max_chain
    why = counters[STOPPED]
    if why != BY_NODES and why != BY_TIME:
        return value
    spent, left, best = counters[NODES], budget, -1
    for chain in range(min(max_chain, MAX_PLY - 2)):
        counters[NODES], counters[BUDGET], counters[STOPPED] = 0, left, 0
        found = search(root, 1, chain, spec, keying, no_table(), stack, counters, deadline)
        spent += counters[NODES]
        left -= counters[NODES]
        if counters[STOPPED] and chain > 0:
            break
        value, best, counters[CHAIN] = found, counters[BEST], chain
    counters[NODES], counters[BUDGET], counters[STOPPED], counters[BEST] = spent, budget, why, best
    return value


@kernel(refcounts=True)
def search_root(root, depth, max_chain, spec, keying, table, stack, counters, deadline):
    """A search from Python: one turn deep by :func:`search_turn`, deeper by :func:`search`. One
    compiled function for both, so that a first move compiles every depth it may later search."""
    if depth == 1:
        return search_turn(root, max_chain, spec, keying, table, stack, counters, deadline)
    return search(root, depth, max_chain, spec, keying, table, stack, counters, deadline)


@kernel
def greedy_pit(state, spec, stack, counters):
    """``greedy``'s move as one compiled call (what :class:`GreedyPolicy` computes with its
    defaults): the search one turn deep, no table, within :data:`GREEDY_NODES` nodes. ``stack`` is
    (MAX_PLY, actions, state size) scratch, ``counters`` the search core's
    (:func:`~mancala_marl.search_core.new_counters` with two columns of its own)."""
    counters[:] = 0
    counters[BUDGET] = GREEDY_NODES
    search_turn(state.copy(), GREEDY_MAX_CHAIN, spec, (False, 0), no_table(), stack, counters, None)
    if counters[STOPPED] == BY_DEPTH:
        raise RuntimeError("greedy search went deeper than MAX_PLY plies")
    return counters[BEST]


class SearchTable:
    """The search's working memory for one game: transposition table, child stack and counters."""

    def __init__(self, game, tt_bits: int):
        self.spec = game.spec.copy()
        self.keying = (bool(game.store_free), int(game.key_cells))
        self.table = Table(0 if tt_bits is None else tt_bits, depths=True)
        self.stack = np.zeros((MAX_PLY, game.actions, game.state_size), dtype=np.int32)
        self.counters = new_counters(extra=2)

    def matches(self, game) -> bool:
        return self.spec.shape == game.spec.shape and bool((self.spec == game.spec).all())

    def clear(self) -> None:
        self.table.clear()

    def search(self, state: np.ndarray, depth: int, max_chain: int = UNBOUNDED,
               deadline: float | None = None, nodes: int | None = None) -> tuple[int, int, bool]:
        """(best pit, value for the mover in seeds, completed) of a ``depth``-turn search of
        ``state`` within ``nodes`` nodes (None: no bound), stopped short at ``deadline`` (a
        ``time.perf_counter()``); not completed when either stopped it. One turn deep, a search
        that does not complete still gives a move, the turn followed for fewer moves
        (:func:`search_turn`)."""
        set_limits(self.counters, nodes)
        value = search_root(state.astype(np.int32, copy=True), int(depth), int(max_chain), self.spec, self.keying,
                            self.table.entries, self.stack, self.counters, deadline)
        if self.counters[STOPPED] == BY_DEPTH:
            # e.g. the solver on a small Togyz Kumalak board, where balls can circle for ever
            raise BadInput(f"search went deeper than {MAX_PLY} plies (a line of play that may never end); "
                             "no exact value: use alphabeta with a finite depth")
        return int(self.counters[BEST]), int(value), not self.counters[STOPPED]


class _SearchPolicy(Policy):
    tt_bits = 20
    parameters = (DEPTH, TIME_LIMIT, MAX_CHAIN, NODE_BUDGET, TT_BITS, SEED)

    def __init__(self, depth: int = 4, time_limit: float | None = None, max_chain: int = 4,
                 nodes: int | None = SEARCH_NODES, tt_bits: int | None = None, seed: int | None = None):
        super().__init__(seed)
        self.max_chain = min(int(max_chain), UNBOUNDED)  # the solver's are unbounded
        self.depth = int(depth)
        self.time_limit = None if time_limit is None else float(time_limit)
        self.max_nodes = None if nodes is None else int(nodes)
        if tt_bits is not None:
            self.tt_bits = int(tt_bits)
        self._slow_said = False
        self._table = None
        self.last_value = None  # value of the last move chosen, in seeds, for the mover
        self.last_depth = None  # depth of the last completed iteration (0: not even one whole turn)
        self.nodes = 0

    def reset(self, seed=None):
        super().reset(seed)
        if self._table is not None:
            self._table.clear()

    def table(self, game) -> SearchTable:
        if self._table is None or not self._table.matches(game):
            self._table = SearchTable(game, self.tt_bits)
        return self._table

    def act(self, game, state):
        """Deepen one turn at a time within the move's nodes and time; the deepest search that
        finished gives the move (one turn that did not finish: the turn followed for fewer moves)."""
        check_game_on(game, state)
        table = self.table(game)
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        depths = range(1, self.depth + 1) if self.depth < UNBOUNDED else [self.depth]
        move, spent, took = None, 0, 0.0
        for depth in depths:
            left = None if self.max_nodes is None else self.max_nodes - spent
            if move is not None and ((deadline is not None and time.perf_counter() >= deadline) or left == 0):
                break
            start = time.perf_counter()
            found, value, done = table.search(state, depth, self.max_chain, deadline, left)
            spent += int(table.counters[NODES])
            took, before = time.perf_counter() - start, took
            if not done and move is not None:
                break  # an interrupted iteration is thrown away
            move, self.last_value, self.last_depth = found, value, depth if done else 0
            if not done:
                break
            if deadline is None:
                self._say_if_slow(depth, took, before)
        self.nodes += spent
        return move

    def _say_if_slow(self, depth: int, spent: float, before: float) -> None:
        """Warn, once, when the depths still to search look like more than :data:`SLOW_MOVE`
        seconds, each costing as many times the one before as the last did (a search without a node
        budget: ``nodes=None``)."""
        # below a second (of the minute) an iteration's time says too little of the next one's
        if (self._slow_said or depth < 2 or spent < SLOW_MOVE / 60 or depth >= self.depth
                or self.depth >= UNBOUNDED or self.max_nodes is not None):
            return
        growth = max(spent / max(before, 1e-6), 1.0)
        left, step = 0.0, spent
        for _ in range(self.depth - depth):
            step *= growth
            left += step
            if left > SLOW_MOVE:
                self._slow_said = True
                warnings.warn(f"{self!r} without time_limit: depth {depth} took {spent:.2g} s and each turn "
                              f"deeper about {growth:.0f} times as long, so this move may take more than "
                              f"{SLOW_MOVE:g} s; give time_limit=SECONDS to bound each move", stacklevel=3)
                return


@register_policy("alphabeta")
class AlphaBetaPolicy(_SearchPolicy):
    """Depth-limited alpha-beta (``depth`` turns, default 4; ``time_limit`` seconds per move, optional).

    Store-margin evaluation, exact at the end of the game; ties go to the pit nearest the own store.
    ``max_chain`` (default 4) moves of one turn are free; later ones use depth. A move searches at
    most ``nodes`` positions (default 2**22), the deepest search that fits giving it (see module doc).
    """


@register_policy("greedy")
class GreedyPolicy(_SearchPolicy):
    """One turn of look-ahead: the move whose whole turn (extra turns followed) maximises the store margin.

    Ties go to the pit nearest the own store. The same search as ``alphabeta`` with ``depth=1``;
    a turn is followed for up to ``max_chain`` (default 12) moves, then scored as it stands
    (Sungka's opening turn can otherwise run to millions of move sequences), within ``nodes``
    (default 2**17) positions and ``time_limit`` seconds (optional): a turn that does not fit is
    followed for fewer moves (see the module doc).
    """

    parameters = (replace(MAX_CHAIN, default=GREEDY_MAX_CHAIN), replace(NODE_BUDGET, default=GREEDY_NODES),
                  TIME_LIMIT, SEED)

    def __init__(self, max_chain: int = GREEDY_MAX_CHAIN, nodes: int = GREEDY_NODES, time_limit: float | None = None,
                 seed: int | None = None):
        super().__init__(depth=1, max_chain=max_chain, nodes=nodes, time_limit=time_limit, tt_bits=0, seed=seed)


@register_policy("solver")
class SolverPolicy(_SearchPolicy):
    """Perfect play on small boards: alpha-beta to the end of the game with a transposition table.

    ``value(game, state)`` is the exact final margin (mover's store - opponent's) under perfect
    play. Refuses boards with more than ``max_seeds`` seeds (default 40: Kalah(5,4)), where it would not
    finish in reasonable time. A search that needs more than ``nodes`` positions (default 2**27,
    minutes; None: no bound) raises :class:`~mancala_marl.errors.NotSolved`.
    """

    tt_bits = 22
    parameters = (Param("max_seeds", int, 40, "the most seeds on a board it agrees to solve", low=1,
                        high=MAX_TOTAL_SEEDS), replace(NODE_BUDGET, default=SOLVER_NODES,
                                                        doc="positions searched per move at most (more: not solved; "
                                                            "None: no bound)"),
                  TT_BITS, SEED)

    def __init__(self, max_seeds: int = 40, nodes: int | None = SOLVER_NODES, tt_bits: int | None = None,
                 seed: int | None = None):
        super().__init__(depth=UNBOUNDED, max_chain=UNBOUNDED, nodes=nodes, tt_bits=tt_bits, seed=seed)
        self.max_seeds = int(max_seeds)

    def prepare(self, game):
        if game.total_seeds > self.max_seeds:
            raise BadInput(f"solver: {game!r} has {game.total_seeds} seeds, more than max_seeds="
                             f"{self.max_seeds}; use alphabeta, or raise max_seeds and wait")

    def table(self, game):
        self.prepare(game)
        return super().table(game)

    def act(self, game, state):
        move = super().act(game, state)
        if self.last_depth != self.depth:
            raise NotSolved(f"{self.max_nodes:,} positions", f"solver: no exact move within nodes={self.max_nodes}")
        return move

    def value(self, game, state) -> int:
        """The exact final margin, in seeds, for the player to move (0 for a finished game's mover: n/a)."""
        if game.is_terminal(state):
            raise BadInput("the game is over: its margin is game.scores(state), not a search value")
        _, value, done = self.table(game).search(state, UNBOUNDED, nodes=self.max_nodes)
        if not done:
            raise NotSolved(f"{self.max_nodes:,} positions", f"solver: no exact value within nodes={self.max_nodes}")
        return value
