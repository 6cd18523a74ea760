"""The record each JAX rules file fills in: pure functions over one unbatched flat state.

The flat state is the numba engine's own int32 array (mancala_marl/games/base.py): pits, stores,
TO_MOVE at index 2P+2 (-1 once the game is over), then the game's own slots. The environment
vmaps these functions; none may branch in Python on a traced value.
"""
from __future__ import annotations

from typing import Callable, NamedTuple, Optional

import jax
import jax.numpy as jnp
from jax import lax
from jax.custom_batching import custom_vmap


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
    apply_if: Optional[Callable] = None
    """(flat, pit, moves bool[]) -> flat: ``apply(flat, pit)`` where ``moves``, ``flat`` as it was
    elsewhere, where it may be a finished game or an illegal pit (computed and thrown away, so no
    loop may run long on it). For a state too large to select whole on every step (Oware's 2 KB
    of history), written to touch only the cells a move changes; None lets the environment select
    between ``apply``'s result and ``flat``."""
    returns: Optional[Callable] = None
    """flat -> float32[2]: +1/-1/0 per player once the game is over, zeros before; None: more
    seeds in the store wins (a game whose goal is not the stores' count says its own)."""
    init: Optional[Callable] = None
    """key -> flat: the start, for a game that draws it at random; None: the numba game's init()."""


# -- helpers the rules files share (the JAX twins of mancala_marl.games.base's kernels) -----------
def sow(flat, pos, seeds, skip, cells: int):
    """Drop ``seeds`` one per cell after ``pos`` by increasing index, wrapping round at ``cells``
    and passing over cell ``skip``; returns (flat, the cell of the last drop)."""
    drops, last = sown(pos, seeds, skip, cells)
    return flat.at[:cells].add(drops.astype(flat.dtype)), last


def sown(pos, seeds, skip, cells: int):
    """What :func:`sow` adds to each of the ``cells`` cells (int32[cells]), and the cell of the
    last drop. Closed form, no loop: the cell ``k`` steps along the ring of ``cells - 1`` gets
    ``seeds // ring`` plus one if ``k <= seeds % ring``. Elementwise (no gather or scatter at a
    traced index), which XLA vectorizes on a CPU."""
    ring = cells - 1
    cell = jnp.arange(cells)
    to_skip = (skip - pos) % cells
    step = (cell - pos - 1) % cells + 1  # 1 for the cell after pos, ..., cells for pos itself
    step = step - (step > to_skip)  # cells past the skipped one come a step sooner
    drops = jnp.where(cell == skip, 0, seeds // ring + (step <= seeds % ring))
    steps = (seeds - 1) % ring + 1  # of the last drop
    return drops, (pos + steps + (steps >= to_skip)) % cells


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


def batch_max(x):
    """``x`` for one state; under ``vmap`` the largest ``x`` of the batch, unbatched: a loop bound
    that the whole batch shares, so that the loop runs a plain slice at each step instead of a
    gather at each state's own offset. A bound only: a result must not depend on it."""
    @custom_vmap
    def largest(x):
        return x

    @largest.def_vmap
    def batched(size, in_batched, x):
        return (x.max(0) if in_batched[0] else x), False

    return largest(x)


# Under vmap a lax.while_loop runs every state of the batch until the last one stops, so a loop
# that is short for most states and long for a few (Sungka's relays: two laps on average, forty
# for the longest of 2^14 moves) costs the longest times the batch. while_loop below runs a few
# rounds on the whole batch, then gathers the states still going into a batch SHRINK times
# smaller, and so on: the long tail runs on a few states.
SHRINK = 4
SMALLEST = 64  # a batch this small loops to the end


def while_loop(cond, body, carry, rounds=(2, 3, 4, 4, 4)):
    """``lax.while_loop(cond, body, carry)`` for one state, which under ``vmap`` runs ``rounds[0]``
    rounds on the whole batch, gathers the states still going into a batch SHRINK times smaller
    for ``rounds[1]`` rounds, and so on; the last batch loops to the end. ``cond`` and ``body``
    may close over Python numbers and numpy arrays, not over anything traced (a ``jnp`` array
    made under ``jit`` included): the batched loop is built later, when the caller's trace is
    gone. ``body`` must be safe to run on a carry of zeros (the padding of a gathered batch),
    whose result is thrown away."""
    @custom_vmap
    def loop(carry):
        return lax.while_loop(cond, body, carry)

    @loop.def_vmap
    def batched(size, in_batched, carry):
        carry = jax.tree.map(lambda x, b: x if b else jnp.broadcast_to(x, (size, *jnp.shape(x))),
                             carry, in_batched[0])
        return _shrinking(cond, body, carry, jnp.ones(size, bool), rounds), jax.tree.map(lambda _: True, carry)

    return loop(carry)


def _shrinking(cond, body, carry, live, rounds):
    """The batched loop over ``carry`` (leaves with a leading batch axis), where ``live`` marks
    the real states among the padding."""
    size = live.shape[0]

    def going(carry):
        return live & jax.vmap(cond)(carry)

    def round_(carry):
        on = going(carry)
        return jax.tree.map(lambda new, old: jnp.where(on.reshape(-1, *[1] * (old.ndim - 1)), new, old),
                            jax.vmap(body)(carry), carry)

    if len(rounds) == 1 or size // SHRINK < SMALLEST:
        return lax.while_loop(lambda carry: going(carry).any(), round_, carry)
    # a loop, not unrolled: XLA fuses unrolled rounds into one another and computes each state's
    # scalars again for every cell
    carry = lax.fori_loop(0, rounds[0], lambda _, carry: round_(carry), carry)
    part = size // SHRINK
    # more rounds here while the states going overflow the smaller batch: one gather per level,
    # so that the long tail is looped once
    carry = lax.while_loop(lambda carry: going(carry).sum() > part, round_, carry)
    # the k-th state going, by a search in the running count (cheaper than jnp.nonzero on XLA's
    # CPU); ``size`` once they run out
    index = jnp.searchsorted(jnp.cumsum(going(carry)), jnp.arange(1, part + 1), method="scan")

    def gathered(carry):
        states = jax.tree.map(lambda x: x.at[index].get(mode="fill", fill_value=0), carry)
        states = _shrinking(cond, body, states, index < size, rounds[1:])
        return jax.tree.map(lambda x, y: x.at[index].set(y, mode="drop"), carry, states)

    return lax.cond(index[0] < size, gathered, lambda carry: carry, carry)


def pick_legal(u, mask):
    """The ``floor(u * count)``-th legal action of each row of ``mask`` (bool[n, actions]) for one
    uniform ``u`` in [0, 1) per row: one random number per game and move, no key split per game."""
    mask = mask.astype(jnp.int32)
    count = mask.sum(-1)
    k = jnp.minimum((u * count).astype(jnp.int32), count - 1)
    # the actions before the one whose running count passes k, counted in a loop over the few
    # actions: XLA's CPU cumsum over them costs 0.4 ms a step at 2^14 games, 3 ms with 7 actions
    seen = pick = jnp.zeros_like(count)
    for action in range(mask.shape[-1]):
        seen = seen + mask[..., action]
        pick = pick + (seen <= k)
    return pick
