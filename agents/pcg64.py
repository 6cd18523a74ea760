"""numpy's PCG64 in numba, so that the compiled ``random`` policy (:func:`mancala_marl.agents.rules.random_pit`)
draws exactly what :class:`~mancala_marl.agents.RandomPolicy` (``rng.choice(np.flatnonzero(mask))``
on ``np.random.default_rng(seed)``) draws: the vectorized env's random opponent then plays the
same games as the single-agent env's, move for move.
"""

from __future__ import annotations

import numpy as np

from mancala_marl._compile import kernel
from mancala_marl.errors import BadInput

# rng row: [state_hi, state_lo, inc_hi, inc_lo, has_uint32, uinteger] as uint64.
_MULT_HI = np.uint64(0x2360ED051FC65DA4)
_MULT_LO = np.uint64(0x4385DF649FCCF645)
_LOW32 = np.uint64(0xFFFFFFFF)


def pcg64_row(generator) -> np.ndarray:
    """The state of a PCG64 ``np.random.Generator`` (or bit generator) as the uint64[6] row the
    compiled draws use."""
    st = getattr(generator, "bit_generator", generator).state
    if st["bit_generator"] != "PCG64":
        raise BadInput(f"a PCG64 generator is needed, got {st['bit_generator']}")
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
