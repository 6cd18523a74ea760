"""Optional parts of the library and the one-line message when one is missing.

The core install (numpy, gymnasium, pettingzoo, numba, rich) plays, searches and runs arenas;
learned agents and training need the ``[train]`` extra, and so on. :func:`require` checks that an
extra's packages can be found, without importing them, and raises :class:`MissingExtraError`
naming the ``pip install`` line.
"""

from __future__ import annotations

import importlib.util

# extra -> the import names it provides (what a missing install is recognised by)
EXTRAS = {
    "train": ("torch", "stable_baselines3", "sb3_contrib", "tqdm", "matplotlib", "tensorboard"),
    "test": ("pytest", "hypothesis"),
    "rllib": ("ray", "torch"),
    "tianshou": ("tianshou", "torch"),
    "torchrl": ("torchrl", "tensordict", "torch"),
    "openspiel": ("pyspiel",),
    "jax": ("jax", "pgx", "mctx", "optax", "tensorboardX"),
    "serve": ("starlette", "uvicorn"),
}


class MissingExtraError(ImportError):
    """A feature needs an optional extra that is not installed; the message says how to get it."""


def missing(extra: str) -> list[str]:
    """The import names of ``extra`` that cannot be found."""
    return [name for name in EXTRAS[extra] if importlib.util.find_spec(name) is None]


def require(extra: str, feature: str) -> None:
    """Raise :class:`MissingExtraError` unless every package of ``extra`` is installed."""
    absent = missing(extra)
    if absent:
        raise MissingExtraError(f"{feature} needs the [{extra}] extra ({', '.join(absent)} not installed): "
                                f"pip install 'mancala-marl[{extra}]' (from a clone: pip install '.[{extra}]')")
