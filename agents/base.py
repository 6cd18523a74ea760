"""The one interface every policy implements, and the registry that finds policies by name.

A policy is asked for a move with the game (rules and parameters) and a copy of the engine state
(see :mod:`mancala_marl.games.base`); the player to move is ``game.to_move(state)``. Rule-based
and search policies read the state directly; learned policies encode their own observation from
it, so every policy works on every game and seat through the same call.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import pkgutil
from typing import Callable

import numpy as np

from mancala_marl.errors import BadInput
from mancala_marl.games import Game, Param
from mancala_marl.games.params import literal
from mancala_marl.games.params import parse_spec as parse_policy_spec  # a policy spec is read as a game's

SEED_MAX = 2**32 - 1  # numpy's legacy seeding, which SB3 uses, takes 32 bits
SEED = Param("seed", int, None, "seeds the policy's random choices", low=0, high=SEED_MAX, optional=True,
             expects="an integer from 0 to 2**32 - 1")


class Policy:
    """Base class: subclasses implement :meth:`act` and set ``name``.

    ``deterministic``: whether the policy always answers a position with the same move (all but
    ``random`` and sampling models); two such policies play the same game every time from the
    same start, so tests between them start from random openings.

    ``parameters``: what the constructor takes (but ``python_only``), each with its range; a
    registered policy's constructor refuses a value outside it (:func:`register_policy`).
    """

    name = "policy"
    deterministic = True
    parameters: tuple[Param, ...] = (SEED,)
    # Parameters that take Python objects (a network in memory), which no command line can give:
    # left out of the parameters that an error message lists.
    python_only: tuple[str, ...] = ()

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(None if seed is None else check_seed(seed))

    def reset(self, seed: int | None = None) -> None:
        """Called before each game; reseeds the policy's random generator when ``seed`` is given."""
        if seed is not None:
            self.rng = np.random.default_rng(check_seed(seed))

    def act(self, game: Game, state: np.ndarray) -> int:
        """A legal pit (0..P-1) for the player to move in ``state``. Must not modify ``state``."""
        raise NotImplementedError

    def prepare(self, game: Game) -> None:
        """Load what playing ``game`` needs, refusing what does not fit it (a network trained for
        other rules): a ValueError here, before a game starts, not at the policy's first move.
        Nothing to do for policies that read the rules from each call of :meth:`act`."""

    def __call__(self, game: Game, state: np.ndarray) -> int:
        return self.act(game, state)

    def __repr__(self) -> str:
        return getattr(self, "label", None) or self.name  # the spec make_policy was given, else the name


POLICIES: dict[str, Callable[..., Policy]] = {}


def check_seed(seed, what: str = "seed") -> int:
    """``seed`` if it is one that numpy, torch and SB3 all take, else a ValueError naming ``what``
    (numpy's own "expected non-negative integer" names nothing)."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= SEED_MAX:
        raise BadInput(f"{what} must be an integer from 0 to 2**32 - 1, got {seed!r}")
    return int(seed)


def register_policy(name: str):
    """Class decorator: make a policy available to :func:`make_policy` and the command line, its
    constructor refusing a value outside a declared parameter's range (:func:`check_in_range`)."""
    def decorate(cls):
        POLICIES[name] = cls
        cls.name = name
        cls.__init__ = _checking_parameters(cls.__init__, cls.parameters)
        return cls
    return decorate


def check_in_range(param: Param, value):
    """``value`` if ``param`` takes it, else a ValueError saying what it takes in full: numbers
    past what a kernel holds (a 40-digit depth, ``2**63``) are refused here, not wrapped round."""
    if param.type_ok(value) and param.in_range(value):
        return value
    raise BadInput(f"{param.name} must be {param.takes}, got {value!r}")


def _checking_parameters(init, parameters: tuple[Param, ...]):
    if getattr(init, "checks_parameters", False):  # inherited from a registered class: check ours instead
        init = init.__wrapped__
    declared = {param.name: param for param in parameters}
    signature = inspect.signature(init)

    @functools.wraps(init)
    def __init__(self, *args, **kwargs):
        for key, value in signature.bind(self, *args, **kwargs).arguments.items():
            if key in declared:
                check_in_range(declared[key], value)
        init(self, *args, **kwargs)
    __init__.checks_parameters = True
    return __init__


def split_policy_specs(text: str, what: str = "the list") -> list[str]:
    """The specs of a comma-separated list of policies (``--opponent``, ``--pool``,
    ``--eval-opponents``), so ``"random,alphabeta:depth=6,time_limit=0.5"`` is
    ``["random", "alphabeta:depth=6,time_limit=0.5"]``. A piece continues the spec before it if it
    is ``key=value``, or a number, True, False or None after a spec with parameters
    (``alphabeta:2,0.5``); any other piece starts a new spec. Raises ValueError naming ``what``
    if no policy is named."""
    specs: list[str] = []
    for piece in filter(None, (p.strip() for p in text.split(","))):
        key, eq, _ = piece.partition("=")
        if specs and ((eq and key.strip().isidentifier())
                      or (":" in specs[-1] and not isinstance(literal(piece, words=False), str))):
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    if not specs:
        raise BadInput(f"{what} names no policy, got {text!r}")
    return specs


