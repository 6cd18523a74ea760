"""Strength ladder: round robin of the baseline policies on each game, plus alpha-beta's time per move.

    .venv/bin/python benchmarks/ladder.py                 # 100 games per seat = 200 per pair
    .venv/bin/python benchmarks/ladder.py -n 10 --games kalah   # a quick look

Every game starts with ``--opening`` (default 4) uniformly random moves, the same in both seats:
the rule policies are deterministic, so without it each pairing would be one game repeated.
Writes benchmarks/results/ladder.json and ladder.md.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

import numpy as np

from mancala_marl.agents import make_policy
from mancala_marl.games import make_game
from mancala_marl.train.tournament import round_robin, tournament_markdown

LADDER = ["random", "max", "exact", "simple", "greedy", "alphabeta:depth=2", "alphabeta:depth=4"]
GAMES = ["kalah", "sungka", "togyz_kumalak"]
RESULTS = Path(__file__).resolve().parent / "results"


def time_per_move(game_name: str, spec: str, games: int, seed: int = 0) -> dict:
    """Seconds per move of ``spec`` over ``games`` games against greedy (seats alternating, 4 random opening moves)."""
    game = make_game(game_name)
    policy, opponent = make_policy(spec), make_policy("greedy")
    policy.act(game, game.init())  # compile outside the clock
    times, nodes = [], []
    rng = np.random.default_rng(seed)
    for g in range(games):
        policy.reset(g)
        state, seat, ply = game.init(), g % 2, 0
        while not game.is_terminal(state):
            if ply < 4:
                move = int(rng.choice(np.flatnonzero(game.legal_mask(state))))
            elif game.to_move(state) == seat:
                before, start = policy.nodes, time.perf_counter()
                move = policy.act(game, state.copy())
                times.append(time.perf_counter() - start)
                nodes.append(policy.nodes - before)
            else:
                move = opponent.act(game, state.copy())
            game.apply(state, move)
            ply += 1
    t = np.array(times)
    return {"game": game_name, "policy": spec, "moves": len(t), "mean_ms": 1000 * t.mean(),
            "median_ms": 1000 * np.median(t), "p99_ms": 1000 * np.quantile(t, 0.99), "max_ms": 1000 * t.max(),
            "mean_nodes": float(np.mean(nodes))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", type=int, default=100, help="games per seat per pair (default 100)")
    parser.add_argument("--opening", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", nargs="+", default=GAMES)
    parser.add_argument("--timing-games", type=int, default=20)
    parser.add_argument("--out", default="ladder")
    args = parser.parse_args()
    command = "python benchmarks/ladder.py " + " ".join(sys.argv[1:])
    out = {"command": command.strip(), "machine": f"{platform.processor() or platform.machine()}, "
           f"{args.workers} worker processes", "games_per_seat": args.n, "opening": args.opening, "ladders": {},
           "timing": []}
    md = [f"Made with `{out['command']}` ({args.n} games per seat, {2 * args.n} per pair, "
          f"{args.opening} random opening moves, seed {args.seed}).", ""]
    for name in args.games:
        start = time.time()
        result = round_robin(name, LADDER, args.n, args.seed, args.workers, args.opening,
                             progress=lambda r: print(f"  {r['a']} vs {r['b']}: {r['overall']['wins']}-"
                                                      f"{r['overall']['draws']}-{r['overall']['losses']}",
                                                      flush=True))
        result["seconds"] = time.time() - start
        out["ladders"][name] = result
        md += [f"### {name}", "", "Row's points per game against column (win 1, draw 0.5), both seats; "
               "Elo-style rating (mean 1500).", "", tournament_markdown(result), ""]
        print(f"{name} done in {result['seconds']:.0f}s", flush=True)
    md += ["### alphabeta depth 4: time per move (single process, against greedy)", "",
           "| game | moves timed | mean ms | median ms | p99 ms | max ms | mean nodes |",
           "|---|---:|---:|---:|---:|---:|---:|"]
    for name in args.games:
        t = time_per_move(name, "alphabeta:depth=4", args.timing_games, args.seed)
        out["timing"].append(t)
        md.append(f"| {name} | {t['moves']} | {t['mean_ms']:.2f} | {t['median_ms']:.2f} | {t['p99_ms']:.1f} | "
                  f"{t['max_ms']:.1f} | {t['mean_nodes']:.0f} |")
        print(md[-1], flush=True)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{args.out}.json").write_text(json.dumps(out, indent=1))
    (RESULTS / f"{args.out}.md").write_text("\n".join(md) + "\n")
    print("\n".join(md))
    return 0


if __name__ == "__main__":
    sys.exit(main())
