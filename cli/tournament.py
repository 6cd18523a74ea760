"""``mancala-marl tournament`` (a round robin with ratings) and ``mancala-marl paper-table``
(:mod:`mancala_marl.matches.tournament`)."""

from __future__ import annotations

import itertools
import json
import sys

from mancala_marl.matches.arena import check_writable, game_label, note_repeated_games, opening_label, warn_random_games
from mancala_marl.cli.arguments import GAME_HELP, POLICY_HELP, add_match_arguments
from mancala_marl.matches.tournament import (
    paper_table,
    print_paper_table,
    print_tournament,
    round_robin,
    tournament_markdown,
)


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("tournament", help="round robin of policies with Elo-style ratings",
                                   description="Every pair of POLICIES plays N games in each seat.")
    parser.add_argument("game", help=GAME_HELP)
    parser.add_argument("policies", nargs="+", metavar="POLICY", help=POLICY_HELP)
    add_match_arguments(parser)
    parser.add_argument("--markdown", metavar="FILE", help="also write the table as markdown to FILE")
    parser.set_defaults(func=run_tournament)

    parser = subparsers.add_parser("paper-table", help="results laid out as the Sungka paper's Table II",
                                   description="POLICY against Random, Max, Exact and itself, N games as first "
                                               "turn and N as second; average reward = POLICY's final store.")
    parser.add_argument("game", help=GAME_HELP)
    parser.add_argument("policy", help=POLICY_HELP)
    add_match_arguments(parser, games=1000)
    parser.set_defaults(func=run_paper_table)


def run_tournament(args) -> int:
    if args.markdown:
        check_writable(args.markdown, "--markdown")
    result = round_robin(args.game, args.policies, args.games, args.seed, args.workers, args.opening,
                         progress=None if args.json else lambda r: print(
                             f"{r['a']} vs {r['b']}: {r['overall']['wins']}-{r['overall']['draws']}-"
                             f"{r['overall']['losses']} ({r['a']}'s wins-draws-losses)", file=sys.stderr))
    for pair in result["pairs"]:
        warn_random_games(pair, where=f"{pair['a']} vs {pair['b']}: ")
    note_repeated_games(itertools.combinations(args.policies, 2), args.opening)
    text = (f"{game_label(result)}, {result['games_per_seat']} games per seat and pair{opening_label(result)}\n\n"
            + tournament_markdown(result))
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text + "\n")
    if args.json:
        print(json.dumps(result))
    else:
        print_tournament(result)
    return 0


def run_paper_table(args) -> int:
    result = paper_table(args.game, args.policy, args.games, args.seed, args.workers, args.opening)
    warn_random_games(result)
    note_repeated_games([(args.policy, row["opponent"]) for row in result["rows"]], args.opening)
    if args.json:
        print(json.dumps(result))
    else:
        print_paper_table(result)
    return 0
