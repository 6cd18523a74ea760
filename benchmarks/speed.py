"""Speed of mancala_marl next to its peers, in one run; medians of several repetitions.

    .venv/bin/python benchmarks/speed.py            # full run (about 10 minutes on 2 cores)
    .venv/bin/python benchmarks/speed.py --quick    # smaller sizes, fewer repetitions (1-3 minutes)

Needs the ``bench`` extra (open_spiel, shimmy, pygame for PettingZoo's connect_four) and the
``train`` extra (sb3-contrib). Prints tables and writes ``speed.json`` and ``speed.md`` to
``--results-dir`` (default ``benchmarks/results/speed/``; ``--quick`` writes nothing unless one is given,
so a smoke run leaves the shipped figures as they are). Sections: AEC random play; engine moves from Python vs pyspiel; batch engine
random playouts at several batch sizes on one core and on all; MaskablePPO rollouts with
DummyVecEnv vs the vectorized env, and a short training run both ways; memory per game; numba
compile time (empty cache vs warm cache); a differential run of the batch engine against the
single-game engine (100,000 random games per game in the full run).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

import numba

from mancala_marl import ENV_MODULES, batch
from mancala_marl.games import GAME_OVER, make_game
from mancala_marl.games import GAMES as REGISTRY
from results_dir import NOTHING_WRITTEN, add_quick_results_dir, quick_results_dir

GAMES = {name: cls() for name, cls in REGISTRY.items()}  # every registered game, default rules
OURS_AEC = ENV_MODULES
# Like-for-like peers: OpenSpiel's game with the same rules, played through Shimmy's PettingZoo
# wrapper (AEC) and from pyspiel directly (engine).
OPENSPIEL_PEERS = {"kalah": "mancala", "oware": "oware"}


def median_rate(fn, reps):
    """fn() -> (count, wall seconds). Returns {"wall": median count per wall-clock second,
    "cpu": median count per CPU-second of this process} over ``reps`` runs. On a machine shared
    with other jobs the CPU-second figure is what a dedicated core would give (about)."""
    wall, cpu = [], []
    for _ in range(reps):
        start = time.process_time()
        count, seconds = fn()
        wall.append(count / seconds)
        cpu.append(count / max(time.process_time() - start, 1e-9))
    return {"wall": statistics.median(wall), "cpu": statistics.median(cpu)}


def fmt(rate):
    return f"{rate['wall']:>12,.0f} /s wall, {rate['cpu']:>12,.0f} per CPU-second"


def machine():
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")),
               platform.processor())
    import gymnasium
    import pettingzoo
    return {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(), "numpy": np.__version__,
            "numba": numba.__version__, "gymnasium": gymnasium.__version__, "pettingzoo": pettingzoo.__version__,
            "numba_threads": numba.get_num_threads(), "load_average_at_start": os.getloadavg()}


# -- AEC -------------------------------------------------------------------------------------
def aec_random_play(env, steps, seed=0):
    """Random legal play through agent_iter()/last()/step(), the loop PettingZoo's docs show."""
    rng = random.Random(seed)
    n = 0
    env.reset(seed=seed)
    start = time.perf_counter()
    while n < steps:
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                action = None
            else:
                mask = obs["action_mask"] if isinstance(obs, dict) else info["action_mask"]
                action = rng.choice(np.flatnonzero(mask).tolist())
            env.step(action)
            n += 1
        env.reset()
    return n, time.perf_counter() - start


def bench_aec(steps, reps):
    import warnings

    from pettingzoo.classic import connect_four_v3
    from shimmy import OpenSpielCompatibilityV0

    warnings.filterwarnings("ignore")
    envs = {f"mancala_marl {name} env()": mod.env() for name, mod in OURS_AEC.items()}
    envs.update({f"mancala_marl {name} raw_env()": mod.raw_env() for name, mod in OURS_AEC.items()})
    for peer in OPENSPIEL_PEERS.values():
        envs[f"OpenSpiel {peer} via Shimmy"] = OpenSpielCompatibilityV0(game_name=peer)
    envs["PettingZoo connect_four_v3"] = connect_four_v3.env()
    out = {}
    for name, env in envs.items():
        aec_random_play(env, 200)  # warm-up (numba, caches)
        out[name] = median_rate(lambda env=env: aec_random_play(env, steps), reps)
        print(f"  AEC {name:40s} {fmt(out[name])}", flush=True)
    return out


