"""``mancala-marl alphazero GAME --backend jax``: a tiny run on CPU, resumed from the same state, its
network played by the CPU ``alphazero`` policy, and bad input refused in one line."""

import csv
import io
import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import jax.numpy as jnp
import numpy as np
import pytest

from mancala_marl.agents import alphazero as az_policy
from mancala_marl.agents import make_policy
from mancala_marl.games import make_game, parse_game
from mancala_marl.jax import from_state, make
from mancala_marl.train.alphazero.jax import JaxAlphaZeroConfig, feature_fn, forward, train
from mancala_marl.train.alphazero.jax.checkpoints import redeal
from mancala_marl.matches.arena import arena
from mancala_marl.cli import main
from tests.helpers import random_positions

RULES = {"pits": 4, "seeds": 3}
TINY = dict(game="kalah", rule_params=RULES, generations=3, games=16, moves=40, sims=4, hidden=[16], buffer=2000,
            batch_size=64, obs_type="counts", eval_every=0, progress_bar=False)
ROOT = Path(__file__).resolve().parents[2]


def _arrays(path) -> dict:
    with np.load(path) as data:
        return {k: data[k] for k in data.files}


def _same_state(run_a, run_b) -> None:
    """The two runs' checkpoints hold the same network, optimiser, keys, buffer, games and window."""
    for file in ("last.npz", "replay.npz"):
        a, b = (_arrays(run / "checkpoints" / file) for run in (run_a, run_b))
        assert a.keys() == b.keys()
        for name in a:
            if name != "seconds":
                np.testing.assert_array_equal(a[name], b[name], err_msg=f"{file}: {name}")


