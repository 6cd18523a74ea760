"""The command line on bad input: one clear line on stderr and a non-zero status, never a
traceback; status 0 for a deliberate quit; ``--version``."""

import io
import json
import os
import re
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

import mancala_marl
from mancala_marl.agents.learned import pretrained_dir
from mancala_marl.cli import main
from mancala_marl.games import make_game

KALAH_MODEL = str(pretrained_dir() / "kalah.zip")
SUNGKA_MODEL = str(pretrained_dir() / "sungka.zip")
ALPHAZERO_KALAH = str(pretrained_dir() / "alphazero_kalah.npz")


@pytest.fixture
def not_a_model(tmp_path):
    path = tmp_path / "other.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("readme.txt", "a zip, but not a model")
    return str(path)


@pytest.fixture
def garbage_model(tmp_path):
    path = tmp_path / "broken.zip"
    path.write_bytes(open(KALAH_MODEL, "rb").read()[:3000])  # a model file cut short
    return str(path)


@pytest.fixture
def garbage_network(tmp_path):
    path = tmp_path / "broken.npz"
    path.write_bytes(open(ALPHAZERO_KALAH, "rb").read()[:3000])  # a network file cut short
    return str(path)


RUN = ["--run-dir", "{tmp_path}/run", "--no-progress"]  # a training command's run folder
BAD_INPUTS = [
    (["arena", "kalah", "model:/nonexistent.zip", "random"], "no model file at /nonexistent.zip"),
    (["arena", "kalah", "model:/etc/passwd", "random"], "not a model file (not a zip archive)"),
    (["arena", "kalah", "model:{not_a_model}", "random"], "not a Stable-Baselines3 model"),
    (["arena", "kalah", "model:{garbage_model}", "random"], "not a model file"),
    (["arena", "sungka", f"model:{KALAH_MODEL}", "random"], "was trained for kalah"),
    (["arena", "sungka:houses=5", f"model:{SUNGKA_MODEL}", "random"], "'houses': 7"),
    # The shipped network is for the default rules: other pits failed in numpy, other seeds played blind.
    (["arena", "kalah:pits=4", "alphazero", "max", "-n", "1"], "alphazero_kalah.npz was trained for kalah"),
    (["arena", "kalah:seeds=3", "alphazero:sims=0", "max", "-n", "1"],
     "but is used on kalah {'pits': 6, 'seeds': 3,"),
    (["arena", "kalah", "alphazero:path={garbage_network}", "random"], "is not an alphazero network file"),
    (["arena", "kalah:bogus=1", "greedy", "random"], "kalah has no parameter 'bogus'; its parameters: pits"),
    (["arena", "kalah:pits=abc", "greedy", "random"], "pits must be an integer >= 1 and <= 64, got 'abc'"),
    (["arena", "kalah:empty_capture=maybe", "greedy", "random"], "empty_capture must be True or False"),
    (["arena", "chess", "greedy", "random"], "unknown game 'chess'"),
    (["arena", "kalah", "nope", "random"], "unknown policy 'nope'"),
    (["arena", "kalah", "alphabeta:depth=deep", "random"], "depth must be an integer >= 1"),
    (["arena", "kalah", "alphabeta:width=3", "random"], "unknown parameter 'width' for policy 'alphabeta' "
                                                         "(its parameters: depth, time_limit, "),
    (["arena", "kalah", "greedy", "random", "-n", "0"], "argument -n/--games: must be an integer >= 1 and <= 1000000"),
    (["arena", "kalah", "greedy", "random", "-n", "many"], "argument -n/--games: must be an integer >= 1 and <= 1000000, got 'many'"),
    (["arena", "kalah", "greedy", "random", "--workers", "0"], "argument --workers: must be an integer >= 1 and <= 256, got '0'"),
    # seeds numpy or SB3 would refuse: a traceback from gymnasium naming -1000 (train), "--hyper gave"
    # (demo), or numpy's "expected non-negative integer" naming nothing (play, a policy's seed)
    (["train", "kalah", "--seed", "-1", *RUN], "argument --seed: must be an integer from 0 to 2**32 - 1, got '-1'"),
    (["demo", "--seed", "5000000000", "--run-dir", "{tmp_path}/run"], "argument --seed: must be an integer from 0"),
    (["play", "kalah", "--seed", "-1"], "argument --seed: must be an integer from 0"),
    (["alphazero", "kalah", "--seed", "x", *RUN], "argument --seed: must be an integer from 0"),
    (["arena", "kalah", "random:seed=-1", "random"], "seed must be an integer from 0 to 2**32 - 1, got -1"),
    (["tournament", "kalah", "greedy"], "at least two different policies"),
    (["tournament", "kalah", "greedy", "greedy", "random"], "policy 'greedy' is given twice"),
    (["plot", "{tmp_path}"], "not a run directory"),
    (["train", "kalah", "--resume", "--run-dir", "{tmp_path}/none"], "no checkpoint at"),
    # rules are written after GAME's colon, as every command takes them, and only there
    (["alphazero", "kalah", "--rule", "pits=4", *RUN], "unrecognized arguments: --rule pits=4"),
    (["train", "kalah", "--rule", "pits=4", *RUN], "unrecognized arguments: --rule pits=4"),
    (["train", "chess"], "argument GAME: unknown game 'chess'; known games: kalah, sungka, togyz_kumalak, oware"),
    (["train", "kalah:4", *RUN], "game spec 'kalah:4': parameters must be name=value"),
    (["distill", "kalah:holes=3", *RUN], "kalah has no parameter 'holes'"),
    (["train", "kalah:holes=3"], "kalah has no parameter 'holes'"),
    (["distill", "kalah", "--teacher", "oracle", "--run-dir", "{tmp_path}/d"], "unknown policy 'oracle'"),
    (["play", "kalah", "--opponent", "model:/nonexistent.zip"], "no model file"),
    (["nonsense"], "invalid choice: 'nonsense'"),
    # training settings refused before a run starts (nothing written to checkpoints/)
    (["alphazero", "kalah", "--generations", "0", *RUN], "argument --generations: must be an integer >= 1 and <= 1000000, got '0'"),
    (["train", "kalah", "--timesteps", "0", *RUN], "argument --timesteps: must be an integer >= 1 and <= 100000000000, got '0'"),
    (["train", "kalah", "--eval-games", "0", *RUN], "argument --eval-games: must be an integer >= 1 and <= 1000000"),
    (["train", "kalah", "--eval-opponents", "random,oracle", *RUN], "unknown policy 'oracle'"),
    (["train", "kalah", "--opponent", "random,oracle", *RUN], "unknown policy 'oracle'"),
    (["train", "kalah", "--opponent", "selfplay", "--pool", "max,oracle", *RUN], "unknown policy 'oracle'"),
    # a list's specs keep their parameters: 'random,alphabeta' and 'tt_bits=10' were read as policies
    (["train", "kalah", "--opponent", "random,alphabeta:depth=2,width=3", *RUN],
     "unknown parameter 'width' for policy 'alphabeta'"),
    (["train", "kalah", "--eval-opponents", "alphabeta:depth=2,tt_bits=10,oracle", *RUN], "unknown policy 'oracle'"),
    (["train", "kalah", "--opponent", "selfplay", "--pool", "alphabeta:depth=2,tt_bits=10,oracle", *RUN],
     "unknown policy 'oracle'"),
    (["alphazero", "kalah", "--eval-opponents", "alphabeta:depth=2,tt_bits=10,oracle", *RUN], "unknown policy 'oracle'"),
    (["train", "kalah", "--opponent", "", *RUN], "opponent names no policy, got ''"),
    (["train", "kalah", "--eval-opponents", "", *RUN], "--eval-opponents names no policy, got ''"),
    (["train", "kalah", "--opponent", "selfplay", "--pool", ",", *RUN], "--pool names no policy, got ','"),
    (["distill", "kalah", "--pool", "alphabeta:depth=2,tt_bits=10,oracle", *RUN], "unknown policy 'oracle'"),
    (["train", "kalah", "--reward-scale", "0", *RUN], "argument --reward-scale: must be a number >= 1e-06 and <= "),
    (["train", "kalah", "--learning-rate-end", "-1", *RUN], "argument --learning-rate-end: must be a number >= 0 and <= 1"),
    (["train", "kalah", "--opening", "-1", *RUN], "argument --opening: must be an integer >= 0 and <= 1000"),
    (["train", "kalah", "--hyper", "bogus=1", *RUN], "MaskablePPO has no argument 'bogus' (it takes batch_size"),
    (["train", "kalah", "--algo", "dqn", "--hyper", "n_epochs=2", *RUN], "MaskedDQN has no argument 'n_epochs'"),
    (["train", "kalah", "--hyper", "learning_rate=abc", *RUN], "--hyper gave {'learning_rate': 'abc'}): "),
    (["train", "kalah", "--obs-type", "tesauro", *RUN], "obs_type must be one of"),
    (["train", "kalah", "--opening-prob", "2", *RUN], "argument --opening-prob: must be a number >= 0 and <= 1, got '2'"),
    (["train", "kalah", "--hyper", "batch_size=0", *RUN], "--hyper: batch_size must be >= 1, got 0; it takes 1..1000000"),
    (["train", "kalah", "--algo", "dqn", "--hyper", "buffer_size=2.5", *RUN], "buffer_size must be an integer"),
    (["distill", "kalah", "--states", "200", *RUN], "batch_size 512 is larger than the 190 positions"),
    # an evaluation opponent whose network cannot play these rules: refused now, not at the first evaluation
    (["train", "kalah:pits=4", "--eval-opponents", "alphazero:sims=2", *RUN], "was trained for kalah"),
    (["alphazero", "kalah:pits=4", "--eval-opponents", "pretrained", *RUN], "was trained for kalah"),
]


