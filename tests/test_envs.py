"""Every registered environment against PettingZoo's own test suite, plus the env contract:
turn order, rewards, infos, observations, rendering and errors."""

import copy

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from mancala_marl import (
    ENV_MODULES,
    IllegalMoveError,
    kalah_v0,
    observations,
    oware_v0,
    sungka_v0,
    togyz_kumalak_v0,
)

MODULES = list(ENV_MODULES.values())
IDS = list(ENV_MODULES)


def obs_types(module):
    return list(observations.obs_types(module.raw_env().game))


@pytest.mark.parametrize("module", MODULES, ids=IDS)
def test_pettingzoo_api_test(module):
    for obs_type in obs_types(module):
        for reward in ("result", "score_diff"):
            api_test(module.env(obs_type=obs_type, reward=reward), num_cycles=300)
    api_test(module.raw_env(), num_cycles=300)


@pytest.mark.parametrize("module", MODULES, ids=IDS)
def test_pettingzoo_seed_and_render_tests(module):
    seed_test(module.env, num_cycles=300)
    render_test(module.raw_env)


@pytest.mark.parametrize("name", [m.__name__.rsplit(".", 1)[1] for m in MODULES])
def test_pettingzoo_registry(name):
    env = pettingzoo.make("aec", f"mancala_marl/{name}")
    env.reset()
    assert str(env.unwrapped) == name


def play_random(env, rng):
    """Random legal play through agent_iter(); returns the per-agent reward totals and the
    sequence of agents that acted."""
    env.reset()
    totals = dict.fromkeys(env.possible_agents, 0.0)
    actors = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.any(), "the agent to act must have a legal move"
        other = [a for a in env.agents if a != agent][0]
        assert not env.observe(other)["action_mask"].any(), "the waiting agent's mask must be empty"
        actors.append(agent)
        env.step(int(rng.choice(np.flatnonzero(mask))))
    return totals, actors


@pytest.mark.parametrize("module", MODULES, ids=IDS)
def test_score_diff_rewards_sum_to_final_margin(module):
    rng = np.random.default_rng(0)
    env = module.raw_env(reward="score_diff")
    for _ in range(30):
        totals, _ = play_random(env, rng)
        s0, s1 = env.game.scores(env.state())
        assert totals == {"player_0": s0 - s1, "player_1": s1 - s0}
        if env.game.sweeps_at_end:
            assert s0 + s1 == env.game.total_seeds


@pytest.mark.parametrize("module", MODULES, ids=IDS)
def test_result_rewards_and_final_infos(module):
    rng = np.random.default_rng(1)
    env = module.raw_env()
    for _ in range(30):
        env.reset()
        totals, _ = play_random(env, rng)
        info = env.infos if env.agents else None
        s0, s1 = env.game.scores(env.state())
        expected = float(np.sign(s0 - s1))
        assert totals == {"player_0": expected, "player_1": -expected}
        assert info is None  # every agent has taken its final dead step


def test_final_info_holds_scores_and_winner():
    env = kalah_v0.raw_env()
    env.reset()
    env.set_state(env.game.from_board([0, 0, 0, 0, 0, 1, 20, 0, 0, 0, 0, 0, 3, 24]))
    env.step(5)
    for agent in env.possible_agents:
        assert env.terminations[agent]
        info = env.infos[agent]
        assert list(info["scores"]) == [21, 27] and info["scores"].dtype == np.int64
        assert info["game_over"] is True and info["winner"] == 1 and info["num_moves"] == 1
    assert env.rewards == {"player_0": -1.0, "player_1": 1.0}


def test_infos_keep_the_same_keys_and_types_at_every_step():
    # Libraries such as TorchRL and Tianshou build their info specs from the first step.
    env = sungka_v0.raw_env()
    rng = np.random.default_rng(3)
    env.reset()
    first = env.infos["player_0"]
    assert first["winner"] == -1 and first["game_over"] is False and list(first["scores"]) == [0, 0]
    for agent in env.agent_iter():
        obs, _, terminated, truncated, info = env.last()
        assert info.keys() == first.keys()
        assert [type(v) for v in info.values()] == [type(v) for v in first.values()]
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert info["game_over"] and info["winner"] in (-1, 0, 1)


