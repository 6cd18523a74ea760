"""The picture explains its own marks: a legend strip under the board."""

import numpy as np

from mancala_marl.games import make_game
from mancala_marl.render import _LEGEND, _LEGEND_HEIGHT, _MOVER, rgb_array


def legend_strip(img):
    return img[-_LEGEND_HEIGHT:]


def test_the_legend_names_the_ring_while_the_game_is_on_and_the_tuzduk_when_there_is_one():
    togyz = make_game("togyz_kumalak")
    plain = rgb_array(togyz, togyz.init())
    # a tuzduk of player_0 on player_1's hole 3, player_1 to move
    board = [9, 9, 9, 9, 9, 9, 9, 9, 9, 0, 9, 9, 9, 0, 9, 9, 9, 9, 9, 0]
    marked = rgb_array(togyz, togyz.from_board(board, to_move=1, tuzduk=(3, -1)))
    words = lambda img: np.all(legend_strip(img) == _LEGEND, axis=2).any(axis=0)  # noqa: E731
    assert np.all(legend_strip(plain) == _MOVER, axis=2).any()  # the ring's sample
    # the tuzduk's words run further right than "ring: player to move" alone
    assert np.flatnonzero(words(marked)).max() > np.flatnonzero(words(plain)).max() + 100


def test_a_finished_game_shows_no_ring_and_says_so():
    kalah = make_game("kalah", pits=2, seeds=1)
    over = kalah.init()
    while not kalah.is_terminal(over):
        kalah.apply(over, int(np.flatnonzero(kalah.legal_mask(over))[0]))
    img = rgb_array(kalah, over)
    assert not np.all(img == _MOVER, axis=2).any()
    assert np.all(legend_strip(img) == _LEGEND, axis=2).any()  # "game over"


def test_the_legend_fits_the_smallest_board():
    kalah = make_game("kalah", pits=1, seeds=1)
    img = rgb_array(kalah, kalah.init())
    columns = np.flatnonzero(np.all(legend_strip(img) == _LEGEND, axis=2).any(axis=0))
    assert columns.max() < img.shape[1] - 2  # the words end inside the picture
