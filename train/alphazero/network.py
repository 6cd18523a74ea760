"""The policy-value MLP in torch, for training; it is saved as the numpy network that the
``alphazero`` policy (:class:`mancala_marl.agents.alphazero.Network`) plays."""

from __future__ import annotations

import numpy as np

from mancala_marl.agents import alphazero as az_policy  # the policy that plays the trained network

from .config import AlphaZeroConfig


def torch_network(config: AlphaZeroConfig, game):
    """The MLP of :class:`mancala_marl.agents.alphazero.Network`, in torch, with the same names."""
    import torch

    class PolicyValueNet(torch.nn.Module):
        def __init__(self, inputs, hidden, pits):
            super().__init__()
            sizes = [inputs, *hidden]
            for k in range(len(hidden)):
                self.add_module(f"hidden_{k}", torch.nn.Linear(sizes[k], sizes[k + 1]))
            self.policy = torch.nn.Linear(sizes[-1], pits)
            self.value = torch.nn.Linear(sizes[-1], 1)
            self.depth = len(hidden)

        def forward(self, x):
            for k in range(self.depth):
                x = torch.relu(getattr(self, f"hidden_{k}")(x))
            return self.policy(x), torch.tanh(self.value(x)).squeeze(-1)

    return PolicyValueNet(az_policy.feature_layout(game, config.obs_type)[1], config.hidden, game.actions)


def torch_evaluator(model):
    """``features -> (logits, values)`` with the torch model itself: for the large batches of
    self-play, torch's matrix products are several times faster than numpy's here."""
    import torch

    def evaluate(x: np.ndarray):
        with torch.no_grad():
            logits, values = model(torch.from_numpy(x))
        return logits.numpy(), values.numpy()
    return evaluate


def to_numpy_network(model, config: AlphaZeroConfig, game, **extra) -> tuple[az_policy.Network, dict]:
    weights = {k: v.detach().cpu().numpy() for k, v in model.state_dict().items()}
    meta = {"game": game.name, "rule_params": dict(game.params), "obs_type": config.obs_type,
            "margin_weight": config.margin_weight, "value_q": config.value_q, "policy_target": config.policy_target,
            "opening": config.opening,
            "features": az_policy.feature_layout(game, config.obs_type)[1], "hidden": list(config.hidden),
            "trained_by": "mancala-marl alphazero (self-play)", **extra}
    return az_policy.Network(weights, meta), weights
