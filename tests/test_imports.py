"""Imports flow one way: rules <- environments <- policies <- trainers and match engine <- commands.

The graph is read from the source with ``ast`` (every ``import`` and ``from ... import``, also those
inside functions, where the heavy and the optional imports live), not from ``sys.modules`` after an
import, which would miss the function-level ones. A package's ``__init__`` running when one of its
modules is imported is not an edge: it is where a module lives, not what it uses.
"""

from __future__ import annotations

import ast
import fnmatch
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]
# installed name -> the folder it is installed from (pyproject's package-dir)
PACKAGES = {"mancala_marl": "mancala_marl", "mancala_marl.agents": "agents", "mancala_marl.matches": "matches",
            "mancala_marl.train": "train", "mancala_marl.cli": "cli", "mancala_marl.serve": "serve"}

# Each module's layer: the first whose patterns (fnmatch, ``*`` also across dots) match its name.
# A module may import its own layer or those below it, never one above.
LAYERS = (
    # endgame databases and the exact search know the rules, never the environments (STYLE.md)
    ("rules", ("mancala_marl._compile", "mancala_marl.atomic", "mancala_marl.errors", "mancala_marl.progress",
               "mancala_marl.extras", "mancala_marl.games", "mancala_marl.games.*", "mancala_marl.endgame",
               "mancala_marl.endgame.*",
               "mancala_marl.search_core",  # hash, table, budget and clock of every search (the rules' own hash too)
               "mancala_marl.limits")),  # the ranges of typed counts: it knows the rules' bounds only
    ("environments", ("mancala_marl", "mancala_marl.env", "mancala_marl.observations", "mancala_marl.render",
                      "mancala_marl.svg",
                      "mancala_marl.batch", "mancala_marl.*_v0", "mancala_marl.jax", "mancala_marl.jax.*")),
    # The Gymnasium view plays its opponent, a policy it may look up by name: it sits with the
    # policies (``import mancala_marl`` does not import it; Gymnasium loads it by name).
    ("policies", ("mancala_marl.agents", "mancala_marl.agents.*", "mancala_marl.single_agent")),
    # matches as a library: arena, tournament, grading, evaluation, play, the narration of a move
    ("matches", ("mancala_marl.matches", "mancala_marl.matches.*")),
    ("training", ("mancala_marl.train", "mancala_marl.train.*")),
    # the command line and the web app, on top: nothing below imports them
    ("commands", ("mancala_marl.cli", "mancala_marl.cli.*", "mancala_marl.serve", "mancala_marl.serve.*")),
)
ORDER = ("rules", "environments", "policies", "matches", "training", "commands")


def module_files() -> dict[str, pathlib.Path]:
    """Installed module name -> source file, for every module of the three packages."""
    found = {}
    for package, folder in PACKAGES.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = path.relative_to(ROOT / folder).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join((package, *parts))] = path
    return found


def imports(name: str, path: pathlib.Path, known: set[str]) -> set[str]:
    """The modules of ``known`` that the module ``name`` (source ``path``) imports, anywhere in it."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            # ``from package import module`` uses the module; ``from module import name`` the module
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:  # ``import a.b.c`` of a name inside a module
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


def layer(name: str) -> str:
    for label, patterns in LAYERS:
        if any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns):
            return label
    raise AssertionError(f"{name} is in no layer: add it to LAYERS")


def import_graph() -> dict[str, set[str]]:
    files = module_files()
    return {name: imports(name, path, set(files)) for name, path in files.items()}


def upward_edges(graph) -> list[str]:
    return sorted(f"{a} ({layer(a)}) imports {b} ({layer(b)})" for a, targets in graph.items() for b in targets
                  if ORDER.index(layer(b)) > ORDER.index(layer(a)))


def cycles(graph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def test_imports_go_down_the_layers_only():
    assert not upward_edges(import_graph()), "\n".join(upward_edges(import_graph()))


def test_no_import_cycles():
    assert not cycles(import_graph()), cycles(import_graph())


def test_the_library_loads_without_the_command_line():
    # what benchmarks and users import, in a fresh interpreter: no command module comes with it
    import subprocess
    import sys

    library = ([f"mancala_marl.matches.{name}" for name in ("arena", "tournament", "grading", "play", "evaluation",
                                                            "narration")]
               + [f"mancala_marl.train.{name}" for name in ("training", "distill", "alphazero", "runs")])
    code = (f"import sys; import {', '.join(library)}; "
            "print(sorted(m for m in sys.modules if m.split('.')[:2] in (['mancala_marl', 'cli'], "
            "['mancala_marl', 'serve'])))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_the_graph_sees_imports_inside_functions_and_relative_ones():
    graph = import_graph()
    # mancala_marl.train.training imports SingleAgentEnv inside a function, and evaluation.py
    # the arena with a relative import
    assert "mancala_marl.single_agent" in graph["mancala_marl.train.training"]
    assert "mancala_marl.matches.arena" in graph["mancala_marl.matches.evaluation"]
    assert "mancala_marl.games" in graph["mancala_marl.env"] or "mancala_marl.games.base" in graph["mancala_marl.env"]


def test_the_checks_catch_an_upward_import_and_a_cycle():
    graph = {"mancala_marl.games.base": {"mancala_marl.agents.base"}, "mancala_marl.agents.base": set(),
             "mancala_marl.matches.arena": {"mancala_marl.cli"}, "mancala_marl.cli": {"mancala_marl.matches.arena"}}
    assert upward_edges(graph) == [
        "mancala_marl.games.base (rules) imports mancala_marl.agents.base (policies)",
        "mancala_marl.matches.arena (matches) imports mancala_marl.cli (commands)"]
    assert cycles(graph) == [["mancala_marl.cli", "mancala_marl.matches.arena"]]
