"""Every example of the docs site runs as written (docs/tutorials/index.md says how).

Each ```python block of docs/**/*.md runs in a fresh interpreter in a temporary folder and must
print something. A line ending in ``# docs-test: VALUE`` runs with VALUE as its right-hand side
(``TIMESTEPS = 200_000  # docs-test: 1_024``) or as the argument of its call
(``model.learn(100_000)  # docs-test: 512``). A block starting with ``# docs-test: compile-only``
(a Ray cluster) is compiled, not run. In ```bash blocks, each ``mancala-marl`` line ending in
``# docs-test: OPTIONS`` runs with OPTIONS appended (the last value of an option wins), the
block's lines in order in one folder; other shell lines are not run. The game pages, written at
build time, are checked through the generator that writes them; docs/jax.md, whose examples need
jax, by tests/jax/test_docs.py in .venv-jax.
"""

import json
import pathlib
import re
import shlex
import subprocess
import sys

import pytest

from mancala_marl.games import GAMES, VARIANTS

DOCS = pathlib.Path(__file__).resolve().parents[1] / "docs"
GENERATED = ("_build", "_generated", "games")  # build outputs; the game pages are checked below
# Pages whose examples need another virtualenv, and the test that runs them there.
RUN_ELSEWHERE = {"jax.md": "tests/jax/test_docs.py"}  # .venv-jax, make test-jax
MARK = re.compile(r"\s*#\s*docs-test:\s*(.*)$")
CLI = str(pathlib.Path(sys.executable).parent / "mancala-marl")


def pages():
    return sorted(p for p in DOCS.rglob("*.md") if not set(p.relative_to(DOCS).parts) & set(GENERATED)
                  and str(p.relative_to(DOCS)) not in RUN_ELSEWHERE)


def test_pages_run_elsewhere_have_their_test():
    for page, test in RUN_ELSEWHERE.items():
        assert (DOCS / page).exists() and (DOCS.parent / test).exists(), (page, test)
        assert page.removesuffix(".md") in (DOCS.parent / test).read_text(), f"{test} does not read {page}"


def blocks(language: str):
    found = []
    for page in pages():
        for i, block in enumerate(re.findall(rf"```{language}\n(.*?)```", page.read_text(), flags=re.S)):
            found.append(pytest.param(block, id=f"{page.relative_to(DOCS)}:{i}"))
    return found


def shortened(line: str) -> str:
    """``line`` as the tests run it: its ``# docs-test: VALUE`` put in place."""
    mark = MARK.search(line)
    if not mark:
        return line
    code, value = line[:mark.start()], mark.group(1)
    assignment = re.match(r"(\s*[A-Za-z_]\w*\s*=\s*)", code)
    if assignment:
        return assignment.group(1) + value
    call = re.match(r"(.*\()[^()]*(\)\s*)$", code)
    if not call:
        raise ValueError(f"a docs-test mark needs an assignment or a call with one argument: {line!r}")
    return call.group(1) + value + call.group(2)


def test_shortened_puts_the_value_in_place():
    assert shortened("TIMESTEPS = 200_000  # docs-test: 1_024") == "TIMESTEPS = 1_024"
    assert shortened("model.learn(100_000)  # docs-test: 512") == "model.learn(512)"
    assert shortened("print(1)") == "print(1)"
    with pytest.raises(ValueError, match="docs-test mark"):
        shortened("import os  # docs-test: 3")


def test_the_docs_have_examples_to_run():
    assert len(blocks("python")) >= 8
    assert any(MARK.search(line) for param in blocks("bash") for line in param.values[0].splitlines())


def run_python(block: str, folder) -> None:
    """Run ``block`` as the tests do: compiled only under ``# docs-test: compile-only``, else
    shortened and run in a fresh interpreter, which must succeed and print something."""
    lines = block.splitlines()
    first = MARK.fullmatch(lines[0]) if lines else None
    if first and first.group(1).strip() == "compile-only":
        compile(block, "<docs>", "exec")
        return
    code = "\n".join(shortened(line) for line in lines)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, cwd=folder)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout, "every example prints what it shows"


def test_compile_only_blocks_are_compiled_not_run(tmp_path):
    run_python("# docs-test: compile-only\nimport a_cluster_library\na_cluster_library.connect()\n", tmp_path)
    with pytest.raises(SyntaxError):
        run_python("# docs-test: compile-only\nif\n", tmp_path)
    with pytest.raises(AssertionError, match="No module named"):
        run_python("import a_cluster_library\n", tmp_path)


@pytest.mark.parametrize("block", blocks("python"))
def test_python_example_runs(block, tmp_path):
    run_python(block, tmp_path)