@pytest.mark.parametrize("argv, message", BAD_INPUTS, ids=[" ".join(a)[:60] for a, _ in BAD_INPUTS])
def test_bad_input_is_one_line_and_a_non_zero_status(argv, message, tmp_path, not_a_model, garbage_model,
                                                     garbage_network, capsys):
    argv = [a.format(tmp_path=tmp_path, not_a_model=not_a_model, garbage_model=garbage_model,
                     garbage_network=garbage_network) for a in argv]
    try:
        status = main(argv)
    except SystemExit as exit_:  # argparse exits by itself
        status = exit_.code
    out, err = capsys.readouterr()
    assert status == 2
    assert message in err, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err + out, err
    assert not (tmp_path / "run").exists()  # refused before a run started, and no empty folder left


def test_a_training_opponent_is_refused_before_the_run_folder_is_written(tmp_path, capsys):
    # config.json was written first, and then the opponent was found unknown
    assert main(["train", "kalah", "--opponent", "bogus", "--run-dir", str(tmp_path / "run")]) == 2
    assert "unknown policy 'bogus'" in capsys.readouterr().err and not (tmp_path / "run").exists()
    # settings that only SB3 refuses: no config.json left behind to look like a run's
    assert main(["train", "kalah", "--hyper", "learning_rate=abc", "--run-dir", str(tmp_path / "run")]) == 2
    assert "refused its settings" in capsys.readouterr().err and not (tmp_path / "run" / "config.json").exists()