# -- engine from Python ----------------------------------------------------------------------
def engine_moves(game, moves, seed=0):
    rng = random.Random(seed)
    state, n = game.init(), 0
    start = time.perf_counter()
    while n < moves:
        if state[game.to_move_index] == GAME_OVER:
            state = game.init()
        game.apply(state, rng.choice(np.flatnonzero(game.legal_mask(state)).tolist()))
        n += 1
    return n, time.perf_counter() - start


def pyspiel_moves(game, moves, seed=0):
    rng = random.Random(seed)
    state, n = game.new_initial_state(), 0
    start = time.perf_counter()
    while n < moves:
        if state.is_terminal():
            state = game.new_initial_state()
        state.apply_action(rng.choice(state.legal_actions()))
        n += 1
    return n, time.perf_counter() - start


def bench_engine(moves, reps):
    import pyspiel

    out = {f"mancala_marl {name} Game.apply": median_rate(lambda g=g: engine_moves(g, moves), reps)
           for name, g in GAMES.items()}
    for name in OPENSPIEL_PEERS.values():
        out[f"pyspiel {name} apply_action"] = median_rate(lambda g=pyspiel.load_game(name): pyspiel_moves(g, moves), reps)
    for name, rate in out.items():
        print(f"  engine {name:40s} {fmt(rate)}", flush=True)
    return out


# -- batch engine ----------------------------------------------------------------------------
def playouts(game, size, parallel, min_moves, max_seconds=2.0):
    """Random playouts of ``size`` games at a time, repeated until ``min_moves`` moves (or
    ``max_seconds`` of wall clock). Returns (moves, wall seconds, CPU seconds of this process)."""
    total, wall, cpu, seed = 0, 0.0, 0.0, 0
    while total < min_moves and wall < max_seconds:
        states = batch.init_states(game, size)
        start, start_cpu = time.perf_counter(), time.process_time()
        total += int(batch.random_playouts(game, states, seed=seed, parallel=parallel).sum())
        wall += time.perf_counter() - start
        cpu += time.process_time() - start_cpu
        seed += size
    return total, wall, cpu


def bench_batch(sizes, min_moves, reps):
    """Wall-clock moves/s, and for one core also moves per CPU-second of this process, which is
    what a dedicated core would give when other jobs share the machine."""
    out = {}
    threads = numba.config.NUMBA_NUM_THREADS
    for name, game in GAMES.items():
        for size in sizes:
            for cores in (1, threads):
                numba.set_num_threads(cores)
                playouts(game, size, cores > 1, 1000)  # warm-up
                runs = [playouts(game, size, cores > 1, min_moves) for _ in range(reps)]
                rate = statistics.median(n / w for n, w, _ in runs)
                out[f"{name} batch={size} cores={cores}"] = rate
                line = f"  batch {name:14s} size {size:6d} cores {cores}: {rate / 1e6:8.2f} M moves/s wall"
                if cores == 1:
                    cpu_rate = statistics.median(n / c for n, _, c in runs)
                    out[f"{name} batch={size} cores=1 per CPU-second"] = cpu_rate
                    line += f", {cpu_rate / 1e6:8.2f} M moves per CPU-second"
                print(line, flush=True)
    numba.set_num_threads(threads)
    return out


