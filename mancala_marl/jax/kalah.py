"""Kalah's rules in JAX (mancala_marl.games.kalah has the rules in words): sowing in closed form."""

from __future__ import annotations

import jax.numpy as jnp

from .rules import Rules, at, end_move, nonempty_pits, side_sums, sow


def make_rules(game) -> Rules:
    pits, cells, to = game.pits, game.board_size, game.to_move_index
    empty_capture = game.params["empty_capture"]
    end_when_mover_empty = game.params["end_rule"] == "mover"

    def apply(flat, pit):
        mover = flat[to]
        own_store = mover * (pits + 1) + pits
        pos = mover * (pits + 1) + pit
        cell = jnp.arange(flat.shape[0])
        flat, last = sow(jnp.where(cell == pos, 0, flat), pos, at(flat, pos), (1 - mover) * (pits + 1) + pits, cells)

        opposite = 2 * pits - last
        taken = at(flat, opposite)
        capture = ((mover * (pits + 1) <= last) & (last < own_store) & (at(flat, last) == 1)
                   & ((taken > 0) | empty_capture))
        flat = jnp.where(capture & ((cell == last) | (cell == opposite)), 0, flat)
        flat = flat + jnp.where(capture & (cell == own_store), taken + 1, 0)

        next_player = jnp.where(last == own_store, mover, 1 - mover)
        empty = side_sums(flat, pits) == 0
        over = empty[next_player] if end_when_mover_empty else empty.any()
        return end_move(flat, pits, next_player, over)

    return Rules(apply=apply, legal=lambda flat: nonempty_pits(flat, pits), extra_obs=None)
