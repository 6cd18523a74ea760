"""Oware endgames: the database's bounds and the exact results, held to a plain search of the
rules on small boards (every line played out, repetitions and all, no database): the result of
each position and of each of its moves, the bounds the search leans on, and the sweeps of a
stretch found again from the history's hashes."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from mancala_marl.agents import make_policy
from mancala_marl.endgame import database
from mancala_marl.endgame.oware_database import search_bounds
from mancala_marl.endgame.oware_solver import ResultSolver, earlier_sweeps
from mancala_marl.errors import NotSolved
from mancala_marl.endgame.ranking import state_index
from mancala_marl.games import make_game

# boards small enough for the plain search to play out most positions
RULES = [{"houses": 3, "seeds": 1}, {"houses": 2, "seeds": 2, "grand_slam": "illegal"}, {"houses": 4, "seeds": 1}]


def plain_result(game, state, budget) -> int:
    """The mover's result under our rules by playing out every line (no database, no pruning
    beyond alpha-beta on -1/0/+1)."""
    def search(state, alpha, beta):
        budget[0] -= 1
        if budget[0] < 0:
            raise TimeoutError
        mover = game.to_move(state)
        best = -2
        for pit in np.flatnonzero(game.legal_mask(state)):
            child = game.apply(state.copy(), int(pit))
            if game.is_terminal(child):
                s = game.scores(child)
                r = int(np.sign(s[mover] - s[1 - mover]))
            else:
                r = -search(child, -beta, -alpha)
            best = max(best, r)
            alpha = max(alpha, r)
            if alpha >= beta:
                break
        return best
    return search(state, -1, 1)


def positions(game, max_in_play, count, seed):
    """Positions of random games once at most ``max_in_play`` seeds are left, mid-stretch or not."""
    rng = np.random.default_rng(seed)
    found = []
    while len(found) < count:
        state = game.init()
        while not game.is_terminal(state):
            if game.board(state).sum() - sum(game.scores(state)) <= max_in_play and rng.random() < 0.3:
                found.append(state.copy())
                break
            game.apply(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
    return found


@pytest.mark.parametrize("rules", RULES, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()))
def test_bounds_hold_every_board(rules, tmp_path):
    game = make_game("oware", **rules)
    db = database(game, game.total_seeds, folder=tmp_path)
    assert (db.low <= db.high).all()
    for n in range(db.max_seeds + 1):
        first, last = db.blocks[n, 0], db.blocks[n + 1, 0]
        assert db.low[first:last].min() >= -n and db.high[first:last].max() <= n
    assert (db.low == db.high).any() and (db.low < db.high).any()  # both kinds occur on these boards


@pytest.mark.parametrize("rules", RULES, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()))
def test_results_match_playing_every_line(rules, tmp_path):
    game = make_game("oware", **rules)
    db = database(game, game.total_seeds, folder=tmp_path)
    solver = ResultSolver(db)
    checked = 0
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 4000))
    for state in positions(game, 5, 100, seed=len(str(rules))):
        try:
            expected = plain_result(game, state, [20_000])
            found = solver.result(state)
        except TimeoutError:  # either search may run out on a long line without capture
            continue
        assert found == expected, game.board(state).tolist()
        checked += 1
        try:  # a full window for every move: dearer than the result, which stops at a win
            moves = solver.move_results(state)
        except TimeoutError:
            continue
        assert max(moves.values()) == expected
    assert checked >= 20  # every one that both searches finished agreed


@pytest.mark.parametrize("rules", RULES[:2], ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()))
def test_every_move_result_matches_playing_every_line(rules, tmp_path):
    game = make_game("oware", **rules)
    db = database(game, game.total_seeds, folder=tmp_path)
    solver = ResultSolver(db)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 4000))
    checked = 0
    for state in positions(game, 6, 60, seed=11):
        mover = game.to_move(state)
        try:
            expected = {}
            for pit in np.flatnonzero(game.legal_mask(state)):
                child = game.apply(state.copy(), int(pit))
                if game.is_terminal(child):
                    s = game.scores(child)
                    expected[int(pit)] = int(np.sign(s[mover] - s[1 - mover]))
                else:
                    expected[int(pit)] = -plain_result(game, child, [20_000])
        except TimeoutError:
            continue
        assert solver.move_results(state) == expected, game.board(state).tolist()
        checked += 1
    assert checked >= 20


@pytest.mark.parametrize("rules", RULES[:2], ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()))
def test_the_search_bounds_hold_the_result(rules, tmp_path):
    """``low``/``high`` hold right after a capture; ``safe_low``/``safe_high`` whatever the history."""
    game = make_game("oware", **rules)
    db = database(game, game.total_seeds, folder=tmp_path)
    low, high, safe_low, safe_high = search_bounds(db)
    assert (db.low <= low).all() and (high <= db.high).all()  # never looser than the database's
    assert (safe_low <= safe_high).all() and (low <= high).all()
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 4000))
    fresh = checked = 0
    for state in positions(game, 6, 80, seed=12):
        try:
            result = plain_result(game, state, [20_000])
        except TimeoutError:
            continue
        mover = game.to_move(state)
        stores = game.scores(state)
        banked = stores[mover] - stores[1 - mover]
        at = state_index(state, game.pits, mover, db.table, db.blocks)
        assert np.sign(banked + safe_low[at]) <= result <= np.sign(banked + safe_high[at])
        if game.positions_since_capture(state) == 1:
            assert np.sign(banked + low[at]) <= result <= np.sign(banked + high[at])
            fresh += 1
        checked += 1
    assert checked >= 30 and fresh >= 5


def test_the_sweeps_of_a_stretch_are_found_from_its_hashes():
    game = make_game("oware", houses=4, seeds=2)
    rng = np.random.default_rng(4)
    for _ in range(20):
        state, sweeps = game.init(), []
        while not game.is_terminal(state):
            if game.positions_since_capture(state) == 1:
                sweeps = []
            if len(sweeps) >= 2 and rng.random() < 0.3:
                break
            board = game.board(state)
            sweeps.append(int(np.sign(board[:5].sum() - board[5:].sum())))
            game.apply(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
        if game.is_terminal(state) or game.positions_since_capture(state) < 2:
            continue
        earlier = sweeps[-(game.positions_since_capture(state) - 1):]
        assert earlier_sweeps(state, game.pits) == (True, min(earlier), max(earlier))


def test_fresh_positions_where_the_bounds_meet_give_the_result_at_once(tmp_path):
    game = make_game("oware", houses=3, seeds=2)
    db = database(game, game.total_seeds, folder=tmp_path)
    solver = ResultSolver(db)
    for state in positions(game, 12, 80, seed=3):
        if game.positions_since_capture(state) != 1:
            continue
        low, high = db.bounds(state)
        stores = game.scores(state)
        banked = stores[game.to_move(state)] - stores[1 - game.to_move(state)]
        if np.sign(banked + low) == np.sign(banked + high):
            before = solver.nodes
            assert solver.result(state) == np.sign(banked + low)
            assert solver.nodes - before == 1


def test_perfect_on_oware_gives_results_not_margins(tmp_path, monkeypatch):
    monkeypatch.setenv("MANCALA_MARL_CACHE", str(tmp_path))
    game = make_game("oware", houses=3, seeds=2)
    perfect = make_policy("perfect")
    state = positions(game, 6, 1, seed=5)[0]
    with pytest.raises(ValueError, match="majority rule"):
        perfect.value(game, state)
    with pytest.raises(ValueError, match="majority rule"):
        perfect.move_values(game, state)
    results = perfect.move_results(game, state)
    pit = perfect.act(game, state)
    assert results[pit] == max(results.values())
    assert pit == max(p for p, r in results.items() if r == max(results.values()))  # nearest the store


def test_a_position_past_the_database_is_refused_in_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv("MANCALA_MARL_CACHE", str(tmp_path))
    game = make_game("oware", houses=4, seeds=3)
    perfect = make_policy("perfect", db_seeds=6)
    with pytest.raises(ValueError, match="more than the 6 of the endgame database") as error:
        perfect.result(game, game.init())
    assert "\n" not in str(error.value)


def test_a_search_past_its_budget_is_refused(tmp_path):
    game = make_game("oware", houses=6, seeds=2)
    db = database(game, 10, folder=tmp_path)
    solver = ResultSolver(db, max_nodes=50)
    refused = 0
    for state in positions(game, 10, 20, seed=7):
        try:
            solver.move_results(state)
        except NotSolved as error:
            assert error.limit == "50 positions" and str(error) == "not solved within 50 positions"
            refused += 1
    assert refused > 0


def test_the_table_size_asked_for_is_the_one_oware_gets(tmp_path):
    from mancala_marl.endgame import solver

    db = database(make_game("oware", houses=6, seeds=2), 4, folder=tmp_path)
    table = solver(db, tt_bits=12)
    assert isinstance(table, ResultSolver) and len(table.table) == 1 << 12 and not table.exact_margins
    assert table.max_seeds == 4
