"""``mancala-marl arena GAME POLICY_A POLICY_B``: a match in both seats (:func:`mancala_marl.matches.arena.arena`)."""

from __future__ import annotations

import json
import os

from mancala_marl.progress import progress_bar
from mancala_marl.matches.arena import (
    arena,
    check_writable,
    csv_writer,
    note_repeated_games,
    print_summary,
    warn_random_games,
)
from mancala_marl.cli.arguments import GAME_HELP, POLICY_HELP, add_match_arguments


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
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


def run(args) -> int:
    if args.csv:
        check_writable(args.csv, "--csv")
    # the games are written and counted as they end: a long match holds none of them
    with open(args.csv or os.devnull, "w", newline="") as file, progress_bar(args.no_progress) as bar:
        rows = csv_writer(file)
        task = bar.add_task("games", total=2 * args.games)

        def on_game(record):
            rows.writerow(record)
            bar.advance(task)

        result = arena(args.game, args.policy_a, args.policy_b, args.games, args.seed, args.workers,
                       args.opening, on_game=on_game)
    warn_random_games(result)
    note_repeated_games([(args.policy_a, args.policy_b)], args.opening)
    if args.json:
        print(json.dumps(result))
    else:
        print_summary(result)
    return 0
