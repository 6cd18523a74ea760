"""--resume keeps a run's settings and names what it refuses (train/runs.py); damaged runs are
named in one line. (Bad training settings on the command line: tests/test_cli.py.)"""

import json
import pickle
from dataclasses import asdict

import pytest

from mancala_marl.train.alphazero import AlphaZeroConfig
from mancala_marl.cli import main
from mancala_marl.train.runs import check_game, load_checkpoint, read_config, resumed_config
from mancala_marl.train.training import RESUMABLE, TrainConfig


@pytest.fixture
def run_dir(tmp_path):
    saved = TrainConfig(game="kalah", rule_params={"pits": 4}, seed=3, eval_freq=500, reward="result",
                        timesteps=777, progress_bar=False)
    (tmp_path / "config.json").write_text(json.dumps(asdict(saved)))
    return tmp_path


def test_a_resumed_run_keeps_its_settings_and_takes_only_those_it_may_change(run_dir):
    config = resumed_config(TrainConfig(game="kalah", eval_games=7, timesteps=5, progress_bar=False),
                            run_dir, RESUMABLE, separate=frozenset({"timesteps"}))
    assert (config.game, config.rule_params, config.seed, config.reward) == ("kalah", {"pits": 4}, 3, "result")
    assert config.eval_freq == 500  # left at its default by the caller: the run's
    assert config.eval_games == 7 and config.progress_bar is False  # evaluation and display may change
    assert config.timesteps == 777  # passed to train() on its own, not taken from the config
    # left at its default, the display setting is the run's too; named as given, it is the caller's
    assert resumed_config(TrainConfig(game="kalah"), run_dir, RESUMABLE).progress_bar is False
    assert resumed_config(TrainConfig(game="kalah"), run_dir, RESUMABLE, given={"progress_bar"}).progress_bar
    # a value typed at its default still counts when the command line names it: eval_freq back to 20000
    assert resumed_config(TrainConfig(game="kalah"), run_dir, RESUMABLE, given={"eval_freq"}).eval_freq == 20_000
    # a setting given with the run's own value is no clash
    assert resumed_config(TrainConfig(game="kalah", seed=3), run_dir, RESUMABLE).seed == 3


def test_a_resumed_run_refuses_what_would_change_how_it_learns_naming_it(run_dir):
    with pytest.raises(ValueError, match=r"obs_type='moves' \(the run's: 'counts'\); seed=5 \(the run's: 3\)"):
        resumed_config(TrainConfig(game="kalah", seed=5, obs_type="moves"), run_dir, RESUMABLE)
    with pytest.raises(ValueError, match=r"seed=5 \(the run's: 3\)\. Drop them"):
        resumed_config(TrainConfig(game="kalah", seed=5), run_dir, RESUMABLE)
    with pytest.raises(ValueError, match=r"is a run of kalah \{'pits': 4\}, not oware"):
        resumed_config(TrainConfig(game="oware"), run_dir, RESUMABLE)
    with pytest.raises(ValueError, match=r"seed=0 \(the run's: 3\)"):  # typed at its default, still not the run's
        resumed_config(TrainConfig(game="kalah"), run_dir, RESUMABLE, given={"seed"})
    with pytest.raises(ValueError, match="is not the configuration of a AlphaZeroConfig run"):
        resumed_config(AlphaZeroConfig(), run_dir, set())


def test_settings_read_back_from_json_compare_equal_to_those_asked(tmp_path):
    saved = AlphaZeroConfig(hidden=[64, 64], eval_opponents=["random"])
    (tmp_path / "config.json").write_text(json.dumps(asdict(saved)))
    # the same run asked for with a tuple (JSON has lists only) is no clash
    config = resumed_config(AlphaZeroConfig(hidden=(64, 64), eval_opponents=("random",)), tmp_path, set())
    assert config.hidden == [64, 64]


def test_the_command_lines_game_must_be_the_runs(run_dir, tmp_path_factory):
    check_game(run_dir, "kalah", {})  # its rules need not be repeated
    check_game(run_dir, "kalah", {"pits": 4})
    check_game(run_dir, "kalah", {"pits": 4, "seeds": 4, "empty_capture": False})  # the same rules, spelt out
    for game, rules in (("sungka", {}), ("kalah", {"pits": 6})):
        with pytest.raises(ValueError, match="is a run of kalah"):
            check_game(run_dir, game, rules)
    check_game(tmp_path_factory.mktemp("empty"), "sungka", {})  # no run: resuming says what is missing


