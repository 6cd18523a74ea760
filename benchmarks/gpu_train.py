"""Train several games one after another in one process, sharing a time budget: what
``benchmarks/gpu.sh session`` runs on a GPU (one process a GPU: processes sharing one are
time-sliced, not run at once).

    python benchmarks/gpu_train.py --seconds 480 --out /tmp/gpu-session/runs
    python benchmarks/gpu_train.py --seconds 60 --games kalah --selfplay-games 64 --out /tmp/r   # a CPU rehearsal

Each game gets an equal share of what is left of ``--seconds`` when its turn comes (its compiling
included), as ``mancala-marl alphazero GAME --backend jax --minutes M`` into ``OUT/GAME``, with
the recipe below; a Ctrl-C (or the SIGINT of ``timeout -s INT``) finishes the generation under
way, saves the run and stops the games still to come. Prints one line a game: its generations,
positions and seconds.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from mancala_marl import cli
from mancala_marl.cli.arguments import INTERRUPTED

# the network's input: Togyz Kumalak reads what each move does (on counts it learned next to nothing
# in 20 CPU minutes, docs/research/alphazero.md); the others their counts
OBS = {"togyz_kumalak": "moves"}
# moves a generation: about twice a game's usual length, so most games end within two generations
MOVES = {"kalah": 128, "sungka": 128}


def recipe(game: str, args) -> list[str]:
    """The options of ``game``'s run: every game the same moves a generation (``--selfplay-games``
    of 128 moves), a buffer of two generations."""
    moves = MOVES.get(game, 256)
    games = args.selfplay_games * 128 // moves
    return ["--games", str(games), "--moves", str(moves), "--sims", str(args.sims), "--hidden", args.hidden,
            "--reuse", str(args.reuse), "--buffer", str(2 * games * moves), "--batch-size", str(args.batch_size),
            "--obs-type", OBS.get(game, "counts"), "--opening", "8", "--eval-every", "0", "--replay-every", "0"]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="+", default=["kalah", "togyz_kumalak", "oware"])
    parser.add_argument("--seconds", type=float, required=True, help="the time of all the games together")
    parser.add_argument("--out", required=True, help="the runs go to OUT/GAME")
    parser.add_argument("--selfplay-games", type=int, default=8192,
                        help="games at once for 128-move games; half as many where a generation is 256 moves")
    parser.add_argument("--sims", type=int, default=32)
    parser.add_argument("--hidden", default="256,256")
    parser.add_argument("--reuse", type=float, default=4.0)
    parser.add_argument("--batch-size", type=int, default=4096)
    args = parser.parse_args(argv)
    deadline = time.monotonic() + args.seconds
    for i, game in enumerate(args.games):
        minutes = (deadline - time.monotonic()) / (len(args.games) - i) / 60
        if minutes <= 0.05:
            print(f"{game}: no time left", flush=True)
            continue
        run_dir = Path(args.out) / game
        started = time.monotonic()
        try:
            code = cli.main(["alphazero", game, "--backend", "jax", "--minutes", f"{minutes:.2f}",
                             "--generations", "100000", *recipe(game, args), "--run-dir", str(run_dir), "--no-progress"])
        except KeyboardInterrupt:  # between two generations' Ctrl-C handlers: the run is saved as it stood
            code = INTERRUPTED
        done = {"game": game, "exit": code, "seconds": round(time.monotonic() - started, 1)}
        network = run_dir / "network.npz"
        if network.is_file():
            with np.load(network) as data:
                meta = json.loads(str(data["__meta__"]))
            done.update(generation=meta["generation"], positions=meta["positions"])
        print(json.dumps(done), flush=True)
        if code == INTERRUPTED:
            return code
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
