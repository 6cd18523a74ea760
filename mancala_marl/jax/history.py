"""The repetition history in JAX, slot for slot as numba's :mod:`mancala_marl.games.history` keeps
it (a count, the digest, 64-bit hashes as int32 halves), for Oware (:mod:`.oware`) and the family's
``repetition_ends`` (:mod:`.family`).

JAX computes numba's 64-bit hashes without 64-bit integers (``jax_enable_x64`` stays off): a 64-bit
value is a (hi, lo) pair of uint32, and a 64x64 -> 64 product is built from 16-bit limbs.
"""

from __future__ import annotations

import jax.numpy as jnp
from jax import lax

from mancala_marl.games.history import COUNT, DIGEST, HASHES, HISTORY
from mancala_marl.jax.rules import batch_max
from mancala_marl.search_core import FNV_OFFSET, FNV_PRIME

# the constants of numba's games.history.position_hash
_MIX = 0xFF51AFD7ED558CCD
_LOW16 = 0xFFFF
CHUNK = 32  # history slots compared at a time; divides HISTORY
assert HISTORY % CHUNK == 0


def _u32(value: int):
    return jnp.uint32(value & 0xFFFFFFFF)


def _mulhi32(a, b):
    """The high 32 bits of the 64-bit product of two uint32."""
    a1, a0 = a >> 16, a & _LOW16
    b1, b0 = b >> 16, b & _LOW16
    low, cross_a, cross_b = a0 * b0, a1 * b0, a0 * b1
    middle = (low >> 16) + (cross_a & _LOW16) + (cross_b & _LOW16)
    return a1 * b1 + (cross_a >> 16) + (cross_b >> 16) + (middle >> 16)


def _mul64(hi, lo, constant: int):
    """(hi, lo) * constant mod 2**64, all as uint32 halves."""
    c_hi, c_lo = _u32(constant >> 32), _u32(constant)
    return _mulhi32(lo, c_lo) + hi * c_lo + lo * c_hi, lo * c_lo


def _fnv(hi, lo, value):
    """One step of numba's FNV-1a chain over the int32 ``value`` (>= 0; hashed as ``value + 1``)."""
    return _mul64(hi, lo ^ (value + 1).astype(jnp.uint32), FNV_PRIME)


def _finish(hi, lo):
    """splitmix64's finalizer, then the (lo, hi) halves as int32, as the history slots store them."""
    lo = lo ^ (hi >> 1)  # h ^= h >> 33
    hi, lo = _mul64(hi, lo, _MIX)
    lo = lo ^ (hi >> 1)
    return lax.bitcast_convert_type(jnp.stack([lo, hi]), jnp.int32)


def position_hash(cells):
    """numba's ``position_hash`` of the int32 values ``cells`` (board and player to move, all
    >= 0): its (lo, hi) halves as int32."""
    hi, lo = _u32(FNV_OFFSET >> 32), _u32(FNV_OFFSET)
    for i in range(cells.shape[0]):  # a short chain of fixed length: unrolled
        hi, lo = _fnv(hi, lo, cells[i])
    return _finish(hi, lo)


def prefix_hash(flat, length):
    """:func:`position_hash` of ``flat[:length]``, ``length`` traced (a family board's size is data)."""
    def chain(i, halves):
        hi, lo = _fnv(*halves, flat[i])
        return jnp.where(i < length, hi, halves[0]), jnp.where(i < length, lo, halves[1])

    # (to the longest board of the batch: rules.batch_max)
    return _finish(*lax.fori_loop(0, batch_max(length), chain, (_u32(FNV_OFFSET >> 32), _u32(FNV_OFFSET))))


def holds_history(flat) -> bool:
    """Whether a state of ``flat``'s size (static) can hold a history: else no row of it keeps one."""
    return flat.shape[0] >= HASHES + 2 * HISTORY


def record_position(flat, base, h, fresh, when):
    """numba's ``clear_history`` (where ``fresh``: seeds were banked) then ``record_position`` of the
    hash ``h`` in the history kept from slot ``base``, in the rows where ``when``; the other rows'
    cells are kept as they are. Returns (flat, whether the game ends by repetition: ``h`` was
    recorded already, or the history is full)."""
    if not holds_history(flat):
        return flat, jnp.zeros_like(when)
    last = flat.shape[0] - 1
    slots = jnp.arange(CHUNK, dtype=jnp.int32)
    n = jnp.where(fresh, 0, flat[jnp.clip(base + COUNT, 0, last)])
    digest = jnp.where(fresh, 0, flat[jnp.clip(base + DIGEST + jnp.arange(2), 0, last)])

    def look(k, seen):
        chunk = lax.dynamic_slice(flat, (base + HASHES + 2 * CHUNK * k,), (2 * CHUNK,))
        return seen | jnp.any((chunk[::2] == h[0]) & (chunk[1::2] == h[1]) & (CHUNK * k + slots < n))

    # CHUNK slots a step, as far as the longest history the batch looks at reaches
    seen = lax.fori_loop(0, (batch_max(jnp.where(when, n, 0)) + CHUNK - 1) // CHUNK, look, False)
    repeated = when & (seen | (n >= HISTORY))  # a full history ends the game as a repetition would
    # a repetition writes nothing: the position found was recorded since the last clearing
    write = when & ~repeated
    slot = base + HASHES + 2 * jnp.minimum(n, HISTORY - 1)
    cells = jnp.clip(jnp.concatenate([base + COUNT + jnp.arange(3), slot + jnp.arange(2)]), 0, last)
    new = jnp.concatenate([(n + 1)[None], digest ^ h, h])
    return flat.at[cells].set(jnp.where(write, new, flat[cells])), repeated
