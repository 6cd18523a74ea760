"""Self-play with mctx over the JAX engines: the discounts say who moves next, the value targets
are each position's outcome from its mover's side, the policy targets are distributions over
legal moves, and games go on from one call to the next without losing a position."""

import jax
import numpy as np

from mancala_marl.agents import alphazero as az_policy
from mancala_marl.jax import make
from mancala_marl.train.alphazero.jax.network import feature_fn, init_params
from mancala_marl.train.alphazero.jax.selfplay import Positions, finished_window, selfplay_fn, start_fn, value_targets


def _play(env, params, games: int, moves: int, sims: int, opening: int = 0):
    """The positions of ``moves`` steps of ``games`` games from the start."""
    run = jax.jit(selfplay_fn(env, feature_fn(env.game, "counts"), games, moves, sims, opening))
    return run(params, jax.random.key(1), start_fn(env, games, opening)(jax.random.key(2)))[1]


def test_discounts_and_value_targets_follow_the_mover():
    env = make("kalah", obs_type="counts", pits=4, seeds=3)
    game = env.game
    params = init_params(jax.random.key(0), az_policy.feature_layout(game, "counts")[1], [16], game.pits)
    positions = _play(env, params, games=8, moves=60, sims=4)
    values, valid = (np.asarray(a) for a in jax.jit(value_targets)(positions)[:2])
    p = jax.tree_util.tree_map(np.asarray, positions)
    assert p.ended.sum() >= 8  # games of 4 pits of 3 seeds end well within 60 moves
    extra_turns = 0
    for g in range(8):
        start = 0
        for t in range(60):
            if not p.ended[t, g]:
                if t == 59:
                    break
                # the discount says whether the player moving next is the one who just moved
                assert p.discount[t, g] == (1.0 if p.first[t + 1, g] == p.first[t, g] else -1.0)
                extra_turns += p.discount[t, g] == 1.0
                continue
            assert p.discount[t, g] == 0.0
            first_result = p.reward[t, g] * (1 if p.first[t, g] else -1)  # player_0's result
            for u in range(start, t + 1):  # every position of that game: the result from its mover's side
                assert valid[u, g] and values[u, g] == first_result * (1 if p.first[u, g] else -1)
            start = t + 1
        assert not valid[start:, g].any()  # a game cut off by the end of the scan has no target
        assert start == 60 or p.first[start, g]  # the next game starts with player_0
    assert extra_turns > 0
    policy, mask = p.policy[valid], p.mask[valid]
    np.testing.assert_allclose(policy.sum(-1), 1.0, rtol=1e-5)
    assert (policy[~mask] == 0).all()


def test_random_openings_start_every_game_and_are_not_learned_from():
    env = make("kalah", obs_type="counts", pits=4, seeds=3)
    game = env.game
    params = init_params(jax.random.key(0), az_policy.feature_layout(game, "counts")[1], [16], game.pits)
    positions = _play(env, params, games=8, moves=60, sims=4, opening=3)
    valid = np.asarray(jax.jit(value_targets)(positions)[1])
    p = jax.tree_util.tree_map(np.asarray, positions)
    lengths = []
    for g in range(8):
        start = 0
        for t in np.flatnonzero(p.ended[:, g]).tolist() + [60]:
            random = p.random[start:t + 1, g]
            k = int(random.sum())
            assert k <= 3 and random[:k].all()  # 0..3 random moves, at the start of the game only
            lengths.append(k)
            start = t + 1
    assert not valid[p.random].any() and valid.any()
    assert len(set(lengths)) > 1  # drawn per game


def test_value_q_blends_the_outcome_with_the_root_search_value():
    """``value_q`` moves each target from the game's outcome towards the root search's value (from
    the mover's side, in [-1, 1]), as the torch backend's ``--value-q``; which positions are
    learned from does not change."""
    env = make("kalah", obs_type="counts", pits=4, seeds=3)
    game = env.game
    params = init_params(jax.random.key(0), az_policy.feature_layout(game, "counts")[1], [16], game.pits)
    positions = _play(env, params, games=8, moves=60, sims=8)
    search_value = np.asarray(positions.search_value)
    assert (np.abs(search_value) <= 1).all() and np.unique(search_value).size > 8
    outcome, valid = (np.asarray(a) for a in value_targets(positions)[:2])
    blended, valid_q = (np.asarray(a) for a in value_targets(positions, 0.25)[:2])
    np.testing.assert_array_equal(valid_q, valid)
    np.testing.assert_allclose(blended, 0.75 * outcome + 0.25 * search_value, atol=1e-6)
    assert not np.allclose(blended[valid], outcome[valid])


