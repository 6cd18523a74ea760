"""Random-playout speed of the JAX environments (mancala_marl.jax) beside Pgx's own connect_four and
othello in the same loop, and the numba batch engine on the CPU.

    .venv-jax/bin/python benchmarks/jax_speed.py                  # batch sizes 2^10 .. 2^20
    .venv-jax/bin/python benchmarks/jax_speed.py --quick          # 2^10 and 2^12, a smoke run
    .venv-jax/bin/python benchmarks/jax_speed.py --min-log2 12 --max-log2 16 --games kalah connect_four

Each figure is moves per second: ``lax.scan`` over ``--moves`` steps of
``jax.vmap(auto_reset(env.step, env.init))`` on a batch of games, timed after a first (compiling)
run with ``block_until_ready``, the median of ``--reps`` runs. A move draws one uniform number per
game and plays the k-th legal action (``mancala_marl.jax.rules.pick_legal``), rather than
splitting a key per game; a finished game is replaced by a new one (Pgx's ``auto_reset``), so every
step is a move. The numba figure is ``mancala_marl.batch.random_playouts`` (whole games from the
start) on one core and on all. It runs on whatever device jax has: the CPU here, a GPU where jax
has CUDA (pgx and mctx are then installed from wheels). Writes ``jax_speed.json`` and
``jax_speed.md`` to ``--results-dir`` (default benchmarks/results/jax_speed/; ``--quick`` writes nothing
unless one is given).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time

from mancala_marl import batch
from mancala_marl.cli.arguments import count_argument, param_argument
from mancala_marl.games import VARIANTS, make_game
from results_dir import add_quick_results_dir, write_results

# jax, pgx and mancala_marl.jax are imported once the arguments are read: --help needs no [jax] extra
PGX_PEERS = ("connect_four", "othello")


def make_env(name: str):
    import pgx

    from mancala_marl.jax import make

    return make(name) if name in VARIANTS else pgx.make(name)


def playout(env, size: int, moves: int):
    """A jitted (states, key) -> states after ``moves`` random moves in each of ``size`` games."""
    import jax
    from pgx.experimental import auto_reset

    from mancala_marl.jax.rules import pick_legal

    step = jax.vmap(auto_reset(env.step, env.init), in_axes=(0, 0, None))

    def one(states, key):
        u = jax.random.uniform(key, (size,))
        return step(states, pick_legal(u, states.legal_action_mask), key), None

    def run(states, key):
        states, _ = jax.lax.scan(one, states, jax.random.split(key, moves))
        return states

    return jax.jit(run)


def jax_rate(name: str, size: int, moves: int, reps: int) -> dict:
    import jax

    env = make_env(name)
    states = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), size))
    run = playout(env, size, moves)
    start = time.perf_counter()
    states = jax.block_until_ready(run(states, jax.random.PRNGKey(1)))
    compile_s = time.perf_counter() - start
    rates = []
    for rep in range(reps):
        start = time.perf_counter()
        states = jax.block_until_ready(run(states, jax.random.PRNGKey(2 + rep)))
        rates.append(size * moves / (time.perf_counter() - start))
    return {"moves_per_s": statistics.median(rates), "first_run_s": compile_s}


def numba_rate(name: str, size: int, parallel: bool, reps: int) -> float:
    game = make_game(name)
    batch.random_playouts(game, batch.init_states(game, 64), parallel=parallel)  # compile
    rates = []
    for rep in range(reps):
        states = batch.init_states(game, size)
        start = time.perf_counter()
        moves = batch.random_playouts(game, states, seed=rep * size, parallel=parallel).sum()
        rates.append(moves / (time.perf_counter() - start))
    return statistics.median(rates)


def machine() -> dict:
    import jax
    import pgx

    device = jax.devices()[0]
    return {"python": platform.python_version(), "jax": jax.__version__, "pgx": pgx.__version__,
            "device": f"{device.platform}: {device.device_kind}", "cpus": os.cpu_count(),
            "processor": platform.processor() or platform.machine(), "load_average": os.getloadavg()}


def markdown(results: dict) -> str:
    sizes = results["sizes"]
    lines = [f"Random playouts, million moves per second ({results['machine']['device']}; "
             f"`{results['command']}`)", "",
             "| game | " + " | ".join(f"2^{s.bit_length() - 1}" for s in sizes) + " |",
             "|---" * (len(sizes) + 1) + "|"]
    for name, row in results["jax"].items():
        lines.append(f"| {label(name)} | " + " | ".join(f"{row[str(s)]['moves_per_s'] / 1e6:.2f}" if str(s) in row else "-"
                                                   for s in sizes) + " |")
    if results.get("numba"):
        lines += ["", f"numba batch engine (mancala_marl.batch.random_playouts, {results['numba_size']} games), "
                  "million moves per second:", "", "| game | one core | all cores |", "|---|---|---|"]
        for name, row in results["numba"].items():
            lines.append(f"| {name} | {row['one_core'] / 1e6:.2f} | {row['all_cores'] / 1e6:.2f} |")
    return "\n".join(lines) + "\n"


def label(name: str) -> str:
    """A game's name in a table: Pgx's own games marked as such."""
    return name if name in VARIANTS else f"{name} (Pgx)"


def games_parser(doc: str, peers) -> argparse.ArgumentParser:
    """The parser of a JAX benchmark: ``--games`` (ours and Pgx's ``peers``, all by default) and
    ``--reps``; the script adds its own options."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    choices = list(VARIANTS) + list(peers)
    parser.add_argument("--games", nargs="+", choices=choices, default=choices, help="default: all of them")
    parser.add_argument("--reps", type=count_argument("steps"), default=3,
                        help="timed runs per figure; the median is kept (default 3)")
    return parser


def main(argv=None):
    parser = games_parser(__doc__, PGX_PEERS)
    parser.add_argument("--min-log2", type=int, default=10, help="smallest batch size, as a power of 2 (default 10)")
    parser.add_argument("--max-log2", type=int, default=20, help="largest batch size, as a power of 2 (default 20)")
    parser.add_argument("--moves", type=count_argument("steps"), default=128,
                        help="moves per timed run, per game (default 128)")
    parser.add_argument("--numba-size", type=param_argument(batch.ROWS), default=65536,
                        help="games per numba playout run; 0 leaves numba out (default 65536)")
    parser.add_argument("--quick", action="store_true", help="2^10 and 2^12, 32 moves, 2 runs: a smoke run")
    add_quick_results_dir(parser, "jax_speed.json and .md")
    args = parser.parse_args(argv)
    if args.quick:
        args.min_log2, args.max_log2, args.moves, args.reps = 10, 12, 32, 2
        args.numba_size = min(args.numba_size, 4096)
    if not 0 <= args.min_log2 <= args.max_log2 <= 30:
        parser.error("need 0 <= --min-log2 <= --max-log2 <= 30")
    sizes = [2 ** k for k in range(args.min_log2, args.max_log2 + 1, 2 if args.quick else 1)]
    command = "python benchmarks/jax_speed.py " + " ".join(argv if argv is not None else sys.argv[1:])
    results = {"command": command.strip(), "machine": machine(), "sizes": sizes, "moves": args.moves,
               "jax": {}, "numba": {}, "numba_size": args.numba_size}
    print(f"machine: {results['machine']}", flush=True)
    for name in args.games:
        results["jax"][name] = {}
        for size in sizes:
            figure = jax_rate(name, size, args.moves, args.reps)
            results["jax"][name][str(size)] = figure
            print(f"{name:14s} batch {size:8d}: {figure['moves_per_s'] / 1e6:8.2f} M moves/s "
                  f"(first run {figure['first_run_s']:.1f} s)", flush=True)
        if name in VARIANTS and args.numba_size:
            results["numba"][name] = {"one_core": numba_rate(name, args.numba_size, False, args.reps),
                                      "all_cores": numba_rate(name, args.numba_size, True, args.reps)}
            print(f"{name:14s} numba batch: {results['numba'][name]['one_core'] / 1e6:.2f} M moves/s on one core, "
                  f"{results['numba'][name]['all_cores'] / 1e6:.2f} on all", flush=True)
    table = markdown(results)
    print(table)
    write_results(args, args.quick, "jax_speed", results, table)


if __name__ == "__main__":
    main()
