"""The loop of a JAX AlphaZero run: compiled generations on the devices (:class:`.learner.Learner`),
and on the host, beside the next generation, the network exported for the CPU ``alphazero``
policy, the checkpoints (:mod:`.checkpoints`), TensorBoard and the log; evaluations between
generations.

A run directory holds ``config.json``, ``checkpoints/last.npz`` (after every generation) and
``checkpoints/replay.npz`` (at the end, on Ctrl-C and every ``replay_every`` minutes),
``network.npz`` (the newest network), ``evaluations.csv`` and ``tb/`` (TensorBoard, written with
tensorboardX: no torch here). Ctrl-C finishes the generation under way, saves everything and
stops: ``--resume`` then goes on as if the run had not stopped. A run killed outright goes on
from its last generation with the buffer of its last snapshot, and says what that lost.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import jax
import numpy as np

from mancala_marl.errors import BadInput

from ..config import cosine_decay
from ..trainer import evaluate  # the exported network against the baselines, on CPU
from .checkpoints import host_copy, load_checkpoint, load_replay, save_checkpoint, save_replay
from .config import JaxAlphaZeroConfig
from .learner import learner as make_learner
from .network import export

# Settings that --resume may change: how long the run goes on, how it is evaluated and saved, and
# (as the torch backend allows) the random openings of its self-play.
RESUMABLE = {"generations", "minutes", "opening", "eval_every", "eval_games", "eval_sims", "eval_opponents",
             "replay_every"}
COMMAND = "alphazero --backend jax"
PHASES = ("selfplay_s", "fit_s", "export_s", "checkpoint_s")


def evaluate_played(config: JaxAlphaZeroConfig, net, generation: int) -> list[dict]:
    """:func:`~..trainer.evaluate` on the run's game, or on each game of its mix (each row's
    opponent then says on which: ``"greedy on dakon"``)."""
    if not config.mix:
        return evaluate(config.played()[0], net, config, generation)
    rows = []
    for spec, game in zip(config.mix, config.played()):
        for row in evaluate(game, net, config, generation):
            rows.append({**row, "opponent": f"{row['opponent']} on {spec}"})
    return rows


def learning_rate(config: JaxAlphaZeroConfig, generation: int, seconds: float) -> float:
    """Cosine decay to a tenth over the run's generations, as the torch backend decays it, or over
    its ``minutes`` where those run out first."""
    done = generation / config.generations
    if config.minutes:
        done = max(done, seconds / (60 * config.minutes))
    return cosine_decay(config.learning_rate, done)


def out_of_time(config: JaxAlphaZeroConfig, seconds: float) -> bool:
    return bool(config.minutes) and seconds >= 60 * config.minutes


@contextlib.contextmanager
def finish_on_ctrl_c():
    """Within it, a first Ctrl-C asks the loop to stop after the generation under way (``.set()``
    on the event it yields); a second stops at once, as Ctrl-C does elsewhere. Outside the main
    thread (where no handler can be set), only the second behaviour."""
    stop = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return
    previous = signal.getsignal(signal.SIGINT)

    def handler(signum, frame):
        stop.set()
        print("Ctrl-C: stopping after this generation, with everything saved (Ctrl-C again: at once, "
              "losing the replay buffer since its last snapshot)", file=sys.stderr, flush=True)
        signal.signal(signal.SIGINT, previous)

    signal.signal(signal.SIGINT, handler)
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, previous)


def resume_state(run, learner, state: dict, say) -> tuple[dict, dict]:
    """The state and progress a resumed run goes on from: its last generation's network, and the
    buffer and games of its last snapshot, with a line (``say``) on what a snapshot older than the
    generation, or missing, or of another number of devices, lost."""
    from mancala_marl.train.runs import load_checkpoint as read_or_refuse

    template = host_copy(state)
    saved, progress = read_or_refuse(lambda path: load_checkpoint(path, template), run.checkpoint)
    replay_file = run.checkpoint.with_name("replay.npz")
    if not replay_file.is_file():
        say(f"resumed at generation {progress['generation']} without a replay buffer ({replay_file.name} is "
            f"missing: the run was killed before its first snapshot): the {progress['positions']:,} positions of "
            "its self-play so far are lost, and its games start again")
        return {**template, **saved}, progress
    buffer, at, same_devices = read_or_refuse(lambda path: load_replay(path, template), replay_file,
                                              "replay buffer")
    if at["generation"] > progress["generation"]:
        raise BadInput(f"--resume: {replay_file} is of generation {at['generation']}, after the checkpoint's "
                         f"{progress['generation']}: it is not from this run")
    if at["generation"] < progress["generation"]:
        say(f"resumed at generation {progress['generation']} with the replay buffer saved at generation "
            f"{at['generation']} ({(progress['seconds'] - at['seconds']) / 60:.1f} minutes of training earlier): "
            f"the run was killed, and the {progress['positions'] - at['positions']:,} positions of the generations "
            "between are lost")
    if not same_devices:
        say(f"the replay buffer was saved on another number of devices: dealt out again over {len(learner.devices)}, "
            "and the games in play start again")
    return {**template, **saved, **buffer}, progress


class Recorder:
    """The host's part of each generation, on a thread of its own so that the devices go on with
    the next: the network exported, the checkpoints, TensorBoard and the log line, in the order the
    generations came."""

    def __init__(self, run, game, config, devices: int, writer, bar, task):
        self.run, self.game, self.config, self.devices = run, game, config, devices
        self.writer, self.bar, self.task = writer, bar, task
        self.pool = ThreadPoolExecutor(max_workers=1)
        self.pending = None

    def record(self, saved: dict, progress: dict, stats: dict, replay: bool, evaluated: bool) -> None:
        """Queue generation ``progress['generation']``'s files (``saved``: host arrays, ``replay``
        whether they include the buffer); with ``evaluated``, write them and evaluate at once."""
        self.wait()
        self.pending = self.pool.submit(self._write, saved, dict(progress), stats, replay, evaluated)
        if evaluated:
            self.wait()

    def wait(self) -> None:
        if self.pending is not None:
            self.pending.result()  # raises what the thread raised
            self.pending = None

    def close(self) -> None:
        self.wait()
        self.pool.shutdown()

    def _write(self, saved, progress, stats, replay, evaluated) -> None:
        run, config, generation = self.run, self.config, progress["generation"]
        start = time.perf_counter()
        net = export(saved["params"], self.game, config.obs_type, config.hidden, run.folder / "network.npz", mix=config.mix,
                     generation=generation, positions=progress["positions"], opening=config.opening,
                     train_seconds=round(progress["seconds"], 1), devices=self.devices)
        exported = time.perf_counter()
        save_checkpoint(run.checkpoint, saved, progress)
        if replay:
            save_replay(run.checkpoint.with_name("replay.npz"), saved, progress)
        stats.update(export_s=exported - start, checkpoint_s=time.perf_counter() - exported)  # the caller's dict too
        for key, value in stats.items():
            group = "loss" if key.endswith("_loss") else "time" if key in PHASES else "selfplay"
            self.writer.add_scalar(f"{group}/{key}", value, generation)
        fitted = (f"losses {stats['policy_loss']:.3f}/{stats['value_loss']:.3f}" if "policy_loss" in stats else
                  f"not fitted yet (a batch is {config.batch_size})")
        times = ", ".join(f"{name[:-2].replace('selfplay', 'self-play')} {stats[name]:.2f}" for name in PHASES)
        status = (f"{stats['positions']:,} positions ({stats['lost']:,} lost) of {stats['games']:,} games, {fitted}; "
                  f"seconds: {times}{' (with the buffer)' if replay else ''}; {progress['seconds'] / 60:.1f} min")
        if evaluated:
            rows = evaluate_played(config, net, generation)
            status += f" | {run.evaluated(rows, progress['positions'], progress['seconds'], self.writer, step=generation)}"
        if evaluated or not config.progress_bar:
            self.bar.console.print(f"[generation {generation}] {status}", markup=False)
        self.bar.update(self.task, completed=generation, status=status)


def train(config: JaxAlphaZeroConfig, run_dir, resume: bool = False, given=None, devices=None,
          stop_after: int | None = None, observer=None) -> Path:
    """Run (or with ``resume`` continue) the self-play loop in ``run_dir`` on ``devices`` (default:
    every local one); returns the path of the newest network (``network.npz``). ``stop_after``
    ends this call after that many generations, as a run stopped between two would;
    ``observer(generation, stats)``, where given, is called after each generation."""
    from tensorboardX import SummaryWriter

    from mancala_marl.progress import progress_bar
    from mancala_marl.train.runs import Run

    run = Run(run_dir, COMMAND, "checkpoints/last.npz", "generation", RESUMABLE)
    config = run.start(config, resume, given)
    devices = list(devices or jax.devices())
    config.check(len(devices))
    game = config.played()[0]
    learner = make_learner(config, game, devices)
    state = learner.initial(config.seed)
    progress = {"generation": 0, "seconds": 0.0, "positions": 0}
    with progress_bar(not config.progress_bar, status=True, record=True) as bar:
        if resume:
            state, progress = resume_state(run, learner, state, lambda line: bar.console.print(line, markup=False))
            state = learner.place(state)
            if config.generations <= progress["generation"]:
                raise run.finished(f"played {progress['generation']} generations", config.generations,
                                   "--generations", "generations" in (given or ()))
            if out_of_time(config, progress["seconds"]):
                raise run.finished(f"trained {progress['seconds'] / 60:.1f} minutes", config.minutes, "--minutes",
                                   "minutes" in (given or ()))
        run.write_config(config)
        run.checkpoint.parent.mkdir(exist_ok=True)
        writer = SummaryWriter(str(run.folder / "tb"))
        task = bar.add_task("[bold]generation", total=config.generations, completed=progress["generation"], status="")
        recorder = Recorder(run, game, config, len(devices), writer, bar, task)
        stop = config.generations if stop_after is None else min(config.generations, progress["generation"] + stop_after)
        snapshot, replayed = time.monotonic(), False
        with run.interruptible(), finish_on_ctrl_c() as ctrl_c:
            try:
                while progress["generation"] < stop and not out_of_time(config, progress["seconds"]):
                    start = time.time()
                    state, stats = learner.generation(state, learning_rate(config, progress["generation"],
                                                                           progress["seconds"]))
                    progress["generation"] += 1
                    progress["seconds"] += time.time() - start
                    progress["positions"] += stats["learned"]
                    last = (progress["generation"] >= stop or out_of_time(config, progress["seconds"])
                            or ctrl_c.is_set())
                    replay = last or (config.replay_every and time.monotonic() - snapshot >= 60 * config.replay_every)
                    names = ("params", "opt_state", "key") + (("replay", "games", "window") if replay else ())
                    saved = host_copy({name: state[name] for name in names})
                    snapshot, replayed = (time.monotonic(), True) if replay else (snapshot, False)
                    recorder.record(saved, progress, stats, replay,
                                    bool(config.eval_every and progress["generation"] % config.eval_every == 0))
                    if observer is not None:
                        observer(progress["generation"], stats)
                    if ctrl_c.is_set():
                        break
            finally:
                recorder.close()
                writer.close()
            if ctrl_c.is_set():
                if not replayed:  # Ctrl-C came after the generation's files were queued
                    save_replay(run.checkpoint.with_name("replay.npz"),
                                host_copy({name: state[name] for name in ("replay", "games", "window")}), progress)
                raise KeyboardInterrupt
    return run.folder / "network.npz"


__all__ = ["COMMAND", "RESUMABLE", "learning_rate", "train"]
