"""--resume keeps a run's settings (train/runs.py), and the training commands refuse bad settings
before they start: one clear line, nothing half-made."""

import json
import pickle
from dataclasses import asdict

import pytest

from mancala_marl.train.alphazero import AlphaZeroConfig
from mancala_marl.train.cli import main
from mancala_marl.train.runs import check_game, load_checkpoint, read_config, resumed_config
from mancala_marl.train.training import RESUMABLE, TrainConfig


@pytest.fixture
def run_dir(tmp_path):
    saved = TrainConfig(game="kalah", rule_params={"pits": 4}, seed=3, eval_freq=500, reward="result")
    (tmp_path / "config.json").write_text(json.dumps(asdict(saved)))
    return tmp_path


def test_a_resumed_run_keeps_its_settings_and_takes_only_those_it_may_change(run_dir):
    config = resumed_config(TrainConfig(game="kalah", eval_games=7, timesteps=5, progress_bar=False),
                            run_dir, RESUMABLE, separate=frozenset({"timesteps"}))
    assert (config.game, config.rule_params, config.seed, config.reward) == ("kalah", {"pits": 4}, 3, "result")
    assert config.eval_freq == 500  # left at its default by the caller: the run's
    assert config.eval_games == 7 and config.progress_bar is False  # evaluation and display may change
    assert config.timesteps == TrainConfig.timesteps  # passed on its own, not taken from the config
    # a setting given with the run's own value is no clash
    assert resumed_config(TrainConfig(game="kalah", seed=3), run_dir, RESUMABLE).seed == 3


def test_a_resumed_run_refuses_what_would_change_how_it_learns_naming_it(run_dir):
    with pytest.raises(ValueError, match=r"obs_type='moves' \(the run's: 'counts'\); seed=5 \(the run's: 3\)"):
        resumed_config(TrainConfig(game="kalah", seed=5, obs_type="moves"), run_dir, RESUMABLE)
    with pytest.raises(ValueError, match=r"seed=5 \(the run's: 3\)\. Drop them"):
        resumed_config(TrainConfig(game="kalah", seed=5), run_dir, RESUMABLE)
    with pytest.raises(ValueError, match=r"is a run of kalah \{'pits': 4\}, not oware"):
        resumed_config(TrainConfig(game="oware"), run_dir, RESUMABLE)
    with pytest.raises(ValueError, match="is not a AlphaZeroConfig"):
        resumed_config(AlphaZeroConfig(), run_dir, set())


def test_the_command_lines_game_must_be_the_runs(run_dir, tmp_path_factory):
    check_game(run_dir, "kalah", {})  # its rules need not be repeated
    check_game(run_dir, "kalah", {"pits": 4})
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


BAD_SETTINGS = [
    (["alphazero", "kalah", "--generations", "0"], "generations must be a positive integer, got 0"),
    (["train", "kalah", "--timesteps", "0"], "timesteps must be a positive integer, got 0"),
    (["train", "kalah", "--eval-games", "0"], "eval_games must be a positive integer, got 0"),
    (["train", "kalah", "--eval-opponents", "random,oracle"], "unknown policy 'oracle'"),
    (["train", "kalah", "--reward-scale", "0"], "reward_scale must be > 0"),
    (["train", "kalah", "--learning-rate-end", "-1"], "learning_rate_end must be >= 0"),
    (["train", "kalah", "--opening", "-1"], "opening must be an integer >= 0"),
    (["train", "kalah", "--hyper", "bogus=1"], "MaskablePPO has no argument 'bogus' (it takes batch_size"),
    (["train", "kalah", "--algo", "dqn", "--hyper", "n_epochs=2"], "MaskedDQN has no argument 'n_epochs'"),
    (["train", "kalah", "--hyper", "learning_rate=abc"], "MaskablePPO refused the settings {'learning_rate': 'abc'}"),
    (["distill", "kalah", "--states", "200"], "batch_size 512 is larger than the 190 positions"),
]


@pytest.mark.parametrize("argv, message", BAD_SETTINGS, ids=[" ".join(a) for a, _ in BAD_SETTINGS])
def test_bad_training_settings_are_one_line_before_anything_runs(argv, message, tmp_path, capsys):
    status = main([*argv, "--run-dir", str(tmp_path / "run"), "--no-progress"])
    out, err = capsys.readouterr()
    assert status == 2 and message in err, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in out + err
    assert not (tmp_path / "run" / "checkpoints").exists()


def test_resume_of_another_game_on_the_command_line_is_refused(tmp_path, capsys):
    config = AlphaZeroConfig(game="kalah", rule_params={"pits": 3, "seeds": 2})
    (tmp_path / "config.json").write_text(json.dumps(asdict(config)))
    status = main(["alphazero", "sungka", "--resume", "--run-dir", str(tmp_path), "--no-progress"])
    assert status == 2 and "is a run of kalah {'pits': 3, 'seeds': 2}, not sungka" in capsys.readouterr().err
