"""Exact values of Kalah(m, n) (m pits, n seeds per pit) with the ``solver`` policy.

    .venv/bin/python benchmarks/solve_kalah.py            # m, n = 1..4
    .venv/bin/python benchmarks/solve_kalah.py --max-pits 5 --max-seeds 3
    .venv/bin/python benchmarks/solve_kalah.py --empty-capture   # the variant Irving et al. (2000) solved

The value is the first player's final margin (store - opponent's store, in seeds) under perfect
play by both sides; the perfect first move is the pit nearest the store among the best. Standard
rules (no capture when the opposite pit is empty, game ends when either side is empty), or with
``--empty-capture`` the lone last seed is stored even then.
Writes solver_kalah[_empty_capture].json and .md to ``--results-dir`` (default
benchmarks/results/solve_kalah/).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from mancala_marl.agents import make_policy
from mancala_marl.games import make_game
from results_dir import add_results_dir, results_dir


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--max-pits", type=int, default=4, help="boards of 1..M pits (default 4)")
    parser.add_argument("--max-seeds", type=int, default=4, help="boards of 1..N seeds per pit (default 4)")
    parser.add_argument("--empty-capture", action="store_true", help="the variant Irving et al. (2000) solved")
    add_results_dir(parser)
    args = parser.parse_args()
    command = "python benchmarks/solve_kalah.py " + " ".join(sys.argv[1:])
    rows = []
    for m in range(1, args.max_pits + 1):
        for n in range(1, args.max_seeds + 1):
            game = make_game("kalah", pits=m, seeds=n, empty_capture=args.empty_capture)
            solver = make_policy("solver", max_seeds=10_000, nodes=None)
            start = time.perf_counter()
            value = solver.value(game, game.init())
            move = solver.act(game, game.init())
            rows.append({"pits": m, "seeds": n, "value": value, "first_move": move,
                         "seconds": round(time.perf_counter() - start, 3)})
            print(rows[-1], flush=True)
    folder = results_dir(args)
    name = "solver_kalah_empty_capture" if args.empty_capture else "solver_kalah"
    (folder / f"{name}.json").write_text(json.dumps({"command": command.strip(), "rows": rows}, indent=1))
    seeds = range(1, args.max_seeds + 1)
    rules = ("empty capture (the last seed in an empty own pit is stored even if the opposite pit is empty)"
             if args.empty_capture else "standard (no capture when the opposite pit is empty)")
    md = [f"Made with `{command.strip()}`. Rules: {rules}. First player's margin under perfect play (positive: the first "
          "player wins by that many seeds); the perfect first move in brackets (pit 0 = farthest from the store).",
          "", "| pits \\ seeds | " + " | ".join(str(n) for n in seeds) + " |", "|---|" + "---:|" * len(seeds)]
    for m in range(1, args.max_pits + 1):
        cells = [f"{r['value']:+d} ({r['first_move']})" for r in rows if r["pits"] == m]
        md.append(f"| {m} | " + " | ".join(cells) + " |")
    md.append("")
    md.append(f"Total time {sum(r['seconds'] for r in rows):.1f} s (one process; includes compiling the search "
              "on the first board).")
    (folder / f"{name}.md").write_text("\n".join(md) + "\n")
    print("\n".join(md))
    return 0


if __name__ == "__main__":
    sys.exit(main())
