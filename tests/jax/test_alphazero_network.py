"""The JAX AlphaZero network reads what the CPU ``alphazero`` policy reads, and its export plays there."""

import jax
import numpy as np
import pytest

from mancala_marl.agents import make_policy
from mancala_marl.agents import alphazero as az_policy
from mancala_marl.games import make_game
from mancala_marl.jax import JAX_VARIANTS, from_state, make
from mancala_marl.train.alphazero.jax.network import export, feature_fn, forward, init_params
from tests.helpers import random_positions


@pytest.mark.parametrize(("name", "obs_type"), [(name, "moves") for name in JAX_VARIANTS] + [("kalah", "counts")])
def test_features_equal_the_cpu_policys(name, obs_type):
    game = make_game(name)
    states = random_positions(game, 64, seed=len(name))
    env = make(name, obs_type=obs_type)
    observed = from_state(env, states).observation
    ours = np.asarray(jax.jit(feature_fn(game, obs_type))(observed))
    theirs = az_policy.features(game, states, obs_type)
    np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("name", ["togyz_kumalak"])  # the game with extra observation entries (tuzduk)
def test_the_exported_network_plays_on_cpu_with_the_same_outputs(name, tmp_path):
    game = make_game(name)
    states = random_positions(game, 32, seed=1)
    params = init_params(jax.random.key(3), az_policy.feature_layout(game, "moves")[1], [32, 16], game.pits)
    export(params, game, "moves", [32, 16], path=tmp_path / "net.npz", generation=0)
    policy = make_policy(f"alphazero:path={tmp_path / 'net.npz'},sims=0")
    net = policy.network(game)
    logits, values = net(az_policy.features(game, states, net.obs_type))
    x = feature_fn(game, "moves")(from_state(make(name, obs_type="moves"), states).observation)
    jax_logits, jax_values = forward(params, x)
    np.testing.assert_allclose(logits, jax_logits, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(values, jax_values, rtol=1e-5, atol=1e-5)
    # the policy's move with sims=0 is the JAX network's most likely legal move
    move = policy.act(game, states[0].copy())
    legal = game.legal_mask(states[0])
    assert move == int(np.flatnonzero(legal)[np.argmax(np.asarray(jax_logits[0])[legal])])
    assert net.meta["game"] == name and net.meta["obs_type"] == "moves" and net.meta["hidden"] == [32, 16]


def test_a_network_for_other_rules_is_refused(tmp_path):
    game = make_game("kalah", pits=4)
    params = init_params(jax.random.key(0), az_policy.feature_layout(game, "counts")[1], [8], game.pits)
    export(params, game, "counts", [8], path=tmp_path / "net.npz")
    policy = make_policy(f"alphazero:path={tmp_path / 'net.npz'},sims=0")
    with pytest.raises(ValueError, match="trained for kalah .*pits.* 4.* but is used on kalah"):
        policy.prepare(make_game("kalah"))
