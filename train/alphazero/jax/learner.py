"""One generation on the devices as one compiled program: self-play, value targets, the buffer
update and every optimiser step.

Nothing comes back to the host inside a generation but one timestamp (where self-play ends and the
fit begins, for the log's phase times) and, at its end, a few statistics. The run's state stays on
the devices and is donated to the next generation, which updates it in place:

- the games in play: a game still going when a generation ends goes on in the next one;
- the *window*, the last ``moves`` steps of positions, so that the positions of a game that ends
  in the next generation get their value targets then instead of being dropped (a game longer
  than two generations' moves loses its earliest positions, and the statistics count them);
- the replay buffer, the network, the optimiser state and the random keys.

Data parallel over every local device (a ``Mesh`` of axis ``"d"`` and ``shard_map``, as Pgx's
AlphaZero example does with ``pmap``): each device plays ``games / devices`` games with its own
key, keeps its own part of the buffer and draws its part of each batch from it; the gradients are
averaged over the devices (``pmean``), so the network and the optimiser state stay the same on all.
"""

from __future__ import annotations

import json
import math
import time
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
import optax
from jax.experimental import io_callback
from jax.sharding import Mesh, NamedSharding
from jax.sharding import PartitionSpec as P

from mancala_marl.agents import alphazero as az_policy  # the policy that plays the trained network
from mancala_marl.jax import make, make_mixed

from .config import JaxAlphaZeroConfig
from .network import feature_fn, forward, init_params
from .selfplay import Positions, finished_window, selfplay_fn, start_fn, value_targets

REPLAY = ("obs", "mask", "policy", "value")
# the parts of a run's state that live split over the devices (the others are the same on each)
SPLIT = ("replay", "games", "window", "key")
# statistics a generation hands back, summed over the devices (losses: averaged)
STATS = ("positions", "learned", "lost", "games", "first_points", "policy_loss", "value_loss", "fitted")
# what a Learner's compiled functions depend on: runs that agree on these share them (a resumed run,
# a test's runs), instead of compiling them again (tens of seconds on a CPU)
SHAPE = ("game", "rule_params", "mix", "games", "moves", "sims", "opening", "hidden", "obs_type", "value_q", "buffer",
         "batch_size", "reuse", "learning_rate", "weight_decay")
_LEARNERS: dict = {}


def learner(config: JaxAlphaZeroConfig, game, devices) -> Learner:
    """The :class:`Learner` of ``config`` on ``devices``, made once per process."""
    key = (json.dumps([getattr(config, name) for name in SHAPE], sort_keys=True), tuple(devices))
    if key not in _LEARNERS:
        _LEARNERS[key] = Learner(config, game, devices)
    return _LEARNERS[key]


