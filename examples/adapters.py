"""The one adapter TorchRL and Tianshou need: infos with a fixed set of numeric keys.

The envs' infos are ``{"scores": {agent: n}, "num_moves": n}``, plus ``"final_scores"`` and
``"winner"`` (an agent name, or None for a draw) once the game is over. Libraries that store
infos as arrays reject that: TorchRL fixes its info spec at reset and turns every value into a
tensor (a dict, a str or a key that appears later fails), and Tianshou's replay buffer pads the
late keys with None and then refuses the "NaN" it finds. This wrapper keeps ``scores`` as a
length-2 int64 array in seat order (player_0's store, player_1's) and ``num_moves``, the same
keys at every step; the final scores are the scores at the end.
"""

from __future__ import annotations

import numpy as np
from pettingzoo.utils import BaseWrapper


class FixedInfos(BaseWrapper):
    """Any of the package's AEC envs with ``infos[agent] = {"scores": int64[2], "num_moves": int}``."""

    @property
    def infos(self):
        raw = self.env.unwrapped
        scores = np.array(raw.game.scores(raw.state()), dtype=np.int64)
        return {agent: {"scores": scores.copy(), "num_moves": raw.num_moves} for agent in self.possible_agents}
