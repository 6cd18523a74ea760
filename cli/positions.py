"""``mancala-marl positions GAME``: the labelled positions shipped for a game, written out or built anew
(:mod:`mancala_marl.endgame.labelled`, :func:`mancala_marl.matches.labelling.build_set`)."""

from __future__ import annotations

import json
import sys

from mancala_marl.cli.arguments import GAME_HELP, add_param_argument, count_argument, param_argument, seed_argument


def add_parser(subparsers) -> None:
    from mancala_marl.agents.perfect import DB_SEEDS, TT_BITS
    from mancala_marl.matches.grading import BINS_PARAM, MAX_SEEDS_PARAM

    parser = subparsers.add_parser(
        "positions", help="labelled positions: every legal move valued by perfect play",
        description="Without --build: describe the set of labelled positions shipped for GAME (Kalah(6,4), "
                    "Kalah(6,4) with empty_capture=true, Oware endgames), or with --jsonl write it out, one JSON "
                    'object a line: {"board": [...], "to_move": 0 or 1, "values": {"pit": value, ...}, '
                    '"seeds_in_play": n}, the board as Game.from_board takes it (pits and stores, player_0 '
                    "first) and each value what the move is worth to the mover under perfect play (Kalah: the "
                    "final margin in seeds; Oware: +1 win, 0 draw, -1 loss). With --build: draw --count "
                    "positions from varied play and value them (the command that rebuilds the shipped sets).")
    parser.add_argument("game", help=GAME_HELP)
    parser.add_argument("--jsonl", action="store_true", help="write every position, one JSON object a line")
    parser.add_argument("--file", default=None, metavar="PATH",
                        help="read this set file rather than the one shipped for GAME")
    parser.add_argument("--build", action="store_true", help="draw and value a new set (see --count, --out)")
    parser.add_argument("--count", type=count_argument("graded"), default=1000, metavar="N",
                        help="with --build: positions in the set (default 1000)")
    parser.add_argument("--out", default=None, metavar="PATH", help="with --build: the .npz file to write")
    parser.add_argument("--seed", type=seed_argument, default=0, help="with --build: seed of the draw")
    add_param_argument(parser, BINS_PARAM, default=BINS_PARAM.default, metavar="B")
    add_param_argument(parser, MAX_SEEDS_PARAM, metavar="N")
    parser.add_argument("--db-seeds", type=param_argument(DB_SEEDS), default=None, metavar="N",
                        help=f"with --build: {DB_SEEDS.doc} (a larger one solves faster once built: Kalah(6,4) "
                             "with 24 takes about 8 minutes to build and 1.3 GB)")
    parser.add_argument("--workers", type=count_argument("workers"), default=None, metavar="W",
                        help="with --build: solving threads (default: every core)")
    parser.add_argument("--tt-bits", type=param_argument(TT_BITS), default=TT_BITS.default, metavar="B",
                        help="with --build: each thread's table holds 2**B entries (default 22; 25 saves work "
                             "on Kalah(6,4)'s early positions, about 350 MB a thread)")
    parser.set_defaults(func=run)


def describe(labelled, game) -> str:
    import numpy as np

    seeds = labelled.seeds_in_play(game.pits)
    lines = [f"{labelled.game}: {len(labelled)} positions, values are {labelled.value}s for the player to move",
             f"drawn with seed {labelled.header.get('seed')}, openings {labelled.header.get('openings')}, "
             f"players {labelled.header.get('players')}"]
    for low, high in labelled.header.get("bins", []):
        inside = (seeds >= low) & (seeds <= high)
        lines.append(f"  {low:>3}-{high:<3} seeds in play: {int(inside.sum()):>5} positions, "
                     f"{float(np.mean(labelled.legal()[inside].sum(axis=1))) if inside.any() else 0:.1f} moves each")
    lines.append(f"sha256 {labelled.header['sha256']}")
    return "\n".join(lines)


def run(args) -> int:
    from mancala_marl.endgame.labelled import load_set, save_set, shipped_set
    from mancala_marl.errors import BadInput
    from mancala_marl.games import parse_game

    game = parse_game(args.game)
    if args.build:
        from mancala_marl.matches.labelling import build_set

        if args.out is None:
            raise BadInput("positions --build: name the file to write with --out PATH")
        labelled = build_set(game, args.count, seed=args.seed, bins=args.bins, max_seeds=args.max_seeds,
                             db_seeds=args.db_seeds, workers=args.workers, tt_bits=args.tt_bits,
                             progress=sys.stderr.isatty())
        save_set(labelled, args.out)
        print(f"wrote {args.out}", file=sys.stderr)
    else:
        labelled = load_set(args.file, game) if args.file else shipped_set(game)
    if args.jsonl:
        out = sys.stdout
        for row in labelled.rows(game.pits):
            out.write(json.dumps(row) + "\n")
    else:
        print(describe(labelled, game))
    return 0
