"""Togyz Kumalak rules on exact boards: the issue's vectors T1-T4 and hand-worked cases.

W = player_0's holes 1..9 (indices 0..8), B = player_1's (indices 10..18); kazans at 9 and 19.
"""

from mancala_marl.games import TogyzKumalak

from .helpers import play, split

NINES = [9] * 9


def test_t1_single_lap_without_capture():
    game = TogyzKumalak()
    state = play(game, [0])
    assert split(game, state) == ([1, 10, 10, 10, 10, 10, 10, 10, 10], 0, NINES, 0, 1)


def test_t2_even_capture():
    game = TogyzKumalak()
    state = play(game, [1])
    assert split(game, state) == ([9, 1, 10, 10, 10, 10, 10, 10, 10], 10, [0] + [9] * 8, 0, 1)


def test_t3_from_the_ninth_hole():
    game = TogyzKumalak()
    state = play(game, [8])
    assert split(game, state) == ([9] * 8 + [1], 10, [10] * 7 + [0, 9], 0, 1)


def test_t4_tuzduk_for_player_1():
    game = TogyzKumalak()
    state = play(game, [2, 8, 7, 2])
    assert split(game, state) == ([11, 11, 0, 11, 11, 11, 11, 1, 11], 12,
                                  [11, 1, 1, 11, 11, 11, 11, 11, 1], 3, 0)
    assert game.tuzduks(state) == (-1, 2)  # W3 belongs to player_1
    assert game.legal_mask(state)[2] == 0  # a tuzduk is never a legal move


def test_ball_falling_into_tuzduk_goes_to_its_owner():
    # player_1 owns W3 (index 2). player_0 sows 4 from W1: W1 keeps one, W2 gets one, the ball
    # for W3 goes to player_1's kazan, W4 gets the last one (own side: nothing more).
    game = TogyzKumalak()
    state = game.from_board([4, 1, 0, 1, 9, 9, 9, 9, 9, 30, 9, 9, 9, 9, 9, 9, 9, 9, 9, 0],
                            tuzduk=(-1, 2))
    play(game, [0], state)
    assert split(game, state) == ([1, 2, 0, 2, 9, 9, 9, 9, 9], 30, NINES, 1, 1)


def test_no_tuzduk_on_opponents_ninth_hole():
    # player_0 sows 10 from W9: one stays, B1..B9 get one each. B9 goes from 2 to 3, which would
    # make a tuzduk anywhere else, but the ninth hole can never become one.
    game = TogyzKumalak()
    board = [1, 0, 0, 0, 0, 0, 0, 0, 10, 70] + [1] * 8 + [2, 71]
    state = play(game, [8], game.from_board(board))
    assert split(game, state) == ([1] + [0] * 7 + [1], 70, [2] * 8 + [3], 71, 1)
    assert game.tuzduks(state) == (-1, -1)


def test_tuzduk_on_eighth_hole_is_made():
    # Same idea one hole shorter: 9 balls from W9 end on B8, 2 -> 3: player_0's tuzduk.
    game = TogyzKumalak()
    board = [1, 0, 0, 0, 0, 0, 0, 0, 9, 70] + [1] * 7 + [2, 1, 71]
    state = play(game, [8], game.from_board(board))
    assert split(game, state) == ([1] + [0] * 7 + [1], 73, [2] * 7 + [0, 1], 71, 1)
    assert game.tuzduks(state) == (7, -1)


def test_symmetric_tuzduk_refused():
    # player_1's tuzduk is W3 (number 2). player_0's 4 balls from W9 end on B3, 2 -> 3: B3 has
    # the same number as player_1's tuzduk, so it does not become player_0's tuzduk.
    board = [1, 0, 0, 0, 0, 0, 0, 0, 4, 70] + [1, 1, 2, 1, 1, 1, 1, 1, 1, 80]
    game = TogyzKumalak()
    state = play(game, [8], game.from_board(board, tuzduk=(-1, 2)))
    assert split(game, state) == ([1] + [0] * 7 + [1], 70, [2, 2, 3, 1, 1, 1, 1, 1, 1], 80, 1)
    assert game.tuzduks(state) == (-1, 2)
    # Without player_1's tuzduk the same move makes B3 player_0's tuzduk.
    state = play(game, [8], game.from_board(board))
    assert split(game, state) == ([1] + [0] * 7 + [1], 73, [2, 2, 0, 1, 1, 1, 1, 1, 1], 80, 1)
    assert game.tuzduks(state) == (2, -1)


def test_second_tuzduk_refused():
    board = [1, 0, 0, 0, 0, 0, 0, 0, 4, 70] + [1, 1, 2, 1, 1, 1, 1, 1, 1, 80]
    game = TogyzKumalak()
    state = play(game, [8], game.from_board(board, tuzduk=(5, -1)))
    assert split(game, state)[2] == [2, 2, 3, 1, 1, 1, 1, 1, 1]
    assert game.tuzduks(state) == (5, -1)


def test_game_ending_81_81_is_a_draw():
    # player_0's last ball moves from W9 to B1, making it 2: captured (79 + 2 = 81). player_1
    # has no ball left to move, so the game ends; nothing remains to sweep. 81-81: a draw.
    game = TogyzKumalak()
    board = [0] * 8 + [1, 79] + [1] + [0] * 8 + [81]
    state = play(game, [8], game.from_board(board))
    assert game.is_terminal(state)
    assert game.scores(state) == (81, 81)
    assert list(game.returns(state)) == [0.0, 0.0]


def test_majority_stops_the_game_and_sweeps():
    # player_0 captures 2 to reach 82: the game stops at once (stop_at_majority=True); the balls
    # left go to the kazan of their side.
    board = [3, 0, 0, 0, 0, 0, 0, 0, 1, 80] + [1, 1, 0, 0, 0, 0, 0, 0, 0, 76]
    game = TogyzKumalak()
    state = play(game, [8], game.from_board(board))
    assert game.is_terminal(state)
    assert game.scores(state) == (85, 77)
    # Playing on, the same move leaves player_1 to move with its one ball.
    on = TogyzKumalak(stop_at_majority=False)
    state = play(on, [8], on.from_board(board))
    assert split(on, state) == ([3] + [0] * 8, 82, [0, 1] + [0] * 7, 76, 1)
