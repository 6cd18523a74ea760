"""One generation on the devices: self-play, its positions into the replay buffer, the fit.

Data parallel over every local device (a ``Mesh`` of axis ``"d"`` and ``shard_map``, as Pgx's
AlphaZero example does with ``pmap``): each device plays ``games / devices`` games, keeps its own
part of the buffer and draws its part of each batch from it; the gradients are averaged over the
devices (``pmean``), so the parameters and the optimiser state stay the same on all of them.
"""

from __future__ import annotations

import json
import math
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
import optax
from jax.sharding import Mesh, NamedSharding
from jax.sharding import PartitionSpec as P

from mancala_marl.agents import alphazero as az_policy  # the policy that plays the trained network
from mancala_marl.jax import make

from .config import JaxAlphaZeroConfig
from .network import feature_fn, forward, init_params
from .selfplay import selfplay_fn, value_targets

REPLAY = ("obs", "mask", "policy", "value")
# what a Learner's compiled functions depend on: runs that agree on these share them (a resumed run,
# a test's runs), instead of compiling them again (tens of seconds on a CPU)
SHAPE = ("game", "rule_params", "games", "moves", "sims", "opening", "hidden", "obs_type", "value_q", "buffer",
         "batch_size", "learning_rate", "weight_decay")
_LEARNERS: dict = {}


def learner(config: JaxAlphaZeroConfig, game, devices) -> Learner:
    """The :class:`Learner` of ``config`` on ``devices``, made once per process."""
    key = (json.dumps([getattr(config, name) for name in SHAPE], sort_keys=True), tuple(devices))
    if key not in _LEARNERS:
        _LEARNERS[key] = Learner(config, game, devices)
    return _LEARNERS[key]


