"""The one interface every policy implements, and the registry that finds policies by name.

A policy is asked for a move with the game (rules and parameters) and a copy of the engine state
(see :mod:`mancala_marl.games.base`); the player to move is ``game.to_move(state)``. Rule-based
and search policies read the state directly; learned policies encode their own observation from
it, so every policy works on every game and seat through the same call.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from mancala_marl.games import Game


class Policy:
    """Base class: subclasses implement :meth:`act` and set ``name``."""

    name = "policy"

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        """Called before each game; reseeds the policy's random generator when ``seed`` is given."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def act(self, game: Game, state: np.ndarray) -> int:
        """A legal pit (0..P-1) for the player to move in ``state``. Must not modify ``state``."""
        raise NotImplementedError

    def __call__(self, game: Game, state: np.ndarray) -> int:
        return self.act(game, state)

    def __repr__(self) -> str:
        return self.name


POLICIES: dict[str, Callable[..., Policy]] = {}


def register_policy(name: str):
    """Class decorator: make a policy available to :func:`make_policy` and the command line."""
    def decorate(cls):
        POLICIES[name] = cls
        cls.name = name
        return cls
    return decorate


def make_policy(name: str, **params) -> Policy:
    """A policy by registered name with its parameters, e.g. ``make_policy("random", seed=0)``."""
    try:
        factory = POLICIES[name]
    except KeyError:
        raise ValueError(f"unknown policy {name!r}; known policies: {', '.join(sorted(POLICIES))}") from None
    try:
        return factory(**params)
    except TypeError as error:
        raise ValueError(f"bad parameters for policy {name!r}: {error}") from None


@register_policy("random")
class RandomPolicy(Policy):
    """Uniform over the legal moves."""

    def act(self, game, state):
        return int(self.rng.choice(np.flatnonzero(game.legal_mask(state))))
