"""Text and picture views of a board, for ``render_mode`` "ansi"/"human" and "rgb_array".

Both draw the board as players see it: player_1's row on top running right to left, player_0's
row below running left to right, player_1's store on the left and player_0's on the right, so
that sowing goes anticlockwise.
"""

from __future__ import annotations

import numpy as np

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


def ansi(game: Game, state: np.ndarray, num_moves: int | None = None) -> str:
    pits = game.pits
    board = state[: game.board_size]
    marked, legend = game.marked_pits(state)  # e.g. Togyz Kumalak's tuzduks

    def cell(player: int, i: int) -> str:
        if (player, i) in marked:
            return "   X"
        return f"{board[player * (pits + 1) + i]:4d}"

    top = "".join(cell(1, i) for i in reversed(range(pits)))
    bottom = "".join(cell(0, i) for i in range(pits))
    width = 4 * pits
    to_move = state[game.board_size]
    status = "game over" if to_move == GAME_OVER else f"player_{to_move} to move"
    if num_moves is not None:
        status += f", move {num_moves}"
    s0, s1 = game.scores(state)
    lines = [
        f"{game.name}: {status}",
        "       " + "".join(f"{i:4d}" for i in reversed(range(pits))) + "   <- player_1's pits",
        "      [" + top + " ]",
        f" {s1:4d} " + " " * (width + 2) + f" {s0:4d}   stores (player_1 left, player_0 right)",
        "      [" + bottom + " ]",
        "       " + "".join(f"{i:4d}" for i in range(pits)) + "   <- player_0's pits",
    ]
    if marked:
        lines.append(legend)
    return "\n".join(lines) + "\n"


# 3x5 pixel digits, enough to print counts on the picture without a font library.
_GLYPHS = {
    "0": "111101101101111", "1": "010110010010111", "2": "111001111100111", "3": "111001111001111",
    "4": "101101111001001", "5": "111100111001111", "6": "111100111101111", "7": "111001001001001",
    "8": "111101111101111", "9": "111101111001111", "X": "101101010101101",
}
_WOOD, _PIT, _STORE, _TEXT = (176, 124, 74), (92, 58, 30), (78, 48, 24), (250, 240, 220)
_MOVER, _MARKED = (255, 214, 80), (200, 40, 40)
_CELL, _SCALE = 64, 4


def _text(img: np.ndarray, cx: int, cy: int, text: str, color) -> None:
    # Long counts (thousands of seeds in a store) are drawn smaller so that they stay in their cell.
    scale = max(1, min(_SCALE, (_CELL - 8) // (4 * len(text))))
    w = len(text) * 4 * scale - scale
    x0, y0 = cx - w // 2, cy - 5 * scale // 2
    for k, ch in enumerate(text):
        bits = np.array([int(b) for b in _GLYPHS[ch]], dtype=bool).reshape(5, 3)
        glyph = np.kron(bits, np.ones((scale, scale), dtype=bool))
        xs = x0 + k * 4 * scale
        img[y0:y0 + glyph.shape[0], xs:xs + glyph.shape[1]][glyph] = color


def _disc(img: np.ndarray, cx: int, cy: int, rx: int, ry: int, color) -> None:
    h, w = img.shape[:2]
    ys, xs = np.ogrid[:h, :w]
    img[((xs - cx) / rx) ** 2 + ((ys - cy) / ry) ** 2 <= 1.0] = color


def rgb_array(game: Game, state: np.ndarray) -> np.ndarray:
    """A (height, width, 3) uint8 picture: pits as holes with their counts, the mover's row outlined."""
    pits = game.pits
    board = state[: game.board_size]
    to_move = state[game.board_size]
    marked, _ = game.marked_pits(state)
    width, height = (pits + 2) * _CELL, 2 * _CELL + _CELL // 2
    img = np.empty((height, width, 3), dtype=np.uint8)
    img[:] = _WOOD
    r = _CELL // 2 - 4
    for player, cy in ((1, _CELL // 2 + 8), (0, height - _CELL // 2 - 8)):
        for i in range(pits):
            column = (pits - i) if player == 1 else (i + 1)
            cx = column * _CELL + _CELL // 2
            if player == to_move:
                _disc(img, cx, cy, r + 3, r + 3, _MOVER)
            is_marked = (player, i) in marked
            _disc(img, cx, cy, r, r, _MARKED if is_marked else _PIT)
            _text(img, cx, cy, "X" if is_marked else str(board[player * (pits + 1) + i]), _TEXT)
    for player, column in ((1, 0), (0, pits + 1)):
        cx, cy = column * _CELL + _CELL // 2, height // 2
        _disc(img, cx, cy, r, height // 2 - 8, _STORE)
        _text(img, cx, cy, str(board[player * (pits + 1) + pits]), _TEXT)
    return img
