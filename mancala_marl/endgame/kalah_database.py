"""Kalah endgame databases by retrograde analysis, layer by layer.

Seeds in a store never come back into play, and the rest of a game depends on the pits alone
(``Kalah.store_free``). So a database entry is a board of pits seen from the player to move
(their ``P`` pits first, then the opponent's) and its value is the **margin still to come**:
what the mover will add to their store under perfect play from here, minus what the opponent
will add to theirs, sweep included. A position's final margin is its store margin plus that
value; it lies in ``-n..n`` for ``n`` seeds in the pits, so a byte holds it.

Layer ``n`` holds the C(n + 2P - 1, 2P - 1) boards with ``n`` seeds in the pits. A move that
stores a seed or captures leads to a lower layer, built before. A move that does neither moves
seeds along the mover's own side towards their store: the side ``a`` becomes a side ``a'`` that
comes before it in rank order, and the opponent, with their side ``b`` untouched, moves next.
So a layer is walked by the pair of sides, the larger of the two in increasing order and then
the smaller: the child's pair ``{b, a'}`` always comes before the parent's ``{a, b}``, and every
board is settled in one pass from values already there. Such a child keeps both sides' counts, so
the groups of a layer with different counts on the larger side never read one another: they are
settled side by side, one thread each (the kernels release the interpreter lock).

Every move is played by the rules kernel itself (:func:`mancala_marl.games.kalah.apply_move`),
capture rule and end rule included, so the database follows the rules as the environments do.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from .._compile import kernel
from ..games.base import GAME_OVER
from ..games.kalah import apply_move
from .ranking import next_side, state_index, unrank

UNKNOWN = -128  # no value of a layer of at most 127 seeds
CHUNK = 1 << 21  # boards settled between two updates of the progress bar
DEFAULT_POSITIONS = 1 << 25  # the perfect policy's default database: 16 seeds on 6 pits, 32 MiB


@kernel(inline="always")
def load_state(state, board, pits):
    """A state with ``board`` (the mover's pits, then the opponent's) and empty stores, player_0 to move."""
    for p in range(pits):
        state[p] = board[p]
        state[pits + 1 + p] = board[pits + p]
    state[pits] = 0
    state[2 * pits + 1] = 0
    state[2 * pits + 2] = 0


@kernel(inline="always")
def canonical(state, pits, mover, out):
    """The pits of ``state`` from ``mover``'s side: theirs first, then the opponent's."""
    first, other = mover * (pits + 1), (1 - mover) * (pits + 1)
    for p in range(pits):
        out[p] = state[first + p]
        out[pits + p] = state[other + p]


@kernel
def settle(board, seeds, pits, spec, values, table, blocks, state):
    """The margin to come for the mover of ``board`` (``seeds`` in play), from its children's values."""
    cells = 2 * pits
    best = -seeds  # no move at all: the mover's pits are empty, the rest is swept to the opponent
    first = True
    for pit in range(pits):
        if board[pit] == 0:
            continue
        load_state(state, board, pits)
        apply_move(state, pit, spec)
        v = state[pits] - state[cells + 1]
        mover = state[cells + 2]
        if mover != GAME_OVER:
            known = values[state_index(state, pits, mover, table, blocks)]
            if known == UNKNOWN:
                raise RuntimeError("endgame database: a child was not settled before its parent")
            v += known if mover == 0 else -known
        if first or v > best:
            best = v
            first = False
    return best


@kernel
def build_block(seeds, larger, start, stop, pits, spec, values, table, blocks):
    """Settle the boards of layer ``seeds`` whose larger side holds ``larger`` seeds and has a rank in
    ``start..stop-1``, in both orientations. The layers below, the blocks of fewer ``larger``
    seeds and the ranks before ``start`` must be settled. Returns the number of boards settled."""
    smaller = seeds - larger
    cells = 2 * pits
    board = np.zeros(cells, dtype=np.int32)  # the larger side to move
    flipped = np.zeros(cells, dtype=np.int32)  # the smaller side to move
    state = np.zeros(cells + 3, dtype=np.int32)
    large_sides, small_sides = table[pits, larger], table[pits, smaller]
    settled = 0
    unrank(start, board, 0, pits, larger, table)
    for r_large in range(start, stop):
        if r_large > start:
            next_side(board, 0, pits)
        unrank(0, board, pits, pits, smaller, table)
        last = r_large if smaller == larger else small_sides - 1
        for r_small in range(last + 1):
            if r_small > 0:
                next_side(board, pits, pits)
            values[blocks[seeds, larger] + r_large * small_sides + r_small] = settle(
                board, seeds, pits, spec, values, table, blocks, state)
            settled += 1
            if smaller != larger or r_small != r_large:
                for p in range(pits):
                    flipped[p] = board[pits + p]
                    flipped[pits + p] = board[p]
                values[blocks[seeds, smaller] + r_small * large_sides + r_large] = settle(
                    flipped, seeds, pits, spec, values, table, blocks, state)
                settled += 1
    return settled


def build_all(game, max_seeds: int, table, blocks, advance, workers: int | None = None) -> np.ndarray:
    """Layers 0..``max_seeds``, each in blocks of a few million boards between two ``advance`` calls;
    a layer's groups (by the larger side's count) on ``workers`` threads (default: every core)."""
    values = np.full(int(blocks[-1, 0]), UNKNOWN, dtype=np.int8)
    sides = table[game.pits]
    lock = threading.Lock()

    def settle_group(seeds: int, larger: int) -> None:
        step = max(1, CHUNK // int(sides[seeds - larger]))
        for first in range(0, int(sides[larger]), step):
            last = min(first + step, int(sides[larger]))
            done = build_block(seeds, larger, first, last, game.pits, game.spec, values, table, blocks)
            with lock:
                advance(done)

    with ThreadPoolExecutor(max_workers=workers or os.cpu_count() or 1) as pool:
        for seeds in range(max_seeds + 1):
            groups = sorted(range((seeds + 1) // 2, seeds + 1),
                            key=lambda larger: -int(sides[larger]) * int(sides[seeds - larger]))
            for done in [pool.submit(settle_group, seeds, larger) for larger in groups]:
                done.result()  # the whole layer before the next, which reads it
    return values
