"""The Mancala games as JAX environments with Pgx's API (needs the ``[jax]`` extra).

``make("kalah")`` returns a :class:`~mancala_marl.jax.env.MancalaEnv`, a ``pgx.core.Env``: code
written for ``pgx.make(...)`` runs with it. Each variant's rules are one file here,
``<variant>.py`` with ``make_rules(game) -> Rules``; :data:`JAX_VARIANTS` names the registered
variants that have one. :func:`to_state` and :func:`from_state` convert positions to and from the
numba engine's flat states, so every CPU policy can play or search a JAX position.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util

import jax
import jax.numpy as jnp
import numpy as np

from mancala_marl.errors import BadInput
from ..games import GAMES, VARIANTS, Game, make_game
from ..games.base import MAX_MOVES, MAX_MOVES_PARAM
from ..games.params import Param
from .env import OBS_TYPES, REWARDS, MancalaEnv, State
from .mixed import MixedEnv, MixedState, make_mixed
from .rules import Rules

# from_state's num_moves: the moves played already, counted in the state's int32 as max_moves is
NUM_MOVES = Param("num_moves", int, 0, "moves played already", low=0, high=MAX_MOVES_PARAM.high,
                  why_high=MAX_MOVES_PARAM.why_high)

JAX_VARIANTS = tuple(name for name in VARIANTS if importlib.util.find_spec(f"{__name__}.{name}") is not None)


def make(game: str | Game, obs_type: str = "counts", reward: str = "result", max_moves: int = MAX_MOVES,
         **rules) -> MancalaEnv:
    """The JAX environment of a registered game, with its rule parameters as ``make_game`` takes
    them (``make("kalah", pits=4, seeds=3)``), of a traditional game by name (``make("wari")``) or
    of a :class:`Game` (``make(load_mancalagames(path))``); ``obs_type``, ``reward`` and
    ``max_moves`` as the PettingZoo environments take them (see :class:`MancalaEnv`).

    Raises ValueError naming an unknown game or rule parameter, a bad value, a game that has no
    JAX rules file, or a rule its JAX rules do not play yet."""
    if isinstance(game, Game):
        if rules:
            raise BadInput(f"make({game!r}) takes no rule parameters: the game has its rules already")
        numba_game = game
    else:
        numba_game = make_game(game, **rules)  # the same errors as everywhere else
    if numba_game.name not in JAX_VARIANTS:
        raise BadInput(f"{numba_game.name} has no JAX rules yet; the JAX environments: {', '.join(JAX_VARIANTS)}")
    module = importlib.import_module(f"{__name__}.{numba_game.name}")
    return MancalaEnv(numba_game, module.make_rules(numba_game), obs_type=obs_type, reward=reward,
                      max_moves=max_moves)


def examples(name: str) -> tuple[dict, ...]:
    """The example rule sets of the registered game ``name`` (``Game.examples``), every one of
    which its JAX rules play."""
    return GAMES[name].examples


def to_state(state: State) -> np.ndarray:
    """The numba engine's flat int32 state of a JAX ``State`` (a batch gives one row per game):
    what ``Game.apply``, the agents and the AEC environments' ``set_state`` take."""
    return np.array(state._board, dtype=np.int32)


def from_state(game_or_env: Game | MancalaEnv, values, num_moves: int = 0) -> State:
    """A JAX ``State`` holding the numba flat state ``values`` (one state, or a batch as rows),
    for ``game_or_env`` (a numba ``Game``, whose JAX environment is made with default options, or
    a :class:`MancalaEnv`). ``num_moves`` is the moves already played (the ``_step_count``).

    A state that no play reaches is refused with ``Game.state_from``'s message. A finished game's
    ``current_player`` is 0: the flat state does not say who moved last."""
    num_moves = NUM_MOVES.check(num_moves)
    env = game_or_env if isinstance(game_or_env, MancalaEnv) else \
        _default_env(game_or_env.name, tuple(game_or_env.params.items()))
    rows = np.asarray(values)
    batch = rows.ndim == 2
    rows = np.stack([env.game.state_from(row) for row in (rows if batch else rows[None])])
    states = env.from_boards(jnp.asarray(rows), jnp.int32(num_moves))
    return states if batch else jax.tree_util.tree_map(lambda x: x[0], states)


@functools.lru_cache(maxsize=32)
def _default_env(name: str, params: tuple) -> MancalaEnv:
    return make(name, **dict(params))  # one per rule set: each env compiles its own from_boards


__all__ = ["JAX_VARIANTS", "OBS_TYPES", "REWARDS", "MancalaEnv", "MixedEnv", "MixedState", "Rules", "State", "examples",
           "from_state", "make", "make_mixed", "to_state"]
