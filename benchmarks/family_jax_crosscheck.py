"""The JAX family against the numba family, move for move, on many rule sets at once: every named
game and every MancalaGames file the JAX family plays, rule sets drawn by ``family.sample_rules``
and rule sets drawn by the family's hypothesis strategy (``Family.param_strategy``, the tests'
generator), each group in one batch whose rows are different games (the long run of
tests/jax/test_family_jax.py, which plays a few dozen drawn rule sets).

    .venv-jax/bin/python benchmarks/family_jax_crosscheck.py            # 1,000 + 300 drawn rule sets
    .venv-jax/bin/python benchmarks/family_jax_crosscheck.py --quick    # 20 + 10 drawn, no files: a smoke run

After every move, every cell of each row's flat state, its legal mask and its end are compared
(:func:`mancala_marl.jax.crosscheck.crosscheck_rule_sets`); a difference stops the run with a
message naming the rule set, the step and the state. The drawn rule sets are any the family
plays (children and the repetition rule too); a fifth of those drawn by ``sample_rules`` pass
over full holes (``sow_max``), which it leaves out unless asked. Writes
``family_jax_crosscheck.json`` and ``.md`` to ``--results-dir`` (default
benchmarks/results/family_jax_crosscheck/).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from mancala_marl.cli.arguments import count_argument
from results_dir import add_quick_results_dir, write_results

ORACLE = Path(__file__).resolve().parents[2] / "shared" / "oracles" / "mancalagames" / "GameProps"


def drawn_by_sampler(count: int, seed: int) -> list:
    import numpy as np

    from mancala_marl.games import Family
    from mancala_marl.games.family import sample_rules

    rng = np.random.default_rng(seed)
    full = count // 5
    return [Family(**sample_rules(rng, **({"sow_max": (1, 10)} if i < full else {})))
            for i in range(count)]


def drawn_by_strategy(count: int, seed: int) -> list:
    from hypothesis import HealthCheck, given, seed as hypothesis_seed, settings, strategies as st

    from mancala_marl.games import Family

    rule_sets = []

    @hypothesis_seed(seed)
    @settings(max_examples=8 * count, database=None, deadline=None, suppress_health_check=list(HealthCheck))
    @given(Family.param_strategy(st))
    def collect(params):
        if len(rule_sets) < count:
            rule_sets.append(Family(**params))

    collect()
    return rule_sets


def mancalagames_files() -> list:
    from mancala_marl.games.mancalagames import load_played

    return load_played(ORACLE)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sampled", type=count_argument("games"), default=1000,
                        help="rule sets drawn by sample_rules (default 1,000)")
    parser.add_argument("--strategy", type=count_argument("games"), default=300,
                        help="rule sets drawn by the hypothesis strategy (default 300; hypothesis may find fewer)")
    parser.add_argument("--plays", type=count_argument("games"), default=3, help="random games a rule set (default 3)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="20 + 10 drawn rule sets, one game each: a smoke run")
    add_quick_results_dir(parser, "family_jax_crosscheck.json and .md")
    args = parser.parse_args(argv)
    import jax  # once the arguments are read: --help needs no [jax] extra

    from mancala_marl.games import GAMES, NAMED, make_game
    from mancala_marl.jax.crosscheck import crosscheck_rule_sets

    sampled, strategy, plays = (20, 10, 1) if args.quick else (args.sampled, args.strategy, args.plays)
    groups = {"sample_rules": lambda: drawn_by_sampler(sampled, args.seed),
              "hypothesis strategy": lambda: drawn_by_strategy(strategy, args.seed)}
    if not args.quick:
        groups = {"named games": lambda: [make_game(name) for name in NAMED if name not in GAMES],
                  "MancalaGames files": mancalagames_files, **groups}
    results = {"device": str(jax.devices()[0].device_kind), "plays": plays, "groups": {}}
    for label, build in groups.items():
        games = [game for game in build() if game.name == "family"]
        start = time.perf_counter()
        totals = crosscheck_rule_sets(games, plays=plays, seed=args.seed)
        totals.update(seconds=round(time.perf_counter() - start, 1), mismatches=0,
                      board_sizes=sorted({game.pits for game in games}))
        results["groups"][label] = totals
        print(f"{label}: {totals}", flush=True)
    lines = [f"The JAX family against the numba family, every move ({plays} random games a rule set, "
             f"{results['device']}): 0 mismatches", "",
             "| rule sets | count | games | moves compared | holes a row | seconds |", "|---" * 6 + "|"]
    lines += [f"| {label} | {r['rule_sets']:,} | {r['games']:,} | {r['moves']:,} | {min(r['board_sizes'])}-"
              f"{max(r['board_sizes'])} | {r['seconds']} |" for label, r in results["groups"].items()]
    write_results(args, args.quick, "family_jax_crosscheck", results, "\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
