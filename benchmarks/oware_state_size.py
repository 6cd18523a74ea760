"""How much of the JAX Oware engine's speed its repetition history costs: a ceiling for any
smaller history, measured on whatever device jax has.

    .venv-jax/bin/python benchmarks/oware_state_size.py            # 2^14 games, as issue 41 asks
    .venv-jax/bin/python benchmarks/oware_state_size.py --quick    # 2^10 games, a smoke run

Random playouts as ``benchmarks/jax_speed.py`` times them (``lax.scan`` of ``--moves`` steps of
``jax.vmap(auto_reset(env.step, env.init))``), for the real engine and for variants of it that
compute no position hash and compare no history (both free), with the state cut to its 18 head
cells plus S history slots (int32), S from 512 (the real size) down to 0. A variant plays
nonsense (its writes past the cut state are dropped); only its speed counts: what a state of
that size allows even if hashing and comparing cost nothing. Each figure is the median of
``--reps`` runs, the engines taking turns, beside numba's batch engine on one core between them
(the same games as ``jax_speed.py``'s numba figure). Writes ``oware_state_size.json`` and ``.md``
to ``--results-dir`` (default benchmarks/results/oware_state_size/).

Why it matters: the rules decide repetition over up to 256 positions since the last capture,
each kept as numba's 64-bit hash (512 int32, 2 KB a game). Any exact history needs about 42
bits a position (12 houses holding at most 48 seeds, and the player to move: C(59, 11) < 2^41
boards), so about 336 slots, unless it keeps the moves and plays them again at every step.
"""

from __future__ import annotations

import argparse
import statistics
import time

from mancala_marl.games.oware import HASHES

from jax_speed import machine, make_env, numba_rate, playout
from results_dir import add_quick_results_dir, write_results

SLOTS = (512, 384, 256, 128, 64, 0)
_COMPARE = "seen = lax.fori_loop(0, (batch_max(n) + CHUNK - 1) // CHUNK, look, False)"
_HASH = "h = position_hash(position)"


def free_history_env(slots: int):
    """Oware's JAX environment with no hash and no history compare, its state cut to the head
    cells and ``slots`` history slots (built from the rules file's own source, so that it stays
    the real engine but for those two lines)."""
    import mancala_marl.jax.oware as oware

    source = open(oware.__file__).read()
    assert _COMPARE in source and _HASH in source, "mancala_marl/jax/oware.py changed: update this benchmark"
    namespace = {"__name__": "oware_free_history"}
    exec(compile(source.replace(_COMPARE, "seen = jnp.bool_(False)").replace(_HASH, "h = position[:2]"),
                 oware.__file__, "exec"), namespace)
    real = oware.make_rules
    oware.make_rules = namespace["make_rules"]
    try:
        env = make_env("oware")
    finally:
        oware.make_rules = real
    env._init_board = env._init_board[:env._to + 1 + HASHES + slots]  # TO_MOVE, count, digest, the slots
    return env


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--log2", type=int, default=14, help="games at once, as a power of 2 (default 14)")
    parser.add_argument("--moves", type=int, default=128, help="moves per timed run (default 128)")
    parser.add_argument("--reps", type=int, default=5, help="timed runs per engine (default 5)")
    parser.add_argument("--quick", action="store_true", help="2^10 games, 32 moves, 2 runs: a smoke run")
    add_quick_results_dir(parser, "oware_state_size.json and .md")
    args = parser.parse_args(argv)
    if args.quick:
        args.log2, args.moves, args.reps = 10, 32, 2
    import jax

    size = 1 << args.log2
    engines = {"real engine": make_env("oware"), **{f"{s} slots, free hash": free_history_env(s) for s in SLOTS}}
    runs = {}
    for label, env in engines.items():
        states = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), size))
        run = playout(env, size, args.moves)
        jax.block_until_ready(run(states, jax.random.PRNGKey(1)))  # compile
        runs[label] = (run, states)
    rates, numba = {label: [] for label in runs}, []
    for rep in range(args.reps):
        for label, (run, states) in runs.items():
            start = time.perf_counter()
            jax.block_until_ready(run(states, jax.random.PRNGKey(2 + rep)))
            rates[label].append(size * args.moves / (time.perf_counter() - start))
        numba.append(numba_rate("oware", size, False, 1))
    one_core = statistics.median(numba)
    results = {"machine": machine(), "games": size, "moves": args.moves, "reps": args.reps,
               "numba_one_core": one_core,
               "engines": {label: {"moves_per_s": statistics.median(r), "of_numba": statistics.median(r) / one_core}
                           for label, r in rates.items()}}
    lines = [f"Oware random playouts, {size} games at once ({results['machine']['device']}), against numba's "
             f"batch engine on one core ({one_core / 1e6:.2f} M moves/s)", "",
             "| engine | M moves/s | of numba's one core |", "|---|---|---|"]
    lines += [f"| {label} | {r['moves_per_s'] / 1e6:.3f} | {r['of_numba']:.2f} |" for label, r in results["engines"].items()]
    text = "\n".join(lines) + "\n"
    print(text)
    write_results(args, args.quick, "oware_state_size", results, text, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
