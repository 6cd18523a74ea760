"""The single-agent Gymnasium view on worked positions, and the standard env checkers."""

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from mancala_marl import gym_id, observations
from mancala_marl.agents import Policy
from mancala_marl.games import make_game
from mancala_marl.single_agent import SingleAgentEnv

from .registry import NAMES

IDS = [gym_id(name) for name in NAMES]


def test_gym_id_names_the_game_as_make_game_does():
    assert gym_id("togyz_kumalak") == "mancala_marl/TogyzKumalak-v0"
    assert gym_id("dakon") == "mancala_marl/Dakon-v0" and gym_id("sadeqa_iii") == "mancala_marl/SadeqaIII-v0"
    with pytest.raises(ValueError, match=r"unknown game 'Kalah'; did you mean kalah\? known games: kalah, sungka"):
        gym_id("Kalah")  # a bare KeyError: 'Kalah' before


class Scripted(Policy):
    """Plays the given moves in order and records how often it was asked."""

    name = "scripted"

    def __init__(self, moves):
        super().__init__()
        self.moves, self.calls = list(moves), 0

    def reset(self, seed=None):
        pass

    def act(self, game, state):
        self.calls += 1
        return self.moves.pop(0)


class Refuses(Policy):
    name = "refuses"

    def act(self, game, state):
        raise AssertionError("the opponent was asked to move while it had to pass")


def test_opponent_extra_turn_is_consumed_in_one_step():
    # Kalah(6, 4): the opponent's pit 2 holds 4 seeds, 4 cells from its store: extra turn; then pit 0.
    opponent = Scripted([2, 0])
    env = SingleAgentEnv("kalah", opponent=opponent, seat="first")
    env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(0)
    expected = env.game.init()
    for move in (0, 2, 0):
        env.game.apply(expected, move)
    assert opponent.calls == 2
    np.testing.assert_array_equal(env.state(), expected)
    assert env.game.to_move(env.state()) == 0 and env.game.scores(env.state()) == (0, 1)
    np.testing.assert_array_equal(obs, observations.encode(env.game, expected, 0, "counts"))
    assert not terminated and not truncated and reward == 0.0


def test_second_seat_gets_first_observation_after_the_opponents_opening():
    opponent = Scripted([2, 0])  # an extra turn, then an ordinary move
    env = SingleAgentEnv("kalah", opponent=opponent, seat="second")
    obs, info = env.reset(seed=0)
    expected = env.game.init()
    env.game.apply(expected, 2)
    env.game.apply(expected, 0)
    np.testing.assert_array_equal(env.state(), expected)
    np.testing.assert_array_equal(obs, observations.encode(env.game, expected, 1, "counts"))
    np.testing.assert_array_equal(info["action_mask"], env.game.legal_mask(expected).astype(np.int8))
    assert info["seat"] == 1 and opponent.calls == 2


def test_opponent_with_empty_houses_passes_and_the_learner_moves_again():
    game = make_game("sungka")
    env = SingleAgentEnv(game, opponent=Refuses(), seat="first", reward="score_diff")
    env.reset(seed=0)
    # player_0: one stone in houses 0 and 3, head 10; player_1: houses empty, head 5.
    env.set_state(game.from_board([1, 0, 0, 1, 0, 0, 0, 10, 0, 0, 0, 0, 0, 0, 0, 5], to_move=0))
    _, reward, terminated, _, info = env.step(0)  # sunog in house 1: the stone goes to the head
    assert not terminated and reward == 1.0
    assert game.to_move(env.state()) == 0 and info["action_mask"].tolist() == [0, 0, 0, 1, 0, 0, 0]
    _, reward, terminated, _, info = env.step(3)
    assert terminated and reward == 1.0 and info["margin"] == 12 - 5 and info["result"] == 1


@pytest.mark.parametrize("game", NAMES)
@pytest.mark.parametrize("seat", ["first", "second"])
def test_score_diff_rewards_sum_to_the_final_margin(game, seat):
    env = SingleAgentEnv(game, opponent="random", seat=seat, reward="score_diff")
    rng = np.random.default_rng(1)
    for episode in range(3):
        _, info = env.reset(seed=episode)
        total, done = 0.0, False
        while not done:
            _, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            total, done = total + reward, terminated or truncated
        s = env.game.scores(env.state())
        assert total == info["margin"] == s[env.player] - s[1 - env.player]


def test_result_reward_is_zero_until_the_end():
    env = SingleAgentEnv("kalah", opponent="max", seat="first", reward="result")
    _, info = env.reset(seed=0)
    rewards = []
    while True:
        _, reward, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[-1]))
        rewards.append(reward)
        if terminated or truncated:
            break
    assert all(r == 0 for r in rewards[:-1]) and rewards[-1] == info["result"] != 0


def test_an_illegal_action_forfeits_the_game():
    game = make_game("kalah")
    env = SingleAgentEnv(game, opponent="random", seat="first")
    env.reset(seed=0)
    env.set_state(game.from_board([0, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0], to_move=0))
    _, reward, terminated, truncated, info = env.step(0)
    assert terminated and not truncated and reward == -1.0
    assert info["illegal_action"] and info["result"] == -1 and not env.action_masks().any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(1)


@pytest.mark.parametrize("env_id", IDS)
def test_gymnasium_and_sb3_checkers_pass(env_id):
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    env = gymnasium.make(env_id, opponent="random", seat="random", reward="score_diff")
    check_env(env.unwrapped, skip_render_check=True)
    sb3_check_env(env.unwrapped, warn=False)


