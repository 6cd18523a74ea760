"""Trained models as policies: ``model`` (a saved ``.zip``) and ``pretrained`` (shipped agents).

A model saved by :func:`save_model` carries its metadata (game, rule parameters, obs_type,
algorithm, library versions) inside the SB3 zip, so :func:`load_model` picks the right algorithm
class and refuses, with a message naming both sides, a model meant for another game or layout.

``make_policy("model", path="runs/x/final.zip")`` or ``make_policy("model:runs/x/final.zip")``;
``make_policy("pretrained")`` plays the agent shipped in ``mancala_marl/agents/pretrained/<game>.zip``
for whichever game it is asked to move in. Both need the ``[train]`` extra (torch, SB3), which is
imported only when a model is loaded.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import sys
import zipfile
from importlib import resources
from pathlib import Path

import numpy as np

from mancala_marl import observations
from mancala_marl.atomic import write_atomically
from mancala_marl.errors import BadInput
from mancala_marl.extras import require

from mancala_marl.games import Param

from .base import SEED, Policy, check_game_on, register_policy

META_KEY = "mancala_marl"  # attribute of the SB3 model that carries our metadata
METADATA_KEYS = ("game", "rule_params", "obs_type", "algo")  # what playing a model needs of it
# Shipped files; without kind=, the first kind shipped for the game (the scratch networks win more
# against every baseline than the distilled ones: benchmarks/results/best_recipe/scratch_*.md, distill_*_model.md).
PRETRAINED_KINDS = {"scratch": "scratch_{game}.zip", "distilled": "{game}.zip"}
# Models saved before the package had one installed name pickled classes under the repository's
# top-level folders; while such a model loads, those names point at the installed modules.
LEGACY_MODULES = {"agents": "mancala_marl.agents", "agents.features": "mancala_marl.agents.features",
                  "train": "mancala_marl.train", "train.masked_dqn": "mancala_marl.agents.masked_dqn"}


def pretrained_dir():
    """The folder of the shipped networks (an ``importlib.resources`` traversable)."""
    return resources.files("mancala_marl.agents") / "pretrained"


def shipped_games(kind: str = "scratch") -> list[str]:
    """Names of the games that have a shipped network of ``kind`` (see :class:`PretrainedPolicy`)."""
    from mancala_marl.games import GAMES

    return [name for name in GAMES if (pretrained_dir() / PRETRAINED_KINDS[kind].format(game=name)).is_file()]


def algo_class(algo: str):
    """The SB3 class of ``"maskable-ppo"`` or ``"dqn"`` (our masked DQN)."""
    if algo == "maskable-ppo":
        from sb3_contrib import MaskablePPO
        return MaskablePPO
    if algo == "dqn":
        from .masked_dqn import MaskedDQN
        return MaskedDQN
    raise BadInput(f"algo must be 'maskable-ppo' or 'dqn', got {algo!r}")


def algo_name(model) -> str:
    """The ``algo`` of metadata for ``model``: ``"maskable-ppo"`` or ``"dqn"``."""
    for algo in ("maskable-ppo", "dqn"):
        if isinstance(model, algo_class(algo)):
            return algo
    raise BadInput(f"a {type(model).__name__} is neither of the algorithms a model policy plays "
                     "(sb3_contrib's MaskablePPO, mancala_marl's MaskedDQN)")


def make_metadata(game, obs_type: str, algo: str, **extra) -> dict:
    """The metadata :func:`save_model` stores: game, rule params, obs_type, algo, library versions."""
    import gymnasium
    import sb3_contrib
    import stable_baselines3
    import torch

    import mancala_marl
    algo_class(algo)  # a name that load_model would not know is refused here, not when loading
    observations.check_obs_type(game, obs_type)
    versions = {"mancala_marl": mancala_marl.__version__, "stable_baselines3": stable_baselines3.__version__,
                "sb3_contrib": sb3_contrib.__version__, "torch": torch.__version__,
                "gymnasium": gymnasium.__version__, "numpy": np.__version__}
    return {"game": game.name, "rule_params": dict(game.params), "obs_type": obs_type, "algo": algo,
            "library_versions": versions, **extra}


def save_model(model, path, metadata: dict) -> Path:
    """Save ``model`` with ``metadata`` to ``path`` atomically: a crash never leaves a
    half-written file under the final name. As SB3's ``save``, a path without a suffix gets
    ``.zip``; returns the path written."""
    check_model_fits(model, metadata, where=f"save_model({str(path)!r})")
    path = Path(path)
    if path.suffix == "":
        path = path.with_name(path.name + ".zip")
    setattr(model, META_KEY, metadata)
    return write_atomically(path, model.save)


def check_model_fits(model, metadata: dict, where: str) -> None:
    """Refuse metadata that does not describe ``model``: another algorithm, or a game and
    observation whose shape or number of moves is not the network's. Otherwise the mistake
    shows only when the model plays, as SB3's 'unexpected observation shape'."""
    from mancala_marl.games import make_game

    check_metadata_keys(metadata, where)
    cls = algo_class(metadata["algo"])
    if not isinstance(model, cls):
        from stable_baselines3 import DQN
        hint = (f": SB3's DQN cannot be restricted to legal moves; train {cls.__module__}.{cls.__name__} "
                "instead (it takes the same arguments)" if type(model) is DQN else "")
        raise BadInput(f"{where}: the model is a {type(model).__name__}, but its metadata says algo "
                         f"{metadata['algo']!r} ({cls.__name__}){hint}")
    game = make_game(metadata["game"], **metadata["rule_params"])
    expected = observations.observation_space(game, metadata["obs_type"]).shape
    reads, moves = model.observation_space.shape, getattr(model.action_space, "n", None)
    if reads != expected or moves != game.actions:
        raise BadInput(f"{where}: the network reads observations of shape {reads} and chooses among {moves} "
                         f"moves, but its metadata names obs_type {metadata['obs_type']!r} of {game!r}: shape "
                         f"{expected}, {game.actions} moves")


