"""The vectorized env's restart curriculum (``restart_prob``): episodes against a deterministic
opponent restart from the learner's positions in games it did not win against that opponent."""

import numpy as np
import pytest

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


@pytest.mark.parametrize("seat", ["first", "second"])
def test_lost_games_feed_the_pool_and_later_episodes_restart_from_their_positions(seat):
    env = MancalaVecEnv(1, "kalah", opponent="exact", seat=seat, restart_prob=1.0)
    env.seed(3)
    env.reset()
    positions, info = play_one_game(env)
    assert info["result"] == -1  # playing the lowest pit loses to exact from the start, in either seat
    exact, me = OPPONENTS["exact"], ("first", "second").index(seat)
    assert env.restarts.size(exact) == len(positions) == len(env.restarts)
    ring_states, ring_seats, ring_moves = env.restarts._rings[exact]
    for k, (state, moves) in enumerate(positions):
        assert np.array_equal(ring_states[k], state) and ring_seats[k] == me and ring_moves[k] == moves
    # Every later episode starts from one of the pool's positions, the learner to move in its seat;
    # played the same way from there it is lost again, and its positions join the pool.
    known = list(positions)
    later_starts = 0
    for _ in range(8):
        start, moves = env.states[0].copy(), int(env.num_moves[0])
        assert any(np.array_equal(state, start) and m == moves for state, m in known)
        assert env.players[0] == me and env.action_masks()[0].any()
        later_starts += not np.array_equal(start, positions[0][0])
        size = env.restarts.size(exact)
        more, info = play_one_game(env)
        assert info["result"] == -1 and env.restarts.size(exact) == size + len(more)
        known += more
    assert later_starts > 0  # not just the usual start over again


def test_forfeited_games_are_not_kept():
    env = MancalaVecEnv(1, "kalah", opponent="exact", seat="first", restart_prob=1.0)
    env.seed(0)
    env.reset()
    while env.action_masks()[0].all():
        env.step(np.array([lowest_pit(env.action_masks()[0])]))
    _, _, dones, infos = env.step(np.array([int(np.flatnonzero(~env.action_masks()[0])[0])]))  # an empty pit
    assert dones[0] and infos[0]["illegal_action"] and infos[0]["result"] == -1
    assert len(env.restarts) == 0


def test_won_games_and_games_against_random_add_nothing():
    # Against random the same moves may win or lose: its games are never kept, nor restarted.
    env = MancalaVecEnv(4, "sungka", opponent=["random", "exact"], seat="random", restart_prob=1.0)
    env.seed(0)
    env.reset()
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(300):
        masks = env.action_masks()
        _, _, dones, _ = env.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        ended += int(dones[0] + dones[2])
    assert ended > 0 and env.restarts.size(OPPONENTS["random"]) == 0
    assert env.restarts.size(OPPONENTS["exact"]) == len(env.restarts) > 0
    # A game the learner wins is not kept: on Kalah(4,3), first seat, the lowest pit beats max.
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
    with pytest.raises(ValueError, match=r"^restart_prob must be <= 1, got 1.5; it takes 0..1$"):
        MancalaVecEnv(2, "kalah", opponent="exact", restart_prob=1.5)
    with pytest.raises(ValueError, match=r"max, exact or greedy only; the opponents are \['random'\]"):
        MancalaVecEnv(2, "kalah", opponent="random", restart_prob=0.5)
    with pytest.raises(ValueError, match=r"restart_prob must be >= 0, got -0.1; it takes 0..1"):
        TrainConfig(vec="fast", restart_prob=-0.1).check()
    with pytest.raises(ValueError, match="max, exact or greedy only"):  # before any run folder is made
        TrainConfig(vec="fast", opponent="random", restart_prob=0.5).check()
    with pytest.raises(ValueError, match=r"^restart_capacity must be >= 1, got 0; it takes 1..100000000$"):
        MancalaVecEnv(2, "kalah", opponent="max", restart_prob=0.5, restart_capacity=0)
    with pytest.raises(ValueError, match="restart_prob needs vec='fast'"):
        TrainConfig(vec="dummy", restart_prob=0.5).check()
