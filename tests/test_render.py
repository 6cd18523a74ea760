"""The picture explains its own marks: a legend strip under the board."""

import numpy as np
import pytest

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


def test_save_svg_and_batch_svg_draw_numpy_states_cell_for_cell(tmp_path):
    import xml.etree.ElementTree as ElementTree

    from mancala_marl.svg import batch_svg, save_svg

    def cells(svg):  # {cell: seeds drawn}
        return {int(g.get("data-cell")): int(g.get("data-seeds")) for g in svg.iter("{http://www.w3.org/2000/svg}g")}

    game = make_game("togyz_kumalak")
    first = game.init()
    second = game.apply(first.copy(), 3)
    save_svg(second, tmp_path / "board.svg", game=game)
    root = ElementTree.parse(tmp_path / "board.svg").getroot()
    assert cells(root) == dict(enumerate(second[: game.board_size].tolist()))
    boards = ElementTree.fromstring(batch_svg(game, np.stack([first, second])))
    drawn = [cells(board) for board in boards.findall("{http://www.w3.org/2000/svg}svg")]
    assert drawn == [dict(enumerate(state[: game.board_size].tolist())) for state in (first, second)]
    assert [float(board.get("y")) for board in boards.findall("{http://www.w3.org/2000/svg}svg")] == [0, 238]  # one under the other
    with pytest.raises(ValueError, match="a flat state does not say its game"):
        save_svg(second, tmp_path / "other.svg")
