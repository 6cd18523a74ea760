"""The game contract: each game's declared parameters, their ranges, the spec the kernels read,
the registry's check of a game class, and the ``<game>_v0`` entry modules."""

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import mancala_marl
from mancala_marl.games import GAMES, NAMED, Game, Param, game_class_faults, make_game
from mancala_marl.games import _register as register_games
from mancala_marl.games.base import MAX_PITS, SPEC_GAME, no_features, pits_param, seeds_param, spec_index
from mancala_marl.games.kalah import apply_move as kalah_apply

CLASSES = list(GAMES.values())


@pytest.mark.parametrize("cls", CLASSES, ids=list(GAMES))
def test_each_parameter_is_declared_once_with_a_doc_and_its_values(cls):
    game = cls()
    assert list(game.params) == [param.name for param in cls.parameters]
    assert game.params == {param.name: param.default for param in cls.parameters}
    assert (game.pit_word, game.seed_word) == (cls.parameters[0].name, cls.parameters[1].name)
    for param in cls.parameters:
        assert param.doc and "\n" not in param.doc
        assert param.type in (int, bool, str)
        assert (param.low is not None and param.high is not None) if param.type is int else True
        assert param.choices if param.type is str else not param.choices


@pytest.mark.parametrize("cls", CLASSES, ids=list(GAMES))
def test_the_spec_holds_the_id_then_each_parameter_where_spec_index_says_then_the_actions(cls):
    for example in cls.examples:
        game = cls(**example)
        assert game.spec[SPEC_GAME] == cls.game_id
        assert len(game.spec) == 1 + len(cls.parameters) + 1
        assert game.spec[-1] == game.actions  # the last entry: the size of the action space
        for param in cls.parameters:
            value = game.params[param.name]
            code = param.choices.index(value) if param.choices else int(value)
            assert game.spec[spec_index(cls.parameters, param.name)] == code


@pytest.mark.parametrize("cls", CLASSES, ids=list(GAMES))
def test_every_number_outside_its_range_is_refused_naming_the_parameter_the_value_and_the_range(cls):
    for param in cls.parameters:
        if param.type is not int:
            continue
        for value in (param.low - 1, param.high + 1):
            if param is cls.parameters[1] and value > param.high:
                continue  # more seeds than that fill an int32 cell on any board: the total's message
            with pytest.raises(ValueError, match=f"^{param.name} must be [<>]= .*got {value}; "
                                                 f"it takes {re.escape(param.range_text)}$"):
                cls(**{param.name: value})
    pits = cls.parameters[0]
    with pytest.raises(ValueError, match=fr"^{pits.name} must be <= {MAX_PITS}, got {10**40}"):
        cls(**{pits.name: 10**40, cls.parameters[1].name: 1})  # a number no int64 spec holds
    with pytest.raises(ValueError, match="a board cell can count"):
        cls(**{cls.parameters[1].name: 10**40})


@pytest.mark.parametrize("cls", CLASSES, ids=list(GAMES))
def test_a_value_of_the_wrong_kind_is_refused_naming_what_the_parameter_takes(cls):
    for param in cls.parameters:
        wrong = {int: 2.5, bool: "yes", str: "sometimes"}[param.type]
        with pytest.raises(ValueError, match=f"^{param.name} must be "):
            cls(**{param.name: wrong})


def test_unknown_parameters_and_positional_values():
    with pytest.raises(ValueError, match=r"^sungka has no parameter 'pits'; its parameters: houses, stones, "
                                         r"sunog_needs_opposite$"):
        make_game("sungka", pits=4)
    assert GAMES["kalah"](4, 3).params == make_game("kalah", pits=4, seeds=3).params
    with pytest.raises(TypeError, match="got pits twice"):
        GAMES["kalah"](4, pits=4)


