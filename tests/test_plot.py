"""``mancala-marl plot``: a run without evaluations yet is told so, and an evaluations.csv cut off
mid-row (a run stopped while writing it) is still drawn, without the cut row."""

import json
from dataclasses import asdict

import pytest

from mancala_marl.train.alphazero import AlphaZeroConfig
from mancala_marl.train.cli import main
from mancala_marl.train.distill import DistillConfig
from mancala_marl.train.evaluation import CSV_FIELDS
from mancala_marl.train.plot import read_curves
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
