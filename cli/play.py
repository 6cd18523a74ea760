"""``mancala-marl play GAME``: a person plays against a policy (:func:`mancala_marl.matches.play.play`)."""

from __future__ import annotations

from mancala_marl.cli.arguments import GAME_HELP, seed_argument
from mancala_marl.matches.play import DEFAULT_OPPONENT, FALLBACK_OPPONENT, play


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("play", help="play against a policy in the terminal",
                                   description="Play GAME against a policy: type a pit number each turn.")
    parser.add_argument("game", help=GAME_HELP)
    parser.add_argument("--opponent", default=None,
                        help=f"policy spec (default {DEFAULT_OPPONENT}: the shipped self-play network, searching 0.5 s "
                             f"a move; on rules it was not trained for, {FALLBACK_OPPONENT})")
    parser.add_argument("--seat", choices=("first", "second"), default="first", help="your seat (default first)")
    parser.add_argument("--seed", type=seed_argument, default=0)
    parser.set_defaults(func=run)


def run(args) -> int:
    return play(args.game, args.opponent, 0 if args.seat == "first" else 1, args.seed)
