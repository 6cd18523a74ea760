"""Batch engine: many games of one variant at once, compiled with numba.

A batch is a 2-D ``int32`` array of shape ``(n, game.state_size)``, one engine state per row
(layout in :mod:`mancala_marl.games.base`); ``game.state_size * 4`` bytes per game (68 bytes for
Kalah(6, 4)). Every move goes through the *same* kernels the single-game engines use
(through :func:`mancala_marl.games.dispatch.apply_move`, which picks the game's kernel by
``spec[SPEC_GAME]``), so the rules have one source of truth.

Each public function has a single-thread and a ``parallel=True`` variant (``numba.prange`` over
rows, as many threads as ``numba.get_num_threads()``); the serial one is faster for small
batches, where starting threads costs more than the work.

Also here: compiled twins of the ``agents`` policies random, max and exact (random draws
numpy's PCG64 stream bit for bit), used by the vectorized env (:mod:`mancala_marl.vector`, which
also runs ``greedy`` through ``mancala_marl.agents.search``); ``tests/test_batch.py`` checks that they pick
exactly the moves of their ``agents`` counterparts.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ._compile import kernel
from .games.base import GAME_OVER, SPEC_GAME, SPEC_PITS, TOGYZ, Game
from .games.dispatch import apply_move

# obs_type ids for the compiled encoder
OBS_IDS = {"counts": 0, "paper": 1, "tesauro": 2}


# -- single rows -----------------------------------------------------------------------------
@kernel(inline="always")
def _is_legal(state, pit, pits):
    mover = state[2 * pits + 2]
    return mover != GAME_OVER and 0 <= pit < pits and state[mover * (pits + 1) + pit] > 0


@kernel
def _step_row(states, i, actions, spec, status):
    pits = spec[SPEC_PITS]
    if states[i, 2 * pits + 2] == GAME_OVER:
        status[i] = 2
    elif not _is_legal(states[i], actions[i], pits):
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
    pits = spec[SPEC_PITS]
    to_move = 2 * pits + 2
    rng = np.uint64(seed) * np.uint64(0xD1B54A32D192ED03) + np.uint64(1)
    moves = 0
    while state[to_move] != GAME_OVER and moves < max_moves:
        first = state[to_move] * (pits + 1)
        legal = 0
        for p in range(pits):
            if state[first + p] > 0:
                legal += 1
        rng, bits = _splitmix(rng)
        # Lemire's multiply-shift: bias below legal / 2**32, irrelevant for playouts
        k = ((bits >> np.uint64(32)) * np.uint64(legal)) >> np.uint64(32)
        for p in range(pits):
            if state[first + p] > 0:
                if k == 0:
                    apply_move(state, p, spec)
                    break
                k -= 1
        moves += 1
    return moves


# -- batches ---------------------------------------------------------------------------------
@kernel
def _step_serial(states, actions, spec, status):
    for i in range(states.shape[0]):
        _step_row(states, i, actions, spec, status)


@kernel(parallel=True)
def _step_parallel(states, actions, spec, status):
    for i in prange(states.shape[0]):
        _step_row(states, i, actions, spec, status)


@kernel
def _masks_serial(states, pits, out):
    for i in range(states.shape[0]):
        mover = states[i, 2 * pits + 2]
        for p in range(pits):
            out[i, p] = mover != GAME_OVER and states[i, mover * (pits + 1) + p] > 0


@kernel
def _playouts_serial(states, spec, seed, max_moves, moves):
    for i in range(states.shape[0]):
        moves[i] = _playout_row(states[i], spec, seed + i, max_moves)


@kernel(parallel=True)
def _playouts_parallel(states, spec, seed, max_moves, moves):
    for i in prange(states.shape[0]):
        moves[i] = _playout_row(states[i], spec, seed + i, max_moves)


def init_states(game: Game, n: int) -> np.ndarray:
    """``n`` starting states of ``game``: an ``(n, game.state_size)`` int32 array."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"n must be a non-negative integer, got {n!r}")
    return np.tile(game.init(), (int(n), 1))


