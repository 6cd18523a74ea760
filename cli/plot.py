"""``mancala-marl plot RUN_DIR``: learning curves (win rate against each baseline, per seat, vs
training steps, labelled or self-play positions) from ``RUN_DIR/evaluations.csv`` to
``RUN_DIR/learning_curves.png``, for runs of ``train``, ``distill`` and ``alphazero``."""

from __future__ import annotations

import csv
import json
import os
from collections import defaultdict
from pathlib import Path

from mancala_marl.errors import BadInput
from mancala_marl.extras import require

from mancala_marl.matches.arena import check_writable
from mancala_marl.train.files import folder_fault

COLUMNS = ("timesteps", "opponent", "seat", "win_rate")  # the ones drawn, of evaluation.CSV_FIELDS


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("plot", help="draw a training run's learning curves to PNG")
    p.add_argument("run_dir", help="a run directory written by `mancala-marl train`, `distill` or `alphazero`")
    p.add_argument("--out", default=None, help="PNG path (default RUN_DIR/learning_curves.png)")
    p.set_defaults(func=run)


def read_curves(csv_path) -> dict:
    """{(opponent, seat): [(timesteps, win rate in %), ...]} from an evaluations.csv, in file order."""
    curves = defaultdict(list)
    not_ours = f"{csv_path} is not an evaluations file of mancala-marl"
    try:
        with open(csv_path, newline="") as handle:
            reader = csv.DictReader(handle)
            # None: an empty file, which a run stopped before it wrote the header leaves
            if reader.fieldnames is not None and not set(COLUMNS) <= set(reader.fieldnames):
                raise BadInput(f"{not_ours}: its first line does not name the columns timesteps, opponent, "
                                 f"seat, ..., win_rate")
            for row in reader:
                # A run stopped while it wrote a row leaves it short, and the next evaluation is
                # appended to that line (one field too many): neither is an evaluation to draw.
                if None in row or None in row.values():
                    continue
                try:
                    curves[(row["opponent"], row["seat"])].append((int(row["timesteps"]),
                                                                    100 * float(row["win_rate"])))
                except ValueError:
                    raise BadInput(f"{csv_path}, line {reader.line_num}: not an evaluation row of "
                                     f"mancala-marl (columns timesteps, opponent, seat, ..., win_rate)") from None
    except (UnicodeDecodeError, csv.Error) as error:
        raise BadInput(f"{not_ours}: it cannot be read as CSV text ({error})") from None
    return curves


def png_path(out) -> Path:
    """The file matplotlib writes for ``out``: it adds ".png" where there is no extension."""
    out = os.fspath(out)
    return Path(out if os.path.splitext(out)[1][1:] else out.rstrip(".") + ".png")


def plot_curves(csv_path, out_path, title: str | None = None,
                xlabel: str = "training steps (learner moves)") -> Path:
    """Plot win rate (%) vs timesteps, one line per (opponent, seat); returns the PNG path."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    curves = read_curves(csv_path)
    if not curves:
        raise BadInput(f"{csv_path} holds no evaluations yet")
    fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    for ax, seat in zip(axes, ("first", "second")):
        for (opponent, s), points in sorted(curves.items()):
            if s == seat:
                points.sort()
                ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", ms=3, label=f"vs {opponent}")
        ax.set_title(f"learner moves {seat}")
        ax.set_xlabel(xlabel)
        ax.set_ylim(-3, 103)
        ax.grid(alpha=0.3)
        if ax.lines:  # a seat with no evaluations: an empty legend is a warning from matplotlib
            ax.legend(fontsize=8)
    axes[0].set_ylabel("win rate (%)")
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    out_path = png_path(out_path)
    fig.savefig(out_path, dpi=100)
    plt.close(fig)
    return out_path


def run(args) -> int:
    require("train", "this command")
    run_dir = Path(args.run_dir)
    csv_path = run_dir / "evaluations.csv"
    fault = folder_fault(run_dir, "run folder", must_exist=True)
    if fault:
        raise BadInput(fault)
    if not csv_path.is_file():
        if not (run_dir / "config.json").is_file():  # every run writes it first
            raise BadInput(f"no evaluations.csv in {run_dir}: not a run directory of `mancala-marl train`, "
                             "`distill` or `alphazero`")
        raise BadInput(f"{run_dir} has no evaluations yet: {first_evaluation(run_dir)}")
    xlabel = "training steps (learner moves)"
    if (run_dir / "data").is_dir():  # a `mancala-marl distill` run counts labelled positions
        xlabel = "labelled positions"
    elif (run_dir / "network.npz").is_file():  # a `mancala-marl alphazero` run counts self-play positions
        xlabel = "self-play positions"
    out = png_path(args.out or run_dir / "learning_curves.png")
    check_writable(out, "--out")
    plot_curves(csv_path, out, title=run_dir.name, xlabel=xlabel)
    print(out)
    return 0


def first_evaluation(run_dir: Path) -> str:
    """When the run in ``run_dir`` writes its first evaluation, from its config.json."""
    try:
        config = json.loads((run_dir / "config.json").read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        config = None
    if not isinstance(config, dict):
        return "its evaluations.csv appears with the first evaluation"
    if "eval_every" in config:  # alphazero
        if not config["eval_every"]:
            return "it runs with --eval-every 0 (no evaluations); --resume --eval-every N turns them on"
        return f"the first comes after generation {config['eval_every']} (--eval-every)"
    if "eval_freq" in config:  # train
        if config.get("timesteps", 0) < config["eval_freq"]:
            return (f"the run is {config['timesteps']} training steps long and evaluates every {config['eval_freq']} "
                    f"(--eval-freq); --resume with a larger --timesteps and a smaller --eval-freq evaluates "
                    f"as it goes on")
        return f"the first comes after {config['eval_freq']} training steps (--eval-freq)"
    if "rounds" in config:  # distill
        return "the first comes after the first round"
    return "its evaluations.csv appears with the first evaluation"