def test_a_resumed_run_goes_on_as_one_that_was_not_stopped(tmp_path):
    config = JaxAlphaZeroConfig(**TINY)
    straight = train(config, tmp_path / "straight")
    train(config, tmp_path / "stopped", stop_after=2)
    assert json.loads(str(_arrays(tmp_path / "stopped" / "network.npz")["__meta__"]))["generation"] == 2
    resumed = train(JaxAlphaZeroConfig(**TINY), tmp_path / "stopped", resume=True, given=set())
    a, b = _arrays(straight), _arrays(resumed)
    assert a.keys() == b.keys()
    for name in a:
        if name != "__meta__":  # its train_seconds differ
            np.testing.assert_array_equal(a[name], b[name], err_msg=name)
    _same_state(tmp_path / "straight", tmp_path / "stopped")
    a = _arrays(tmp_path / "straight" / "checkpoints" / "replay.npz")
    assert int(a["replay/size"].sum()) > 0 and int(a["generation"]) == 3

    # the network the CPU policy plays is the one JAX trained: the same outputs on the same positions
    game = make_game("kalah", **RULES)
    a = _arrays(tmp_path / "straight" / "checkpoints" / "last.npz")
    params = {k[7:]: v for k, v in a.items() if k.startswith("params/")}
    states = random_positions(game, 32, seed=2)
    x = feature_fn(game, "counts")(from_state(make("kalah", **RULES), states).observation)
    jax_logits, jax_values = forward(params, x)
    policy = make_policy(f"alphazero:path={straight},sims=8")
    logits, values = policy.network(game)(az_policy.features(game, states, "counts"))
    np.testing.assert_allclose(logits, jax_logits, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(values, jax_values, rtol=1e-5, atol=1e-5)
    result = arena(game, policy, "random", n=2, seed=0, opening=2)
    assert sum(s["games"] for s in result["seats"].values()) == 4


def test_ctrl_c_finishes_the_generation_and_a_resume_loses_nothing(tmp_path, capsys):
    config = JaxAlphaZeroConfig(**TINY)
    train(config, tmp_path / "straight")

    def ctrl_c(generation, stats):
        if generation == 1:
            os.kill(os.getpid(), signal.SIGINT)

    with pytest.raises(KeyboardInterrupt):
        train(JaxAlphaZeroConfig(**TINY), tmp_path / "stopped", observer=ctrl_c)
    assert "Ctrl-C: stopping after this generation" in capsys.readouterr().err
    replay = _arrays(tmp_path / "stopped" / "checkpoints" / "replay.npz")
    assert int(replay["generation"]) == 1  # the buffer was saved with the generation Ctrl-C stopped at
    train(JaxAlphaZeroConfig(**TINY), tmp_path / "stopped", resume=True, given=set())
    assert "resumed at generation" not in capsys.readouterr().out  # nothing to say: nothing lost
    _same_state(tmp_path / "straight", tmp_path / "stopped")


def test_a_run_killed_between_snapshots_resumes_from_the_last_and_says_what_it_lost(tmp_path, capsys):
    # a kill leaves the generation's small checkpoint newer than the last snapshot of the buffer:
    # here the snapshot of generation 1 put back after generation 3, as a kill would have left it
    # with --replay-every 0
    config = JaxAlphaZeroConfig(**{**TINY, "generations": 4})
    run = tmp_path / "run"
    train(config, run, stop_after=1)
    snapshot = (run / "checkpoints" / "replay.npz").read_bytes()
    train(JaxAlphaZeroConfig(**{**TINY, "generations": 4}), run, resume=True, given=set(), stop_after=2)
    positions = int(_arrays(run / "checkpoints" / "last.npz")["positions"])
    at_one = int(_arrays(run / "checkpoints" / "replay.npz")["positions"])  # before it is put back
    (run / "checkpoints" / "replay.npz").write_bytes(snapshot)
    capsys.readouterr()
    train(JaxAlphaZeroConfig(**{**TINY, "generations": 4}), run, resume=True, given=set())
    out = capsys.readouterr().out
    lost = positions - int(np.load(io.BytesIO(snapshot))["positions"])
    assert "at generation 3 with the replay buffer saved at generation 1" in out and f"{lost:,} positions" in out
    assert 0 < lost < at_one
    meta = json.loads(str(_arrays(run / "network.npz")["__meta__"]))
    assert meta["generation"] == 4

    # killed before the first snapshot: the network goes on, with an empty buffer and new games
    (run / "checkpoints" / "replay.npz").unlink()
    train(JaxAlphaZeroConfig(**{**TINY, "generations": 5}), run, resume=True, given={"generations"})
    assert "without a replay buffer" in capsys.readouterr().out
    assert int(_arrays(run / "checkpoints" / "replay.npz")["generation"]) == 5


def test_the_command_trains_evaluates_and_refuses_bad_input(tmp_path, capsys):
    run = str(tmp_path / "run")
    tiny = ["--games", "16", "--moves", "40", "--sims", "4", "--hidden", "16", "--buffer", "2000", "--batch-size",
            "64", "--obs-type", "counts", "--run-dir", run, "--no-progress"]
    assert main(["alphazero", "kalah:pits=4,seeds=3", "--backend", "jax", "--generations", "1", "--eval-every", "1",
                 "--eval-games", "1", "--eval-sims", "2", "--eval-opponents", "random", *tiny]) == 0
    out = capsys.readouterr().out
    assert "random/f" in out and "alphazero:path=" in out
    assert (tmp_path / "run" / "evaluations.csv").read_text().count("\n") == 3  # header, both seats
    assert list((tmp_path / "run" / "tb").iterdir())

    # --minutes ends a run once its training time is spent, whatever --generations says
    short = ["--run-dir" if a == "--run-dir" else (str(tmp_path / "short") if a == run else a) for a in tiny]
    assert main(["alphazero", "kalah:pits=4,seeds=3", "--backend", "jax", "--generations", "50", "--minutes", "0.001",
                 "--eval-every", "0", *short]) == 0
    meta = json.loads(str(_arrays(tmp_path / "short" / "network.npz")["__meta__"]))
    checkpoint = _arrays(tmp_path / "short" / "checkpoints" / "last.npz")
    assert 1 <= meta["generation"] == int(checkpoint["generation"]) < 50 and float(checkpoint["seconds"]) >= 0.06
    capsys.readouterr()

    def refused(*argv) -> str:
        try:
            status = main(["alphazero", *argv])
        except SystemExit as stopped:  # argparse's refusal: a value past its setting's declared range
            status = stopped.code
        assert status == 2
        err = capsys.readouterr().err.strip()
        assert err.count("\n") == 0, err
        return err

    assert "--c-puct: not an option of --backend jax" in refused("kalah", "--backend", "jax", "--c-puct", "2")
    assert "--moves: not an option of --backend torch" in refused("kalah", "--moves", "8")
    assert "houses" in refused("kalah:houses=4", "--backend", "jax", "--run-dir", str(tmp_path / "x"))
    assert "argument --value-q: must be a number >= 0 and <= 1, got '1.5'" in refused(
        "kalah", "--backend", "jax", "--value-q", "1.5", "--run-dir", str(tmp_path / "x"))
    assert "buffer (100) must hold" in refused("kalah", "--backend", "jax", "--buffer", "100",
                                               "--run-dir", str(tmp_path / "x"))
    assert "not kalah" in refused("kalah:pits=5", "--backend", "jax", "--resume", "--run-dir", run)
    assert "a run of --backend jax; resume it with --backend jax" in refused("kalah:pits=4,seeds=3", "--resume",
                                                                              "--run-dir", run)
    assert "already holds a run" in refused("kalah:pits=4,seeds=3", "--backend", "jax", *tiny)
    assert "--generations" in refused("kalah:pits=4,seeds=3", "--backend", "jax", "--resume", "--run-dir", run)
    (tmp_path / "run" / "checkpoints" / "last.npz").write_bytes(b"not a checkpoint")
    err = refused("kalah:pits=4,seeds=3", "--backend", "jax", "--resume", "--generations", "2", "--run-dir", run)
    assert "cannot read the checkpoint" in err and "last.npz" in err


MIX = ["family:holes=4,seeds=3", "wari", "family:holes=5,seeds=2,capture_min=3"]


def test_one_network_trains_on_several_games_and_plays_any_game_of_the_family(tmp_path, capsys):
    run = tmp_path / "mix"
    assert main(["alphazero", *MIX, "--backend", "jax", "--generations", "2", "--games", "16", "--moves", "40",
                 "--sims", "4", "--hidden", "16", "--buffer", "2000", "--batch-size", "64", "--eval-every", "2",
                 "--eval-games", "1", "--eval-sims", "2", "--eval-opponents", "random", "--run-dir", str(run),
                 "--no-progress"]) == 0
    assert "play it:" in capsys.readouterr().out
    net = az_policy.Network.load(run / "network.npz")
    assert net.meta["mix"] == MIX and net.obs_type == "rules" and net.actions == 6  # wari's six holes
    with open(run / "evaluations.csv") as rows:
        evaluated = {(row["opponent"], row["seat"]) for row in csv.DictReader(rows)}
    assert evaluated == {(f"random on {spec}", seat) for spec in MIX for seat in ("first", "second")}

    # the CPU policy reads each game as the JAX network did: the same outputs on the same positions
    a = _arrays(run / "checkpoints" / "last.npz")
    params = {k[7:]: v for k, v in a.items() if k.startswith("params/")}
    policy = make_policy(f"alphazero:path={run / 'network.npz'},sims=4")
    for spec in MIX:
        game = parse_game(spec)
        states = random_positions(game, 16, seed=3)
        obs = az_policy.observe(game, states, "rules")
        jax_logits, jax_values = forward(params, feature_fn(game, "rules")(jnp.asarray(obs)))
        logits, values = policy.network(game)(az_policy.features(game, states, "rules"))
        np.testing.assert_allclose(logits, jax_logits, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(values, jax_values, rtol=1e-5, atol=1e-5)
    # and plays a game it never saw, of a board it never saw
    result = arena(make_game("bohnenspiel"), policy, "random", n=1, seed=0)
    assert sum(s["games"] for s in result["seats"].values()) == 2
    with pytest.raises(ValueError, match=r"reads the two-row family's rules: it plays a game of the family of at "
                                         r"most 16 holes a row and 6 actions, not dakon$"):
        policy.network(make_game("dakon"))  # seven holes: more actions than its policy head
    with pytest.raises(ValueError, match="reads the two-row family's rules.*not kalah$"):
        policy.network(make_game("kalah"))

    def refused(*argv) -> str:
        assert main(["alphazero", *argv, "--run-dir", str(tmp_path / "x")]) == 2
        err = capsys.readouterr().err.strip()
        assert err.count("\n") == 0, err
        return err

    assert "trains with --backend jax only" in refused("wari", "dakon")
    assert "reads obs_type 'rules'" in refused("wari", "dakon", "--backend", "jax", "--obs-type", "counts")
    assert "is not a game of the two-row family" in refused("wari", "kalah", "--backend", "jax")


def test_help_imports_no_jax():
    code = ("import sys, contextlib, io\nfrom mancala_marl.cli import main\n"
            "for argv in (['--help'], ['alphazero', '--help']):\n"
            "    with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
            "        main(argv)\n"
            "print(sorted(m for m in ('jax', 'jaxlib', 'pgx', 'mctx', 'optax') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_the_core_imports_no_jax():
    # here, where jax is installed (in .venv it could not fail): the core and its environments need no [jax] extra
    code = ("import sys, mancala_marl, mancala_marl.games, mancala_marl.env; "
            "print(sorted(m for m in ('jax', 'jaxlib', 'pgx', 'mctx') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_without_the_jax_extra_the_backend_names_it(monkeypatch, capsys):
    import importlib.util

    real = importlib.util.find_spec  # mctx as if not installed
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "mctx" else real(name, *a))
    assert main(["alphazero", "kalah", "--backend", "jax"]) == 2
    err = capsys.readouterr().err
    assert "[jax]" in err and "mctx" in err



def test_a_buffer_saved_on_four_devices_is_dealt_out_over_two():
    sizes = np.array([3, 0, 5, 2], np.int32)
    saved = {"replay/obs": np.zeros((4, 6, 2), np.float32), "replay/size": sizes}
    for d, size in enumerate(sizes):
        saved["replay/obs"][d, :size] = 100 * d + np.arange(size)[:, None] + 1
    for name, shape, dtype in (("mask", (3,), np.bool_), ("policy", (3,), np.float32), ("value", (), np.float32)):
        saved[f"replay/{name}"] = np.ones((4, 6, *shape), dtype)
    template = {"obs": np.zeros((2, 12, 2), np.float32), "mask": np.zeros((2, 12, 3), np.bool_),
                "policy": np.zeros((2, 12, 3), np.float32), "value": np.zeros((2, 12), np.float32),
                "size": np.zeros(2, np.int32), "next": np.zeros(2, np.int32)}
    out = redeal(saved, template)
    assert out["size"].tolist() == [5, 5] and out["next"].tolist() == [5, 5]
    kept = np.concatenate([out["obs"][d, :5, 0] for d in range(2)])
    assert sorted(kept.tolist()) == sorted(saved["replay/obs"][saved["replay/obs"][..., 0] > 0][:, 0].tolist())
    assert out["mask"][:, :5].all() and not out["mask"][:, 5:].any()


def test_every_option_of_the_jax_backend_is_a_setting_of_its_run():
    # as tests/test_arguments.py checks the torch backend's, which cannot import this config
    from dataclasses import fields

    from mancala_marl.cli import alphazero as command
    from mancala_marl.cli.arguments import COMMON_RENAMED
    from mancala_marl.cli import build_parser
    from tests.test_arguments import NOT_SETTINGS

    subparsers = next(a for a in build_parser()._actions if a.dest == "command")
    options = {action.dest for action in subparsers.choices["alphazero"]._actions} - NOT_SETTINGS
    named = {COMMON_RENAMED.get(f.name, f.name) for f in fields(JaxAlphaZeroConfig)}
    assert options - set(command.TORCH_ONLY) - named == set()
    assert set(command.JAX_ONLY) <= named


@pytest.mark.parametrize("changes, message", [
    ({"reuse": 0}, "reuse must be >= 0.001, got 0; it takes 0.001..1000"),
    ({"minutes": -1}, "minutes must be >= 0.0, got -1; it takes 0.0..525600"),
    ({"replay_every": "soon"}, "replay_every must be a number >= 0.0 and <= 525600, got 'soon'"),
    ({"weight_decay": -1e-4}, "weight_decay must be >= 0, got -0.0001; it takes 0..1"),
])
def test_the_jax_settings_are_refused_by_their_declarations(changes, message):
    # reuse, minutes, replay_every and weight_decay are declared in RANGES, as the other settings
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        JaxAlphaZeroConfig(**{**TINY, **changes}).check()


def test_the_help_names_the_jax_backends_defaults():
    # the command's help cannot import this config without jax, so it keeps its own copy of them
    from mancala_marl.cli import alphazero as command

    defaults = JaxAlphaZeroConfig()
    assert command.JAX_DEFAULTS == {name: getattr(defaults, name) for name in command.JAX_DEFAULTS}
