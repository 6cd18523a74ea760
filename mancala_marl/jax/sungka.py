"""Sungka's rules in JAX (mancala_marl.games.sungka has the rules in words): relay sowing as a
bounded ``lax.while_loop`` of closed-form laps."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from .rules import Rules, at, nonempty_pits, side_sums, sow


def make_rules(game) -> Rules:
    houses, cells, to = game.pits, game.board_size, game.to_move_index
    sunog_needs_opposite = game.params["sunog_needs_opposite"]
    # The numba kernel's bound: each lap drops a stone in the mover's head, so a move makes fewer
    # than (stones + 1) laps.
    max_drops = (2 * houses * game.seeds + 1) * cells

    def apply(flat, house):
        mover = flat[to]
        own_head = mover * (houses + 1) + houses
        opponent_head = (1 - mover) * (houses + 1) + houses
        pos = mover * (houses + 1) + house
        cell = jnp.arange(flat.shape[0])

        def relays(carry):
            flat, pos, stones, drops = carry
            return (stones > 0) & (drops <= max_drops)

        def sow_on(carry):
            flat, pos, stones, drops = carry
            flat, last = sow(flat, pos, stones, opponent_head, cells)
            # the last stone in a house that held stones: pick them all up and sow on
            count = at(flat, last)
            relay = (last != own_head) & (count > 1)
            return jnp.where(relay & (cell == last), 0, flat), last, jnp.where(relay, count, 0), drops + stones

        flat, last, _, _ = jax.lax.while_loop(relays, sow_on, (jnp.where(cell == pos, 0, flat), pos, at(flat, pos), 0))

        extra_turn = last == own_head
        opposite = 2 * houses - last
        taken = at(flat, opposite)
        sunog = ((mover * (houses + 1) <= last) & (last < own_head)
                 & ((taken > 0) | (not sunog_needs_opposite)))
        flat = jnp.where(sunog & ((cell == last) | (cell == opposite)), 0, flat)
        flat = flat + jnp.where(sunog & (cell == own_head), taken + 1, 0)

        # a player with empty houses passes; with both sides empty the game is over
        preferred = jnp.where(extra_turn, mover, 1 - mover)
        empty = side_sums(flat, houses) == 0
        return flat.at[to].set(jnp.where(~empty[preferred], preferred,
                                         jnp.where(~empty[1 - preferred], 1 - preferred, -1)))

    return Rules(apply=apply, legal=lambda flat: nonempty_pits(flat, houses), extra_obs=None)
