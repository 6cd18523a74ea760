"""The family's rules read like a rules book (STYLE.md): no function of its rule files
(``mancala_marl/games/family_*.py``) is longer than :data:`MOST_LINES`, counted from its ``def``
to its last line, docstring included."""

from __future__ import annotations

import ast
import pathlib

RULES = pathlib.Path(__file__).resolve().parents[1] / "mancala_marl" / "games"
MOST_LINES = 80


def function_lengths(path: pathlib.Path) -> dict[str, int]:
    """Each function of ``path`` (nested ones too), by name, and its length in lines."""
    tree = ast.parse(path.read_text(), str(path))
    return {node.name: node.end_lineno - node.lineno + 1 for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}


def test_no_function_of_the_family_rules_is_longer_than_80_lines():
    files = sorted(RULES.glob("family_*.py"))
    assert files, f"no family_*.py in {RULES}"
    long = [f"{path.name}:{name} ({lines} lines)" for path in files
            for name, lines in function_lengths(path).items() if lines > MOST_LINES]
    assert not long, f"over {MOST_LINES} lines: " + ", ".join(long)
