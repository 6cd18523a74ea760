"""Exact results (win, draw, loss) of Oware endgames: a search under our rules, the database at
the positions right after a capture.

The database (:mod:`mancala_marl.endgame.oware`) bounds the margin still to come of a position
whose history is the position alone, as right after a capture, in the game without the majority
rule. The result under our rules is the sign of the store margin plus that margin, so the
database decides it wherever the store margin plus either bound has the same sign. Elsewhere the
search plays on, with the rules kernel and the position's own history, so that repetitions end
lines as they end games; captures lead back to the database. Results are -1, 0 and +1 for the
player to move, searched with alpha-beta over those three values, captures first.

A node's result also lies between the sweeps of the earlier positions of its stretch that a line
could return to (a repetition ends the game with the seeds swept, as they lay then), so those
widen the database's bounds; where the search starts mid-stretch, the positions before it are
known by their hashes alone, and the widest sweep (every seed to one side) stands for them.

A table keyed on the whole position, its history included (the rules' hashes of the positions
since the last capture, and their count), keeps what each search learned: a result depends on
nothing else, so the table serves every later question of the same game. It helps most right
after a capture, where lines that captured in another order meet.
"""

from __future__ import annotations

import time

import numba
import numpy as np

from .._compile import kernel
from ..games.base import GAME_OVER, SPEC_PITS
from ..games.oware import COUNT, DIGEST, HASHES, HISTORY, _get64, apply_move, legal_moves
from .oware import search_bounds
from .ranking import state_index

MAX_NODES = 20_000_000  # positions one question may search: about ten seconds
CHECK_EVERY = 4096  # nodes between two looks at the clock
NODES, BUDGET, STOPPED = range(3)
BY_NODES, BY_TIME = 1, 2
# frame[p]: the window (raised by the children), the window searched with, the bounds, the best result so far, the children
# listed and the next one, the signs of the earlier sweeps of the stretch (player_0's, lowest and
# highest), whether positions before the search's start are in the stretch
F_A, F_B, F_A0, F_B0, F_LO, F_HI, F_BEST, F_N, F_K, F_MIN, F_MAX, F_UNSEEN = range(12)
NONE_SWEPT = 2  # the lowest of no sweeps (and minus the highest)


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
    h = _get64(state, base + HASHES + 2 * (n - 1)) * np.uint64(0x9E3779B97F4A7C15)
    h ^= _get64(state, base + DIGEST) ^ (np.uint64(n) << np.uint64(55))
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