@pytest.mark.parametrize("block", [b for b in blocks("bash") if MARK.search(b.values[0])])
def test_command_line_example_runs(block, tmp_path):
    for line in block.splitlines():
        mark = MARK.search(line)
        if not mark or not line.startswith("mancala-marl "):
            continue
        args = shlex.split(line[:mark.start()])[1:] + shlex.split(mark.group(1))
        proc = subprocess.run([CLI, *args, "--no-progress"] if args[0] in ("train", "distill", "alphazero") else [CLI, *args],
                              capture_output=True, text=True, timeout=600, cwd=tmp_path)
        assert proc.returncode == 0, f"{line}\n{proc.stderr[-3000:]}"


@pytest.mark.parametrize("name", VARIANTS)
def test_game_page_move_sequence_replays(name, tmp_path):
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        import game_pages
    finally:
        sys.path.remove(str(DOCS / "_ext"))

    page = "\n".join(game_pages.worked_sequence(name, GAMES[name]()))
    code, printed = re.findall(r"```(?:python|text)\n(.*?)```", page, flags=re.S)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.rstrip("\n") == printed.rstrip("\n")


def test_the_ladder_chart_shows_every_bar_whole():
    # Its panels share one x-axis and each set its own limit: the last one's held for all, and
    # cut off Oware's and Togyz Kumalak's strongest bars.
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        import game_pages
    finally:
        sys.path.remove(str(DOCS / "_ext"))

    ladders = json.loads(game_pages.LADDER_JSON.read_text())["ladders"]
    fig = game_pages.ladder_figure(ladders)
    for ax, game in zip(fig.axes, ladders):
        assert ax.get_title() == game
        widths = [bar.get_width() for bar in ax.patches]
        assert sorted(widths) == sorted(ladders[game]["ratings"].values())
        assert max(widths) <= ax.get_xlim()[1], (game, max(widths), ax.get_xlim())


@pytest.mark.parametrize("name", VARIANTS)
def test_each_kind_of_move_on_a_game_page_has_a_picture_of_its_own(name):
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        import game_pages
    finally:
        sys.path.remove(str(DOCS / "_ext"))

    moments = game_pages.find_moments(GAMES[name]())
    shown = {(before.tobytes(), pit) for before, _, _, pit, _ in moments.values()}
    assert len(shown) == len(moments), sorted(moments)


def test_the_landing_page_shows_a_board_and_code_and_says_what_ships():
    page = (DOCS / "index.md").read_text()
    assert "```{figure} games/img/" in page and "```python" in page  # run by test_python_example_runs
    assert "CPU AlphaZero" not in page and "JAX" in page


def test_long_lines_in_code_blocks_keep_their_columns_and_scroll():
    sys.path.insert(0, str(DOCS))
    try:
        import conf
    finally:
        sys.path.remove(str(DOCS))
    sheets = [DOCS / folder / name for folder in conf.html_static_path for name in conf.html_css_files]
    rules = " ".join(sheet.read_text() for sheet in sheets if sheet.exists())
    # wrapped, a long line's rest started again at column 0 and read as a line of its own
    assert "white-space: pre;" in rules and "overflow-x: auto" in rules and "pre-wrap" not in rules


def test_the_catalogue_shows_every_traditional_game_with_its_board_and_rules(tmp_path, monkeypatch):
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        import game_pages
    finally:
        sys.path.remove(str(DOCS / "_ext"))
    from mancala_marl.games import NAMED_GAMES, make_game

    monkeypatch.setattr(game_pages, "IMAGES", tmp_path)
    page = game_pages.catalogue_page()
    assert "benchmarks/family_crosscheck.py" in page and "first round" in page
    assert game_pages.CATALOGUE in game_pages.games_index(list(GAMES))  # in the games' toctree
    sections = page.split("\n(named-")[1:]
    assert [section.split(")=", 1)[0] for section in sections] == [g.name for g in NAMED_GAMES]
    for g, section in zip(NAMED_GAMES, sections):
        game = make_game(g.name)
        assert f"## {g.title}\n" in section and f"img/named_{g.name}.svg" in section
        assert f'data-pits="{game.pits}"' in (tmp_path / f"named_{g.name}.svg").read_text()
        assert g.about in section and f"- Region: {g.region}" in section
        assert g.source.split(",")[0] in section
        parameters = next(line for line in section.splitlines() if line.startswith("- Parameters: "))
        if g.game == "family":
            changed = game_pages.preset_rules(game)
            assert all(f"`{key}={value!r}`" in parameters for key, value in changed.items())
            assert parameters.count("=") == len(changed) or (not changed and "defaults" in parameters)
        else:
            assert f"its own rules: {{mod}}`mancala_marl.games.{g.game}`" in parameters
