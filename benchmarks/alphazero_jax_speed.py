"""AlphaZero self-play speed over the JAX engines, beside Pgx's connect_four in the same harness.

    .venv-jax/bin/python benchmarks/alphazero_jax_speed.py                 # 4,096 games at once, 64 simulations
    .venv-jax/bin/python benchmarks/alphazero_jax_speed.py --batch 16384   # a GPU's batch
    .venv-jax/bin/python benchmarks/alphazero_jax_speed.py --quick         # 64 games, 8 moves: a smoke run
    .venv-jax/bin/python benchmarks/alphazero_jax_speed.py --games kalah --loop --batch 512 --moves 128 --sims 32

Each figure is self-play moves per second: the self-play of ``mancala-marl alphazero --backend jax``
(:func:`mancala_marl.train.alphazero.jax.selfplay.selfplay_fn`: one ``lax.scan`` of ``--moves``
steps, mctx's ``gumbel_muzero_policy`` at every step of every game, finished games started again)
with an untrained MLP of ``--hidden`` layers, timed after a first (compiling) run, the median of
``--reps`` runs. Every game gets the same network shape, the same search settings and the same
batch: our games read the features of the ``alphazero`` policy (``--obs-type``), Pgx's
connect_four its own observation, flattened.

``--loop`` also times the whole training loop (:func:`loop`) at the same games, simulations,
moves and network, and writes ``loop_efficiency``: the positions that reach the replay buffer a
second (random opening moves counted as kept) over the self-play moves a second of the search
alone. It measures what the loop adds to the search (the targets, the buffer, the fit, the host's
files) and the positions it drops; 1.0 would be a loop that costs nothing beyond its search.

``--breakdown`` says where a move's time goes, from the positions ``--moves`` random moves into
the games: the legal moves there; the **descent steps** of one search (mctx runs a vmapped
``while_loop`` down the tree and one back up at each simulation, so every game waits for the
batch's deepest descent; summed over the simulations: fewer legal moves, deeper trees, more
steps); and the **expansion share**, the time of ``sims`` batched expansions (the move, the
features, the network: what the game adds to the search) over the time of a move. The
**ceiling**, ``moves/s / (1 - share)``, is the rate if expansions cost nothing: the bound that the
search's own steps set, which no faster rules or network can pass. Writes
``alphazero_jax_speed.json`` and ``.md`` to
``--results-dir`` (default benchmarks/results/alphazero_jax_speed/; ``--quick`` writes nothing unless one is given).
"""

from __future__ import annotations

import os
import statistics
import sys
import time

from jax_speed import games_parser, label, machine, make_env
from mancala_marl.cli.arguments import count_argument, param_argument
from mancala_marl.games import VARIANTS, make_game
from mancala_marl.limits import limit
from results_dir import add_quick_results_dir, write_results

PGX_PEERS = ("connect_four",)


def harness(name: str, batch: int, moves: int, sims: int, hidden: list, obs_type: str):
    """(jitted ``(params, key) -> positions``, params, env, features) of the self-play of game ``name``:
    what :func:`rate` times and :func:`breakdown` takes apart."""
    import jax
    import numpy as np

    from mancala_marl.agents import alphazero as az_policy
    from mancala_marl.jax import make
    from mancala_marl.train.alphazero.jax.network import feature_fn, init_params
    from mancala_marl.train.alphazero.jax.selfplay import selfplay_fn, start_fn

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
    play, start = selfplay_fn(env, features, batch, moves, sims), start_fn(env, batch)
    return jax.jit(lambda params, key: play(params, key, start(key))[1]), params, env, features


def rate(run, params, batch: int, moves: int, reps: int) -> dict:
    """Self-play moves per second of ``run`` (:func:`harness`'s), the median of ``reps`` timed runs
    after a first, compiling one."""
    import jax

    start = time.perf_counter()
    jax.block_until_ready(run(params, jax.random.key(1)))
    first = time.perf_counter() - start
    rates = []
    for rep in range(reps):
        start = time.perf_counter()
        jax.block_until_ready(run(params, jax.random.key(2 + rep)))
        rates.append(batch * moves / (time.perf_counter() - start))
    return {"moves_per_s": statistics.median(rates), "first_run_s": first}


def descent_steps(parents) -> float:
    """The steps of a search's descents, from its tree's ``parents`` (batch, nodes): simulation
    ``k`` creates node ``k + 1`` at the end of its descent, and the vmapped loop runs as long as
    the batch's deepest descent, so a simulation costs the maximum over the batch of that node's
    depth. Summed over the simulations."""
    import numpy as np

    parents = np.asarray(parents)
    rows = np.arange(parents.shape[0])
    depth = np.zeros_like(parents)
    for node in range(1, parents.shape[1]):
        parent = parents[:, node]
        depth[:, node] = np.where(parent >= 0, depth[rows, np.maximum(parent, 0)] + 1, 0)
    return float(depth[:, 1:].max(0).sum())


