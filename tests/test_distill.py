"""Distillation of a search policy into a network (train/distill.py): data, fitting, runs, resume."""

import csv
import json

import numpy as np
import pytest
import torch as th

from mancala_marl import observations
from mancala_marl.agents import make_policy
from mancala_marl.agents.learned import ModelPolicy, load_model, read_metadata
from mancala_marl.games import make_game
from mancala_marl.cli import main as cli
from mancala_marl.train.distill import DistillConfig, collect, distill, fit, new_student
from mancala_marl.matches.evaluation import play

th.set_num_threads(1)

SMALL_KALAH = {"pits": 4, "seeds": 3}


def tiny_config(**changes) -> DistillConfig:
    settings = dict(game="kalah", rule_params=SMALL_KALAH, teacher="max", rounds=2, states_per_round=300,
                    net_arch=[32], epochs=2, batch_size=64, eval_games=2, eval_opponents=["random"],
                    progress_bar=False)
    return DistillConfig(**{**settings, **changes})


def test_collect_labels_every_learner_position_with_the_teachers_move():
    config = tiny_config(explore=0.3)
    obs, masks, labels = collect(config, 200, seed=1)
    game = make_game("kalah", **SMALL_KALAH)
    assert len(obs) == len(masks) == len(labels) >= 200
    assert obs.shape[1] == game.board_size and obs.dtype == np.float32
    assert masks[np.arange(len(labels)), labels].all()
    # the teacher is max: with observations from the mover's side, its move is the fullest own pit,
    # ties to the pit nearest the store
    own = obs[:, :game.pits]
    expected = game.pits - 1 - np.argmax(own[:, ::-1], axis=1)
    assert (labels == expected).all()
    assert (masks == (own > 0)).all()


def test_collect_plays_the_students_moves_after_round_zero(tmp_path):
    """With a student and no exploration, every played move is the student's: the positions seen
    are those of the student's own games, which differ from the teacher's."""
    config = tiny_config(explore=0.0)
    model = new_student(config)
    path = tmp_path / "student.zip"
    from mancala_marl.agents.learned import make_metadata, save_model
    save_model(model, path, make_metadata(make_game("kalah", **SMALL_KALAH), "counts", "maskable-ppo"))
    teacher_obs, _, _ = collect(config, 300, seed=3)
    student_obs, _, _ = collect(config, 300, seed=3, student_path=str(path))
    assert teacher_obs.shape[1] == student_obs.shape[1]
    assert {tuple(row) for row in student_obs} != {tuple(row) for row in teacher_obs}


def test_fit_learns_the_teacher_on_held_out_positions():
    config = tiny_config(net_arch=[64, 64])
    obs, masks, labels = collect(config, 3000, seed=2)
    model = new_student(config)
    before = fit(model, obs, masks, labels, epochs=0, batch_size=64, learning_rate=1e-3)["val_accuracy"]
    after = fit(model, obs, masks, labels, epochs=15, batch_size=64, learning_rate=3e-3)["val_accuracy"]
    assert after > 0.9 > before


def test_fit_refuses_a_batch_larger_than_the_data():
    config = tiny_config()
    obs, masks, labels = collect(config, 100, seed=4)
    with pytest.raises(ValueError, match="batch_size 512"):
        fit(new_student(config), obs, masks, labels, epochs=1, batch_size=512, learning_rate=1e-3)


def test_distill_run_saves_plays_and_resumes(tmp_path):
    run_dir = tmp_path / "run"
    final = distill(tiny_config(), run_dir)
    meta = read_metadata(final)
    assert (meta["trained_by"], meta["teacher"], meta["rounds"]) == ("distill", "max", 2)
    assert meta["positions"] >= 600
    assert sorted(p.name for p in (run_dir / "data").iterdir()) == ["round_0.npz", "round_1.npz"]
    game = make_game("kalah", **SMALL_KALAH)
    model, _ = load_model(final, game, "counts")
    result = play(game, ModelPolicy(path=str(final)), make_policy("random"), seat=1, games=3)
    assert result["wins"] + result["draws"] + result["losses"] == 3

    with pytest.raises(ValueError, match="already holds a run"):
        distill(tiny_config(), run_dir)
    with pytest.raises(ValueError, match=r"explore=0.5 \(the run's: 0.1\)"):  # the run keeps its own recipe
        distill(tiny_config(rounds=3, explore=0.5), run_dir, resume=True)
    distill(tiny_config(rounds=3), run_dir, resume=True)
    assert json.loads((run_dir / "config.json").read_text())["explore"] == 0.1
    meta = read_metadata(run_dir / "final.zip")
    assert meta["rounds"] == 3 and (run_dir / "data" / "round_2.npz").is_file()
    with open(run_dir / "evaluations.csv", newline="") as handle:
        steps = sorted({int(row["timesteps"]) for row in csv.DictReader(handle)})
    assert len(steps) == 3 and steps[-1] == meta["positions"]
    # TensorBoard, as train's and alphazero's runs have it (distill wrote none): every round, resumed ones too
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    logs = EventAccumulator(str(run_dir / "tb"))
    logs.Reload()
    assert {"fit/loss", "fit/held_out_agreement", "fit/new_positions_agreement"} <= set(logs.Tags()["scalars"])
    assert [event.step for event in logs.Scalars("fit/loss")] == steps
    assert json.loads((run_dir / "config.json").read_text())["rounds"] == 3
    # finished: resumed as it is, or to fewer rounds, it is refused and left as it was (it quietly
    # wrote final.zip again), as train's and alphazero's are
    for rounds in (3, 2):
        with pytest.raises(ValueError, match=r"has run all its 3 rounds already: give --rounds above 3 to train on"):
            distill(tiny_config(rounds=rounds), run_dir, resume=True)
    assert json.loads((run_dir / "config.json").read_text())["rounds"] == 3


