"""Oware rules on exact boards, one hand-worked case per rule of the issue.

Boards are canonical: player_0's houses 0..5, player_0's store, player_1's houses 0..5,
player_1's store. Sowing runs by increasing index on the ring of the 12 houses (player_0's house
5 is followed by player_1's house 0), the stores are not on it. ``split`` gives (player_0's
houses, store_0, player_1's houses, store_1, to_move).
"""

import numpy as np
import pytest

from mancala_marl.games import GAME_OVER, IllegalMoveError, Oware
from mancala_marl.games.oware import HISTORY

from .helpers import play, split


def board(own, store0, theirs, store1):
    return np.array([*own, store0, *theirs, store1])


def test_the_start_and_a_first_move():
    game = Oware()
    assert split(game, game.init()) == ([4] * 6, 0, [4] * 6, 0, 0)
    # House 5's four seeds go to player_1's houses 0..3: 5 each, nothing captured.
    assert split(game, play(game, [5])) == ([4, 4, 4, 4, 4, 0], 0, [5, 5, 5, 5, 4, 4], 0, 1)


def test_a_12_seed_lap_skips_the_house_it_was_sown_from():
    game = Oware()
    state = game.from_board(board([12, 0, 0, 0, 0, 0], 0, [1] * 6, 0))
    play(game, [0], state)
    # 11 seeds to houses after house 0 (5 own, 6 theirs), house 0 skipped, the 12th into house 1.
    assert split(game, state) == ([0, 2, 1, 1, 1, 1], 0, [2] * 6, 0, 1)


def test_a_17_seed_lap_ends_with_a_capture_in_the_opponents_row():
    game = Oware()
    state = game.from_board(board([17, 0, 0, 0, 0, 0], 0, [0, 1, 1, 1, 1, 1], 0))
    play(game, [0], state)
    # Lap 1: houses 1..5 and all 6 of theirs (11 seeds); lap 2 skips house 0: 1..5, then their
    # house 0 gets its 2nd seed with the 17th: 2 is captured; the house before is ours, so it stops.
    assert split(game, state) == ([0, 2, 2, 2, 2, 2], 2, [0, 2, 2, 2, 2, 2], 0, 1)


def test_a_chain_capture_goes_backwards_and_stops_at_a_4():
    game = Oware()
    state = game.from_board(board([0, 0, 0, 0, 1, 4], 0, [3, 1, 2, 1, 5, 5], 0))
    play(game, [5], state)
    # Their houses 0..3 become 4, 2, 3, 2: the last (house 3) and, backwards, houses 2 and 1
    # are taken (2 + 3 + 2); house 0 holds 4, so the chain stops there.
    assert split(game, state) == ([0, 0, 0, 0, 1, 0], 7, [4, 0, 0, 0, 5, 5], 0, 1)


def test_a_grand_slam_captures_nothing_by_default():
    game = Oware()
    state = game.from_board(board([1, 0, 0, 0, 0, 2], 0, [1, 2, 0, 0, 0, 0], 0))
    assert game.legal_mask(state).tolist() == [True, False, False, False, False, True]
    play(game, [5], state)
    # Their houses become 2 and 3, every seed they have: taking them all is a grand slam.
    assert split(game, state) == ([1, 0, 0, 0, 0, 0], 0, [2, 3, 0, 0, 0, 0], 0, 1)


def test_a_grand_slam_is_illegal_with_the_ludii_rule():
    game = Oware(grand_slam="illegal")
    state = game.from_board(board([1, 0, 0, 0, 0, 2], 0, [1, 2, 0, 0, 0, 0], 0))
    assert game.legal_mask(state).tolist() == [True, False, False, False, False, False]
    with pytest.raises(IllegalMoveError, match="grand slam"):
        game.apply(state, 5)
    # A capture of part of their seeds stays legal: with a seed in their house 4, it is no slam.
    partial = game.from_board(board([1, 0, 0, 0, 0, 2], 0, [1, 2, 0, 0, 1, 0], 0))
    assert game.legal_mask(partial)[5]
    assert split(game, play(game, [5], partial)) == ([1, 0, 0, 0, 0, 0], 5, [0, 0, 0, 0, 1, 0], 0, 1)


def test_when_every_move_is_a_grand_slam_they_stay_legal_and_capture_nothing():
    game = Oware(grand_slam="illegal")
    state = game.from_board(board([0, 0, 0, 0, 0, 6], 0, [1, 1, 1, 1, 1, 2], 0))
    # House 5 is the only move, and it makes every one of their houses 2 or 3: a grand slam.
    assert game.legal_mask(state).tolist() == [False] * 5 + [True]
    assert split(game, play(game, [5], state)) == ([0] * 6, 0, [2, 2, 2, 2, 2, 3], 0, 1)