def test_gymnasium_make_passes_rule_parameters_and_options():
    env = gymnasium.make("mancala_marl/Kalah-v0", pits=4, seeds=3, opponent="max", seat="second")
    obs, info = env.reset(seed=0)
    assert env.action_space.n == 4 and obs.shape == (10,) and info["seat"] == 1 and info["opponent"] == "max"


def test_human_rendering_shows_the_first_position_on_reset_and_each_after_a_step(capsys):
    env = SingleAgentEnv("kalah", pits=3, seeds=1, opponent="max", seat="first", render_mode="human")
    env.reset(seed=0)
    first = capsys.readouterr().out
    assert first.strip() and "1" in first  # reset printed nothing
    env.step(0)
    assert capsys.readouterr().out.strip() not in ("", first.strip())


def test_an_opponent_network_for_other_rules_is_refused_when_the_env_is_made():
    # it was refused at the opponent's first move: in the first seat, after reset() and step()
    from mancala_marl.agents.learned import pretrained_dir

    kalah_model = str(pretrained_dir() / "kalah.zip")
    for opponent in (kalah_model, f"model:{kalah_model}", ["random", kalah_model]):
        with pytest.raises(ValueError, match="was trained for kalah"):
            gymnasium.make("mancala_marl/Sungka-v0", opponent=opponent, seat="first")


def test_subprocess_workers_find_the_ids_with_the_module_in_front():
    # README's form: SB3's forkserver workers never import mancala_marl, so the bare id is unknown there
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import SubprocVecEnv

    envs = make_vec_env("mancala_marl:mancala_marl/Kalah-v0", n_envs=2, vec_env_cls=SubprocVecEnv,
                        env_kwargs={"pits": 4, "seeds": 3, "opponent": "max"})
    try:
        assert envs.reset().shape == (2, 10) and envs.env_method("action_masks")[0].tolist() == [True] * 4
    finally:
        envs.close()


@pytest.mark.parametrize("bad, match", [({"seat": "middle"}, "seat"), ({"reward": "win"}, "reward"),
                                        ({"opponent": "nobody"}, "unknown policy"),
                                        ({"obs_type": "tesauro"}, "tesauro")])
def test_bad_arguments_are_named(bad, match):
    with pytest.raises(ValueError, match=match):
        SingleAgentEnv("sungka", **bad)


def test_an_opponent_pool_is_sampled_per_episode():
    env = SingleAgentEnv("kalah", opponent=["random", "max", "exact"], seat="random")
    seen = {env.reset(seed=s)[1]["opponent"] for s in range(30)}
    seats = {env.reset(seed=s)[1]["seat"] for s in range(30)}
    assert seen == {"random", "max", "exact"} and seats == {0, 1}


def test_truncation_never_leaves_the_learner_without_a_move():
    # Kalah, learner second, opponent exact. Its opening: pit 2 (4 seeds, the last in the store:
    # extra turn), then no pit's count equals its distance to the store, so max: pit 5 (ties go
    # to the pit nearest the store), as in K2. With max_moves=1 the opponent still finishes its
    # turn, so the learner starts from K2's board with a full mask.
    env = SingleAgentEnv("kalah", opponent="exact", seat="second", max_moves=1)
    _, info = env.reset(seed=0)
    assert env.num_moves == 2
    assert list(env.state()[:14]) == [4, 4, 0, 5, 5, 0, 2, 5, 5, 5, 5, 4, 4, 0]
    assert list(info["action_mask"]) == [1, 1, 1, 1, 1, 1]
    # The learner's move passes max_moves: the opponent answers in full, then the episode is
    # truncated with the learner to move again and a non-empty mask.
    _, _, terminated, truncated, info = env.step(0)
    assert truncated and not terminated
    assert env.game.to_move(env.state()) == 1 and env.num_moves >= 4
    assert info["action_mask"].any() and np.array_equal(info["action_mask"], env.action_masks().astype(np.int8))
    # Cut off, the game is won by neither: result 0 (what Monitor(info_keywords=("result",)) reads).
    scores = env.game.scores(env.state())
    assert info["result"] == 0 and info["margin"] == scores[1] - scores[0]


def test_step_refused_when_the_learner_is_not_to_move():
    env = SingleAgentEnv("kalah", opponent="random", seat="first")
    env.reset(seed=0)
    state = env.state()
    state[14] = 1  # the opponent to move: a state the learner must never act in
    env._state = state
    with pytest.raises(RuntimeError, match="episode ended"):
        env.step(0)


def test_random_openings_start_episodes_elsewhere():
    env = SingleAgentEnv("kalah", opponent="max", seat="first", opening=3, opening_prob=1.0)
    starts = set()
    for seed in range(40):
        env.reset(seed=seed)
        assert 1 <= env.num_moves  # 1..3 opening plies, then max's replies if it was to move
        starts.add(env.state().tobytes())
    assert len(starts) > 10
    plain = SingleAgentEnv("kalah", opponent="max", seat="first", opening=3, opening_prob=0.0)
    plain.reset(seed=0)
    assert plain.num_moves == 0 and np.array_equal(plain.state(), plain.game.init())
    with pytest.raises(ValueError, match=r"^opening must be >= 0, got -1; it takes 0..1000$"):
        SingleAgentEnv("kalah", opening=-1)
    with pytest.raises(ValueError, match=r"^opening_prob must be <= 1, got 2; it takes 0..1$"):
        SingleAgentEnv("kalah", opening=2, opening_prob=2)
