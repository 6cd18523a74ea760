"""Every shipped policy graded against perfect play on Kalah(6,4), over whole games, and on Oware
endgames.

    .venv/bin/python benchmarks/grade_policies.py                   # the shipped set of 5,000 positions
    .venv/bin/python benchmarks/grade_policies.py kalah:empty_capture=true
    .venv/bin/python benchmarks/grade_policies.py oware             # the shipped Oware endgames
    .venv/bin/python benchmarks/grade_policies.py --fresh --positions 48    # drawn and solved anew
    .venv/bin/python benchmarks/grade_policies.py kalah:pits=4,seeds=3 --positions 60   # no set: fresh

Where a labelled set ships for the game's rules (:mod:`mancala_marl.endgame.labelled`) the
policies are graded on it, every move's value read from the set (``--positions N``: a
stage-balanced N of them; ``--slow-positions``: as many for the policies slower than 10 ms a move,
named in ``--slow``). Otherwise (``--fresh``), positions are drawn as ``mancala-marl grade --fresh`` draws them (:mod:`mancala_marl.matches.grading`):
games of alphabeta:depth=4 against itself after 4 random moves, an equal share from each of 6
stages by seeds in play; every legal move is valued exactly by the ``perfect`` policy, once for
all the policies. ``solver`` is left out (a search to the end without databases does not finish
on 48 seeds), ``pretrained`` too when torch is not installed, and any policy that does not fit
the game's rules (the shipped networks are trained on the default rules).
Writes grade_<game>.json, .md and .png (share of optimal moves and blunder rate per policy) to
``--results-dir`` (default benchmarks/results/grade_policies/). On Kalah(6,4) the early positions take most of
the time, up to a minute each to solve: 48 positions took about 11 minutes of CPU time.
On Oware the perfect player knows results (win, draw, loss), not margins, and only of endgames
(``--max-seeds``, at most its database's 12 seeds); a position its search does not settle within
its budget is left out and counted by stage.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from pathlib import Path

from mancala_marl.agents import make_policy, split_policy_specs
from mancala_marl.games import parse_game
from mancala_marl.endgame.labelled import shipped_path
from mancala_marl.matches.grading import grade, grade_on_set
from results_dir import add_results_dir, results_dir

POLICIES = ("random", "max", "exact", "simple", "greedy", "alphabeta:depth=2", "alphabeta:depth=4",
            "alphabeta:depth=6", "alphazero:sims=0", "alphazero", "alphazero:time=0.045", "pretrained")


def fitting(game, specs) -> tuple[list[str], dict[str, str]]:
    """The specs that play ``game`` here, and why each other one is left out."""
    kept, left = [], {}
    for spec in specs:
        if spec.startswith("pretrained") and importlib.util.find_spec("torch") is None:
            left[spec] = "torch is not installed"
            continue
        try:
            make_policy(spec).prepare(game)
        except ValueError as error:
            left[spec] = " ".join(str(error).split())
            continue
        kept.append(spec)
    return kept, left


def chart(result: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = sorted(result["policies"], key=lambda row: row["optimal"])
    names = [row["policy"] for row in rows]
    y = range(len(rows))
    fig, ax = plt.subplots(figsize=(7.5, 0.42 * len(rows) + 1.4))
    ax.barh([i + 0.2 for i in y], [100 * row["optimal"] for row in rows], height=0.4, label="optimal moves",
            color="#2b7bba")
    ax.barh([i - 0.2 for i in y], [100 * row["blunders"] for row in rows], height=0.4,
            label="blunders (result thrown away)", color="#d95f02")
    for i, row in enumerate(rows):
        ax.text(100 * row["optimal"] + 1, i + 0.2, f"{100 * row['optimal']:.0f}%", va="center", fontsize=8)
        ax.text(100 * row["blunders"] + 1, i - 0.2, f"{100 * row['blunders']:.0f}%", va="center", fontsize=8)
    ax.set_yticks(list(y), names)
    ax.set_xlim(0, 109)
    ax.set_xlabel("% of moves")
    low, high = result["bins"][0][0], result["bins"][-1][1]
    ax.set_title(f"{result['game']}: {result['positions']} positions ({low}-{high} seeds in play) graded against "
                 "perfect play", fontsize=10)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def regret_text(regret) -> str:
    return "-" if regret is None else f"{regret:.2f}"


def markdown(result: dict, command: str, left: dict[str, str], png: str) -> str:
    per_stage = result["policies"][0]["by_seeds"]
    results_only = all(row["regret"] is None for row in result["policies"])
    worth = ("its result under perfect play (win, draw, loss; the perfect player gives no margins here). "
             "Optimal: the move keeps the best result; blunder: it turns a win into a draw or a loss, or a draw "
             "into a loss (so the two add up to 100%); regret in seeds does not apply"
             if results_only else
             "its final margin under perfect play. Optimal: the move's final margin is the best move's; blunder: "
             "it turns a win into a draw or a loss, or a draw into a loss; regret: seeds of final margin given "
             "away per move")
    drawn = result["positions"] + result["skipped"]
    if result["source"] == "set":
        slow = result.get("slow_positions")
        md = [f"Made with `{command}` ({result['seconds']:.0f} s wall clock, {result['cpu_seconds']:.0f} s of CPU "
              f"time in one process, no solver: every move's value read from the set). {drawn} positions of the "
              f"labelled set shipped for {result['game']} (sha256 {result['set']['sha256'][:12]}, "
              f"`mancala-marl positions {result['game']}`), stages by seeds in play "
              f"{result['bins'][0][0]} to {result['bins'][-1][1]} sharing them equally"
              + (f"; {', '.join(f'`{s}`' for s in result['slow'])} on a stage-balanced {slow} of them" if slow
                 else "") + f". Each move is valued by {worth}. 95% Wilson interval of the optimal share in "
              "brackets.", ""]
    else:
        md = [f"Made with `{command}` ({result['seconds']:.0f} s wall clock, {result['cpu_seconds']:.0f} s of CPU "
              f"time in one process; the perfect player's database of {result['db_seeds']} seeds in play). "
              f"{drawn} positions of {result['game']} with {result['bins'][0][0]} to {result['bins'][-1][1]} seeds "
              f"in play, drawn from games of {' and '.join(result['players'])} after {result['opening']} random "
              f"moves, an equal share from each stage by seeds in play; each move is valued by {worth}. 95% Wilson "
              "interval of the optimal share in brackets.", ""]
    if result["skipped"]:
        md += [f"{result['skipped']} of the {drawn} positions ({100 * result['skipped'] / drawn:.0f}%) were not settled "
               "within the perfect player's search budget and are left out; by stage: " + ", ".join(
                   f"{low}-{high}: {n}" for (low, high), n in zip(result["bins"], result["skipped_by_seeds"])) + ".",
               ""]
    md += ["| policy | optimal | blunders | regret (seeds) | s/move |", "|---|---:|---:|---:|---:|"]
    for row in sorted(result["policies"], key=lambda row: -row["optimal"]):
        low, high = row["optimal_95"]
        md.append(f"| {row['policy']} | {100 * row['optimal']:.1f}% ({100 * low:.1f}-{100 * high:.1f}) | "
                  f"{100 * row['blunders']:.0f}% | {regret_text(row['regret'])} | "
                  f"{row['seconds_per_move']:.4f} |")
    md += ["", "Share of optimal moves by seeds in play (positions in brackets):", "",
           "| policy | " + " | ".join(f"{b['seeds'][0]}-{b['seeds'][1]} ({b['positions']})" for b in per_stage) + " |",
           "|---|" + "---:|" * len(per_stage)]
    for row in sorted(result["policies"], key=lambda row: -row["optimal"]):
        md.append(f"| {row['policy']} | " + " | ".join(
            "-" if b["optimal"] is None else f"{100 * b['optimal']:.0f}%" for b in row["by_seeds"]) + " |")
    if left:
        md += ["", "Left out: " + "; ".join(f"`{spec}` ({why})" for spec, why in left.items()) + "."]
    md += ["", f"![share of optimal moves and blunder rate per policy]({png})"]
    return "\n".join(md) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", nargs="?", default="kalah", help="a game with perfect play (default kalah)")
    parser.add_argument("--positions", type=int, default=None,
                        help="positions graded (default: the whole set; drawn fresh, 48: 8 per stage)")
    parser.add_argument("--fresh", action="store_true", help="draw and solve new positions, not the shipped set's")
    parser.add_argument("--slow", default="alphazero:time=0.045", metavar="SPEC,SPEC",
                        help="policies graded on --slow-positions of the set (default alphazero:time=0.045)")
    parser.add_argument("--slow-positions", type=int, default=1000, metavar="N",
                        help="positions of the set the --slow policies are graded on (default 1000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--opening", type=int, default=4, help="random moves before the strong players take over")
    parser.add_argument("--bins", type=int, default=6, help="stages by seeds in play sharing the positions (default 6)")
    parser.add_argument("--max-seeds", type=int, default=None, metavar="N",
                        help="only positions with at most N seeds in play (endgames; Oware: at most 12)")
    parser.add_argument("--policies", default=",".join(POLICIES), metavar="SPEC,SPEC",
                        help="policies graded, comma-separated (default: every shipped one but solver)")
    add_results_dir(parser)
    args = parser.parse_args()
    command = ("python benchmarks/grade_policies.py " + " ".join(sys.argv[1:])).strip()
    game = parse_game(args.game)
    kept, left = fitting(game, split_policy_specs(args.policies, "--policies"))
    start, cpu = time.perf_counter(), time.process_time()
    if args.fresh or shipped_path(game) is None:
        result = grade(game, kept, positions=args.positions or 48, seed=args.seed, opening=args.opening,
                       bins=args.bins, max_seeds=args.max_seeds, progress=True)
    else:
        slow = [spec for spec in split_policy_specs(args.slow, "--slow") if spec in kept]
        result = grade_on_set(game, [spec for spec in kept if spec not in slow], positions=args.positions,
                              seed=args.seed, progress=True)
        if slow:
            some = grade_on_set(game, slow, positions=args.slow_positions, seed=args.seed, progress=True)
            result["policies"] += some["policies"]
            result["slow"], result["slow_positions"] = slow, some["positions"]
    result["db_seeds"] = make_policy("perfect").db_seeds_for(game)
    result["seconds"] = round(time.perf_counter() - start, 1)
    result["cpu_seconds"] = round(time.process_time() - cpu, 1)
    result["command"], result["left_out"] = command, left
    folder = results_dir(args)
    name = f"grade_{game.name}"
    (folder / f"{name}.json").write_text(json.dumps(result, indent=1))
    chart(result, folder / f"{name}.png")
    text = markdown(result, command, left, f"{name}.png")
    (folder / f"{name}.md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
