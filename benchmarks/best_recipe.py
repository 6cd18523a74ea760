"""Our recipes, per game, then the final agent (greedy moves, no search) against every baseline in
both seats.

``--recipe distill`` (the best): a MaskablePPO network distilled from alphabeta depth 2 by DAgger
(train/distill.py), with one-hot count features. Exactly the command line:

    mancala-marl distill GAME --teacher alphabeta:depth=2 --rounds 6 --states 150000 --workers 2 \
        --eval-games 200 --run-dir benchmarks/runs/distill_GAME

``--recipe ppo``: MaskablePPO from scratch, random seats, an opponent pool of baselines plus
self-play snapshots, reward score_diff scaled to [-1, 1]. Exactly the command line:

    mancala-marl train GAME --algo maskable-ppo --opponent selfplay --pool random,max,exact,greedy \\
        --snapshot-prob 0.3 --seat random --timesteps N --eval-freq 50000 --checkpoint-freq 50000 \\
        --snapshot-freq 50000 --run-dir benchmarks/runs/best_GAME

(``--pool random,max,exact`` on Sungka, where greedy is too slow to train against.)

    .venv/bin/python benchmarks/best_recipe.py sungka [--recipe ppo --timesteps 500000] [--install]

``--install`` copies the final model to agents/pretrained/GAME.zip. Writes
benchmarks/results/{distill,best_recipe}_GAME.{json,md} and the learning curves PNG.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path

from mancala_marl.agents import make_policy
from mancala_marl.agents.learned import ModelPolicy, read_metadata
from mancala_marl.games import make_game
from mancala_marl.train.distill import DistillConfig, distill
from mancala_marl.train.evaluation import play
from mancala_marl.train.plot import plot_curves
from mancala_marl.train.training import TrainConfig, train

ROOT = Path(__file__).resolve().parent
PRETRAINED_DIR = ROOT.parent / "agents" / "pretrained"  # the source tree's shipped networks
OPPONENTS = ("random", "max", "exact", "greedy", "alphabeta:depth=2", "alphabeta:depth=4")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="our recipes (distilled alphabeta, or MaskablePPO + self-play "
                                                 "pool), tested in both seats against every baseline")
    parser.add_argument("game", choices=["sungka", "kalah", "togyz_kumalak"])
    parser.add_argument("--recipe", choices=["distill", "ppo"], default="distill")
    parser.add_argument("--timesteps", type=int, default=500_000, help="ppo: learner moves")
    parser.add_argument("--workers", type=int, default=2, help="distill: labelling processes")
    parser.add_argument("--games", type=int, default=1000, help="test games per seat vs random")
    parser.add_argument("--games-other", type=int, default=50, help="test games per seat vs the other baselines")
    parser.add_argument("--eval-only", action="store_true",
                        help="skip training, evaluate the run's final.zip (or, if the run was stopped, its last checkpoint)")
    parser.add_argument("--install", action="store_true", help="copy the final model to agents/pretrained/")
    parser.add_argument("--resume", action="store_true", help="distill: continue the run after its last finished round")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    import torch
    torch.set_num_threads(1)  # batch-1 inference on a busy 2-core CPU: extra threads only slow it down

    if args.recipe == "distill":
        run_dir = ROOT / "runs" / f"distill_{args.game}"
        config = DistillConfig(game=args.game, teacher="alphabeta:depth=2", rounds=6, states_per_round=150_000,
                               workers=args.workers, eval_games=200, seed=args.seed, progress_bar=False)
        if not args.eval_only:
            distill(config, run_dir, resume=args.resume)
        final = finished_model(run_dir)
        meta = read_metadata(final)
        title = (f"{args.game}: MaskablePPO network distilled from {config.teacher} (DAgger, {meta['rounds']} rounds, "
                 f"{meta['positions']} labelled positions, pool {', '.join(config.pool)}, random seats)")
        return report(args, run_dir, final, meta, meta["train_seconds"], f"distill_{args.game}", title)
    run_dir = ROOT / "runs" / f"best_{args.game}"
    # greedy follows every chain of extra turns; on Sungka that costs ~0.7 s a game, too slow for the pool.
    pool = ["random", "max", "exact"] + ([] if args.game == "sungka" else ["greedy"])
    config = TrainConfig(game=args.game, algo="maskable-ppo", opponent="selfplay", seat="random",
                         reward="score_diff", timesteps=args.timesteps, n_envs=8, seed=args.seed,
                         pool_baselines=pool, snapshot_prob=0.3,
                         eval_freq=50_000, eval_games=10, eval_opponents=pool,
                         checkpoint_freq=50_000, snapshot_freq=50_000, progress_bar=False)
    if not args.eval_only:
        train(config, run_dir)
    final = finished_model(run_dir)
    meta = read_metadata(final)
    train_seconds = meta.get("train_seconds") or wall_seconds_at(run_dir / "evaluations.csv", meta["timesteps"])
    title = (f"{args.game}: MaskablePPO, self-play pool ({', '.join(config.pool_baselines)} + snapshots), "
             f"random seats, {meta['timesteps']} learner moves")
    return report(args, run_dir, final, meta, train_seconds, f"best_recipe_{args.game}", title)


def finished_model(run_dir: Path) -> Path:
    """The run's final.zip or, for a run stopped early, its last checkpoint."""
    final = run_dir / "final.zip"
    return final if final.is_file() else run_dir / "checkpoints" / "last.zip"


