"""One installed name: code imports only ``mancala_marl.*``, and old pickles still load.

From the repository root the folders ``agents/``, ``matches/``, ``train/``, ``cli/`` and ``serve/`` are importable under their bare
names too, which would load a second copy of every module; so no code may use those names.
"""

import ast
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
FOLDERS = ("mancala_marl", "agents", "matches", "train", "cli", "serve", "tests", "benchmarks", "examples")
OLD_NAMES = {"agents", "matches", "train", "cli", "serve"}  # the repository's folders: bare names of a second copy


def imported_names(path: pathlib.Path):
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            yield from ((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module, node.lineno


def test_no_code_imports_the_old_top_level_names():
    offenders = [f"{path.relative_to(ROOT)}:{line}: {name}"
                 for folder in FOLDERS for path in sorted((ROOT / folder).rglob("*.py"))
                 for name, line in imported_names(path) if name.split(".")[0] in OLD_NAMES]
    assert not offenders, "import mancala_marl.agents / mancala_marl.train instead:\n" + "\n".join(offenders)


def test_the_rule_catches_an_old_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import os\nfrom agents.search import search\nimport train.cli as cli\n")
    assert [name for name, _ in imported_names(bad) if name.split(".")[0] in OLD_NAMES] == \
        ["agents.search", "train.cli"]


def test_the_core_and_its_numpy_policies_import_no_torch():
    # make_policy("alphazero") looked for the name through every agents module, torch's included
    # (1.8 s), and so did `play`, whose default opponent it is
    import subprocess

    code = ("import sys, mancala_marl; from mancala_marl.agents import make_policy; "
            "[make_policy(name) for name in ('alphazero:sims=0', 'alphabeta', 'greedy', 'exact', 'random')]; "
            "print(sorted(m for m in ('torch', 'stable_baselines3') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_models_pickled_under_the_old_names_load_and_leave_no_alias():
    from mancala_marl.agents.learned import load_model, pretrained_dir
    from mancala_marl.games import make_game

    path = pretrained_dir() / "kalah.zip"
    names = _unpickled_module_names(path)
    assert "agents.features" in names and "mancala_marl" not in names  # shipped before the rename
    model, meta = load_model(path, make_game("kalah"))
    extractor = type(model.policy.features_extractor)
    assert extractor.__module__ == "mancala_marl.agents.features"
    assert not OLD_NAMES & set(sys.modules), "the old names must not outlive the load"


def _unpickled_module_names(path) -> str:
    import base64
    import json
    import zipfile

    data = json.loads(zipfile.ZipFile(path).read("data"))
    return base64.b64decode(data["policy_kwargs"][":serialized:"]).decode("latin-1")


def test_new_models_pickle_the_new_names(tmp_path):
    from sb3_contrib import MaskablePPO

    from mancala_marl.agents.features import PitCountsOneHot
    from mancala_marl.agents.learned import make_metadata, save_model
    from mancala_marl.games import make_game
    from mancala_marl.single_agent import SingleAgentEnv

    game = make_game("kalah", pits=3, seeds=2)
    model = MaskablePPO("MlpPolicy", SingleAgentEnv(game), n_steps=16, batch_size=16,
                        policy_kwargs={"features_extractor_class": PitCountsOneHot, "net_arch": [8]})
    save_model(model, tmp_path / "m.zip", make_metadata(game, "counts", "maskable-ppo"))
    names = _unpickled_module_names(tmp_path / "m.zip")
    assert "mancala_marl.agents.features" in names and "agents.features" not in names.replace(
        "mancala_marl.agents.features", "")
