"""Batch engine: many games of one variant at once, compiled with numba.

A batch is a 2-D ``int32`` array of shape ``(n, game.state_size)``, one engine state per row
(layout in :mod:`mancala_marl.games.base`); ``game.state_size * 4`` bytes per game (60 bytes for
Kalah(6, 4)). Every move and every legality check goes through the *same* kernels the
single-game engines use (through :mod:`mancala_marl.games.dispatch`, which picks the game's
kernel by ``spec[SPEC_GAME]``), so the rules have one source of truth.

Each public function has a single-thread and a ``parallel=True`` variant (``numba.prange`` over
rows, as many threads as ``numba.get_num_threads()``); the serial one is faster for small
batches, where starting threads costs more than the work.

Observations of a batch: :func:`mancala_marl.observations.encode_batch`.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from mancala_marl.errors import BadInput
from ._compile import kernel
from .games.base import GAME_OVER, SPEC_PITS, Game, action_count
from .games.dispatch import apply_move, legal_moves
from .games.params import Param
from .limits import LIMITS

# init_states's n: the range of the positions held at once (mancala_marl.limits), an empty batch too
ROWS = Param("n", int, 1, "states in the batch", low=0, high=LIMITS["positions"].high,
             why_high=LIMITS["positions"].why_high)


# -- single rows -----------------------------------------------------------------------------
@kernel
def _step_row(states, i, actions, spec, status, mask):
    if states[i, 2 * spec[SPEC_PITS] + 2] == GAME_OVER:
        status[i] = 2
    elif not 0 <= actions[i] < action_count(spec) or legal_moves(states[i], spec, mask) == 0 or not mask[actions[i]]:
        status[i] = 1
    else:
        apply_move(states[i], actions[i], spec)
        status[i] = 0


@kernel
def _splitmix(seed):
    """One step of splitmix64 on a uint64: (new seed, 64 random bits)."""
    seed = seed + np.uint64(0x9E3779B97F4A7C15)
    z = seed
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return seed, z ^ (z >> np.uint64(31))


@kernel
def _playout_row(state, spec, seed, max_moves):
    """Uniformly random legal moves until the game ends; returns the number of moves."""
    to_move = 2 * spec[SPEC_PITS] + 2
    actions = action_count(spec)
    mask = np.empty(actions, dtype=np.bool_)
    rng = np.uint64(seed) * np.uint64(0xD1B54A32D192ED03) + np.uint64(1)
    moves = 0
    while state[to_move] != GAME_OVER and moves < max_moves:
        legal = legal_moves(state, spec, mask)
        rng, bits = _splitmix(rng)
        # Lemire's multiply-shift: bias below legal / 2**32, irrelevant for playouts
        k = ((bits >> np.uint64(32)) * np.uint64(legal)) >> np.uint64(32)
        for p in range(actions):
            if mask[p]:
                if k == 0:
                    apply_move(state, p, spec)
                    break
                k -= 1
        moves += 1
    return moves


# -- batches ---------------------------------------------------------------------------------
@kernel
def _step_serial(states, actions, spec, status):
    mask = np.empty(action_count(spec), dtype=np.bool_)
    for i in range(states.shape[0]):
        _step_row(states, i, actions, spec, status, mask)


@kernel(parallel=True)
def _step_parallel(states, actions, spec, status):
    for i in prange(states.shape[0]):
        _step_row(states, i, actions, spec, status, np.empty(action_count(spec), dtype=np.bool_))


@kernel
def masks_of(states, spec, out):
    """The legal moves of every row into ``out`` (n, actions); the vectorized env calls this too."""
    for i in range(states.shape[0]):
        legal_moves(states[i], spec, out[i])


@kernel
def _playouts_serial(states, spec, seed, max_moves, moves):
    for i in range(states.shape[0]):
        moves[i] = _playout_row(states[i], spec, seed + i, max_moves)


@kernel(parallel=True)
def _playouts_parallel(states, spec, seed, max_moves, moves):
    for i in prange(states.shape[0]):
        moves[i] = _playout_row(states[i], spec, seed + i, max_moves)


def init_states(game: Game, n: int, rng: np.random.Generator | None = None) -> np.ndarray:
    """``n`` starting states of ``game``: an ``(n, game.state_size)`` int32 array; a game whose
    start is drawn (``game.random_start``) draws each row's from ``rng`` (None: unseeded)."""
    return game.init_rows(ROWS.check(n), rng)


def _check_states(game: Game, states) -> np.ndarray:
    if not isinstance(states, np.ndarray) or states.dtype != np.int32 or states.ndim != 2 \
            or states.shape[1] != game.state_size or not states.flags.c_contiguous:
        raise BadInput(f"states must be a C-contiguous int32 array of shape (n, {game.state_size}) for "
                         f"{game!r}, got {getattr(states, 'dtype', type(states))} {np.shape(states)}")
    return states


def apply_moves(game: Game, states: np.ndarray, actions, parallel: bool = False) -> np.ndarray:
    """Play ``actions[i]`` (a pit of the mover) in row ``i`` of ``states``, in place.

    Returns an ``(n,)`` int8 status: 0 played, 1 illegal (row left unchanged), 2 game already over
    (row left unchanged). Unlike :meth:`Game.apply` nothing is raised, so one bad row does not
    stop the batch.
    """
    _check_states(game, states)
    actions = np.ascontiguousarray(actions, dtype=np.int64)
    if actions.shape != (states.shape[0],):
        raise BadInput(f"actions must have shape ({states.shape[0]},), got {actions.shape}")
    status = np.empty(states.shape[0], dtype=np.int8)
    (_step_parallel if parallel else _step_serial)(states, actions, game.spec, status)
    return status


def legal_masks(game: Game, states: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """``(n, actions)`` bool: the legal moves of the player to move in each row (all False when over)."""
    _check_states(game, states)
    if out is None:
        out = np.empty((states.shape[0], game.actions), dtype=np.bool_)
    masks_of(states, game.spec, out)
    return out


def random_playouts(game: Game, states: np.ndarray, seed: int = 0, parallel: bool = False,
                    max_moves: int = 100_000) -> np.ndarray:
    """Finish every game in ``states`` (in place) with uniformly random legal moves.

    Row ``i`` draws from its own splitmix64 stream seeded with ``seed + i``, so results do not
    depend on the number of threads. Returns the ``(n,)`` int64 number of moves played per row.
    """
    _check_states(game, states)
    moves = np.empty(states.shape[0], dtype=np.int64)
    (_playouts_parallel if parallel else _playouts_serial)(states, game.spec, int(seed), int(max_moves), moves)
    return moves
