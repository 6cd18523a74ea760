"""Sungka's rules in JAX (mancala_marl.games.sungka has the rules in words): relay sowing as a
bounded loop of closed-form laps (``rules.while_loop``, which under vmap runs the few long relays
of a batch on a small batch)."""

from __future__ import annotations

import jax.numpy as jnp

from .rules import Rules, at, nonempty_pits, side_sums, sown, while_loop


def make_rules(game) -> Rules:
    houses, cells, to = game.pits, game.board_size, game.to_move_index
    sunog_needs_opposite = game.params["sunog_needs_opposite"]
    # The numba kernel's bound: each lap drops a stone in the mover's head, so a move makes fewer
    # than (stones + 1) laps.
    max_drops = (2 * houses * game.seeds + 1) * cells

    def apply(flat, house):
        mover = flat[to]
        own_head = mover * (houses + 1) + houses
        pos = mover * (houses + 1) + house
        cell = jnp.arange(flat.shape[0])

        def relays(carry):
            flat, last, stones, drops = carry
            return (stones > 0) & (drops <= max_drops)

        def sow_on(carry):
            flat, pos, stones, drops = carry
            # everything from the state in the carry, nothing traced closed over (rules.while_loop)
            mover = flat[to]
            added, last = sown(pos, stones, (1 - mover) * (houses + 1) + houses, cells)
            # the last stone in a house that held stones: pick them all up and sow on. Its count
            # is read before the drops are added (the last cell gets a stone on every lap that
            # reaches it), so that the round is one pass over the board
            count = at(flat, last) + (stones + cells - 2) // (cells - 1)
            relay = (last != mover * (houses + 1) + houses) & (count > 1)
            flat = jnp.where(relay & (jnp.arange(flat.shape[0]) == last), 0,
                             flat + jnp.pad(added, (0, flat.shape[0] - cells)))
            return flat, last, jnp.where(relay, count, 0), drops + stones

        flat, last, _, _ = while_loop(relays, sow_on, (jnp.where(cell == pos, 0, flat), pos, at(flat, pos), 0))

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
