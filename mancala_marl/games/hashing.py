"""The one position hash: FNV-1a over a state's cells, compiled once and inlined where it is used.

Its users add what their table needs on top: the alpha-beta search leaves the stores out where the
rest of a game does not depend on them (:func:`mancala_marl.agents.search.position_key`), the
Kalah solver and Oware's rules mix the bits further (a table indexed by the low bits, a history
compared whole). ``mancala_marl.jax.oware`` computes Oware's hash again in 32-bit halves from the
same constants, held to this one by the cross-check.
"""

from __future__ import annotations

import numpy as np

from .._compile import kernel

FNV_OFFSET = 14695981039346656037
FNV_PRIME = 1099511628211
NONE = -1  # a skipped cell that is no cell


@kernel(inline="always")
def fnv1a(cells, count, skip_a, skip_b):
    """FNV-1a over ``cells[0:count]``, each value + 1 (so that an empty cell still changes the
    hash), leaving out the cells ``skip_a`` and ``skip_b`` (:data:`NONE`: none)."""
    h = np.uint64(FNV_OFFSET)
    for i in range(count):
        if i != skip_a and i != skip_b:
            h = (h ^ np.uint64(cells[i] + 1)) * np.uint64(FNV_PRIME)
    return h