class Learner:
    """The jitted parts of a run of ``config`` on ``game`` over ``devices`` (default: all local ones).

    Its state (:meth:`initial`) is a dict: ``params``, ``opt_state`` (replicated), ``replay``
    (``REPLAY`` arrays of shape (devices, buffer / devices, ...), with ``size`` and ``next`` per
    device), and ``key`` (the run's random key, as raw uint32 data)."""

    def __init__(self, config: JaxAlphaZeroConfig, game, devices=None):
        self.config, self.game = config, game
        self.devices = list(devices or jax.devices())
        n = len(self.devices)
        self.mesh = Mesh(np.array(self.devices), ("d",))
        self.env = make(game.name, obs_type=config.obs_type, **game.params)
        self.features = feature_fn(game, config.obs_type)
        self.inputs = az_policy.feature_layout(game, config.obs_type)[1]
        self.obs_size = az_policy.feature_layout(game, config.obs_type)[0].size
        self.optimizer = optax.inject_hyperparams(optax.adamw)(learning_rate=config.learning_rate,
                                                               weight_decay=config.weight_decay)
        self.capacity = config.buffer // n
        local = partial(jax.shard_map, mesh=self.mesh)
        # check_vma off: mctx's lax.cond mixes values that vary over the devices with ones that do not
        self._generation = jax.jit(local(self._local_generation, in_specs=(P(), P("d"), P("d")),
                                         out_specs=(P("d"), P("d")), check_vma=False))
        self._fit = jax.jit(local(self._local_fit, in_specs=(P(), P(), P("d"), P("d"), P()),
                                  out_specs=(P(), P(), P())))
        self._selfplay = selfplay_fn(self.env, self.features, config.games // n, config.moves, config.sims,
                                     config.opening)

    # -- the state ---------------------------------------------------------------------------------
    def initial(self, seed: int) -> dict:
        key, init = jax.random.split(jax.random.key(seed))
        params = init_params(init, self.inputs, self.config.hidden, self.game.pits)
        n, pits = len(self.devices), self.game.pits
        shapes = {"obs": (self.obs_size,), "mask": (pits,), "policy": (pits,), "value": ()}
        dtypes = {"obs": np.float32, "mask": np.bool_, "policy": np.float32, "value": np.float32}
        replay = {name: np.zeros((n, self.capacity, *shapes[name]), dtypes[name]) for name in REPLAY}
        replay.update(size=np.zeros(n, np.int32), next=np.zeros(n, np.int32))
        return self.place({"params": params, "opt_state": self.optimizer.init(params), "replay": replay,
                           "key": jax.random.key_data(key)})

    def place(self, state: dict) -> dict:
        """``state`` on the devices: the network and the optimiser on each, the buffer split."""
        every, split = NamedSharding(self.mesh, P()), NamedSharding(self.mesh, P("d"))
        return {"params": jax.device_put(state["params"], every), "opt_state": jax.device_put(state["opt_state"], every),
                "replay": jax.device_put(state["replay"], split), "key": np.asarray(state["key"])}

    # -- a generation -----------------------------------------------------------------------------
    def generation(self, state: dict, learning_rate: float) -> tuple[dict, dict]:
        """Self-play, then the fit at ``learning_rate``; returns the new state and statistics
        (positions kept, games ended, player_0's mean score, losses)."""
        n = len(self.devices)
        key, play, fit = jax.random.split(jax.random.wrap_key_data(jnp.asarray(state["key"])), 3)
        keys = jax.random.key_data(jax.random.split(play, n))
        replay, counts = self._generation(state["params"], keys, state["replay"])
        counts = np.asarray(counts).sum(axis=0)  # per device: positions, games ended, player_0's points
        positions, games, points = int(counts[0]), int(counts[1]), float(counts[2])
        stats = {"positions": positions, "games": games,
                 "first_player_score": points / max(games, 1), "mean_length": positions / max(games, 1)}
        kept = int(np.asarray(replay["size"]).sum())
        opt_state, params = state["opt_state"], state["params"]
        if kept >= self.config.batch_size:
            steps = max(1, math.ceil(self.config.reuse * positions / self.config.batch_size))
            rate = {**opt_state.hyperparams, "learning_rate": jnp.asarray(learning_rate, jnp.float32)}
            opt_state = jax.device_put(opt_state._replace(hyperparams=rate), NamedSharding(self.mesh, P()))
            fit_keys = jax.random.key_data(jax.random.split(fit, n))
            params, opt_state, losses = self._fit(params, opt_state, replay, fit_keys, jnp.int32(steps))
            stats.update(policy_loss=float(losses[0]), value_loss=float(losses[1]), steps=steps)
        return {"params": params, "opt_state": opt_state, "replay": replay,
                "key": np.asarray(jax.random.key_data(key))}, stats

    def _local_generation(self, params, key_data, replay):
        """One device's self-play, its positions appended to its part of the buffer."""
        positions = self._selfplay(params, jax.random.wrap_key_data(key_data[0]))
        values, valid = value_targets(positions, self.config.value_q)
        new = {"obs": positions.obs, "mask": positions.mask, "policy": positions.policy, "value": values}
        new = {name: a.reshape(-1, *a.shape[2:]) for name, a in new.items()}
        valid = valid.reshape(-1)
        size, nxt = replay["size"][0], replay["next"][0]
        # the valid positions, in order, at the ring's next slots; the others are dropped
        slot = jnp.where(valid, (nxt + jnp.cumsum(valid) - 1) % self.capacity, self.capacity)
        replay = {name: replay[name].at[0, slot].set(new[name], mode="drop") for name in REPLAY}
        added = valid.sum().astype(jnp.int32)
        replay["size"] = jnp.minimum(size + added, self.capacity)[None]
        replay["next"] = ((nxt + added) % self.capacity)[None]
        ended = positions.ended
        first_result = positions.reward * jnp.where(positions.first, 1.0, -1.0)
        points = jnp.where(ended, first_result * 0.5 + 0.5, 0.0).sum()
        counts = jnp.stack([added.astype(jnp.float32), ended.sum().astype(jnp.float32), points])
        return replay, counts[None]

    def _loss(self, params, batch):
        logits, values = forward(params, self.features(batch["obs"]))
        logits = jnp.where(batch["mask"], logits, -1e9)
        policy_loss = optax.softmax_cross_entropy(logits, batch["policy"]).mean()
        value_loss = ((values - batch["value"]) ** 2).mean()
        return policy_loss + value_loss, (policy_loss, value_loss)

    def _local_fit(self, params, opt_state, replay, key_data, steps):
        """``steps`` optimiser steps, each on ``batch_size / devices`` positions drawn from this
        device's buffer, the gradients averaged over the devices."""
        per_device = self.config.batch_size // len(self.devices)
        size = jnp.maximum(replay["size"][0], 1)

        def step(i, carry):
            params, opt_state, total = carry
            index = jax.random.randint(jax.random.fold_in(jax.random.wrap_key_data(key_data[0]), i),
                                       (per_device,), 0, size)
            batch = {name: replay[name][0, index] for name in REPLAY}
            grads, losses = jax.grad(self._loss, has_aux=True)(params, batch)
            grads, losses = jax.lax.pmean((grads, jnp.stack(losses)), "d")
            updates, opt_state = self.optimizer.update(grads, opt_state, params)
            return optax.apply_updates(params, updates), opt_state, total + losses

        params, opt_state, total = jax.lax.fori_loop(0, steps, step, (params, opt_state, jnp.zeros(2)))
        return params, opt_state, total / steps