def bench_memory():
    out = {}
    for name, game in GAMES.items():
        states = batch.init_states(game, 16384)
        masks = batch.legal_masks(game, states)
        out[name] = {"state_bytes": states.nbytes // 16384, "state_plus_mask_bytes": (states.nbytes + masks.nbytes) // 16384}
    print(f"  memory per game (bytes): {out}", flush=True)
    return out


# -- MaskablePPO -----------------------------------------------------------------------------
def bench_ppo(num_envs, n_steps, train_steps, reps, large_envs=None):
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from mancala_marl.single_agent import SingleAgentEnv
    from mancala_marl.train.vector_env import MancalaVecEnv

    torch.set_num_threads(1)  # the same budget both ways; the env is what is compared
    kwargs = dict(opponent="random", seat="random", reward="score_diff")

    def make(kind, n=num_envs):
        if kind == "DummyVecEnv":
            return DummyVecEnv([lambda: SingleAgentEnv("sungka", **kwargs) for _ in range(n)])
        return MancalaVecEnv(n, "sungka", **kwargs)

    def rollout(kind, n=num_envs, steps=n_steps):
        model = MaskablePPO("MlpPolicy", make(kind, n), n_steps=steps, batch_size=256, seed=0, device="cpu")
        _, callback = model._setup_learn(steps * n, None)
        callback.on_training_start(locals(), globals())
        start = time.perf_counter()
        model.collect_rollouts(model.env, callback, model.rollout_buffer, steps)
        return steps * n, time.perf_counter() - start

    def train(kind):
        model = MaskablePPO("MlpPolicy", make(kind), n_steps=n_steps, batch_size=256, n_epochs=4, seed=0, device="cpu")
        start, start_cpu = time.perf_counter(), time.process_time()
        model.learn(train_steps)
        return {"wall": time.perf_counter() - start, "cpu": time.process_time() - start_cpu}

    def env_only(kind, n=num_envs, steps=n_steps):
        env, rng = make(kind, n), np.random.default_rng(0)
        env.seed(0)
        env.reset()
        start = time.perf_counter()
        for _ in range(steps):
            masks = np.stack(env.env_method("action_masks"))
            k = (rng.random(n) * masks.sum(axis=1)).astype(np.int64)
            env.step((masks.cumsum(axis=1) > k[:, None]).argmax(axis=1))
        return steps * n, time.perf_counter() - start

    out = {"num_envs": num_envs, "n_steps": n_steps, "train_timesteps": train_steps, "game": "sungka", **kwargs}
    for kind in ("DummyVecEnv", "MancalaVecEnv"):
        env_only(kind)  # warm-up
        out[f"env only {kind} env steps/s"] = median_rate(lambda k=kind: env_only(k), reps)
        print(f"  env alone (random legal actions) {kind:14s} {fmt(out[f'env only {kind} env steps/s'])}", flush=True)
    for kind in ("DummyVecEnv", "MancalaVecEnv"):
        rollout(kind)  # warm-up
        out[f"rollout {kind} env steps/s"] = median_rate(lambda k=kind: rollout(k), reps)
        out[f"train {kind} seconds"] = train(kind)
        print(f"  MaskablePPO {kind:14s} rollouts {fmt(out[f'rollout {kind} env steps/s'])}, "
              f"{train_steps} training steps in {out[f'train {kind} seconds']['wall']:.1f} s wall, "
              f"{out[f'train {kind} seconds']['cpu']:.1f} CPU-s", flush=True)
    if large_envs:  # more envs per step: the policy's per-step cost is shared by more env steps
        large = out["large"] = {"num_envs": large_envs, "n_steps": 32}
        for kind in ("DummyVecEnv", "MancalaVecEnv"):
            rollout(kind, large_envs, 8)  # warm-up
            large[f"env only {kind} env steps/s"] = median_rate(lambda k=kind: env_only(k, large_envs, 32), reps)
            large[f"rollout {kind} env steps/s"] = median_rate(lambda k=kind: rollout(k, large_envs, 32), reps)
            print(f"  {large_envs} envs {kind:14s} env alone {fmt(large[f'env only {kind} env steps/s'])}; "
                  f"rollouts {fmt(large[f'rollout {kind} env steps/s'])}", flush=True)
    return out


# -- compile time ----------------------------------------------------------------------------
COMPILE_SNIPPETS = {  # import + first calls, in a fresh process
    "batch": """
import time; t, c = time.perf_counter(), time.process_time()
from mancala_marl import batch, observations
from mancala_marl.games import Kalah
g = Kalah(); batch.random_playouts(g, batch.init_states(g, 4)); batch.random_playouts(g, batch.init_states(g, 4), parallel=True)
batch.apply_moves(g, batch.init_states(g, 4), [0, 1, 2, 3]); observations.encode_batch(g, batch.init_states(g, 4), 0)
print(time.perf_counter() - t, time.process_time() - c)
""",
    "vector": """
import time; t, c = time.perf_counter(), time.process_time()
from mancala_marl.train.vector_env import MancalaVecEnv
env = MancalaVecEnv(2, "sungka", opponent="random"); env.reset(); env.step(env.action_masks().argmax(axis=1))
print(time.perf_counter() - t, time.process_time() - c)
""",
}


def bench_compile():
    """Seconds (wall and CPU) for import + first calls with an empty numba cache, then with the
    cache that run wrote."""
    out = {}
    for name, snippet in COMPILE_SNIPPETS.items():
        with tempfile.TemporaryDirectory() as cache:
            env = {**os.environ, "NUMBA_CACHE_DIR": cache}
            runs = [[float(x) for x in subprocess.run([sys.executable, "-c", snippet], cwd=ROOT, env=env, check=True,
                                                       capture_output=True, text=True).stdout.split()[-2:]]
                    for _ in range(2)]
        out[name] = {"empty_cache_seconds": runs[0][0], "warm_cache_seconds": runs[1][0],
                     "empty_cache_cpu_seconds": runs[0][1], "warm_cache_cpu_seconds": runs[1][1]}
        print(f"  compile {name}: import + first calls {runs[0][0]:.1f} s ({runs[0][1]:.1f} CPU-s) with an empty "
              f"cache, {runs[1][0]:.1f} s ({runs[1][1]:.1f} CPU-s) with a warm cache", flush=True)
    return out


# -- differential ----------------------------------------------------------------------------
def differential(game, n_games, seed=0):
    """Play ``n_games`` random games in lockstep through the batch engine and, row by row, through
    ``Game.apply``; returns the number of games whose states differ at the end (a move the single
    engine refuses counts as a difference)."""
    rng = np.random.default_rng(seed)
    states = batch.init_states(game, n_games)
    singles = [game.init() for _ in range(n_games)]
    bad = np.zeros(n_games, dtype=bool)
    live = np.arange(n_games)
    while live.size:
        masks = batch.legal_masks(game, states[live])
        k = (rng.random(live.size) * masks.sum(axis=1)).astype(np.int64)
        actions = (masks.cumsum(axis=1) > k[:, None]).argmax(axis=1)  # the k-th legal pit
        sub = states[live]
        batch.apply_moves(game, sub, actions)
        states[live] = sub
        for row, action in zip(live.tolist(), actions.tolist()):
            if not bad[row]:
                try:
                    game.apply(singles[row], action)
                except ValueError:
                    bad[row] = True
        live = live[states[live, game.to_move_index] != GAME_OVER]
    bad |= ~np.array([np.array_equal(a, b) for a, b in zip(states, singles)])
    return int(bad.sum())


def bench_differential(n_games):
    out = {}
    for name, game in GAMES.items():
        start = time.perf_counter()
        out[name] = {"games": n_games, "mismatched_games": differential(make_game(name), n_games),
                     "seconds": time.perf_counter() - start}
        print(f"  differential {name}: {out[name]}", flush=True)
    return out


SECTIONS = ("aec", "engine", "batch", "memory", "ppo", "compile", "differential")
# What each section's peers or training need beyond the core, and the extra that brings it
NEEDS = {"aec": [("pygame", "bench"), ("shimmy", "bench"), ("pyspiel", "bench")], "engine": [("pyspiel", "bench")],
         "ppo": [("sb3_contrib", "train")]}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small sizes and 3 repetitions (a smoke run)")
    parser.add_argument("--sections", nargs="+", choices=SECTIONS, default=list(SECTIONS),
                        help="run only these sections and update them in an existing speed.json")
    add_quick_results_dir(parser, "speed.json and speed.md")
    args = parser.parse_args(argv)
    missing = {module: extra for name in args.sections for module, extra in NEEDS.get(name, ())
               if importlib.util.find_spec(module) is None}
    if missing:
        extras = ",".join(sorted(set(missing.values())))
        parser.error(f"{', '.join(sorted(missing))} missing: pip install -e '.[{extras}]' (make bench installs "
                     "[bench]), or leave those sections out with --sections")
    quick, want = args.quick, set(args.sections)
    folder = quick_results_dir(args, quick)
    out = (folder or Path(tempfile.mkdtemp())) / "speed.json"
    reps = 3 if quick else 5
    command = "python benchmarks/speed.py" + (" --quick" if quick else "")
    if want != set(SECTIONS):
        command += " --sections " + " ".join(args.sections)
    results = json.loads(out.read_text()) if want != set(SECTIONS) and out.exists() else {}
    results.setdefault("runs", []).append({"command": command, "machine": machine()})
    print(f"machine: {results['runs'][-1]['machine']}", flush=True)
    sections = {
        "aec": ("aec_steps_per_s", lambda: bench_aec(5_000 if quick else 30_000, reps)),
        "engine": ("engine_moves_per_s", lambda: bench_engine(20_000 if quick else 100_000, reps)),
        "batch": ("batch_moves_per_s", lambda: bench_batch([1, 64, 1024, 16384], 300_000 if quick else 3_000_000, reps)),
        "memory": ("memory", bench_memory),
        "ppo": ("maskable_ppo", lambda: bench_ppo(64, 32 if quick else 128, 4096 if quick else 65536,
                                                   2 if quick else 3, large_envs=128 if quick else 512)),
        "compile": ("compile", bench_compile),
        "differential": ("differential", lambda: bench_differential(2_000 if quick else 100_000)),
    }
    for name in SECTIONS:
        if name in want:
            key, run = sections[name]
            results[key] = run()
    results["runs"][-1]["machine"]["load_average_at_end"] = os.getloadavg()
    tables = markdown(results) if all(sections[name][0] in results for name in SECTIONS) else None
    if tables:
        print(tables)
    if folder is None:
        print(NOTHING_WRITTEN)
        return
    out.write_text(json.dumps(results, indent=2))
    if tables:
        out.with_suffix(".md").write_text(tables)
    print(f"wrote {out}" + (" and speed.md" if tables else ""))


def markdown(r):
    aec, eng, bat, ppo = r["aec_steps_per_s"], r["engine_moves_per_s"], r["batch_moves_per_s"], r["maskable_ppo"]
    def peer(row):  # the Shimmy+OpenSpiel figure of the row's game (else OpenSpiel mancala's)
        game = next((name for name in OPENSPIEL_PEERS if f" {name} " in f" {row} "), "kalah")
        return aec[f"OpenSpiel {OPENSPIEL_PEERS[game]} via Shimmy"]["cpu"]
    lines = []
    for run in r["runs"]:
        m = run["machine"]
        load = lambda a: "/".join(f"{x:.1f}" for x in a)  # noqa: E731
        lines.append(f"- `{run['command']}` on {m['cpu']}, {m['cores']} cores, Python {m['python']}, numpy "
                     f"{m['numpy']}, numba {m['numba']}; load average (1/5/15 min) {load(m['load_average_at_start'])}"
                     f" at start, {load(m['load_average_at_end'])} at end.")
    lines += ["",
             "| AEC random play | steps/s (wall) | steps per CPU-second | vs Shimmy+OpenSpiel, same game (CPU) |",
             "|---|---:|---:|---:|"]
    lines += [f"| {k} | {v['wall']:,.0f} | {v['cpu']:,.0f} | {v['cpu'] / peer(k):.1f}x |" for k, v in aec.items()]
    lines += ["", "| Engine from Python (random legal moves) | moves/s (wall) | moves per CPU-second |", "|---|---:|---:|"]
    lines += [f"| {k} | {v['wall']:,.0f} | {v['cpu']:,.0f} |" for k, v in eng.items()]
    sizes = sorted({int(k.split("batch=")[1].split()[0]) for k in bat})
    cores = sorted({int(k.split("cores=")[1].split()[0]) for k in bat})
    head = [f"{s}, {c} core{'s' if c > 1 else ''}" for s in sizes for c in cores]
    lines += ["", "| Batch random playouts, M moves/s (wall) | " + " | ".join(head) + " |",
              "|---" + "|---:" * len(head) + "|"]
    for name in GAMES:
        lines.append(f"| {name} | " + " | ".join(f"{bat[f'{name} batch={s} cores={c}'] / 1e6:.2f}"
                                                for s in sizes for c in cores) + " |")
    lines += ["", "| Batch random playouts, one core, M moves per CPU-second | " + " | ".join(map(str, sizes)) + " |",
              "|---" + "|---:" * len(sizes) + "|"]
    for name in GAMES:
        lines.append(f"| {name} | " + " | ".join(f"{bat[f'{name} batch={s} cores=1 per CPU-second'] / 1e6:.2f}"
                                                for s in sizes) + " |")
    d, v = ppo["rollout DummyVecEnv env steps/s"]["cpu"], ppo["rollout MancalaVecEnv env steps/s"]["cpu"]
    e1, e2 = ppo["env only DummyVecEnv env steps/s"]["cpu"], ppo["env only MancalaVecEnv env steps/s"]["cpu"]
    lines += ["", f"| Sungka vs random, {ppo['num_envs']} envs, per CPU-second | DummyVecEnv | MancalaVecEnv | ratio |",
              "|---|---:|---:|---:|",
              f"| env alone (random legal actions), env steps | {e1:,.0f} | {e2:,.0f} | {e2 / e1:.1f}x |",
              f"| MaskablePPO rollout, env steps | {d:,.0f} | {v:,.0f} | {v / d:.1f}x |",
              f"| MaskablePPO, {ppo['train_timesteps']:,} training steps, CPU-seconds (wall) | "
              f"{ppo['train DummyVecEnv seconds']['cpu']:.1f} ({ppo['train DummyVecEnv seconds']['wall']:.1f}) | "
              f"{ppo['train MancalaVecEnv seconds']['cpu']:.1f} ({ppo['train MancalaVecEnv seconds']['wall']:.1f}) | "
              f"{ppo['train DummyVecEnv seconds']['cpu'] / ppo['train MancalaVecEnv seconds']['cpu']:.1f}x |"]
    if "large" in ppo:
        big = ppo["large"]
        e1, e2 = big["env only DummyVecEnv env steps/s"]["cpu"], big["env only MancalaVecEnv env steps/s"]["cpu"]
        d, v = big["rollout DummyVecEnv env steps/s"]["cpu"], big["rollout MancalaVecEnv env steps/s"]["cpu"]
        lines += [f"| env alone, {big['num_envs']} envs | {e1:,.0f} | {e2:,.0f} | {e2 / e1:.1f}x |",
                  f"| MaskablePPO rollout, {big['num_envs']} envs | {d:,.0f} | {v:,.0f} | {v / d:.1f}x |"]
    lines += ["", "| Memory per game in the batch engine | state bytes | state + mask bytes |", "|---|---:|---:|"]
    lines += [f"| {k} | {v['state_bytes']} | {v['state_plus_mask_bytes']} |" for k, v in r["memory"].items()]
    lines += ["", "| Import + first calls, fresh process | empty numba cache: CPU-s (wall s) | warm cache: CPU-s (wall s) |",
              "|---|---:|---:|"]
    lines += [f"| {k} | {v['empty_cache_cpu_seconds']:.1f} ({v['empty_cache_seconds']:.1f}) | "
              f"{v['warm_cache_cpu_seconds']:.1f} ({v['warm_cache_seconds']:.1f}) |" for k, v in r["compile"].items()]
    lines += ["", "Differential run, batch engine vs Game.apply in lockstep: " + "; ".join(
                  f"{k}: {v['mismatched_games']} of {v['games']:,} games differ" for k, v in r["differential"].items())]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
