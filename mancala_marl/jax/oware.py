"""Oware in JAX: the rules of :mod:`mancala_marl.games.oware` over the same flat state (houses,
stores, the player to move, then the repetition history: count, digest, 256 hashes).

Sowing is closed-form on the ring of the 2*houses houses with the house sown from left out: the
other ring - 1 houses get n // (ring - 1) seeds each, plus one for the first n % (ring - 1) after
the origin. The capture, the grand slam and the must-feed rule are masks over the ring.

The history holds the numba engine's 64-bit position hashes (FNV-1a style over the board, the
stores and the player to move, then splitmix64's finalizer) as int32 halves, computed by
:mod:`.history`.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
from jax import lax

from mancala_marl.games.history import COUNT, DIGEST, HASHES, HISTORY
from mancala_marl.jax.history import CHUNK, position_hash
from mancala_marl.jax.rules import Rules, batch_max

assert (COUNT, DIGEST, HASHES) == (0, 1, 3), "apply writes count, digest and hashes in this order"


def make_rules(game) -> Rules:
    """The apply/legal functions of ``game`` (a numba Oware), one state at a time."""
    houses = game.pits
    ring_size = 2 * houses
    to_move = game.board_size  # the flat state's TO_MOVE index; the history follows it
    count_at = to_move + 1 + COUNT
    digest_at = to_move + 1 + DIGEST
    hashes_at = to_move + 1 + HASHES
    half = houses * game.seeds  # half of all the seeds
    grand_slam_illegal = game.params["grand_slam"] == "illegal"
    ring = jnp.arange(ring_size, dtype=jnp.int32)
    side = ring // houses
    house_numbers = jnp.arange(houses, dtype=jnp.int32)
    chunk_slots = jnp.arange(CHUNK, dtype=jnp.int32)
    head_cells = jnp.arange(hashes_at, dtype=jnp.int32)

    def ring_of(flat):
        """The houses in ring order (the stores are not on the ring)."""
        return jnp.concatenate([flat[:houses], flat[houses + 1:2 * houses + 1]])

    def sow(board, mover, house):
        """The ring ``board`` after sowing; the ring position of the last seed."""
        origin = mover * houses + house
        seeds = jnp.sum(jnp.where(ring == origin, board, 0))
        after = (ring - origin) % ring_size  # 0 at the origin, which gets nothing
        laps, rest = seeds // (ring_size - 1), seeds % (ring_size - 1)
        drops = laps + (after - 1 < rest).astype(jnp.int32)
        board = jnp.where(after == 0, 0, board + drops)
        return board, (origin + (seeds - 1) % (ring_size - 1) + 1) % ring_size

    def capture(board, mover, last):
        """The seeds a capture ending at ``last`` takes (a ring mask; none outside the opponent's
        row), and whether taking them would be a grand slam."""
        row = last // houses
        in_row = side == row
        upto = in_row & (ring <= last)
        two_or_three = (board == 2) | (board == 3)
        grand_slam = jnp.all(jnp.where(upto, two_or_three, True)) & jnp.all(
            jnp.where(in_row & (ring > last), board == 0, True))
        stop = jnp.max(jnp.where(upto & ~two_or_three, ring, -1))  # where the backward chain ends
        return upto & (ring > stop) & (row != mover), grand_slam & (row != mover)

    def feeding(board, mover):
        """Non-empty own houses, only those that reach the opponent's row when it is empty."""
        own = jnp.where(side == mover, board, 0)
        own = own[:houses] + own[houses:]  # by house number
        opponent_empty = ~jnp.any((side != mover) & (board > 0))
        return (own > 0) & (~opponent_empty | (own > houses - 1 - house_numbers))

    def apply_if(flat, house, moves):
        mover = flat[to_move]
        board, last = sow(ring_of(flat), mover, house)
        taken, grand_slam = capture(board, mover, last)
        taken = jnp.where(taken & ~grand_slam, board, 0)
        captured = jnp.sum(taken)
        board = board - taken
        store = jnp.stack([flat[houses], flat[2 * houses + 1]]) + jnp.where(jnp.arange(2) == mover, captured, 0)
        next_player = 1 - mover
        position = jnp.concatenate([board[:houses], store[:1], board[houses:], store[1:], next_player[None]])

        # the repetition rule (numba's record_position); a capture forgets the positions before it
        fresh = captured > 0
        n = jnp.where(fresh, 0, flat[count_at])
        digest = jnp.where(fresh, 0, flat[digest_at:digest_at + 2])
        h = position_hash(position)

        def look(k, seen):
            # CHUNK slots a step, only as far as the longest history of the batch reaches
            # (rules.batch_max): a history is full only after 256 moves without a capture
            chunk = lax.dynamic_slice(flat, (hashes_at + 2 * CHUNK * k,), (2 * CHUNK,))
            return seen | jnp.any((chunk[::2] == h[0]) & (chunk[1::2] == h[1]) & (CHUNK * k + chunk_slots < n))

        seen = lax.fori_loop(0, (batch_max(n) + CHUNK - 1) // CHUNK, look, False)
        repeated = seen | (n >= HISTORY)  # a full history ends the game as a repetition would
        slot = hashes_at + 2 * jnp.minimum(n, HISTORY - 1)
        pair = jnp.where(repeated, lax.dynamic_slice(flat, (slot,), (2,)), h)  # slot n takes the hash

        over = (repeated | jnp.any(store > half) | jnp.all(store == half)
                | ~jnp.any(feeding(board, next_player)))
        # the end: the seeds left go to the store of their side
        store = store + jnp.where(over, jnp.stack([jnp.sum(jnp.where(side == s, board, 0)) for s in (0, 1)]), 0)
        board = jnp.where(over, 0, board)
        # the cells before the hashes (board, player to move, count, digest) and the hash slot, in
        # one scatter: XLA writes it in place, where two updates or a rewrite of the whole 2 KB
        # state copy it first
        head = jnp.concatenate(
            [board[:houses], store[:1], board[houses:], store[1:], jnp.where(over, -1, next_player)[None],
             jnp.where(repeated, n, n + 1)[None], jnp.where(repeated, digest, digest ^ h)])
        cells = jnp.concatenate([head_cells, jnp.stack([slot, slot + 1])])
        # the cells written, not the whole state, are kept as they were where no move is made
        written = jnp.where(moves, jnp.concatenate([head, pair]), flat[cells])
        return flat.at[cells].set(written, indices_are_sorted=True, unique_indices=True)

    def apply(flat, house):
        return apply_if(flat, house, True)

    def legal(flat):
        mover = flat[to_move]
        board = ring_of(flat)
        mask = feeding(board, mover) & (mover >= 0)
        if grand_slam_illegal:  # legal unless a grand slam, or unless every legal move is one
            def slams(house):
                sown, last = sow(board, mover, house)
                return capture(sown, mover, last)[1]
            slam = mask & jax.vmap(slams)(house_numbers)
            mask = jnp.where(jnp.all(slam == mask), mask, mask & ~slam)
        return mask

    return Rules(apply=apply, legal=legal, extra_obs=None, apply_if=apply_if)
