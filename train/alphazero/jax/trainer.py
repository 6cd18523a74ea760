"""The loop of a JAX AlphaZero run: generations on the devices (:class:`.learner.Learner`), the
network exported for the CPU ``alphazero`` policy, checkpoints, TensorBoard and evaluations.

A run directory holds what the torch backend's holds: ``config.json``, ``checkpoints/last.npz``
(network, optimiser state, replay buffer, random key, generation; written atomically after every
generation, so ``--resume`` goes on from the same state), ``network.npz`` (the newest network),
``evaluations.csv`` and ``tb/`` (TensorBoard, written with tensorboardX: no torch here).
"""

from __future__ import annotations

import time
from pathlib import Path

import jax
import numpy as np

from mancala_marl.games import make_game

from ..trainer import evaluate  # the exported network against the baselines, on CPU
from .config import JaxAlphaZeroConfig
from .learner import REPLAY, learner as make_learner
from .network import export

# Settings that --resume may change: how long the run goes on, how it is evaluated, and (as the torch
# backend allows) the random openings of its self-play.
RESUMABLE = {"generations", "minutes", "opening", "eval_every", "eval_games", "eval_sims", "eval_opponents"}
COMMAND = "alphazero --backend jax"


def save_checkpoint(path, state: dict, progress: dict) -> None:
    """``state`` (:meth:`Learner.initial`'s dict) and ``progress`` (generation, seconds,
    positions) as one ``.npz``, atomically."""
    from mancala_marl.train.files import write_atomically

    arrays = {f"params/{k}": np.asarray(v) for k, v in state["params"].items()}
    arrays.update({f"opt/{i}": np.asarray(v) for i, v in enumerate(jax.tree_util.tree_leaves(state["opt_state"]))})
    arrays.update({f"replay/{k}": np.asarray(v) for k, v in state["replay"].items()})
    arrays.update(key=np.asarray(state["key"]), **{k: np.asarray(v) for k, v in progress.items()})
    write_atomically(path, lambda tmp: np.savez(tmp, **arrays))


