"""The run lifecycle every trainer uses (:class:`mancala_marl.train.runs.Run`), without training."""

import json
import threading
import time

import pytest

from mancala_marl.train.distill import DistillConfig
from mancala_marl.atomic import write_atomically
from mancala_marl.train.runs import Run


def run_in(folder, **kwargs):
    return Run(folder, "distill", "checkpoints/last.zip", "round", resumable={"eval_games"}, **kwargs)


def test_a_new_run_is_refused_where_a_run_is_and_a_resumed_one_keeps_its_settings(tmp_path):
    run = run_in(tmp_path / "run")
    config = run.start(DistillConfig(game="kalah", rounds=2), resume=False)
    assert not run.folder.exists()  # nothing written until the trainer writes its config
    run.write_config(config)
    assert json.loads((run.folder / "config.json").read_text())["rounds"] == 2
    with pytest.raises(FileNotFoundError, match="--resume: the run in .* stopped before its first checkpoint"):
        run_in(run.folder).start(config, resume=True)
    (run.folder / "checkpoints").mkdir()
    (run.folder / "checkpoints" / "last.zip").write_bytes(b"")
    with pytest.raises(ValueError, match="already holds a run; pass --resume"):
        run_in(run.folder).start(config, resume=False)
    asked = DistillConfig(game="kalah", rounds=2, eval_games=7, teacher="greedy")
    with pytest.raises(ValueError, match=r"teacher='greedy' \(the run's: 'alphabeta:depth=2'\)"):
        run_in(run.folder).start(asked, resume=True, given={"eval_games", "teacher"})
    resumed = run_in(run.folder)
    assert resumed.start(asked, resume=True, given={"eval_games"}).eval_games == 7
    assert resumed.resume_command().endswith(f"distill kalah --resume --run-dir {run.folder}")


def test_a_run_whose_data_come_before_its_checkpoint_exists_from_its_config(tmp_path):
    run = run_in(tmp_path, resumes_before_checkpoint=True)
    run.write_config(run.start(DistillConfig(game="kalah"), resume=False))
    with pytest.raises(ValueError, match="already holds a run"):
        run_in(tmp_path, resumes_before_checkpoint=True).start(DistillConfig(game="kalah"), resume=False)
    assert run_in(tmp_path, resumes_before_checkpoint=True).start(DistillConfig(game="kalah"), resume=True).game == "kalah"


def test_ctrl_c_says_how_to_go_on_once_there_is_a_checkpoint(tmp_path, capsys):
    run = run_in(tmp_path)
    run.start(DistillConfig(game="kalah"), resume=False)
    with pytest.raises(KeyboardInterrupt), run.interruptible():
        raise KeyboardInterrupt
    assert capsys.readouterr().err == ""  # no checkpoint: nothing to go on from
    run.checkpoint.parent.mkdir()
    run.checkpoint.write_bytes(b"")
    with pytest.raises(KeyboardInterrupt), run.interruptible():
        raise KeyboardInterrupt
    assert "stopped; to go on after the last finished round: " in capsys.readouterr().err


def test_evaluations_go_to_the_csv_and_come_back_as_one_line(tmp_path):
    run = run_in(tmp_path)
    rows = [{"opponent": "max", "seat": seat, "games": 2, "wins": 1, "draws": 0, "losses": 1, "win_rate": 0.5,
             "mean_score": 20.0, "mean_margin": 0.0} for seat in ("first", "second")]
    assert run.evaluated(rows, 1000, 1.5) == "max/f 50%  max/s 50%"
    lines = run.evaluations.read_text().splitlines()
    assert len(lines) == 3 and lines[1].startswith("1000,max,first")


def test_a_write_that_fails_leaves_the_file_as_it_was(tmp_path):
    path = tmp_path / "buffer.npz"
    path.write_text("old")

    def fail(tmp):
        tmp.write_text("half")
        raise OSError("disk full")

    with pytest.raises(OSError):
        write_atomically(path, fail)
    assert path.read_text() == "old"
    write_atomically(path, lambda tmp: tmp.write_text("new"))
    assert path.read_text() == "new" and [p.name for p in tmp_path.iterdir()] == ["buffer.npz"]


def test_two_writers_of_one_file_at_once_leave_one_whole_file(tmp_path):
    """Each write gets a temporary file of its own: with one fixed temporary name, a writer would
    rename or truncate the other's half-written file."""
    path, errors = tmp_path / "model.zip", []

    def writer(k):
        def write(tmp):
            with open(tmp, "w") as out:
                out.write(f"writer {k} begins;")
                out.flush()
                time.sleep(0.05)  # the others start their own writes meanwhile
                out.write(f" writer {k} ends")
        try:
            write_atomically(path, write)
        except OSError as error:
            errors.append(error)

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    k = path.read_text().split()[1]
    assert path.read_text() == f"writer {k} begins; writer {k} ends"
    assert [p.name for p in tmp_path.iterdir()] == ["model.zip"] and oct(path.stat().st_mode & 0o777) != "0o600"