def test_extra_turn_keeps_agent_selection():
    env = kalah_v0.env()
    env.reset()
    env.step(2)  # K1: the last seed lands in the store
    assert env.agent_selection == "player_0"
    env.step(5)  # K2
    assert env.agent_selection == "player_1"
    assert list(env.unwrapped.board) == [4, 4, 0, 5, 5, 0, 2, 5, 5, 5, 5, 4, 4, 0]


def test_sungka_pass_skips_the_agent_without_stones():
    env = sungka_v0.env()
    env.reset()
    env.unwrapped.set_state(env.unwrapped.game.from_board([1, 0, 0, 0, 0, 0, 3, 50, 0, 0, 0, 0, 0, 0, 0, 44]))
    env.step(0)  # sunog; player_1 has no stones and passes
    assert env.agent_selection == "player_0"
    assert not env.observe("player_1")["action_mask"].any()


def test_counts_observation_is_from_the_observer_side():
    env = kalah_v0.raw_env()
    env.reset()
    env.step(2)
    env.step(5)  # K2: [4,4,0,5,5,0,2, 5,5,5,5,4,4,0], player_1 to move
    obs0 = env.observe("player_0")
    obs1 = env.observe("player_1")
    assert list(obs0["observation"]) == [4, 4, 0, 5, 5, 0, 2, 5, 5, 5, 5, 4, 4, 0]
    assert list(obs1["observation"]) == [5, 5, 5, 5, 4, 4, 0, 4, 4, 0, 5, 5, 0, 2]
    assert list(obs1["action_mask"]) == [1, 1, 1, 1, 1, 1] and not obs0["action_mask"].any()
    assert obs0["observation"].dtype == np.float32


def test_paper_observation_drops_the_stores():
    env = sungka_v0.raw_env(obs_type="paper")
    env.reset()
    env.step(0)  # S1
    assert list(env.observe("player_0")["observation"]) == [0, 8, 8, 8, 8, 8, 8, 7, 7, 7, 7, 7, 7, 7]
    assert list(env.observe("player_1")["observation"]) == [7, 7, 7, 7, 7, 7, 7, 0, 8, 8, 8, 8, 8, 8]


def test_togyz_counts_observation_has_tuzduk_flags():
    env = togyz_kumalak_v0.raw_env()
    env.reset()
    for move in (2, 8, 7, 2):  # T4: W3 becomes player_1's tuzduk
        env.step(move)
    obs0 = env.observe("player_0")["observation"]
    obs1 = env.observe("player_1")["observation"]
    assert obs0.shape == (38,)
    assert list(obs0[20:29]) == [0, 0, 1, 0, 0, 0, 0, 0, 0] and not obs0[29:].any()
    assert not obs1[20:29].any() and list(obs1[29:]) == [0, 0, 1, 0, 0, 0, 0, 0, 0]


def test_togyz_tesauro_observation_at_the_start():
    env = togyz_kumalak_v0.raw_env(obs_type="tesauro")
    env.reset()
    obs = env.observe("player_0")["observation"]
    nine = [1, 1, 1, 0, 9 / 17, 1, 0]
    side = nine * 8 + [1, 1, 0, 9 / 17, 1] + [0, 0]
    assert obs.shape == (128,)
    np.testing.assert_allclose(obs, np.array(side * 2 + [1, 0], dtype=np.float32))
    np.testing.assert_allclose(env.observe("player_1")["observation"][-2:], [0, 1])
    assert env.observation_space("player_0")["observation"].contains(obs)


def test_tesauro_is_togyz_only():
    with pytest.raises(ValueError, match="tesauro"):
        kalah_v0.raw_env(obs_type="tesauro")


@pytest.mark.parametrize("module", MODULES, ids=IDS)
def test_render_modes(module):
    env = module.raw_env(render_mode="ansi")
    env.reset()
    text = env.render()
    assert "player_0 to move" in text and text.count("\n") >= 5
    env = module.raw_env(render_mode="rgb_array")
    env.reset()
    img = env.render()
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    assert img.shape[1] > img.shape[0] and len(np.unique(img.reshape(-1, 3), axis=0)) >= 4