def load_checkpoint(path, template: dict) -> tuple[dict, dict]:
    """The state and progress saved at ``path``, refused unless every array has the shape and type
    of ``template`` (the state a run of these settings starts from). A buffer saved on another
    number of devices is dealt out again over this run's."""
    with np.load(path, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    leaves, tree = jax.tree_util.tree_flatten(template["opt_state"])
    if "replay/size" in arrays and arrays["replay/size"].shape != template["replay"]["size"].shape:
        arrays.update({f"replay/{k}": v for k, v in redeal(arrays, template["replay"]).items()})
    wanted = {**{f"params/{k}": v for k, v in template["params"].items()},
              **{f"opt/{i}": v for i, v in enumerate(leaves)},
              **{f"replay/{k}": v for k, v in template["replay"].items()}, "key": template["key"]}
    for name, like in wanted.items():
        if name not in arrays:
            raise ValueError(f"{name} is missing")
        if arrays[name].shape != np.shape(like) or arrays[name].dtype != np.asarray(like).dtype:
            raise ValueError(f"{name} is {arrays[name].dtype}{list(arrays[name].shape)}, this run's is "
                             f"{np.asarray(like).dtype}{list(np.shape(like))}")
    state = {"params": {k: arrays[f"params/{k}"] for k in template["params"]},
             "opt_state": jax.tree_util.tree_unflatten(tree, [arrays[f"opt/{i}"] for i in range(len(leaves))]),
             "replay": {k: arrays[f"replay/{k}"] for k in template["replay"]}, "key": arrays["key"]}
    progress = {"generation": int(arrays["generation"]), "seconds": float(arrays["seconds"]),
                "positions": int(arrays["positions"])}
    return state, progress


def redeal(arrays: dict, template: dict) -> dict:
    """The saved buffer's positions (``replay/...`` of ``arrays``, one part per device it was
    saved on) dealt out in turn over ``template``'s devices (the run as it resumes)."""
    sizes = arrays["replay/size"]
    devices, capacity = template["size"].shape[0], template["obs"].shape[1]
    out = {k: np.zeros_like(v) for k, v in template.items()}
    for name in REPLAY:
        kept = np.concatenate([arrays[f"replay/{name}"][d, :size] for d, size in enumerate(sizes)])
        for d in range(devices):
            part = kept[d::devices][:capacity]
            out[name][d, :len(part)] = part
            out["size"][d] = len(part)
    out["next"] = out["size"] % capacity
    return out

def learning_rate(config: JaxAlphaZeroConfig, generation: int, seconds: float) -> float:
    """Cosine decay to a tenth over the run's generations, as the torch backend decays it, or over
    its ``minutes`` where those run out first."""
    done = generation / config.generations
    if config.minutes:
        done = max(done, seconds / (60 * config.minutes))
    return config.learning_rate * (0.1 + 0.9 * 0.5 * (1 + np.cos(np.pi * min(done, 1.0))))


def out_of_time(config: JaxAlphaZeroConfig, seconds: float) -> bool:
    return bool(config.minutes) and seconds >= 60 * config.minutes


def train(config: JaxAlphaZeroConfig, run_dir, resume: bool = False, given=None, devices=None,
          stop_after: int | None = None) -> Path:
    """Run (or with ``resume`` continue) the self-play loop in ``run_dir`` on ``devices`` (default:
    every local one); returns the path of the newest network (``network.npz``). ``stop_after``
    ends this call after that many generations, as a run stopped between two would."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from tensorboardX import SummaryWriter

    from mancala_marl.train.arena import progress_console
    from mancala_marl.train.runs import Run
    from mancala_marl.train.runs import load_checkpoint as read_or_refuse

    run = Run(run_dir, COMMAND, "checkpoints/last.npz", "generation", RESUMABLE)
    config = run.start(config, resume, given)
    devices = list(devices or jax.devices())
    config.check(len(devices))
    game = make_game(config.game, **config.rule_params)
    learner = make_learner(config, game, devices)
    state = learner.initial(config.seed)
    progress = {"generation": 0, "seconds": 0.0, "positions": 0}
    if resume:
        state, progress = read_or_refuse(lambda path: load_checkpoint(path, state), run.checkpoint)
        state = learner.place(state)
        if config.generations <= progress["generation"]:
            raise run.finished(f"played {progress['generation']} generations", config.generations, "--generations",
                               "generations" in (given or ()))
        if out_of_time(config, progress["seconds"]):
            raise run.finished(f"trained {progress['seconds'] / 60:.1f} minutes", config.minutes, "--minutes",
                               "minutes" in (given or ()))
    run.write_config(config)
    run.checkpoint.parent.mkdir(exist_ok=True)
    writer = SummaryWriter(str(run.folder / "tb"))
    columns = (TextColumn("[bold]generation"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TextColumn("{task.fields[status]}"))
    stop = config.generations if stop_after is None else min(config.generations, progress["generation"] + stop_after)
    with run.interruptible(), Progress(*columns, console=progress_console(),
                                                  disable=not config.progress_bar) as bar:
        task = bar.add_task("self-play", total=config.generations, completed=progress["generation"], status="")
        while progress["generation"] < stop and not out_of_time(config, progress["seconds"]):
            start = time.time()
            state, stats = learner.generation(state, learning_rate(config, progress["generation"],
                                                                   progress["seconds"]))
            progress["generation"] += 1
            progress["seconds"] += time.time() - start
            progress["positions"] += stats["positions"]
            generation = progress["generation"]
            net = export(state["params"], game, config.obs_type, config.hidden, run.folder / "network.npz",
                         generation=generation, positions=progress["positions"], opening=config.opening,
                         train_seconds=round(progress["seconds"], 1), devices=len(devices))
            save_checkpoint(run.checkpoint, state, progress)
            for key, value in stats.items():
                writer.add_scalar(f"loss/{key}" if key.endswith("_loss") else f"selfplay/{key}", value, generation)
            fitted = (f"losses {stats['policy_loss']:.3f}/{stats['value_loss']:.3f}" if "policy_loss" in stats else
                      f"not fitted yet (a batch is {config.batch_size})")
            status = (f"{stats['positions']} positions of {stats['games']} games, {fitted}, "
                      f"{progress['seconds'] / 60:.1f} min")
            evaluated = config.eval_every and generation % config.eval_every == 0
            if evaluated:
                rows = evaluate(game, net, config, generation)
                status += f" | {run.evaluated(rows, progress['positions'], progress['seconds'], writer, step=generation)}"
            if evaluated or not config.progress_bar:
                bar.console.print(f"[generation {generation}] {status}", markup=False)
            bar.update(task, completed=generation, status=status)
    writer.close()
    return run.folder / "network.npz"


__all__ = ["COMMAND", "RESUMABLE", "learning_rate", "load_checkpoint", "save_checkpoint", "train"]
