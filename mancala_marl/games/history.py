"""The positions since seeds were last banked, behind the rule that a position coming again ends
the game: Oware's (:mod:`mancala_marl.games.oware`) and the family's ``repetition_ends``.

A history takes :data:`HASHES` + 2 * :data:`HISTORY` int32 slots of the state from a slot ``base``
(Oware's: just after TO_MOVE; the family's after slots of its own): ``[n, digest_lo, digest_hi,
h0_lo, h0_hi, ..., h{H-1}_lo, h{H-1}_hi]``, the 64-bit hashes of the ``n`` positions recorded (the
current one included) and their XOR, the digest, which stands for the whole set in a search's
table key. A stretch of :data:`HISTORY` = 256 positions ends the game as if the next one repeated:
without a bound a game need not end (two deterministic players can circle through more positions
than any fixed history holds), and with it the history is never truncated: every repetition
within a stretch is seen. A move that banks seeds clears it (:func:`clear_history`): seeds banked
never come back, so no older position can recur.
"""

from __future__ import annotations

import numpy as np

from .._compile import kernel
from ..search_core import NONE, fnv1a

HISTORY = 256
# Offsets from the history's first slot: positions recorded, their XOR (lo, hi), the hashes.
COUNT, DIGEST, HASHES = 0, 1, 3
_LOW32 = np.uint64(0xFFFFFFFF)


@kernel(inline="always")
def position_hash(state, cells):
    """64-bit hash of the board, the stores and the player to move."""
    h = fnv1a(state, cells + 1, NONE, NONE)
    h ^= h >> np.uint64(33)  # splitmix64's finalizer, so that small changes spread
    h *= np.uint64(0xFF51AFD7ED558CCD)
    h ^= h >> np.uint64(33)
    return h


@kernel(inline="always")
def get64(state, i):
    """The uint64 kept in the int32 slots ``i`` (low half) and ``i + 1`` (high half)."""
    return (np.uint64(np.uint32(state[i + 1])) << np.uint64(32)) | np.uint64(np.uint32(state[i]))


@kernel(inline="always")
def set64(state, i, value):
    """Keep the uint64 ``value`` in the int32 slots ``i`` and ``i + 1`` (see :func:`get64`)."""
    state[i] = np.int32(np.uint32(value & _LOW32))  # the bits as they are: int32 slots
    state[i + 1] = np.int32(np.uint32(value >> np.uint64(32)))


@kernel(refcounts=False)
def record_position(state, cells, base=-1):
    """Add the current position to the history kept from slot ``base`` (-1: just after TO_MOVE, as
    Oware keeps it; the family keeps it after slots of its own); True if the game ends by
    repetition: the position was there already, or the history is full."""
    if base < 0:
        base = cells + 1
    h = position_hash(state, cells)
    n = state[base + COUNT]
    if n >= HISTORY:  # the longest stretch we allow (module docstring)
        return True
    for k in range(n):
        if get64(state, base + HASHES + 2 * k) == h:
            return True
    set64(state, base + HASHES + 2 * n, h)
    set64(state, base + DIGEST, get64(state, base + DIGEST) ^ h)
    state[base + COUNT] = n + 1
    return False


@kernel(refcounts=False)
def clear_history(state, cells, base=-1):
    """Forget the history kept from slot ``base`` (-1: just after TO_MOVE): seeds were banked."""
    if base < 0:
        base = cells + 1
    state[base + COUNT] = 0
    state[base + DIGEST] = 0
    state[base + DIGEST + 1] = 0
