"""Pure rules of each variant, and the registry of variants.

No gymnasium or pettingzoo here, so the environments, the agents and the batch engine all share
one implementation of every rule. **The registry is** :data:`GAMES`: one entry per game, a
:class:`Game` subclass imported from its rules module in this package, checked on registration
for everything the layers above use (:func:`game_class_faults`). Everything
else that lists games (game ids, the compiled dispatch, the PettingZoo and Gymnasium
registrations, the command line's choices and help, the generic tests, the golden playthroughs,
benchmarks and the ladder) is derived from it.

A new variant is its rules module here, its import and entry below, and its PettingZoo entry
module ``mancala_marl/<name>_v0.py``: the three lines of ``kalah_v0.py`` with its name (a file,
so that editors and grep find it; tests/test_contract.py checks that every game has one).
"""

import difflib
import os

import numpy as np

from mancala_marl.errors import BadInput
from .._compile import drop_stale_cache

drop_stale_cache(__name__, ("mancala_marl._compile", "mancala_marl.search_core"))  # before any compiled kernel is loaded from the cache

# ruff: noqa: E402
from .base import GAME_OVER, MAX_MOVES, Game, IllegalMoveError, no_custom_obs, no_features
from .family import Family
from .family_rules import ROUND_PARAMS
from .kalah import Kalah
from .mancalagames import load_mancalagames
from .named import NAMED, NAMED_GAMES, NamedGame
from .oware import Oware
from .params import Param, check_values, parse_spec
from .sungka import Sungka
from .togyz_kumalak import TogyzKumalak

KERNELS = ("apply_kernel", "legal_kernel", "exact_kernel", "extra_obs_kernel", "custom_obs_kernel")


def game_class_faults(cls, build: bool = True) -> list[str]:
    """What ``cls`` lacks of what the environments, the batch engine, the observations, the
    search and the pictures use (see :mod:`mancala_marl.games.base`), one entry each. Its
    ``examples`` are built (``build``), or only their parameters checked against its declarations."""
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        return [f"to be a subclass of mancala_marl.games.Game, got {cls!r}"]
    module = cls.__module__.rsplit(".", 1)[-1]
    faults = []
    if getattr(cls, "name", None) != module:
        faults.append(f"name = {module!r} (its rules module's name; got {getattr(cls, 'name', None)!r})")
    params = cls.parameters
    if (not isinstance(params, tuple) or len(params) < 2 or not all(isinstance(p, Param) for p in params)
            or params[0].type is not int or params[1].type is not int):
        faults.append("parameters: a tuple of Param, the pits a side and the seeds a pit (both int) first")
    elif len({p.name for p in params}) != len(params):
        faults.append(f"parameters with distinct names, got {[p.name for p in params]}")
    elif any((p.type is str and not p.choices) or p.type is float or p.optional for p in params):
        faults.append("parameters that a kernel's int64 spec holds: integers, booleans, or strings with choices")
    for attribute in KERNELS:
        if not hasattr(getattr(cls, attribute, None), "py_func"):
            faults.append(f"{attribute}: a compiled kernel (decorated with mancala_marl._compile.kernel)")
    for attribute in ("extra_slots", "extra_features"):
        value = getattr(cls, attribute, None)
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
            faults.append(f"{attribute}: an integer >= 0, got {value!r}")
    if cls.extra_features and cls.extra_obs_kernel is no_features:
        faults.append(f"extra_obs_kernel, which writes its extra_features={cls.extra_features} per pit")
    if cls.custom_obs and (cls.custom_obs_kernel is no_custom_obs or cls.custom_obs_high is Game.custom_obs_high):
        faults.append(f"custom_obs_kernel and custom_obs_high, for its encodings {list(cls.custom_obs)}")
    for flag in ("store_free", "captures_opposite"):
        if not isinstance(getattr(cls, flag), bool):
            faults.append(f"{flag}: True or False, got {getattr(cls, flag)!r}")
    examples = cls.examples
    if not isinstance(examples, tuple) or not examples or not all(isinstance(e, dict) for e in examples):
        faults.append("examples: a non-empty tuple of rule-parameter dicts, the default rules ({}) first")
    elif not faults:
        for example in examples:
            try:
                cls(**example) if build else check_values(cls.parameters, example, cls.name)
            except (ValueError, TypeError) as error:
                faults.append(f"examples that it takes: {example} is refused ({error})")
    return faults


def _register(*classes: type[Game]) -> dict[str, type[Game]]:
    games = {}
    for game_id, cls in enumerate(classes):
        # Not built here: a game checks its rules with its kernels (the family compiles its legal
        # moves, half a minute on a cold cache), which every import would pay; the tests build them.
        faults = game_class_faults(cls, build=False)
        if faults:
            raise TypeError(f"game class {getattr(cls, '__qualname__', cls)} cannot be registered; it needs "
                            + "; ".join(faults))
        cls.game_id = game_id
        games[cls.name] = cls
    return games


