"""Self-play with mctx over the JAX engines: the discounts say who moves next, the value targets
are each position's outcome from its mover's side, the policy targets are distributions over
legal moves."""

import jax
import numpy as np

from mancala_marl.agents import alphazero as az_policy
from mancala_marl.jax import make
from mancala_marl.train.alphazero.jax.network import feature_fn, init_params
from mancala_marl.train.alphazero.jax.selfplay import selfplay_fn, value_targets


def test_discounts_and_value_targets_follow_the_mover():
    env = make("kalah", obs_type="counts", pits=4, seeds=3)
    game = env.game
    params = init_params(jax.random.key(0), az_policy.feature_layout(game, "counts")[1], [16], game.pits)
    positions = jax.jit(selfplay_fn(env, feature_fn(game, "counts"), games=8, moves=60, sims=4))(params, jax.random.key(1))
    values, valid = (np.asarray(a) for a in jax.jit(value_targets)(positions))
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
    run = jax.jit(selfplay_fn(env, feature_fn(game, "counts"), games=8, moves=60, sims=4, opening=3))
    positions = run(params, jax.random.key(1))
    _, valid = (np.asarray(a) for a in jax.jit(value_targets)(positions))
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
    positions = jax.jit(selfplay_fn(env, feature_fn(game, "counts"), games=8, moves=60, sims=8))(params, jax.random.key(1))
    search_value = np.asarray(positions.search_value)
    assert (np.abs(search_value) <= 1).all() and np.unique(search_value).size > 8
    outcome, valid = (np.asarray(a) for a in value_targets(positions))
    blended, valid_q = (np.asarray(a) for a in value_targets(positions, 0.25))
    np.testing.assert_array_equal(valid_q, valid)
    np.testing.assert_allclose(blended, 0.75 * outcome + 0.25 * search_value, atol=1e-6)
    assert not np.allclose(blended[valid], outcome[valid])
