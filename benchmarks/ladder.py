"""Strength ladder: every policy we ship, rated on every registered game, with its time per move.

    .venv/bin/python benchmarks/ladder.py                        # the full ladder (hours on 2 cores)
    .venv/bin/python benchmarks/ladder.py -n 10 --strong-n 4 --games kalah --results-dir /tmp/ladder   # a quick look
    .venv/bin/python benchmarks/ladder.py -n 50 --strong-n 10 --replay alphazero:sims=0 alphazero:time=0.045   # a shipped network changed

Two round robins per game, both seats, every game from ``--opening`` (default 4) uniformly random
moves, the same in both seats (the rule policies are deterministic: without it each pairing
would be one game repeated):

- the **field**, ``-n`` games per seat and pair: the rule policies, alpha-beta to depth 2 and 4,
  the shipped networks alone (distilled, from scratch, AlphaZero's network without search);
- the **top**, ``--strong-n`` games per seat and pair: alpha-beta to depth 4 and 6, alpha-beta
  with ten times AlphaZero's time (``alphabeta:depth=64,time_limit=0.5``) and AlphaZero with
  search (``alphabeta:depth=4`` links the two round robins).

Games already in ``results/ladder/ladder.json`` from a run with the same ``-n``, ``--strong-n`` and
``--opening`` are kept, so the games can be run one at a time (games run with other settings are
dropped: try other settings with ``--results-dir``); ``--replay POLICY [POLICY ...]`` keeps a game's
pairs and timings too, except those of these policies, which are played again (after a network
changed), and the ratings are fitted again. Ratings: Bradley-Terry on all the
games of a game's ladder (Elo scale, mean 1500). Then each policy's mean milliseconds per move,
over ``--timing-games`` games against greedy. A shipped policy with no network for a game is left
out of that game's ladder. Writes ``ladder.json`` and ``ladder.md`` to ``--results-dir`` (default
``benchmarks/results/ladder/``), and prints the AlphaZero targets: points per game (win 1, draw
1/2) over both seats against ``alphabeta:depth=6`` and the time-limited alpha-beta, and the
network alone's rating against ``alphabeta:depth=2``'s.
"""

from __future__ import annotations

import argparse
import itertools
import json
import platform
import sys
import time

import numpy as np

from mancala_marl.agents import make_policy
from mancala_marl.games import GAMES as REGISTRY
from mancala_marl.games import MAX_MOVES, make_game
from mancala_marl.matches.arena import arena, play_opening
from mancala_marl.matches.tournament import elo_ratings, score_matrix, tournament_markdown
from results_dir import add_results_dir, results_dir

ALPHAZERO = "alphazero:time=0.045"  # a 45 ms budget: with the network's own overhead, <= 50 ms a move
TIMED_ALPHABETA = "alphabeta:depth=64,time_limit=0.5"
FIELD = ["random", "max", "exact", "simple", "greedy", "alphabeta:depth=2", "alphabeta:depth=4", "pretrained",
         "pretrained:kind=distilled", "alphazero:sims=0"]
TOP = ["alphabeta:depth=4", "alphabeta:depth=6", TIMED_ALPHABETA, ALPHAZERO]


def available(spec: str, game) -> bool:
    """Whether ``spec`` can play ``game`` (a shipped network exists for it)."""
    try:
        policy = make_policy(spec)
        policy.act(game, game.init())
        return True
    except ValueError:
        return False


def time_per_move(game, spec: str, games: int, seed: int = 0) -> dict:
    """Milliseconds per move of ``spec`` over ``games`` games against greedy (seats alternating,
    4 random opening moves); the first move is played before the clock (compilation)."""
    policy, opponent = make_policy(spec), make_policy("greedy")
    policy.act(game, game.init())
    times = []
    rng = np.random.default_rng(seed)
    for g in range(games):
        policy.reset(g)
        state, seat = game.init(), g % 2
        ply = play_opening(game, state, rng, 4)
        while not game.is_terminal(state) and ply < MAX_MOVES:
            if game.to_move(state) == seat:
                start = time.perf_counter()
                move = policy.act(game, state.copy())
                times.append(time.perf_counter() - start)
            else:
                move = opponent.act(game, state.copy())
            game.apply(state, move)
            ply += 1
    t = 1000 * np.array(times)
    return {"moves": len(t), "mean_ms": float(t.mean()), "p99_ms": float(np.quantile(t, 0.99)), "max_ms": float(t.max())}


def points(result: dict) -> float:
    o = result["overall"]
    return (o["wins"] + 0.5 * o["draws"]) / o["games"]


