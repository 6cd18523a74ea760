"""Training callbacks: evaluations against baselines, atomic checkpoints (with the DQN replay
buffer) and the Sungka paper's target-network update every N episodes."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback, ProgressBarCallback
from stable_baselines3.common.utils import polyak_update

from mancala_marl.atomic import write_atomically

from mancala_marl.matches.evaluation import append_evaluations, evaluate, model_policy, win_rate_cells


class PeriodicCallback(BaseCallback):
    """Calls :meth:`on_period` at every multiple of ``every`` steps. Unlike SB3's
    ``EveryNTimesteps``, the multiples are counted from step 0, so a resumed run keeps the
    schedule it had instead of firing at once."""

    def __init__(self, every: int, verbose: int = 0):
        super().__init__(verbose)
        self.every = int(every)
        self._next = None

    def _on_training_start(self) -> None:
        self._next = (self.num_timesteps // self.every + 1) * self.every

    def _on_step(self) -> bool:
        if self.num_timesteps >= self._next:
            self._next += self.every
            self.on_period()
        return True

    def on_period(self) -> None:
        raise NotImplementedError


def kept_checkpoints(checkpoint_dir) -> list[tuple[int, Path]]:
    """(steps, path) of every model that :class:`AtomicCheckpointCallback` kept in
    ``checkpoint_dir`` (``model_STEPS_steps.zip``), fewest steps first."""
    kept = ((path.name.removeprefix("model_").removesuffix("_steps.zip"), path)
            for path in Path(checkpoint_dir).glob("model_*_steps.zip"))
    return sorted((int(steps), path) for steps, path in kept if steps.isdigit())


class AtomicCheckpointCallback(PeriodicCallback):
    """Every ``every`` steps, write the model to ``path`` (and the replay buffer to
    ``buffer_path``) through a temporary file and ``os.replace``, so that an interrupted write
    never destroys the previous checkpoint. The buffer is replaced before the model: a model never
    points at an older buffer than its own. With ``keep``, each checkpoint's model also stays
    beside it as ``model_STEPS_steps.zip`` (SB3's ``CheckpointCallback`` naming; the buffer is not
    kept, it is hundreds of MB), for learning curves measured afterwards with many games."""

    def __init__(self, path, every: int, metadata: dict, buffer_path=None, verbose: int = 0, keep: bool = False):
        super().__init__(every, verbose)
        self.path, self.metadata, self.keep = Path(path), metadata, bool(keep)
        self.buffer_path = Path(buffer_path) if buffer_path is not None else None

    def on_period(self) -> None:
        self.save()

    def save(self) -> None:
        from mancala_marl.agents.learned import save_model

        if getattr(self, "model", None) is None:  # SB3 sets it when learn() starts
            return
        if self.buffer_path is not None:
            self.buffer_path.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(self.buffer_path, self.model.save_replay_buffer)
        save_model(self.model, self.path, {**self.metadata, "timesteps": self.model.num_timesteps})
        if self.keep:  # read by kept_checkpoints
            copy_atomically(self.path, self.path.with_name(f"model_{self.model.num_timesteps}_steps.zip"))


def copy_atomically(source: Path, target: Path) -> None:
    """Copy ``source`` to ``target`` through a temporary file: a crash never leaves a half-copied
    file under the target's name."""
    write_atomically(target, lambda tmp: shutil.copyfile(source, tmp))


class TargetUpdateEveryEpisodes(BaseCallback):
    """Copy the online Q-network into the target network every ``episodes`` finished episodes
    (summed over all environments), as the Sungka paper's Algorithm 1 does."""

    def __init__(self, episodes: int):
        super().__init__()
        self.episodes = int(episodes)
        self._done = 0

    def _on_step(self) -> bool:
        before = self._done
        self._done += int(np.sum(self.locals["dones"]))
        if self._done // self.episodes > before // self.episodes:
            polyak_update(self.model.q_net.parameters(), self.model.q_net_target.parameters(), 1.0)
        return True


class Progress(ProgressBarCallback):
    """SB3's progress bar, ending at its total: a vectorized step moves every env at once, so the
    last one can pass the total (2,500,096 of 2,500,000 moves with 256 games). :meth:`close` ends
    the bar when training stops on an error or Ctrl-C, which SB3's callback leaves drawn."""

    def _on_step(self) -> bool:
        self.pbar.update(min(self.training_env.num_envs, self.pbar.total - self.pbar.n))
        return True

    def _on_training_end(self) -> None:
        self.close()

    def close(self) -> None:
        bar = getattr(self, "pbar", None)
        if bar is not None and not bar.disable:  # tqdm's close() sets disable: closed once, however the run ends
            bar.refresh()
            bar.close()


class BaselineEvalCallback(PeriodicCallback):
    """Every ``eval_freq`` environment steps, play ``games`` games per seat against each baseline
    with the current model (greedy), log and print the win rates and append them to the CSV."""

    def __init__(self, game, obs_type: str, opponents, eval_freq: int, games: int, csv_path, verbose: int = 1,
                 opening: int = 0):
        super().__init__(eval_freq, verbose)
        self.opening = int(opening)
        self.game, self.obs_type, self.opponents = game, obs_type, list(opponents)
        self.games, self.csv_path = int(games), Path(csv_path)
        self._start = time.time()

    def on_period(self) -> None:
        self.run_evaluation()

    def run_evaluation(self) -> list[dict]:
        policy = model_policy(self.model, self.game, self.obs_type)
        rows = evaluate(self.game, policy, self.opponents, self.games, seed=self.num_timesteps, opening=self.opening)
        append_evaluations(self.csv_path, rows, self.num_timesteps, time.time() - self._start)
        for row in rows:
            self.logger.record(f"eval/win_rate/{row['opponent']}/{row['seat']}", row["win_rate"])
            self.logger.record(f"eval/mean_margin/{row['opponent']}/{row['seat']}", row["mean_margin"])
        if self.verbose:
            print(f"[eval @ {self.num_timesteps} steps] win rate: {win_rate_cells(rows)}", flush=True)
        return rows