def test_must_feed_an_empty_row():
    game = Oware()
    state = game.from_board(board([1, 0, 0, 0, 2, 1], 0, [0] * 6, 0))
    # Only moves that reach their row: house 4 (2 seeds, 1 to the end of ours) and house 5.
    assert game.legal_mask(state).tolist() == [False, False, False, False, True, True]
    with pytest.raises(IllegalMoveError, match="must feed the opponent"):
        game.apply(state, 0)
    assert split(game, play(game, [4], state)) == ([1, 0, 0, 0, 0, 2], 0, [1, 0, 0, 0, 0, 0], 0, 1)


def test_a_player_who_cannot_feed_ends_the_game_and_each_side_keeps_its_seeds():
    game = Oware()
    state = game.from_board(board([0, 1, 0, 0, 0, 0], 23, [0, 0, 0, 0, 0, 1], 23), to_move=1)
    play(game, [5], state)
    # Their last seed lands on our house 0 (1 seed: no capture). Our houses 0 and 1 hold one
    # seed each, too few to reach their empty row: no legal move, the game ends, we keep our 2.
    assert split(game, state) == ([0] * 6, 25, [0] * 6, 23, GAME_OVER)
    assert game.returns(state).tolist() == [1.0, -1.0]


def test_a_repeated_position_ends_the_game():
    game = Oware()
    state = game.from_board(board([0, 0, 0, 0, 1, 0], 23, [0, 0, 0, 0, 0, 1], 23))
    # Two lone seeds chase each other round the ring, one house a move; after 12 moves the seeds
    # stand where they started (ours on their house 5, theirs on our house 4) with player_0 to
    # move: the start position again, with no capture in between.
    moves = [4, 5, 5, 0, 0, 1, 1, 2, 2, 3, 3]  # move 3 is forced: our row must feed theirs
    play(game, moves, state)
    assert split(game, state) == ([0, 0, 0, 0, 1, 0], 23, [0, 0, 0, 0, 1, 0], 23, 1)
    assert game.positions_since_capture(state) == 12
    play(game, [4], state)
    assert split(game, state) == ([0] * 6, 24, [0] * 6, 24, GAME_OVER)  # each side keeps its seed
    assert game.returns(state).tolist() == [0.0, 0.0]


def test_a_capture_forgets_the_positions_before_it():
    game = Oware()
    state = game.init()
    play(game, [5, 5, 4], state)  # no capture yet: the start and three positions since
    assert game.positions_since_capture(state) == 4
    capture = game.from_board(board([0, 0, 0, 0, 0, 1], 0, [1, 4, 0, 0, 0, 0], 0))
    play(game, [5], capture)
    assert split(game, capture)[1] == 2 and game.positions_since_capture(capture) == 1


def test_24_24_is_a_draw():
    game = Oware()
    state = game.from_board(board([0, 0, 0, 0, 0, 1], 22, [1, 3, 0, 0, 0, 0], 21))
    play(game, [5], state)
    # Their house 0 becomes 2 and is taken (not a grand slam: their house 1 keeps 3 seeds); 24
    # for us. Their 3 seeds cannot reach our empty row, so the game ends and they keep them: 24.
    assert split(game, state) == ([0] * 6, 24, [0] * 6, 24, GAME_OVER)
    assert game.returns(state).tolist() == [0.0, 0.0]


def test_more_than_half_ends_the_game_at_once():
    game = Oware()
    state = game.from_board(board([0, 0, 0, 0, 0, 1], 23, [1, 4, 4, 4, 4, 4], 3))
    play(game, [5], state)
    # 23 + 2 = 25 > 24: the game is over, the seeds left go to their side's store.
    assert split(game, state) == ([0] * 6, 25, [0] * 6, 23, GAME_OVER)


def test_a_stretch_of_HISTORY_positions_without_capture_ends_the_game():
    game = Oware()
    state = game.from_board(board([0, 0, 0, 0, 1, 0], 23, [0, 0, 0, 0, 0, 1], 23))
    count = game.board_size + 1  # the history's first slot (module docstring)
    state[count] = HISTORY - 2  # as if a long stretch without capture had led here (distinct hashes)
    state[count + 3:count + 3 + 2 * (HISTORY - 2)] = np.arange(1, 2 * HISTORY - 3)
    play(game, [4], state)  # the history is now full, the game goes on
    assert game.positions_since_capture(state) == HISTORY - 1
    play(game, [5], state)
    assert game.positions_since_capture(state) == HISTORY
    play(game, [5], state)  # no repetition, but one position too many: ended as a repetition is
    assert split(game, state) == ([0] * 6, 24, [0] * 6, 24, GAME_OVER)


def test_history_is_bounded_and_documented():
    game = Oware()
    assert game.state_size == game.board_size + 1 + 3 + 2 * HISTORY
    assert game.key_cells == game.board_size + 1 + 3  # board, player to move, count and digest


def test_bad_parameters_name_the_parameter():
    with pytest.raises(ValueError, match="grand_slam"):
        Oware(grand_slam="sometimes")
    with pytest.raises(ValueError, match="houses"):
        Oware(houses=0)
    with pytest.raises(ValueError, match="seeds"):
        Oware(seeds=-2)