def test_a_missing_or_damaged_run_is_named(run_dir, tmp_path):
    with pytest.raises(FileNotFoundError, match="no run to continue"):
        read_config(tmp_path / "none")
    (run_dir / "config.json").write_text("{not json")
    with pytest.raises(ValueError, match="config.json is not a readable run configuration"):
        read_config(run_dir)
    junk = tmp_path / "last.pt"
    junk.write_bytes(b"\x80\x04junk that is not a pickle")
    with pytest.raises(ValueError, match=r"cannot read the checkpoint .*last\.pt .*damaged"):
        load_checkpoint(lambda path: pickle.loads(path.read_bytes()), junk)


TINY_RUN = ["alphazero", "kalah:pits=3,seeds=2", "--games", "4", "--sims", "4",
            "--hidden", "8", "--buffer", "500", "--batch-size", "16", "--steps", "2", "--eval-games", "1",
            "--eval-sims", "2", "--eval-opponents", "random", "--no-progress"]


def test_resume_of_another_game_on_the_command_line_is_refused(tmp_path, capsys):
    assert main([*TINY_RUN, "--run-dir", str(tmp_path), "--generations", "1", "--eval-every", "0"]) == 0
    # the hint names the network's rules, read from the network file itself
    assert (f"play it: mancala-marl play kalah:pits=3,seeds=2 --opponent alphazero:path={tmp_path / 'network.npz'}"
            in capsys.readouterr().out)
    status = main(["alphazero", "sungka", "--resume", "--run-dir", str(tmp_path), "--no-progress"])
    assert status == 2 and "is a run of kalah {'pits': 3, 'seeds': 2}, not sungka" in capsys.readouterr().err


def test_options_typed_at_their_default_values_are_honoured_on_resume(tmp_path, capsys):
    run = ["--run-dir", str(tmp_path)]
    assert main([*TINY_RUN, *run, "--generations", "1", "--eval-every", "0"]) == 0
    assert not (tmp_path / "evaluations.csv").exists()
    # --eval-every 5 is the default, typed: evaluations come back (it was taken as "not given")
    assert main(["alphazero", "kalah", *run, "--resume", "--generations", "5", "--eval-every", "5",
                 "--no-progress"]) == 0
    assert json.loads((tmp_path / "config.json").read_text())["eval_every"] == 5
    assert (tmp_path / "evaluations.csv").is_file()
    # --sims 64 is the default too: typed, it clashes with the run's 4 instead of being dropped
    capsys.readouterr()
    assert main(["alphazero", "kalah", *run, "--resume", "--generations", "6", "--sims", "64", "--no-progress"]) == 2
    assert "sims=64 (the run's: 4)" in capsys.readouterr().err


def test_a_row_cut_off_mid_write_stays_apart_from_the_next(tmp_path):
    from mancala_marl.matches.evaluation import append_evaluations
    from mancala_marl.cli.plot import read_curves

    path = tmp_path / "evaluations.csv"
    row = {"opponent": "random", "seat": "first", "games": 2, "wins": 1, "draws": 0, "losses": 1, "win_rate": 0.5,
           "mean_score": 20.0, "mean_margin": 1.0}
    append_evaluations(path, [dict(row)], 1000, 1.0)
    with path.open("a") as handle:
        handle.write("2")  # a crash one character into the next row
    append_evaluations(path, [dict(row)], 3000, 2.0)
    lines = path.read_text().splitlines()
    assert lines[-2] == "2" and lines[-1].startswith("3000,")
    assert dict(read_curves(path)) == {("random", "first"): [(1000, 50.0), (3000, 50.0)]}  # the stub is left out
    path.write_text("")  # a crash before the header was written: the next rows come with one
    append_evaluations(path, [dict(row)], 5000, 3.0)
    assert dict(read_curves(path)) == {("random", "first"): [(5000, 50.0)]}


def test_a_distill_run_resumed_without_rounds_keeps_its_own(tmp_path, capsys):
    run = ["distill", "kalah:pits=3,seeds=2", "--run-dir", str(tmp_path), "--no-progress"]
    assert main([*run, "--teacher", "max", "--rounds", "1", "--states", "200", "--batch-size", "32", "--net", "16",
                 "--epochs", "1", "--eval-games", "1", "--eval-opponents", "random"]) == 0
    capsys.readouterr()
    # its own 1 round is done: nothing to train (it was raised to the default 4 and trained on)
    assert main([*run, "--resume", "--eval-games", "2"]) == 2
    assert "has run all its 1 rounds already: give --rounds above 1" in capsys.readouterr().err
    assert json.loads((tmp_path / "config.json").read_text())["rounds"] == 1
    assert main([*run, "--resume", "--rounds", "2", "--eval-games", "2"]) == 0
    saved = json.loads((tmp_path / "config.json").read_text())
    assert (saved["rounds"], saved["eval_games"]) == (2, 2)


