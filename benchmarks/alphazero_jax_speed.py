"""AlphaZero self-play speed over the JAX engines, beside Pgx's connect_four in the same harness.

    .venv-jax/bin/python benchmarks/alphazero_jax_speed.py                 # 4,096 games at once, 64 simulations
    .venv-jax/bin/python benchmarks/alphazero_jax_speed.py --batch 16384   # a GPU's batch
    .venv-jax/bin/python benchmarks/alphazero_jax_speed.py --quick         # 64 games, 8 moves: a smoke run

Each figure is self-play moves per second: the self-play of ``mancala-marl alphazero --backend jax``
(:func:`mancala_marl.train.alphazero.jax.selfplay.selfplay_fn`: one ``lax.scan`` of ``--moves``
steps, mctx's ``gumbel_muzero_policy`` at every step of every game, finished games started again)
with an untrained MLP of ``--hidden`` layers, timed after a first (compiling) run, the median of
``--reps`` runs. Every game gets the same network shape, the same search settings and the same
batch: our games read the features of the ``alphazero`` policy (``--obs-type``), Pgx's
connect_four its own observation, flattened. Writes ``alphazero_jax_speed.json`` and ``.md`` to
``--results-dir`` (default benchmarks/results; ``--quick`` writes nothing unless one is given).
"""

from __future__ import annotations

import json
import statistics
import sys
import time

from jax_speed import games_parser, label, machine, make_env
from mancala_marl.games import VARIANTS, make_game
from results_dir import NOTHING_WRITTEN, add_quick_results_dir, quick_results_dir

PGX_PEERS = ("connect_four",)


def harness(name: str, batch: int, moves: int, sims: int, hidden: list, obs_type: str):
    """(jitted ``(params, key) -> positions``, params) of the self-play of game ``name``."""
    import jax
    import numpy as np

    from mancala_marl.agents import alphazero as az_policy
    from mancala_marl.jax import make
    from mancala_marl.train.alphazero.jax.network import feature_fn, init_params
    from mancala_marl.train.alphazero.jax.selfplay import selfplay_fn

    if name in VARIANTS:
        game = make_game(name)
        env, features = make(name, obs_type=obs_type), feature_fn(game, obs_type)
        inputs = az_policy.feature_layout(game, obs_type)[1]
    else:
        env = make_env(name)
        shape = env.observation_shape

        def features(obs):
            return obs.reshape(*obs.shape[:obs.ndim - len(shape)], -1).astype(np.float32)
        inputs = int(np.prod(shape))
    params = init_params(jax.random.key(0), inputs, hidden, env.num_actions)
    return jax.jit(selfplay_fn(env, features, batch, moves, sims)), params


def rate(name: str, batch: int, moves: int, sims: int, hidden: list, obs_type: str, reps: int) -> dict:
    import jax

    run, params = harness(name, batch, moves, sims, hidden, obs_type)
    start = time.perf_counter()
    jax.block_until_ready(run(params, jax.random.key(1)))
    first = time.perf_counter() - start
    rates = []
    for rep in range(reps):
        start = time.perf_counter()
        jax.block_until_ready(run(params, jax.random.key(2 + rep)))
        rates.append(batch * moves / (time.perf_counter() - start))
    return {"moves_per_s": statistics.median(rates), "first_run_s": first}


def markdown(results: dict) -> str:
    lines = [f"AlphaZero self-play, moves per second ({results['machine']['device']}; {results['batch']} games at "
             f"once, {results['sims']} simulations, MLP {results['hidden']}; `{results['command']}`)", "",
             "| game | moves/s | first run (s) |", "|---|---|---|"]
    for name, row in results["games"].items():
        lines.append(f"| {label(name)} | {row['moves_per_s']:,.0f} | {row['first_run_s']:.1f} |")
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = games_parser(__doc__, PGX_PEERS)
    parser.add_argument("--batch", type=int, default=4096, help="games at once (default 4096)")
    parser.add_argument("--sims", type=int, default=64, help="simulations per move (default 64)")
    parser.add_argument("--moves", type=int, default=32, help="moves of every game per timed run (default 32)")
    parser.add_argument("--hidden", default="256,256", help="hidden layer sizes (default 256,256)")
    parser.add_argument("--obs-type", default="counts", help="our games' network input (default counts, as training)")
    parser.add_argument("--quick", action="store_true", help="64 games, 8 moves, 8 simulations, 1 run: a smoke run")
    add_quick_results_dir(parser, "alphazero_jax_speed.json and .md")
    args = parser.parse_args(argv)
    if args.quick:
        args.batch, args.moves, args.sims, args.reps = 64, 8, 8, 1
    if min(args.batch, args.sims, args.moves, args.reps) < 1:
        parser.error("--batch, --sims, --moves and --reps must be at least 1")
    hidden = [int(size) for size in args.hidden.split(",")]
    command = "python benchmarks/alphazero_jax_speed.py " + " ".join(argv if argv is not None else sys.argv[1:])
    results = {"command": command.strip(), "machine": machine(), "batch": args.batch, "sims": args.sims,
               "moves": args.moves, "hidden": hidden, "obs_type": args.obs_type, "games": {}}
    print(f"machine: {results['machine']}", flush=True)
    for name in args.games:
        figure = rate(name, args.batch, args.moves, args.sims, hidden, args.obs_type, args.reps)
        results["games"][name] = figure
        print(f"{name:14s}: {figure['moves_per_s']:12,.0f} moves/s (first run {figure['first_run_s']:.1f} s)",
              flush=True)
    table = markdown(results)
    print(table)
    folder = quick_results_dir(args, args.quick)
    if folder is None:
        print(NOTHING_WRITTEN)
        return
    stem = "alphazero_jax_speed"
    (folder / f"{stem}.json").write_text(json.dumps(results, indent=2))
    (folder / f"{stem}.md").write_text(table)
    print(f"wrote {folder / f'{stem}.json'} and {stem}.md")


if __name__ == "__main__":
    main()
