"""``mancala-marl grade GAME POLICY [POLICY...]``: each policy's moves graded against perfect play
(:func:`mancala_marl.matches.grading.grade`)."""

from __future__ import annotations

import json
import sys

from mancala_marl.cli.arguments import (
    GAME_HELP,
    POLICY_HELP,
    add_param_argument,
    add_perfect_arguments,
    count_argument,
    seed_argument,
)


def add_parser(subparsers) -> None:
    from mancala_marl.matches.grading import MAX_SEEDS_PARAM, BINS_PARAM

    parser = subparsers.add_parser(
        "grade", help="grade policies' moves against perfect play",
        description="On the labelled positions shipped for GAME's rules (Kalah(6,4), Kalah(6,4) with "
                    "empty_capture=true, Oware endgames; see "
                    "`mancala-marl positions`), or on a set file (--set), "
                    "in seconds: no solver runs. Otherwise (other rules, or --fresh): "
                    "draw positions from games of alphabeta:depth=4 against itself after K random opening moves, "
                    "spread evenly over the stages of the game by seeds left in play; value every legal move "
                    "exactly with the perfect player; and for each POLICY give the share of its moves that are "
                    "optimal, its blunder rate (moves that turn a win into a draw or a loss, or a draw into a "
                    "loss) and its mean regret in seeds (the best move's final margin less its own), overall "
                    "and by seeds in play. Games with perfect play: Kalah (any rules), and Oware endgames (the "
                    "positions its database covers, graded on results: no regret). On Kalah(6,4) an early "
                    "position can take a minute to solve.")
    parser.add_argument("game", help=GAME_HELP)
    parser.add_argument("policies", nargs="+", metavar="POLICY", help=POLICY_HELP)
    parser.add_argument("--positions", type=count_argument("graded"), default=None, metavar="N",
                        help="positions graded, shared evenly by the stages (default: the whole set, or 60 drawn "
                             "fresh)")
    parser.add_argument("--fresh", action="store_true",
                        help="draw and solve new positions even where a labelled set ships (slow: minutes)")
    parser.add_argument("--set", default=None, metavar="PATH",
                        help="grade on this labelled set file (made by `mancala-marl positions GAME --build`)")
    parser.add_argument("--seed", type=seed_argument, default=0, help="seed of the positions and the policies")
    parser.add_argument("--opening", type=count_argument("opening"), default=4, metavar="K",
                        help="random moves that open each game the positions are drawn from (default 4)")
    add_param_argument(parser, BINS_PARAM, default=BINS_PARAM.default, metavar="B")
    add_param_argument(parser, MAX_SEEDS_PARAM, metavar="N")
    add_perfect_arguments(parser, "seconds the perfect player may spend on one position; those past it are left "
                                  "out (and counted)")
    parser.add_argument("--json", action="store_true", help="print one JSON object on stdout and nothing else")
    parser.set_defaults(func=run)


def percent(share, digits: int = 1) -> str:
    return "-" if share is None else f"{100 * share:.{digits}f}%"


def seeds(regret) -> str:
    return "-" if regret is None else f"{regret:.2f}"


def milliseconds(seconds: float | None) -> str:
    """A policy's thinking time a move, in the unit the docs use: 0.042 ms, 3.1 ms, 45 ms."""
    if seconds is None:
        return "-"
    ms = 1e3 * seconds
    return "<0.01" if ms < 0.01 else f"{ms:.2g}" if ms < 10 else f"{ms:.0f}"


def stage_cell(stage: dict) -> str:
    regret = "-" if stage["regret"] is None else f"{stage['regret']:.1f}"
    return f"{percent(stage['optimal'], 0)} / {percent(stage['blunders'], 0)} / {regret}"


def print_report(result: dict, file=None) -> None:
    """Two rich tables: each policy overall, then by seeds in play."""
    from mancala_marl.progress import console, titled_table

    shown = console(file)
    how = (f"labelled set {result['set']['sha256'][:12]}" if result["source"] == "set"
           else f"drawn fresh, seed {result['seed']}, opening {result['opening']}")
    table = titled_table(f"{result['game']}: {result['positions']} positions graded against perfect play ({how})")
    for column in ("policy", "optimal", "95% interval", "blunders", "regret (seeds)", "ms/move"):
        table.add_column(column, justify="left" if column == "policy" else "right")
    for row in result["policies"]:
        low, high = row["optimal_95"] or (None, None)
        table.add_row(row["policy"], percent(row["optimal"]),
                      "-" if low is None else f"{100 * low:.0f}-{100 * high:.0f}%", percent(row["blunders"]),
                      seeds(row["regret"]), milliseconds(row["seconds_per_move"]))
    shown.print(table)
    stages = titled_table("by seeds in play: optimal / blunders / regret")
    stages.add_column("policy", no_wrap=True)
    for low, high in result["bins"]:
        count = next(b["positions"] for b in result["policies"][0]["by_seeds"] if b["seeds"] == [low, high])
        stages.add_column(f"{low}-{high} ({count})", justify="right")
    for row in result["policies"]:
        stages.add_row(row["policy"], *(stage_cell(b) for b in row["by_seeds"]))
    shown.print(stages)
    if result["skipped"]:
        print(f"{result['skipped']} positions left out: not solved within the perfect player's time limit or "
              "search budget", file=file or sys.stdout)


def run(args) -> int:
    from mancala_marl.endgame.labelled import shipped_path
    from mancala_marl.errors import BadInput
    from mancala_marl.games import parse_game
    from mancala_marl.matches.grading import grade, grade_on_set

    game = parse_game(args.game)
    if args.fresh and args.set:
        raise BadInput("grade: --fresh draws new positions, --set grades on a file's; give one")
    if args.set or (not args.fresh and shipped_path(game) is not None):
        result = grade_on_set(game, args.policies, labelled=args.set, positions=args.positions, seed=args.seed,
                              progress=not args.json)
    else:
        result = grade(game, args.policies, positions=60 if args.positions is None else args.positions,
                       seed=args.seed, opening=args.opening, bins=args.bins, max_seeds=args.max_seeds,
                       db_seeds=args.db_seeds, time_limit=args.time_limit, progress=not args.json)
    if args.json:
        print(json.dumps(result))
    else:
        print_report(result)
    return 0
