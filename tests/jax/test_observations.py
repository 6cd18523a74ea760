"""The JAX environments' observations against mancala_marl.observations, value for value, from
both sides, on positions of random games (finished ones included). ``afterstates`` holds
``counts``, every ``moves`` and ``turns`` feature and the boards each pit leaves, so it is checked
on every variant; ``moves`` and ``turns``, the same code with fewer features, on Kalah."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from mancala_marl import observations
from mancala_marl.games import GAMES, make_game
from mancala_marl.jax import JAX_VARIANTS, examples, make

from ..helpers import random_game


def positions(game, count, seed=0):
    """``count`` positions spread over random games of ``game``, each game's end among them."""
    rng, states = np.random.default_rng(seed), []
    while len(states) < count:
        history, end = random_game(game, rng)
        states += [state for state, _ in history[::max(1, len(history) // 6)]] + [end]
    return np.stack(states[:count])


def check(name, params, obs_type, count):
    game = make_game(name, **params)
    env = make(name, obs_type=obs_type, **params)
    states = positions(game, count)
    players = np.arange(count) % 2  # the player to move and the other one
    got = np.asarray(jax.jit(jax.vmap(env.encode))(jnp.asarray(states), jnp.asarray(players, jnp.int32)))
    expected = observations.encode_batch(game, states, players, obs_type)
    assert got.dtype == np.float32 and got.shape == expected.shape
    bad = np.flatnonzero((got != expected).any(1))
    assert not len(bad), f"{game!r} {obs_type}, player_{players[bad[0]]} in {states[bad[0]].tolist()}: " \
                         f"JAX {got[bad[0]].tolist()}, numba {expected[bad[0]].tolist()}"


@pytest.mark.parametrize("name", JAX_VARIANTS)
@pytest.mark.parametrize("obs_type", ["counts", "paper"])
def test_board_encodings_on_every_rule_set(name, obs_type):
    for params in examples(name):
        check(name, params, obs_type, 200)


# the turn feature plays every sequence of TURN_CHAIN pits from each pit: 6^5 moves a position on
# Wari's board, a minute and more of the family's rules on a CPU; its board of three holes, 3^5
AFTERSTATE_RULES = {"family": {"holes": 3, "seeds": 3}}


@pytest.mark.parametrize("name", JAX_VARIANTS)
def test_afterstates(name):
    check(name, AFTERSTATE_RULES.get(name, {}), "afterstates", 24)


@pytest.mark.parametrize("obs_type", ["moves", "turns"])
def test_moves_and_turns(obs_type):
    check("kalah", {}, obs_type, 24)
