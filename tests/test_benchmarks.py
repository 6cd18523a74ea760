"""The benchmark scripts run, say what they do, and write where ``--results-dir`` says: a short
trial run must leave the shipped figures in benchmarks/results/<script>/ alone (a quick look at the ladder
once replaced every game's table). The figures themselves are the benchmarks' business, not these
tests'."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted(path.name for path in (ROOT / "benchmarks").glob("*.py") if path.name != "results_dir.py")


def run(*args, check=True):
    return subprocess.run([sys.executable, *map(str, args)], cwd=ROOT, capture_output=True, text=True, check=check)


def shipped():
    return {str(path): path.stat().st_mtime_ns for path in (ROOT / "benchmarks" / "results").rglob("*")}


@pytest.mark.parametrize("script", SCRIPTS)
def test_every_script_has_help_naming_where_it_writes(script):
    text = run(f"benchmarks/{script}", "--help").stdout
    assert text.startswith("usage:") and ("--results-dir" in text or "--out" in text), text


@pytest.mark.parametrize("args, files", [
    (["solve_kalah.py", "--max-pits", "2", "--max-seeds", "2"], ["solver_kalah.json", "solver_kalah.md"]),
    (["ceiling.py", "kalah", "-n", "2"], ["ceiling.json", "ceiling.md"]),
    (["decisions.py", "kalah", "--opponent", "max", "-n", "2", "--policy", "greedy"],
     ["greedy.json", "greedy.md"]),
    (["paired_openings.py", "kalah", "--a", "greedy", "--b", "random", "-n", "2"],
     ["paired_openings.json", "paired_openings.md"]),
    (["speed.py", "--quick", "--sections", "memory"], ["speed.json"]),
    (["family_speed.py", "--seconds", "0.01", "--reps", "1"], ["family_speed.json", "family_speed.md"]),
])
def test_a_trial_run_writes_to_its_results_dir_only(args, files, tmp_path):
    before = shipped()
    run(f"benchmarks/{args[0]}", *args[1:], "--results-dir", tmp_path)
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(files)
    assert shipped() == before


@pytest.mark.parametrize("args, message", [
    # the counts of mancala_marl.limits, as the commands read them (before any jax import or search)
    (["ceiling.py", "kalah", "-n", "0"], "argument -n/--openings: must be an integer >= 1 and <= 1000000"),
    (["ceiling.py", "kalah", "--opening", "-1"], "argument --opening: must be an integer >= 0 and <= 1000"),
    (["decisions.py", "kalah", "--budget", "0"], "argument --budget: must be an integer >= 1 and <= 100000000"),
    (["jax_crosscheck.py", "--chunk", "0"], "argument --chunk: must be an integer >= 1 and <= 65536, got '0'"),
    (["jax_crosscheck.py", "--count", "0"], "argument --count: must be an integer >= 1 and <= 1000000, got '0'"),
    (["jax_speed.py", "--numba-size", "-1"], "argument --numba-size: must be an integer >= 0 and <= 100000000"),
    (["jax_speed.py", "--reps", "0"], "argument --reps: must be an integer >= 1 and <= 1000000000, got '0'"),
    (["alphazero_jax_speed.py", "--sims", "0"], "argument --sims: must be an integer >= 1 and <= 1000000, got '0'"),
    (["alphazero_jax_speed.py", "--batch", "0"], "argument --batch: must be an integer >= 1 and <= 65536, got '0'"),
    (["family_speed.py", "--reps", "0"], "argument --reps: must be an integer >= 1 and <= 100, got '0'"),
])
def test_a_count_out_of_range_is_refused_naming_the_option_and_its_range(args, message, tmp_path):
    result = run(f"benchmarks/{args[0]}", *args[1:], "--results-dir", tmp_path, check=False)
    assert result.returncode == 2 and message in result.stderr, result.stderr


def test_rows_of_a_results_file_keep_the_command_that_made_them(tmp_path):
    run("benchmarks/ceiling.py", "kalah", "-n", "2", "--results-dir", tmp_path)
    run("benchmarks/ceiling.py", "oware", "-n", "3", "--results-dir", tmp_path)
    rows = json.loads((tmp_path / "ceiling.json").read_text())["rows"]
    commands = {(row["game"], row["openings"], row["command"]) for row in rows}
    assert commands == {("kalah", 2, f"python benchmarks/ceiling.py kalah -n 2 --results-dir {tmp_path}"),
                        ("oware", 3, f"python benchmarks/ceiling.py oware -n 3 --results-dir {tmp_path}")}
    made_with = (tmp_path / "ceiling.md").read_text().split(" on ")[0]
    assert "ceiling.py kalah -n 2" in made_with and "ceiling.py oware -n 3" in made_with


def test_a_quick_speed_run_writes_nothing_by_default():
    before = shipped()
    out = run("benchmarks/speed.py", "--quick", "--sections", "memory").stdout
    assert "nothing written" in out and shipped() == before


def test_missing_inputs_are_one_line(tmp_path):
    result = run("benchmarks/checkpoint_curve.py", tmp_path, check=False)
    assert result.returncode == 2 and "is not a run folder of mancala-marl train (no config.json)" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("script", ["speed.py", "ceiling.py", "checkpoint_curve.py"])
def test_each_script_writes_into_its_own_folder_by_default(script):
    text = " ".join(run(f"benchmarks/{script}", "--help").stdout.split())
    assert f"default: benchmarks/results/{script[:-3]}," in text, text


def test_every_results_file_lies_in_a_folder_of_its_writer():
    loose = [path.name for path in (ROOT / "benchmarks" / "results").iterdir() if path.is_file()]
    assert not loose, f"results files outside a benchmark's folder: {loose}"
