"""Sungka rules on exact boards: the issue's vectors S1-S5 and hand-worked cases."""

import pytest

from mancala_marl.games import Sungka

from .helpers import play, split


@pytest.mark.parametrize("moves, board, to_move", [
    ([0], [0, 8, 8, 8, 8, 8, 8, 1, 7, 7, 7, 7, 7, 7, 7, 0], 0),                  # S1: extra turn
    ([1], [8, 0, 8, 8, 8, 8, 8, 10, 0, 8, 8, 8, 8, 0, 8, 0], 1),                 # S2: relay, sunog 8+1
    ([0, 1], [6, 2, 0, 1, 3, 0, 4, 8, 13, 5, 13, 13, 4, 13, 13, 0], 0),          # S3
    ([6], [8, 8, 8, 8, 8, 8, 0, 10, 0, 8, 8, 8, 8, 0, 8, 0], 1),                 # S4
])
def test_issue_vectors(moves, board, to_move):
    game = Sungka()
    state = play(game, moves)
    assert list(game.board(state)) == board
    assert game.to_move(state) == to_move


def test_s5_lap_ends_in_emptied_origin_sunog():
    game = Sungka()
    state = game.from_board([15, 0, 0, 0, 0, 0, 0, 41, 0, 0, 0, 0, 0, 0, 0, 42])
    play(game, [0], state)
    assert list(game.board(state)) == [0, 1, 1, 1, 1, 1, 1, 44, 1, 1, 1, 1, 1, 1, 0, 42]
    assert game.to_move(state) == 1


def test_sunog_needs_opposite_option():
    # player_0 drops its single stone from house 0 into its empty house 1; the opposite house
    # (player_1's 5, index 13) is empty. By default that is still sunog (1 stone to the head).
    position = [1, 0, 0, 0, 0, 0, 3, 50, 1, 1, 1, 1, 1, 0, 1, 38]
    default = Sungka()
    state = play(default, [0], default.from_board(position))
    assert split(default, state) == ([0, 0, 0, 0, 0, 0, 3], 51, [1, 1, 1, 1, 1, 0, 1], 38, 1)
    strict = Sungka(sunog_needs_opposite=True)
    state = play(strict, [0], strict.from_board(position))
    assert split(strict, state) == ([0, 1, 0, 0, 0, 0, 3], 50, [1, 1, 1, 1, 1, 0, 1], 38, 1)


def test_player_with_empty_houses_passes():
    # After player_0's sunog, player_1 has no stones: it passes and player_0 moves again.
    game = Sungka()
    state = play(game, [0], game.from_board([1, 0, 0, 0, 0, 0, 3, 50, 0, 0, 0, 0, 0, 0, 0, 44]))
    assert split(game, state) == ([0, 0, 0, 0, 0, 0, 3], 51, [0] * 7, 44, 0)


def test_extra_turn_without_stones_passes_to_opponent_then_game_ends():
    game = Sungka()
    state = game.from_board([0, 0, 0, 0, 0, 0, 1, 50, 0, 0, 0, 0, 0, 0, 1, 46])
    play(game, [6], state)  # last stone in the own head, but player_0 has nothing left
    assert split(game, state) == ([0] * 7, 51, [0, 0, 0, 0, 0, 0, 1], 46, 1)
    play(game, [6], state)  # player_1 empties the board: the game is over
    assert game.is_terminal(state)
    assert game.scores(state) == (51, 47)
    assert list(game.returns(state)) == [1.0, -1.0]


def test_player_1_skips_player_0_head_then_sunog():
    # player_1 sows 10 from house 6 (index 14): its head (15), player_0's houses 0-6, skips
    # player_0's head (7), then its own houses 0 and 1 (8, 9). House 1 was empty: sunog with the
    # opposite house, player_0's 5 (index 5), which holds 1 + 1.
    game = Sungka()
    state = game.from_board([1, 1, 1, 1, 1, 1, 1, 40, 0, 0, 5, 5, 5, 5, 10, 0], to_move=1)
    play(game, [6], state)
    assert split(game, state) == ([2, 2, 2, 2, 2, 0, 2], 40, [1, 0, 5, 5, 5, 5, 0], 1 + 2 + 1, 0)


def test_turns_observation_values_the_whole_turn_not_the_first_move():
    from mancala_marl import observations

    game = Sungka()
    obs = observations.encode(game, game.init(), 0, "turns")
    pit_0 = obs[16 + 0 * 7:16 + 1 * 7]
    # S1 then S3: house 0 stores one stone and moves again; house 1 next makes the head 8 and
    # moves again. The first move is worth 1; with the best four further moves (what
    # alphabeta:depth=1,max_chain=4 finds) the turn ends with the head at 39
    assert pit_0[1] == pytest.approx(0.1) and pit_0[2] == 1.0
    assert pit_0[6] == pytest.approx(3.9)
