"""Exact results (win, draw, loss) of Oware endgames: a search under our rules, the database at
the positions right after a capture.

The database (:mod:`mancala_marl.endgame.oware_database`) bounds the margin still to come of a position
whose history is the position alone, as right after a capture, in the game without the majority
rule. The result under our rules is the sign of the store margin plus that margin, so the
database decides it wherever the store margin plus either bound has the same sign. Elsewhere the
search plays on, with the rules kernel and the position's own history, so that repetitions end
lines as they end games; captures lead back to the database. Results are -1, 0 and +1 for the
player to move, searched with alpha-beta over those three values.

A node's result also lies between the sweeps of the earlier positions of its stretch that a line
could return to (a repetition ends the game with the seeds swept, as they lay then), so those
widen the database's bounds. Where the search starts mid-stretch, the rules know the positions
before it by their hashes alone; they are found again among the boards of the same seeds
(:func:`earlier_sweeps`). The bounds that hold whatever the history
(:func:`~mancala_marl.endgame.oware_database.search_bounds`) narrow every node again.

Each pass searches to a horizon, where a node answers with its bounds, so every pass gives a
range that holds the result; passes go deeper until the range settles the question, and a result
that short lines settle is found before the long lines are followed. A table keyed on the whole
position, its history included (the rules' hashes of the positions since the last capture, and
their count), keeps the ranges: a result depends on nothing else, so the table serves every later
pass and question of the same game. The table, the budget and clock and the ordering are
:mod:`mancala_marl.search_core`'s.
"""

from __future__ import annotations

import numpy as np

from mancala_marl.errors import BadInput, NoExactMargins, NotSolved
from .._compile import copy_cells, kernel
from ..games.base import GAME_OVER, SPEC_PITS
from ..games.history import COUNT, DIGEST, HASHES, HISTORY, get64, position_hash
from ..games.oware import apply_move, legal_moves
from ..search_core import (BUDGET, BY_TIME, NO_MOVE, NODES, STOPPED, Table, insert_ordered, lookup,
                           new_counters, set_limits, spend, store)
from .oware_database import search_bounds
from .ranking import next_side, state_index

MAX_NODES = 5_000_000  # positions one question may search: a few seconds
# frame[p]: the window (raised by the children), the bounds, the lowest and highest result the
# children searched so far allow, the children listed and the next one, the signs of the earlier
# sweeps of the stretch (player_0's, lowest and highest), whether positions before the search's
# start are in the stretch
F_A, F_B, F_LO, F_HI, F_L, F_H, F_N, F_K, F_MIN, F_MAX, F_UNSEEN = range(11)
NONE_SWEPT = 2  # the lowest of no sweeps (and minus the highest)
# the plies searched, pass after pass: a result that short lines settle is found before the long
# lines are followed (the last pass has no horizon but the stack's)
HORIZONS = (4, 6, 8, 11, 16, 22, 32, 45, 64, 90, 128, 181, 256, 1 << 30)


@kernel(inline="always")
def sign(x):
    return 1 if x > 0 else (-1 if x < 0 else 0)


@kernel(inline="always")
def used_slots(state, cells):
    """The slots of ``state`` that matter: the board, the mover and the history recorded so far."""
    return cells + 1 + HASHES + 2 * state[cells + 1 + COUNT]


@kernel(inline="always")
def position_key(state, cells):
    """The table key of a position and its history: its own hash, the history's digest and count."""
    base = cells + 1
    n = state[base + COUNT]
    h = get64(state, base + HASHES + 2 * (n - 1)) * np.uint64(0x9E3779B97F4A7C15)
    h ^= get64(state, base + DIGEST) ^ (np.uint64(n) << np.uint64(55))
    h ^= h >> np.uint64(31)
    h *= np.uint64(0xBF58476D1CE4E5B9)
    h ^= h >> np.uint64(29)
    return h | np.uint64(1)  # 0 marks an empty slot


