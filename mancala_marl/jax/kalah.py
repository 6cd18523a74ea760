"""Kalah's rules in JAX (mancala_marl.games.kalah has the rules in words): sowing in closed form."""

from __future__ import annotations

import jax.numpy as jnp

from .rules import Rules, end_move, nonempty_pits, side_sums, sow


def make_rules(game) -> Rules:
    pits, cells, to = game.pits, game.board_size, game.to_move_index
    empty_capture = game.params["empty_capture"]
    end_when_mover_empty = game.params["end_rule"] == "mover"

    def apply(flat, pit):
        mover = flat[to]
        own_store = mover * (pits + 1) + pits
        pos = mover * (pits + 1) + pit
        seeds = flat[pos]
        flat, last = sow(flat.at[pos].set(0), pos, seeds, (1 - mover) * (pits + 1) + pits, cells)

        opposite = jnp.clip(2 * pits - last, 0, cells - 1)  # clipped: last may be a store
        capture = ((mover * (pits + 1) <= last) & (last < own_store) & (flat[last] == 1)
                   & ((flat[opposite] > 0) | empty_capture))
        flat = flat.at[own_store].add(jnp.where(capture, flat[opposite] + 1, 0))
        flat = flat.at[opposite].multiply(~capture).at[last].multiply(~capture)

        next_player = jnp.where(last == own_store, mover, 1 - mover)
        empty = side_sums(flat, pits) == 0
        over = empty[next_player] if end_when_mover_empty else empty.any()
        return end_move(flat, pits, next_player, over)

    return Rules(apply=apply, legal=lambda flat: nonempty_pits(flat, pits), extra_obs=None)
