"""Any agent that reads PettingZoo's observations, as a policy: an agent of another library in the
arena, a tournament or grading (:func:`mancala_marl.matches.grading.grade_agent`)."""

from __future__ import annotations

from typing import Callable

import numpy as np

from mancala_marl.errors import BadInput
from mancala_marl.observations import check_obs_type, encode, encode_batch

from .base import Policy


class ObservationPolicy(Policy):
    """``act(observation) -> action`` as a policy, the observation the dict a ``mancala_marl`` AEC
    environment's ``observe`` gives the player to move: ``"observation"`` (float32, of
    ``obs_type``) and ``"action_mask"`` (int8). With ``batch=True`` ``act`` takes the dict of
    stacked arrays, ``(n, obs)`` and ``(n, actions)``, and returns ``n`` actions. An action the mask
    does not allow is refused (:class:`~mancala_marl.errors.BadInput`) naming the position::

        from sb3_contrib import MaskablePPO
        model = MaskablePPO.load("kalah_ppo.zip")
        agent = ObservationPolicy(lambda obs: model.predict(obs["observation"],
                                  action_masks=obs["action_mask"], deterministic=True)[0])
    """

    name = "observation"

    def __init__(self, act: Callable, obs_type: str = "counts", name: str = "agent", batch: bool = False):
        super().__init__(None)
        if not callable(act):
            raise BadInput(f"ObservationPolicy needs a callable act(observation) -> action, got {type(act).__name__}")
        self.fn, self.obs_type, self.label, self.batch = act, obs_type, name, batch

    def prepare(self, game) -> None:
        check_obs_type(game, self.obs_type)

    def act(self, game, state: np.ndarray) -> int:
        if self.batch:
            return int(self.act_batch(game, state[None])[0])
        observation = {"observation": encode(game, state, game.to_move(state), self.obs_type),
                       "action_mask": game.legal_mask(state).astype(np.int8)}
        return self._checked(observation["action_mask"][None], [self.fn(observation)])[0]

    def act_batch(self, game, states: np.ndarray) -> np.ndarray:
        """The agent's moves on ``states`` (n, state size), one call of ``act`` where ``batch``."""
        if not self.batch:
            return np.array([self.act(game, state) for state in states], dtype=np.int64)
        players = np.array([game.to_move(state) for state in states], dtype=np.int64)
        masks = np.stack([game.legal_mask(state) for state in states]).astype(np.int8)
        actions = self.fn({"observation": encode_batch(game, states, players, self.obs_type), "action_mask": masks})
        return self._checked(masks, actions)

    def _checked(self, masks: np.ndarray, actions) -> np.ndarray:
        actions = np.asarray(actions).reshape(-1)
        if actions.shape != (len(masks),):
            raise BadInput(f"{self.label}: {len(masks)} observations asked, {actions.size} actions returned")
        out = np.empty(len(masks), dtype=np.int64)
        for i, (action, mask) in enumerate(zip(actions, masks)):
            if not np.issubdtype(type(action), np.integer) and not float(action).is_integer():
                raise BadInput(f"{self.label}: action {action!r} is not a whole number")
            a = int(action)
            if not 0 <= a < len(mask) or not mask[a]:
                raise BadInput(f"{self.label}: action {a} is not legal here (legal: {np.flatnonzero(mask).tolist()})")
            out[i] = a
        return out