def breakdown(env, features, params, batch: int, moves: int, sims: int, reps: int, moves_per_s: float) -> dict:
    """Where a move's time goes (see the module docstring), from positions ``moves`` random moves in."""
    import jax
    import numpy as np

    from jax_speed import playout
    from mancala_marl.jax.rules import pick_legal
    from mancala_marl.train.alphazero.jax.selfplay import evaluate, search_fn, transition

    states = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.key(0), batch))
    states = playout(env, batch, moves)(states, jax.random.key(3))
    tree = jax.jit(search_fn(env, features, sims))(params, jax.random.key(4), states).search_tree

    @jax.jit
    def expansions(params, states, key):
        def expand(total, key):  # what mctx's recurrent_fn does once per simulation
            actions = pick_legal(jax.random.uniform(key, (batch,)), states.legal_action_mask)
            logits, value = evaluate(params, features, transition(env, states, actions)[0])
            return total + logits.sum() + value.sum(), None
        return jax.lax.scan(expand, 0.0, jax.random.split(key, sims))[0]

    jax.block_until_ready(expansions(params, states, jax.random.key(5)))
    times = []
    for rep in range(reps):
        start = time.perf_counter()
        jax.block_until_ready(expansions(params, states, jax.random.key(6 + rep)))
        times.append(time.perf_counter() - start)
    share = statistics.median(times) / (batch / moves_per_s)
    return {"legal_moves": float(np.asarray(states.legal_action_mask).sum(1).mean()),
            "descent_steps": descent_steps(tree.parents), "expansion_share": share,
            "ceiling_moves_per_s": moves_per_s / (1 - share) if share < 1 else float("inf")}


def loop(name: str, batch: int, moves: int, sims: int, hidden: list, obs_type: str, reps: int) -> dict:
    """The whole training loop of ``mancala-marl alphazero --backend jax`` (:func:`train`, every
    phase: self-play, targets, the buffer, the fit, the export, the checkpoints, the log) at these
    settings and the command's other defaults, evaluations off: positions resolved a second over
    ``reps`` generations after two (compiling, and filling the window of carried games), and the
    mean seconds of each phase."""
    import tempfile

    from mancala_marl.train.alphazero.jax import JaxAlphaZeroConfig, train
    from mancala_marl.train.alphazero.jax.trainer import PHASES

    warmup = 2
    config = JaxAlphaZeroConfig(game=name, games=batch, moves=moves, sims=sims, hidden=hidden, obs_type=obs_type,
                                buffer=max(2 * batch * moves, 4096), generations=warmup + reps + 1, eval_every=0,
                                replay_every=0, progress_bar=False)
    marks, timed = [], []

    def observe(generation, stats):
        marks.append(time.perf_counter())
        if warmup < generation <= warmup + reps:
            timed.append(stats)

    with tempfile.TemporaryDirectory() as folder:
        train(config, folder, observer=observe)
    seconds = marks[warmup + reps - 1] - marks[warmup - 1]
    positions = sum(stats["positions"] for stats in timed)
    return {"loop_positions_per_s": positions / seconds, "loop_moves": moves,
            "lost_share": sum(stats["lost"] for stats in timed) / (batch * moves * reps),
            **{f"loop_{phase}": statistics.mean(stats.get(phase, 0.0) for stats in timed) for phase in PHASES}}


