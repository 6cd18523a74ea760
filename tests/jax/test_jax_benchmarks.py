"""benchmarks/jax_speed.py, alphazero_jax_speed.py and jax_crosscheck.py run and write where --results-dir says
(tests/test_benchmarks.py runs every script's --help from the main virtualenv, without jax)."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]


def run(*args):
    return subprocess.run([sys.executable, *map(str, args)], cwd=ROOT, capture_output=True, text=True, check=True)


def test_speed_writes_our_game_beside_pgx_and_numba(tmp_path):
    run("benchmarks/jax_speed.py", "--games", "kalah", "connect_four", "--min-log2", "4", "--max-log2", "4",
        "--moves", "4", "--reps", "1", "--numba-size", "64", "--results-dir", tmp_path)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["jax_speed.json", "jax_speed.md"]
    results = json.loads((tmp_path / "jax_speed.json").read_text())
    assert set(results["jax"]) == {"kalah", "connect_four"} and set(results["numba"]) == {"kalah"}
    assert results["jax"]["kalah"]["16"]["moves_per_s"] > 0
    assert "| connect_four (Pgx) |" in (tmp_path / "jax_speed.md").read_text()


def test_selfplay_speed_takes_the_options_gpu_sh_gives_it(tmp_path):
    # benchmarks/gpu.sh's session runs it with --batch --sims --moves --reps --breakdown --results-dir, on a GPU
    run("benchmarks/alphazero_jax_speed.py", "--games", "kalah", "connect_four", "--batch", "4", "--sims", "3",
        "--moves", "2", "--reps", "1", "--hidden", "8", "--breakdown", "--results-dir", tmp_path)
    results = json.loads((tmp_path / "alphazero_jax_speed.json").read_text())
    assert set(results["games"]) == {"kalah", "connect_four"} and results["sims"] == 3
    for name, row in results["games"].items():
        assert row["moves_per_s"] > 0
        assert 1 <= row["legal_moves"] <= (6 if name == "kalah" else 7)
        # every simulation descends at least one step below the root, at most one per earlier simulation
        assert 3 <= row["descent_steps"] <= 1 + 2 + 3
        assert row["expansion_share"] > 0 and row["ceiling_moves_per_s"] > row["moves_per_s"]
    assert "| connect_four (Pgx) |" in (tmp_path / "alphazero_jax_speed.md").read_text()


def test_the_loop_figure_measures_the_whole_training_loop(tmp_path):
    # gpu.sh's session runs it with --games kalah --loop --batch --sims --moves --hidden --reps
    run("benchmarks/alphazero_jax_speed.py", "--games", "kalah", "--loop", "--batch", "8", "--sims", "2",
        "--moves", "40", "--reps", "2", "--hidden", "8", "--results-dir", tmp_path)
    row = json.loads((tmp_path / "alphazero_jax_speed.json").read_text())["games"]["kalah"]
    assert row["loop_positions_per_s"] > 0 and row["loop_moves"] == 40
    assert row["loop_efficiency"] == row["loop_positions_per_s"] / row["moves_per_s"]
    assert 0 <= row["lost_share"] < 0.5  # few Kalah games outlast two generations of 40 moves
    assert row["loop_selfplay_s"] > 0 and row["loop_checkpoint_s"] > 0
    assert "| kalah | " in (tmp_path / "alphazero_jax_speed.md").read_text().split("The whole training loop")[1]


def test_gpu_train_shares_its_time_between_the_games_in_one_process(tmp_path):
    out = run("benchmarks/gpu_train.py", "--games", "kalah", "oware", "--seconds", "8", "--selfplay-games", "8",
              "--sims", "2", "--hidden", "8", "--out", tmp_path).stdout
    lines = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    # the first game takes its half and more (its first generation compiles), which leaves the second none
    assert lines[0]["game"] == "kalah" and lines[0]["exit"] == 0 and lines[0]["generation"] >= 1
    assert "oware: no time left" in out
    config = json.loads((tmp_path / "kalah" / "config.json").read_text())
    assert config["games"] == 8 and config["moves"] == 128 and config["buffer"] == 2 * 8 * 128


def test_descent_steps_sum_the_deepest_descent_of_each_simulation():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from alphazero_jax_speed import descent_steps
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    # two searches of three simulations: a chain 0-1-2-3 (depths 1, 2, 3), and a root with three
    # children (depths 1, 1, 1); each simulation waits for the deeper of the two
    parents = np.array([[-1, 0, 1, 2], [-1, 0, 0, 0]])
    assert descent_steps(parents) == 1 + 2 + 3
    # the second search deeper at its last simulation: 0-1, 0-2, 2-3
    parents = np.array([[-1, 0, 0, 0], [-1, 0, 0, 2]])
    assert descent_steps(parents) == 1 + 1 + 2


def test_crosscheck_writes_the_games_it_compared(tmp_path):
    run("benchmarks/jax_crosscheck.py", "--games", "kalah", "--count", "300", "--chunk", "100",
        "--results-dir", tmp_path)
    results = json.loads((tmp_path / "jax_crosscheck.json").read_text())
    assert results["kalah"]["games"] == 300 and results["kalah"]["result"] == "no difference"
    assert "| kalah | 300 |" in (tmp_path / "jax_crosscheck.md").read_text()


def test_oware_state_size_times_the_real_engine_beside_states_cut_to_each_size(tmp_path):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from oware_state_size import SLOTS, free_history_env
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    import jax

    env = free_history_env(64)
    state = env.init(jax.random.PRNGKey(0))
    assert state._board.shape == (env._to + 4 + 64,)  # TO_MOVE, count, digest (2), then 64 history slots
    state = env.step(state, 0)  # a variant still plays its moves (only its history is gone)
    assert int(state._board[:env._to].sum()) == 48 and int(state.current_player) == 1
    run("benchmarks/oware_state_size.py", "--log2", "4", "--moves", "2", "--reps", "1", "--results-dir", tmp_path)
    results = json.loads((tmp_path / "oware_state_size.json").read_text())
    assert list(results["engines"]) == ["real engine", *(f"{s} slots, free hash" for s in SLOTS)]
    assert all(row["moves_per_s"] > 0 and row["of_numba"] > 0 for row in results["engines"].values())
    assert "| real engine |" in (tmp_path / "oware_state_size.md").read_text()