def _play(monkeypatch, capsys, stdin: str):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(["play", "kalah", "--opponent", "random"])
    return status, capsys.readouterr()


def test_play_quit_is_status_0_and_end_of_input_is_not(monkeypatch, capsys):
    status, captured = _play(monkeypatch, capsys, "q\n")
    assert status == 0 and "you resigned" in captured.out
    status, captured = _play(monkeypatch, capsys, "")
    assert status == 1 and "end of input: game abandoned" in captured.out and captured.err == ""


def test_version(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"mancala-marl {mancala_marl.__version__}"
    assert mancala_marl.__version__[0].isdigit()


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_in_a_long_command_is_one_line(workers):
    command = [sys.executable, "-m", "mancala_marl.cli", "arena", "kalah", "alphabeta:depth=5", "greedy",
               "-n", "100000", "--workers", str(workers)]
    # One short game first, so that numba's cache holds the kernels and the interrupt below lands
    # in the games (on a cold cache and a busy machine it could land in the compiler instead).
    subprocess.run(command[:-4] + ["-n", "1"], capture_output=True, check=True, timeout=300)
    # Ctrl-C in a terminal interrupts the whole process group: the command and its workers.
    # pytest-xdist workers ignore SIGINT, and a child inherits that (Python then installs no
    # KeyboardInterrupt handler): give the command the default a terminal gives it.
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(8)  # imports (a few seconds on a busy machine) and the first games
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert err.strip() == "mancala-marl arena: interrupted" and "Traceback" not in out


def test_the_policy_help_names_every_registered_policy():
    # written out so that --help imports no policy: it must not fall behind the registry
    from mancala_marl.agents import base
    from mancala_marl.cli.arguments import POLICY_HELP

    base._discover()
    assert set(base.POLICIES) - set(re.findall(r"[a-z_]+", POLICY_HELP)) == set()


def test_a_closed_pipe_ends_a_command_quietly():
    # `mancala-marl positions kalah --jsonl | head -1`: the reader goes, the command ends with no word
    proc = subprocess.Popen([sys.executable, "-m", "mancala_marl.cli", "positions", "kalah", "--jsonl"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout.readline().startswith(b'{"board": ')
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141 and err == ""


def test_an_unknown_game_is_answered_with_the_nearest_names_each_game_once(capsys):
    assert main(["play", "dakonn"]) == 2
    err = capsys.readouterr().err
    assert "unknown game 'dakonn'; did you mean dakon? known games: kalah," in err
    names = re.split(r"[;,:] ", err.split("known games: ")[1].strip().replace("named games: ", ""))
    assert len(names) == len(set(names)) and {"oware", "sungka", "wari"} <= set(names)
    assert main(["play", "chess"]) == 2 and "did you mean" not in capsys.readouterr().err


ORACLE = Path(__file__).resolve().parents[1].parent / "shared" / "oracles" / "mancalagames" / "GameProps"


def test_a_game_keeps_its_name_in_every_command(capsys, tmp_path, monkeypatch):
    wari_file = tmp_path / "Wari.txt"
    wari_file.write_bytes((ORACLE / "Wari.txt").read_bytes())
    for spec, game, title in (("dakon", "dakon", "Dakon"), ("dakon:seeds=3", "dakon", "Dakon (variant)"),
                              (str(wari_file), str(wari_file), "Wari"), ("kalah:pits=3", "kalah", "kalah")):
        assert main(["arena", spec, "random", "random", "-n", "1", "--json", "--no-progress"]) == 0
        result = json.loads(capsys.readouterr().out)
        assert (result["game"], result["title"]) == (game, title)
        assert make_game(result["game"], **result["params"]).cli_spec() == spec  # the name builds it again
    assert main(["arena", "dakon", "random", "random", "-n", "1", "--no-progress"]) == 0
    assert "random (B) on Dakon (dakon), 1 games per seat" in " ".join(capsys.readouterr().out.split())
    monkeypatch.setattr(sys, "stdin", io.StringIO("?\nq\n"))
    assert main(["play", str(wari_file), "--opponent", "random"]) == 0  # a file, as every command takes one
    out = capsys.readouterr().out
    assert out.startswith(f"Wari ({wari_file}): you are player_0") and "\nWari: player_0 to move" in out
    assert make_game(str(wari_file)).rules_text() in out  # "?": the game's rules in a player's words
    assert main(["rules", str(wari_file), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["title"] == "Wari"
