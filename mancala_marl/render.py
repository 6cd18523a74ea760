"""Text and picture views of a board, for ``render_mode`` "ansi"/"human" and "rgb_array".

Both draw the board as players see it: player_1's row on top running right to left, player_0's
row below running left to right, player_1's store on the left and player_0's on the right, so
that sowing goes anticlockwise.
"""

from __future__ import annotations

import numpy as np

from . import svg
from .games.base import GAME_OVER, Game


def show(game: Game, state: np.ndarray, render_mode: str | None, num_moves: int | None = None):
    """What an env's ``render()`` gives for ``render_mode``: the picture ("rgb_array"), the text
    ("ansi"), or None after printing the text ("human"), as Gymnasium and PettingZoo expect."""
    if render_mode is None:
        import gymnasium

        gymnasium.logger.warn("render() called without a render_mode; pass render_mode=... to the env.")
        return None
    if render_mode == "rgb_array":
        return rgb_array(game, state)
    text = ansi(game, state, num_moves)
    if render_mode == "human":
        print(text)
        return None
    return text


def ansi(game: Game, state: np.ndarray, num_moves: int | None = None, seat: int = 0) -> str:
    """The board as text, ``seat``'s row at the bottom running left to right into its store on
    the right (player_0's by default; a person playing second sees their own row there)."""
    pits = game.pits
    board = state[: game.board_size]
    marked, legend = game.marked_pits(state)  # e.g. Togyz Kumalak's tuzduks
    near, far = seat, 1 - seat

    def cell(player: int, i: int) -> str:
        if (player, i) in marked:
            return "   X"
        return f"{board[player * (pits + 1) + i]:4d}"

    top = "".join(cell(far, i) for i in reversed(range(pits)))
    bottom = "".join(cell(near, i) for i in range(pits))
    width = 4 * pits
    to_move = state[game.board_size]
    status = "game over" if to_move == GAME_OVER else f"player_{to_move} to move"
    if num_moves is not None:
        status += f", move {num_moves}"
    scores = game.scores(state)
    lines = [
        f"{game.known_as}: {status}",
        "       " + "".join(f"{i:4d}" for i in reversed(range(pits))) + f"   <- player_{far}'s pits",
        "      [" + top + " ]",
        f" {scores[far]:4d} " + " " * (width + 2) + f" {scores[near]:4d}   stores (player_{far} left, "
                                                     f"player_{near} right)",
        "      [" + bottom + " ]",
        "       " + "".join(f"{i:4d}" for i in range(pits)) + f"   <- player_{near}'s pits",
    ]
    if marked:
        lines.append(legend)
    return "\n".join(lines) + "\n"


# 3x5 pixel glyphs, enough to print counts and the legend on the picture without a font library.
_GLYPHS = {
    "0": "111101101101111", "1": "010110010010111", "2": "111001111100111", "3": "111001111001111",
    "4": "101101111001001", "5": "111100111001111", "6": "111100111101111", "7": "111001001001001",
    "8": "111101111101111", "9": "111101111001111", "X": "101101010101101",
    "A": "010101111101101", "B": "110101110101110", "C": "111100100100111", "D": "110101101101110",
    "E": "111100111100111", "F": "111100111100100", "G": "111100101101111", "H": "101101111101101",
    "I": "111010010010111", "J": "001001001101111", "K": "101101110101101", "L": "100100100100111",
    "M": "101111111101101", "N": "110101101101101", "O": "010101101101010", "P": "111101111100100",
    "Q": "010101101111011", "R": "110101110101101", "S": "111100111001111", "T": "111010010010010",
    "U": "101101101101111", "V": "101101101101010", "W": "101101111111101", "Y": "101101010010010",
    "Z": "111001010100111", " ": "000000000000000", "=": "000111000111000", "(": "010100100100010",
    ")": "010001001001010", "'": "010010000000000", ",": "000000000010100", ".": "000000000000010",
    "-": "000000111000000", ":": "000010000010000",
}
def _rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[k:k + 2], 16) for k in (1, 3, 5))


