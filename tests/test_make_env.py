"""mancala_marl.make_env: the PettingZoo environment of any game by its name, its command-line spec
or its MancalaGames file; and every traditional game registered with Gymnasium under its name."""

from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from mancala_marl import GAMES, NAMED, gym_id, make_env
from mancala_marl.games import load_mancalagames, make_game, parse_game

ORACLE = Path(__file__).resolve().parents[1].parent / "shared" / "oracles" / "mancalagames" / "GameProps"
TRADITIONAL = [name for name in NAMED if name not in GAMES]


def rules_of(env):
    return env.unwrapped.game.params


def test_every_traditional_game_is_its_named_rules():
    assert len(TRADITIONAL) >= 42
    for name in TRADITIONAL:
        env = make_env(name)
        assert rules_of(env) == make_game(name).params and env.unwrapped.game.preset.name == name, name


@pytest.mark.parametrize("game", ["dakon", "wari:seeds=5", "kalah"])
def test_pettingzoos_api_test_passes(game):
    api_test(make_env(game, obs_type="rules" if game != "kalah" else "counts"), num_cycles=200)


def test_a_spec_keywords_and_environment_settings_go_where_they_belong():
    env = make_env("wari:seeds=5", obs_type="rules", max_moves=50)
    assert env.unwrapped.game.seeds == 5 and env.unwrapped.obs_type == "rules" and env.unwrapped.max_moves == 50
    assert rules_of(make_env("dakon", seeds=5)) == {**make_game("dakon").params, "seeds": 5}
    game = make_game("kalah", pits=4)
    assert make_env(game).unwrapped.game is game


@pytest.mark.skipif(not ORACLE.is_dir(), reason="MancalaGames' files are in ../shared/oracles beside the clone")
def test_a_mancalagames_file_is_a_game_by_its_path():
    path = ORACLE / "Wari.txt"
    for given in (path, str(path)):
        env = make_env(given)
        assert rules_of(env) == load_mancalagames(path).params
    env.reset(seed=0)
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert parse_game(str(path)).params == load_mancalagames(path).params
    game = env.unwrapped.game
    assert (game.known_as, game.spec_name, game.cli_spec()) == ("Wari", str(path), str(path))
    variant = make_env(path, seeds=5).unwrapped.game  # a variant of the file's rules
    assert variant.params == {**game.params, "seeds": 5} and variant.known_as == "Wari (variant)"
    assert variant.cli_spec().startswith("family:") and parse_game(variant.cli_spec()).params == variant.params
    with pytest.raises(ValueError, match=r"has no parameter 'pits'; its rules: holes, seeds, "):
        make_env(path, pits=4)


@pytest.mark.parametrize("call, message", [
    (lambda: make_env("dakonn"), r"^unknown game 'dakonn'; did you mean dakon\?"),
    (lambda: make_env("kalah", obs_typ="rules"), r"^make_env\('kalah'\) has no parameter 'obs_typ'; its rules: pits, "
                                                 r"seeds, empty_capture, end_rule; the environment's: max_moves, obs_type"),
    (lambda: make_env("wari:seeds=5", seeds=4), r"^game spec 'wari:seeds=5' and the keywords both give seeds$"),
    (lambda: make_env("Missing.txt"), r"^cannot read the MancalaGames file 'Missing.txt'"),
    (lambda: make_env(make_game("kalah"), pits=4), r"takes no rule parameters, got \['pits'\]$"),
    (lambda: make_env("Missing.TXT", seeds=4), r"^cannot read the MancalaGames file 'Missing.TXT'"),
    (lambda: make_env("kalah", pits=0), r"^pits must be >= 1, got 0"),
])
def test_what_is_refused_is_named_in_one_line(call, message):
    with pytest.raises(ValueError, match=message) as refused:
        call()
    assert "\n" not in str(refused.value)


def test_every_traditional_game_is_registered_with_gymnasium():
    ids = [gym_id(name) for name in TRADITIONAL]
    every = [gym_id(name) for name in {**GAMES, **NAMED}]
    assert len(set(every)) == len(every) and "mancala_marl/Dakon-v0" in ids  # none registered over another
    for name, env_id in zip(TRADITIONAL, ids):
        assert env_id in gymnasium.registry, env_id
    env = gymnasium.make("mancala_marl/Dakon-v0", opponent="random")
    assert env.unwrapped.game.params == make_game("dakon").params
    check_env(env.unwrapped, skip_render_check=True)
    assert gymnasium.make("mancala_marl/Wari-v0", seeds=5).unwrapped.game.seeds == 5
