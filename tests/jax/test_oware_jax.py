"""Oware's JAX rules (mancala_marl/jax/oware.py) against the numba rules where random games
seldom go: the 64-bit position hash computed in 32-bit halves (mancala_marl/jax/history.py), on
counts up to 2**31 and on boards whose size is data, and the repetition history's slots, its
stale ones and its bound. The hand-worked boards of
tests/test_oware.py (grand slam both ways, must feed, repetition, the 256-position bound) replay
on the JAX rules in test_rule_examples.py, and random games are compared move by move in
test_crosscheck.py."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from mancala_marl.games import GAME_OVER, Oware
from mancala_marl.games.history import HISTORY
from mancala_marl.games.history import position_hash as numba_position_hash
from mancala_marl.jax.history import position_hash, prefix_hash
from mancala_marl.jax.oware import make_rules


def test_position_hash_has_the_numba_bits():
    # Counts up to 2**31 - 2 carry through every 16-bit limb of the 64-bit products.
    rng = np.random.default_rng(3)
    cells = 2 * 6 + 2
    states = [rng.integers(0, high, size=cells + 1, dtype=np.int32) for high in (5, 49, 2**16, 2**31 - 1)
              for _ in range(50)]
    hashes = np.asarray(jax.jit(jax.vmap(position_hash))(jnp.asarray(np.stack(states))))
    for state, (lo, hi) in zip(states, hashes.view(np.uint32).astype(np.uint64)):
        assert (hi << np.uint64(32)) | lo == numba_position_hash(state, cells)


def test_the_hash_of_a_board_whose_size_is_data_has_the_numba_bits():
    # the family's boards of 2 to 12 holes a row, one batch padded to the largest: each row's
    # hash covers its own board and player to move alone
    rng = np.random.default_rng(4)
    holes = rng.integers(2, 13, size=60)
    states = rng.integers(0, 2**31 - 1, size=(60, 2 * 12 + 3), dtype=np.int32)
    hashes = jax.jit(jax.vmap(prefix_hash))(jnp.asarray(states), jnp.asarray(2 * holes + 3))
    for state, h, (lo, hi) in zip(states, holes, np.asarray(hashes).view(np.uint32).astype(np.uint64)):
        assert (hi << np.uint64(32)) | lo == numba_position_hash(state, 2 * h + 2)


def _start():
    """Two lone seeds that chase each other (tests/test_oware.py's repetition example)."""
    return Oware().from_board(np.array([0, 0, 0, 0, 1, 0, 23, 0, 0, 0, 0, 0, 1, 23]))


@pytest.mark.parametrize("slot, count", [(1, 1), (1, 2), (200, 200), (200, 201), (254, 255), (0, HISTORY)])
def test_only_the_counted_slots_can_repeat(slot, count):
    # The position after house 4's move is put in history slot `slot`, the other `count` slots
    # hold other hashes: the move repeats a position only if the slot is one of the first
    # `count` (the rest are stale), and a full history ends the game in any case.
    game = Oware()
    after = game.apply(_start(), 4)
    base = game.board_size + 1
    state = _start()
    state[base] = count
    state[base + 3:] = np.arange(3, 3 + 2 * HISTORY)  # distinct hashes, none the position's
    state[base + 3 + 2 * slot:base + 5 + 2 * slot] = after[base + 3 + 2:base + 5 + 2]  # its hash, slot 1 of `after`
    jax_state = np.asarray(jax.jit(make_rules(game).apply)(jnp.asarray(state), jnp.int32(4)))
    game.apply(state, 4)
    assert jax_state.tolist() == state.tolist()
    assert (state[game.board_size] == GAME_OVER) == (slot < count or count == HISTORY)


@pytest.mark.parametrize("grand_slam", ["no_capture", "illegal"])
def test_no_legal_move_once_the_game_is_over(grand_slam):
    game = Oware(grand_slam=grand_slam)
    state = game.init()
    state[game.board_size] = GAME_OVER
    assert not np.asarray(make_rules(game).legal(jnp.asarray(state))).any()

