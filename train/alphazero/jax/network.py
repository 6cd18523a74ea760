"""The policy-value MLP in JAX, reading exactly the input the CPU ``alphazero`` policy computes.

:func:`feature_fn` turns the JAX environment's observation into
:func:`mancala_marl.agents.alphazero.features` (each count scaled, and one-hot), and the
parameters are named as the ``.npz`` network names them (``hidden_<k>.weight`` (out, in) ...), so
:func:`export` writes a :class:`~mancala_marl.agents.alphazero.Network` that plays on CPU with numpy
and numba alone.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from mancala_marl.agents import alphazero as az_policy  # the policy that plays the exported network


def feature_fn(game, obs_type: str):
    """``observations (..., obs) -> features (..., D)`` as :func:`~mancala_marl.agents.alphazero.expand`
    writes them. A count's scaled value is read from a table made by numpy's float32 division,
    which the numba kernel also rounds with: XLA's division may differ by an ulp."""
    scale, size = az_policy.feature_layout(game, obs_type)
    counts = np.flatnonzero(scale > 0)
    high = int(scale.max())
    table = jnp.asarray(np.arange(high + 1, dtype=np.float32)[None, :] / scale[counts][:, None])
    rows = jnp.arange(counts.size)

    def features(obs):
        c = jnp.clip(obs[..., counts].astype(jnp.int32), 0, high)
        scaled = obs.at[..., counts].set(table[rows, c])
        onehot = jax.nn.one_hot(jnp.minimum(c, az_policy.MAX_COUNT), az_policy.MAX_COUNT + 1, dtype=jnp.float32)
        out = jnp.concatenate([scaled, onehot.reshape(*obs.shape[:-1], -1)], axis=-1)
        assert out.shape[-1] == size
        return out
    return features


def init_params(key, inputs: int, hidden, pits: int) -> dict:
    """Weights drawn as torch's ``nn.Linear`` draws them (uniform in +-1/sqrt(fan in)), named as
    the ``.npz`` network names them."""
    sizes = [inputs, *hidden]
    layers = [(f"hidden_{k}", sizes[k], sizes[k + 1]) for k in range(len(hidden))]
    layers += [("policy", sizes[-1], pits), ("value", sizes[-1], 1)]
    params = {}
    for (name, n_in, n_out), k in zip(layers, jax.random.split(key, len(layers))):
        bound = 1.0 / np.sqrt(n_in)
        kw, kb = jax.random.split(k)
        params[f"{name}.weight"] = jax.random.uniform(kw, (n_out, n_in), jnp.float32, -bound, bound)
        params[f"{name}.bias"] = jax.random.uniform(kb, (n_out,), jnp.float32, -bound, bound)
    return params


def forward(params: dict, x):
    """(logits (..., P), values (...)) of features ``x`` (..., D): ReLU hidden layers, then the
    policy head and the value head (tanh), as :func:`mancala_marl.agents.alphazero._forward`."""
    depth = sum(1 for name in params if name.startswith("hidden_") and name.endswith(".weight"))
    for k in range(depth):
        x = jax.nn.relu(x @ params[f"hidden_{k}.weight"].T + params[f"hidden_{k}.bias"])
    logits = x @ params["policy.weight"].T + params["policy.bias"]
    value = jnp.tanh(x @ params["value.weight"].T + params["value.bias"])[..., 0]
    return logits, value


def export(params: dict, game, obs_type: str, hidden, path=None, mix=(), **extra) -> az_policy.Network:
    """The :class:`~mancala_marl.agents.alphazero.Network` of ``params`` (written to ``path``
    where given): the file the ``alphazero`` policy plays, with no jax at play time. A network of
    several games (``mix``, their specs) is written as the family's: it reads their rules and plays
    any game of the family that fits its input."""
    weights = {name: np.array(value, dtype=np.float32) for name, value in params.items()}  # writable: numba reads them
    rules = {"game": "family", "rule_params": {}, "mix": list(mix)} if mix else {
        "game": game.name, "rule_params": dict(game.params)}
    meta = {**rules, "obs_type": obs_type, "margin_weight": 0.0,
            "features": az_policy.feature_layout(game, obs_type)[1], "hidden": list(hidden),
            "trained_by": "mancala-marl alphazero --backend jax (self-play with mctx)", **extra}
    net = az_policy.Network(weights, meta)
    if path is not None:
        net.save(path, weights)
    return net
