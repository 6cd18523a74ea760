"""The vectorized env against N copies of the single-agent env in SB3's DummyVecEnv: identical
observations, rewards, dones, infos and masks, step for step, under the same seeds."""

import numpy as np
import pytest
from stable_baselines3.common.vec_env import DummyVecEnv

from mancala_marl import observations
from mancala_marl.games import GAMES
from mancala_marl.single_agent import SingleAgentEnv
from mancala_marl.train.vector_env import MancalaVecEnv

# Every registered game meets each compiled opponent in some seat, with each of its encodings and
# its second example's rules; a few cases add truncations and a mixed pool.
OPPONENT_CYCLE = ["random", "max", "exact", "greedy"]
CASES = []  # game, opponent, seat, reward, obs_type, extra parameters
for _k, _cls in enumerate(GAMES.values()):
    for _j, _obs in enumerate(observations.obs_types(_cls())):
        CASES.append((_cls.name, OPPONENT_CYCLE[(_k + _j) % 4], ["random", "first", "second"][(_k + _j) % 3],
                      ["result", "score_diff"][_j % 2], _obs, {}))
    CASES.append((_cls.name, OPPONENT_CYCLE[(_k + 2) % 4], "random", "score_diff", "counts", _cls.examples[-1]))
CASES += [
    ("kalah", "greedy", "random", "result", "counts", {"max_moves": 12}),  # truncations
    ("oware", "random", "random", "result", "counts", {"max_moves": 30}),
    ("sungka", ["random", "exact", "max"], "random", "score_diff", "counts", {}),  # a mixed pool
    ("sungka", "exact", "random", "score_diff", "moves", {"opening": 6, "opening_prob": 0.5}),  # random openings
    ("oware", ["max", "random"], "second", "result", "counts", {"opening": 3}),
    # a board so small that the opponent's replies to an opening often end the game: drawn again
    ("kalah", ["max", "random"], "second", "result", "counts", {"pits": 2, "seeds": 2, "opening": 3}),
]


def assert_same_info(ours, theirs, where):
    assert ours.keys() == theirs.keys(), where
    for key in ours:
        a, b = ours[key], theirs[key]
        assert type(a) is type(b) and np.array_equal(a, b), (where, key, a, b)
        if isinstance(a, np.ndarray):
            assert a.dtype == b.dtype, (where, key)


@pytest.mark.parametrize("game, opponent, seat, reward, obs_type, extra", CASES, ids=lambda c: str(c))
def test_vector_env_matches_dummy_vec_env_of_single_envs(game, opponent, seat, reward, obs_type, extra):
    n = 3
    kwargs = dict(opponent=opponent, seat=seat, reward=reward, obs_type=obs_type, reward_scale=0.5, **extra)
    ours = MancalaVecEnv(n, game, **kwargs)
    names = [opponent] if isinstance(opponent, str) else opponent  # env i plays names[i % len]
    theirs = DummyVecEnv([lambda i=i: SingleAgentEnv(game, **{**kwargs, "opponent": names[i % len(names)]})
                          for i in range(n)])
    ours.seed(11)
    theirs.seed(11)
    assert np.array_equal(ours.reset(), theirs.reset())
    for i in range(n):
        assert_same_info(ours.reset_infos[i], theirs.reset_infos[i], ("reset", i))
    rng = np.random.default_rng(0)
    episodes = 0
    for t in range(250):
        masks = np.stack(ours.env_method("action_masks"))
        assert np.array_equal(masks, np.stack(theirs.env_method("action_masks"))), t
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        if t % 37 == 0:  # now and then an empty pit: a forfeit in both
            empty = [np.flatnonzero(~m) for m in masks]
            actions = np.array([e[0] if e.size else a for e, a in zip(empty, actions)])
        obs, rewards, dones, infos = ours.step(actions)
        obs2, rewards2, dones2, infos2 = theirs.step(actions)
        assert np.array_equal(obs, obs2) and obs.dtype == obs2.dtype, t
        assert np.array_equal(rewards, rewards2) and rewards.dtype == rewards2.dtype, t
        assert np.array_equal(dones, dones2), t
        for i in range(n):
            assert_same_info(infos[i], infos2[i], (t, i))
            if dones[i]:
                assert_same_info(ours.reset_infos[i], theirs.reset_infos[i], ("reset", t, i))
        episodes += int(dones.sum())
    assert episodes >= n  # auto-resets were exercised


def test_maskable_ppo_trains_on_the_vector_env_directly():
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    env = MancalaVecEnv(4, "kalah", pits=4, seeds=3, opponent="max", seat="random")
    assert is_masking_supported(env)
    env.reset()
    assert get_action_masks(env).shape == (4, 4)
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=32, n_epochs=1, seed=0)
    model.learn(128)
    assert model.num_timesteps >= 128


def test_a_mixed_pool_may_be_named_as_on_the_command_line():
    assert MancalaVecEnv(4, "kalah", opponent="random,max")._opponent_names == ["random", "max", "random", "max"]
    assert MancalaVecEnv(2, "kalah", opponent=["exact"])._opponent_names == ["exact", "exact"]


def test_bad_arguments_are_refused_clearly():
    for opponent in ("alphabeta", "random,alphabeta", "random,", []):
        with pytest.raises(ValueError, match="opponent must be one of"):
            MancalaVecEnv(2, "kalah", opponent=opponent)
    with pytest.raises(ValueError, match="num_envs"):
        MancalaVecEnv(0, "kalah")
    env = MancalaVecEnv(2, "kalah")
    env.reset()
    with pytest.raises(ValueError, match=r"pit indices 0\.\.5"):
        env.step(np.array([0, 6]))


def test_training_monitor_reads_a_result_from_truncated_episodes_too():
    # Training wraps the env in VecMonitor(info_keywords=("result",)): an episode cut off at
    # max_moves must carry a result (0: won by neither), or the monitor fails at its end.
    from stable_baselines3.common.vec_env import VecMonitor

    env = VecMonitor(MancalaVecEnv(4, "kalah", opponent="random", seat="random", max_moves=12),
                     info_keywords=("result",))
    env.seed(0)
    env.reset()
    rng = np.random.default_rng(0)
    truncated = 0
    for _ in range(60):
        masks = np.stack(env.env_method("action_masks"))
        _, _, dones, infos = env.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        for done, info in zip(dones, infos):
            if done and info["TimeLimit.truncated"]:
                truncated += 1
                assert info["episode"]["result"] == 0
    assert truncated > 0


def test_an_opening_that_the_opponents_replies_end_is_drawn_again():
    # Kalah(2, 2): after 1-3 random plies, max's replies end about one game in seven before the
    # learner moves; every reset must still hand the learner a game to play.
    env = SingleAgentEnv("kalah", pits=2, seeds=2, seat="second", opponent="max", opening=3)
    vec = MancalaVecEnv(64, "kalah", pits=2, seeds=2, seat="second", opponent="max", opening=3)
    for seed in range(200):
        env.reset(seed=seed)
        assert not env.game.is_terminal(env._state) and env.game.to_move(env._state) == 1
    vec.seed(0)
    for _ in range(3):
        vec.reset()
        assert vec.action_masks().any(axis=1).all()  # every row's learner has a move
    # with no opening to draw again, rules where the opponent's first moves end the game are refused
    for make in (lambda: SingleAgentEnv("kalah", pits=1, seeds=1, seat="second", opponent="max"),
                 lambda: MancalaVecEnv(2, "kalah", pits=1, seeds=1, seat="second", opponent="max")):
        with pytest.raises(ValueError, match="the opponent's first moves end the game; the rules are degenerate"):
            make().reset()
