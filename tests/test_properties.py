"""Invariants over many random games of every variant and rule parameter set: seeds are
conserved, counts never go negative, every game ends, the mask is never empty while the game is
on, and the final scores add up to all the seeds; the afterstates observation agrees with the engine."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mancala_marl import observations
from mancala_marl.errors import BadInput
from mancala_marl.games import GAME_OVER, Sungka

from .helpers import random_game
from .registry import DEFAULTS, EXAMPLES, GAME_STRATEGY

games = GAME_STRATEGY  # every registered game, with the parameters its rules file declares


def check_invariants(game, state):
    board = state[: game.board_size]
    assert game.state_fault(state) is None, f"set_state would refuse {state}: {game.state_fault(state)}"
    assert (board >= 0).all() and game.out_of_play(state) >= 0, f"negative count in {state}"
    assert board.sum() + game.out_of_play(state) == game.total_seeds, f"seeds not conserved in {state}"
    to_move = game.to_move(state)
    if to_move == GAME_OVER:
        assert not game.legal_mask(state).any()
        first, second = game.scores(state)
        if game.sweeps_at_end:
            assert first + second == game.total_seeds  # the four games sweep the board at their end
    else:
        assert to_move in (0, 1)
        assert game.legal_mask(state).any(), f"empty mask in a live state {state}"


def play_and_check(game, choices):
    state = game.init()
    moves = 0
    while not game.is_terminal(state):
        legal = np.flatnonzero(game.legal_mask(state))
        game.apply(state, int(legal[choices(len(legal))]))
        check_invariants(game, state)
        assert game.seeds_in_play(state) == game.total_seeds - sum(game.scores(state)) - game.out_of_play(state) >= 0
        moves += 1
        assert moves < 50_000, "game did not end"
    check_invariants(game, state)
    if game.sweeps_at_end:
        assert game.scores(state)[0] + game.scores(state)[1] == game.total_seeds and game.seeds_in_play(state) == 0
    returns = game.returns(state)
    assert returns.sum() == 0 and set(returns) <= {-1.0, 0.0, 1.0}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=games, data=st.data())
def test_invariants_hold_for_any_parameters_and_moves(game, data):
    play_and_check(game, lambda n: data.draw(st.integers(0, n - 1), label="move"))


@pytest.mark.parametrize("game", EXAMPLES, ids=repr)
def test_thousands_of_random_games(game):
    rng = np.random.default_rng(12345)
    for _ in range(2000):
        play_and_check(game, lambda n: rng.integers(n))


def test_apply_does_not_touch_other_states():
    game = Sungka()
    start = game.init()
    copy = game.copy(start)
    game.apply(copy, 3)
    assert np.array_equal(start, game.init())


@pytest.mark.parametrize("game", DEFAULTS, ids=repr)
def test_random_games_end_with_a_winner_or_draw(game):
    rng = np.random.default_rng(7)
    outcomes = set()
    for _ in range(300):
        _, state = random_game(game, rng)
        outcomes.add(tuple(game.returns(state)))
    assert outcomes <= {(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)} and len(outcomes) >= 2


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=games, data=st.data())
def test_the_afterstates_observation_holds_the_engines_own_afterstate_of_every_pit(game, data):
    # one source of truth: each block must be exactly the counts encoding of game.apply's result
    state, plies = game.init(), data.draw(st.integers(0, 40), label="plies")
    for _ in range(plies):
        if game.is_terminal(state):
            break
        legal = np.flatnonzero(game.legal_mask(state))
        game.apply(state, int(legal[data.draw(st.integers(0, len(legal) - 1), label="move")]))
    if game.is_terminal(state):
        return
    player, size = game.to_move(state), observations.observation_space(game, "counts").shape[0]
    if game.actions != game.pits:  # a move also names its way (the family): no encoding per pit's move
        with pytest.raises(BadInput, match="also names its way"):
            observations.encode(game, state, player, "afterstates")
        return
    blocks = observations.encode(game, state, player, "afterstates")[-game.pits * size:].reshape(game.pits, size)
    legal = game.legal_mask(state)
    for pit in range(game.pits):
        expected = (observations.encode(game, game.apply(game.copy(state), pit), player, "counts")
                    if legal[pit] else np.zeros(size))
        assert np.array_equal(blocks[pit], expected), f"pit {pit} of {state}"
