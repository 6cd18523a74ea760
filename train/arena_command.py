"""``mancala-marl arena GAME POLICY_A POLICY_B``: a match in both seats (:func:`mancala_marl.train.arena.arena`)."""

from __future__ import annotations

import json

from mancala_marl.train.arena import (
    arena,
    check_writable,
    note_repeated_games,
    print_summary,
    warn_random_games,
    write_csv,
)
from mancala_marl.train.arguments import GAME_HELP, POLICY_HELP, add_match_arguments


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "arena", help="play two policies against each other in both seats",
        description="Play POLICY_A against POLICY_B, N games with A first and N with A second. "
                    "Policies and games take parameters: 'alphabeta:depth=4', 'kalah:pits=4,seeds=3'.")
    parser.add_argument("game", help=GAME_HELP)
    parser.add_argument("policy_a", metavar="POLICY_A", help=POLICY_HELP)
    parser.add_argument("policy_b", metavar="POLICY_B", help="the other policy, written the same way")
    add_match_arguments(parser)
    parser.add_argument("--csv", metavar="FILE", help="write one row per game to FILE")
    parser.set_defaults(func=run)


def run(args) -> int:
    if args.csv:
        check_writable(args.csv, "--csv")
    records = []
    result = arena(args.game, args.policy_a, args.policy_b, args.games, args.seed, args.workers,
                   args.opening, records)
    warn_random_games(result)
    note_repeated_games([(args.policy_a, args.policy_b)], args.opening)
    if args.csv:
        write_csv(args.csv, records)
    if args.json:
        print(json.dumps(result))
    else:
        print_summary(result)
    return 0
