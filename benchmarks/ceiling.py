"""The most any policy can win against max and exact on the scratch test's openings, proved by search.

    .venv/bin/python benchmarks/ceiling.py                 # every game, 200 openings per seat
    .venv/bin/python benchmarks/ceiling.py sungka -n 50

The scratch target is measured from 4 random opening moves (the arena's openings, seed 0), 200
games per seat against ``max`` and ``exact``. Both baselines are deterministic, so from each
opening either some line of play beats the baseline or none does, and
:class:`mancala_marl.agents.best_response.BestResponse` decides which by exhaustive search (an
opening it cannot settle within the node budget is counted apart). The share of openings that
can be won is then the ceiling of that test: no policy, learned or searched, can score more.

Writes ``benchmarks/results/ceiling.json`` and ``ceiling.md``.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

from mancala_marl.agents.best_response import NO_WIN, UNKNOWN, WIN, BestResponse
from mancala_marl.games import GAMES, make_game
from mancala_marl.train.arena import SEATS, opening_position

RESULTS = Path(__file__).resolve().parent / "results"
OPPONENTS = ("max", "exact")


def ceiling(game, opponent: str, n: int, opening: int, seed: int, budget: int) -> list[dict]:
    """One row per seat: how many of the ``n`` openings can be won, cannot, or were not settled."""
    solver = BestResponse(game, opponent)
    rows = []
    for learner, seat in enumerate(SEATS):
        start = time.perf_counter()
        results, lost, nodes = {WIN: 0, NO_WIN: 0, UNKNOWN: 0}, [], 0
        for index in range(n):
            result = solver.can_win(opening_position(game, seed, index, opening), learner, budget)
            results[result] += 1
            nodes = max(nodes, solver.nodes)
            if result != WIN:
                lost.append(index)
        rows.append({"game": game.name, "opponent": opponent, "seat": seat, "openings": n, "winnable": results[WIN],
                     "proved_not_winnable": results[NO_WIN], "unsettled": results[UNKNOWN],
                     "ceiling": results[WIN] / n, "not_won": lost, "most_positions": nodes,
                     "seconds": round(time.perf_counter() - start, 2)})
        print(f"{game.name} vs {opponent}, {seat} seat: {results[WIN]} of {n} openings can be won, "
              f"{results[NO_WIN]} cannot, {results[UNKNOWN]} unsettled ({rows[-1]['seconds']} s)", flush=True)
    return rows


def markdown(rows: list[dict], command: str) -> str:
    lines = [f"Made with `{command}` on {platform.node() or 'this machine'}. Openings: {rows[0]['opening_moves']} random "
             f"moves (the arena's, seed {rows[0]['seed']}), the learner in the given seat against a deterministic "
             "baseline. Can be won: an exhaustive search found a winning line; cannot: it proved there is none. "
             "The ceiling is the share that can be won: a count over these openings, not an estimate.", "",
             "| game | opponent | seat | openings | can be won | cannot | unsettled | ceiling | not won (opening index) "
             "| most positions searched | seconds |", "|---|---|---|---:|---:|---:|---:|---:|---|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['game']} | {r['opponent']} | {r['seat']} | {r['openings']} | {r['winnable']} | "
                     f"{r['proved_not_winnable']} | {r['unsettled']} | {100 * r['ceiling']:.1f}% | "
                     f"{', '.join(map(str, r['not_won'])) or '-'} | {r['most_positions']:,} | {r['seconds']} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", metavar="GAME", help=f"games (default: all of {', '.join(GAMES)})")
    parser.add_argument("-n", "--openings", type=int, default=200, help="openings per seat (default 200)")
    parser.add_argument("--opening", type=int, default=4, help="random moves per opening (default 4)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=int, default=5_000_000, help="positions searched per opening at most")
    args = parser.parse_args(argv)
    if args.openings < 1 or args.opening < 0 or args.budget < 1:
        parser.error("--openings and --budget must be >= 1, --opening >= 0")
    unknown = [g for g in args.games if g not in GAMES]
    if unknown:
        parser.error(f"unknown game {unknown[0]!r}: choose from {', '.join(GAMES)}")
    command = "python benchmarks/ceiling.py " + " ".join(sys.argv[1:] if argv is None else argv)
    rows = []
    for name in args.games or GAMES:
        for opponent in OPPONENTS:
            for row in ceiling(make_game(name), opponent, args.openings, args.opening, args.seed, args.budget):
                rows.append({**row, "opening_moves": args.opening, "seed": args.seed})
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "ceiling.json").write_text(json.dumps({"command": command.strip(), "rows": rows}, indent=1))
    (RESULTS / "ceiling.md").write_text(markdown(rows, command.strip()))
    print(f"wrote {RESULTS / 'ceiling.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