def report(args, run_dir, final, meta, train_seconds, stem, title) -> int:
    """Test ``final`` against every baseline in both seats; write the table, JSON and curves."""
    game = make_game(args.game)
    agent = ModelPolicy(path=str(final))
    rows = []
    start = time.time()
    for name in OPPONENTS:
        n = args.games if name == "random" else args.games_other
        for seat, seat_name in enumerate(("first", "second")):
            r = play(game, agent, make_policy(name), seat, n, seed=10**6)
            rows.append({"opponent": name, "seat": seat_name, **r})
            print(f"{args.game} vs {name:>18} as {seat_name:>6}: {100 * r['win_rate']:5.1f}% wins, "
                  f"{r['draws']} draws, margin {r['mean_margin']:+.1f} ({n} games)", flush=True)
    text = render(title, rows, train_seconds, time.time() - start)
    print(text)
    (ROOT / "results").mkdir(exist_ok=True)
    (ROOT / "results" / f"{stem}.md").write_text(text)
    (ROOT / "results" / f"{stem}.json").write_text(json.dumps(
        {"game": args.game, "recipe": args.recipe, "metadata": meta, "train_seconds": train_seconds, "rows": rows},
        indent=2))
    if (run_dir / "evaluations.csv").is_file():
        xlabel = "labelled positions" if args.recipe == "distill" else "training steps (learner moves)"
        plot_curves(run_dir / "evaluations.csv", ROOT / "results" / f"{stem}.png", title=title.split(" (")[0],
                    xlabel=xlabel)
    if args.install:
        PRETRAINED_DIR.mkdir(exist_ok=True)
        shutil.copyfile(final, PRETRAINED_DIR / f"{args.game}.zip")
        print(f"installed {PRETRAINED_DIR / (args.game + '.zip')}")
    return 0


def wall_seconds_at(csv_path, timesteps):
    """Training wall clock at the evaluation nearest ``timesteps`` (for runs stopped at a checkpoint)."""
    import csv
    with open(csv_path, newline="") as handle:
        rows = [r for r in csv.DictReader(handle) if int(r["timesteps"]) <= timesteps + 8 * 256]
    return float(rows[-1]["wall_seconds"]) if rows else None


def render(title, rows, train_seconds, eval_seconds) -> str:
    minutes = "?" if train_seconds is None else f"{train_seconds / 60:.1f}"
    lines = [f"#### {title}", "", f"{minutes} min training wall clock on this 2-core machine; the agent plays "
             "greedily (argmax), without search.", "",
             "opponent | as first: win % (W/D/L) | margin | as second: win % (W/D/L) | margin", "---|---|---|---|---"]
    by = {(r["opponent"], r["seat"]): r for r in rows}
    for name in OPPONENTS:
        cells = []
        for seat in ("first", "second"):
            r = by[(name, seat)]
            cells += [f"{100 * r['win_rate']:.1f} ({r['wins']}/{r['draws']}/{r['losses']})", f"{r['mean_margin']:+.1f}"]
        lines.append(f"{name} | " + " | ".join(cells))
    lines.append(f"\n(evaluation took {eval_seconds:.0f} s)")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
