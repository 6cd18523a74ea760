"""The ceiling of a mixed batch of the family on an accelerator (issue 58 §4), from the depth of
its moves: the laps a move sows one after the other, each lap starting where the last one ended.

    .venv-jax/bin/python benchmarks/family_mixed_ceiling.py            # 2,000 moves of each named game
    .venv-jax/bin/python benchmarks/family_mixed_ceiling.py --quick    # 200 moves each, a smoke run

Under ``vmap`` (on a GPU, and in XLA on a CPU) the rows of a batch share their control flow: a
kernel that steps them in lockstep, as the JAX family does, runs each step as long as its deepest
row's move. A lap cannot start before the one before it has ended (its hole is where that one's
last seed fell), so such a step costs at least ``F + c * D``: ``D`` the most laps of a move among
the batch's rows, ``c`` a lap's cost (every row's) and ``F`` the rest of a move (its capture, the
legal masks, the end), which the laps do not change. Wari sows one lap a move, so a mixed batch of
every named game runs at most ``(F + c) / (F + c * E[D])`` of Wari alone: at least 0.5 needs
``F / c >= E[D] - 2``, each kernel's own ratio.

The laps of each move are numba's own (``family_sowing.sow_and_capture``, run as Python under a
profiler that reads its lap counter as it returns) over random games of each named game; ``E[D]``
is drawn from them for a batch of ``--rows`` rows, each a named game drawn alike (as
``make_mixed`` draws them). ``F`` and ``c`` of the JAX family's own move are measured on Dakon
(relay laps): batches of ``--rows`` positions whose moves all sow the same number of laps, timed
at several such depths, a line fitted through the step times. Writes ``family_mixed_ceiling.json``
and ``.md`` to ``--results-dir`` (default benchmarks/results/family_mixed_ceiling/).
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from mancala_marl.cli.arguments import count_argument
from results_dir import add_quick_results_dir, write_results


def laps_of(game, state, action: int) -> int:
    """The laps (1 + the relays) of ``action`` from ``state``, as numba sows them."""
    from mancala_marl.games import family_sowing
    from mancala_marl.games.family_space import MAX_LAPS

    sow = family_sowing.sow_and_capture.py_func  # its lap counter is a local: read as the frame returns
    found = []

    def profile(frame, event, arg):
        if event == "return" and frame.f_code is sow.__code__:
            # (a move cut at the bound returns with laps == MAX_LAPS, its last lap not sown)
            found.append(min(frame.f_locals["laps"] + 1, MAX_LAPS))

    sys.setprofile(profile)
    try:
        sow(state.copy(), game.spec, action)
    finally:
        sys.setprofile(None)
    return found[-1]


def random_moves(game, moves: int, rng):
    """``moves`` (state, action, laps) of random games of ``game``."""
    found, state = [], game.init(rng)
    while len(found) < moves:
        if game.is_terminal(state):
            state = game.init(rng)
            continue
        action = int(rng.choice(np.flatnonzero(game.legal_mask(state))))
        found.append((state.copy(), action, laps_of(game, state, action)))
        game.apply(state, action)
    return found


def expected_max(samples: list[np.ndarray], rows: int, batches: int, rng) -> float:
    """E[the largest of ``rows`` draws], a row's game drawn alike from ``samples`` (one array of
    laps per game), its move from that game's."""
    lengths = np.asarray([len(sample) for sample in samples])
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    games = rng.integers(len(samples), size=(batches, rows))
    moves = starts[games] + (rng.random((batches, rows)) * lengths[games]).astype(np.int64)
    return float(np.concatenate(samples)[moves].max(axis=1).mean())