class Learner:
    """The compiled generation of ``config`` on ``game`` over ``devices`` (default: all local ones).

    Its state (:meth:`initial`) is a dict of arrays with a leading axis of devices where the part is
    split (``SPLIT``): ``params`` and ``opt_state`` (the same on every device), ``replay``
    (``REPLAY`` arrays of shape (devices, buffer / devices, ...), with ``size`` and ``next``),
    ``games`` (:class:`~.selfplay.Games`), ``window`` (:class:`~.selfplay.Positions`, (devices,
    moves, games / devices, ...)) and ``key`` (each device's random key, as raw uint32 data).
    ``fit_steps`` optimiser steps follow each self-play: ``reuse`` times a generation's positions,
    over ``batch_size``."""

    def __init__(self, config: JaxAlphaZeroConfig, game, devices=None):
        self.config, self.game = config, game
        self.devices = list(devices or jax.devices())
        n = len(self.devices)
        self.mesh = Mesh(np.array(self.devices), ("d",))
        # several games: one environment drawing a game for each row, the network reading its rules
        self.env = (make_mixed(config.mix, obs_type=config.obs_type) if config.mix else
                    make(game.name, obs_type=config.obs_type, **game.params))
        self.actions = self.env.num_actions
        self.features = feature_fn(game, config.obs_type)
        self.inputs = az_policy.feature_layout(game, config.obs_type)[1]
        self.optimizer = optax.inject_hyperparams(optax.adamw)(learning_rate=config.learning_rate,
                                                               weight_decay=config.weight_decay)
        self.capacity, self.local_games = config.buffer // n, config.games // n
        self.fit_steps = max(1, math.ceil(config.reuse * config.games * config.moves / config.batch_size))
        self._selfplay = selfplay_fn(self.env, self.features, self.local_games, config.moves, config.sims,
                                     config.opening)
        self._start = start_fn(self.env, self.local_games, config.opening)
        self._fit_began: list[float] = []  # host times at which a device finished its self-play
        specs = {name: P("d") if name in SPLIT else P() for name in ("params", "opt_state", *SPLIT)}
        # check_vma off: mctx's lax.cond mixes values that vary over the devices with ones that do not
        self._generation = jax.jit(jax.shard_map(self._local_generation, mesh=self.mesh, in_specs=(specs, P()),
                                                 out_specs=(specs, P("d")), check_vma=False),
                                   donate_argnums=0)

    # -- the state ---------------------------------------------------------------------------------
    def initial(self, seed: int) -> dict:
        """A run's first state: a new network, an empty buffer, every game at its start."""
        key, init = jax.random.split(jax.random.key(seed))
        params = init_params(init, self.inputs, self.config.hidden, self.actions)
        keys = jax.random.split(key, len(self.devices))
        state = {"params": params, "opt_state": self.optimizer.init(params), "replay": self.empty_replay(),
                 "key": np.asarray(jax.random.key_data(keys))}
        state.update(self.fresh_games(keys))
        return self.place(state)

    def empty_replay(self) -> dict:
        n, pits = len(self.devices), self.actions
        obs = self.env.observation_shape
        shapes = {"obs": obs, "mask": (pits,), "policy": (pits,), "value": ()}
        dtypes = {"obs": np.float32, "mask": np.bool_, "policy": np.float32, "value": np.float32}
        replay = {name: np.zeros((n, self.capacity, *shapes[name]), dtypes[name]) for name in REPLAY}
        replay.update(size=np.zeros(n, np.int32), next=np.zeros(n, np.int32))
        return replay

    def fresh_games(self, keys) -> dict:
        """``games`` at their start and an empty ``window``, on each device (one key each)."""
        pits = self.actions

        def local(key):
            games = self._start(jax.random.fold_in(key, 1))
            state = games.state
            scalar = jnp.zeros(self.local_games, jnp.float32)
            like = Positions(state.observation, state.legal_action_mask, jnp.zeros((self.local_games, pits)),
                             scalar, scalar, scalar > 0, scalar > 0, scalar > 0, scalar)
            return {"games": games, "window": finished_window(like, self.config.moves)}
        return jax.tree_util.tree_map(np.asarray, jax.vmap(local)(keys))

    def place(self, state: dict) -> dict:
        """``state`` on the devices: the network and the optimiser on each, the other parts split."""
        every, split = NamedSharding(self.mesh, P()), NamedSharding(self.mesh, P("d"))
        return {name: jax.device_put(part, split if name in SPLIT else every) for name, part in state.items()}

    # -- a generation -----------------------------------------------------------------------------
    def generation(self, state: dict, learning_rate: float) -> tuple[dict, dict]:
        """Self-play, then the fit at ``learning_rate``; returns the new state (``state`` is
        donated: do not read it again) and the statistics: ``positions`` resolved (their game
        over: each reached the buffer, or was a random opening move), ``learned`` (reached the
        buffer), ``lost`` (left the window before their game ended), ``games`` ended,
        ``first_player_score``, the losses where it ``fitted``, and ``selfplay_s`` and ``fit_s``,
        the seconds of the two phases."""
        self._fit_began.clear()
        start = time.perf_counter()
        state, stats = self._generation(state, jnp.float32(learning_rate))
        stats = np.asarray(stats)  # the one transfer: it waits for the generation to end
        end = time.perf_counter()
        total = dict(zip(STATS, stats.sum(axis=0).tolist()))
        began = max(self._fit_began, default=end)
        out = {name: int(total[name]) for name in ("positions", "learned", "lost", "games")}
        out.update(first_player_score=total["first_points"] / max(total["games"], 1),
                   mean_length=total["positions"] / max(total["games"], 1),
                   selfplay_s=began - start, fit_s=end - began)
        if total["fitted"]:
            n = len(self.devices)
            out.update(policy_loss=total["policy_loss"] / n, value_loss=total["value_loss"] / n, steps=self.fit_steps)
        return state, out

    def _mark_fit(self, _) -> np.int32:
        self._fit_began.append(time.perf_counter())
        return np.int32(0)

    def _local_generation(self, state, learning_rate):
        """One device's generation (arrays of the split parts with their device axis of one)."""
        mine = {name: jax.tree_util.tree_map(lambda a: a[0], state[name]) for name in SPLIT}
        key, play, fit = jax.random.split(jax.random.wrap_key_data(mine["key"]), 3)
        games, positions = self._selfplay(state["params"], play, mine["games"])
        held = self.config.moves
        window = jax.tree_util.tree_map(lambda old, new: jnp.concatenate([old, new]), mine["window"], positions)
        values, learn, resolved, lost = value_targets(window, self.config.value_q, held)
        replay, learned = self._append(mine["replay"], window, values, learn)
        # when self-play is over, on the host's clock; the fit takes its zero, so it cannot start first
        zero = io_callback(self._mark_fit, jax.ShapeDtypeStruct((), jnp.int32), learned, ordered=False)
        fit_key = jax.random.fold_in(fit, zero)
        enough = jax.lax.psum(replay["size"], "d") >= self.config.batch_size
        params, opt_state, losses = jax.lax.cond(
            enough, lambda: self._fit(state["params"], state["opt_state"], replay, fit_key, learning_rate),
            lambda: (state["params"], state["opt_state"], jnp.zeros(2)))
        new = positions.ended
        first_result = positions.reward * jnp.where(positions.first, 1.0, -1.0)
        stats = jnp.stack([resolved.sum(), learned, lost.sum(), new.sum(), jnp.where(new, first_result * 0.5 + 0.5, 0.0).sum(),
                           losses[0], losses[1], enough]).astype(jnp.float32)
        mine = {"replay": replay, "games": games, "key": jax.random.key_data(key),
                "window": jax.tree_util.tree_map(lambda a: a[-held:], window)}
        return ({"params": params, "opt_state": opt_state,
                 **{name: jax.tree_util.tree_map(lambda a: a[None], part) for name, part in mine.items()}},
                stats[None])

    def _append(self, replay, window, values, learn):
        """``replay`` with the ``learn`` positions of ``window``, in order, at the ring's next slots."""
        new = {"obs": window.obs, "mask": window.mask, "policy": window.policy, "value": values}
        new = {name: a.reshape(-1, *a.shape[2:]) for name, a in new.items()}
        learn = learn.reshape(-1)
        slot = jnp.where(learn, (replay["next"] + jnp.cumsum(learn) - 1) % self.capacity, self.capacity)
        out = {name: replay[name].at[slot].set(new[name], mode="drop") for name in REPLAY}
        added = learn.sum().astype(jnp.int32)
        out["size"] = jnp.minimum(replay["size"] + added, self.capacity)
        out["next"] = (replay["next"] + added) % self.capacity
        return out, added

    def _loss(self, params, batch):
        logits, values = forward(params, self.features(batch["obs"]))
        logits = jnp.where(batch["mask"], logits, -1e9)
        policy_loss = optax.softmax_cross_entropy(logits, batch["policy"]).mean()
        value_loss = ((values - batch["value"]) ** 2).mean()
        return policy_loss + value_loss, (policy_loss, value_loss)

    def _fit(self, params, opt_state, replay, key, learning_rate):
        """``fit_steps`` optimiser steps, each on ``batch_size / devices`` positions drawn from this
        device's buffer, the gradients averaged over the devices; the mean losses."""
        per_device = self.config.batch_size // len(self.devices)
        size = jnp.maximum(replay["size"], 1)
        opt_state = opt_state._replace(hyperparams={**opt_state.hyperparams, "learning_rate": learning_rate})

        def step(carry, key):
            params, opt_state = carry
            index = jax.random.randint(key, (per_device,), 0, size)
            batch = {name: replay[name][index] for name in REPLAY}
            grads, losses = jax.grad(self._loss, has_aux=True)(params, batch)
            grads, losses = jax.lax.pmean((grads, jnp.stack(losses)), "d")
            updates, opt_state = self.optimizer.update(grads, opt_state, params)
            return (optax.apply_updates(params, updates), opt_state), losses

        (params, opt_state), losses = jax.lax.scan(step, (params, opt_state), jax.random.split(key, self.fit_steps))
        return params, opt_state, losses.mean(0)