def markdown(results: dict) -> str:
    lines = [f"AlphaZero self-play, moves per second ({results['machine']['device']}; {results['batch']} games at "
             f"once, {results['sims']} simulations, MLP {results['hidden']}; `{results['command']}`)", ""]
    if results.get("xla_flags"):
        lines += [f"XLA_FLAGS: `{results['xla_flags']}`", ""]
    split = any("descent_steps" in row for row in results["games"].values())
    header, rule = "| game | moves/s | first run (s) |", "|---|---|---|"
    if split:
        header += " legal moves | descent steps a search | expansion share | ceiling (moves/s) |"
        rule += "---|---|---|---|"
    lines += [header, rule]
    for name, row in results["games"].items():
        line = f"| {label(name)} | {row['moves_per_s']:,.0f} | {row['first_run_s']:.1f} |"
        if split:
            line += (f" {row['legal_moves']:.2f} | {row['descent_steps']:.0f} | {row['expansion_share']:.2f} |"
                     f" {row['ceiling_moves_per_s']:,.0f} |" if "descent_steps" in row else " - | - | - | - |")
        lines.append(line)
    looped = [(name, row) for name, row in results["games"].items() if "loop_positions_per_s" in row]
    if looped:
        lines += ["", "The whole training loop (self-play, targets, buffer, fit, export, checkpoints), "
                  f"{results['moves']} moves a generation:", "",
                  "| game | positions/s | loop efficiency | lost | self-play s | fit s | export s | checkpoint s |",
                  "|---|---|---|---|---|---|---|---|"]
        for name, row in looped:
            lines.append(f"| {label(name)} | {row['loop_positions_per_s']:,.0f} | {row['loop_efficiency']:.3f} | "
                         f"{row['lost_share']:.1%} | {row['loop_selfplay_s']:.2f} | {row['loop_fit_s']:.2f} | "
                         f"{row['loop_export_s']:.3f} | {row['loop_checkpoint_s']:.3f} |")
        lines += ["", "Loop efficiency: positions that reach the replay buffer a second (random opening moves "
                  "counted as kept) over the self-play moves a second of the search alone, above."]
    if split:
        lines += ["", f"Breakdown from positions {results['moves']} random moves into the games: descent steps are "
                  "the search's vmapped loop steps down the tree (the batch's deepest descent, summed over the "
                  "simulations); expansion share is the time of the simulations' moves, features and network over "
                  "the time of a move; the ceiling is moves/s / (1 - share), the rate if those cost nothing."]
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = games_parser(__doc__, PGX_PEERS)
    parser.add_argument("--batch", type=count_argument("envs"), default=4096, help="games at once (default 4096)")
    parser.add_argument("--sims", type=param_argument(limit("sims", low=1)), default=64,
                        help="simulations per move (default 64)")
    parser.add_argument("--moves", type=count_argument("steps"), default=32,
                        help="moves of every game per timed run (default 32)")
    parser.add_argument("--hidden", default="256,256", help="hidden layer sizes (default 256,256)")
    parser.add_argument("--obs-type", default="counts", help="our games' network input (default counts, as training)")
    parser.add_argument("--breakdown", action="store_true",
                        help="also the legal moves, the search's descent steps and the expansion share (see above)")
    parser.add_argument("--loop", action="store_true",
                        help="also time the whole training loop at the same games, simulations, moves and network "
                             "(our games only; --reps generations after two), and its loop_efficiency: positions "
                             "into the replay buffer a second over the search's moves a second")
    parser.add_argument("--quick", action="store_true", help="64 games, 8 moves, 8 simulations, 1 run: a smoke run")
    add_quick_results_dir(parser, "alphazero_jax_speed.json and .md")
    args = parser.parse_args(argv)
    if args.quick:
        args.batch, args.moves, args.sims, args.reps = 64, 8, 8, 1
    hidden = [int(size) for size in args.hidden.split(",")]
    command = "python benchmarks/alphazero_jax_speed.py " + " ".join(argv if argv is not None else sys.argv[1:])
    results = {"command": command.strip(), "machine": machine(), "batch": args.batch, "sims": args.sims,
               "moves": args.moves, "hidden": hidden, "obs_type": args.obs_type,
               "xla_flags": os.environ.get("XLA_FLAGS", ""), "games": {}}
    print(f"machine: {results['machine']}", flush=True)
    for name in args.games:
        run, params, env, features = harness(name, args.batch, args.moves, args.sims, hidden, args.obs_type)
        figure = rate(run, params, args.batch, args.moves, args.reps)
        results["games"][name] = figure
        print(f"{name:14s}: {figure['moves_per_s']:12,.0f} moves/s (first run {figure['first_run_s']:.1f} s)",
              flush=True)
        if args.loop and name in VARIANTS:
            figure.update(loop(name, args.batch, args.moves, args.sims, hidden, args.obs_type, args.reps))
            figure["loop_efficiency"] = figure["loop_positions_per_s"] / figure["moves_per_s"]
            print(f"{'':14s}  the whole loop: {figure['loop_positions_per_s']:,.0f} positions/s, loop efficiency "
                  f"{figure['loop_efficiency']:.3f}, {figure['lost_share']:.1%} lost", flush=True)
        if args.breakdown:
            figure.update(breakdown(env, features, params, args.batch, args.moves, args.sims, args.reps,
                                    figure["moves_per_s"]))
            print(f"{'':14s}  {figure['legal_moves']:.2f} legal moves, {figure['descent_steps']:.0f} descent steps "
                  f"a search, expansion share {figure['expansion_share']:.2f}, ceiling "
                  f"{figure['ceiling_moves_per_s']:,.0f} moves/s", flush=True)
    table = markdown(results)
    print(table)
    write_results(args, args.quick, "alphazero_jax_speed", results, table)


if __name__ == "__main__":
    main()
