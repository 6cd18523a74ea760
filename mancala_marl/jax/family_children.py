"""Children in JAX: holes a player comes to own (:mod:`mancala_marl.games.family_children` says
the rules in words, and is the numba kernels these functions are held to).

A row's marks are the state's MARKS slots, present only in a game of children: every function
here reads them only where ``spec[CHILDREN_]`` says there are any (elsewhere the slots may be past
the end of the flat state, or another game's), so that one compiled step serves every rule set.
"""

from __future__ import annotations

import jax.numpy as jnp

from ..games.family_children import HOLE_PATTERNS
from ..games.family_space import ChildHoles, ChildSide, ChildSowing, Children, MARKS, OUT_OF_PLAY, Spec
from ..games.base import SPEC_PITS
from .family_ring import is_hole, side_of, step

PATTERNS = jnp.asarray(HOLE_PATTERNS, jnp.int32)


def marks(flat, spec):
    """int32[len(flat)]: 0 for a hole of nobody's (a store, a slot, any cell of a game without
    children), 1 + p for player p's child."""
    holes = spec[SPEC_PITS]
    cell = jnp.arange(flat.shape[0])
    slot = jnp.clip(2 * holes + 2 + MARKS + cell, 0, flat.shape[0] - 1)
    return jnp.where((spec[Spec.CHILDREN] != Children.NONE) & is_hole(flat, holes), flat[slot], 0)


def mark_of(flat, spec, cell):
    return marks(flat, spec)[jnp.clip(cell, 0, flat.shape[0] - 1)]


def set_mark(flat, spec, cell, mark, when):
    """``cell``'s mark set to ``mark`` where ``when`` (an addition of the change: see family.py)."""
    slot = jnp.clip(2 * spec[SPEC_PITS] + 2 + MARKS + cell, 0, flat.shape[0] - 1)
    return flat.at[slot].add(jnp.where(when, mark - flat[slot], 0))


def child_seeds(flat, spec, player):
    return jnp.where(marks(flat, spec) == 1 + player, flat, 0).sum()


def has_child(flat, spec, player):
    return (marks(flat, spec) == 1 + player).any()


def first_child(flat, spec, player):
    """``player``'s first child in the order of the cells, or -1."""
    mine = marks(flat, spec) == 1 + player
    return jnp.where(mine.any(), jnp.argmax(mine), -1)


def free_row_seeds(flat, spec, player):
    """The seeds in ``player``'s row outside children."""
    holes = spec[SPEC_PITS]
    cell = jnp.arange(flat.shape[0])
    first = player * (holes + 1)
    return jnp.where((cell >= first) & (cell < first + holes) & (marks(flat, spec) == 0), flat, 0).sum()


def skips_child(flat, spec, cell, mover, last_seed):
    """child_sowing: whether a sowing of ``mover``'s passes over ``cell``, an opponent's child
    (but for the ``last_seed``, with "skip_opponent_but_last")."""
    skip = spec[Spec.CHILD_SOWING]
    skipping = (skip == ChildSowing.SKIP_OPPONENT) | (
        (skip == ChildSowing.SKIP_OPPONENT_BUT_LAST) & ~jnp.asarray(last_seed, jnp.bool_)
    )
    return skipping & (mark_of(flat, spec, cell) == 2 - mover)


def hole_place(hole, holes):
    """The place (0..4, HOLE_PATTERNS' columns) of hole ``hole`` of a row of ``holes``."""
    inner = jnp.where(hole == 1, 1, jnp.where(hole == holes - 2, 3, 2))
    return jnp.where(holes == 3, 2 * hole, jnp.where(hole == 0, 0, jnp.where(hole == holes - 1, 4, inner)))


def place_allowed(flat, spec, cell, mover):
    """Whether ``mover`` may make a child in the hole ``cell`` (child_side, child_holes)."""
    holes = spec[SPEC_PITS]
    side = side_of(cell, holes)
    rule = spec[Spec.CHILD_SIDE]
    sided = ~((rule == ChildSide.OPPONENT) & (side != 1 - mover)) & ~((rule == ChildSide.OWN) & (side != mover))
    pattern = spec[Spec.CHILD_HOLES]
    hole = cell - jnp.maximum(side, 0) * (holes + 1)
    allowed = (PATTERNS[pattern, hole_place(hole, holes)] & jnp.where(side == mover, 1, 2)) != 0
    other_row = jnp.where(side == 0, cell + holes + 1, cell - holes - 1)
    symmetric_free = mark_of(flat, spec, other_row) == 0
    facing_free = mark_of(flat, spec, 2 * holes - cell) == 0
    by_pattern = jnp.where(pattern == ChildHoles.NOT_SYMMETRIC, symmetric_free,
                           jnp.where(pattern == ChildHoles.NOT_FACING, facing_free, True))
    return sided & ((pattern == ChildHoles.ANYWHERE) | (allowed & by_pattern))


def bull_pair(a, b, count):
    return ((a == count - 1) & (b == count)) | ((a == count) & (b == count - 1))