@kernel(inline="always")
def swept(state, pits):
    """player_0's final margin if the game ended here, the seeds swept to their sides."""
    total = 0
    for i in range(pits + 1):
        total += state[i] - state[pits + 1 + i]
    return total


@kernel(refcounts=True)
def search(alpha, beta, horizon, sweeps, stack, spec, bounds, tt, counters, deadline):
    """(lowest, highest): the range of the result (-1, 0, +1) for the mover of ``states[0]``, as
    far as a search of ``horizon`` plies settles it; one end past the window ``(alpha, beta)``
    is enough (a cut). Every range it gives, and every one it keeps in the table, holds the
    result: a position at the horizon answers with its bounds. ``sweeps`` is (low_swept,
    high_swept, unseen): the lowest and highest sign of player_0's sweep over the earlier positions
    of the stretch the search can see (``NONE_SWEPT``, ``-NONE_SWEPT`` for none), and whether the
    stretch began before the first state.

    An explicit stack, ``stack`` = (states, frames, order, ply_keys): row ``p`` of ``states`` holds
    the state at ply ``p`` (the rules' own, its history included), ``frames[p]`` its numbers (the
    ``F_*`` columns), ``order[p]`` its children in the order tried, ``ply_keys[p]`` its table key.
    ``bounds`` is (low, high, safe_low, safe_high, table, blocks) (:meth:`ResultSolver.__init__`);
    ``tt`` the search core's table entries, ``counters`` and ``deadline`` its budget and clock (a
    search they stop returns (0, 0) with ``counters[STOPPED]`` set).

    This allocates the moves' scratch and hands it to :func:`_search`, which runs without
    reference counts (:mod:`mancala_marl._compile`).
    """
    pits = spec[SPEC_PITS]
    legal = np.empty(pits, dtype=np.bool_)
    gains = np.empty(pits, dtype=np.int64)
    return _search(alpha, beta, horizon, sweeps, stack, spec, bounds, tt, counters, deadline, legal, gains)


