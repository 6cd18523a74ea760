"""The ``mancala-marl`` command line: one subcommand per module of this package, listed in ``COMMANDS``.

Each module provides ``add_parser(subparsers)``, which adds its subcommand and sets ``func`` to
the function that runs it. Heavy imports (torch, SB3) stay inside those functions so that
``mancala-marl --help`` is instant and the core install runs every command that needs no network.

Bad input never ends in a traceback: a wrong argument, game or policy parameter, a missing or
corrupt file, a missing extra, Ctrl-C: each is one line on stderr and a non-zero status (2 for
bad input, 130 for an interruption). A closed pipe on stdout ends a command quietly (141, as a
shell reports a command that SIGPIPE stopped).
"""

from __future__ import annotations

import os
import sys

from mancala_marl import __version__
from mancala_marl.errors import BadInput, NotSolved
from mancala_marl.extras import MissingExtraError
from mancala_marl.games import GAMES
from mancala_marl.cli import (
    alphazero,
    arena,
    demo,
    distill,
    grade,
    play,
    plot,
    positions,
    rules,
    serve,
    solve,
    tournament,
    train,
)
from mancala_marl.cli.arguments import BAD_INPUT, BROKEN_PIPE, INTERRUPTED, Parser, one_line

# in the order `mancala-marl --help` lists them
COMMANDS = (demo, train, distill, alphazero, plot, arena, tournament, play, serve, rules, solve, grade, positions)


def build_parser() -> Parser:
    parser = Parser(
        prog="mancala-marl",
        description=f"Mancala-family games ({', '.join(GAMES)}) for multi-agent RL.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    where = f"mancala-marl {args.command}"
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print(f"\n{where}: interrupted", file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:
        # the reader closed the pipe (`... --jsonl | head -3`): end quietly, as Unix tools do, with
        # stdout pointed at /dev/null so that Python's flush at exit does not complain again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return BROKEN_PIPE
    except MissingExtraError as error:
        print(f"{where}: {one_line(error)}", file=sys.stderr)
        return BAD_INPUT
    # Bad input, a question past its limit, a file that cannot be read, a closed stdin: one line.
    # Anything else is a bug and shows its traceback (exit 1).
    except (BadInput, NotSolved, OSError, EOFError) as error:
        print(f"{where}: error: {one_line(error)}", file=sys.stderr)
        return BAD_INPUT