def bull_partner(flat, spec, cell, backward, own_store):
    """A bull's second hole: the one sown just before ``cell``, where it makes the pair."""
    holes = spec[SPEC_PITS]
    before = step(cell, holes, ~backward, own_store)
    pairs = (side_of(before, holes) >= 0) & (mark_of(flat, spec, before) == 0) & \
        bull_pair(flat[before], flat[cell], spec[Spec.CHILD_COUNT])
    return before, pairs


def child_due(flat, spec, cell, mover, backward, own_store):
    """Whether the last seed of ``mover``'s move, in ``cell``, makes a child there."""
    holes = spec[SPEC_PITS]
    kind, count = spec[Spec.CHILDREN], spec[Spec.CHILD_COUNT]
    seeds = flat[jnp.clip(cell, 0, flat.shape[0] - 1)]
    free = (kind != 0) & (side_of(cell, holes) >= 0) & (mark_of(flat, spec, cell) == 0) & \
        place_allowed(flat, spec, cell, mover)
    qur = (seeds == 1) & (flat[jnp.clip(2 * holes - cell, 0, flat.shape[0] - 1)] == count)
    _, pairs = bull_partner(flat, spec, cell, backward, own_store)
    counted = (seeds == count) & ~((kind == Children.ONE) & has_child(flat, spec, mover))
    return free & jnp.where(kind == Children.QUR, qur, counted | ((kind == Children.BULL) & pairs))


def make_child(flat, spec, cell, mover, backward, own_store, when):
    """Mark ``cell`` (and a bull's or a qur's second hole) as ``mover``'s child, where ``when``."""
    holes = spec[SPEC_PITS]
    kind = spec[Spec.CHILDREN]
    before, pairs = bull_partner(flat, spec, cell, backward, own_store)
    flat = set_mark(flat, spec, cell, 1 + mover, when)
    flat = set_mark(flat, spec, before, 1 + mover, when & (kind == Children.BULL) & pairs)
    return set_mark(flat, spec, 2 * holes - cell, 1 + mover, when & (kind == Children.QUR))


def bank_children(flat, spec):
    """children_bank: every child's seeds into its owner's store."""
    holes = spec[SPEC_PITS]
    mark = marks(flat, spec)
    gains = jnp.stack([jnp.where(mark == 1, flat, 0).sum(), jnp.where(mark == 2, flat, 0).sum()])
    return jnp.where(mark != 0, 0, flat).at[holes].add(gains[0]).at[2 * holes + 1].add(gains[1])


def stores_to_children(flat, spec):
    """Without stores: what the stores hold goes into the players' first children (both into the
    only player's first child; into player_0's hole 0 and player_1's last hole where none)."""
    holes = spec[SPEC_PITS]
    firsts = [first_child(flat, spec, 0), first_child(flat, spec, 1)]
    for player, store in enumerate((holes, 2 * holes + 1)):
        home = jnp.where(firsts[player] >= 0, firsts[player], firsts[1 - player])
        home = jnp.where(home >= 0, home, 0 if player == 0 else 2 * holes)
        seeds = flat[store]
        flat = flat.at[store].add(-seeds).at[home].add(seeds)
    return flat


def divide_into_children(flat, spec):
    """An endless sowing without stores: the seeds of the holes of nobody's shared between each
    player's last child, all to the only player with a child, out of play where none has."""
    holes = spec[SPEC_PITS]
    cell = jnp.arange(flat.shape[0])
    mark = marks(flat, spec)
    free = is_hole(flat, holes) & (mark == 0)
    left = jnp.where(free, flat, 0).sum()
    homes = [jnp.where(mark == 1 + p, cell, -1).max() for p in range(2)]
    owned = [jnp.where(mark == 1 + p, flat, 0).sum() for p in range(2)]
    both, either = (homes[0] >= 0) & (homes[1] >= 0), (homes[0] >= 0) | (homes[1] >= 0)
    odd = jnp.where(both & (left % 2 == 1), jnp.where(owned[1] > owned[0], homes[0], homes[1]), -1)
    flat = jnp.where(free, 0, flat)
    flat = flat.at[jnp.maximum(homes[0], 0)].add(jnp.where(both, left // 2, 0))
    flat = flat.at[jnp.maximum(homes[1], 0)].add(jnp.where(both, left // 2, 0))
    flat = flat.at[jnp.maximum(odd, 0)].add(jnp.where(odd >= 0, 1, 0))
    only = jnp.where(homes[0] >= 0, homes[0], homes[1])
    flat = flat.at[jnp.maximum(only, 0)].add(jnp.where(either & ~both, left, 0))
    return flat.at[2 * holes + 2 + OUT_OF_PLAY].add(jnp.where(either, 0, left))


__all__ = ["bank_children", "child_due", "child_seeds", "divide_into_children", "first_child", "free_row_seeds",
           "has_child", "make_child", "mark_of", "marks", "skips_child", "stores_to_children"]