def test_the_rules_command_lists_every_parameter_with_its_value_and_range(capsys):
    from mancala_marl.cli import main

    for name, cls in GAMES.items():
        assert main(["rules", name]) == 0
        out = capsys.readouterr().out
        for param in cls.parameters:
            assert f"\n  {param.help(doc=False)}: {param.doc}" in out
    assert main(["rules", "dakon:seeds=5"]) == 0  # a named game's own values, and the defaults beside them
    out = capsys.readouterr().out
    assert out.startswith("Dakon (variant) (dakon:seeds=5)\n\n" + make_game("dakon", seeds=5).rules_text() + "\n")
    assert "Each hole starts with 5 seeds, 70 in all." in out  # the text is this variant's
    assert "\n  holes=7 (2..64; default 6): holes a side\n" in out and "\n  seeds=5 (" in out


def test_the_command_line_help_names_the_games_not_their_parameters():
    from mancala_marl.cli.arguments import GAME_HELP  # every command's GAME argument

    assert all(name in GAME_HELP for name in [*GAMES, *NAMED]) and "mancala-marl rules GAME" in GAME_HELP
    assert "pits=6 (1..64)" not in GAME_HELP and len(GAME_HELP) < 1200


def test_a_variant_may_declare_any_number_of_rule_parameters():
    class Wide(Game):
        name = "wide"
        parameters = (pits_param("pits", 3, "pits a side"), seeds_param("seeds", 2, "seeds a pit"),
                      *(Param(f"rule_{k}", bool, False, f"rule {k}") for k in range(3)),
                      Param("variant", str, "b", "which variant", choices=("a", "b", "c")))
        apply_kernel = staticmethod(kalah_apply)

    game = Wide(rule_2=True)
    assert list(game.spec[1:]) == [3, 2, 0, 0, 1, 1, 3]  # ... and the actions: the 3 pits
    assert spec_index(Wide.parameters, "variant") == 6
    with pytest.raises(ValueError, match="no parameter 'rule_9' is declared"):
        spec_index(Wide.parameters, "rule_9")


def test_the_registry_names_everything_an_incomplete_game_class_lacks():
    class Incomplete(Game):
        name = "incomplete"
        extra_features = 2  # but no kernel that writes them
        examples = ({"holes": 3},)

    Incomplete.__module__ = "mancala_marl.games.incomplete"
    faults = game_class_faults(Incomplete)
    assert faults == ["parameters: a tuple of Param, the pits a side and the seeds a pit (both int) first",
                      "apply_kernel: a compiled kernel (decorated with mancala_marl._compile.kernel)",
                      "extra_obs_kernel, which writes its extra_features=2 per pit"]
    with pytest.raises(TypeError, match=r"^game class .*Incomplete cannot be registered; it needs parameters: "
                                        r".*; apply_kernel: .*; extra_obs_kernel, which"):
        register_games(Incomplete)
    assert Incomplete.extra_obs_kernel is no_features and Incomplete.game_id == -1  # nothing was registered

    class Misnamed(GAMES["kalah"]):
        name = "kalah2"
        examples = ({}, {"houses": 4})

    faults = game_class_faults(Misnamed)
    assert faults[0] == "name = 'test_contract' (its rules module's name; got 'kalah2')"
    Misnamed.name = "test_contract"
    assert game_class_faults(Misnamed) == ["examples that it takes: {'houses': 4} is refused (test_contract has no "
                                           "parameter 'houses'; its parameters: pits, seeds, empty_capture, "
                                           "end_rule)"]
    assert game_class_faults(int) == ["to be a subclass of mancala_marl.games.Game, got <class 'int'>"]


def test_every_registered_game_builds_its_examples():
    # registration checks the examples' parameters only (building them compiles kernels at import)
    for cls in GAMES.values():
        assert game_class_faults(cls) == [], cls.name


def test_importing_the_package_builds_no_game():
    # a game builds (and compiles) its kernels when made, not when the package is imported or the
    # command line read: else each first command on a cold cache compiles the family's legal
    # moves (half a minute), whatever game it plays
    code = """
import sys
built = []
def watch(frame, event, arg):
    if event == "call" and frame.f_code.co_name == "__init__" and frame.f_code.co_filename.endswith("games/base.py"):
        built.append(type(frame.f_locals["self"]).__name__)
sys.setprofile(watch)
import mancala_marl, mancala_marl.cli, mancala_marl.games.family
mancala_marl.cli.build_parser()  # every command's options (--obs-type's choices among them)
sys.setprofile(None)
print(built)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
