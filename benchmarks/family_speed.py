"""Speed of the two-row family (one rules space, mancala_marl.games.family) next to the
dedicated Kalah kernel, in one run, as ratios.

    .venv/bin/python benchmarks/family_speed.py --oracle ../shared/oracles/mancalagames
    .venv/bin/python benchmarks/family_speed.py --seconds 0.1 --reps 3    # a shorter look

Rows: Family with Kalah's rules (``family.kalah_rules()``: Kalah(6, 4) written as the family's
parameters, which plays move for move as the Kalah kernel), then ten traditional games of the
family. Columns, each a rate per CPU-second of this process:

- kernel: random playouts on one core through the batch engine (mancala_marl.batch.random_playouts,
  serial, 256 games at a time: the compiled kernels behind the engine's dispatcher), moves per
  CPU-second, against Kalah(6, 4)'s own kernel the same way. Target: Kalah's rules at >= 0.5 of it.
- AEC: family_v0.raw_env(**params), random legal moves through env.last() and env.step() (the loop
  of benchmarks/speed.py, over whole games), steps per CPU-second, against kalah_v0.raw_env().
  Target: >= 0.8 of kalah_v0.
- with ``--oracle DIR`` only: MancalaGames' own engine on the same games, the peer row (random legal
  moves through its get_moves, move and test_pass, one Python game at a time, driven by
  benchmarks/family_crosscheck.py's driver), and ours the same way from Python (Game.legal_mask
  and Game.apply, one move at a time), moves per CPU-second.

The ten games are read from MancalaGames' files with load_mancalagames where ``--oracle`` names its
folder; without it they are the package's named presets (make_game("wari"), ...), which hold the
same parameters (Oware.txt has no family preset and is left out then; the registered "oware" is
another engine). Each figure is the median of ``--reps`` repetitions of about ``--seconds``
CPU-seconds; within a repetition the game and its reference (Kalah's kernel, kalah_v0) run back to
back and a ratio is taken, so that a load that changes during the run moves both.

Writes family_speed.json and family_speed.md to ``--results-dir``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from results_dir import add_results_dir, results_dir

NAME = "family_speed"
# (MancalaGames' file, the package's named preset of the same game, or None)
GAME_FILES = (("Wari.txt", "wari"), ("Oware.txt", None), ("Ayoayo.txt", "ayoayo"), ("Dakon.txt", "dakon"),
              ("Bohnenspiel.txt", "bohnenspiel"), ("Songo.txt", "songo"), ("Endodoi.txt", "endodoi"),
              ("Ohvulhu.txt", "ohvalhu"), ("Vai_Lun_Thlan.txt", "vai_lun_thlan"), ("Mangala_II.txt", "mangala_ii"))
KALAH_ROW = "Kalah's rules"
TARGETS = {"kernel": 0.5, "aec": 0.8}
BATCH = 256


# -- the measures: (count, CPU seconds, games) ------------------------------------------------
def playouts(game, seconds: float, seed: int) -> tuple[int, float, int]:
    """Random playouts of BATCH games at a time on one core until ``seconds`` CPU-seconds."""
    from mancala_marl import batch

    moves = games = 0
    cpu = 0.0
    while not games or cpu < seconds:  # one batch at least: a warm-up passes seconds=0
        states = batch.init_states(game, BATCH)
        start = time.process_time()
        moves += int(batch.random_playouts(game, states, seed=seed + games).sum())
        cpu += time.process_time() - start
        games += BATCH
    return moves, cpu, games


def aec_steps(env, seconds: float, seed: int) -> tuple[int, float, int]:
    """Random legal play through agent_iter()/last()/step() (benchmarks/speed.py's loop), whole
    games until ``seconds`` CPU-seconds."""
    rng = random.Random(seed)
    steps = games = 0
    start = time.process_time()
    while not games or time.process_time() - start < seconds:  # one game at least
        env.reset(seed=seed + games)
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            action = None if terminated or truncated else rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
            env.step(action)
            steps += 1
        games += 1
    return steps, time.process_time() - start, games


def python_moves(game, seconds: float, seed: int) -> tuple[int, float, int]:
    """Ours from Python, one move at a time: Game.legal_mask and Game.apply."""
    rng = random.Random(seed)
    moves = games = 0
    start = time.process_time()
    while not games or time.process_time() - start < seconds:
        state = game.init()
        while not game.is_terminal(state):
            game.apply(state, rng.choice(game.legal_mask(state).nonzero()[0].tolist()))
            moves += 1
        games += 1
    return moves, time.process_time() - start, games


def oracle_moves(oracle, play_alone, name: str, seconds: float, seed: int, max_moves: int) -> tuple[int, float, int]:
    """MancalaGames alone, through benchmarks/family_crosscheck.py's driver (its random moves drawn
    there), whole games until ``seconds`` CPU-seconds."""
    moves = games = 0
    start = time.process_time()
    while not games or time.process_time() - start < seconds:
        moves += play_alone(oracle, seed, name, games, max_moves)
        games += 1
    return moves, time.process_time() - start, games


def paired(measure_one, measure_ref, reps: int) -> dict:
    """``reps`` repetitions of the game's measure then its reference's, back to back: the median
    rates, the median of the per-repetition ratios, and counts per game."""
    ours, ref, ratios, per_game, ref_per_game = [], [], [], [], []
    for _ in range(reps):
        count, cpu, games = measure_one()
        ref_count, ref_cpu, ref_games = measure_ref()
        ours.append(count / cpu)
        ref.append(ref_count / ref_cpu)
        ratios.append(ours[-1] / ref[-1])
        per_game.append(count / games)
        ref_per_game.append(ref_count / ref_games)
    return {"per_s": round(statistics.median(ours)), "reference_per_s": round(statistics.median(ref)),
            "ratio": round(statistics.median(ratios), 3), "ratios": [round(r, 3) for r in ratios],
            "per_game": round(statistics.mean(per_game), 1), "reference_per_game": round(statistics.mean(ref_per_game), 1)}


def single(measure, reps: int) -> dict:
    rates, per_game = [], []
    for _ in range(reps):
        count, cpu, games = measure()
        rates.append(count / cpu)
        per_game.append(count / games)
    return {"per_s": round(statistics.median(rates)), "per_game": round(statistics.mean(per_game), 1)}


# -- the games ---------------------------------------------------------------------------------
def family_games(oracle_dir: Path | None) -> list[dict]:
    """The rows: name, the family game, where its rules come from and MancalaGames' file."""
    from mancala_marl.games import Family, load_mancalagames, make_game
    from mancala_marl.games.family import kalah_rules

    # Kalah(6, 4) as the family's parameters: the same games as Kalah's kernel, move for move
    rows = [{"name": KALAH_ROW, "game": Family(**kalah_rules()), "source": "Family(**kalah_rules())",
             "file": "Kalah.txt"}]
    for file, preset in GAME_FILES:
        if oracle_dir is not None:
            game, source = load_mancalagames(oracle_dir / "GameProps" / file), f"load_mancalagames({file})"
        elif preset is not None:
            game, source = make_game(preset), f'make_game("{preset}")'
        else:
            continue
        rows.append({"name": Path(file).stem, "game": game, "source": source, "file": file})
    return rows


