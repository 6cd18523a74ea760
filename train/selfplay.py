"""Self-play: the learner meets a pool of its own past snapshots plus baseline policies.

:class:`OpponentPool` is handed to :class:`mancala_marl.single_agent.SingleAgentEnv` as its
``opponent``; each episode it draws a snapshot with probability ``snapshot_prob`` (uniform over
the newest ``max_snapshots`` files in ``snapshot_dir``), else a baseline (uniform). It rescans the
directory every ``rescan_every`` episodes, so it works unchanged inside SubprocVecEnv workers,
which see new snapshots through the disk. :class:`SnapshotCallback` writes those snapshots.
"""

from __future__ import annotations

from pathlib import Path

from mancala_marl.errors import BadInput
from mancala_marl.limits import check_count
from .callbacks import PeriodicCallback


class OpponentPool:
    """Baselines plus saved snapshots of the learner, sampled once per episode.

    Args:
        baselines: policy specs, e.g. ``["random", "max", "exact", "greedy"]``.
        snapshot_dir: directory of ``snapshot_*.zip`` files (may not exist yet).
        snapshot_prob: probability of playing a snapshot when there is one.
        max_snapshots: only the newest this many snapshots are sampled.
        rescan_every: episodes between directory scans.
    """

    def __init__(self, baselines=("random", "max", "exact"), snapshot_dir=None, snapshot_prob: float = 0.5,
                 max_snapshots: int = 10, rescan_every: int = 50):
        from mancala_marl.single_agent import resolve_policy

        snapshot_prob = check_count("share", snapshot_prob, "snapshot_prob")
        if not baselines and snapshot_dir is None:
            raise BadInput("an opponent pool needs baselines or a snapshot_dir")
        self.baseline_specs = list(baselines)
        self.baselines = [resolve_policy(b) for b in self.baseline_specs]
        self.snapshot_dir = Path(snapshot_dir) if snapshot_dir is not None else None
        self.snapshot_prob, self.max_snapshots, self.rescan_every = snapshot_prob, int(max_snapshots), int(rescan_every)
        self._loaded: dict[str, object] = {}
        self._files: list[Path] = []
        self._episodes = 0

    def snapshots(self) -> list[Path]:
        if self.snapshot_dir is None or not self.snapshot_dir.is_dir():
            return []
        return sorted(self.snapshot_dir.glob("snapshot_*.zip"))[-self.max_snapshots:]

    def sample(self, rng):
        """The opponent for the next episode (``rng``: a numpy Generator)."""
        if self._episodes % self.rescan_every == 0:
            self._files = self.snapshots()
        self._episodes += 1
        if self._files and (not self.baselines or rng.random() < self.snapshot_prob):
            return self._snapshot(self._files[int(rng.integers(len(self._files)))])
        return self.baselines[int(rng.integers(len(self.baselines)))]

    def _snapshot(self, path: Path):
        from mancala_marl.agents.learned import ModelPolicy

        key = str(path)
        if key not in self._loaded:
            if len(self._loaded) >= self.max_snapshots:  # forget the oldest loaded snapshot
                self._loaded.pop(next(iter(self._loaded)))
            policy = ModelPolicy(path=key, deterministic=False)
            policy.name = f"snapshot:{path.stem}"
            self._loaded[key] = policy
        return self._loaded[key]

    def __repr__(self) -> str:
        return f"OpponentPool(baselines={self.baseline_specs}, snapshot_dir={self.snapshot_dir})"


class SnapshotCallback(PeriodicCallback):
    """Every ``every`` steps, save the learner to ``snapshot_dir/snapshot_<steps>.zip``."""

    def __init__(self, snapshot_dir, every: int, metadata: dict, verbose: int = 0):
        super().__init__(every, verbose)
        self.snapshot_dir, self.metadata = Path(snapshot_dir), metadata

    def on_period(self) -> None:
        from mancala_marl.agents.learned import save_model

        save_model(self.model, self.snapshot_dir / f"snapshot_{self.num_timesteps:010d}.zip",
                   {**self.metadata, "timesteps": self.num_timesteps})