_discovered = False


def _discover() -> None:
    """Import every module of the ``agents`` package (and ``mancala_marl.policies`` entry points)
    once, so that policies registered there (e.g. loaded learned models) become known by name."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    package = importlib.import_module(__package__)
    for info in pkgutil.iter_modules(package.__path__):
        try:
            importlib.import_module(f"{__package__}.{info.name}")
        except ImportError:  # a module needing an extra that is not installed (features.py: torch, SB3)
            continue
    try:
        from importlib.metadata import entry_points
        for entry in entry_points(group="mancala_marl.policies"):
            entry.load()
    except Exception:  # a broken third-party plugin must not break the built-in policies
        pass


def make_policy(name: str, *args, **params) -> Policy:
    """A policy by registered name or command-line spec, e.g. ``make_policy("alphabeta", depth=4)``,
    ``make_policy("alphabeta:depth=4")`` or ``make_policy("model:path/to.zip")``.

    Raises ValueError naming the unknown policy or the bad parameter.
    """
    if not isinstance(name, str):
        raise BadInput(f"policy name must be a string, got {name!r}")
    as_text = {}
    if name.endswith(".zip") and ":" not in name:  # a model file, as SingleAgentEnv's opponent has taken it
        name, args = "model", (name, *args)
    if ":" in name:
        name, more_args, as_text = parse_policy_spec(name)
        args = (*more_args, *args)
        params = {**as_text, **params}
    if name not in POLICIES:
        _discover()
    try:
        factory = POLICIES[name]
    except KeyError:
        hint = (" (an alphazero network file is alphazero:path=FILE)" if name.endswith(".npz") else "")
        raise BadInput(f"unknown policy {name!r}{hint}; known policies: {', '.join(sorted(POLICIES))}") from None
    objects = [key for key in as_text if key in getattr(factory, "python_only", ())]
    if objects:
        raise BadInput(f"policy {name!r} takes {', '.join(objects)} as a Python object, which a spec cannot "
                         f"give: pass it to make_policy({name!r}, {objects[0]}=...)")
    check_parameters(name, factory, args, params)
    try:
        policy = factory(*args, **params)
    except TypeError as error:
        raise BadInput(f"bad parameters for policy {name!r}: {error}") from None
    # Shown as it was asked for ("alphabeta:depth=4", "model:runs/a.zip") in tables and messages;
    # Python objects (a network in memory) have no text to show.
    shown = [*map(str, args), *(f"{key}={value}" for key, value in params.items()
                                if key not in getattr(factory, "python_only", ()))]
    policy.label = name + (":" + ",".join(shown) if shown else "")
    return policy


def check_parameters(name: str, factory, args, params) -> None:
    """Refuse parameters that ``factory`` does not take, naming them and the ones it does (in the
    words of the command line, not of Python's TypeError, which names the class that got them)."""
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):  # a factory without a readable signature: its own call decides
        return
    takes = [p.name for p in signature.parameters.values()
             if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    if any(p.kind == p.VAR_KEYWORD for p in signature.parameters.values()):
        return
    listed = [taken for taken in takes if taken not in getattr(factory, "python_only", ())]
    theirs = f"(its parameters: {', '.join(listed) or 'none'})"
    unknown = [key for key in params if key not in takes]
    if unknown:
        raise BadInput(f"unknown parameter{'s' * (len(unknown) > 1)} {', '.join(map(repr, unknown))} "
                         f"for policy {name!r} {theirs}")
    try:
        signature.bind(*args, **params)
    except TypeError as error:  # too many values, or one given both by position and by name
        raise BadInput(f"bad parameters for policy {name!r}: {error} {theirs}") from None


def check_policies(game, specs) -> None:
    """Make and prepare every policy of ``specs`` once for ``game``, so that an unknown name, a bad
    parameter or a network for other rules is named before any game or training starts, not when
    it first plays, hours in."""
    for spec in specs:
        (spec if isinstance(spec, Policy) else make_policy(spec)).prepare(game)


def check_game_on(game, state) -> None:
    """Refuse what is not a state of ``game``, and a finished game, with the one message every
    policy gives (its mask is all False)."""
    game.check_state(state)
    if game.is_terminal(state):
        raise BadInput("the game is over: there is no move to choose")


@register_policy("random")
class RandomPolicy(Policy):
    """Uniform over the legal moves."""

    deterministic = False

    def act(self, game, state):
        check_game_on(game, state)
        return int(self.rng.choice(np.flatnonzero(game.legal_mask(state))))