def ladder(name: str, args, old: dict | None = None) -> dict:
    """The ladder of game ``name``; pairs and timings of ``old`` (the game's earlier ladder) that
    do not involve a policy of ``args.replay`` are kept rather than played again."""
    game = make_game(name)
    kept = {} if old is None else {(r["a"], r["b"]): r for r in old["pairs"] if not {r["a"], r["b"]} & set(args.replay)}
    field = [p for p in FIELD if available(p, game)]
    top = [p for p in TOP if available(p, game)]
    pairs = {(a, b): args.n for a, b in itertools.combinations(field, 2)}
    pairs.update({(a, b): args.strong_n for a, b in itertools.combinations(top, 2) if (a, b) not in pairs})
    results = []
    for (a, b), n in pairs.items():
        if (a, b) in kept:
            results.append(kept[(a, b)])
            continue
        start = time.time()
        result = arena(name, a, b, n, args.seed, args.workers, args.opening)
        result["seconds"] = round(time.time() - start, 1)
        results.append(result)
        o = result["overall"]
        print(f"  {name}: {a} vs {b}: {o['wins']}-{o['draws']}-{o['losses']} ({result['seconds']:.0f} s)", flush=True)
    policies = list(dict.fromkeys(field + top))
    ratings = elo_ratings(policies, results)
    timing = {p: old["timing"][p] if old is not None and p not in args.replay and p in old["timing"]
              else time_per_move(game, p, args.timing_games, args.seed) for p in policies}
    for p in policies:
        print(f"  {name}: {p} {ratings[p]:.0f}, {timing[p]['mean_ms']:.2f} ms per move", flush=True)
    targets = {}
    if ALPHAZERO in top:
        for opponent in ("alphabeta:depth=6", TIMED_ALPHABETA):
            found = [r for r in results if {r["a"], r["b"]} == {ALPHAZERO, opponent}]
            if found:
                r = found[0]
                targets[f"{ALPHAZERO} points per game vs {opponent}"] = points(r) if r["a"] == ALPHAZERO else 1 - points(r)
    if "alphazero:sims=0" in field:
        targets["network alone rating - alphabeta:depth=2 rating"] = (ratings["alphazero:sims=0"]
                                                                      - ratings["alphabeta:depth=2"])
    return {"game": name, "policies": policies, "field": field, "top": top, "pairs": results, "ratings": ratings,
            "timing": timing, "targets": targets,
            "matrix": score_matrix({"policies": policies, "pairs": results, "games_per_seat": args.n})}


def markdown(out: dict) -> str:
    lines = [f"Made with `{out['command']}` on {out['machine']}: {out['games_per_seat']} games per seat and pair in "
             f"the field, {out['strong_games_per_seat']} in the top, {out['opening']} random opening moves.", ""]
    names = [n for n in REGISTRY if n in out["ladders"]]  # registry order, however the games were run
    policies = list(dict.fromkeys(p for name in names for p in out["ladders"][name]["policies"]))
    lines += ["| policy | " + " | ".join(f"{n} rating (ms/move)" for n in names) + " |",
              "|---|" + "---:|" * len(names)]
    for p in sorted(policies, key=lambda p: -np.mean([out["ladders"][n]["ratings"].get(p, 0) for n in names])):
        cells = []
        for n in names:
            lad = out["ladders"][n]
            cells.append(f"{lad['ratings'][p]:.0f} ({lad['timing'][p]['mean_ms']:.1f})" if p in lad["ratings"] else "-")
        lines.append(f"| `{p}` | " + " | ".join(cells) + " |")
    lines += ["", "AlphaZero targets (points per game over both seats; rating gap):", ""]
    for n in names:
        for key, value in out["ladders"][n]["targets"].items():
            lines.append(f"- {n}: {key}: {value:.3f}")
    for n in names:  # the full tables: each pair's points, blank where the pair did not play
        lad = out["ladders"][n]
        lines += ["", f"### {n}", "", "Row's points per game against column (win 1, draw 1/2), both seats.", "",
                  tournament_markdown(lad)]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", type=int, default=100, help="games per seat per pair in the field (default 100)")
    parser.add_argument("--strong-n", type=int, default=20, help="games per seat per pair in the top (default 20)")
    parser.add_argument("--opening", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", nargs="+", default=list(REGISTRY), choices=list(REGISTRY))
    parser.add_argument("--timing-games", type=int, default=4)
    parser.add_argument("--out", default="ladder", help="name of the results files, without .json/.md (default ladder)")
    add_results_dir(parser)
    parser.add_argument("--replay", metavar="POLICY", nargs="+",
                        help="keep the earlier ladder's games and timings except those of these policies, which are "
                             "played again")
    args = parser.parse_args()
    out = {"command": ("python benchmarks/ladder.py " + " ".join(sys.argv[1:])).strip(),
           "machine": f"{platform.processor() or platform.machine()}, {args.workers} worker processes",
           "games_per_seat": args.n, "strong_games_per_seat": args.strong_n, "opening": args.opening, "ladders": {}}
    folder = results_dir(args)
    path = folder / f"{args.out}.json"
    earlier = {}
    if path.is_file():  # games run earlier with the same settings stay (one game a run is fine)
        old = json.loads(path.read_text())
        if all(old.get(k) == out[k] for k in ("games_per_seat", "strong_games_per_seat", "opening")):
            earlier = old["ladders"]
            out["ladders"] = {k: v for k, v in old["ladders"].items() if k not in args.games}
            if out["ladders"]:
                out["command"] = "; ".join(dict.fromkeys(old["command"].split("; ") + [out["command"]]))
    for name in args.games:
        start = time.time()
        old = earlier.get(name) if args.replay else None
        out["ladders"][name] = ladder(name, args, old)
        if old is None:
            out["ladders"][name]["seconds"] = round(time.time() - start)
        else:  # the whole ladder's time stays; the replay's is beside it
            out["ladders"][name]["seconds"] = old.get("seconds")
            out["ladders"][name]["replay_seconds"] = round(time.time() - start)
        path.write_text(json.dumps(out, indent=1))  # after each game: nothing lost
    (folder / f"{args.out}.md").write_text(markdown(out))
    print(markdown(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