# The picture is the SVG board's (mancala_marl.svg): its colours, and its geometry at 64/84 of its size.
_WOOD, _PIT, _STORE, _TEXT, _MOVER, _MARKED = map(_rgb, (svg.WOOD, svg.PIT, svg.STORE, svg.TEXT, svg.MOVER, svg.MARK))
_LEGEND = _rgb("#f0e4cd")
_CELL, _SCALE = 64, 4
_LEGEND_HEIGHT = 24  # a strip under the board that says what its marks mean


def _text(img: np.ndarray, cx: int, cy: int, text: str, color, scale: int = _SCALE) -> None:
    # Long counts (thousands of seeds in a store) are drawn smaller so that they stay in their cell.
    scale = max(1, min(scale, (_CELL - 8) // (4 * len(text))))
    _line(img, cx - (len(text) * 4 * scale - scale) // 2, cy, text, color, scale)


def _line(img: np.ndarray, x0: int, cy: int, text: str, color, scale: int) -> int:
    """Draw ``text`` from x = ``x0`` centred on row ``cy``; returns the x after it. Characters
    without a glyph are left as gaps."""
    y0 = cy - 5 * scale // 2
    for k, ch in enumerate(text.upper()):
        bits = np.array([int(b) for b in _GLYPHS.get(ch, _GLYPHS[" "])], dtype=bool).reshape(5, 3)
        glyph = np.kron(bits, np.ones((scale, scale), dtype=bool))
        xs = x0 + k * 4 * scale
        img[y0:y0 + glyph.shape[0], xs:xs + glyph.shape[1]][glyph] = color
    return x0 + len(text) * 4 * scale


def _disc(img: np.ndarray, cx: int, cy: int, rx: int, ry: int, color) -> None:
    h, w = img.shape[:2]
    ys, xs = np.ogrid[:h, :w]
    img[((xs - cx) / rx) ** 2 + ((ys - cy) / ry) ** 2 <= 1.0] = color


def rgb_array(game: Game, state: np.ndarray) -> np.ndarray:
    """A (height, width, 3) uint8 picture: pits as holes with their counts, the stores at the ends,
    and under the board a legend of its marks: a yellow ring round each pit of the player to move
    (none once the game is over), and a red pit with an X for each pit the game marks (Togyz
    Kumalak's tuzduks), with the game's own words for it."""
    pits = game.pits
    board = state[: game.board_size]
    to_move = state[game.board_size]
    marked, legend = game.marked_pits(state)
    width, height = (pits + 2) * _CELL, 2 * _CELL + _CELL // 2
    img = np.empty((height + _LEGEND_HEIGHT, width, 3), dtype=np.uint8)
    img[:] = _WOOD
    scale = _CELL / svg.CELL
    for cell, place in svg.layout(pits).items():
        cx, cy, rx, ry = (round(scale * value) for value in place)
        player, i = divmod(cell, pits + 1)
        if i == pits:  # a store
            _disc(img, cx, cy, rx, ry, _STORE)
            _text(img, cx, cy, str(board[cell]), _TEXT)
            continue
        if player == to_move:
            _disc(img, cx, cy, rx + 3, ry + 3, _MOVER)
        is_marked = (player, i) in marked
        _disc(img, cx, cy, rx, ry, _MARKED if is_marked else _PIT)
        _text(img, cx, cy, "X" if is_marked else str(board[cell]), _TEXT)
    _legend(img, height + _LEGEND_HEIGHT // 2, to_move != GAME_OVER, legend if marked else "")
    return img


def _legend(img: np.ndarray, cy: int, moving: bool, marks: str) -> None:
    parts = (["ring: player to move"] if moving else ["game over"]) + ([marks] if marks else [])
    text = "   ".join(parts)
    scale = 2 if (len(text) * 8 + 24) <= img.shape[1] else 1
    x = 6
    if moving:  # a sample of the ring, as drawn round the mover's pits
        _disc(img, x + 6, cy, 7, 7, _MOVER)
        _disc(img, x + 6, cy, 5, 5, _PIT)
        x += 18
    _line(img, x, cy, text, _LEGEND, scale)