def lap_cost(game, moves: list, rows: int, reps: int) -> dict:
    """The JAX family's step time (seconds) over batches of ``rows`` of ``moves`` (state, action,
    laps) that all sow the same number of laps, at each depth with enough of them; ``F`` and ``c``
    of the line through them."""
    import statistics
    import time

    import jax
    import jax.numpy as jnp

    from mancala_marl.jax import family

    spec = family.spec_of(game)
    step = jax.jit(jax.vmap(lambda flat, action: family.apply(flat, action, spec, game.actions)))
    by_depth = {}
    for state, action, laps in moves:
        by_depth.setdefault(laps, []).append((state, action))
    rng, batches = np.random.default_rng(1), {}
    for depth, found in sorted(by_depth.items()):
        if len(found) >= 8:
            picks = rng.integers(len(found), size=rows)
            batches[depth] = (jnp.asarray(np.stack([found[i][0] for i in picks])),
                              jnp.asarray([found[i][1] for i in picks], jnp.int32))
    times = {}
    for _ in range(2):  # two passes over the depths, the faster kept: the first step timed ran slow
        for depth, batch in batches.items():
            jax.block_until_ready(step(*batch))  # (compiled once: every depth has the same shapes)
            runs = []
            for _ in range(reps):
                start = time.perf_counter()
                jax.block_until_ready(step(*batch))
                runs.append(time.perf_counter() - start)
            times[depth] = min(times.get(depth, np.inf), statistics.median(runs))
    depths = np.asarray(sorted(times))
    seconds = np.asarray([times[d] for d in depths])
    c, f = np.polyfit(depths, seconds, 1)
    r2 = 1 - np.sum((seconds - c * depths - f) ** 2) / np.sum((seconds - seconds.mean()) ** 2)
    return {"game": game.preset.name, "seconds": {int(d): times[d] for d in depths}, "F": float(f), "c": float(c),
            "r2": float(r2)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=count_argument("positions"), default=2000,
                        help="moves of each game (default 2,000)")
    parser.add_argument("--rows", type=count_argument("envs"), default=4096, help="rows of a batch (default 4,096)")
    parser.add_argument("--batches", type=count_argument("steps"), default=200,
                        help="batches drawn for each expectation (default 200)")
    parser.add_argument("--reps", type=count_argument("steps"), default=5, help="timed steps at each depth (default 5)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="200 moves each, 20 batches, 256 rows: a smoke run")
    add_quick_results_dir(parser, "family_mixed_ceiling.json and .md")
    args = parser.parse_args(argv)
    if args.quick:
        args.moves, args.batches, args.rows, args.reps = 200, 20, 256, 2
    from mancala_marl.games import GAMES, NAMED, make_game

    rng = np.random.default_rng(args.seed)
    names = [name for name in NAMED if name not in GAMES]
    moves, laps = {}, {}
    for name in names:
        moves[name] = random_moves(make_game(name), args.moves * (5 if name == "dakon" else 1), rng)
        laps[name] = np.asarray([depth for _, _, depth in moves[name]])
        print(f"{name:20s} laps a move: mean {laps[name].mean():6.2f}, most {laps[name].max():3d}", flush=True)
    mixed = expected_max([laps[name] for name in names], args.rows, args.batches, rng)
    alone = {name: expected_max([laps[name]], args.rows, args.batches, rng) for name in names}
    cost = lap_cost(make_game("dakon"), moves["dakon"], args.rows, args.reps)
    f_over_c = cost["F"] / cost["c"]
    command = "python benchmarks/family_mixed_ceiling.py " + " ".join(argv if argv is not None else sys.argv[1:])
    results = {"command": command.strip(), "rows": args.rows, "moves": args.moves,
               "laps": {name: {"mean": float(v.mean()), "most": int(v.max()), "deepest_of_a_batch": alone[name]}
                        for name, v in laps.items()},
               "mixed_depth": mixed, "wari_depth": alone["wari"], "needed_f_over_c": mixed - 2 * alone["wari"],
               "lap_cost": {**cost, "f_over_c": f_over_c, "ceiling": (f_over_c + 1) / (f_over_c + mixed)}}
    print(markdown(results))
    write_results(args, args.quick, "family_mixed_ceiling", results, markdown(results))


def markdown(results: dict) -> str:
    cost = results["lap_cost"]
    lines = [f"The depth of a move (laps sown one after the other) over random games of each named game, and "
             f"the deepest row of a batch of {results['rows']:,} (`{results['command']}`):", "",
             f"- A mixed batch of the {len(results['laps'])} named games, each row's game drawn alike: "
             f"E[deepest row] = {results['mixed_depth']:.1f} laps; Wari alone: {results['wari_depth']:.1f}.",
             f"- So any lockstep kernel runs the mixed batch at most (F + c) / (F + c * {results['mixed_depth']:.1f}) "
             f"of Wari alone (F: a move's work besides its laps, c: a lap's); 0.5 needs F / c >= "
             f"{results['needed_f_over_c']:.1f}.",
             f"- The JAX family's own move on {cost['game']}, batches whose rows all sow d laps: "
             f"F = {cost['F'] * 1e3:.1f} ms, c = {cost['c'] * 1e3:.2f} ms a lap (R² {cost['r2']:.2f}), F / c = "
             f"{cost['f_over_c']:.1f}: a ceiling of {cost['ceiling']:.3f} of Wari alone for this kernel.", "",
             "| laps of every row's move | step, ms |", "|---|---|"]
    lines += [f"| {depth} | {seconds * 1e3:.1f} |" for depth, seconds in cost["seconds"].items()]
    lines += ["", "| game | laps a move, mean | most | deepest of a batch |", "|---|---|---|---|"]
    lines += [f"| {name} | {row['mean']:.2f} | {row['most']} | {row['deepest_of_a_batch']:.1f} |"
              for name, row in sorted(results["laps"].items(), key=lambda item: -item[1]["deepest_of_a_batch"])]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
