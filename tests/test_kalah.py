"""Kalah rules on exact boards: the issue's vectors K1-K5 and hand-worked cases."""

import numpy as np
import pytest

from mancala_marl.games import Kalah

from .helpers import play, split


@pytest.mark.parametrize("moves, board, to_move", [
    ([2], [4, 4, 0, 5, 5, 5, 1, 4, 4, 4, 4, 4, 4, 0], 0),                 # K1: extra turn
    ([2, 5], [4, 4, 0, 5, 5, 0, 2, 5, 5, 5, 5, 4, 4, 0], 1),              # K2
    ([5, 3, 3, 4], [6, 5, 5, 0, 5, 1, 2, 6, 5, 5, 0, 0, 6, 2], 0),        # K3
    ([4, 0, 0], [0, 5, 5, 5, 0, 5, 8, 0, 0, 5, 5, 5, 5, 0], 1),           # K4: capture of 1 + 6
])
def test_issue_vectors(moves, board, to_move):
    game = Kalah()
    state = play(game, moves)
    assert list(game.board(state)) == board
    assert game.to_move(state) == to_move


def test_k5_end_rules():
    position = [0, 0, 0, 0, 0, 2, 23, 0, 0, 0, 0, 0, 2, 21]
    either = Kalah(end_rule="either")
    state = play(either, [5], either.from_board(position))
    assert either.is_terminal(state)
    assert list(either.board(state)) == [0, 0, 0, 0, 0, 0, 24, 0, 0, 0, 0, 0, 0, 24]
    assert list(either.returns(state)) == [0.0, 0.0]

    mover = Kalah(end_rule="mover")
    state = play(mover, [5], mover.from_board(position))
    assert not mover.is_terminal(state)
    assert mover.to_move(state) == 1
    assert list(mover.legal_mask(state).nonzero()[0]) == [0, 5]
    # player_1 empties pit 0 into pit 1; player_0 has nothing left and is to move: the end.
    state = play(mover, [0], state)
    assert mover.is_terminal(state)
    assert mover.scores(state) == (24, 24)


def test_lap_ends_in_emptied_origin_and_captures():
    # player_0 sows 13 seeds from pit 0: pits 1-5, store, player_1's six pits, skips player_1's
    # store and drops the 13th seed in pit 0 itself, which was emptied: capture with pit 12.
    game = Kalah()
    state = game.from_board([13, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 3, 0])
    play(game, [0], state)
    assert split(game, state) == ([0, 1, 1, 1, 1, 1], 1 + 1 + 4, [2, 2, 2, 2, 2, 0], 0, 1)


def test_empty_capture_option():
    # Last seed in the empty own pit 3 whose opposite pit (player_1's 2) is empty.
    position = [0, 0, 1, 0, 1, 0, 10, 1, 1, 0, 1, 1, 1, 30]
    plain = Kalah()
    state = play(plain, [2], plain.from_board(position))
    assert split(plain, state) == ([0, 0, 0, 1, 1, 0], 10, [1, 1, 0, 1, 1, 1], 30, 1)
    stored = Kalah(empty_capture=True)
    state = play(stored, [2], stored.from_board(position))
    assert split(stored, state) == ([0, 0, 0, 0, 1, 0], 11, [1, 1, 0, 1, 1, 1], 30, 1)


def test_player_1_skips_player_0_store_and_captures():
    # player_1 sows 8 from its pit 5 (index 12): its store, then player_0's pits 0-5 (index 6, the
    # opponent's store, is skipped), then its own pit 0 (index 7), which was empty: capture with
    # player_0's pit 5 (index 5), which now holds 1 + 1.
    game = Kalah()
    state = game.from_board([1, 1, 1, 1, 1, 1, 10, 0, 2, 2, 2, 2, 8, 12], to_move=1)
    play(game, [5], state)
    assert split(game, state) == ([2, 2, 2, 2, 2, 0], 10, [0, 2, 2, 2, 2, 0], 12 + 1 + 1 + 2, 0)


def test_capture_does_not_happen_on_opponent_side():
    game = Kalah()
    state = game.from_board([0, 0, 0, 0, 0, 2, 0, 0, 4, 4, 4, 4, 4, 0])
    play(game, [5], state)  # store, then player_1's empty pit 0: no capture there
    # player_0's side is now empty: the game ends and player_1's 1 + 20 seeds go to its store.
    assert split(game, state) == ([0] * 6, 1, [0] * 6, 21, -1)


def test_moves_observation_describes_each_move_on_a_worked_board():
    from mancala_marl import observations

    game = Kalah(pits=3, seeds=2)  # [2, 2, 2 | 0 | 2, 2, 2 | 0]
    obs = observations.encode(game, game.init(), 0, "moves")
    assert obs[:8].tolist() == [2, 2, 2, 0, 2, 2, 2, 0]
    # per pit: legal, own store gain / 10, moves again, game over, their pits' gain / 10, their best reply / 10
    # pit 0: seeds to pits 1 and 2; their best reply (pit 1 or 2) puts one seed in their store
    # pit 1: pit 2, then the store: an extra turn, so no reply
    # pit 2: the store, then their pit 0; every reply of theirs then stores one seed
    expected = [[1, 0, 0, 0, 0, 0.1], [1, 0.1, 1, 0, 0, 0], [1, 0.1, 0, 0, 0.1, 0.1]]
    assert np.allclose(obs[8:].reshape(3, 6), expected)
    assert not observations.encode(game, game.init(), 1, "moves")[8:].any()  # not player_1's turn


def test_afterstates_observation_holds_the_board_each_move_leaves_on_a_worked_board():
    from mancala_marl import observations

    game = Kalah(pits=3, seeds=2)  # [2, 2, 2 | 0 | 2, 2, 2 | 0]
    obs = observations.encode(game, game.init(), 0, "afterstates")
    assert np.array_equal(obs[:8 + 3 * 7], observations.encode(game, game.init(), 0, "turns"))
    # pit 0 sows into pits 1 and 2; pit 1 into pit 2 and the store; pit 2 into the store and their pit 0
    assert obs[8 + 3 * 7:].reshape(3, 8).tolist() == [[0, 3, 3, 0, 2, 2, 2, 0],
                                                      [2, 0, 3, 1, 2, 2, 2, 0],
                                                      [2, 2, 0, 1, 3, 2, 2, 0]]
    # player_1 after pit 0 above sees its own side first: its pit 0 sows into its pits 1 and 2
    state = game.apply(game.init(), 0)
    after = observations.encode(game, state, 1, "afterstates")[8 + 3 * 7:].reshape(3, 8)
    assert after[0].tolist() == [0, 3, 3, 0, 0, 3, 3, 0]
    assert not observations.encode(game, state, 0, "afterstates")[8:].any()  # not player_0's turn


def test_turns_observation_follows_the_extra_turn_on_a_worked_board():
    from mancala_marl import observations

    game = Kalah(pits=3, seeds=2)  # [2, 2, 2 | 0 | 2, 2, 2 | 0]
    obs = observations.encode(game, game.init(), 0, "turns")
    per_pit = obs[8:].reshape(3, 7)
    assert np.allclose(per_pit[:, :6], observations.encode(game, game.init(), 0, "moves")[8:].reshape(3, 6))
    # pit 0: no seed stored, the turn ends; pit 2: one seed stored, the turn ends.
    # pit 1 stores one seed and moves again on [2, 0, 3 | 1 | 2, 2, 2 | 0]: pit 0 then stores
    # nothing more, pit 2 (3 seeds: store, their pits 0 and 1) one more: 2 in the whole turn
    assert np.allclose(per_pit[:, 6], [0.0, 0.2, 0.1])