def test_the_picture_keeps_long_counts_inside_their_cells():
    # Five digits and more were drawn 76+ pixels wide in a 64-pixel cell: past the picture's edge
    # for a store, which raised a shape error.
    from mancala_marl.games import make_game
    from mancala_marl.render import _CELL, _TEXT, rgb_array

    game = make_game("kalah", seeds=20000)
    state = game.from_board([0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 239999])
    img = rgb_array(game, state)
    text = np.all(img == _TEXT, axis=2)
    columns = np.flatnonzero(text.any(axis=0))
    store_1 = columns[columns < _CELL]  # player_1's store is the leftmost cell
    assert len(store_1) and store_1.min() >= 4 and store_1.max() < _CELL - 4
    assert text[:, _CELL:].any()  # the pits' counts are drawn too


def test_each_env_has_its_own_render_modes_list():
    # CaptureStdoutWrapper appends "ansi" to the wrapped env's list; no other env may see it.
    from pettingzoo.utils.wrappers import CaptureStdoutWrapper

    before = {module: list(module.raw_env.metadata["render_modes"]) for module in MODULES}
    wrapped = [CaptureStdoutWrapper(kalah_v0.raw_env(render_mode="human")) for _ in range(2)]
    assert all(env.metadata["render_modes"].count("ansi") == 2 for env in wrapped)  # its own and the wrapper's
    for module in MODULES:
        assert module.raw_env.metadata["render_modes"] == before[module], module.__name__
        assert module.raw_env().metadata["render_modes"] == before[module], module.__name__


def test_truncation_at_max_moves():
    env = kalah_v0.raw_env(max_moves=3)
    env.reset()
    moves = [0, 0, 0]
    for move in moves:
        agent = env.agent_selection
        env.step(move if env.observe(agent)["action_mask"][move] else int(np.argmax(env.observe(agent)["action_mask"])))
    assert all(env.truncations.values()) and not any(env.terminations.values())


def test_state_round_trip():
    env = togyz_kumalak_v0.raw_env()
    env.reset()
    env.step(2)
    saved = env.state()
    env.step(8)
    env.set_state(saved)
    assert np.array_equal(env.state(), saved) and env.agent_selection == "player_1"
    assert env.state_space.contains(saved)


# -- bad input ----------------------------------------------------------------------------------

def test_raw_env_illegal_move_raises_with_reason():
    env = kalah_v0.raw_env()
    env.reset()
    env.step(2)
    with pytest.raises(IllegalMoveError, match="pit 2 is empty"):
        env.step(2)
    with pytest.raises(IllegalMoveError, match="out of range"):
        env.step(6)
    with pytest.raises(IllegalMoveError, match="out of range"):
        env.step(-1)


def test_wrapped_env_illegal_move_loses():
    env = kalah_v0.env()
    env.reset()
    env.step(2)
    *_, held = env.last()  # as a collector keeps it
    env.step(2)  # player_0 again, but pit 2 is empty now
    assert held["game_over"] is False  # what was handed out before the move stays as it was
    assert env.terminations["player_0"] and env.rewards["player_0"] == -1
    # The infos say so too (they kept the last position's: game on, no winner).
    for agent in env.agents:
        assert env.infos[agent]["game_over"] is True and env.infos[agent]["winner"] == 1
    assert set(env.infos["player_0"]) == {"scores", "num_moves", "game_over", "winner"}  # the keys of every step


def test_a_zero_dimensional_integer_array_is_a_pit():
    # SB3's model.predict(obs) returns array(2) for one observation; Discrete.contains accepts it
    for factory in (kalah_v0.raw_env, kalah_v0.env):
        env = factory()
        env.reset()
        env.step(np.array(2))
        assert env.agent_selection == "player_0" and env.observe("player_0")["observation"][2] == 0  # extra turn
        env.step(np.array(5, dtype=np.uint8))
        assert env.agent_selection == "player_1"
    with pytest.raises(IllegalMoveError, match=r"action must be an integer pit index, got array\(2\.\)"):
        game = kalah_v0.raw_env().game
        game.apply(game.init(), np.array(2.0))


def test_wrapped_env_out_of_range_asserts():
    env = sungka_v0.env()
    env.reset()
    for action in (7, -1, True, np.bool_(False)):  # a bool is an int to Python, but no pit
        # PettingZoo's assertion, naming the action and the pits (it named neither, and python -O
        # skipped it: 7 failed in numpy, -1 as an illegal move of the raw env)
        with pytest.raises(AssertionError, match=rf"action {action!r} is not in action space: sungka's pits are 0..6"):
            env.step(action)
    with pytest.raises(AssertionError, match="None is for an agent whose game has ended"):
        env.step(None)