def _check_states(game: Game, states) -> np.ndarray:
    if not isinstance(states, np.ndarray) or states.dtype != np.int32 or states.ndim != 2 \
            or states.shape[1] != game.state_size or not states.flags.c_contiguous:
        raise ValueError(f"states must be a C-contiguous int32 array of shape (n, {game.state_size}) for "
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
        raise ValueError(f"actions must have shape ({states.shape[0]},), got {actions.shape}")
    status = np.empty(states.shape[0], dtype=np.int8)
    (_step_parallel if parallel else _step_serial)(states, actions, game.spec, status)
    return status


def legal_masks(game: Game, states: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """``(n, pits)`` bool: the legal moves of the player to move in each row (all False when over)."""
    _check_states(game, states)
    if out is None:
        out = np.empty((states.shape[0], game.pits), dtype=np.bool_)
    _masks_serial(states, game.pits, out)
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


# -- observations ----------------------------------------------------------------------------
@kernel
def encode_row(state, player, pits, total, obs_id, has_tuzduk, out):
    """Write ``player``'s observation of ``state`` into ``out`` (float32), exactly as
    :func:`mancala_marl.observations.encode` does."""
    cells = 2 * pits + 2
    if obs_id == 2:
        _tesauro_row(state, player, pits, total, out)
        return
    shift = player * (pits + 1)
    if obs_id == 1:  # paper: own pits, then the opponent's pits
        for k in range(pits):
            out[k] = state[(shift + k) % cells]
            out[pits + k] = state[(shift + pits + 1 + k) % cells]
        return
    for k in range(cells):
        out[k] = state[(shift + k) % cells]
    if has_tuzduk:
        for k in range(cells, cells + 2 * pits):
            out[k] = 0.0
        theirs, mine = state[cells + 2 - player], state[cells + 1 + player]
        if theirs >= 0:
            out[cells + theirs] = 1.0
        if mine >= 0:
            out[cells + pits + mine] = 1.0


@kernel
def _tesauro_row(state, player, pits, total, out):
    cells = 2 * pits + 2
    majority = total // 2 + 1
    k = 0
    for s in range(2):
        side = player if s == 0 else 1 - player
        tuzduk_here = state[cells + 2 - side]
        for number in range(pits):
            n = np.float32(state[side * (pits + 1) + number])
            last = number == pits - 1
            out[k] = n >= 1
            k += 1
            if not last:
                out[k] = n >= 2
                k += 1
            out[k] = n % np.float32(2)
            out[k + 1] = (n % np.float32(9)) / np.float32(8)
            out[k + 2] = (n % np.float32(18)) / np.float32(17)
            out[k + 3] = n / np.float32(9)
            k += 4
            if not last:
                out[k] = number == tuzduk_here
                k += 1
        mine, other = state[side * (pits + 1) + pits], state[(1 - side) * (pits + 1) + pits]
        out[k] = np.float32(min(mine, majority) / majority)  # float64 division, as in Python
        out[k + 1] = mine > other
        k += 2
    out[k] = player == 0
    out[k + 1] = player == 1


@kernel
def _encode_serial(states, players, pits, total, obs_id, has_tuzduk, out):
    for i in range(states.shape[0]):
        encode_row(states[i], players[i], pits, total, obs_id, has_tuzduk, out[i])


def encode(game: Game, states: np.ndarray, players, obs_type: str = "counts",
           out: np.ndarray | None = None) -> np.ndarray:
    """``(n, obs_dim)`` float32: row ``i`` seen by ``players[i]`` (0 or 1), same values as
    :func:`mancala_marl.observations.encode`."""
    from . import (
        observations,  # the space (and its checks) live there; the import is cheap
    )

    _check_states(game, states)
    dim = observations.observation_space(game, obs_type).shape[0]
    players = np.broadcast_to(np.asarray(players, dtype=np.int64), (states.shape[0],))
    if out is None:
        out = np.empty((states.shape[0], dim), dtype=np.float32)
    _encode_serial(states, np.ascontiguousarray(players), game.pits, game.total_seeds, OBS_IDS[obs_type],
                   game.name == "togyz_kumalak", out)
    return out


# -- rule-based policies ---------------------------------------------------------------------
# Compiled twins of agents/rules.py (max, exact) and agents/base.py (random); the greedy policy
# reuses the search kernel of agents/search.py itself (see mancala_marl.vector).
@kernel
def max_pit(state, spec):
    """The fullest pit of the mover; ties go to the pit nearest the own store (highest index)."""
    pits = spec[SPEC_PITS]
    first = state[2 * pits + 2] * (pits + 1)
    best, best_count = -1, 0
    for p in range(pits):
        if state[first + p] > 0 and state[first + p] >= best_count:
            best, best_count = p, state[first + p]
    return best


@kernel
def exact_pit(state, spec, scratch):
    """``mancala_marl.agents.rules.exact_move`` or, when no pit qualifies, :func:`max_pit`. ``scratch`` is a
    spare row of the state's shape."""
    pits = spec[SPEC_PITS]
    cells = 2 * pits + 2
    mover = state[cells]
    first = mover * (pits + 1)
    if spec[SPEC_GAME] != TOGYZ:
        for p in range(pits - 1, -1, -1):
            if state[first + p] == pits - p:  # the last seed falls in the store
                return p
        return max_pit(state, spec)
    for hole in range(pits - 1, -1, -1):  # Togyz: the hole nearest the kazan that captures
        balls = state[first + hole]
        if balls == 0:
            continue
        ring = (mover * pits + hole + (1 if balls == 1 else balls - 1)) % (2 * pits)
        if ring // pits == mover or state[cells + 1 + mover] == ring % pits:
            continue
        cell = ring + 1 if ring >= pits else ring
        scratch[:] = state
        apply_move(scratch, hole, spec)
        if scratch[cell] == 0:
            return hole
    return max_pit(state, spec)


# numpy's PCG64, so that a compiled random opponent draws exactly what agents' RandomPolicy
# (``rng.choice(np.flatnonzero(mask))`` on ``np.random.default_rng(seed)``) draws.
# rng row: [state_hi, state_lo, inc_hi, inc_lo, has_uint32, uinteger] as uint64.
_MULT_HI = np.uint64(0x2360ED051FC65DA4)
_MULT_LO = np.uint64(0x4385DF649FCCF645)
_LOW32 = np.uint64(0xFFFFFFFF)


def pcg64_row(generator) -> np.ndarray:
    """The state of a PCG64 ``np.random.Generator`` (or bit generator) as the uint64[6] row the
    compiled draws use."""
    st = getattr(generator, "bit_generator", generator).state
    if st["bit_generator"] != "PCG64":
        raise ValueError(f"a PCG64 generator is needed, got {st['bit_generator']}")
    mask = (1 << 64) - 1
    s, inc = st["state"]["state"], st["state"]["inc"]
    return np.array([s >> 64, s & mask, inc >> 64, inc & mask, st["has_uint32"], st["uinteger"]], dtype=np.uint64)


@kernel(inline="always")
def _mulhi64(a, b):
    a_lo, a_hi = a & _LOW32, a >> np.uint64(32)
    b_lo, b_hi = b & _LOW32, b >> np.uint64(32)
    mid1 = a_hi * b_lo + ((a_lo * b_lo) >> np.uint64(32))
    mid2 = a_lo * b_hi + (mid1 & _LOW32)
    return a_hi * b_hi + (mid1 >> np.uint64(32)) + (mid2 >> np.uint64(32))


@kernel
def pcg64_next32(rng):
    """numpy's ``pcg64_next32``: half of a 64-bit output, the other half kept for the next call."""
    if rng[4] != 0:
        rng[4] = 0
        return rng[5]
    lo = rng[1] * _MULT_LO
    hi = _mulhi64(rng[1], _MULT_LO) + rng[0] * _MULT_LO + rng[1] * _MULT_HI
    new_lo = lo + rng[3]
    carry = np.uint64(1) if new_lo < lo else np.uint64(0)
    new_hi = hi + rng[2] + carry
    rng[0], rng[1] = new_hi, new_lo
    x = new_hi ^ new_lo  # XSL-RR output
    rot = new_hi >> np.uint64(58)
    out = (x >> rot) | (x << ((np.uint64(64) - rot) & np.uint64(63)))
    rng[4], rng[5] = 1, out >> np.uint64(32)
    return out & _LOW32


@kernel
def pcg64_below(rng, n):
    """numpy's ``Generator.integers(0, n)`` for 1 <= n < 2**32 (Lemire's method, as in numpy)."""
    if n == 1:
        return 0  # numpy draws nothing for a range of one
    k = np.uint64(n)
    m = pcg64_next32(rng) * k
    leftover = m & _LOW32
    if leftover < k:
        threshold = (_LOW32 - (k - np.uint64(1))) % k
        while leftover < threshold:
            m = pcg64_next32(rng) * k
            leftover = m & _LOW32
    return np.int64(m >> np.uint64(32))


@kernel
def random_pit(state, spec, rng):
    """A uniform legal pit drawn like ``rng.choice(np.flatnonzero(legal_mask))``."""
    pits = spec[SPEC_PITS]
    first = state[2 * pits + 2] * (pits + 1)
    legal = 0
    for p in range(pits):
        if state[first + p] > 0:
            legal += 1
    k = pcg64_below(rng, legal)
    for p in range(pits):
        if state[first + p] > 0:
            if k == 0:
                return p
            k -= 1
    return -1