# The registry: one entry per game, in the order of the games' ids (spec[SPEC_GAME]).
GAMES: dict[str, type[Game]] = _register(Kalah, Sungka, TogyzKumalak, Oware, Family)
VARIANTS = tuple(GAMES)
# the named games that are not registered games themselves (oware, sungka, togyz_kumalak are both)
TRADITIONAL = tuple(name for name in NAMED if name not in GAMES)


def make_game(name: str, **params) -> Game:
    """Build a game by registry name (``"kalah"``, ``"sungka"``, ...) or by the name of a traditional
    game (``"wari"``, ``"dakon"``: :data:`NAMED`, the parameters changing its preset) with its rule
    parameters.

    ``name`` may also be a MancalaGames rules file (:func:`names_a_file`), whose rules the
    parameters change (a variant of it, no longer named by the file). A named match played with
    ``rounds="one"`` (its first round alone) leaves its round rules aside with its rounds.

    Raises ValueError naming an unknown game or parameter, or a parameter with a bad value."""
    if names_a_file(name):
        game = load_mancalagames(name)
        if not params or {**game.params, **params} == game.params:
            return game
        variant = GAMES[game.name](**{**game.params, **params})
        variant.title = f"{game.title} (variant)"
        return variant
    if isinstance(name, str) and name in NAMED:  # a traditional game: a preset of a registered one
        preset = NAMED[name]
        rules = {**preset.params, **params}
        if params.get("rounds") == "one":  # a match's first round alone: its round rules go with its rounds
            rules = {key: value for key, value in rules.items() if key not in ROUND_PARAMS or key in params}
        game = GAMES[preset.game](**rules)
        game.preset = preset
        return game
    try:
        cls = GAMES[name]
    except (KeyError, TypeError):
        game, colon, rules = name.partition(":") if isinstance(name, str) else ("", "", "")
        if colon and game in GAMES:  # the command line's GAME:rules, which the Python calls take as keywords
            raise BadInput(f"unknown game {name!r}: rules are keywords here, as in make_game({game!r}, "
                             f"{rules.replace(',', ', ')}); parse_game reads the {name!r} form") from None
        raise BadInput(unknown_game(name)) from None
    return cls(**params)  # which names an unknown parameter, and the game's own


def unknown_game(name) -> str:
    """The one line refusing an unknown game name: the nearest known names first (``dakonn``: did
    you mean dakon?), then the games, each once (the package's own games are named games too)."""
    near = difflib.get_close_matches(str(name), [*GAMES, *TRADITIONAL], n=3, cutoff=0.75)
    hint = f"did you mean {' or '.join(near)}? " if near else ""
    return f"unknown game {name!r}; {hint}known games: {', '.join(GAMES)}; named games: {', '.join(TRADITIONAL)}"


def parse_game(spec, **rules) -> Game:
    """A game from a :class:`Game`, a MancalaGames rules file (a ``Path``, or a path ending in
    ``.txt``: :func:`load_mancalagames`), or a spec like ``"kalah"``, ``"dakon"`` or
    ``"kalah:pits=4,seeds=3"`` (the command line's form), with more ``rules`` as keywords (as
    :func:`make_game` takes them)."""
    if isinstance(spec, Game):
        if rules:
            raise BadInput(f"{spec!r}: a built game takes no rule parameters, got {sorted(rules)}")
        return spec
    if names_a_file(spec):
        return make_game(spec, **rules)
    name, params = split_game_spec(str(spec))
    twice = sorted(set(params) & set(rules))
    if twice:
        raise BadInput(f"game spec {spec!r} and the keywords both give {', '.join(twice)}")
    return make_game(name, **params, **rules)


def names_a_file(spec) -> bool:
    """Whether ``spec`` is a MancalaGames rules file: a path, or a name ending in ``.txt``."""
    return isinstance(spec, os.PathLike) or (isinstance(spec, str) and spec.lower().endswith(".txt"))


def split_game_spec(spec: str) -> tuple[str, dict]:
    """``"kalah:pits=4,seeds=3"`` -> ``("kalah", {"pits": 4, "seeds": 3})``, without building the game."""
    name, args, params = parse_spec(spec)
    if args:
        raise BadInput(f"game spec {spec!r}: parameters must be name=value, e.g. kalah:pits=4,seeds=3")
    return name, params


__all__ = ["GAME_OVER", "GAMES", "MAX_MOVES", "VARIANTS", "Family", "Game", "IllegalMoveError", "Kalah", "Oware", "Param",
           "Sungka", "TogyzKumalak", "game_class_faults", "make_game", "parse_game", "TRADITIONAL",
           "split_game_spec", "load_mancalagames", "NAMED", "NAMED_GAMES", "NamedGame"]
