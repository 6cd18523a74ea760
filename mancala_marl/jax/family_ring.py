"""The ring of the two-row family's board in JAX: sides, steps along it, rows' seeds (the twins of
:mod:`mancala_marl.games.family_space`'s helpers), shared by :mod:`.family` and
:mod:`.family_children`."""

from __future__ import annotations

import jax.numpy as jnp
from jax import lax

from ..games.base import SPEC_PITS
from ..games.family_space import BOTH_STORES, CLOSED, MARKS, OpponentStore, Spec


def side_of(cell, holes):
    """0 or 1 for a hole, -1 for a store."""
    return jnp.where(cell < holes, 0, jnp.where((cell > holes) & (cell <= 2 * holes), 1, -1))


def _ring_step(cell, cells, backward):
    cell = jnp.where(backward, cell - 1, cell + 1)
    return jnp.where(cell == cells, 0, jnp.where(cell < 0, cells - 1, cell))


def step(cell, holes, backward, own_store):
    """The cell after ``cell`` along the ring (before it, ``backward``), passing over the stores
    but ``own_store`` (-1: none; BOTH_STORES: neither). A store passed over is followed by a hole,
    so two steps do."""
    cells = 2 * holes + 2
    once = _ring_step(cell, cells, backward)
    passable = ((once != holes) & (once != cells - 1)) | (once == own_store) | (own_store == BOTH_STORES)
    return jnp.where(passable, once, _ring_step(once, cells, backward))


def step_in_row(cell, holes, backward, own_store):
    """sow_own_row: the cell after ``cell`` round its own row and that row's store, the store passed
    over but where it is ``own_store`` (numba's family_space.step_in_row)."""
    first = jnp.where(cell <= holes, 0, holes + 1)  # the row's leftmost hole; first + holes is its store

    def advance(cell):
        return first + (cell - first + jnp.where(backward, holes, 1)) % (holes + 1)

    once = advance(cell)
    passable = (once != first + holes) | (once == own_store)
    return jnp.where(passable, once, advance(once))


def ring_step(spec, cell, holes, backward, own_store):
    """The step of the game's ring: round both rows, or round the cell's own row (sow_own_row)."""
    return jnp.where(spec[Spec.SOW_OWN_ROW] != 0, step_in_row(cell, holes, backward, own_store),
                     step(cell, holes, backward, own_store))


def closed_at(flat, spec, cell):
    """Whether ``cell`` is a hole closed for the round (closed_holes)."""
    slot = jnp.clip(2 * spec[SPEC_PITS] + 2 + MARKS + cell, 0, flat.shape[0] - 1)
    return (spec[Spec.CLOSED_HOLES] != 0) & (flat[slot] == CLOSED)


def walk(flat, spec, cell, holes, backward, own_store):
    """``ring_step``, past the holes closed for the round (numba's family_space.walk)."""
    def next_cell(cell):
        return ring_step(spec, cell, holes, backward, own_store)

    return lax.while_loop(lambda cell: closed_at(flat, spec, cell), next_cell, next_cell(cell))


def closed_cells(flat, spec):
    """bool[len(flat)]: the holes closed for the round."""
    return closed_at(flat, spec, jnp.arange(flat.shape[0])) & (jnp.arange(flat.shape[0]) < 2 * spec[SPEC_PITS] + 2)


def sown_store(spec, mover, holes):
    """The store a sowing of ``mover``'s drops seeds in: -1 none, BOTH_STORES both (the
    opponent's store sown), else the mover's own."""
    own = jnp.maximum(mover, 0) * (holes + 1) + holes
    return jnp.where(spec[Spec.SOW_STORE] == 0, -1,
                     jnp.where(spec[Spec.OPPONENT_STORE] != OpponentStore.PASSED, BOTH_STORES, own))


def in_row(flat, holes, player):
    """bool[len(flat)]: the cells of ``player``'s holes."""
    cell = jnp.arange(flat.shape[0])
    first = player * (holes + 1)
    return (cell >= first) & (cell < first + holes)


def row_seeds(flat, holes, player):
    return jnp.where(in_row(flat, holes, player), flat, 0).sum()


def is_hole(flat, holes):
    cell = jnp.arange(flat.shape[0])
    return (cell < 2 * holes + 1) & (cell != holes)


def move_seeds(flat, source, target, when):
    """The seeds of ``source`` into ``target`` where ``when``."""
    seeds = jnp.where(when, flat[source], 0)
    return flat.at[source].add(-seeds).at[target].add(seeds)
