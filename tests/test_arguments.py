"""The training commands' options reach their run's config through one helper
(:func:`mancala_marl.cli.arguments.typed_settings`), by the config's field names."""

from dataclasses import fields

import pytest

from mancala_marl.cli import distill as distill_command
from mancala_marl.cli import train as train_command
from mancala_marl.cli import alphazero as alphazero_command
from mancala_marl.train.alphazero.config import AlphaZeroConfig
from mancala_marl.cli.arguments import COMMON_RENAMED, typed_settings
from mancala_marl.cli import build_parser
from mancala_marl.train.distill import DistillConfig
from mancala_marl.train.training import TrainConfig

# options that say where and how a command runs, not what the run learns
NOT_SETTINGS = {"help", "game", "run_dir", "resume", "no_progress", "func", "recipe", "hyper", "backend"}
# settings of the JAX backend's config only (tests/jax/ checks them against JaxAlphaZeroConfig,
# which needs jax to import); the torch backend refuses them
OTHER_BACKEND = {"alphazero": set(alphazero_command.JAX_ONLY)}
COMMANDS = [("train", TrainConfig, train_command.RENAMED), ("distill", DistillConfig, distill_command.RENAMED),
            ("alphazero", AlphaZeroConfig, alphazero_command.RENAMED)]


def options(command: str) -> set[str]:
    parser = build_parser()
    subparsers = next(a for a in parser._actions if a.dest == "command")
    return {action.dest for action in subparsers.choices[command]._actions} - NOT_SETTINGS


@pytest.mark.parametrize("command, config_class, renamed", COMMANDS, ids=[c[0] for c in COMMANDS])
def test_every_option_of_a_training_command_is_a_setting_of_its_run(command, config_class, renamed):
    renamed = {**COMMON_RENAMED, **renamed}
    named = {renamed.get(f.name, f.name) for f in fields(config_class)}
    assert options(command) - named - OTHER_BACKEND.get(command, set()) == set()  # an option the config would never see


def test_typed_settings_takes_the_options_typed_and_reads_them():
    from argparse import Namespace

    args = Namespace(game="kalah", rounds=3, states=None, net="64,64", teacher=None, no_progress=True)
    values = typed_settings(args, DistillConfig, distill_command.RENAMED,
                            {"net_arch": lambda text, option: (option, [int(n) for n in text.split(",")])})
    assert values == {"rounds": 3, "net_arch": ("--net", [64, 64])}  # game and the untyped left out
