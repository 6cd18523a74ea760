"""``mancala-marl solve GAME``: the exact value of a position and its optimal moves (the ``perfect`` policy)."""

from __future__ import annotations

import contextlib
import json
import time

from mancala_marl.errors import BadInput
from mancala_marl.cli.arguments import GAME_HELP, add_perfect_arguments


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "solve", help="the exact value of the start (or of a position) under perfect play",
        description="Solve GAME from its start, or from the position after --moves: the first player's final "
                    "margin under perfect play by both sides, and every optimal move of the player to move. "
                    "Kalah (any rules, every position) and Oware endgames (at most --db-seeds seeds in play; the "
                    "result, win, draw or loss, not a margin); endgame databases are built into the cache on "
                    "first use ($MANCALA_MARL_CACHE moves it): about 15 s for Kalah's default 16 seeds, after "
                    "which Kalah(6,4) takes about 3 minutes, or about 11 s with --db-seeds 20 (a 2-minute build).")
    parser.add_argument("game", help=GAME_HELP)
    parser.add_argument("--moves", default="", metavar="P,P,...",
                        help="pits played from the start (0-based, each the mover's own, as the environments' "
                             "actions), e.g. 2,5")
    parser.add_argument("--rebuild", action="store_true", help="build the database again, even if a file is there")
    add_perfect_arguments(parser, "give up, with an error, after S seconds of search")
    parser.add_argument("--json", action="store_true",
                        help='print {"value": ..., "best_moves": [...], "seconds": ...} and nothing else; value '
                             "is the first player's (player_0's) final margin")
    parser.set_defaults(func=run)


def parse_moves(text: str) -> list[int]:
    try:
        return [int(move) for move in text.split(",") if move.strip()]
    except ValueError:
        raise BadInput(f"--moves must be comma-separated pit numbers, got {text!r}") from None


def _searching(what: str):
    """A spinner with ``what`` and the time spent, on stderr while the search runs: a terminal
    that shows nothing for minutes looks hung. Nothing where stderr is not a terminal."""
    from rich.console import Console

    console = Console(stderr=True)
    return console.status(what) if console.is_terminal else contextlib.nullcontext()


def run(args) -> int:
    from mancala_marl.agents import make_policy
    from mancala_marl.endgame import database
    from mancala_marl.games import parse_game

    game = parse_game(args.game)
    state = game.init()
    for number, pit in enumerate(parse_moves(args.moves), 1):
        if game.is_terminal(state):
            raise BadInput(f"--moves: the game is over before move {number} ({pit})")
        game.apply(state, pit)  # an illegal pit: IllegalMoveError, which names it
    if game.is_terminal(state):
        raise BadInput(f"--moves: the game is over after these moves, final scores {game.scores(state)}")
    perfect = make_policy("perfect", db_seeds=args.db_seeds, time_limit=args.time_limit)
    covered = perfect.max_seeds(game)  # checked before a database is built for it
    if covered is not None and game.seeds_in_play(state) > covered:
        raise BadInput(f"perfect play on {game.name} covers positions with at most {covered} seeds in play "
                       f"(--db-seeds); this one has {game.seeds_in_play(state)}: play --moves into the endgame")
    start = time.perf_counter()
    if args.rebuild:
        database(game, perfect.db_seeds_for(game), rebuild=True, progress=not args.json)
    perfect.prepare(game)
    built = time.perf_counter() - start
    solver = perfect.solver(game)
    nodes_before = solver.nodes
    with _searching(f"solving {game.cli_spec()}: a search to the end of the game, minutes on Kalah(6,4) "
                    f"with a small database"):
        value, best = perfect.best_moves(game, state)
    seconds = time.perf_counter() - start
    searched = solver.nodes - nodes_before
    mover = game.to_move(state)
    first = value if mover == 0 else -value
    if args.json:
        print(json.dumps({"game": game.cli_spec(), "moves": parse_moves(args.moves), "to_move": mover,
                          "value": first, "best_moves": best, "seconds": round(seconds, 3),
                          "database_seconds": round(built, 3), "search_seconds": round(seconds - built, 3),
                          "positions_searched": searched, "db_seeds": solver.db.max_seeds,
                          "db_positions": int(solver.db.low.size)}))
        return 0
    where = f"after {args.moves}" if args.moves else "from the start"
    print(f"{game.cli_spec()} {where}, player_{mover} to move")
    unit = "final margin" if perfect.exact_margins(game) else "result: +1 a win, 0 a draw, -1 a loss"
    print(f"value: {first:+d} for player_0 (the first player's {unit} under perfect play)")
    print(f"optimal moves for player_{mover}: {', '.join(map(str, best))}")
    print(f"{seconds:.1f} s ({built:.1f} s of it loading or building the endgame database of "
          f"{solver.db.max_seeds} seeds, {solver.db.low.size:,} positions); {searched:,} positions searched")
    return 0
