"""The ``mancala-marl`` command line: one subcommand per module listed in ``COMMANDS``.

Each module provides ``add_parser(subparsers)``, which adds its subcommand and sets ``func`` to
the function that runs it. Heavy imports (torch, SB3) stay inside those functions so that
``mancala-marl --help`` is instant and the core install runs every command that needs no network.

Bad input never ends in a traceback: a wrong argument, game or policy parameter, a missing or
corrupt file, a missing extra, Ctrl-C: each is one line on stderr and a non-zero status (2 for
bad input, 130 for an interruption).
"""

from __future__ import annotations

import argparse
import importlib
import sys

from mancala_marl import __version__
from mancala_marl.extras import MissingExtraError
from mancala_marl.games import GAMES

COMMANDS = [f"mancala_marl.train.{name}" for name in
            ("demo", "train_command", "distill_command", "alphazero", "plot", "arena", "tournament", "play")]
BAD_INPUT, INTERRUPTED = 2, 130


class Parser(argparse.ArgumentParser):
    """argparse with a one-line error (argparse prints the whole usage first)."""

    def error(self, message):
        self.exit(BAD_INPUT, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def seed_argument(text: str) -> int:
    """``--seed``, refused here if numpy, torch or SB3 would refuse it later (a negative seed failed
    deep in gymnasium's reset, as ``-1000``: the env's seed, not the one given)."""
    from mancala_marl.agents import check_seed
    try:
        return check_seed(int(text))
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer from 0 to 2**32 - 1, got {text!r}") from None


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="mancala-marl",
        description=f"Mancala-family games ({', '.join(GAMES)}) for multi-agent RL.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(name).add_parser(subparsers)
    return parser


def one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())  # a message that spans lines (numba, SB3) on one
    return text or type(error).__name__


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    where = f"mancala-marl {args.command}"
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print(f"\n{where}: interrupted", file=sys.stderr)
        return INTERRUPTED
    except MissingExtraError as error:
        print(f"{where}: {one_line(error)}", file=sys.stderr)
        return BAD_INPUT
    except (ValueError, OSError, EOFError) as error:  # bad input: values, files, a closed stdin
        print(f"{where}: error: {one_line(error)}", file=sys.stderr)
        return BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
