"""``mancala-marl plot``: a run without evaluations yet is told so, and an evaluations.csv cut off
mid-row (a run stopped while writing it) is still drawn, without the cut row."""

import json
from dataclasses import asdict

import pytest

from mancala_marl.train.alphazero import AlphaZeroConfig
from mancala_marl.cli import main
from mancala_marl.train.distill import DistillConfig
from mancala_marl.matches.evaluation import CSV_FIELDS
from mancala_marl.cli.plot import read_curves
from mancala_marl.train.training import TrainConfig

HEADER = ",".join(CSV_FIELDS)


def row(timesteps, seat, win_rate):
    values = dict(timesteps=timesteps, opponent="random", seat=seat, games=20, wins=int(20 * win_rate), draws=0,
                  losses=20 - int(20 * win_rate), win_rate=win_rate, mean_score=25.0, mean_margin=1.0,
                  wall_seconds=12.5)
    return ",".join(str(values[name]) for name in CSV_FIELDS)


# A folder without config.json is still "not a run directory" (tests/test_cli.py).
@pytest.mark.parametrize("config, when", [
    (TrainConfig(eval_freq=5000), "the first comes after 5000 training steps (--eval-freq)"),
    (TrainConfig(eval_freq=5000, timesteps=4000),
     "the run is 4000 training steps long and evaluates every 5000 (--eval-freq); --resume with a larger "
     "--timesteps and a smaller --eval-freq"),
    (AlphaZeroConfig(eval_every=3), "the first comes after generation 3 (--eval-every)"),
    (AlphaZeroConfig(eval_every=0), "it runs with --eval-every 0 (no evaluations)"),
    (DistillConfig(), "the first comes after the first round"),
], ids=["train", "train-too-short", "alphazero", "alphazero-none", "distill"])
def test_a_run_without_evaluations_yet_is_told_so(config, when, tmp_path, capsys):
    (tmp_path / "config.json").write_text(json.dumps(asdict(config)))
    assert main(["plot", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"{tmp_path} has no evaluations yet: {when}" in err and "not a run directory" not in err
    assert len(err.strip().splitlines()) == 1


def test_a_row_cut_off_mid_write_is_left_out(tmp_path, capsys):
    csv_path = tmp_path / "evaluations.csv"
    # Cut off while writing the row of timestep 2000; the run resumed and appended its next
    # evaluation to that line; then it was stopped again in the middle of a row.
    cut = row(2000, "first", 0.75)[:14]
    csv_path.write_text("\n".join([HEADER, row(1000, "first", 0.5), row(1000, "second", 0.25),
                                   cut + row(3000, "first", 0.9), row(3000, "second", 0.4)[:20]]))
    assert read_curves(csv_path) == {("random", "first"): [(1000, 50.0)], ("random", "second"): [(1000, 25.0)]}
    csv_path.write_text(csv_path.read_text() + "\n" + row(4000, "first", 1.0) + "\n")
    assert read_curves(csv_path)[("random", "first")] == [(1000, 50.0), (4000, 100.0)]
    (tmp_path / "config.json").write_text(json.dumps(asdict(TrainConfig())))
    assert main(["plot", str(tmp_path)]) == 0
    assert (tmp_path / "learning_curves.png").stat().st_size > 0


def test_a_complete_row_that_is_not_an_evaluation_names_its_line(tmp_path, capsys):
    (tmp_path / "config.json").write_text(json.dumps(asdict(TrainConfig())))
    (tmp_path / "evaluations.csv").write_text("\n".join([HEADER, row(1000, "first", 0.5),
                                                         row(2000, "first", 0.5).replace(",0.5,", ",high,")]) + "\n")
    assert main(["plot", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"{tmp_path / 'evaluations.csv'}, line 3: not an evaluation row" in err
    assert len(err.strip().splitlines()) == 1


@pytest.fixture
def run_dir(tmp_path):
    (tmp_path / "config.json").write_text(json.dumps(asdict(TrainConfig())))
    (tmp_path / "evaluations.csv").write_text("\n".join([HEADER, row(1000, "first", 0.5), row(2000, "first", 0.75)]))
    return tmp_path


def test_the_path_printed_is_the_file_written(run_dir, tmp_path, capsys, recwarn):
    # matplotlib adds ".png" to a name without an extension: "out" was printed, out.png written
    assert main(["plot", str(run_dir), "--out", str(tmp_path / "out")]) == 0
    assert capsys.readouterr().out == f"{tmp_path / 'out.png'}\n"
    assert (tmp_path / "out.png").stat().st_size > 0 and not (tmp_path / "out").exists()
    # no evaluations of the second seat: its empty panel drew a legend warning
    assert not [w for w in recwarn if "legend" in str(w.message)]


def test_an_out_path_that_cannot_be_written_is_refused_naming_why(run_dir, capsys):
    # it was "[Errno 2] No such file or directory: '/nonexist/x.png'", after the drawing
    assert main(["plot", str(run_dir), "--out", "/nonexist/x.png"]) == 2
    out, err = capsys.readouterr()
    assert "error: --out: cannot write /nonexist/x.png (no folder /nonexist)" in err and out == ""


@pytest.mark.parametrize("content, message", [
    (b"hello\n", "is not an evaluations file of mancala-marl: its first line does not name the columns"),
    (b"a,b,c\n1,2,3\n", "is not an evaluations file of mancala-marl: its first line does not name the columns"),
    (bytes(range(128, 256)), "is not an evaluations file of mancala-marl: it cannot be read as CSV text"),
    (HEADER.encode() + b"\n", "holds no evaluations yet"),  # a run's file before its first row
    (b"", "holds no evaluations yet"),  # a run stopped before it wrote the header
], ids=["text", "other-csv", "binary", "header-only", "empty"])
def test_a_file_that_is_not_an_evaluations_file_is_told_apart_from_one_without_rows(content, message, run_dir,
                                                                                      capsys):
    # any other text was said to hold "no evaluations yet", and bytes were a bare UnicodeDecodeError
    (run_dir / "evaluations.csv").write_bytes(content)
    assert main(["plot", str(run_dir)]) == 2
    err = capsys.readouterr().err
    assert f"{run_dir / 'evaluations.csv'} {message}" in err
    assert len(err.strip().splitlines()) == 1