def test_raw_env_before_reset_says_to_reset():
    env = kalah_v0.raw_env()
    with pytest.raises(AttributeError, match=r"raw_env.agent_selection is not set before reset\(\): call reset"):
        env.step(0)
    with pytest.raises(AttributeError, match="has no attribute 'bogus'"):
        env.bogus
    assert not hasattr(env, "bogus") and copy.deepcopy(env).game.name == "kalah"


def test_set_state_refuses_a_board_no_game_can_reach():
    env = kalah_v0.raw_env()
    env.reset()
    state = env.state()
    state[0] = -5  # as a hand-edited array, not through from_board (which refuses it too)
    with pytest.raises(ValueError, match="no negative counts"):
        env.set_state(state)
    state = env.state()
    state[env.game.board_size] = 7
    with pytest.raises(ValueError, match=r"the player to move\) must be 0, 1 or -1 \(game over\), got 7"):
        env.set_state(state)
    cases = [  # board and player to move of states no play reaches, and what the refusal says
        ([0, 0, 0, 0, 0, 0, 20, 4, 4, 4, 4, 4, 4, 4], 0, r"player_0 is to move .* but has no legal move"),
        ([99, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0], 0, "holds 143 seeds, more than the 48"),
        ([4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0], -1, "a finished game .* must have every seed in a store"),
        ([2**32 + 4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0], 0, r"whole numbers of 32 bits, got 4294967300 in state\[0\]"),
    ]
    for board, to_move, message in cases:
        with pytest.raises(ValueError, match=message):
            env.set_state([*board, to_move])
    with pytest.raises(ValueError, match=r"state must hold whole numbers of 32 bits, got 4.5 in state\[0\]"):
        env.set_state([4.5, *[4] * 5, 0, *[4] * 6, 0, 0])
    # the games' own slots, which the kernels index with: Oware's count of positions since the
    # last capture (-3 made the next move write hash bits over the board), Togyz Kumalak's tuzduks
    oware = oware_v0.raw_env()
    oware.reset()
    state = oware.state()
    state[oware.game.board_size + 1] = -3
    with pytest.raises(ValueError, match=r"state\[15\], one of oware's own slots after the player to move, must "
                                         r"be in 0\.\.256, got -3"):
        oware.set_state(state)
    togyz = togyz_kumalak_v0.raw_env()
    game = togyz.game
    start = [9] * 9 + [0] + [9] * 9 + [0]
    hole_2_empty = [9, 9, 0] + [9] * 6 + [9] + [9, 9, 0] + [9] * 6 + [9]  # on both sides, balls in the kazans
    for board, tuzduk, message in ((start, (8, -1), "must be in -1..7, got 8"),  # the last hole never becomes one
                                   (start, (40, -1), "must be in -1..7, got 40"),
                                   (start, (2, -1), "player_0's tuzduk, hole 2 of player_1, must be empty"),
                                   (hole_2_empty, (2, 2), "the two tuzduks cannot stand on holes of the same number")):
        with pytest.raises(ValueError, match=message):
            togyz.set_state(game.from_board(board, 0, tuzduk))
    togyz.set_state(game.from_board(hole_2_empty, 0, (2, -1)))  # a tuzduk as play leaves it
    assert togyz.observe("player_0")["action_mask"].tolist() == [1, 1, 0, 1, 1, 1, 1, 1, 1]
    # what the rules allow stays: fewer seeds (an endgame set up by hand), a finished game, floats
    # that are whole numbers
    env.set_state([0, 0, 0, 0, 0, 1, 20, 0, 0, 0, 0, 0, 3, 4, 0])
    assert env.observe("player_0")["action_mask"].tolist() == [0, 0, 0, 0, 0, 1]
    env.set_state([0, 0, 0, 0, 0, 0, 24, 0, 0, 0, 0, 0, 0, 24, -1])
    assert env.terminations == {"player_0": True, "player_1": True} and env.infos["player_0"]["winner"] == -1
    env.set_state(np.array([4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0, 0], dtype=float))
    assert env.state().dtype == np.int32 and env.state()[0] == 4
    # the Gymnasium view's set_state reads states the same way (Game.state_from); it took these
    from mancala_marl.single_agent import SingleAgentEnv

    view = SingleAgentEnv("kalah")
    view.reset(seed=0)
    bad = view.state()
    bad[0] = -5
    with pytest.raises(ValueError, match="no negative counts"):
        view.set_state(bad)
    with pytest.raises(ValueError, match=r"state must have shape \(15,\) for Kalah"):
        view.set_state(bad[:-1])


