"""A Q-network that scores each move by the position it leaves: one evaluation shared by every pit.

With the ``"afterstates"`` observation (:mod:`mancala_marl.observations`) the network is given,
for each of the mover's pits, the board that playing it leaves. :class:`AfterstatePolicy` (for
:class:`~mancala_marl.agents.masked_dqn.MaskedDQN`, alias ``"AfterstatePolicy"``) computes

    Q(s, a) = f(board after a, features of a, board s)

with one MLP ``f`` applied to every pit. A plain Q-network has a separate output per pit and
must learn, for each one, where its seeds land; sowing is arithmetic the rules kernels already
do exactly, and relay sowing (Sungka) makes it long. Sharing ``f`` also means every move played
teaches the network about positions, not about one pit's output. This is the afterstate value
of TD-Gammon-style learners (Sutton and Barto, section 6.8), with the position before the move
kept as context.

Each board cell enters as its count scaled by the total seeds plus a learned vector for its
exact count (clipped at ``max_count``): the one-hot input of
:class:`~mancala_marl.agents.features.PitCountsOneHot`, looked up instead of multiplied.
"""

from __future__ import annotations

import torch as th
from stable_baselines3.dqn.policies import DQNPolicy, QNetwork
from torch import nn

from mancala_marl.errors import BadInput



def afterstate_layout(game) -> dict:
    """The ``layout`` policy kwarg for ``game``'s ``"afterstates"`` observation: pits, cells of
    the board, length of one counts encoding, move features per pit."""
    from mancala_marl import observations

    counts = observations.observation_space(game, "counts").shape[0]
    return {"pits": game.pits, "cells": 2 * game.pits + 2, "counts": counts,
            "per_pit": observations.PER_PIT["afterstates"]}


def afterstate_kwargs(game) -> dict:
    """SB3 ``policy_kwargs`` entries for :class:`AfterstatePolicy` on ``game``."""
    return {"layout": afterstate_layout(game)}


class CountEmbedding(nn.Module):
    """``(..., cells)`` seed counts to ``(..., hidden)``: the sum over cells of a vector for the
    cell's exact count and a linear term in its scaled count (a linear layer over one-hot counts)."""

    def __init__(self, cells: int, hidden: int, scale: float, max_count: int):
        super().__init__()
        self.max_count, self.scale = int(max_count), float(scale)
        self.exact = nn.EmbeddingBag(cells * (self.max_count + 1), hidden, mode="sum")  # 8x faster than Embedding.sum
        self.linear = nn.Linear(cells, hidden)
        # as a linear layer over the one-hot counts would start (nn.Embedding's N(0, 1) is ~30x larger)
        bound = (cells * (self.max_count + 1)) ** -0.5
        nn.init.uniform_(self.exact.weight, -bound, bound)
        self.register_buffer("offsets", th.arange(cells) * (self.max_count + 1))

    def forward(self, counts: th.Tensor) -> th.Tensor:
        rows = counts.round().long().clamp(0, self.max_count) + self.offsets
        exact = self.exact(rows.reshape(-1, rows.shape[-1])).reshape(*rows.shape[:-1], -1)
        return exact + self.linear(counts / self.scale)


class AfterstateHead(nn.Module):
    """``(batch, obs_dim)`` afterstates observations to ``(batch, pits)`` move values."""

    def __init__(self, layout: dict, scale: float, net_arch: list[int], activation_fn=nn.ReLU, max_count: int = 31):
        super().__init__()
        self.pits, self.cells, self.counts, self.per_pit = (int(layout[k]) for k in ("pits", "cells", "counts", "per_pit"))
        hidden = int(net_arch[0])
        self.after = CountEmbedding(self.cells, hidden, scale, max_count)
        self.before = CountEmbedding(self.cells, hidden, scale, max_count)
        # the move's features and the game's extra flags (Togyz Kumalak's tuzduks) before and after
        self.extras = nn.Linear(self.per_pit + 2 * (self.counts - self.cells), hidden)
        layers: list[nn.Module] = [activation_fn()]
        for width in net_arch[1:]:
            layers += [nn.Linear(hidden, int(width)), activation_fn()]
            hidden = int(width)
        layers.append(nn.Linear(hidden, 1))
        self.value = nn.Sequential(*layers)

    def forward(self, obs: th.Tensor) -> th.Tensor:
        n, pits, counts = obs.shape[0], self.pits, self.counts
        moves_end = counts + pits * self.per_pit
        board = obs[:, :counts]
        moves = obs[:, counts:moves_end].reshape(n, pits, self.per_pit)
        after = obs[:, moves_end:].reshape(n, pits, counts)
        extras = th.cat([moves, after[..., self.cells:], board[:, None, self.cells:].expand(n, pits, -1)], dim=-1)
        h = self.after(after[..., :self.cells]) + self.before(board[:, :self.cells])[:, None, :] + self.extras(extras)
        return self.value(h).squeeze(-1)


class AfterstateQNetwork(QNetwork):
    """SB3's QNetwork with :class:`AfterstateHead` as ``q_net`` (its features extractor should
    pass the observation through, as the default FlattenExtractor does)."""

    def __init__(self, observation_space, action_space, features_extractor, features_dim, net_arch=None,
                 activation_fn=nn.ReLU, normalize_images=True, layout: dict | None = None):
        if layout is None:
            raise BadInput("AfterstatePolicy needs policy_kwargs layout=afterstate_layout(game)")
        net_arch = list(net_arch or [256, 256])
        super().__init__(observation_space, action_space, features_extractor, features_dim, [], activation_fn,
                         normalize_images)
        expected = layout["counts"] * (1 + layout["pits"]) + layout["pits"] * layout["per_pit"]
        if features_dim != expected or int(action_space.n) != layout["pits"]:
            raise BadInput(f"AfterstatePolicy reads the 'afterstates' observation ({expected} numbers for "
                             f"{layout['pits']} pits), got {features_dim} numbers and {action_space.n} actions")
        self.net_arch, self.layout = net_arch, dict(layout)
        scale = float(observation_space.high[0])  # the total seeds: the bound of every count
        self.q_net = AfterstateHead(self.layout, scale, net_arch, activation_fn)

    def _get_constructor_parameters(self) -> dict:
        return {**super()._get_constructor_parameters(), "layout": self.layout}


class AfterstatePolicy(DQNPolicy):
    """DQN policy whose online and target networks are :class:`AfterstateQNetwork`."""

    def __init__(self, *args, layout: dict | None = None, **kwargs):
        self.layout = layout
        super().__init__(*args, **kwargs)

    def make_q_net(self) -> AfterstateQNetwork:
        net_args = self._update_features_extractor(self.net_args, features_extractor=None)
        return AfterstateQNetwork(**net_args, layout=self.layout).to(self.device)

    def _get_constructor_parameters(self) -> dict:
        return {**super()._get_constructor_parameters(), "layout": self.layout}
