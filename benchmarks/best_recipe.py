"""Our network recipes, per game, then the final agent (greedy moves, no search) against every
baseline in both seats.

``--recipe scratch`` (reinforcement learning from scratch, no teacher): exactly

    mancala-marl train GAME --recipe scratch --run-dir benchmarks/runs/scratch_GAME

(masked DQN on the vectorized env, the ``moves`` observation with one-hot counts, 4M learner
moves; on Sungka, Kalah and Togyz Kumalak the ``afterstates`` observation scored by an afterstate
network, Sungka for 2.5M moves and Kalah for 8M;
random openings, opponents random/max/exact/exact; docs/research/from_scratch.md).

``--recipe distill``: a MaskablePPO network distilled from alphabeta depth 2 by DAgger
(train/distill.py), with one-hot count features. Exactly

    mancala-marl distill GAME --teacher alphabeta:depth=2 --rounds 6 --states 150000 --workers 2 \
        --eval-games 200 --run-dir benchmarks/runs/distill_GAME

The test (the issue's protocol): 1000 games per seat against random from the usual start; 200
games per seat against max and exact, and 100 against greedy and alpha-beta, each from 4 random
opening moves (the same openings for every opponent and seat: without them two deterministic
policies play one game); 95% Wilson intervals. ``--ceiling`` adds alphabeta:depth=6 against max
and exact from the same openings: what a strong general search wins there (the flag's name is
older than ``benchmarks/ceiling.py``, which proves how many of these openings any play can win).

    .venv/bin/python benchmarks/best_recipe.py sungka --recipe scratch [--eval-only] [--install]

``--install`` copies the final model to agents/pretrained/ (``scratch_GAME.zip``, or ``GAME.zip``
for distill). Writes ``{scratch,distill}_GAME.json``, ``.md`` and the learning curves' ``.png`` to
``--results-dir`` (default ``benchmarks/results/best_recipe/``); ``--model FILE`` tests a model file instead and
writes ``{scratch,distill}_GAME_model.*``, named after how the model was trained.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from mancala_marl.agents import make_policy
from mancala_marl.agents.learned import (
    PRETRAINED_KINDS,
    ModelPolicy,
    read_metadata,
    save_for_shipping,
)
from mancala_marl.games import GAMES, make_game
from mancala_marl.matches.stats import wilson
from mancala_marl.train.distill import DistillConfig, distill
from mancala_marl.matches.evaluation import play
from mancala_marl.cli.plot import plot_curves
from mancala_marl.train.training import ALGO_NAMES, TrainConfig, recipe, train
from results_dir import add_results_dir, results_dir

ROOT = Path(__file__).resolve().parent
PRETRAINED_DIR = ROOT.parent / "agents" / "pretrained"  # the source tree's shipped networks
# opponent: (games per seat, random opening moves)
OPPONENTS = {"random": (1000, 0), "max": (200, 4), "exact": (200, 4), "greedy": (100, 4),
             "alphabeta:depth=2": (100, 4), "alphabeta:depth=4": (100, 4)}
CEILING = "alphabeta:depth=6"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", choices=list(GAMES))
    parser.add_argument("--recipe", choices=["scratch", "distill"], default="scratch")
    parser.add_argument("--workers", type=int, default=2, help="distill: labelling processes")
    parser.add_argument("--scale", type=float, default=1.0, help="test games: this share of the protocol's")
    parser.add_argument("--ceiling", action="store_true", help=f"also play {CEILING} vs max and exact")
    parser.add_argument("--model", default=None, help="test this model file instead (e.g. a shipped network); "
                                                       "writes {scratch,distill}_GAME_model.*, as it was trained")
    parser.add_argument("--eval-only", action="store_true",
                        help="skip training, evaluate the run's final.zip (or, if the run was stopped, its last checkpoint)")
    parser.add_argument("--install", action="store_true", help="copy the final model to agents/pretrained/")
    parser.add_argument("--resume", action="store_true", help="distill: continue the run after its last finished round")
    parser.add_argument("--seed", type=int, default=0)
    add_results_dir(parser)
    args = parser.parse_args(argv)
    import torch
    torch.set_num_threads(1)  # batch-1 inference on a busy 2-core CPU: extra threads only slow it down

    if args.model:
        meta = read_metadata(args.model)
        kind = "distill" if meta.get("trained_by") == "distill" else "scratch"  # train's models say nothing
        args.recipe, title = kind, f"{args.game}: {args.model} ({kind})"  # the report's recipe is the model's
        return report(args, Path(args.model).parent, Path(args.model), meta, meta.get("train_seconds"),
                      f"{kind}_{args.game}_model", title)
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
    run_dir = ROOT / "runs" / f"scratch_{args.game}"
    config = TrainConfig(game=args.game, seed=args.seed, progress_bar=False, **recipe("scratch", args.game))
    if not args.eval_only:
        train(config, run_dir)
    final = finished_model(run_dir)
    meta = read_metadata(final)
    train_seconds = meta.get("train_seconds") or wall_seconds_at(run_dir / "evaluations.csv", meta["timesteps"])
    reads = {"onehot": "one-hot counts", "plain": "plain counts", "afterstate": "afterstate network"}[config.features]
    title = (f"{args.game}: {ALGO_NAMES[config.algo]} from scratch (recipe 'scratch': {config.obs_type} observation, {reads}, "
             f"random openings, opponents {config.opponent}, random seats), {meta['timesteps']} learner moves")
    return report(args, run_dir, final, meta, train_seconds, f"scratch_{args.game}", title)


def finished_model(run_dir: Path) -> Path:
    """The run's final.zip or, for a run stopped early, its last checkpoint."""
    final, last = run_dir / "final.zip", run_dir / "checkpoints" / "last.zip"
    if not final.is_file() and not last.is_file():
        sys.exit(f"best_recipe.py: no trained model in {run_dir} (neither final.zip nor checkpoints/last.zip): "
                 "run it without --eval-only first")
    return final if final.is_file() else last


