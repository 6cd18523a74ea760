"""The ``mancala-marl`` command line: one subcommand per module listed in ``COMMANDS``.

Each module provides ``add_parser(subparsers)``, which adds its subcommand and sets ``func`` to
the function that runs it. Heavy imports (torch, SB3) stay inside those functions so that
``mancala-marl --help`` is instant.
"""

from __future__ import annotations

import argparse
import importlib
import sys

COMMANDS = ["train.demo", "train.train_command", "train.distill_command", "train.plot", "train.arena", "train.tournament", "train.play"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mancala-marl",
        description="Mancala-family games (Kalah, Sungka, Togyz Kumalak) for multi-agent RL.")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(name).add_parser(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
