"""The record each JAX rules file fills in: pure functions over one unbatched flat state.

The flat state is the numba engine's own int32 array (mancala_marl/games/base.py): pits, stores,
TO_MOVE at index 2P+2 (-1 once the game is over), then the game's own slots. The environment
vmaps these functions; none may branch in Python on a traced value.
"""
from __future__ import annotations

from typing import Callable, NamedTuple, Optional

import jax.numpy as jnp


class Rules(NamedTuple):
    apply: Callable
    """(flat int32[state_size], pit int32[]) -> flat: the move, assumed legal. Sets TO_MOVE to the
    next player (the same one on an extra turn or a pass) or -1 at the end, with the board swept
    exactly as the numba kernel does."""
    legal: Callable
    """flat -> bool[pits]; all False once the game is over (the same as legal_kernel)."""
    extra_obs: Optional[Callable]
    """(flat, player int32[]) -> float32[pits * game.extra_features]: what the numba
    extra_obs_kernel writes (Togyz Kumalak's tuzduk flags), or None for games without extras."""


# -- helpers the rules files share (the JAX twins of mancala_marl.games.base's kernels) -----------
def sow(flat, pos, seeds, skip, cells: int):
    """Drop ``seeds`` one per cell after ``pos`` by increasing index, wrapping round at ``cells``
    and passing over cell ``skip``; returns (flat, the cell of the last drop). Closed form, no
    loop: the cell ``k`` steps along the ring of ``cells - 1`` gets ``seeds // ring`` plus one if
    ``k <= seeds % ring``. Elementwise (no gather or scatter at a traced index), which XLA
    vectorizes on a CPU."""
    ring = cells - 1
    cell = jnp.arange(cells)
    to_skip = (skip - pos) % cells
    step = (cell - pos - 1) % cells + 1  # 1 for the cell after pos, ..., cells for pos itself
    step = step - (step > to_skip)  # cells past the skipped one come a step sooner
    drops = jnp.where(cell == skip, 0, seeds // ring + (step <= seeds % ring))
    steps = (seeds - 1) % ring + 1  # of the last drop
    return flat.at[:cells].add(drops.astype(flat.dtype)), (pos + steps + (steps >= to_skip)) % cells


def at(flat, index):
    """``flat[index]`` for a traced ``index`` as a masked sum: XLA's CPU gathers under vmap cost
    more than the elementwise pass over a short board."""
    return jnp.where(jnp.arange(flat.shape[0]) == index, flat, 0).sum()


def side_sums(flat, pits: int):
    """The seeds on each side's pits (stores left out): int32[2]."""
    return flat[: 2 * (pits + 1)].reshape(2, pits + 1)[:, :pits].sum(1)


def nonempty_pits(flat, pits: int):
    """Legality in Kalah, Sungka and Togyz Kumalak: every non-empty pit of the mover; none once
    the game is over (base.nonempty_pits)."""
    mover = flat[2 * pits + 2]
    first = jnp.maximum(mover, 0) * (pits + 1)
    return (mover >= 0) & (flat[first + jnp.arange(pits)] > 0)


def end_move(flat, pits: int, next_player, over):
    """Hand the turn to ``next_player``, or end the game with every seed still in a pit swept to
    its side's store and TO_MOVE = -1 (base.end_move)."""
    swept = flat.at[jnp.array([pits, 2 * pits + 1])].add(side_sums(flat, pits))
    swept = swept.at[: 2 * pits + 2].set(jnp.where(jnp.arange(2 * pits + 2) % (pits + 1) == pits,
                                                   swept[: 2 * pits + 2], 0))
    return jnp.where(over, swept.at[2 * pits + 2].set(-1), flat.at[2 * pits + 2].set(next_player))