@kernel
def search(alpha, beta, low_swept, high_swept, unseen, states, frames, order, ply_keys, spec, low, high, safe_low,
           safe_high, table, blocks, keys, lows, highs, counters, deadline):
    """The result (-1, 0, +1) for the mover of ``states[0]``: exact if it lies strictly inside
    ``(alpha, beta)``, else a bound on the side it failed. ``low_swept``/``high_swept``: the
    lowest and highest sign of player_0's sweep over the earlier positions of the stretch the
    search can see (``NONE_SWEPT``, ``-NONE_SWEPT`` for none); ``unseen``: whether the stretch
    began before ``states[0]``.

    An explicit stack: row ``p`` of ``states`` holds the state at ply ``p`` (the rules' own, its
    history included), ``frames[p]`` its numbers (the ``F_*`` columns), ``order[p]`` its children
    in the order tried, ``ply_keys[p]`` its table key. ``counters`` (int64[3]): nodes searched,
    the budget, and why the search stopped short (``BY_NODES``, ``BY_TIME``; 0: it did not).
    ``deadline``: a ``time.perf_counter()`` past which it stops (``inf`` for none).
    """
    pits = spec[SPEC_PITS]
    cells = 2 * pits + 2
    mask = np.uint64(keys.shape[0] - 1)
    legal = np.empty(pits, dtype=np.bool_)
    gains = np.empty(pits, dtype=np.int64)
    p = 0
    frames[0, F_A], frames[0, F_B] = alpha, beta
    frames[0, F_MIN], frames[0, F_MAX], frames[0, F_UNSEEN] = low_swept, high_swept, unseen
    enter = True
    ret = 0
    while True:
        if enter:  # a new node at ply p: answer it from its bounds, or list its children
            enter = False
            state = states[p]
            counters[NODES] += 1
            if counters[NODES] % CHECK_EVERY == 0:
                if counters[NODES] > counters[BUDGET]:
                    counters[STOPPED] = BY_NODES
                    return 0
                with numba.objmode(now="float64"):
                    now = time.perf_counter()
                if now > deadline:
                    counters[STOPPED] = BY_TIME
                    return 0
            if p >= states.shape[0] - 1:  # more captures than the stack was sized for: cannot be
                counters[STOPPED] = BY_NODES
                return 0
            # What each side can force from here (the database), or, where a line comes back to a
            # position of this stretch, that position's sweep: the result lies between.
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
            slot = key & mask
            if keys[slot] == key:
                lo, hi = max(lo, np.int64(lows[slot])), min(hi, np.int64(highs[slot]))
            a, b = frames[p, F_A], frames[p, F_B]
            if lo == hi or lo >= b or hi <= a:
                ret = lo if lo >= b or lo == hi else hi
                if p == 0:
                    return ret
                p -= 1
                _hand_down(frames, p, -ret)
                continue
            a, b = max(a, lo), min(b, hi)
            frames[p, F_A], frames[p, F_B], frames[p, F_A0], frames[p, F_B0] = a, b, a, b
            frames[p, F_LO], frames[p, F_HI], frames[p, F_BEST] = lo, hi, -2
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
                scratch[:used] = state[:used]
                apply_move(scratch, house, spec)
                gain = _promise(scratch, mover, stores, pits, cells, low, high, table, blocks)
                j = n
                while j > 0 and gains[j - 1] < gain:
                    order[p, j], gains[j] = order[p, j - 1], gains[j - 1]
                    j -= 1
                order[p, j], gains[j] = house, gain
                n += 1
            frames[p, F_N], frames[p, F_K] = n, 0
        # the next child of the node at ply p, or its end
        k = frames[p, F_K]
        if k >= frames[p, F_N] or frames[p, F_A] >= frames[p, F_B]:
            best = frames[p, F_BEST]
            lo, hi = frames[p, F_LO], frames[p, F_HI]
            if best <= frames[p, F_A0]:
                hi = min(hi, best)
            elif best >= frames[p, F_B0]:
                lo = max(lo, best)
            else:
                lo = hi = best
            slot = ply_keys[p] & mask
            keys[slot], lows[slot], highs[slot] = ply_keys[p], lo, hi
            if p == 0:
                return best
            p -= 1
            _hand_down(frames, p, -best)
            continue
        state = states[p]
        child = states[p + 1]
        mover = state[cells]
        used = used_slots(state, cells)
        child[:used] = state[:used]
        apply_move(child, order[p, k], spec)
        if child[cells] == GAME_OVER:
            _hand_down(frames, p, sign(child[mover * (pits + 1) + pits] - child[(1 - mover) * (pits + 1) + pits]))
            continue
        if child[pits] + child[cells - 1] > state[pits] + state[cells - 1]:  # a capture: a new stretch
            frames[p + 1, F_MIN], frames[p + 1, F_MAX], frames[p + 1, F_UNSEEN] = NONE_SWEPT, -NONE_SWEPT, 0
        else:
            s = sign(swept(state, pits))
            frames[p + 1, F_MIN], frames[p + 1, F_MAX] = min(frames[p, F_MIN], s), max(frames[p, F_MAX], s)
            frames[p + 1, F_UNSEEN] = frames[p, F_UNSEEN]
        frames[p + 1, F_A], frames[p + 1, F_B] = -frames[p, F_B], -frames[p, F_A]  # in Oware the turn always passes
        p += 1
        enter = True


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
def _hand_down(frames, p, r):
    """The result ``r`` of the child being searched, for the mover at ply ``p``, into its node."""
    if r > frames[p, F_BEST]:
        frames[p, F_BEST] = r
        if r > frames[p, F_A]:
            frames[p, F_A] = r
    frames[p, F_K] += 1


