"""make_mixed: a batch whose rows play different games of the family, each row held to its own
game's numba engine after every step; Pgx's API checks on the mixed environment; the draw of games."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from pgx.experimental import act_randomly, auto_reset

from mancala_marl.games import make_game, parse_game
from mancala_marl import observations
from mancala_marl.games.family_encoding import BOARD_LENGTH, encode_rules, rules_length
from mancala_marl.jax import make_mixed

# beside four named games, a game of another goal and one of children, rewarded by the winner the
# goal names and with the seeds in children counted, and one of random starts, which init draws,
# that ends by repetition (its history the largest state of the batch)
GAMES = ["wari", "dakon", "family:holes=4,seeds=3,goal=deprive,must_share=False", "songo", "bohnenspiel",
         "family:holes=5,seeds=4,children=weg,child_count=4,must_share=False",
         "family:holes=4,seeds=4,start=random,move_rule=opponent_or_empty,repetition_ends=True"]


N = 24  # rows of every batch below: each compiled function is compiled once (seconds each on a CPU)


@pytest.fixture(scope="module")
def env():
    return make_mixed(GAMES, max_moves=300)  # (a truncated row is compared too)


@pytest.fixture(scope="module")
def batched(env):
    """(init, step) of ``env``, vmapped over N rows and jitted (the family's rules run eagerly take minutes)."""
    init = jax.jit(jax.vmap(env.init))
    return (lambda seed: init(jax.random.split(jax.random.PRNGKey(seed), N))), jax.jit(jax.vmap(env.step))


def test_each_row_plays_its_own_game_as_numba(batched):
    games = [parse_game(spec) for spec in GAMES]
    init, step = batched
    state = init(0)
    rows = np.asarray(state.game)
    assert set(rows.tolist()) == set(range(len(games)))  # every game drawn
    # a random start is numba's from the board JAX drew (its draw is tested in test_family_jax)
    cpu = [games[g].state_from(np.asarray(state._board[i, :games[g].state_size])) if games[g].random_start
           else games[g].init() for i, g in enumerate(rows)]
    drawn = [i for i, g in enumerate(rows) if games[g].random_start]
    assert drawn and all(cpu[i][:10].max() > 2 for i in drawn)  # the 16 seeds above the floor of 2 shared out
    key = jax.random.PRNGKey(1)
    for t in range(2000):
        board, mask = np.asarray(state._board), np.asarray(state.legal_action_mask)
        for i, g in enumerate(rows):
            game = games[g]
            assert np.array_equal(board[i, :game.state_size], cpu[i]) and not board[i, game.state_size:].any(), (t, i)
            over = game.is_terminal(cpu[i])
            assert bool(state.terminated[i]) == over or bool(state.truncated[i]), (t, i)
            if not over:
                assert np.array_equal(mask[i, :game.actions], game.legal_mask(cpu[i])) and not mask[i, game.actions:].any()
                assert int(state.current_player[i]) == game.to_move(cpu[i])
        if bool((state.terminated | state.truncated).all()):
            break
        key, sub = jax.random.split(key)
        actions = np.asarray(act_randomly(sub, state.legal_action_mask))
        before = state
        state = step(state, jnp.asarray(actions))
        for i, g in enumerate(rows):
            if not (before.terminated[i] or before.truncated[i]):
                cpu[i] = games[g].apply(cpu[i], int(actions[i]))
                if games[g].is_terminal(cpu[i]):
                    expected = games[g].returns(cpu[i])
                    assert np.array_equal(np.asarray(state.rewards[i]), expected), (t, i)
    assert bool((state.terminated | state.truncated).all())


def test_the_pgx_api_holds(env):
    assert env.id == "family-mixed" and env.num_players == 2 and env.version == "v0"
    assert env.num_actions == max(make_game("wari").actions, make_game("dakon").actions)
    init, step = jax.jit(env.init), jax.jit(env.step)
    state = init(jax.random.PRNGKey(3))
    assert state.observation.shape == env.observation_shape == (2 * 16 + 2 + rules_length(),)
    assert state.game.dtype == jnp.int32 and state.current_player.dtype == jnp.int32
    key = jax.random.PRNGKey(4)
    while not state.terminated:
        key, sub = jax.random.split(key)
        state = step(state, act_randomly(sub, state.legal_action_mask[None])[0])
        assert state.rewards.sum() == 0 and state.legal_action_mask.any()
        assert jnp.array_equal(state.observation, env._observe(state, state.current_player))
    assert state.legal_action_mask.all()
    again = step(state, jnp.int32(0))
    assert not again.rewards.any() and (again._board == state._board).all()
    # an illegal action loses for the mover, an out-of-range one too
    fresh = init(jax.random.PRNGKey(5))
    lost = step(fresh, jnp.int32(env.num_actions + 3))
    assert lost.terminated and lost.rewards[fresh.current_player] == -1


def test_auto_reset_draws_a_new_game(env, batched):
    step = jax.jit(jax.vmap(auto_reset(env.step, env.init)))
    state = batched[0](6)
    seen = set()
    key = jax.random.PRNGKey(7)
    for _ in range(400):
        key, k1, k2 = jax.random.split(key, 3)
        state = step(state, act_randomly(k1, state.legal_action_mask), jax.random.split(k2, N))
        seen |= set(np.asarray(state.game).tolist())
    assert seen == set(range(len(GAMES)))


def test_the_rules_observation_tells_the_games_apart(batched):
    states = batched[0](8)
    rules = np.asarray(states.observation[:, BOARD_LENGTH:])
    for g, spec in enumerate(GAMES):
        assert np.array_equal(rules[np.asarray(states.game) == g], np.tile(encode_rules(parse_game(spec)), (
            int((np.asarray(states.game) == g).sum()), 1)))
    assert len({tuple(encode_rules(parse_game(spec))) for spec in GAMES}) == len(GAMES)
    counts = make_mixed(GAMES, obs_type="counts")
    assert counts.observation_shape == (16,)
    state = jax.jit(counts.init)(jax.random.PRNGKey(9))
    game = parse_game(GAMES[int(state.game)])
    board = np.asarray(state._board)
    own = np.zeros(7)
    own[:game.pits] = board[:game.pits]
    assert np.array_equal(np.asarray(state.observation)[:8], np.append(own, board[game.pits]))


def test_the_rules_observation_is_the_numba_environments(env, batched):
    # the same numbers as the PettingZoo and Gymnasium environments' obs_type="rules", every row
    init, step = batched
    state = init(12)
    for i in range(30):
        state = step(state, act_randomly(jax.random.PRNGKey(i), state.legal_action_mask))
    observe = jax.jit(jax.vmap(env._observe, (0, None)))
    for player in (0, 1):
        seen = np.asarray(observe(state, player))
        for i, g in enumerate(np.asarray(state.game)):
            game = parse_game(GAMES[g])
            flat = np.asarray(state._board[i, :game.state_size])
            assert np.array_equal(seen[i], observations.encode(game, flat, player, "rules")), (i, player)


def test_the_draw_follows_the_weights():
    env = make_mixed(["wari", "dakon"], weights=[1, 3])
    games = np.asarray(jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(10), 4000)).game)
    assert abs(games.mean() - 0.75) < 0.03
    only = make_mixed(["wari", "dakon"], weights=[0, 1])
    assert (np.asarray(jax.jit(jax.vmap(only.init))(jax.random.split(jax.random.PRNGKey(11), 50)).game) == 1).all()


@pytest.mark.parametrize("games, weights, message", [
    (["kalah", "wari"], None, r"^make_mixed: Kalah\(.*\) is not a game of the two-row family"),
    ("wari", None, r"^make_mixed takes a list of games"),
    (["wari", "dakon"], [1, -1], r"^weights must be 2 numbers >= 0"),
    (["wari", "dakon"], [0, 0], r"^weights must be 2 numbers >= 0"),
    (["wari", "nope"], None, r"unknown game 'nope'"),
])
def test_what_is_refused_is_named(games, weights, message):
    with pytest.raises(ValueError, match=message):
        make_mixed(games, weights)
    with pytest.raises(ValueError, match=r"^obs_type must be one of \['counts', 'rules'\]"):
        make_mixed(["wari"], obs_type="moves")
