"""The best-response search against deterministic baselines: plain recursion agrees with it on small
boards, every winning line it reports wins when replayed, and its bounds on exact boards."""

import numpy as np
import pytest

from mancala_marl.agents import make_policy
from mancala_marl.agents.best_response import NO_WIN, UNKNOWN, WIN, BestResponse
from mancala_marl.games import make_game

# Small boards whose lines all end within a few dozen moves against these baselines (on some
# Togyz Kumalak boards balls circle for ever: the recursion's depth guard would say so).
SMALL = [("kalah", dict(pits=3, seeds=2)), ("sungka", dict(houses=3, stones=2)),
         ("oware", dict(houses=3, seeds=2)), ("togyz_kumalak", dict(holes=3, balls=3))]


def can_win_by_recursion(game, state, learner, baseline, depth=0):
    """Every line of the learner's moves, the baseline's policy object answering; no table, no bounds."""
    assert depth < 200, "a line did not end"
    if game.is_terminal(state):
        scores = game.scores(state)
        return scores[learner] > scores[1 - learner]
    if game.to_move(state) != learner:
        child = state.copy()
        game.apply(child, baseline.act(game, state.copy()))
        return can_win_by_recursion(game, child, learner, baseline, depth + 1)
    for pit in np.flatnonzero(game.legal_mask(state)):
        child = state.copy()
        game.apply(child, int(pit))
        if can_win_by_recursion(game, child, learner, baseline, depth + 1):
            return True
    return False


def replay(game, state, learner, baseline, line):
    """Play ``line`` as the learner against the baseline, then the learner's first legal pit; the margin."""
    state, moves = state.copy(), list(line)
    while not game.is_terminal(state):
        if game.to_move(state) == learner:
            pit = moves.pop(0) if moves else int(np.flatnonzero(game.legal_mask(state))[0])
        else:
            pit = baseline.act(game, state.copy())
        game.apply(state, pit)
    assert not moves, "the game ended before the line did"
    scores = game.scores(state)
    return scores[learner] - scores[1 - learner]


def short_openings(game, count, seed):
    rng = np.random.default_rng(seed)
    found = []
    while len(found) < count:
        state = game.init()
        for _ in range(int(rng.integers(0, 5))):
            if game.is_terminal(state):
                break
            game.apply(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
        if not game.is_terminal(state):
            found.append(state)
    return found


@pytest.mark.parametrize("name, params", SMALL)
@pytest.mark.parametrize("opponent", ["max", "exact"])
def test_agrees_with_plain_recursion_and_its_winning_lines_win(name, params, opponent):
    game = make_game(name, **params)
    baseline, solver = make_policy(opponent), BestResponse(game, opponent, table_bits=16)
    outcomes = set()
    for state in short_openings(game, 12, seed=1):
        for learner in (0, 1):
            result = solver.can_win(state, learner)
            assert result in (WIN, NO_WIN)
            assert (result == WIN) == can_win_by_recursion(game, state, learner, baseline), (state, learner)
            if result == WIN:
                assert replay(game, state, learner, baseline, solver.winning_line) > 0
            outcomes.add(result)
    if name in ("kalah", "oware"):  # these boards hold positions of both kinds: both answers are exercised
        assert outcomes == {WIN, NO_WIN}


def test_decided_positions_need_no_search():
    game = make_game("kalah")  # 48 seeds: more than 24 in a store decides the game
    ahead = game.from_board([1, 0, 0, 0, 0, 2, 25, 3, 0, 0, 0, 0, 1, 16], to_move=0)
    solver = BestResponse(game, "exact", table_bits=10)
    assert solver.can_win(ahead, learner=0) == WIN and solver.winning_line == [] and solver.nodes == 0
    # The other player already holds 24 of 48: the learner can at best draw.
    behind = game.from_board([1, 0, 0, 0, 0, 2, 16, 3, 0, 0, 0, 0, 2, 24], to_move=0)
    assert solver.can_win(behind, learner=0) == NO_WIN and solver.nodes == 0


def test_the_baseline_moves_first_when_it_is_its_turn():
    # Kalah, player 1 (the baseline, exact) to move. Its pit nearest the store (1 seed) ends in the
    # store: 21, again; the next pit (2 seeds) puts one back there and one in the store: 22, again;
    # that one seed: 23, and its side is empty. The game ends, player 0 sweeps its 5 seeds and has
    # 20 + 5 = 25 of 48: it wins without a move of its own.
    game = make_game("kalah")
    state = game.from_board([1, 1, 1, 1, 0, 1, 20, 0, 0, 0, 0, 2, 1, 20], to_move=1)
    solver = BestResponse(game, "exact", table_bits=10)
    assert solver.can_win(state, learner=0) == WIN and solver.winning_line == []
    assert replay(game, state, 0, make_policy("exact"), []) == 25 - 23


def test_a_budget_too_small_is_unknown_not_a_wrong_answer():
    game = make_game("kalah")
    solver = BestResponse(game, "exact", table_bits=12)
    assert solver.can_win(game.init(), learner=0, budget=3) == UNKNOWN and solver.winning_line == []
    assert solver.can_win(game.init(), learner=0) == WIN and solver.nodes > 3


def test_bad_input_is_named():
    game = make_game("kalah")
    with pytest.raises(ValueError, match="deterministic baseline.*'random'"):
        BestResponse(game, "random")
    with pytest.raises(ValueError, match=r"^table_bits must be <= 32, got 40; it takes 10..32$"):
        BestResponse(game, "max", table_bits=40)
    solver = BestResponse(game, "max", table_bits=10)
    with pytest.raises(ValueError, match="learner must be 0 or 1"):
        solver.can_win(game.init(), learner=2)
    over = game.from_board([0] * 6 + [24] + [0] * 6 + [24], to_move=0)
    over[game.board_size] = -1
    with pytest.raises(ValueError, match="game is over"):
        solver.can_win(over, learner=0)
