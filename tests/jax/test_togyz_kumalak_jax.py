"""Togyz Kumalak's JAX rules (mancala_marl/jax/togyz_kumalak.py) against the numba rules where
random games seldom go: sowing across both tuzduks over many laps, a single ball into the mover's
own tuzduk, the tuzduk flags. The hand-worked boards of tests/test_togyz_kumalak.py (tuzduks made
and refused, majority, the sweep) replay on the JAX rules in test_rule_examples.py, and random
games are compared move by move in test_crosscheck.py."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from mancala_marl.games import TogyzKumalak
from mancala_marl.jax.togyz_kumalak import make_rules


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

