"""The search core (mancala_marl.search_core): the hash worked by hand, the table, the budget and
clock, the ordering; and each search stopping where its budget or clock says."""

import time

import numba
import numpy as np
import pytest

from mancala_marl.agents import make_policy
from mancala_marl.endgame import database, solver
from mancala_marl.errors import NotSolved
from mancala_marl.games import make_game
from mancala_marl.search_core import (BOUND, BUDGET, BY_NODES, BY_TIME, CHECK_EVERY, FNV_OFFSET, FNV_PRIME, NO_MOVE,
                                      NODES, NONE, STOPPED, Table, bounds_after, bounds_of, fnv1a, insert_ordered,
                                      lookup, new_counters, set_limits, spend, store)

MASK = (1 << 64) - 1


def by_hand(values) -> int:
    h = FNV_OFFSET
    for value in values:
        h = ((h ^ (value + 1)) * FNV_PRIME) & MASK
    return h


def test_fnv1a_is_the_published_recurrence_over_each_value_plus_one():
    cells = np.array([4, 0, 7, 0, 2], dtype=np.int32)
    assert int(fnv1a(cells, 5, NONE, NONE)) == by_hand([4, 0, 7, 0, 2])
    assert int(fnv1a(cells, 3, NONE, NONE)) == by_hand([4, 0, 7])  # the first count cells only
    assert int(fnv1a(cells, 0, NONE, NONE)) == FNV_OFFSET
    # an empty cell still changes the hash: [0] and [] differ, as do [0, 5] and [5]
    assert by_hand([0]) != FNV_OFFSET and by_hand([0, 5]) != by_hand([5])


def test_skipped_cells_are_left_out_as_if_absent():
    cells = np.array([3, 9, 1, 6], dtype=np.int32)
    assert int(fnv1a(cells, 4, 1, 3)) == by_hand([3, 1])
    other = cells.copy()
    other[[1, 3]] = [50, 60]  # the stores, say: a search that leaves them out sees one position
    assert fnv1a(cells, 4, 1, 3) == fnv1a(other, 4, 1, 3) and fnv1a(cells, 4, NONE, NONE) != fnv1a(other, 4, NONE, NONE)


@numba.njit  # not cached: numba would not see an edit of the core's helpers it inlines
def _probe(entries, key, effort=0):
    return lookup(entries, key, effort)


@numba.njit  # not cached: numba would not see an edit of the core's helpers it inlines
def _bounds(entries, key):
    return bounds_of(entries, key, -50, 50)


@numba.njit  # not cached: numba would not see an edit of the core's helpers it inlines
def _put(entries, key, low, high, move, depth):
    store(entries, key, low, high, move, depth)


@numba.njit  # not cached: numba would not see an edit of the core's helpers it inlines
def _spend_until_stopped(counters, most, deadline):
    for _ in range(most):
        if spend(counters, deadline):
            return True
    return False


@numba.njit  # not cached: numba would not see an edit of the core's helpers it inlines
def _ordered(moves, scores_in):
    order = np.zeros((2, len(moves)), dtype=np.int64)
    scores = np.zeros(len(moves), dtype=np.int64)
    n = 0
    for k in range(len(moves)):
        n = insert_ordered(order, 1, scores, n, moves[k], scores_in[k])
    return order[1, :n]