@kernel(refcounts=False)
def _search(alpha, beta, horizon, sweeps, stack, spec, bounds, tt, counters, deadline, legal, gains):
    """:func:`search` with its scratch: it borrows every array and allocates none."""
    low_swept, high_swept, unseen = sweeps
    states, frames, order, ply_keys = stack
    low, high, safe_low, safe_high, table, blocks = bounds
    pits = spec[SPEC_PITS]
    cells = 2 * pits + 2
    p = 0
    frames[0, F_A], frames[0, F_B] = alpha, beta
    frames[0, F_MIN], frames[0, F_MAX], frames[0, F_UNSEEN] = low_swept, high_swept, unseen
    while True:
        # a new node at ply p: answer it from its bounds, or list its children
        state = states[p]
        if spend(counters, deadline):
            return 0, 0
        # What each side can force from here (the database), or, where a line comes back to a
        # position of this stretch, that position's sweep: the result lies between; and within
        # the bounds that hold whatever the history.
        mover = state[cells]
        banked = state[mover * (pits + 1) + pits] - state[(1 - mover) * (pits + 1) + pits]
        at = state_index(state, pits, mover, table, blocks)
        lo, hi = sign(banked + low[at]), sign(banked + high[at])
        if mover == 0:
            lo, hi = min(lo, frames[p, F_MIN]), max(hi, frames[p, F_MAX])
        else:
            lo, hi = min(lo, -frames[p, F_MAX]), max(hi, -frames[p, F_MIN])
        if frames[p, F_UNSEEN]:
            seeds = 0
            for i in range(pits):
                seeds += state[i] + state[pits + 1 + i]
            lo, hi = min(lo, sign(banked - seeds)), max(hi, sign(banked + seeds))
        lo, hi = max(lo, sign(banked + safe_low[at])), min(hi, sign(banked + safe_high[at]))
        key = position_key(state, cells)
        found, tt_lo, tt_hi, _ = lookup(tt, key, 0)
        if found:
            lo, hi = max(lo, tt_lo), min(hi, tt_hi)
        a, b = frames[p, F_A], frames[p, F_B]
        answered = lo == hi or lo >= b or hi <= a or p >= horizon or p >= states.shape[0] - 1
        if not answered:
            frames[p, F_A], frames[p, F_B] = max(a, lo), min(b, hi)
            frames[p, F_LO], frames[p, F_HI], frames[p, F_L], frames[p, F_H] = lo, hi, -2, -2
            ply_keys[p] = key
            # the children most promising by their bounds first, then captures (they reach the
            # database sooner); among equals the house nearest the store
            legal_moves(state, spec, legal)
            stores = state[pits] + state[cells - 1]
            scratch = states[p + 1]
            used = used_slots(state, cells)
            n = 0
            for house in range(pits - 1, -1, -1):
                if not legal[house]:
                    continue
                copy_cells(state, scratch, used)
                apply_move(scratch, house, spec)
                gain = _promise(scratch, mover, stores, pits, cells, low, high, table, blocks)
                n = insert_ordered(order, p, gains, n, house, gain)
            frames[p, F_N], frames[p, F_K] = n, 0
        while True:  # hand answers down the stack, and find the next child to search
            if answered:
                if p == 0:
                    return lo, hi
                p -= 1
                _hand_down(frames, p, -hi, -lo)
            k = frames[p, F_K]
            if k >= frames[p, F_N] or frames[p, F_A] >= frames[p, F_B]:
                lo, hi = max(frames[p, F_LO], frames[p, F_L]), frames[p, F_HI]
                if k >= frames[p, F_N]:  # every child searched: none does better than its highest
                    hi = min(hi, frames[p, F_H])
                store(tt, ply_keys[p], lo, hi, NO_MOVE, 0)
                answered = True
                continue
            state = states[p]
            child = states[p + 1]
            mover = state[cells]
            used = used_slots(state, cells)
            copy_cells(state, child, used)
            apply_move(child, order[p, k], spec)
            if child[cells] == GAME_OVER:
                r = sign(child[mover * (pits + 1) + pits] - child[(1 - mover) * (pits + 1) + pits])
                _hand_down(frames, p, r, r)
                answered = False
                continue
            if child[pits] + child[cells - 1] > state[pits] + state[cells - 1]:  # a capture: a new stretch
                frames[p + 1, F_MIN], frames[p + 1, F_MAX], frames[p + 1, F_UNSEEN] = NONE_SWEPT, -NONE_SWEPT, 0
            else:
                s = sign(swept(state, pits))
                frames[p + 1, F_MIN], frames[p + 1, F_MAX] = min(frames[p, F_MIN], s), max(frames[p, F_MAX], s)
                frames[p + 1, F_UNSEEN] = frames[p, F_UNSEEN]
            frames[p + 1, F_A], frames[p + 1, F_B] = -frames[p, F_B], -frames[p, F_A]  # the turn always passes
            p += 1
            break


@kernel
def earlier_sweeps(state, pits):
    """(found, lowest, highest): the signs of player_0's sweep over the positions of ``state``'s
    stretch before it, which its history knows by their hashes alone. Within a stretch nothing is
    captured, so they hold ``state``'s seeds in play and its stores, their movers taking turns: each
    is found among the boards of those seeds. ``found``: whether every one was."""
    cells = 2 * pits + 2
    base = cells + 1
    n = state[base + COUNT]
    targets = np.empty(n - 1, dtype=np.uint64)
    for k in range(n - 1):
        targets[k] = get64(state, base + HASHES + 2 * k)
    targets.sort()
    seen = np.zeros(n - 1, dtype=np.bool_)
    probe = state[:cells + 1].copy()
    board = np.zeros(2 * pits, dtype=np.int64)
    seeds = 0
    for i in range(pits):
        seeds += state[i] + state[pits + 1 + i]
    board[2 * pits - 1] = seeds
    lowest, highest = NONE_SWEPT, -NONE_SWEPT
    more = True
    while more:
        for i in range(pits):
            probe[i], probe[pits + 1 + i] = board[i], board[pits + i]
        for mover in range(2):
            probe[cells] = mover
            k = np.searchsorted(targets, position_hash(probe, cells))
            if k < n - 1 and targets[k] == position_hash(probe, cells) and not seen[k]:
                seen[k] = True
                s = sign(swept(probe, pits))
                lowest, highest = min(lowest, s), max(highest, s)
        more = next_side(board, 0, 2 * pits)
    return seen.all(), lowest, highest