def test_step_after_the_end():
    env = kalah_v0.raw_env()
    env.reset()
    env.set_state(env.game.from_board([0, 0, 0, 0, 0, 1, 20, 0, 0, 0, 0, 0, 3, 24]))
    env.step(5)
    with pytest.raises(ValueError, match="dead"):
        env.step(0)  # a terminated agent may only step None
    env.step(None)
    env.step(None)
    with pytest.raises(IllegalMoveError, match="game is over"):
        env.game.apply(env.state(), 0)


@pytest.mark.parametrize("factory, kwargs, word", [
    (kalah_v0.raw_env, {"pits": 0}, "pits"),
    (kalah_v0.raw_env, {"seeds": -1}, "seeds"),
    (kalah_v0.raw_env, {"seeds": 0}, "seeds"),
    (kalah_v0.raw_env, {"pits": 2.5}, "pits"),
    (kalah_v0.raw_env, {"end_rule": "both"}, "end_rule"),
    (kalah_v0.raw_env, {"empty_capture": "yes"}, "empty_capture"),
    (sungka_v0.raw_env, {"houses": 0}, "houses"),
    (sungka_v0.raw_env, {"stones": -3}, "stones"),
    (togyz_kumalak_v0.raw_env, {"holes": 1}, "holes must be >= 2"),
    (togyz_kumalak_v0.raw_env, {"holes": 0}, "holes must be >= 2"),  # not ">= 1", the rule's bound
    # more seeds than an int32 cell counts: they wrapped round to negative counts, or overflowed
    (kalah_v0.raw_env, {"seeds": 200_000_000}, r"pits=6 and seeds=200000000 make 2400000000 in all, more than "
                                               r"the 2147483647 a board cell can count"),
    (togyz_kumalak_v0.raw_env, {"balls": 2**31}, "holes=9 and balls=2147483648 make"),
    (togyz_kumalak_v0.raw_env, {"balls": -1}, "balls"),
    (kalah_v0.raw_env, {"obs_type": "pixels"}, "obs_type"),
    (kalah_v0.raw_env, {"reward": "score"}, "reward"),
    (kalah_v0.raw_env, {"max_moves": 0}, "max_moves"),
    (kalah_v0.raw_env, {"render_mode": "video"}, "render_mode"),
])
def test_bad_parameters_name_the_parameter(factory, kwargs, word):
    with pytest.raises(ValueError, match=word):
        factory(**kwargs)


def test_a_game_spec_given_where_a_name_is_expected_says_how_to_give_the_rules():
    # the command line's "kalah:pits=4" form was "unknown game", as if kalah were not a game
    from mancala_marl import make_game
    from mancala_marl.single_agent import SingleAgentEnv

    for build in (make_game, SingleAgentEnv):
        with pytest.raises(ValueError, match=r"unknown game 'kalah:pits=4,seeds=3': rules are keywords here, "
                                             r"as in make_game\('kalah', pits=4, seeds=3\)"):
            build("kalah:pits=4,seeds=3")
    with pytest.raises(ValueError, match="unknown game 'chess:size=8'; known games: kalah, sungka"):
        make_game("chess:size=8")


def test_the_wrapped_env_refuses_its_state_before_reset_and_not_after():
    # The order-enforcing layer reads these straight from the raw env once reset (a Python check
    # on each read cost 7% of a step); before reset it refuses them as PettingZoo's wrapper does.
    env = kalah_v0.env()
    for name in ("agent_selection", "rewards", "terminations", "infos"):
        with pytest.raises(AttributeError, match=f"^{name} cannot be accessed before reset$"):
            getattr(env, name)
    env.reset()
    assert env.agent_selection == "player_0" and env.rewards == {"player_0": 0.0, "player_1": 0.0}
    assert env._has_reset
