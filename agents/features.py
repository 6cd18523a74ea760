"""Network input layers for learned agents (SB3 features extractors).

:class:`PitCountsOneHot` sees each pit's count both as a number and one-hot. Where the last seed
of a sowing lands, and so whether a move earns an extra turn or a capture, depends on a pit's
exact count (its distance to a target, modulo the lap); an MLP fed raw counts has to carve that
out of a ramp, while a one-hot unit per count makes it one weight. Models keep the ``counts``
observation, so environments, the vectorized env and saved metadata are unchanged.
"""

from __future__ import annotations

import gymnasium as gym
import torch
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor

from mancala_marl.errors import BadInput



class PitCountsOneHot(BaseFeaturesExtractor):
    """Each observation entry as ``count / scale`` plus a one-hot of ``min(count, max_count)``.

    Which entries are counts: the first ``counts`` of them if given (the board of a ``moves``
    observation, whose move features are not counts), else those whose upper bound exceeds 1
    (entries bounded by 1, e.g. Togyz Kumalak's tuzduk flags, pass through unchanged).
    """

    def __init__(self, observation_space: gym.spaces.Box, max_count: int = 31, counts: int | None = None):
        high = torch.as_tensor(observation_space.high, dtype=torch.float32)
        is_count = high > 1
        if counts is not None:
            is_count[counts:] = False
        super().__init__(observation_space, features_dim=high.numel() + int(is_count.sum()) * (max_count + 1))
        self.max_count = int(max_count)
        self.register_buffer("is_count", is_count)
        self.register_buffer("scale", high.clamp(min=1.0))

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        counts = observations[:, self.is_count].round().long().clamp(0, self.max_count)
        one_hot = torch.nn.functional.one_hot(counts, self.max_count + 1).flatten(1).float()
        return torch.cat([observations / self.scale, one_hot], dim=1)


def onehot_kwargs(game, obs_type: str) -> dict:
    """SB3 ``policy_kwargs`` entries that put :class:`PitCountsOneHot` in front of the network for
    an ``obs_type`` that starts with the counts (``"counts"``, ``"moves"``, ``"turns"``: the move
    features that follow are not counts themselves)."""
    from mancala_marl import observations

    if obs_type not in observations.COUNTS_FIRST:
        raise BadInput(f"one-hot features read seed counts: they need an obs_type in "
                         f"{list(observations.COUNTS_FIRST)}, not {obs_type!r}")
    counts = observations.observation_space(game, "counts").shape[0]
    return {"features_extractor_class": PitCountsOneHot, "features_extractor_kwargs": {"counts": counts}}