def test_the_table_gives_back_what_was_stored_and_a_later_entry_replaces_an_earlier_one():
    table = Table(4, depths=True)
    assert len(table) == 16 and _probe(table.entries, np.uint64(35)) == (False, -BOUND, BOUND, NO_MOVE)
    _put(table.entries, np.uint64(35), -3, 7, 2, 9)
    assert _probe(table.entries, np.uint64(35), 9) == (True, -3, 7, 2)
    assert _probe(table.entries, np.uint64(35), 10) == (True, -BOUND, BOUND, 2)  # too shallow: its move only
    assert _bounds(table.entries, np.uint64(35)) == (-3, 7) and _bounds(table.entries, np.uint64(19)) == (-50, 50)
    _put(table.entries, np.uint64(51), 4, 4, 1, 1)  # 51 & 15 == 35 & 15: the same slot
    assert _probe(table.entries, np.uint64(35))[0] is False and _probe(table.entries, np.uint64(51)) == (True, 4, 4, 1)
    without = Table(4)  # no depths kept: its bounds always hold
    _put(without.entries, np.uint64(35), -1, 1, 0, 9)
    assert _probe(without.entries, np.uint64(35), 99) == (True, -1, 1, 0) and without.depths is None
    bare = Table(4, moves=False)  # no moves kept either: NO_MOVE
    _put(bare.entries, np.uint64(35), -1, 1, 3, 9)
    assert _probe(bare.entries, np.uint64(35)) == (True, -1, 1, NO_MOVE) and bare.moves is None
    table.clear()
    assert _probe(table.entries, np.uint64(51))[0] is False
    assert len(Table(0)) == 0 and len(Table(None)) == 0


def test_bounds_after_a_search_fail_low_fail_high_or_exact():
    assert bounds_after(2, 2, 6, -10, 10) == (-10, 2)  # at most alpha: an upper bound
    assert bounds_after(8, 2, 6, -10, 10) == (8, 10)  # at least beta: a lower bound
    assert bounds_after(4, 2, 6, -10, 10) == (4, 4)  # inside the window: exact
    assert bounds_after(1, 2, 6, -10, 0) == (-10, 0)  # a bound already tighter is kept


def test_the_budget_stops_a_search_after_that_many_nodes():
    counters = new_counters(extra=1)
    set_limits(counters, nodes=1000)
    assert _spend_until_stopped(counters, 10_000, None) and counters[STOPPED] == BY_NODES and counters[NODES] == 1001
    set_limits(counters)  # no limit: all 10,000 nodes, nothing stopped
    assert not _spend_until_stopped(counters, 10_000, None) and counters[STOPPED] == 0 and counters[NODES] == 10_000
    assert counters[BUDGET] > 1 << 60


def test_the_clock_stops_a_search_at_the_first_look_past_its_deadline():
    counters = new_counters()
    set_limits(counters)
    assert _spend_until_stopped(counters, 10 * CHECK_EVERY, time.perf_counter() - 1)  # already past
    assert counters[STOPPED] == BY_TIME and counters[NODES] == CHECK_EVERY
    set_limits(counters)
    assert not _spend_until_stopped(counters, 10 * CHECK_EVERY, time.perf_counter() + 3600) and counters[STOPPED] == 0


def test_moves_are_ordered_best_first_ties_in_the_order_listed():
    moves = np.array([5, 4, 3, 2, 1, 0])
    assert _ordered(moves, np.array([1, 7, 1, 9, 7, 0])).tolist() == [2, 4, 1, 5, 3, 0]


def test_each_search_stops_at_its_deadline(tmp_path):
    sungka = make_game("sungka")  # a slow game: a depth-30 search would take hours
    policy = make_policy("alphabeta:depth=30,time_limit=0.3")
    policy.act(sungka, sungka.init())  # compiled first
    start = time.perf_counter()
    pit = policy.act(sungka, sungka.init())
    assert time.perf_counter() - start < 1.5 and sungka.legal_mask(sungka.init())[pit] and policy.last_depth < 30
    # one pass, stopped inside the kernel (not between the passes of iterative deepening)
    start = time.perf_counter()
    _, _, completed = policy.table(sungka).search(sungka.init(), 12, 4, deadline=start + 0.2)
    assert not completed and time.perf_counter() - start < 1.0
    kalah = make_game("kalah", pits=6, seeds=3)
    perfect = solver(database(kalah, 4, folder=tmp_path), tt_bits=12)  # a small database: the search has most of the work
    with pytest.raises(NotSolved):
        perfect.value(kalah.init(), deadline=time.perf_counter() + 0.01)
    assert perfect.value(kalah.init()) == 2  # the published value, once given the time