def save_for_shipping(source, target) -> None:
    """Copy the model ``source`` to ``target`` without its optimiser's state (Adam's moments
    double a file's size and only matter for training on) and without the training envs' last
    observations (256 of them: over 1 MB on Togyz Kumalak's afterstates)."""
    model, metadata = load_model(source)
    model._last_obs = model._last_original_obs = None  # learn() starts from a reset when they are None
    policy = model.policy
    # A fresh optimiser over the same parameters (DQN's holds the online network's only, not the
    # target's): another set would not match on loading, and SB3 warns of an old file.
    params = [p for group in policy.optimizer.param_groups for p in group["params"]]
    policy.optimizer = policy.optimizer_class(params, lr=1e-4, **policy.optimizer_kwargs)
    save_model(model, target, metadata)


def model_file(path) -> Path:
    """``path``, or ``path.zip`` where only that exists: SB3's ``load`` finds "model" saved as
    model.zip too."""
    path = Path(path)
    zipped = path.with_name(path.name + ".zip")
    return zipped if not path.exists() and zipped.is_file() else path


def read_metadata(path) -> dict:
    """The metadata stored in a model zip, without loading the network.

    Raises FileNotFoundError for a missing file and ValueError for anything that is not a model
    saved by :func:`save_model`, naming the file and what is wrong with it."""
    path = model_file(path)
    if not path.is_file():
        raise FileNotFoundError(f"no model file at {path}")
    try:
        with zipfile.ZipFile(path) as archive:
            data = json.loads(archive.read("data"))
    except zipfile.BadZipFile:
        raise BadInput(f"{path} is not a model file (not a zip archive)") from None
    except KeyError:
        raise BadInput(f"{path} is not a Stable-Baselines3 model (no 'data' entry in the zip)") from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise BadInput(f"{path} is a corrupt model file (its 'data' entry is not JSON)") from None
    meta = data.get(META_KEY) if isinstance(data, dict) else None
    if not isinstance(meta, dict) or not set(METADATA_KEYS) <= meta.keys():
        raise BadInput(f"{path} is not a mancala_marl model (no {META_KEY!r} metadata); "
                         "save it with mancala_marl.agents.learned.save_model")
    return meta


@contextlib.contextmanager
def legacy_module_names():
    """Let pickles that name ``agents.*``/``train.*`` (models saved before the one-namespace
    layout) find the installed ``mancala_marl.*`` modules, for the duration of a load only."""
    saved = {old: sys.modules.get(old) for old in LEGACY_MODULES}
    try:
        for old, new in LEGACY_MODULES.items():
            sys.modules[old] = importlib.import_module(new)
        yield
    finally:
        for old, module in saved.items():
            if module is None:
                sys.modules.pop(old, None)
            else:
                sys.modules[old] = module


def check_compatible(metadata: dict, game, obs_type: str | None = None, where: str = "model") -> None:
    """Raise ValueError unless the model was trained for ``game`` (same rules) and ``obs_type``."""
    ours = (metadata["game"], metadata["rule_params"])
    theirs = (game.name, dict(game.params))
    if ours != theirs:
        raise BadInput(f"{where} was trained for {ours[0]} {ours[1]} but is used on {theirs[0]} {theirs[1]}")
    if obs_type is not None and obs_type != metadata["obs_type"]:
        raise BadInput(f"{where} expects obs_type {metadata['obs_type']!r}, got {obs_type!r}")


def check_metadata_keys(metadata, where: str) -> None:
    if not isinstance(metadata, dict) or any(key not in metadata for key in METADATA_KEYS):
        raise BadInput(f"{where} needs metadata: a dict with 'game', 'rule_params', 'obs_type' and 'algo' "
                         "(make_metadata(game, obs_type, algo) builds it), got "
                         f"{metadata if not isinstance(metadata, dict) else sorted(metadata)!r}")