def changed_params(game) -> dict:
    """The game's rule parameters that differ from the family's defaults."""
    defaults = {param.name: param.default for param in type(game).parameters}
    return {key: value for key, value in game.params.items() if defaults.get(key) != value}


def machine() -> dict:
    import numba

    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")),
               platform.processor())
    return {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(), "numpy": np.__version__,
            "numba": numba.__version__, "load_average_at_start": os.getloadavg()}


def positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value <= 60:
        raise argparse.ArgumentTypeError(f"must be a number of seconds > 0 and <= 60, got {text!r}")
    return value


def repetitions(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= 100:
        raise argparse.ArgumentTypeError(f"must be an integer >= 1 and <= 100, got {text!r}")
    return value


# -- the run -----------------------------------------------------------------------------------
def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--oracle", type=Path, metavar="DIR",
                        help="the MancalaGames folder (../shared/oracles/mancalagames beside the clone): the games "
                             "read from its files, and its engine's row; without it, the named presets and no peer")
    parser.add_argument("--seconds", type=positive_float, default=0.25,
                        help="CPU-seconds of each measure in each repetition (default 0.25)")
    parser.add_argument("--reps", type=repetitions, default=5, help="repetitions; medians are kept (default 5)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random moves (default 0)")
    add_results_dir(parser)
    args = parser.parse_args(argv)

    from family_crosscheck import git_revision  # the same record of the code measured

    from mancala_marl import family_v0, kalah_v0
    from mancala_marl.games import MAX_MOVES, Kalah
    from mancala_marl.games.family import kalah_rules

    peer = None
    if args.oracle is not None:
        from family_crosscheck import Oracle, load_oracle, oracle_commit, play_oracle_alone

        peer = (load_oracle(args.oracle), play_oracle_alone, oracle_commit(args.oracle))
    rows = family_games(args.oracle)
    kalah = Kalah()
    seconds, reps, seed = args.seconds, args.reps, args.seed
    command = "python benchmarks/family_speed.py " + " ".join(argv if argv is not None else sys.argv[1:])
    results = {"command": command.strip(), "machine": machine(), "revision": git_revision(),
               "seconds": seconds, "reps": reps, "batch": BATCH, "seed": seed, "targets": TARGETS,
               "kalah_rules": kalah_rules(), "rows": {}}
    if peer is not None:
        results["oracle"] = {"name": "MancalaGames", "commit": peer[2], "folder": str(args.oracle)}

    # warm-ups: numba's kernels compiled (or loaded from its cache) before any timing
    playouts(kalah, 0, seed)
    playouts(rows[0]["game"], 0, seed)
    kalah_env = kalah_v0.raw_env()
    aec_steps(kalah_env, 0, seed)

    for row in rows:
        game, name = row["game"], row["name"]
        out = results["rows"][name] = {"source": row["source"], "params": changed_params(game)}
        out["kernel"] = paired(lambda game=game: playouts(game, seconds, seed),
                               lambda: playouts(kalah, seconds, seed), reps)
        env = family_v0.raw_env(**game.params)
        aec_steps(env, 0, seed)
        out["aec"] = paired(lambda env=env: aec_steps(env, seconds, seed),
                            lambda: aec_steps(kalah_env, seconds, seed), reps)
        line = (f"{name:16s} kernel {out['kernel']['per_s'] / 1e6:6.2f} M moves/s, {out['kernel']['ratio']:.2f} of "
                f"Kalah's; AEC {out['aec']['per_s']:8,} steps/s, {out['aec']['ratio']:.2f} of kalah_v0")
        if peer is not None:
            (man_config, game_info), play_alone, _commit = peer
            oracle = Oracle(man_config, game_info, args.oracle / "GameProps" / row["file"])
            python_moves(game, 0, seed)  # warm-up: Game.apply's kernels
            out["python"] = single(lambda game=game: python_moves(game, seconds, seed), reps)
            out["mancalagames"] = single(lambda oracle=oracle, file=row["file"]: oracle_moves(
                oracle, play_alone, file, seconds, seed, MAX_MOVES), reps)
            out["mancalagames"]["file"] = row["file"]
            line += (f"; from Python {out['python']['per_s']:7,} moves/s, MancalaGames "
                     f"{out['mancalagames']['per_s']:6,}")
        print(line, flush=True)

    results["machine"]["load_average_at_end"] = os.getloadavg()
    results["summary"] = summary(results["rows"])
    table = markdown(results)
    print(table)
    folder = results_dir(args)
    (folder / f"{NAME}.json").write_text(json.dumps(results, indent=2) + "\n")
    (folder / f"{NAME}.md").write_text(table)
    print(f"wrote {folder / NAME}.json and {NAME}.md")
    return 0


