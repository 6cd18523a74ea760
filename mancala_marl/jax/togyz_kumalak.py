"""Togyz Kumalak in JAX: the rules of :mod:`mancala_marl.games.togyz_kumalak` over the same
flat state (holes, kazans, the player to move, player_0's then player_1's tuzduk).

Sowing is closed-form on the ring of the 2*holes holes (kazans are not on it): a move of n balls
drops one on each of n consecutive ring positions from ``start`` (the hole itself when n > 1, as
its first ball goes back in; the next hole for a single ball), so a position gets n // ring, plus
one if it lies less than n % ring after ``start``. What would fall into a tuzduk goes to its
owner's kazan instead; a tuzduk is made after the sowing, so no ball of the same move meets it.
"""

from __future__ import annotations

import jax.numpy as jnp

from mancala_marl.jax.rules import Rules

NO_TUZDUK = -1


def make_rules(game) -> Rules:
    """The apply/legal/extra_obs functions of ``game`` (a numba TogyzKumalak), one state at a time."""
    holes = game.pits
    ring_size = 2 * holes
    to_move = game.board_size  # the flat state's TO_MOVE index; the two tuzduks follow it
    stop_at_majority = bool(game.params["stop_at_majority"])
    majority = holes * game.seeds + 1  # more than half of all the balls
    ring = jnp.arange(ring_size, dtype=jnp.int32)
    cell = ring + (ring >= holes)  # board index of each ring position
    side, number = ring // holes, ring % holes
    hole_numbers = jnp.arange(holes, dtype=jnp.int32)

    def apply(flat, hole):
        mover = flat[to_move]
        tuzduk = flat[to_move + 1:to_move + 3]  # tuzduk[p] is player p's, on player 1-p's side
        board = flat[cell]
        origin = mover * holes + hole
        balls = jnp.sum(jnp.where(ring == origin, board, 0))
        board = jnp.where(ring == origin, 0, board)

        start = origin + (balls == 1)
        within = (ring - start) % ring_size < balls % ring_size
        drops = balls // ring_size + within.astype(jnp.int32)
        on_tuzduk = tuzduk[1 - side] == number  # the tuzduk on a side is the other player's
        board = board + jnp.where(on_tuzduk, 0, drops)
        to_kazan = jnp.where(on_tuzduk, drops, 0)
        kazan = flat[jnp.array([holes, 2 * holes + 1])] + jnp.stack(
            [jnp.sum(jnp.where(side == 1, to_kazan, 0)), jnp.sum(jnp.where(side == 0, to_kazan, 0))])

        last = (start + balls - 1) % ring_size
        last_side, last_number = last // holes, last % holes
        count = jnp.sum(jnp.where(ring == last, board, 0))
        mine, theirs = tuzduk[mover], tuzduk[1 - mover]
        reached = (last_side != mover) & (mine != last_number)  # an opponent's hole, not our tuzduk
        even = count % 2 == 0
        new_tuzduk = (reached & ~even & (count == 3) & (mine == NO_TUZDUK) & (last_number != holes - 1)
                      & (theirs != last_number))
        take = (reached & even) | new_tuzduk
        board = jnp.where(take & (ring == last), 0, board)
        kazan = kazan.at[mover].add(jnp.where(take, count, 0))
        tuzduk = tuzduk.at[mover].set(jnp.where(new_tuzduk, last_number, mine))

        next_player = 1 - mover
        over = ~jnp.any((side == next_player) & (board > 0))
        if stop_at_majority:
            over = over | jnp.any(kazan >= majority)
        # the end: every ball left goes to the kazan of its side
        kazan = kazan + jnp.where(over, jnp.stack([jnp.sum(jnp.where(side == s, board, 0)) for s in (0, 1)]), 0)
        board = jnp.where(over, 0, board)
        return jnp.concatenate([board[:holes], kazan[:1], board[holes:], kazan[1:],
                                jnp.where(over, -1, next_player)[None], tuzduk]).astype(flat.dtype)

    def legal(flat):
        mover = flat[to_move]
        first = jnp.maximum(mover, 0) * (holes + 1)
        own = flat[first + hole_numbers]
        return (own > 0) & (mover >= 0)

    def extra_obs(flat, player):
        """Per ``player``'s hole "the opponent's tuzduk is here", then per opponent's hole "my
        tuzduk is here" (the numba ``tuzduk_flags``)."""
        theirs, mine = flat[to_move + 2 - player], flat[to_move + 1 + player]
        return jnp.concatenate([hole_numbers == theirs, hole_numbers == mine]).astype(jnp.float32)

    return Rules(apply=apply, legal=legal, extra_obs=extra_obs)
