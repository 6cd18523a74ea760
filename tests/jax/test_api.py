"""Our port of the checks of Pgx's ``pgx._src.api_test`` (``api_test_single``/``api_test_batch``),
run over every variant with a JAX rules file. Pgx's function cannot be called as it is: its
``_validate_state`` asserts that ``state.env_id`` is one of Pgx's own ``EnvId`` names, and ours are
the registry's (``"kalah"``). Beside its checks: Pgx's conventions where our games could go wrong
(extra turns, passes, illegal and out-of-range actions, ``auto_reset``, truncation)."""

import functools

import jax
import jax.numpy as jnp
import numpy as np
import pgx
import pytest
from pgx.experimental import act_randomly, auto_reset

from mancala_marl.games import GAMES
from mancala_marl.jax import JAX_VARIANTS, from_state, make

PUBLIC = {"current_player", "observation", "rewards", "terminated", "truncated", "legal_action_mask"}


@functools.lru_cache(maxsize=None)
def compiled(name):
    """The environment with its jitted init and step, one step for a batch: shared by the tests,
    which would otherwise compile the same functions again."""
    env = make(name)
    return env, jax.jit(env.init), jax.jit(env.step), jax.jit(jax.vmap(env.step))


def _validate(env, state, shapes):
    """Pgx's _validate_state, _validate_current_player and _validate_legal_actions."""
    num_actions, observation_shape = shapes
    assert state.env_id == env.id
    assert state.current_player.dtype == jnp.int32
    assert state.terminated.dtype == jnp.bool_ and state.truncated.dtype == jnp.bool_
    assert state.rewards.dtype == jnp.float32 and state.rewards.shape == (2,)
    assert state.legal_action_mask.dtype == jnp.bool_ and state.legal_action_mask.shape == (num_actions,)
    assert state.observation.dtype == jnp.float32 and state.observation.shape == observation_shape
    assert {k for k in vars(state) if not k.startswith("_")} <= PUBLIC
    assert state.current_player >= 0
    if state.terminated:
        assert state.legal_action_mask.all()  # any action, which changes nothing
    else:
        assert state.legal_action_mask.any()


@pytest.mark.parametrize("name", JAX_VARIANTS)
def test_api_single(name):
    env, init, step, _ = compiled(name)
    assert isinstance(env, pgx.Env) and env.id == name and env.num_players == 2 and env.version == "v0"
    shapes = env.num_actions, env.observation_shape
    assert shapes == (env.game.pits, (env.game.board_size + env.game.pits * env.game.extra_features,))
    key = jax.random.PRNGKey(849020)
    for _ in range(2):
        key, sub = jax.random.split(key)
        state = init(sub)
        assert state._step_count == 0 and not state.rewards.any() and state.legal_action_mask.any()
        _validate(env, state, shapes)
        while not state.terminated:
            key, k1, k2 = jax.random.split(key, 3)
            before = state._step_count
            state = step(state, act_randomly(k1, state.legal_action_mask[None])[0], k2)
            assert state._step_count == before + 1
            _validate(env, state, shapes)
            assert state.rewards.sum() == 0  # zero-sum, at every step
        # a step after the end changes nothing and gives nothing
        again = step(state, jnp.int32(0), key)
        assert not again.rewards.any() and (again._board == state._board).all()
        assert again._step_count == state._step_count


@pytest.mark.parametrize("name", JAX_VARIANTS)
def test_api_batch(name):
    env, _, _, step = compiled(name)
    key = jax.random.PRNGKey(9999)
    state = jax.vmap(env.init)(jax.random.split(key, 4))
    while not state.terminated.all():
        key, k1, k2 = jax.random.split(key, 3)
        state = step(state, act_randomly(k1, state.legal_action_mask), jax.random.split(k2, 4))
    assert (np.abs(np.asarray(state.rewards)).sum(1) <= 2).all()