def summary(rows: dict) -> dict:
    kalah_row = rows[KALAH_ROW]
    games = [row for name, row in rows.items() if name != KALAH_ROW]
    out = {"kalah_rules_kernel_ratio": kalah_row["kernel"]["ratio"],
           "kernel_ratio_median_of_games": round(statistics.median(row["kernel"]["ratio"] for row in games), 3)
           if games else None,
           "aec_ratio_kalah_rules": kalah_row["aec"]["ratio"],
           "aec_ratio_median_of_games": round(statistics.median(row["aec"]["ratio"] for row in games), 3)
           if games else None,
           "aec_ratio_lowest": min(row["aec"]["ratio"] for row in rows.values())}
    out["kernel_target_met"] = out["kalah_rules_kernel_ratio"] >= TARGETS["kernel"]
    out["aec_target_met"] = out["aec_ratio_lowest"] >= TARGETS["aec"]
    return out


def markdown(results: dict) -> str:
    rows, total, m = results["rows"], results["summary"], results["machine"]
    peer = "oracle" in results
    load = lambda a: "/".join(f"{x:.1f}" for x in a)  # noqa: E731
    kalah = rows[KALAH_ROW]
    lines = [f"Made with `{results['command']}` at {(results['revision']['commit'] or 'an unknown commit')[:7]}"
             f"{' (uncommitted changes)' if results['revision']['dirty'] else ''} on {m['cpu']}, {m['cores']} cores; "
             f"load average (1/5/15 min) {load(m['load_average_at_start'])} at start, "
             f"{load(m['load_average_at_end'])} at end. Rates per CPU-second, medians of {results['reps']} "
             f"repetitions of {results['seconds']} s; ratios: medians of the repetitions' ratios.", "",
             f"Kalah(6, 4)'s own kernel: {kalah['kernel']['reference_per_s'] / 1e6:.2f} M moves/s "
             f"({kalah['kernel']['reference_per_game']} moves a game); kalah_v0: {kalah['aec']['reference_per_s']:,} "
             "steps/s.", "",
             f"Family with Kalah's rules: {total['kalah_rules_kernel_ratio']:.2f} of Kalah's kernel (target "
             f"{TARGETS['kernel']}: {'met' if total['kernel_target_met'] else 'missed'}); the AEC env at "
             f"{total['aec_ratio_lowest']:.2f} of kalah_v0 at the lowest (target {TARGETS['aec']}: "
             f"{'met' if total['aec_target_met'] else 'missed'}).", ""]
    head = ["game", "moves a game", "kernel, M moves/s", "vs Kalah's kernel", "AEC steps/s", "vs kalah_v0"]
    if peer:
        head += ["ours from Python, moves/s", "MancalaGames, moves/s", "kernel vs MancalaGames",
                 "Python vs MancalaGames"]
    lines += ["| " + " | ".join(head) + " |", "|---" + "|---:" * (len(head) - 1) + "|"]
    for name, row in rows.items():
        cells = [name, f"{row['kernel']['per_game']:.1f}", f"{row['kernel']['per_s'] / 1e6:.2f}",
                 f"{row['kernel']['ratio']:.2f}", f"{row['aec']['per_s']:,}", f"{row['aec']['ratio']:.2f}"]
        if peer:
            theirs = row["mancalagames"]["per_s"]
            cells += [f"{row['python']['per_s']:,}", f"{theirs:,}", f"{row['kernel']['per_s'] / theirs:,.0f}x",
                      f"{row['python']['per_s'] / theirs:.1f}x"]
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "Rules: " + "; ".join(f"{name}: {row['source']}" for name, row in rows.items()) + "."]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
