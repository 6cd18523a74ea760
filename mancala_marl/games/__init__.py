"""Pure rules of each variant: no gymnasium or pettingzoo here, so the environments, the agents
and the batch engine all share one implementation of every rule."""

import inspect

from .._compile import drop_stale_cache

drop_stale_cache(__name__)  # before any compiled kernel is loaded from the cache

# ruff: noqa: E402
from .base import GAME_OVER, Game, IllegalMoveError
from .kalah import Kalah
from .sungka import Sungka
from .togyz_kumalak import TogyzKumalak

GAMES = {"kalah": Kalah, "sungka": Sungka, "togyz_kumalak": TogyzKumalak}


def make_game(name: str, **params) -> Game:
    """Build a game by name (``"kalah"``, ``"sungka"``, ``"togyz_kumalak"``) with its rule parameters.

    Raises ValueError naming an unknown game or parameter, or a parameter with a bad value."""
    try:
        cls = GAMES[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(GAMES)}") from None
    known = list(inspect.signature(cls).parameters)
    unknown = [key for key in params if key not in known]
    if unknown:
        raise ValueError(f"{name} has no parameter {', '.join(map(repr, unknown))}; its parameters: {', '.join(known)}")
    return cls(**params)


__all__ = ["GAME_OVER", "GAMES", "Game", "IllegalMoveError", "Kalah", "Sungka", "TogyzKumalak", "make_game"]
