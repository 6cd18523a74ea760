"""The batch engine against the single-game engines: same states move for move over every rule
parameter set, same masks and observations, and compiled policies that pick the same moves as
their ``agents`` counterparts."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mancala_marl.agents
from mancala_marl import batch, observations, vector
from mancala_marl.agents.rules import exact_move, max_move
from mancala_marl.games import GAME_OVER, Kalah, Sungka, TogyzKumalak

from .test_properties import games

fast = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_states(game, rng, count):
    """States met in random play (start, middle and end of games)."""
    out = []
    while len(out) < count:
        state = game.init()
        while game.to_move(state) != GAME_OVER:
            out.append(state.copy())
            game.apply(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
        out.append(state.copy())
    return np.array(out[:count], dtype=np.int32)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=games, rows=st.integers(1, 4), seed=st.integers(0, 2**32 - 1))
def test_batch_steps_agree_with_the_engine_move_for_move(game, rows, seed):
    rng = np.random.default_rng(seed)
    states = batch.init_states(game, rows)
    singles = [game.init() for _ in range(rows)]
    for _ in range(300):
        # mostly legal moves, sometimes an illegal or out-of-range one
        actions = rng.integers(-1, game.pits + 1, size=rows)
        for i, state in enumerate(singles):
            if not game.is_terminal(state) and rng.random() < 0.8:
                actions[i] = rng.choice(np.flatnonzero(game.legal_mask(state)))
        status = batch.apply_moves(game, states, actions, parallel=bool(rng.integers(2)))
        for i, state in enumerate(singles):
            if game.is_terminal(state):
                assert status[i] == 2
                continue
            legal = 0 <= actions[i] < game.pits and game.legal_mask(state)[actions[i]]
            assert status[i] == (0 if legal else 1)
            if legal:
                game.apply(state, int(actions[i]))
            assert np.array_equal(states[i], state)
        masks = batch.legal_masks(game, states)
        assert np.array_equal(masks, np.array([game.legal_mask(s) for s in singles]))
        if all(game.is_terminal(s) for s in singles):
            break


def original_encode(game, state, player, obs_type):
    """observations.encode as first written (np.roll), kept to pin the faster version to it."""
    pits, cells = game.pits, game.board_size
    own_first = np.roll(state[:cells], -player * (pits + 1)).astype(np.float32)
    if obs_type == "paper":
        return np.concatenate((own_first[:pits], own_first[pits + 1:-1]))
    if game.name != "togyz_kumalak":
        return own_first
    flags = np.zeros(2 * pits, dtype=np.float32)
    theirs, mine = state[cells + 2 - player], state[cells + 1 + player]
    if theirs >= 0:
        flags[theirs] = 1.0
    if mine >= 0:
        flags[pits + mine] = 1.0
    return np.concatenate((own_first, flags))


@fast
@given(game=games, seed=st.integers(0, 2**32 - 1))
def test_batch_observations_equal_the_env_encoding(game, seed):
    rng = np.random.default_rng(seed)
    states = random_states(game, rng, 40)
    players = rng.integers(0, 2, size=len(states))
    obs_types = ["counts", "paper"] + (["tesauro"] if game.name == "togyz_kumalak" else [])
    for obs_type in obs_types:
        encoded = batch.encode(game, states, players, obs_type)
        assert encoded.dtype == np.float32
        assert encoded.shape == (len(states), observations.observation_space(game, obs_type).shape[0])
        for row, state, player in zip(encoded, states, players):
            single = observations.encode(game, state, int(player), obs_type)
            assert np.array_equal(row, single)
            if obs_type != "tesauro":
                assert np.array_equal(single, original_encode(game, state, int(player), obs_type))


@pytest.mark.parametrize("game", [Kalah(), Sungka(), TogyzKumalak(), Kalah(pits=4, seeds=3, end_rule="mover"),
                                  TogyzKumalak(holes=5, balls=5, stop_at_majority=False)], ids=repr)
def test_random_playouts_finish_valid_games_reproducibly(game):
    states = batch.init_states(game, 300)
    moves = batch.random_playouts(game, states, seed=7)
    assert (states[:, game.to_move_index] == GAME_OVER).all()
    assert (states[:, : game.board_size].sum(axis=1) == game.total_seeds).all()
    assert (moves > 0).all()
    again = batch.init_states(game, 300)
    assert np.array_equal(batch.random_playouts(game, again, seed=7, parallel=True), moves)
    assert np.array_equal(again, states)
    other = batch.init_states(game, 300)
    assert not np.array_equal(batch.random_playouts(game, other, seed=8), moves)


@pytest.mark.parametrize("game", [Kalah(), Sungka(), TogyzKumalak(), Kalah(pits=3, seeds=2),
                                  Sungka(houses=4, stones=3), TogyzKumalak(holes=4, balls=4)], ids=repr)
def test_compiled_policies_pick_the_agents_moves(game):
    rng = np.random.default_rng(3)
    scratch = np.zeros(game.state_size, dtype=np.int32)
    live = [s for s in random_states(game, rng, 300) if not game.is_terminal(s)]
    greedy = mancala_marl.agents.make_policy("greedy")
    work = vector.MancalaVecEnv(1, game, opponent="greedy")._work
    for state in live:
        assert batch.max_pit(state, game.spec) == max_move(game, state)
        exact = exact_move(game, state)
        assert batch.exact_pit(state, game.spec, scratch) == (max_move(game, state) if exact is None else exact)
        assert vector._greedy_pit(state, game.spec, *work[1:]) == greedy.act(game, state.copy())


@pytest.mark.parametrize("game", [Kalah(), Sungka(), TogyzKumalak()], ids=repr)
def test_compiled_random_policy_draws_what_random_policy_draws(game):
    rng = np.random.default_rng(5)
    for seed in range(5):
        policy = mancala_marl.agents.make_policy("random")
        policy.reset(seed=seed)
        stream = batch.pcg64_row(np.random.default_rng(seed))
        for state in random_states(game, rng, 200):
            if not game.is_terminal(state):
                assert batch.random_pit(state, game.spec, stream) == policy.act(game, state)


def test_pcg64_matches_numpy_bit_for_bit():
    for seed in (0, 1, 12345, 2**31 - 1):
        ours, theirs = batch.pcg64_row(np.random.default_rng(seed)), np.random.default_rng(seed)
        for n in [1, 2, 3, 7, 9, 1000, 2**31 + 5] * 50:
            assert batch.pcg64_below(ours, n) == theirs.integers(0, n)
        assert np.array_equal(ours, batch.pcg64_row(theirs))


def test_every_kernel_is_compiled_with_the_disk_cache():
    dispatchers = [f for module in (batch, vector) for f in vars(module).values() if hasattr(f, "py_func")]
    assert len(dispatchers) >= 15
    for f in dispatchers:
        assert type(f._cache).__name__ != "NullCache", f"{f.__name__} is not compiled with cache=True"


def test_bad_batches_are_refused_with_a_clear_message():
    game = Kalah()
    with pytest.raises(ValueError, match=r"shape \(n, 17\)"):
        batch.apply_moves(game, np.zeros((3, 5), dtype=np.int32), [0, 0, 0])
    with pytest.raises(ValueError, match="int32"):
        batch.legal_masks(game, np.zeros((3, 17), dtype=np.int64))
    with pytest.raises(ValueError, match=r"actions must have shape \(2,\)"):
        batch.apply_moves(game, batch.init_states(game, 2), [0, 1, 2])
    with pytest.raises(ValueError, match="n must be"):
        batch.init_states(game, -1)