@pytest.mark.parametrize("name", JAX_VARIANTS)
def test_observations_differ_by_player(name):
    # Pgx: observe() from the two sides differs (the board is seen from each player's side)
    env, init, step, _ = compiled(name)
    state = step(init(jax.random.PRNGKey(0)), jnp.int32(0))
    assert not jnp.array_equal(env._observe(state, 0), env._observe(state, 1))
    assert jnp.array_equal(state.observation, env._observe(state, state.current_player))


@pytest.mark.parametrize("name", JAX_VARIANTS)
def test_illegal_and_out_of_range_actions_lose_under_jit(name):
    env, init, step, batch_step = compiled(name)
    state = init(jax.random.PRNGKey(0))
    state = step(state, jnp.argmax(state.legal_action_mask))
    mover = int(state.current_player)
    actions = [-1, env.num_actions, 10**6]
    if not state.legal_action_mask.all():
        actions.append(int(jnp.argmin(state.legal_action_mask)))
    for action in actions:
        lost = step(state, jnp.int32(action))
        assert lost.terminated and not lost.truncated, action
        assert lost.rewards[mover] == -1 and lost.rewards[1 - mover] == 1, action
        assert (lost._board == state._board).all()  # nothing was sown
        assert lost.legal_action_mask.all() and lost._step_count == state._step_count + 1
    # in a batch, under jit: only the rows with a bad action end
    states = jax.tree_util.tree_map(lambda x: jnp.stack([x, x]), state)
    stepped = batch_step(states, jnp.array([env.num_actions, jnp.argmax(state.legal_action_mask)],
                                                             jnp.int32))
    assert stepped.terminated.tolist()[0] and stepped.rewards[0, mover] == -1


def test_extra_turn_keeps_the_player_and_a_pass_skips_one():
    _, init, step, _ = compiled("kalah")
    state = step(init(jax.random.PRNGKey(0)), jnp.int32(2))  # 4 seeds from pit 2: the last in the store
    assert state.current_player == 0 and not state.terminated
    sungka, _, step, _ = compiled("sungka")
    # player_1 has no stones after player_0's move: player_0 moves again (tests/test_sungka.py's pass)
    game = sungka.game
    state = step(from_state(sungka, game.from_board([1, 0, 0, 0, 0, 0, 3, 50, 0, 0, 0, 0, 0, 0, 0, 44])),
                 jnp.int32(0))
    assert state.current_player == 0 and not state.terminated and state._board[0] == 0


@pytest.mark.parametrize("name", JAX_VARIANTS)
def test_auto_reset_and_truncation(name):
    env = make(name, max_moves=5)
    step = jax.jit(jax.vmap(auto_reset(env.step, env.init)))
    state = jax.vmap(env.init)(jax.random.split(jax.random.PRNGKey(0), 3))
    init_board = np.asarray(state._board[0])
    for t in range(5):
        key = jax.random.split(jax.random.PRNGKey(t), 3)
        state = step(state, act_randomly(key[0], state.legal_action_mask), key)
    # the fifth move truncates every game (none ends that soon), and auto_reset starts new ones
    assert state.truncated.all() and not state.terminated.any()
    assert (np.asarray(state._board) == init_board).all() and (state._step_count == 0).all()
    state = step(state, act_randomly(key[1], state.legal_action_mask), key)
    assert not state.truncated.any() and (state._step_count == 1).all()


@pytest.mark.parametrize("reward", ["result", "score_diff"])
def test_rewards_sum_to_the_result_or_the_margin(reward):
    env = make("kalah", pits=4, seeds=3, reward=reward)
    step = jax.jit(env.step)
    state, total, key = env.init(jax.random.PRNGKey(1)), np.zeros(2), jax.random.PRNGKey(2)
    while not state.terminated:
        key, sub = jax.random.split(key)
        state = step(state, act_randomly(sub, state.legal_action_mask[None])[0])
        total += np.asarray(state.rewards)
    margin = int(state._board[4] - state._board[9])
    assert total.tolist() == ([margin, -margin] if reward == "score_diff" else [np.sign(margin), -np.sign(margin)])


def test_every_registered_game_has_jax_rules():
    # the two-row family's only for some of its rules (make() refuses the others in one line)
    assert JAX_VARIANTS == tuple(GAMES)
