"""The ceiling of a mixed batch of the family on an accelerator (issue 58 §4), from the depth of
its moves: the laps a move sows one after the other, each lap starting where the last one ended.

    .venv/bin/python benchmarks/family_mixed_ceiling.py            # 2,000 moves of each named game
    .venv/bin/python benchmarks/family_mixed_ceiling.py --quick    # 200 moves each, a smoke run

Under ``vmap`` (on a GPU, and in XLA on a CPU) the rows of a batch share their control flow: a step
lasts as long as its deepest row's move, whatever the kernel. A lap cannot start before the one
before it has ended (its hole is where that one's last seed fell), so a step of any kernel costs
at least ``F + c * D``: ``D`` the most laps of a move among the batch's rows, ``c`` a lap's cost
(a lap in closed form, as the JAX family sows the simple ones) and ``F`` the rest of a move (its
capture, the legal masks, the end), which a lap count does not change. Wari sows one lap a move,
so a mixed batch of every named game runs at most ``(F + c) / (F + c * E[D])`` of Wari alone: at
least 0.5 needs ``F / c >= E[D] - 2``.

The laps of each move are numba's own (``family_sowing.sow_and_capture``, run as Python under a
profiler that reads its lap counter as it returns) over random games of each named game; ``E[D]``
is drawn from them for a batch of ``--rows`` rows, each a named game drawn alike (as
``make_mixed`` draws them). ``F / c`` is then fitted to the JAX family's step time of each game
alone, ``1 / rate = (F + c * E[D_game]) / rows``, from ``family_jax_speed.py --alone`` (its
results file: run it first, at the same ``--rows``, or pass ``--rates``). Writes
``family_mixed_ceiling.json`` and ``.md`` to ``--results-dir`` (default
benchmarks/results/family_mixed_ceiling/).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from mancala_marl.cli.arguments import count_argument
from results_dir import add_quick_results_dir, shipped, write_results


def laps_of_moves(game, moves: int, rng) -> np.ndarray:
    """The laps (1 + the relays) of ``moves`` moves of random games of ``game``."""
    from mancala_marl.games import family_sowing

    sow = family_sowing.sow_and_capture.py_func  # its lap counter is a local: read as the frame returns
    found = []

    def profile(frame, event, arg):
        if event == "return" and frame.f_code is sow.__code__:
            found.append(frame.f_locals["laps"] + 1)

    depths, state = [], game.init(rng)
    while len(depths) < moves:
        if game.is_terminal(state):
            state = game.init(rng)
            continue
        action = int(rng.choice(np.flatnonzero(game.legal_mask(state))))
        sys.setprofile(profile)
        try:
            sow(state.copy(), game.spec, action)
        finally:
            sys.setprofile(None)
        depths.append(found.pop())
        game.apply(state, action)
    return np.asarray(depths)


def expected_max(samples: list[np.ndarray], rows: int, batches: int, rng) -> float:
    """E[the largest of ``rows`` draws], a row's game drawn alike from ``samples`` (one array of
    laps per game), its move from that game's."""
    games = rng.integers(len(samples), size=(batches, rows))
    return float(np.mean([max(samples[g][rng.integers(len(samples[g]))] for g in batch) for batch in games]))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=count_argument("positions"), default=2000, help="moves of each game (default 2,000)")
    parser.add_argument("--rows", type=count_argument("envs"), default=4096, help="rows of a batch (default 4,096)")
    parser.add_argument("--batches", type=count_argument("steps"), default=200,
                        help="batches drawn for each expectation (default 200)")
    parser.add_argument("--rates", type=Path, default=shipped("family_jax_speed") / "family_jax_speed.json",
                        help="family_jax_speed.py's results, with --alone (default: its shipped ones)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="200 moves each, 20 batches: a smoke run")
    add_quick_results_dir(parser, "family_mixed_ceiling.json and .md")
    args = parser.parse_args(argv)
    if args.quick:
        args.moves, args.batches = 200, 20
    from mancala_marl.games import GAMES, NAMED, make_game

    rng = np.random.default_rng(args.seed)
    names = [name for name in NAMED if name not in GAMES]
    laps = {}
    for name in names:
        laps[name] = laps_of_moves(make_game(name), args.moves, rng)
        print(f"{name:20s} laps a move: mean {laps[name].mean():6.2f}, most {laps[name].max():3d}", flush=True)
    samples = [laps[name] for name in names]
    mixed = expected_max(samples, args.rows, args.batches, rng)
    alone = {name: expected_max([laps[name]], args.rows, args.batches, rng) for name in names}
    results = {"command": "python benchmarks/family_mixed_ceiling.py " + " ".join(argv if argv is not None else sys.argv[1:]),
               "rows": args.rows, "moves": args.moves,
               "laps": {name: {"mean": float(v.mean()), "most": int(v.max()), "deepest_of_a_batch": alone[name]}
                        for name, v in laps.items()},
               "mixed_depth": mixed, "wari_depth": alone["wari"], "needed_f_over_c": mixed - 2 * alone["wari"]}
    timed = json.loads(args.rates.read_text()) if args.rates.is_file() else {}
    rates = timed.get("alone", {}).get("rates")
    if rates:
        # 1 / rate = (F + c * depth) / rows: a line through the games' (depth, step time) points,
        # each game's depth at the batch size it was timed at
        fitted = [name for name in names if name in rates]
        depth = {name: expected_max([laps[name]], timed["size"], args.batches, rng) for name in fitted}
        x, y = np.asarray([depth[n] for n in fitted]), np.asarray([1 / rates[n] for n in fitted])
        slope, intercept = np.polyfit(x, y, 1)
        f_over_c = intercept / slope
        r2 = 1 - np.sum((y - slope * x - intercept) ** 2) / np.sum((y - y.mean()) ** 2)
        results["fit"] = {"rates": str(args.rates), "rows": timed["size"], "f_over_c": f_over_c, "r2": float(r2),
                          "ceiling": (f_over_c + alone["wari"]) / (f_over_c + mixed)}
    print(markdown(results))
    write_results(args, args.quick, "family_mixed_ceiling", results, markdown(results))


def markdown(results: dict) -> str:
    lines = [f"The depth of a move (laps sown one after the other) over random games of each named game "
             f"(`{results['command'].strip()}`), and the most of a batch of {results['rows']:,} rows:", "",
             f"- a mixed batch of the {len(results['laps'])} named games, each row's game drawn alike: "
             f"E[deepest row] = {results['mixed_depth']:.1f} laps; Wari alone: {results['wari_depth']:.1f}.",
             f"- so any lockstep kernel runs the mixed batch at most (F + c) / (F + c * {results['mixed_depth']:.1f}) "
             f"of Wari alone (F: a move's work besides its laps, c: a lap's); 0.5 needs F / c >= "
             f"{results['needed_f_over_c']:.1f}."]
    if "fit" in results:
        fit = results["fit"]
        lines.append(f"- fitted to the JAX family's step time of each game alone ({fit['rows']} rows, "
                     f"`{fit['rates']}`): F / c = "
                     f"{fit['f_over_c']:.1f} (R² {fit['r2']:.2f}), a ceiling of {fit['ceiling']:.3f} of Wari alone.")
    lines += ["", "| game | laps a move, mean | most | deepest of a batch |", "|---|---|---|---|"]
    lines += [f"| {name} | {row['mean']:.2f} | {row['most']} | {row['deepest_of_a_batch']:.1f} |"
              for name, row in sorted(results["laps"].items(), key=lambda item: -item[1]["deepest_of_a_batch"])]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
