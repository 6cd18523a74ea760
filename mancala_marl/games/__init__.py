"""Pure rules of each variant, and the registry of variants.

No gymnasium or pettingzoo here, so the environments, the agents and the batch engine all share
one implementation of every rule. **The registry is** :data:`VARIANTS`: one line per game, the
name of its rules module in this package, which defines one :class:`Game` subclass. Everything
else that lists games (game ids, the compiled dispatch, the ``*_v0`` environment modules, the
PettingZoo and Gymnasium registrations, the command line's choices, the generic tests,
benchmarks and the ladder) is derived from it.
"""

import importlib
import inspect

from .._compile import drop_stale_cache

drop_stale_cache(__name__)  # before any compiled kernel is loaded from the cache

# ruff: noqa: E402
from .base import GAME_OVER, MAX_MOVES, Game, IllegalMoveError

VARIANTS = (
    "kalah",
    "sungka",
    "togyz_kumalak",
    "oware",
)


def _game_class(module_name: str) -> type[Game]:
    module = importlib.import_module(f".{module_name}", __name__)
    classes = [value for value in vars(module).values()
               if isinstance(value, type) and issubclass(value, Game) and value.__module__ == module.__name__]
    if len(classes) != 1 or classes[0].name != module_name:
        raise TypeError(f"rules module {module.__name__} must define one Game subclass named {module_name!r}")
    return classes[0]


GAMES: dict[str, type[Game]] = {}
for _game_id, _module_name in enumerate(VARIANTS):
    GAMES[_module_name] = _game_class(_module_name)
    GAMES[_module_name].game_id = _game_id
globals().update({cls.__name__: cls for cls in GAMES.values()})  # Kalah, Sungka, ... by class name


def make_game(name: str, **params) -> Game:
    """Build a game by registry name (``"kalah"``, ``"sungka"``, ...) with its rule parameters.

    Raises ValueError naming an unknown game or parameter, or a parameter with a bad value."""
    try:
        cls = GAMES[name]
    except (KeyError, TypeError):
        game, colon, rules = name.partition(":") if isinstance(name, str) else ("", "", "")
        if colon and game in GAMES:  # the command line's GAME:rules, which the Python calls take as keywords
            raise ValueError(f"unknown game {name!r}: rules are keywords here, as in make_game({game!r}, "
                             f"{rules.replace(',', ', ')}); parse_game of mancala_marl.train.arena reads "
                             f"the {name!r} form") from None
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(GAMES)}") from None
    known = list(inspect.signature(cls).parameters)
    unknown = [key for key in params if key not in known]
    if unknown:
        raise ValueError(f"{name} has no parameter {', '.join(map(repr, unknown))}; its parameters: {', '.join(known)}")
    return cls(**params)


__all__ = ["GAME_OVER", "GAMES", "MAX_MOVES", "VARIANTS", "Game", "IllegalMoveError", "make_game",
           *(cls.__name__ for cls in GAMES.values())]
