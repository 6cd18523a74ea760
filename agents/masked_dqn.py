"""DQN that only ever considers legal moves: the smallest change to Stable-Baselines3's DQN.

Three places of DQN look at "all actions"; here each looks at the legal ones only:

1. exploration: the epsilon-random move is uniform over the legal moves;
2. the greedy move: argmax of Q over the legal moves;
3. the bootstrap target: ``max_a' Q_target(s', a')`` over the legal moves of ``s'`` only.

Where the masks come from: the current state's mask from the env's ``action_masks()`` (as
sb3-contrib's MaskablePPO does, so the same :class:`mancala_marl.single_agent.SingleAgentEnv`
serves both algorithms, in DummyVecEnv and SubprocVecEnv alike), and the next state's mask from
``info["action_mask"]``, which :class:`MaskedReplayBuffer` stores beside each transition. We chose
this over a Dict observation holding the mask because it keeps the observation (and so the network
input and saved models) identical for DQN and PPO, and the mask is not a feature to learn from.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import torch as th
from sb3_contrib.common.maskable.utils import get_action_masks
from stable_baselines3 import DQN
from stable_baselines3.common.buffers import ReplayBuffer
from torch.nn import functional as F

from mancala_marl.errors import BadInput
from mancala_marl.limits import limit
from .afterstate import AfterstatePolicy

# the moves an n-step return adds up (1: plain one-step DQN)
N_STEPS = limit("steps", "n_steps", doc="moves of each n-step return")


class MaskedReplayBufferSamples(NamedTuple):
    observations: th.Tensor
    actions: th.Tensor
    next_observations: th.Tensor
    dones: th.Tensor
    rewards: th.Tensor
    next_action_masks: th.Tensor  # (batch, n_actions) bool: legal moves in next_observations
    discounts: th.Tensor | None = None
    weights: th.Tensor | None = None  # prioritized replay: importance-sampling weights (batch, 1)
    indices: tuple | None = None      # prioritized replay: (rows, envs) sampled, for update_priorities


class MaskedReplayBuffer(ReplayBuffer):
    """A replay buffer that also keeps the legal-move mask of each transition's next state,
    read from ``info["action_mask"]`` (a missing mask means "all legal").

    With ``n_steps > 1`` it samples n-step returns, as SB3's ``NStepReplayBuffer`` does: the
    rewards of up to ``n_steps`` moves, cut at the episode's end and at the newest transition,
    then the bootstrap from the last one's next state (and its mask) discounted by ``gamma``
    to the number of moves taken. ``n_steps=1`` is plain one-step DQN, whose discount is left
    to the algorithm (``discounts`` None), so models saved before n-step existed load unchanged.
    """

    def __init__(self, buffer_size, observation_space, action_space, device="auto", n_envs=1,
                 optimize_memory_usage=False, handle_timeout_termination=True, n_steps: int = 1, gamma: float = 0.99,
                 prioritized: float = 0.0):
        if optimize_memory_usage:
            raise BadInput("MaskedReplayBuffer does not support optimize_memory_usage=True")
        n_steps = N_STEPS.check(n_steps)
        super().__init__(buffer_size, observation_space, action_space, device, n_envs=n_envs,
                         handle_timeout_termination=handle_timeout_termination)
        self.n_steps, self.gamma = int(n_steps), float(gamma)
        self.next_action_masks = np.ones((self.buffer_size, self.n_envs, int(action_space.n)), dtype=bool)
        # Prioritized replay (Schaul et al., 2016): a move is drawn in proportion to |TD error| ** alpha
        self.alpha, self.beta = float(prioritized), 0.4
        if self.alpha:
            self.priorities = np.zeros((self.buffer_size, self.n_envs))
            self.max_priority = 1.0

    def grow(self, buffer_size: int) -> None:
        """Make room for ``buffer_size`` moves in all, keeping every stored transition, oldest first:
        a run sized its buffer to its own length, and a ``--resume`` that trains longer needs more."""
        rows = max(buffer_size // self.n_envs, 1)
        if rows <= self.buffer_size:
            return
        order = np.r_[self.pos:self.buffer_size, 0:self.pos] if self.full else np.arange(self.pos)
        for name in ("observations", "next_observations", "actions", "rewards", "dones", "timeouts",
                     "next_action_masks", *("priorities",) * bool(self.alpha)):
            old = getattr(self, name)
            new = (np.ones if name == "next_action_masks" else np.zeros)((rows, *old.shape[1:]), dtype=old.dtype)
            new[:len(order)] = old[order]
            setattr(self, name, new)
        self.buffer_size, self.pos, self.full = rows, len(order), False

    def add(self, obs, next_obs, action, reward, done, infos) -> None:
        for env, info in enumerate(infos):
            mask = info.get("action_mask")
            self.next_action_masks[self.pos, env] = True if mask is None else np.asarray(mask, dtype=bool)
        if self.alpha:
            self.priorities[self.pos] = self.max_priority  # new moves are replayed at least once, soon
        super().add(obs, next_obs, action, reward, done, infos)

    def sample(self, batch_size: int, env=None) -> MaskedReplayBufferSamples:
        if not self.alpha:
            return super().sample(batch_size, env=env)
        stored = self.priorities[:self.buffer_size if self.full else self.pos].ravel()
        cumulative = np.cumsum(stored)
        drawn = np.searchsorted(cumulative, np.random.random(batch_size) * cumulative[-1], side="right")
        drawn = np.minimum(drawn, len(stored) - 1)
        weights = (len(stored) * stored[drawn] / cumulative[-1]) ** -self.beta
        rows, envs = np.divmod(drawn, self.n_envs)
        samples = self._get_samples(rows, env=env, env_inds=envs)
        return samples._replace(weights=self.to_torch((weights / weights.max()).astype(np.float32).reshape(-1, 1)),
                                indices=(rows, envs))

    def update_priorities(self, indices: tuple, td_errors: np.ndarray) -> None:
        priorities = (np.abs(td_errors) + 1e-6) ** self.alpha
        self.priorities[indices] = priorities
        self.max_priority = max(self.max_priority, float(priorities.max()))

    def _get_samples(self, batch_inds, env=None, env_inds=None) -> MaskedReplayBufferSamples:
        if env_inds is None:
            env_inds = np.random.randint(0, high=self.n_envs, size=(len(batch_inds),))
        steps = np.arange(self.n_steps)
        rows = (batch_inds[:, None] + steps) % self.buffer_size
        ended = np.logical_or(self.dones[rows, env_inds[:, None]], self.timeouts[rows, env_inds[:, None]])
        last_step = np.where(ended.any(axis=1), ended.argmax(axis=1), self.n_steps - 1)
        # never read past the newest transition: beyond it lie older episodes (or nothing yet)
        last_step = np.minimum(last_step, (self.pos - 1 - batch_inds) % self.buffer_size)
        last = (batch_inds + last_step) % self.buffer_size
        taken = steps[None, :] <= last_step[:, None]
        rewards = self._normalize_reward(self.rewards[rows, env_inds[:, None]], env)
        returns = (rewards * taken * self.gamma ** steps).sum(axis=1, dtype=np.float32)
        dones = self.dones[last, env_inds] * (1 - self.timeouts[last, env_inds])
        data = (self._normalize_obs(self.observations[batch_inds, env_inds, :], env),
                self.actions[batch_inds, env_inds, :],
                self._normalize_obs(self.next_observations[last, env_inds, :], env),
                dones.reshape(-1, 1), returns.reshape(-1, 1))
        masks = th.as_tensor(self.next_action_masks[last, env_inds], device=self.device)
        discounts = None if self.n_steps == 1 else \
            self.to_torch((self.gamma ** (last_step + 1)).astype(np.float32).reshape(-1, 1))
        return MaskedReplayBufferSamples(*map(self.to_torch, data), next_action_masks=masks, discounts=discounts)


def masked_max(q_values: th.Tensor, masks: th.Tensor) -> th.Tensor:
    """Row-wise max of ``q_values`` (batch, n) over ``masks`` (batch, n) bool; 0 for rows with no
    legal move (terminal states, whose value the done flag discards anyway: this avoids -inf * 0)."""
    masked = q_values.masked_fill(~masks, -th.inf).max(dim=1).values
    return th.where(masks.any(dim=1), masked, th.zeros_like(masked))


class MaskedDQN(DQN):
    """:class:`stable_baselines3.DQN` restricted to legal moves (see the module docstring).

    ``predict(obs, action_masks=...)`` takes the masks like MaskablePPO's, so the two algorithms
    are interchangeable wherever a trained model is asked for a move.
    """

    # "AfterstatePolicy": one value per position a move leaves (agents/afterstate.py)
    policy_aliases = {**DQN.policy_aliases, "AfterstatePolicy": AfterstatePolicy}

    def __init__(self, policy, env, *args, double: bool = False, n_steps: int = 1, prioritized: float = 0.0,
                 **kwargs):
        self.double = bool(double)  # Double DQN targets (van Hasselt et al., 2016)
        kwargs.setdefault("replay_buffer_class", MaskedReplayBuffer)
        if n_steps != 1:  # SB3 sets up n-step returns for its own buffers only; ours takes them as kwargs
            kwargs["replay_buffer_kwargs"] = {**(kwargs.get("replay_buffer_kwargs") or {}), "n_steps": n_steps,
                                              "gamma": kwargs.get("gamma", 0.99)}
        if prioritized:
            kwargs["replay_buffer_kwargs"] = {**(kwargs.get("replay_buffer_kwargs") or {}),
                                              "prioritized": float(prioritized)}
        super().__init__(policy, env, *args, **kwargs)

    def predict(self, observation, state=None, episode_start=None, deterministic=False, action_masks=None):
        obs = np.asarray(observation, dtype=np.float32)
        single = obs.ndim == len(self.observation_space.shape)
        obs = obs.reshape((-1, *self.observation_space.shape))
        n_actions = int(self.action_space.n)
        masks = np.ones((len(obs), n_actions), dtype=bool) if action_masks is None else \
            np.asarray(action_masks, dtype=bool).reshape(len(obs), n_actions)
        with th.no_grad():
            q_values = self.q_net(self.policy.obs_to_tensor(obs)[0])
        q_values = q_values.masked_fill(~th.as_tensor(masks, device=q_values.device), -th.inf)
        actions = q_values.argmax(dim=1).cpu().numpy()
        if not deterministic:
            for i in np.flatnonzero(np.random.rand(len(obs)) < self.exploration_rate):
                legal = np.flatnonzero(masks[i])
                actions[i] = np.random.choice(legal) if len(legal) else actions[i]
        return (actions[0] if single else actions), state

    def _sample_action(self, learning_starts, action_noise=None, n_envs=1):
        masks = get_action_masks(self.env)
        if self.num_timesteps < learning_starts:  # warm-up: uniform over legal moves
            actions = np.array([np.random.choice(np.flatnonzero(m)) for m in masks])
        else:
            actions, _ = self.predict(self._last_obs, deterministic=False, action_masks=masks)
        return actions, actions

    def train(self, gradient_steps: int, batch_size: int = 100) -> None:
        """SB3's DQN update with the next-state max taken over legal moves only (with ``double``,
        the online network picks the best legal next move and the target network values it)."""
        self.policy.set_training_mode(True)
        self._update_learning_rate(self.policy.optimizer)
        losses = []
        for _ in range(gradient_steps):
            data = self.replay_buffer.sample(batch_size, env=self._vec_normalize_env)
            discounts = data.discounts if data.discounts is not None else self.gamma
            with th.no_grad():
                next_q = self._next_value(data.next_observations, data.next_action_masks)
                target = data.rewards + (1 - data.dones) * discounts * next_q.reshape(-1, 1)
            current = th.gather(self.q_net(data.observations), dim=1, index=data.actions.long())
            if data.weights is None:
                loss = F.smooth_l1_loss(current, target)
            else:  # prioritized: importance weights undo the skew, annealed to full by the end
                self.replay_buffer.beta = 0.4 + 0.6 * (1 - self._current_progress_remaining)
                loss = (data.weights * F.smooth_l1_loss(current, target, reduction="none")).mean()
                self.replay_buffer.update_priorities(data.indices, (current - target).detach().cpu().numpy().ravel())
            losses.append(loss.item())
            self.policy.optimizer.zero_grad()
            loss.backward()
            th.nn.utils.clip_grad_norm_(self.policy.parameters(), self.max_grad_norm)
            self.policy.optimizer.step()
        self._n_updates += gradient_steps
        self.logger.record("train/n_updates", self._n_updates, exclude="tensorboard")
        self.logger.record("train/loss", np.mean(losses))

    def _next_value(self, next_obs: th.Tensor, masks: th.Tensor) -> th.Tensor:
        target_q = self.q_net_target(next_obs)
        if not self.double:
            return masked_max(target_q, masks)
        best = self.q_net(next_obs).masked_fill(~masks, -th.inf).argmax(dim=1, keepdim=True)
        value = th.gather(target_q, 1, best).squeeze(1)
        return th.where(masks.any(dim=1), value, th.zeros_like(value))  # terminal rows: no legal move