def _window(ended, reward, random=None):
    """A window of one game's steps (steps, 1) with these ends and rewards, the mover alternating."""
    steps = len(ended)
    column = lambda values, dtype: np.asarray(values, dtype)[:, None]
    return Positions(obs=np.zeros((steps, 1, 1), np.float32), mask=np.ones((steps, 1, 2), bool),
                     policy=np.full((steps, 1, 2), 0.5, np.float32), reward=column(reward, np.float32),
                     discount=column([0.0 if e else -1.0 for e in ended], np.float32), ended=column(ended, bool),
                     first=column([t % 2 == 0 for t in range(steps)], bool),
                     random=column(random or [False] * steps, bool), search_value=np.zeros((steps, 1), np.float32))


def test_a_game_that_ends_in_the_next_generation_is_resolved_then_and_once():
    # held = 3 steps from the last call: a game ended at step 0 (resolved then), and the game of
    # steps 1-4, cut off by the last call's end, ends at step 4 in this one; steps 5 and 6 are
    # a game still going
    window = _window(ended=[1, 0, 0, 0, 1, 0, 0], reward=[1, 0, 0, 0, -1, 0, 0], random=[0, 1, 0, 0, 0, 0, 0])
    values, learn, resolved, lost = (np.asarray(a)[:, 0] for a in value_targets(window, held=3))
    assert resolved.tolist() == [False, True, True, True, True, False, False]
    assert learn.tolist() == [False, False, True, True, True, False, False]  # step 1 was a random opening move
    assert not lost.any()  # steps 0..3 leave the window, and all of their games are over
    # the mover of step 4 lost; the movers alternate, so the targets alternate back to step 1
    assert values[1:5].tolist() == [1.0, -1.0, 1.0, -1.0]
    # the same positions, had the game not ended: the four that leave the window are lost
    _, learn, resolved, lost = (np.asarray(a)[:, 0] for a in value_targets(
        _window(ended=[1, 0, 0, 0, 0, 0, 0], reward=[1] + [0] * 6), held=3))
    assert not resolved.any() and not learn.any() and lost.tolist() == [False, True, True, True, False, False, False]


def test_the_window_a_run_starts_with_is_never_learned_from_nor_lost():
    blank = finished_window(jax.tree_util.tree_map(lambda a: a[0], _window(ended=[0], reward=[0])), 4)
    window = jax.tree_util.tree_map(lambda a, b: np.concatenate([a, b]), blank, _window(ended=[0, 0, 1, 0], reward=[0, 0, 1, 0]))
    _, learn, resolved, lost = (np.asarray(a)[:, 0] for a in value_targets(window, held=4))
    assert learn.tolist() == [False] * 4 + [True, True, True, False] and not lost.any()
    assert resolved.sum() == 3


def test_games_go_on_from_one_call_to_the_next():
    env = make("kalah", obs_type="counts", pits=4, seeds=3)
    game = env.game
    params = init_params(jax.random.key(0), az_policy.feature_layout(game, "counts")[1], [16], game.pits)
    run = jax.jit(selfplay_fn(env, feature_fn(game, "counts"), 8, 12, 4))
    carried, first = run(params, jax.random.key(1), start_fn(env, 8)(jax.random.key(2)))
    _, second = run(params, jax.random.key(3), carried)
    # the second call starts where the first left each game: mid-game where it was still going
    np.testing.assert_array_equal(np.asarray(second.obs[0]), np.asarray(carried.state.observation))
    start = np.asarray(env.init(jax.random.key(0)).observation)
    going = ~np.asarray(first.ended).any(0)
    assert going.any() and (np.asarray(second.obs[0])[going] != start).any(1).all()
    whole = jax.tree_util.tree_map(lambda a, b: np.concatenate([a, b]), first, second)
    _, learn, resolved, lost = (np.asarray(a) for a in value_targets(whole, held=12))
    ended_by = np.asarray(whole.ended)[::-1].cumsum(0)[::-1] > 0
    # positions whose game ended in the first call were resolved then; those of games that went on
    # are resolved now, where their game ended in the second call
    first_ended_by = np.asarray(first.ended)[::-1].cumsum(0)[::-1] > 0
    np.testing.assert_array_equal(resolved[:12], ended_by[:12] & ~first_ended_by)
    np.testing.assert_array_equal(resolved[12:], ended_by[12:])
    assert resolved[:12].any()
    np.testing.assert_array_equal(lost, ~ended_by & (np.arange(24) < 12)[:, None])
