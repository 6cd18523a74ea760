"""A run's learning curve measured as the scratch test measures: every kept checkpoint against max
and exact, 200 games per seat from 4 random opening moves.

    mancala-marl train sungka --recipe scratch --keep-checkpoints --run-dir runs/sungka-curve
    .venv/bin/python benchmarks/checkpoint_curve.py runs/sungka-curve [--from 2000000]

The evaluations printed during training play 50 games per cell, whose win rates move by +-7% from
one evaluation to the next by chance alone; 200 games per cell see a real trend. Each checkpoint
plays two sets of openings: the test's own (arena seed 10**6, as ``best_recipe.py``) and a second
set (seed 2 * 10**6) that no test uses, so that a gain on the test's openings alone shows as
such when one checkpoint is picked.

Writes ``<run>.json``, ``.md`` and ``.png`` (wins against checkpoint moves, one line per
opponent, seat and set of openings) to ``--results-dir`` (default
``benchmarks/results/checkpoint_curve/``).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

from mancala_marl.agents import make_policy
from mancala_marl.games import make_game
from mancala_marl.matches.arena import play_match, seat_summary
from mancala_marl.train.callbacks import kept_checkpoints
from results_dir import add_results_dir, results_dir

OPENING_SETS = {"test": 10**6, "other": 2 * 10**6}  # arena seeds; "test" is the scratch test's
OPPONENTS = ("max", "exact")
SEATS = ("first", "second")


def checkpoints(run_dir: Path, start: int) -> list[tuple[int, Path]]:
    kept = [(steps, path) for steps, path in kept_checkpoints(run_dir / "checkpoints") if steps >= start]
    if not kept:
        raise SystemExit(f"{run_dir}/checkpoints holds no model_STEPS_steps.zip from {start} moves on; "
                         "train with --keep-checkpoints")
    return kept


def measure(game, path: Path, games: int) -> dict:
    """Wins of the checkpoint per (set of openings, opponent, seat)."""
    policy = make_policy(f"model:{path}")
    wins = {}
    for name, seed in OPENING_SETS.items():
        for opponent in OPPONENTS:
            records = play_match(game, policy, make_policy(opponent), games, seed=seed, opening=4)
            for seat in SEATS:
                wins[f"{name}/{opponent}/{seat}"] = seat_summary([r for r in records if r["seat"] == seat])["wins"]
    return wins


def table_row(row: dict) -> str:
    """One checkpoint's line of the markdown table: its wins per cell and per set's total."""
    parts = []
    for name in OPENING_SETS:
        values = [row["wins"][f"{name}/{opponent}/{seat}"] for opponent in OPPONENTS for seat in SEATS]
        parts.append(" | ".join(map(str, values)) + f" | {sum(values)}")
    return f"| {row['timesteps']:,} | " + " | ".join(parts) + " |"


def markdown(run: str, games: int, rows: list[dict]) -> str:
    cells = [f"{opponent} {seat[0]}" for opponent in OPPONENTS for seat in SEATS]
    lines = [f"Checkpoints of `{run}`: wins of {games} per seat against max and exact (f = first seat, "
             "s = second) from 4 random opening moves, on the test's openings, then on another set.", "",
             "| moves | " + " | ".join(f"test: {c}" for c in cells) + " | test total | "
             + " | ".join(f"other: {c}" for c in cells) + " | other total |",
             "|---:|" + "---:|" * (2 * len(cells) + 2)]
    return "\n".join(lines + [table_row(row) for row in rows]) + "\n"


def plot(run: str, games: int, rows: list[dict], path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5))
    moves = [row["timesteps"] / 1e6 for row in rows]
    for k, (opponent, seat) in enumerate((o, s) for o in OPPONENTS for s in SEATS):
        for name, style in zip(OPENING_SETS, ("-", "--")):
            share = [100 * row["wins"][f"{name}/{opponent}/{seat}"] / games for row in rows]
            ax.plot(moves, share, style, color=f"C{k}", marker="o", markersize=3,
                    label=f"{opponent}, {seat} seat" + ("" if name == "test" else " (other openings)"))
    ax.axhline(99, color="grey", linewidth=0.8, linestyle=":")
    ax.set_xlabel("learner moves (millions)")
    ax.set_ylabel(f"win % ({games} games per seat)")
    ax.set_title(f"{run}: checkpoints against max and exact, 4 random opening moves")
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("run_dir", type=Path, help="a run trained with --keep-checkpoints")
    parser.add_argument("--from", dest="start", type=int, default=0, help="skip checkpoints before this many moves")
    parser.add_argument("-n", "--games", type=int, default=200, help="games per seat per opponent and set")
    add_results_dir(parser)
    args = parser.parse_args()
    if not (args.run_dir / "config.json").is_file():
        parser.error(f"{args.run_dir} is not a run folder of mancala-marl train (no config.json)")
    config = json.loads((args.run_dir / "config.json").read_text())
    game = make_game(config["game"], **config.get("rule_params", {}))
    run, start, rows = args.run_dir.name, time.time(), []
    for steps, path in checkpoints(args.run_dir, args.start):
        rows.append({"timesteps": steps, "wins": measure(game, path, args.games)})
        print(table_row(rows[-1]), flush=True)
    folder = results_dir(args)
    # Built by name, not with_suffix: a dot in the run's name (runs/x-r0.5) would be taken for one.
    out = {suffix: folder / f"{run}{suffix}" for suffix in (".json", ".md", ".png")}
    out[".json"].write_text(json.dumps(
        {"run": run, "game": game.name, "config": config, "games": args.games, "opening_seeds": OPENING_SETS,
         "rows": rows, "command": "python benchmarks/checkpoint_curve.py " + " ".join(sys.argv[1:]),
         "machine": platform.machine(), "seconds": round(time.time() - start, 1)}, indent=1))
    out[".md"].write_text(markdown(run, args.games, rows))
    plot(run, args.games, rows, out[".png"])
    print(f"wrote {folder / run}.json, .md and .png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