def test_resume_reuses_a_rounds_data_written_before_a_crash(tmp_path):
    run_dir = tmp_path / "run"
    distill(tiny_config(rounds=1), run_dir)
    # a run stopped after writing round 1's data but before its model: resuming must not relabel
    config = tiny_config()
    obs, masks, labels = collect(config, 50, seed=9)
    np.savez_compressed(run_dir / "data" / "round_1.npz", obs=obs, masks=masks, labels=labels)
    distill(tiny_config(rounds=2), run_dir, resume=True)
    first = len(np.load(run_dir / "data" / "round_0.npz")["labels"])
    assert read_metadata(run_dir / "final.zip")["positions"] == first + len(labels)


@pytest.mark.parametrize("change, message", [
    (dict(teacher="oracle"), "oracle"),
    (dict(rounds=0), "rounds"),
    (dict(explore=1.5), "explore"),
    (dict(pool=[]), "pool"),
    (dict(obs_type="pixels"), "obs_type"),
    (dict(features="onehot", obs_type="paper"), "needs an obs_type in \\['counts', 'moves', 'turns', 'afterstates'\\]"),
    (dict(features="raw"), "features"),
    (dict(net_arch=[0]), "net_arch"),
    (dict(learning_rate=0.0), "learning_rate"),
])
def test_bad_settings_are_named(change, message, tmp_path):
    with pytest.raises(ValueError, match=message):
        distill(tiny_config(**change), tmp_path / "run")


def test_resume_without_a_run_fails_clearly(tmp_path):
    with pytest.raises(FileNotFoundError, match="no run to continue"):
        distill(tiny_config(), tmp_path / "nothing", resume=True)


def test_distill_command(tmp_path, capsys):
    run_dir = tmp_path / "cli"
    assert cli(["distill", "kalah:pits=4,seeds=3", "--teacher", "exact", "--rounds", "1",
                "--states", "200", "--net", "16", "--epochs", "1", "--batch-size", "64", "--eval-games", "1", "--eval-opponents", "max",
                "--no-progress", "--run-dir", str(run_dir)]) == 0
    assert "[round 0]" in capsys.readouterr().out
    assert read_metadata(run_dir / "final.zip")["teacher"] == "exact"
    assert cli(["plot", str(run_dir)]) == 0
    assert (run_dir / "learning_curves.png").stat().st_size > 0
    capsys.readouterr()
    assert cli(["distill", "kalah", "--net", "wide", "--run-dir", str(tmp_path / "x")]) == 2
    assert "--net must be comma-separated layer sizes, got 'wide'" in capsys.readouterr().err


def test_one_hot_features_mark_each_exact_count():
    from mancala_marl.agents.features import PitCountsOneHot
    game = make_game("togyz_kumalak")
    space = observations.observation_space(game, "counts")
    layer = PitCountsOneHot(space, max_count=31)
    state = game.init()
    obs = th.as_tensor(observations.encode(game, state, 0)[None])
    obs[0, 0], obs[0, 1] = 0.0, 40.0  # an empty hole and one over max_count
    obs[0, game.board_size + 3] = 1.0  # a tuzduk flag
    features = layer(obs)[0]
    n = space.shape[0]
    assert features.shape[0] == layer.features_dim == n + game.board_size * 32
    assert th.allclose(features[:n], obs[0] / th.as_tensor(space.high).clamp(min=1))
    one_hot = features[n:].reshape(game.board_size, 32)
    assert (one_hot.sum(1) == 1).all()
    assert one_hot[0, 0] == 1 and one_hot[1, 31] == 1 and one_hot[2, 9] == 1  # 0 balls, capped 40, 9 balls


def test_labelling_in_two_processes_gives_the_same_data_as_in_one():
    from mancala_marl.train.distill import collect_parallel
    serial = collect_parallel(tiny_config(workers=1), 4500, seed=5)
    parallel = collect_parallel(tiny_config(workers=2), 4500, seed=5)
    assert len(serial[2]) >= 4500
    for a, b in zip(serial, parallel):
        np.testing.assert_array_equal(a, b)


def test_unknown_policy_names_stay_clear_without_the_training_extra(monkeypatch):
    """mancala_marl.agents.features needs torch and SB3; looking up an unknown name imports every agents module,
    which must skip it, not fail, on an install without them."""
    import sys

    import mancala_marl.agents.base
    monkeypatch.setitem(sys.modules, "stable_baselines3", None)  # as if not installed
    monkeypatch.delitem(sys.modules, "mancala_marl.agents.features", raising=False)
    # "model" (agents/learned.py, imported with the package) forgotten, to be found again
    monkeypatch.delitem(mancala_marl.agents.base.POLICIES, "model")
    monkeypatch.delitem(sys.modules, "mancala_marl.agents.learned")
    monkeypatch.setattr(mancala_marl.agents.base, "_discovered", False)
    with pytest.raises(ValueError, match="unknown policy 'nosuch'"):
        make_policy("nosuch")
    assert "model" in mancala_marl.agents.base.POLICIES


def test_the_labelling_bar_ends_at_the_positions_asked_for():
    # each chunk plays its last game out, so a round holds a few more positions than asked; the bar
    # went past its total (2015 of 2000) and tqdm dropped the total from its display
    from mancala_marl.train.distill import DistillConfig, collect_parallel

    added = []  # what each chunk moved the bar on by
    config = DistillConfig(game="kalah", rule_params={"pits": 3, "seeds": 2}, teacher="greedy", workers=1)
    _, _, labels = collect_parallel(config, 300, (0, 0), None, added.append)
    assert len(labels) > 300 and sum(added) == 300
