"""The two-row family in JAX, as ratios measured in one run: each named game's JAX random playouts
over the numba family's on one core, and a mixed batch of every named game the JAX family plays
over a batch of Wari alone, the same size.

    taskset -c 0 .venv-jax/bin/python benchmarks/family_jax_speed.py   # one core: batch 2^12, 10 named games beside Wari
    .venv-jax/bin/python benchmarks/family_jax_speed.py --quick    # batch 2^8, 3 games, a smoke run
    .venv-jax/bin/python benchmarks/family_jax_speed.py --log2 10 --moves 32 --reps 1 --alone   # + each game alone

The JAX figures are ``jax_speed.py``'s (``lax.scan`` over ``--moves`` steps of
``vmap(auto_reset(step, init))``, the median of ``--reps`` timed runs after a compiling one); the
mixed batch is :func:`mancala_marl.jax.make_mixed` over every named game the JAX family plays, and
the Wari batch is the same environment over Wari alone, so the ratio is what mixing costs. The
numba figure is ``batch.random_playouts`` on one core. No target on a CPU (numba is the CPU
engine; the JAX twin is for accelerators), where the ratio says what a CPU test of it costs; the
target for the mixed batch is at least 0.5 of Wari alone. Writes ``family_jax_speed.json`` and
``.md`` to ``--results-dir`` (default benchmarks/results/family_jax_speed/).
"""

from __future__ import annotations

import argparse
import sys

from jax_speed import machine, numba_rate, playout
from mancala_marl.cli.arguments import count_argument
from results_dir import add_quick_results_dir, write_results

GAMES = ("wari", "dakon", "bohnenspiel", "songo", "ayoayo", "kale", "erherhe", "halusa", "ot_tjin", "pallanguli",
         "sadeqa_iii")


def rate(env, size: int, moves: int, reps: int) -> float:
    import statistics
    import time

    import jax

    states = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), size))
    run = playout(env, size, moves)
    states = jax.block_until_ready(run(states, jax.random.PRNGKey(1)))
    rates = []
    for rep in range(reps):
        start = time.perf_counter()
        states = jax.block_until_ready(run(states, jax.random.PRNGKey(2 + rep)))
        rates.append(size * moves / (time.perf_counter() - start))
    return statistics.median(rates)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--log2", type=int, default=12, help="batch size, as a power of 2 (default 12)")
    parser.add_argument("--moves", type=count_argument("steps"), default=64, help="moves per timed run (default 64)")
    parser.add_argument("--reps", type=count_argument("steps"), default=3, help="timed runs per figure (default 3)")
    parser.add_argument("--quick", action="store_true", help="batch 2^8, 3 games, 16 moves: a smoke run")
    parser.add_argument("--alone", action="store_true",
                        help="also time each named game alone in the mixed environment: the slowest is the "
                             "ceiling of the mixed batch (a compile each: minutes on a CPU)")
    add_quick_results_dir(parser, "family_jax_speed.json and .md")
    args = parser.parse_args(argv)
    games = GAMES[:3] if args.quick else GAMES
    if args.quick:
        args.log2, args.moves, args.reps = 8, 16, 2
    from mancala_marl.games import GAMES as REGISTERED, NAMED
    from mancala_marl.games import make_game
    from mancala_marl.jax import family, make, make_mixed

    size = 2 ** args.log2
    command = "python benchmarks/family_jax_speed.py " + " ".join(argv if argv is not None else sys.argv[1:])
    results = {"command": command.strip(), "machine": machine(), "size": size, "moves": args.moves, "games": {}}
    print(f"machine: {results['machine']}", flush=True)
    for name in games:
        jax_figure = rate(make(name), size, args.moves, args.reps)
        numba_figure = numba_rate(name, size, False, args.reps)
        results["games"][name] = {"jax": jax_figure, "numba_one_core": numba_figure, "ratio": jax_figure / numba_figure}
        print(f"{name:12s} JAX {jax_figure / 1e6:7.3f} M moves/s, numba one core {numba_figure / 1e6:7.3f}: "
              f"{jax_figure / numba_figure:.3f}", flush=True)
    played = [name for name in NAMED if name not in REGISTERED and family.refusal(make_game(name)) is None]
    mixed = rate(make_mixed(played, obs_type="counts"), size, args.moves, args.reps)
    wari = rate(make_mixed(["wari"], obs_type="counts"), size, args.moves, args.reps)
    results["mixed"] = {"games": played, "mixed": mixed, "wari_alone": wari, "ratio": mixed / wari}
    print(f"mixed batch of {len(played)} named games {mixed / 1e6:.3f} M moves/s, Wari alone {wari / 1e6:.3f}: "
          f"{mixed / wari:.3f} (target >= 0.5)", flush=True)
    if args.alone:
        # The lockstep ceiling: a step of a batch lasts as long as its slowest row's move (every
        # row runs each loop until the last one is done), so a mixed batch, in which each game has
        # a share of the rows, steps about as slowly as a batch of its slowest game alone.
        alone = {}
        for name in played:
            alone[name] = rate(make_mixed([name], obs_type="counts"), size, args.moves, args.reps)
            print(f"  {name:24s} alone {alone[name] / 1e6:7.3f} M moves/s: {alone[name] / wari:.3f} of Wari", flush=True)
        slowest = min(alone, key=alone.get)
        results["alone"] = {"rates": alone, "slowest": slowest, "ceiling": alone[slowest] / wari}
        print(f"the slowest game alone, {slowest}: {alone[slowest] / wari:.3f} of Wari (the lockstep ceiling of a "
              f"mixed batch)", flush=True)
    table = markdown(results)
    print(table)
    write_results(args, args.quick, "family_jax_speed", results, table)


def markdown(results: dict) -> str:
    lines = [f"The family in JAX, random playouts, batch {results['size']} ({results['machine']['device']}; "
             f"`{results['command']}`)", "", "| game | JAX, M moves/s | numba one core | JAX / numba |",
             "|---|---|---|---|"]
    for name, row in results["games"].items():
        lines.append(f"| {name} | {row['jax'] / 1e6:.3f} | {row['numba_one_core'] / 1e6:.3f} | {row['ratio']:.3f} |")
    mixed = results["mixed"]
    lines += ["", f"A mixed batch of the {len(mixed['games'])} named games the JAX family plays: "
              f"{mixed['mixed'] / 1e6:.3f} M moves/s, Wari alone {mixed['wari_alone'] / 1e6:.3f}: "
              f"{mixed['ratio']:.3f} of it (target 0.5)."]
    if "alone" in results:
        alone = results["alone"]
        lines += ["", f"Each game alone (the lockstep ceiling of the mixed batch is its slowest game's): "
                  f"{alone['slowest']}, {alone['ceiling']:.3f} of Wari.", "", "| game alone | M moves/s | of Wari |",
                  "|---|---|---|"]
        lines += [f"| {name} | {figure / 1e6:.3f} | {figure / mixed['wari_alone']:.3f} |"
                  for name, figure in sorted(alone["rates"].items(), key=lambda item: item[1])]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