def report(args, run_dir, final, meta, train_seconds, stem, title) -> int:
    """Test ``final`` against every baseline in both seats; write the table, JSON and curves."""
    game = make_game(args.game)
    agent = ModelPolicy(path=str(final))
    rows = []
    start = time.time()
    players = [("agent", agent, name) for name in OPPONENTS]
    if args.ceiling:
        players += [(CEILING, make_policy(CEILING), name) for name in ("max", "exact")]
    for who, policy, name in players:
        n, opening = OPPONENTS[name]
        n = max(1, int(n * args.scale))
        for seat, seat_name in enumerate(("first", "second")):
            r = play(game, policy, make_policy(name), seat, n, seed=10**6, opening=opening)
            r["ci95"] = wilson(r["wins"], r["games"])
            rows.append({"player": who, "opponent": name, "seat": seat_name, "opening": opening, **r})
            print(f"{args.game}: {who} vs {name:>18} as {seat_name:>6}: {100 * r['win_rate']:5.1f}% wins "
                  f"[{100 * r['ci95'][0]:.1f}, {100 * r['ci95'][1]:.1f}], {r['draws']} draws, "
                  f"margin {r['mean_margin']:+.1f} ({n} games, opening {opening})", flush=True)
    target = time_to_target(run_dir / "evaluations.csv")
    text = render(title, rows, train_seconds, time.time() - start, target)
    print(text)
    folder = results_dir(args)
    (folder / f"{stem}.md").write_text(text)
    (folder / f"{stem}.json").write_text(json.dumps(
        {"game": args.game, "recipe": args.recipe, "metadata": meta, "train_seconds": train_seconds,
         "first_perfect_evaluation_vs_random": target, "rows": rows}, indent=2))
    if (run_dir / "evaluations.csv").is_file():
        xlabel = "labelled positions" if args.recipe == "distill" else "training steps (learner moves)"
        plot_curves(run_dir / "evaluations.csv", folder / f"{stem}.png", title=title.split(" (")[0],
                    xlabel=xlabel)
    if args.install:
        name = PRETRAINED_KINDS["distilled" if args.recipe == "distill" else "scratch"].format(game=args.game)
        PRETRAINED_DIR.mkdir(exist_ok=True)
        save_for_shipping(final, PRETRAINED_DIR / name)
        print(f"installed {PRETRAINED_DIR / name} ({(PRETRAINED_DIR / name).stat().st_size / 1e6:.1f} MB)")
    return 0


def time_to_target(csv_path) -> dict | None:
    """The first training evaluation at which the agent won every game against random in both
    seats (steps and wall seconds), or None."""
    import csv
    if not Path(csv_path).is_file():
        return None
    by_step = {}
    with open(csv_path, newline="") as handle:
        for r in csv.DictReader(handle):
            if r["opponent"] == "random":
                by_step.setdefault(int(r["timesteps"]), {})[r["seat"]] = r
    for step in sorted(by_step):
        seats = by_step[step]
        if len(seats) == 2 and all(float(r["win_rate"]) >= 0.99 for r in seats.values()):
            return {"timesteps": step, "wall_seconds": float(seats["first"]["wall_seconds"]),
                    "games_per_seat": int(seats["first"]["games"])}
    return None


def wall_seconds_at(csv_path, timesteps):
    """Training wall clock at the evaluation nearest ``timesteps`` (for runs stopped at a checkpoint)."""
    import csv
    with open(csv_path, newline="") as handle:
        rows = [r for r in csv.DictReader(handle) if int(r["timesteps"]) <= timesteps + 8 * 256]
    return float(rows[-1]["wall_seconds"]) if rows else None


def render(title, rows, train_seconds, eval_seconds, target) -> str:
    minutes = "?" if train_seconds is None else f"{train_seconds / 60:.1f}"
    lines = [f"#### {title}", "", f"{minutes} min training wall clock on this 2-core machine; the agent plays "
             "greedily (argmax), without search. Win % [95% Wilson interval] (W/D/L); random from the usual "
             "start, the others from 4 random opening moves.", ""]
    if target:
        lines += [f"First training evaluation won in full against random in both seats "
                  f"({target['games_per_seat']} games per seat): {target['timesteps']} steps, "
                  f"{target['wall_seconds'] / 60:.1f} min.", ""]
    lines += ["player | opponent | games per seat | as first | margin | as second | margin", "---|---|---|---|---|---|---"]
    by = {(r["player"], r["opponent"], r["seat"]): r for r in rows}
    for player, name in dict.fromkeys((r["player"], r["opponent"]) for r in rows):
        cells = []
        for seat in ("first", "second"):
            r = by[(player, name, seat)]
            cells += [f"{100 * r['win_rate']:.1f} [{100 * r['ci95'][0]:.1f}, {100 * r['ci95'][1]:.1f}] "
                      f"({r['wins']}/{r['draws']}/{r['losses']})", f"{r['mean_margin']:+.1f}"]
        lines.append(f"{player} | {name} | {by[(player, name, 'first')]['games']} | " + " | ".join(cells))
    lines.append(f"\n(evaluation took {eval_seconds:.0f} s)")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
