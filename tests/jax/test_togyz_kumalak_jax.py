"""Togyz Kumalak's JAX rules (mancala_marl/jax/togyz_kumalak.py) against the numba rules: the
hand-worked boards of tests/test_togyz_kumalak.py replayed on them, sowing across tuzduks, the
tuzduk flags, and random games compared move by move."""

import inspect

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from mancala_marl.games import TogyzKumalak
from mancala_marl.jax.togyz_kumalak import make_rules

from .. import test_togyz_kumalak as hand_worked
from .rules_replay import jax_backed, random_games_match

JaxTogyzKumalak = jax_backed(TogyzKumalak, make_rules)
EXAMPLES = [name for name, _ in inspect.getmembers(hand_worked, inspect.isfunction) if name.startswith("test_")]


@pytest.mark.parametrize("example", EXAMPLES)
def test_hand_worked_example_on_the_jax_rules(example, monkeypatch):
    monkeypatch.setattr(hand_worked, "TogyzKumalak", JaxTogyzKumalak)
    JaxTogyzKumalak.moves = 0
    getattr(hand_worked, example)()
    assert JaxTogyzKumalak.moves > 0  # the example's moves went through the JAX rules


def _numba_and_jax(game, state, hole):
    jax_state = np.asarray(jax.jit(make_rules(game).apply)(jnp.asarray(state), jnp.int32(hole)))
    game.apply(state, hole)
    return state, jax_state


@pytest.mark.parametrize("balls", [1, 2, 17, 18, 19, 40, 77])
def test_sowing_over_both_tuzduks_and_many_laps(balls):
    # player_0 owns B4 (number 3), player_1 owns W6 (number 5); W9 holds `balls`: from a single
    # ball onto B1 to four laps, every ball meant for a tuzduk goes to its owner's kazan.
    game = TogyzKumalak()
    board = [2, 0, 1, 3, 1, 0, 0, 4, balls, 30, 1, 2, 3, 0, 5, 1, 1, 2, 7, 20]
    state = game.from_board(board, tuzduk=(3, 5))
    numba_state, jax_state = _numba_and_jax(game, state, 8)
    assert jax_state.tolist() == numba_state.tolist()
    assert jax_state[10 + 3] == 0 and jax_state[5] == 0  # the tuzduks stay empty


def test_a_single_ball_into_the_movers_own_tuzduk():
    # W9's one ball moves on to B1, player_0's tuzduk: it goes to player_0's kazan, no capture.
    game = TogyzKumalak()
    board = [1, 0, 0, 0, 0, 0, 0, 0, 1, 10, 0, 5, 5, 5, 5, 5, 5, 5, 5, 20]
    state = game.from_board(board, tuzduk=(0, -1))
    numba_state, jax_state = _numba_and_jax(game, state, 8)
    assert jax_state.tolist() == numba_state.tolist()
    assert jax_state[9] == 11 and jax_state[8] == 0


def test_tuzduk_flags_are_the_numba_features():
    game = TogyzKumalak()
    extra_obs = jax.jit(make_rules(game).extra_obs)
    out = np.empty(2 * game.pits, dtype=np.float32)
    for tuzduk in [(-1, -1), (3, -1), (-1, 0), (7, 2)]:
        state = game.from_board([9] * 9 + [0] + [9] * 9 + [0], tuzduk=tuzduk)
        for i, hole in enumerate(tuzduk):
            if hole >= 0:
                state[(1 - i) * 10 + hole] = 0
        for player in (0, 1):
            game.extra_obs_kernel(state, player, game.spec, out)
            assert np.asarray(extra_obs(jnp.asarray(state), jnp.int32(player))).tolist() == out.tolist()
        assert out.sum() == sum(hole >= 0 for hole in tuzduk)


def test_no_legal_move_once_the_game_is_over():
    game = TogyzKumalak()
    state = game.init()
    state[game.board_size] = -1
    assert not np.asarray(make_rules(game).legal(jnp.asarray(state))).any()


@pytest.mark.parametrize("params", TogyzKumalak.examples, ids=str)
def test_random_games_match_the_numba_rules_move_by_move(params):
    game = TogyzKumalak(**params)
    run = random_games_match(game, make_rules(game), games=2000, seed=7)
    assert run["moves"] > 2000 * 20
    # the run met the rule that only Togyz has: tuzduks were made on both sides
    tuzduks = run["states"][:, game.board_size + 1:]
    assert (tuzduks[:, 0] >= 0).any() and (tuzduks[:, 1] >= 0).any()
