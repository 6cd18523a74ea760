"""Where a board sits in a database: an index built from the ranks of its two sides.

A side of ``P`` pits holding ``c`` seeds is one of C(c + P - 1, P - 1) distributions, ranked in
lexicographic order: rank 0 is ``(0, ..., 0, c)``, the last is ``(c, 0, ..., 0)``. A board seen
from the player to move is their side ``a`` then the opponent's ``b``; with ``n`` seeds in play
its index is::

    blocks[n, c_a] + rank(a) * sides(n - c_a) + rank(b)

so a layer (``n`` seeds) is one block per split of its seeds between the sides, and every board of
a layer has its own index: C(n + 2P - 1, 2P - 1) of them. Ranking a side is a handful of table
look-ups.
"""

from __future__ import annotations

import numpy as np

from .._compile import kernel


def composition_table(cells: int, max_seeds: int) -> np.ndarray:
    """``table[m, s]``: the ways to put ``s`` seeds into ``m`` pits (m = 0..cells + 1), as int64."""
    table = np.zeros((cells + 2, max_seeds + 1), dtype=np.int64)
    table[0, 0] = 1
    for m in range(1, cells + 2):
        for s in range(max_seeds + 1):
            table[m, s] = table[m - 1, s] + (table[m, s - 1] if s > 0 else 0)  # the last pit holds 0, or one more
    return table


def layout(pits: int, max_seeds: int) -> tuple[np.ndarray, np.ndarray]:
    """(``table``, ``blocks``) of a database of ``pits`` a side up to ``max_seeds`` seeds in play:
    ``blocks[n, c]`` is the first index of the boards with ``n`` seeds whose mover holds ``c``;
    ``blocks[max_seeds + 1, 0]`` is the number of boards in all."""
    table = composition_table(pits, max_seeds)
    sides = table[pits]
    blocks = np.zeros((max_seeds + 2, max_seeds + 1), dtype=np.int64)
    at = 0
    for n in range(max_seeds + 1):
        for c in range(n + 1):
            blocks[n, c] = at
            at += sides[c] * sides[n - c]
    blocks[max_seeds + 1, 0] = at
    return table, blocks


def layer_sizes(cells: int, max_seeds: int) -> np.ndarray:
    """The number of boards with 0, 1, ..., ``max_seeds`` seeds in ``cells`` pits."""
    return composition_table(cells, max_seeds)[cells].copy()


@kernel(inline="always")
def rank(side, first, pits, seeds, table):
    """The rank of ``side[first:first + pits]`` (``seeds`` in all) among the sides of its count."""
    r = np.int64(0)
    left = seeds
    for i in range(pits - 1):
        x = side[first + i]
        if x > 0:
            # sides that agree before pit i and hold fewer seeds in it come first
            r += table[pits - i, left] - table[pits - i, left - x]
            left -= x
    return r


@kernel(inline="always")
def index(board, pits, table, blocks):
    """The database index of ``board``: the mover's ``pits`` pits, then the opponent's."""
    mine = 0
    theirs = 0
    for p in range(pits):
        mine += board[p]
        theirs += board[pits + p]
    return (blocks[mine + theirs, mine] + rank(board, 0, pits, mine, table) * table[pits, theirs]
            + rank(board, pits, pits, theirs, table))


@kernel(inline="always")
def state_index(state, pits, mover, table, blocks):
    """:func:`index` of the board of an engine state (pits, store, pits, store, ...) from ``mover``'s
    side, read in place."""
    first, other = mover * (pits + 1), (1 - mover) * (pits + 1)
    mine = 0
    theirs = 0
    for p in range(pits):
        mine += state[first + p]
        theirs += state[other + p]
    return (blocks[mine + theirs, mine] + rank(state, first, pits, mine, table) * table[pits, theirs]
            + rank(state, other, pits, theirs, table))


@kernel(inline="always")
def unrank(r, side, first, pits, seeds, table):
    """Write the side of rank ``r`` (``seeds`` in all) into ``side[first:first + pits]``."""
    left = seeds
    for i in range(pits - 1):
        x = 0
        # the sides holding x in pit i (the rest in pits - 1 - i pits) take table[pits-1-i, left-x] ranks
        while r >= table[pits - 1 - i, left - x]:
            r -= table[pits - 1 - i, left - x]
            x += 1
        side[first + i] = x
        left -= x
    side[first + pits - 1] = left


@kernel(inline="always")
def next_side(side, first, pits):
    """Step ``side[first:first + pits]`` to the next side of its count; False past the last."""
    t = pits - 1
    while t > 0 and side[first + t] == 0:
        t -= 1
    if t == 0:
        return False
    tail = 0
    for i in range(t, pits):
        tail += side[first + i]
        side[first + i] = 0
    side[first + t - 1] += 1
    side[first + pits - 1] = tail - 1
    return True
