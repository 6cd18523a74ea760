"""make(), its errors, and the conversions between JAX states and the numba engine's states."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mancala_marl.jax as mjax
from mancala_marl.agents import make_policy
from mancala_marl.games import GAMES, make_game
from mancala_marl.jax import JAX_VARIANTS, examples, from_state, make, to_state


@pytest.mark.parametrize("call, message", [
    (lambda: make("chess"), "unknown game 'chess'; known games: kalah"),
    (lambda: make("kalah", pit=3), "kalah has no parameter 'pit'; its parameters: pits, seeds"),
    (lambda: make("kalah", pits=0), "pits must be >= 1, got 0"),
    (lambda: make("kalah", end_rule="never"), "end_rule must be one of"),
    (lambda: make("sungka", stones=2.5), r"stones must be an integer >= 1 and <= 2\*\*30 - 1, got 2.5"),
    (lambda: make("kalah", obs_type="tesauro"), "obs_type must be one of .* for the JAX environments"),
    (lambda: make("kalah", reward="win"), "reward must be one of"),
    # a move of Alemungula also names its way (ten actions): no per-pit move features, as with numba
    (lambda: make("alemungula", obs_type="moves"), "obs_type 'moves' describes each pit's move"),
    (lambda: make("kalah", max_moves=0), r"max_moves must be >= 1, got 0; it takes 1..2\*\*31 - 1"),
    (lambda: from_state(make_game("kalah"), make_game("kalah").init(), num_moves=-1),
     r"num_moves must be >= 0, got -1; it takes 0..2\*\*31 - 1"),
])
def test_bad_input_is_one_clear_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_a_variant_without_jax_rules_is_refused(monkeypatch):
    monkeypatch.setattr(mjax, "JAX_VARIANTS", ("sungka",))
    with pytest.raises(ValueError, match="kalah has no JAX rules yet; the JAX environments: sungka$"):
        make("kalah")


def test_the_rules_and_their_defaults_are_the_numba_games():
    for name in JAX_VARIANTS:
        for params in examples(name):
            env = make(name, **params)
            assert env.game.params == make_game(name, **params).params
            assert env.num_actions == env.game.actions  # twice the pits where a move names its way


@pytest.mark.parametrize("name", JAX_VARIANTS)
def test_states_convert_both_ways_along_a_game(name):
    env = make(name, obs_type="counts")
    step = jax.jit(env.step)
    state, key = env.init(jax.random.PRNGKey(0)), jax.random.PRNGKey(1)
    game, cpu = env.game, env.game.init()
    for t in range(40):
        flat = to_state(state)
        assert flat.dtype == np.int32 and np.array_equal(flat, cpu)
        back = from_state(game, flat, num_moves=t)
        for field in ("current_player", "observation", "legal_action_mask", "terminated", "_step_count", "_board"):
            assert np.array_equal(getattr(back, field), getattr(state, field)), field
        if state.terminated:
            break
        action = int(jax.random.choice(key, env.num_actions, p=state.legal_action_mask / state.legal_action_mask.sum()))
        key = jax.random.split(key)[0]
        state = step(state, jnp.int32(action))
        game.apply(cpu, action)


def test_a_batch_converts_and_a_cpu_policy_plays_a_jax_position():
    env = make("kalah")
    states = jax.vmap(env.init)(jax.random.split(jax.random.PRNGKey(0), 3))
    states = jax.vmap(env.step)(states, jnp.array([0, 1, 2], jnp.int32))
    flats = to_state(states)
    assert flats.shape == (3, env.game.state_size)
    again = from_state(env, flats)
    assert np.array_equal(again._board, states._board) and np.array_equal(again.current_player, states.current_player)
    move = make_policy("greedy")(env.game, flats[0].copy())
    assert again.legal_action_mask[0, move]
    after = env.step(jax.tree_util.tree_map(lambda x: x[0], again), jnp.int32(move))
    assert np.array_equal(to_state(after), env.game.apply(flats[0].copy(), move))


def test_from_state_refuses_a_state_no_game_reaches():
    game = make_game("kalah")
    bad = game.init()
    bad[0] = -3
    with pytest.raises(ValueError, match="no negative counts"):
        from_state(game, bad)
    with pytest.raises(ValueError, match="must have shape"):
        from_state(game, bad[:5])
