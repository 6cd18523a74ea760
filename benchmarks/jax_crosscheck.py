"""The JAX engines against the numba engine on every step of many random games: the long run of
the differential test in tests/jax/test_crosscheck.py (which plays 20,000 games per rule set).

    .venv-jax/bin/python benchmarks/jax_crosscheck.py                       # 1,000,000 games per game
    .venv-jax/bin/python benchmarks/jax_crosscheck.py --games kalah --count 100000

Compares, after every move, the whole flat state, the player to move, the legal mask, the end,
the truncation and the rewards (mancala_marl.jax.crosscheck); stops at the first difference,
with a message naming it. Writes ``jax_crosscheck.json`` and ``jax_crosscheck.md`` to
``--results-dir`` (default benchmarks/results/jax_crosscheck/), one row per game run so far (a run of some games
keeps the others' rows).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from mancala_marl.cli.arguments import count_argument, param_argument
from mancala_marl.games import VARIANTS
from mancala_marl.limits import limit
from results_dir import add_results_dir, results_dir


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="+", choices=VARIANTS, default=list(VARIANTS),
                        help="default: every game with JAX rules, default rules")
    parser.add_argument("--count", type=param_argument(limit("games", "count", why_high="")), default=1_000_000,
                        help="random games per game (default 1,000,000)")
    parser.add_argument("--chunk", type=count_argument("envs"), default=20_000,
                        help="games played at once (default 20,000)")
    parser.add_argument("--seed", type=int, default=0)
    add_results_dir(parser)
    args = parser.parse_args(argv)
    import jax  # once the arguments are read: --help needs no [jax] extra

    from mancala_marl.jax import make
    from mancala_marl.jax.crosscheck import crosscheck

    out = results_dir(args) / "jax_crosscheck.json"
    results = json.loads(out.read_text()) if out.exists() else {}
    command = "python benchmarks/jax_crosscheck.py " + " ".join(argv if argv is not None else sys.argv[1:])
    for name in args.games:
        start = time.perf_counter()
        totals = crosscheck(make(name), args.count, seed=args.seed, chunk=args.chunk)
        totals.update(seconds=round(time.perf_counter() - start, 1), command=command.strip(),
                      device=str(jax.devices()[0].device_kind), result="no difference")
        results[name] = totals
        print(f"{name}: {totals}", flush=True)
        out.write_text(json.dumps(results, indent=2))
    lines = ["Every step of random games, JAX engine vs numba engine (default rules)", "",
             "| game | games | moves compared | longest game | truncated | seconds | result |", "|---" * 7 + "|"]
    lines += [f"| {name} | {r['games']:,} | {r['moves']:,} | {r['longest']} | {r['truncated']} | {r['seconds']} | "
              f"{r['result']} |" for name, r in results.items()]
    out.with_suffix(".md").write_text("\n".join(lines) + "\n")
    print(f"wrote {out} and {out.with_suffix('.md').name}")


if __name__ == "__main__":
    main()
