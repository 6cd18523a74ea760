"""The batch engine against the single-game engines: same states move for move over every rule
parameter set, same masks and observations; the compiled policies against plain references."""

import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mancala_marl import batch, observations, search_core
from mancala_marl.agents import alphabeta, make_policy, pcg64, rules
from mancala_marl.agents.pcg64 import pcg64_below, pcg64_row
from mancala_marl.agents.rules import exact_move, max_move, random_pit
from mancala_marl.agents.alphabeta import greedy_pit
from mancala_marl.search_core import MAX_PLY, new_counters
from mancala_marl.games import GAME_OVER, GAMES, Kalah
from mancala_marl.train import vector_env

from .registry import DEFAULTS, EXAMPLES
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
        actions = rng.integers(-1, game.actions + 1, size=rows)
        for i, state in enumerate(singles):
            if not game.is_terminal(state) and rng.random() < 0.8:
                actions[i] = rng.choice(np.flatnonzero(game.legal_mask(state)))
        status = batch.apply_moves(game, states, actions, parallel=bool(rng.integers(2)))
        for i, state in enumerate(singles):
            if game.is_terminal(state):
                assert status[i] == 2
                continue
            legal = 0 <= actions[i] < game.actions and game.legal_mask(state)[actions[i]]
            assert status[i] == (0 if legal else 1)
            if legal:
                game.apply(state, int(actions[i]))
            assert np.array_equal(states[i], state)
        masks = batch.legal_masks(game, states)
        assert np.array_equal(masks, np.array([game.legal_mask(s) for s in singles]))
        if all(game.is_terminal(s) for s in singles):
            break


def reference_counts(game, state, player):
    """The board part of ``counts`` as first written (np.roll), kept to pin the compiled encoder."""
    return np.roll(state[: game.board_size], -player * (game.pits + 1)).astype(np.float32)


@fast
@given(game=games, seed=st.integers(0, 2**32 - 1))
def test_batch_observations_equal_the_env_encoding(game, seed):
    rng = np.random.default_rng(seed)
    states = random_states(game, rng, 40)
    players = rng.integers(0, 2, size=len(states))
    for obs_type in observations.obs_types(game):
        encoded = observations.encode_batch(game, states, players, obs_type)
        assert encoded.dtype == np.float32
        assert encoded.shape == (len(states), observations.observation_space(game, obs_type).shape[0])
        for row, state, player in zip(encoded, states, players):
            single = observations.encode(game, state, int(player), obs_type)
            assert np.array_equal(row, single)
            assert observations.observation_space(game, obs_type).contains(single)
            rolled = reference_counts(game, state, int(player))
            if obs_type == "counts":
                assert np.array_equal(single[: game.board_size], rolled)
            elif obs_type == "paper":
                assert np.array_equal(single, np.delete(rolled, [game.pits, 2 * game.pits + 1]))


@pytest.mark.parametrize("game", EXAMPLES, ids=repr)
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


def reference_max(game, state):
    """The fullest legal pit, ties to the pit nearest the store (the clockwise action, where a move
    names its way), in plain numpy."""
    first = game.to_move(state) * (game.pits + 1)
    holes = np.arange(game.actions) % game.pits
    counts = np.where(game.legal_mask(state), state[first + holes], -1)
    return int(game.actions - 1 - np.argmax(counts[::-1]))


@pytest.mark.parametrize("game", EXAMPLES, ids=repr)
def test_compiled_policies_play_the_policies_moves(game):
    """The vectorized env's opponents are the policies' own kernels; the policies pick legal
    moves, ``max`` the fullest legal pit, and ``exact`` the game's exact pit or else ``max``."""
    rng = np.random.default_rng(3)
    live = [s for s in random_states(game, rng, 300) if not game.is_terminal(s)]
    greedy = make_policy("greedy")
    stack, counters = np.zeros((MAX_PLY, game.actions, game.state_size), dtype=np.int32), new_counters(extra=1)
    for state in live:
        legal = game.legal_mask(state)
        assert max_move(game, state) == reference_max(game, state)
        exact = exact_move(game, state)
        assert exact is None or legal[exact]
        assert make_policy("exact").act(game, state) == (reference_max(game, state) if exact is None else exact)
        assert greedy_pit(state, game.spec, stack, counters) == greedy.act(game, state.copy())


@pytest.mark.parametrize("game", DEFAULTS, ids=repr)
def test_compiled_random_policy_draws_what_random_policy_draws(game):
    rng = np.random.default_rng(5)
    mask = np.zeros(game.actions, dtype=np.bool_)
    for seed in range(5):
        policy = make_policy("random")
        policy.reset(seed=seed)
        stream = pcg64_row(np.random.default_rng(seed))
        for state in random_states(game, rng, 200):
            if not game.is_terminal(state):
                assert random_pit(state, game.spec, stream, mask) == policy.act(game, state)


def test_pcg64_matches_numpy_bit_for_bit():
    for seed in (0, 1, 12345, 2**31 - 1):
        ours, theirs = pcg64_row(np.random.default_rng(seed)), np.random.default_rng(seed)
        for n in [1, 2, 3, 7, 9, 1000, 2**31 + 5] * 50:
            assert pcg64_below(ours, n) == theirs.integers(0, n)
        assert np.array_equal(ours, pcg64_row(theirs))


def test_every_kernel_is_compiled_with_the_disk_cache():
    modules = [batch, observations, rules, pcg64, alphabeta, search_core, vector_env, *(sys.modules[cls.__module__] for cls in GAMES.values())]
    dispatchers = [f for module in modules for f in vars(module).values()
                   if hasattr(f, "py_func") and f.py_func.__module__ == module.__name__]
    assert len(dispatchers) >= 25
    for f in dispatchers:
        assert type(f._cache).__name__ != "NullCache", f"{f.__name__} is not compiled with cache=True"


def test_bad_batches_are_refused_with_a_clear_message():
    game = Kalah()
    with pytest.raises(ValueError, match=r"shape \(n, 15\)"):
        batch.apply_moves(game, np.zeros((3, 5), dtype=np.int32), [0, 0, 0])
    with pytest.raises(ValueError, match="int32"):
        batch.legal_masks(game, np.zeros((3, 15), dtype=np.int64))
    with pytest.raises(ValueError, match=r"actions must have shape \(2,\)"):
        batch.apply_moves(game, batch.init_states(game, 2), [0, 1, 2])
    with pytest.raises(ValueError, match=r"^n must be >= 0, got -1; it takes 0..100000000$"):
        batch.init_states(game, -1)
    assert batch.init_states(game, 0).shape == (0, game.state_size)  # an empty batch is one
