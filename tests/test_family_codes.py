"""The family's rules declared once: each choice is an enum whose codes are the choices' positions
(the numba kernels and the JAX rules compare spec entries with those enums), and ``Spec``, where a
kernel reads each parameter, is made from the declarations."""

import ast
import enum
from pathlib import Path

import pytest

from mancala_marl.games import make_game
from mancala_marl.games.family import Family
from mancala_marl.games.family_space import PARAMETERS, Spec
from mancala_marl.games.named import NAMED_GAMES
from mancala_marl.games.params import Param

ROOT = Path(__file__).resolve().parents[1]
CHOICES = [param for param in PARAMETERS if param.type is str]
FAMILY_GAMES = [named.name for named in NAMED_GAMES if named.game == "family"]


@pytest.mark.parametrize("param", CHOICES, ids=[param.name for param in CHOICES])
def test_each_choice_is_declared_by_an_enum_whose_codes_are_its_positions(param):
    assert param.codes is not None, f"{param.name}: its choices are not declared by an enum"
    assert [member.name.lower() for member in param.codes] == list(param.choices)
    for position, value in enumerate(param.choices):
        assert param.code(value) == position == param.codes[value.upper()]


def test_spec_is_made_from_the_declarations():
    assert [member.name for member in Spec] == [param.name.upper() for param in PARAMETERS]
    assert Family().spec[Spec.HOLES] == 6 and Family(holes=5).spec[Spec.HOLES] == 5


@pytest.mark.parametrize("name", FAMILY_GAMES)
def test_a_named_games_spec_holds_each_rule_where_its_enum_says(name):
    game = make_game(name)
    for param in PARAMETERS:
        value = game.params[param.name]
        expected = param.codes[value.upper()] if param.codes else int(value)
        assert game.spec[Spec[param.name.upper()]] == expected, param.name


def test_an_enum_whose_codes_are_not_its_positions_is_refused():
    Order = enum.IntEnum("Order", {"FIRST": 1, "SECOND": 0})
    with pytest.raises(TypeError, match="Order's codes must be 0, 1, ... in order"):
        Param("order", str, "first", "an order", choices=Order)
    Gap = enum.IntEnum("Gap", {"FIRST": 0, "THIRD": 2})
    with pytest.raises(TypeError, match="Gap's codes"):
        Param("gap", str, "first", "a gap", choices=Gap)


RULE_FILES = sorted([*(ROOT / "mancala_marl/games").glob("family*.py"), *(ROOT / "mancala_marl/jax").glob("family*.py")])


def test_no_function_of_the_familys_rules_runs_over_80_lines():
    long = [f"{path.relative_to(ROOT)}: {node.name} ({node.end_lineno - node.lineno + 1} lines)"
            for path in RULE_FILES for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.FunctionDef) and node.end_lineno - node.lineno + 1 > 80]
    assert not long, "split these:\n" + "\n".join(long)
