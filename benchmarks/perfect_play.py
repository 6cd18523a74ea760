"""Perfect play, measured: endgame database builds and the exact values of Kalah(6, n).

    .venv/bin/python benchmarks/perfect_play.py                      # databases up to 20 seeds, Kalah(6,1..4)
    .venv/bin/python benchmarks/perfect_play.py --db-seeds 24 --max-seeds 5
    .venv/bin/python benchmarks/perfect_play.py --quick              # small boards only, writes nothing
    .venv/bin/python benchmarks/perfect_play.py --rules empty_capture --max-seeds 0 --stretch 5 --stretch-seconds 600

For each rule set (the empty-capture rule of Irving, Donkers & Uiterwijk, 2000, then our
standard rules) it builds the 6-pit database up to ``--db-seeds`` seeds in a fresh folder (one
core: the build is one thread), reports its positions, seconds, positions per second and the
process's peak memory, then solves Kalah(6, 1..``--max-seeds``) from the start with the
``perfect`` policy: the first player's margin, every optimal first move and the seconds. Writes
perfect_play.json and .md to ``--results-dir`` (default benchmarks/results/perfect_play/).
``--stretch N`` then tries Kalah(6, N) for ``--stretch-seconds`` and reports how far MTD(f) got:
the bounds it proved on the first player's margin.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time

from mancala_marl.agents import make_policy
from mancala_marl.endgame import build, database
from mancala_marl.games import make_game
from results_dir import add_quick_results_dir, quick_results_dir

# Irving, Donkers & Uiterwijk, "Solving Kalah", ICGA Journal 23(3), 2000: the first player's margin
PUBLISHED = {1: 2, 2: 10, 3: 2, 4: 10, 5: 12, 6: 2}


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def stretch(game, db_seeds: int, seconds: float) -> dict:
    """How far MTD(f) gets on ``game``'s start in ``seconds``: the bounds it proved on the first
    player's margin (the stores are empty at the start, so the margin is all still to come)."""
    perfect = make_policy("perfect", db_seeds=db_seeds)
    solver = perfect.solver(game)
    start = time.perf_counter()
    low, high = solver.bounds_to_come(game.init(), deadline=start + seconds)
    return {"empty_capture": game.params["empty_capture"], "seeds": game.params["seeds"], "low": low, "high": high,
            "published": PUBLISHED.get(game.params["seeds"]) if game.params["empty_capture"] else None,
            "seconds": round(time.perf_counter() - start, 1), "nodes": solver.nodes}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db-seeds", type=int, default=20, help="database size in seeds in play (default 20)")
    parser.add_argument("--max-seeds", type=int, default=4, help="solve Kalah(6, 1..N) (default 4)")
    parser.add_argument("--rules", choices=("both", "empty_capture", "standard"), default="both",
                        help="the rule sets to build and solve (default both)")
    parser.add_argument("--stretch", type=int, default=0, metavar="N",
                        help="then try Kalah(6, N) for --stretch-seconds and report the bounds proved (default: none)")
    parser.add_argument("--stretch-seconds", type=float, default=600.0)
    parser.add_argument("--quick", action="store_true", help="a smoke run: 12-seed databases, Kalah(6,1..2)")
    add_quick_results_dir(parser, "perfect_play.json and .md")
    args = parser.parse_args()
    if args.quick:
        args.db_seeds, args.max_seeds = 12, 2
    command = "python benchmarks/perfect_play.py " + " ".join(sys.argv[1:])
    build(make_game("kalah", pits=2, seeds=1), 2)  # compiles the builder before any clock starts
    builds, solves, stretches = [], [], []
    for empty_capture in {"both": (True, False), "empty_capture": (True,), "standard": (False,)}[args.rules]:
        with tempfile.TemporaryDirectory() as folder:
            game = make_game("kalah", seeds=1, empty_capture=empty_capture)  # the database is the same for any seeds
            start = time.perf_counter()
            db = database(game, args.db_seeds, folder=folder, progress=sys.stderr.isatty())
            seconds = time.perf_counter() - start
            builds.append({"empty_capture": empty_capture, "db_seeds": args.db_seeds, "positions": db.values.size,
                           "seconds": round(seconds, 1), "positions_per_second": round(db.values.size / seconds),
                           "peak_mib": round(peak_mib())})
            print(builds[-1], flush=True)
            os.environ["MANCALA_MARL_CACHE"] = folder  # the database just built
            for seeds in range(1, args.max_seeds + 1):
                game = make_game("kalah", seeds=seeds, empty_capture=empty_capture)
                perfect = make_policy("perfect", db_seeds=args.db_seeds)
                start = time.perf_counter()
                value, best = perfect.best_moves(game, game.init())
                solves.append({"empty_capture": empty_capture, "seeds": seeds, "value": value, "best_moves": best,
                               "published": PUBLISHED.get(seeds) if empty_capture else None,
                               "seconds": round(time.perf_counter() - start, 1), "nodes": perfect.solver(game).nodes})
                print(solves[-1], flush=True)
            if args.stretch:
                stretches.append(stretch(make_game("kalah", seeds=args.stretch, empty_capture=empty_capture),
                                         args.db_seeds, args.stretch_seconds))
                print(stretches[-1], flush=True)
    folder = quick_results_dir(args, args.quick)
    if folder is None:
        print("--quick: nothing written (give --results-dir to keep the figures)")
        return 0
    (folder / "perfect_play.json").write_text(json.dumps({"command": command.strip(), "builds": builds,
                                                          "solves": solves, "stretches": stretches}, indent=1))
    md = [f"Made with `{command.strip()}` on one core.", "",
          "| rules | database | positions | seconds | positions/s | peak memory |", "|---|---:|---:|---:|---:|---:|"]
    for b in builds:
        rules = "empty capture" if b["empty_capture"] else "standard"
        md.append(f"| {rules} | {b['db_seeds']} seeds | {b['positions']:,} | {b['seconds']} | "
                  f"{b['positions_per_second']:,} | {b['peak_mib']:,} MiB |")
    md += ["", "| Kalah(6,n) | rules | value (first player) | published | optimal first moves | seconds |",
           "|---|---|---:|---:|---|---:|"]
    for s in solves:
        rules = "empty capture" if s["empty_capture"] else "standard"
        published = "" if s["published"] is None else f"{s['published']:+d}"
        md.append(f"| (6,{s['seeds']}) | {rules} | {s['value']:+d} | {published} | "
                  f"{', '.join(map(str, s['best_moves']))} | {s['seconds']} |")
    if stretches:
        md += ["", "| Kalah(6,n) | rules | seconds | first player's margin proved | published | positions searched |",
               "|---|---|---:|---|---:|---:|"]
        for s in stretches:
            rules = "empty capture" if s["empty_capture"] else "standard"
            published = "" if s["published"] is None else f"{s['published']:+d}"
            proved = f"{s['low']:+d}" if s["low"] == s["high"] else f"{s['low']:+d} .. {s['high']:+d}"
            md.append(f"| (6,{s['seeds']}) | {rules} | {s['seconds']} | {proved} | {published} | {s['nodes']:,} |")
    (folder / "perfect_play.md").write_text("\n".join(md) + "\n")
    print("\n".join(md))
    return 0


if __name__ == "__main__":
    sys.exit(main())
