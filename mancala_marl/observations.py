"""Observation encodings, always from the observing player's side of the board.

``"counts"`` (default), length 2P+2 plus the game's extra features, values 0..total seeds:
    own pits 0..P-1, own store, opponent's pits 0..P-1, opponent's store, then what the game adds
    (``Game.extra_features`` per pit: Togyz Kumalak's tuzduk flags, so 38 for Togyz(9, 9)).
``"paper"``, length 2P: the Sungka paper's house counts without the stores, own side first.
A game's own encodings (``Game.custom_obs``, e.g. Togyz Kumalak's ``"tesauro"``) come from its
rules file.

All encodings are float32 so the same network input works for every obs_type. One compiled
encoder, :func:`encode_row`, serves the environments (:func:`encode`), the batch engine and the
vectorized env (:func:`encode_batch`).
"""

from __future__ import annotations

import functools

import numpy as np
from gymnasium import spaces

from ._compile import kernel
from .games.base import SPEC_PITS, Game
from .games.dispatch import encode_custom, encode_extra

GENERIC = ("counts", "paper")
COUNTS, PAPER = 0, 1  # obs ids; a game's own encodings are 2, 3, ...


def obs_types(game: Game) -> tuple[str, ...]:
    """The encodings ``game`` offers: ``counts``, ``paper`` and the game's own."""
    return GENERIC + tuple(game.custom_obs)


def check_obs_type(game: Game, obs_type: str) -> None:
    if obs_type not in obs_types(game):
        raise ValueError(f"obs_type must be one of {list(obs_types(game))} for {game.name}, got {obs_type!r}")


def obs_id(game: Game, obs_type: str) -> int:
    check_obs_type(game, obs_type)
    return obs_types(game).index(obs_type)


@functools.lru_cache(maxsize=256)
def _high(game_type: type, params: tuple, obs_type: str) -> np.ndarray:
    game = game_type(**dict(params))
    total = float(game.total_seeds)
    if obs_type == "counts":
        high = np.full(game.board_size + game.extra_features * game.pits, total, dtype=np.float32)
        high[game.board_size:] = 1.0
        return high
    if obs_type == "paper":
        return np.full(2 * game.pits, total, dtype=np.float32)
    return game.custom_obs_high(obs_type)


def observation_space(game: Game, obs_type: str = "counts") -> spaces.Box:
    check_obs_type(game, obs_type)
    high = _high(type(game), tuple(game.params.items()), obs_type)
    return spaces.Box(low=0.0, high=high.copy(), dtype=np.float32)


@kernel
def encode_row(state, player, spec, obs, out):
    """Write ``player``'s observation ``obs`` (an obs id) of ``state`` into ``out`` (float32)."""
    pits = spec[SPEC_PITS]
    cells = 2 * pits + 2
    if obs > PAPER:
        encode_custom(state, player, spec, obs, out)
        return
    shift = player * (pits + 1)
    if obs == PAPER:  # own pits, then the opponent's pits
        for k in range(pits):
            out[k] = state[(shift + k) % cells]
            out[pits + k] = state[(shift + pits + 1 + k) % cells]
        return
    for k in range(cells):
        out[k] = state[(shift + k) % cells]
    if out.shape[0] > cells:
        encode_extra(state, player, spec, out[cells:])


@kernel
def encode_rows(states, players, spec, obs, out):
    for i in range(states.shape[0]):
        encode_row(states[i], players[i], spec, obs, out[i])


def encode(game: Game, state: np.ndarray, player: int, obs_type: str = "counts") -> np.ndarray:
    """The observation of ``player`` (0 or 1) in ``state`` as a float32 vector."""
    out = np.empty(_size(game, obs_type), dtype=np.float32)
    encode_row(state, player, game.spec, obs_id(game, obs_type), out)
    return out


def encode_batch(game: Game, states: np.ndarray, players, obs_type: str = "counts",
                 out: np.ndarray | None = None) -> np.ndarray:
    """``(n, obs_dim)`` float32: row ``i`` of ``states`` seen by ``players[i]`` (0 or 1)."""
    players = np.ascontiguousarray(np.broadcast_to(np.asarray(players, dtype=np.int64), (states.shape[0],)))
    if out is None:
        out = np.empty((states.shape[0], _size(game, obs_type)), dtype=np.float32)
    encode_rows(states, players, game.spec, obs_id(game, obs_type), out)
    return out


def _size(game: Game, obs_type: str) -> int:
    check_obs_type(game, obs_type)
    return _high(type(game), tuple(game.params.items()), obs_type).shape[0]
