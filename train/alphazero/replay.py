"""The replay buffer of self-play positions, saved atomically with every generation."""

from __future__ import annotations

import numpy as np


class ReplayBuffer:
    """The newest ``capacity`` positions: observations, legal masks, visit distributions and results."""

    def __init__(self, capacity: int, obs_size: int, pits: int):
        self.obs = np.zeros((capacity, obs_size), dtype=np.float32)
        self.masks = np.zeros((capacity, pits), dtype=np.bool_)
        self.policies = np.zeros((capacity, pits), dtype=np.float32)
        self.results = np.zeros(capacity, dtype=np.float32)
        self.size, self.next, self.added = 0, 0, 0

    def add(self, obs, masks, policies, results) -> None:
        for k in range(len(results)):
            i = self.next
            self.obs[i], self.masks[i], self.policies[i], self.results[i] = obs[k], masks[k], policies[k], results[k]
            self.next = (i + 1) % len(self.results)
        self.size = min(self.size + len(results), len(self.results))
        self.added += len(results)

    def sample(self, rng, n: int):
        rows = rng.integers(self.size, size=n)
        return self.obs[rows], self.masks[rows], self.policies[rows], self.results[rows]

    def save(self, path) -> None:
        from mancala_marl.atomic import write_atomically

        kept = {"obs": self.obs[: self.size], "masks": self.masks[: self.size], "policies": self.policies[: self.size],
                "results": self.results[: self.size]}
        write_atomically(path, lambda tmp: np.savez(tmp, **kept, next=self.next, added=self.added))

    def load(self, path) -> None:
        with np.load(path) as data:
            n = len(data["results"])
            self.obs[:n], self.masks[:n], self.policies[:n], self.results[:n] = (
                data["obs"], data["masks"], data["policies"], data["results"])
            self.size, self.next, self.added = n, int(data["next"]), int(data["added"])