@pytest.mark.parametrize("command", ["train", "alphazero"])
def test_resuming_a_run_stopped_before_its_first_checkpoint_says_to_start_it_again(command, tmp_path, capsys):
    (tmp_path / "config.json").write_text("{}")  # written first; Ctrl-C came before any checkpoint
    assert main([command, "kalah", "--resume", "--run-dir", str(tmp_path), "--no-progress"]) == 2
    assert (f"--resume: the run in {tmp_path} stopped before its first checkpoint" in capsys.readouterr().err)
    # its evaluations would be mixed with a new run's: the folder must go first
    (tmp_path / "evaluations.csv").write_text("timesteps,opponent\n")
    assert main([command, "kalah", "--resume", "--run-dir", str(tmp_path), "--no-progress"]) == 2
    assert "first checkpoint (" in (err := capsys.readouterr().err) and "remove the folder and start again" in err
    assert main([command, "kalah", "--run-dir", str(tmp_path), "--no-progress"]) == 2
    assert (f"{tmp_path} holds the evaluations of a run that stopped before its first checkpoint; remove the "
            "folder or choose another --run-dir") in capsys.readouterr().err
    assert main([command, "kalah", "--resume", "--run-dir", str(tmp_path / "none"), "--no-progress"]) == 2
    assert "--resume: no checkpoint at" in capsys.readouterr().err


def test_default_run_folders_carry_the_rules_and_hints_name_the_program_as_it_was_started(monkeypatch):
    from mancala_marl.train import runs

    # runs of other rules used to share runs/kalah-dqn-random (and --resume continued the wrong one)
    assert runs.default_run_dir("kalah", None, "dqn", "random") == "runs/kalah-dqn-random"
    # one name however the rules were typed: the game's order, defaults left out
    for rules in ({"pits": 4, "seeds": 3}, {"seeds": 3, "pits": 4}, {"seeds": 3, "pits": 4, "end_rule": "either"}):
        assert runs.default_run_dir("kalah", rules, "dqn", "random") == "runs/kalah-pits=4-seeds=3-dqn-random"
    assert runs.default_run_dir("kalah", {"pits": 6}, "distill") == "runs/kalah-distill"
    monkeypatch.setattr(runs.shutil, "which", lambda name: None)  # make demo: the virtualenv is not activated
    monkeypatch.setattr(runs.sys, "argv", [".venv/bin/mancala-marl", "demo"])
    assert runs.program() == ".venv/bin/mancala-marl"
    monkeypatch.setattr(runs.sys, "argv", ["/x/site-packages/mancala_marl/cli/__main__.py", "demo"])  # python -m
    assert runs.program() == "mancala-marl"
    monkeypatch.setattr(runs.sys, "argv", ["/my envs/bin/mancala-marl", "demo"])
    assert runs.program() == "'/my envs/bin/mancala-marl'"  # quoted, so that it can be pasted
    monkeypatch.setattr(runs.shutil, "which", lambda name: "/my envs/bin/mancala-marl.EXE")  # Windows
    monkeypatch.setattr(runs.sys, "argv", ["/my envs/bin/mancala-marl", "demo"])
    assert runs.program() == "mancala-marl"


@pytest.mark.parametrize("command", ["train", "distill", "alphazero"])
def test_a_run_folder_that_cannot_be_one_is_named_with_what_is_wrong(command, tmp_path, capsys):
    # `train --run-dir /dev/null` said "[Errno 17] File exists"; `plot` of a missing folder "not a run directory"
    a_file = tmp_path / "notes.txt"
    a_file.write_text("")
    cases = [(["--run-dir", "/dev/null"], "--run-dir /dev/null is not a folder: it is a special file"),
             (["--run-dir", str(a_file)], f"--run-dir {a_file} is not a folder: it is a file"),
             (["--run-dir", str(a_file / "run")], f"{a_file} is a file, not a folder"),
             (["--run-dir", "/dev/null", "--resume"], "--run-dir /dev/null is not a folder")]
    for options, message in cases:
        assert main([command, "kalah", *options]) == 2
        assert message in capsys.readouterr().err


def test_plot_names_a_missing_folder_and_a_file(tmp_path, capsys):
    assert main(["plot", str(tmp_path / "none")]) == 2
    assert f"run folder {tmp_path / 'none'}: no such folder" in capsys.readouterr().err
    assert main(["plot", "/dev/null"]) == 2
    assert "run folder /dev/null is not a folder" in capsys.readouterr().err