@kernel(inline="always")
def _promise(child, mover, stores, pits, cells, low, high, table, blocks):
    """How good ``child`` looks for ``mover`` (the player who made it): its end, or its bounds as if
    right after a capture, then the seeds it captured."""
    mine, theirs = child[mover * (pits + 1) + pits], child[(1 - mover) * (pits + 1) + pits]
    if child[cells] == GAME_OVER:
        return 1000 * sign(mine - theirs)
    at = state_index(child, pits, 1 - mover, table, blocks)
    return (-100 * sign(theirs - mine + high[at]) - 10 * sign(theirs - mine + low[at])
            + mine + theirs - stores)


@kernel(inline="always")
def _hand_down(frames, p, lo, hi):
    """The range ``lo..hi`` of the child being searched, for the mover at ply ``p``, into its node."""
    frames[p, F_L], frames[p, F_H] = max(frames[p, F_L], lo), max(frames[p, F_H], hi)
    if lo > frames[p, F_A]:
        frames[p, F_A] = lo
    frames[p, F_K] += 1


class ResultSolver:
    """Exact results of one Oware game's positions with at most ``database.max_seeds`` seeds in play.

    ``max_nodes``: the positions one question may search before it is refused (NotSolved);
    ``tt_bits``: the table holds ``2**tt_bits`` entries (ten bytes each), kept between questions.
    Results only (``exact_margins`` False: :class:`~mancala_marl.errors.NoExactMargins` for margins),
    of positions with at most ``max_seeds`` seeds in play.
    """

    exact_margins = False
    covers_every_position = False

    def __init__(self, database, max_nodes: int = MAX_NODES, tt_bits: int = 22):
        self.db, self.game = database, database.game
        self.max_nodes = int(max_nodes)
        self.nodes = 0
        self.table = Table(tt_bits, moves=False, bounds=np.int8)  # results: -1..1; no move kept
        # a line without capture holds at most HISTORY positions, and each capture takes 2 seeds or more
        plies = HISTORY * (database.max_seeds // 2 + 1) + 2
        self.states = np.zeros((plies, self.game.state_size), dtype=np.int32)
        self.stack = (self.states, np.zeros((plies, 11), dtype=np.int64),
                      np.zeros((plies, self.game.pits), dtype=np.int64), np.zeros(plies, dtype=np.uint64))
        self.counters = new_counters()
        self.bounds = (*search_bounds(database), database.table, database.blocks)

    @property
    def max_seeds(self) -> int:
        """The most seeds in play of a position this solver answers for."""
        return self.db.max_seeds

    def check_covered(self, state: np.ndarray) -> None:
        seeds = self.game.seeds_in_play(state)
        if seeds > self.db.max_seeds:
            raise BadInput(f"perfect: this {self.game.name} position has {seeds} seeds in play, more than the "
                             f"{self.db.max_seeds} of the endgame database (db_seeds); no exact result")

    def result(self, state: np.ndarray, deadline: float | None = None) -> int:
        """+1, 0 or -1: the result for the player to move under perfect play by both."""
        self.check_covered(state)
        set_limits(self.counters, nodes=self.max_nodes)
        return self._search(state, -1, 1, *self._stretch(state), deadline)

    def move_results(self, state: np.ndarray, deadline: float | None = None) -> dict[int, int]:
        """``{pit: the mover's result after playing it}`` for every legal pit (one budget for all).

        The position's own result first: where it is a loss every move loses, and elsewhere each
        move only has to be tested against it (a zero-width window fails fast), and again
        against a draw where it falls short of a win."""
        self.check_covered(state)
        set_limits(self.counters, nodes=self.max_nodes)
        lowest, highest, unseen = self._stretch(state)
        best = self._search(state, -1, 1, lowest, highest, unseen, deadline)
        game, mover = self.game, self.game.to_move(state)
        s = int(np.sign(self._swept(state)))
        out = {}
        for pit in np.flatnonzero(game.legal_mask(state)):
            child = game.apply_fast(state.copy(), int(pit))
            if game.is_terminal(child):
                stores = game.scores(child)
                out[int(pit)] = int(np.sign(stores[mover] - stores[1 - mover]))
                continue
            if sum(game.scores(child)) > sum(game.scores(state)):  # a capture: a new stretch
                after = (NONE_SWEPT, -NONE_SWEPT, False)
            else:
                after = (min(lowest, s), max(highest, s), unseen)
            result = -1
            for hope in range(best, -1, -1):  # the mover makes at least ``hope``: the child at most -hope
                if -self._search(child, -hope, 1 - hope, *after, deadline) >= hope:
                    result = hope
                    break
            out[int(pit)] = result
        return out

    def _stretch(self, state) -> tuple[int, int, bool]:
        """(lowest, highest, unseen): the signs of player_0's sweep over the positions of ``state``'s
        stretch before it, and whether some of them could not be found (then every sweep its seeds
        allow stands for them)."""
        if self.game.positions_since_capture(state) == 1:
            return NONE_SWEPT, -NONE_SWEPT, False
        found, lowest, highest = earlier_sweeps(state, self.game.pits)
        return (int(lowest), int(highest), False) if found else (NONE_SWEPT, -NONE_SWEPT, True)

    def _swept(self, state) -> int:
        """player_0's margin if the game ended here with the seeds swept to their sides."""
        return int(swept(state, self.game.pits))

    def _search(self, state, alpha, beta, low_swept, high_swept, unseen, deadline) -> int:
        """:func:`search` from ``state``, deeper and deeper (the table keeps what each pass settled)
        until the result is known past the window ``(alpha, beta)`` or exactly within it: the result
        if within, else the bound past it. The nodes count against the question's budget (already
        in ``counters``) and stop at ``deadline``; a NotSolved says which limit stopped it."""
        self.states[0] = state
        for horizon in HORIZONS:
            self.counters[NODES] = 0
            lo, hi = search(alpha, beta, horizon, (low_swept, high_swept, int(unseen)), self.stack, self.game.spec,
                            self.bounds, self.table.entries, self.counters, deadline)
            self.nodes += int(self.counters[NODES])
            self.counters[BUDGET] -= self.counters[NODES]
            if self.counters[STOPPED]:
                stopped, self.counters[STOPPED] = self.counters[STOPPED], 0
                raise NotSolved("time" if stopped == BY_TIME else f"{self.max_nodes:,} positions")
            if lo >= beta or lo == hi:
                return int(lo)
            if hi <= alpha:
                return int(hi)
        raise AssertionError("a search without horizon settles every result")

    def best_move(self, state: np.ndarray, deadline: float | None = None) -> tuple[int, int]:
        """(a pit with the best result, that result): the pit nearest the mover's store among them."""
        results = self.move_results(state, deadline)
        best = max(results.values())
        return max(pit for pit, r in results.items() if r == best), best

    def best_moves(self, state: np.ndarray, deadline: float | None = None) -> tuple[int, list[int]]:
        """(the best result for the mover, every pit that keeps it)."""
        results = self.move_results(state, deadline)
        best = max(results.values())
        return best, sorted(pit for pit, r in results.items() if r == best)

    def value(self, state, deadline=None):
        raise NoExactMargins(MARGINS_NOT_EXACT)

    move_values = value


MARGINS_NOT_EXACT = ("perfect: Oware's values are exact results (win, draw, loss), not margins: the majority rule "
                     "stops a game when a store passes half the seeds, which changes the margin but never the "
                     "winner; use result() and move_results()")