def load_model(path, game=None, obs_type: str | None = None, device: str = "cpu"):
    """(model, metadata) from a zip written by :func:`save_model`; with ``game`` (and
    ``obs_type``) given, a model for other rules or another observation layout is refused.

    Stable-Baselines3 stores parts of a model pickled, and loading unpickles them, which can run
    code from the file, as SB3's own documentation warns: load only files you trust (the shipped
    ones, your own runs'). The ``alphazero`` networks are plain arrays, read without pickle."""
    metadata = read_metadata(path)
    if game is not None:
        check_compatible(metadata, game, obs_type, where=f"model {path}")
    require("train", "loading a trained model")
    import torch
    # These models answer one observation at a time; on small CPUs several torch threads make
    # that 5-10x slower (measured on 2 busy cores), so inference runs single-threaded.
    torch.set_num_threads(1)
    cls = algo_class(metadata["algo"])
    try:
        with legacy_module_names():
            model = cls.load(model_file(path), device=device)
    except (zipfile.BadZipFile, KeyError, EOFError, RuntimeError, AttributeError, ModuleNotFoundError) as error:
        raise BadInput(f"model {path} could not be loaded as {cls.__name__} ({type(error).__name__}: {error}); "
                         f"the file is corrupt, was saved by an incompatible version, or is not the algo "
                         f"{metadata['algo']!r} its metadata names") from None
    check_model_fits(model, metadata, where=f"model {path}")
    return model, metadata


@register_policy("model")
class ModelPolicy(Policy):
    """A trained MaskablePPO or masked-DQN model choosing among the legal moves.

    Args:
        path: model zip (from ``mancala-marl train``), or pass ``model`` + ``metadata`` directly.
        deterministic: greedy (default) or sample from the policy (PPO) / epsilon (DQN).
        epsilon: probability of a uniformly random legal move instead (the Sungka paper tests
            with 0.01).
    """

    python_only = ("model", "metadata")
    parameters = (Param("path", str, None, "the model's zip file (SB3 unpickles it: only a file you trust)",
                        optional=True),
                  Param("deterministic", bool, True, "the greedy move, else one sampled from the policy"),
                  Param("epsilon", float, 0.0, "chance of a random legal move instead", low=0, high=1), SEED)

    def __init__(self, path=None, model=None, metadata=None, deterministic: bool = True,
                 epsilon: float = 0.0, seed: int | None = None):
        super().__init__(seed)
        if (path is None) == (model is None):
            raise BadInput("model policy needs exactly one of path=... or model=...")
        if model is None:
            require("train", "the model policy")
            read_metadata(path)  # a missing or foreign file is named now, not at the first move
        else:
            # in memory, with no file to read its game and observation from
            check_model_fits(model, metadata, where="the model policy given model=...")
        self.path, self.model, self.metadata = path, model, metadata
        self._plays(deterministic, epsilon)
        self._checked = None

    def _plays(self, deterministic, epsilon) -> None:
        self.greedy, self.epsilon = bool(deterministic), float(epsilon)
        self.deterministic = self.greedy and not self.epsilon  # (Policy's meaning: same position, same move)

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

    def prepare(self, game):
        self._model_for(game)

    def act(self, game, state):
        check_game_on(game, state)  # the network would still pick a pit from an all-False mask
        model = self._model_for(game)
        mask = game.legal_mask(state)
        if self.epsilon and self.rng.random() < self.epsilon:
            return int(self.rng.choice(np.flatnonzero(mask)))
        obs = observations.encode(game, state, game.to_move(state), self.metadata["obs_type"])
        action, _ = model.predict(obs, action_masks=mask, deterministic=self.greedy)
        return int(action)


@register_policy("pretrained")
class PretrainedPolicy(ModelPolicy):
    """The network shipped for the game being played (``mancala_marl/agents/pretrained/``):
    ``kind="scratch"`` (``scratch_<game>.zip``: reinforcement learning from scratch, no teacher;
    the default) or ``kind="distilled"`` (``<game>.zip``: imitates alpha-beta, shipped for the
    first three games)."""

    parameters = (Param("kind", str, None, "how the network was trained; default: scratch where shipped",
                        choices=tuple(PRETRAINED_KINDS), optional=True), *ModelPolicy.parameters[1:])

    def __init__(self, kind: str | None = None, deterministic: bool = True, epsilon: float = 0.0,
                 seed: int | None = None):
        Policy.__init__(self, seed)
        require("train", "the pretrained policy")
        self.kind = kind
        self.path, self.model, self.metadata = None, None, None
        self._plays(deterministic, epsilon)
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
        kinds = [self.kind] if self.kind else list(PRETRAINED_KINDS)
        entries = [pretrained_dir() / PRETRAINED_KINDS[kind].format(game=game.name) for kind in kinds]
        entry = next((e for e in entries if e.is_file()), None)
        if entry is None:
            shipped = {kind: shipped_games(kind) for kind in kinds}
            raise BadInput(f"no pretrained agent ({' or '.join(kinds)}) for {game.name}; shipped: {shipped}")
        # Installed packages are plain folders (wheels are unpacked), so this path outlives the
        # context; a zipped install would need the file extracted for as long as it is used.
        with resources.as_file(entry) as path:
            self.path = str(path)
        return Path(self.path)