class ResultSolver:
    """Exact results of one Oware game's positions with at most ``database.max_seeds`` seeds in play.

    ``max_nodes``: the positions one question may search before it is refused (TimeoutError);
    ``tt_bits``: the table holds ``2**tt_bits`` entries (ten bytes each), kept between questions.
    """

    def __init__(self, database, max_nodes: int = MAX_NODES, tt_bits: int = 22):
        self.db, self.game = database, database.game
        self.max_nodes = int(max_nodes)
        self.nodes = 0
        size = 1 << int(tt_bits)
        self.keys = np.zeros(size, dtype=np.uint64)
        self.lows = np.zeros(size, dtype=np.int8)
        self.highs = np.zeros(size, dtype=np.int8)
        # a line without capture holds at most HISTORY positions, and each capture takes 2 seeds or more
        plies = HISTORY * (database.max_seeds // 2 + 1) + 2
        self.states = np.zeros((plies, self.game.state_size), dtype=np.int32)
        self.frames = np.zeros((plies, 12), dtype=np.int64)
        self.order = np.zeros((plies, self.game.pits), dtype=np.int64)
        self.ply_keys = np.zeros(plies, dtype=np.uint64)
        self.counters = np.zeros(3, dtype=np.int64)
        self.low, self.high, self.safe_low, self.safe_high = search_bounds(database)

    def check_covered(self, state: np.ndarray) -> None:
        seeds = self.db.seeds_in_play(state)
        if seeds > self.db.max_seeds:
            raise ValueError(f"perfect: this {self.game.name} position has {seeds} seeds in play, more than the "
                             f"{self.db.max_seeds} of the endgame database (db_seeds); no exact result")

    def result(self, state: np.ndarray, deadline: float | None = None) -> int:
        """+1, 0 or -1: the result for the player to move under perfect play by both."""
        self.check_covered(state)
        self.counters[BUDGET] = self.max_nodes
        return self._search(state, -1, 1, NONE_SWEPT, -NONE_SWEPT, self._unseen(state), deadline)

    def move_results(self, state: np.ndarray, deadline: float | None = None) -> dict[int, int]:
        """``{pit: the mover's result after playing it}`` for every legal pit (one budget for all).

        The position's own result first: where it is a loss every move loses, and elsewhere each
        move only has to be tested against it (a zero-width window fails fast), and again
        against a draw where it falls short of a win."""
        self.check_covered(state)
        self.counters[BUDGET] = self.max_nodes
        best = self._search(state, -1, 1, NONE_SWEPT, -NONE_SWEPT, self._unseen(state), deadline)
        game, mover = self.game, self.game.to_move(state)
        unseen, s = self._unseen(state), int(np.sign(self._swept(state)))
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
                after = (s, s, unseen)
            result = -1
            for hope in range(best, -1, -1):  # the mover makes at least ``hope``: the child at most -hope
                if -self._search(child, -hope, 1 - hope, *after, deadline) >= hope:
                    result = hope
                    break
            out[int(pit)] = result
        return out

    def _unseen(self, state) -> bool:
        """Whether ``state`` comes after positions of its stretch that the search cannot see."""
        return self.game.positions_since_capture(state) > 1

    def _swept(self, state) -> int:
        """player_0's margin if the game ended here with the seeds swept to their sides."""
        return int(swept(state, self.game.pits))

    def _search(self, state, alpha, beta, low_swept, high_swept, unseen, deadline) -> int:
        """:func:`search` from ``state``; the nodes count against the question's budget (already in
        ``counters[BUDGET]``), and a TimeoutError says which limit stopped it."""
        self.states[0] = state
        self.counters[NODES] = 0
        value = search(alpha, beta, low_swept, high_swept, int(unseen), self.states, self.frames, self.order,
                       self.ply_keys, self.game.spec, self.low, self.high, self.safe_low, self.safe_high, self.db.table, self.db.blocks,
                       self.keys, self.lows, self.highs, self.counters, np.inf if deadline is None else deadline)
        self.nodes += int(self.counters[NODES])
        self.counters[BUDGET] -= self.counters[NODES]
        if self.counters[STOPPED]:
            stopped, self.counters[STOPPED] = self.counters[STOPPED], 0
            raise TimeoutError("time" if stopped == BY_TIME else f"more than {self.max_nodes:,} positions")
        return int(value)

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
        raise ValueError(MARGINS_NOT_EXACT)

    move_values = value


MARGINS_NOT_EXACT = ("perfect: Oware's values are exact results (win, draw, loss), not margins: the majority rule "
                     "stops a game when a store passes half the seeds, which changes the margin but never the "
                     "winner; use result() and move_results()")
