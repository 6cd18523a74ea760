"""Trained models as policies: ``model`` (a saved ``.zip``) and ``pretrained`` (shipped agents).

A model saved by :func:`save_model` carries its metadata (game, rule parameters, obs_type,
algorithm, library versions) inside the SB3 zip, so :func:`load_model` picks the right algorithm
class and refuses, with a message naming both sides, a model meant for another game or layout.

``make_policy("model", path="runs/x/final.zip")`` or ``make_policy("model:runs/x/final.zip")``;
``make_policy("pretrained")`` plays the agent in ``agents/pretrained/<game>.zip`` for whichever game
it is asked to move in. torch and SB3 are imported only when a model is loaded.
"""

from __future__ import annotations

import json
import os
import zipfile
from pathlib import Path

import numpy as np

from mancala_marl import observations

from .base import Policy, register_policy

PRETRAINED_DIR = Path(__file__).parent / "pretrained"
META_KEY = "mancala_marl"  # attribute of the SB3 model that carries our metadata


def algo_class(algo: str):
    """The SB3 class of ``"maskable-ppo"`` or ``"dqn"`` (our masked DQN)."""
    if algo == "maskable-ppo":
        from sb3_contrib import MaskablePPO
        return MaskablePPO
    if algo == "dqn":
        from train.masked_dqn import MaskedDQN
        return MaskedDQN
    raise ValueError(f"algo must be 'maskable-ppo' or 'dqn', got {algo!r}")


def make_metadata(game, obs_type: str, algo: str, **extra) -> dict:
    """The metadata :func:`save_model` stores: game, rule params, obs_type, algo, library versions."""
    import gymnasium
    import sb3_contrib
    import stable_baselines3
    import torch

    import mancala_marl
    versions = {"mancala_marl": mancala_marl.__version__, "stable_baselines3": stable_baselines3.__version__,
                "sb3_contrib": sb3_contrib.__version__, "torch": torch.__version__,
                "gymnasium": gymnasium.__version__, "numpy": np.__version__}
    return {"game": game.name, "rule_params": dict(game.params), "obs_type": obs_type, "algo": algo,
            "library_versions": versions, **extra}


def save_model(model, path, metadata: dict) -> None:
    """Save ``model`` with ``metadata`` to ``path`` (.zip) atomically: a crash never leaves a
    half-written file under the final name."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    setattr(model, META_KEY, metadata)
    tmp = path.with_name(f".{path.stem}.tmp.zip")
    model.save(tmp)
    os.replace(tmp, path)


def read_metadata(path) -> dict:
    """The metadata stored in a model zip, without loading the network."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no model file at {path}")
    with zipfile.ZipFile(path) as archive:
        data = json.loads(archive.read("data"))
    if META_KEY not in data:
        raise ValueError(f"{path} is not a mancala_marl model (no {META_KEY!r} metadata); save it with agents.learned.save_model")
    return data[META_KEY]


def check_compatible(metadata: dict, game, obs_type: str | None = None, where: str = "model") -> None:
    """Raise ValueError unless the model was trained for ``game`` (same rules) and ``obs_type``."""
    ours = (metadata["game"], metadata["rule_params"])
    theirs = (game.name, dict(game.params))
    if ours != theirs:
        raise ValueError(f"{where} was trained for {ours[0]} {ours[1]} but is used on {theirs[0]} {theirs[1]}")
    if obs_type is not None and obs_type != metadata["obs_type"]:
        raise ValueError(f"{where} expects obs_type {metadata['obs_type']!r}, got {obs_type!r}")


def load_model(path, game=None, obs_type: str | None = None, device: str = "cpu"):
    """(model, metadata) from a zip written by :func:`save_model`; with ``game`` (and
    ``obs_type``) given, a model for other rules or another observation layout is refused."""
    metadata = read_metadata(path)
    if game is not None:
        check_compatible(metadata, game, obs_type, where=f"model {path}")
    import torch
    # These models answer one observation at a time; on small CPUs several torch threads make
    # that 5-10x slower (measured on 2 busy cores), so inference runs single-threaded.
    torch.set_num_threads(1)
    return algo_class(metadata["algo"]).load(path, device=device), metadata


@register_policy("model")
class ModelPolicy(Policy):
    """A trained MaskablePPO or masked-DQN model choosing among the legal moves.

    Args:
        path: model zip (from ``mancala-marl train``), or pass ``model`` + ``metadata`` directly.
        deterministic: greedy (default) or sample from the policy (PPO) / epsilon (DQN).
        epsilon: probability of a uniformly random legal move instead (the Sungka paper tests
            with 0.01).
    """

    def __init__(self, path=None, model=None, metadata=None, deterministic: bool = True,
                 epsilon: float = 0.0, seed: int | None = None):
        super().__init__(seed)
        if (path is None) == (model is None):
            raise ValueError("model policy needs exactly one of path=... or model=...")
        if not 0.0 <= float(epsilon) <= 1.0:
            raise ValueError(f"epsilon must be in [0, 1], got {epsilon!r}")
        self.path, self.model, self.metadata = path, model, metadata
        self.deterministic, self.epsilon = bool(deterministic), float(epsilon)
        self._checked = None

    def _model_for(self, game):
        if self.model is None:
            self.model, self.metadata = load_model(self.path_for(game), game)
            self._checked = game
        if self._checked is not game:
            check_compatible(self.metadata, game, where=f"model {self.path or ''}".strip())
            self._checked = game
        return self.model

    def path_for(self, game):
        return self.path

    def act(self, game, state):
        model = self._model_for(game)
        mask = game.legal_mask(state)
        if self.epsilon and self.rng.random() < self.epsilon:
            return int(self.rng.choice(np.flatnonzero(mask)))
        obs = observations.encode(game, state, game.to_move(state), self.metadata["obs_type"])
        action, _ = model.predict(obs, action_masks=mask, deterministic=self.deterministic)
        return int(action)


@register_policy("pretrained")
class PretrainedPolicy(ModelPolicy):
    """The agent shipped for the game being played: ``agents/pretrained/<game>.zip``."""

    def __init__(self, deterministic: bool = True, epsilon: float = 0.0, seed: int | None = None):
        Policy.__init__(self, seed)
        self.path, self.model, self.metadata = None, None, None
        self.deterministic, self.epsilon = bool(deterministic), float(epsilon)
        self._checked = None
        self._models = {}  # game name -> (model, metadata)

    def _model_for(self, game):
        # One shipped model per game: load each the first time that game is played.
        if game.name not in self._models:
            self._models[game.name] = load_model(self.path_for(game), game)
            self._checked = game
        self.model, self.metadata = self._models[game.name]
        if self._checked is not game:
            check_compatible(self.metadata, game, where=f"pretrained model for {game.name}")
            self._checked = game
        return self.model

    def path_for(self, game):
        path = PRETRAINED_DIR / f"{game.name}.zip"
        if not path.is_file():
            shipped = sorted(p.stem for p in PRETRAINED_DIR.glob("*.zip"))
            raise ValueError(f"no pretrained agent for {game.name}; shipped: {', '.join(shipped) or 'none'}")
        self.path = str(path)
        return path
