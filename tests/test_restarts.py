"""The vectorized env's restart curriculum (``restart_prob``): episodes against a deterministic
opponent restart from the learner's positions in games it did not win against that opponent."""

import numpy as np
import pytest

from mancala_marl.games import make_game
from mancala_marl.train.training import TrainConfig
from mancala_marl.train.vector_env import OPPONENTS, MancalaVecEnv, RestartPool


def lowest_pit(mask) -> int:
    return int(np.flatnonzero(mask)[0])


def play_one_game(env):
    """Row 0 plays its lowest legal pit to the end of the game; returns the learner's positions
    (state, moves played) as the env showed them, and the last step's info."""
    positions = [(env.states[0].copy(), int(env.num_moves[0]))]
    while True:
        _, _, dones, infos = env.step(np.array([lowest_pit(env.action_masks()[0])]))
        if dones[0]:
            return positions, infos[0]
        assert env.states[0, env.game.to_move_index] == env.players[0]  # the opponent has replied
        positions.append((env.states[0].copy(), int(env.num_moves[0])))


def test_lost_games_feed_the_pool_and_the_next_episode_restarts_from_one_of_their_positions():
    game = make_game("kalah")
    env = MancalaVecEnv(1, game, opponent="exact", seat="first", restart_prob=1.0)
    env.seed(3)
    env.reset()
    positions, info = play_one_game(env)
    assert info["result"] == -1  # playing the lowest pit loses to exact from the start
    exact = OPPONENTS["exact"]
    assert env.restarts.size(exact) == len(positions) == len(env.restarts)
    ring_states, ring_seats, ring_moves = env.restarts._rings[exact]
    for k, (state, moves) in enumerate(positions):
        assert np.array_equal(ring_states[k], state) and ring_seats[k] == 0 and ring_moves[k] == moves
    # The episode that began after the loss starts from one of those positions, the learner to move.
    start = env.states[0]
    matches = [moves for state, moves in positions if np.array_equal(state, start)]
    assert matches and env.num_moves[0] in matches and env.players[0] == 0
    assert env.action_masks()[0].any()
    # From there it is a normal game: played the same way, it is lost again and its positions join.
    more, info = play_one_game(env)
    assert info["result"] == -1
    assert env.restarts.size(exact) == len(positions) + len(more)


def test_won_games_and_random_opponents_add_nothing_and_never_restart():
    # Against random the same moves may win or lose: its games are never kept.
    env = MancalaVecEnv(4, "sungka", opponent="random", seat="random", restart_prob=1.0)
    env.seed(0)
    env.reset()
    rng = np.random.default_rng(0)
    for _ in range(200):
        masks = env.action_masks()
        env.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
    assert len(env.restarts) == 0
    # Against max, a game the learner wins is not kept: Kalah(4,3) from the start, first seat,
    # 3-2-1-0 by the lowest pit wins against max (checked below), so nothing is added.
    env = MancalaVecEnv(1, "kalah", pits=4, seeds=3, opponent="max", seat="first", restart_prob=1.0)
    env.seed(0)
    env.reset()
    _, info = play_one_game(env)
    assert info["result"] == 1
    assert len(env.restarts) == 0


def test_without_restarts_the_pool_stays_empty():
    env = MancalaVecEnv(2, "kalah", opponent="exact", seat="first")
    env.seed(0)
    env.reset()
    for _ in range(100):
        env.step(np.array([lowest_pit(m) for m in env.action_masks()]))
    assert len(env.restarts) == 0


def test_restart_pool_keeps_the_newest_positions():
    pool = RestartPool(capacity=4, state_size=2)
    pool.add(1, np.array([[0, 0], [1, 1], [2, 2]]), seat=0, moves=np.array([0, 1, 2]))
    pool.add(1, np.array([[3, 3], [4, 4]]), seat=1, moves=np.array([3, 4]))
    assert pool.size(1) == 4 and pool.size(2) == 0 and len(pool) == 4
    rng = np.random.default_rng(0)
    seen = {tuple(pool.sample(1, rng)[0]) for _ in range(200)}
    assert seen == {(1, 1), (2, 2), (3, 3), (4, 4)}  # (0, 0), the oldest, was overwritten
    for _ in range(20):
        state, seat, moves = pool.sample(1, rng)
        assert moves == state[0] and seat == (1 if moves >= 3 else 0)


def test_bad_restart_settings_are_refused_clearly():
    with pytest.raises(ValueError, match=r"restart_prob must be a probability in \[0, 1\], got 1.5"):
        MancalaVecEnv(2, "kalah", restart_prob=1.5)
    with pytest.raises(ValueError, match="restart_capacity must be a positive integer"):
        MancalaVecEnv(2, "kalah", restart_prob=0.5, restart_capacity=0)
    with pytest.raises(ValueError, match="restart_prob needs vec='fast'"):
        TrainConfig(vec="dummy", restart_prob=0.5).check()
