"""The board as SVG: one picture for the web page (``mancala-marl serve``), the docs and
:func:`save_svg`, drawn as :mod:`mancala_marl.render` draws it: player_1's row on top running
right to left, player_0's below running left to right, player_1's store on the left and
player_0's on the right, so that sowing goes anticlockwise.

Each cell is a group ``<g class="cell" data-cell="i" data-seeds="n">`` (``i`` the cell's index
in the state, as the environments and the JSON API number it), holding a fixed set of seed
slots of which the first ``n`` are shown: a page changes a count by changing which slots it
shows, so the geometry is drawn here alone. Pits the game marks (Togyz Kumalak's tuzduks) carry
``data-marked="1"`` and a cross. No dependency: plain text.
"""

from __future__ import annotations

import math
from html import escape

import numpy as np

from mancala_marl.errors import BadInput
from .games.base import GAME_OVER

CELL = 84  # px, a pit's square
PIT_SLOTS, STORE_SLOTS = 24, 60  # seeds drawn; a larger count shows its number over the slots
WOOD, PIT, STORE, SEED, TEXT, MOVER, MARK = ("#b07c4a", "#5c3a1e", "#4e3018", "#efe3c8", "#fdf6e3", "#ffd650",
                                             "#c82828")


def _slots(count: int, rx: float, ry: float) -> list[tuple[float, float]]:
    """Seed positions in an ellipse of radii ``rx``, ``ry``: a sunflower spiral, evenly filled."""
    golden = math.pi * (3 - math.sqrt(5))
    return [(rx * math.sqrt((k + 0.5) / count) * math.cos(k * golden),
             ry * math.sqrt((k + 0.5) / count) * math.sin(k * golden)) for k in range(count)]


def layout(pits: int) -> dict[int, tuple[float, float, float, float]]:
    """Cell index -> (centre x, centre y, radius x, radius y) on a board of ``pits`` a side."""
    height = 2 * CELL + CELL // 2
    cells = {}
    for side in (0, 1):
        for k in range(pits):
            column = k + 1 if side == 0 else pits - k
            cy = height - CELL / 2 - 6 if side == 0 else CELL / 2 + 6
            cells[side * (pits + 1) + k] = (column * CELL + CELL / 2, cy, CELL / 2 - 6, CELL / 2 - 6)
    cells[pits] = ((pits + 1) * CELL + CELL / 2, height / 2, CELL / 2 - 6, height / 2 - 8)
    cells[2 * pits + 1] = (CELL / 2, height / 2, CELL / 2 - 6, height / 2 - 8)
    return cells


def board_svg(game, state: np.ndarray, title: str | None = None) -> str:
    """The SVG text of ``state`` of ``game`` (a numba-layout state, as ``game.init()`` makes)."""
    pits = game.pits
    board = np.asarray(state)[: game.board_size]
    to_move = int(np.asarray(state)[game.board_size])
    marked = set(game.marked_pits(state)[0])
    width, height = (pits + 2) * CELL, 2 * CELL + CELL // 2
    title = title or f"{game.name}: " + ("game over" if to_move == GAME_OVER else f"player_{to_move} to move")
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="0 0 {width} {height + 28}" '
           f'width="{width}" height="{height + 28}" data-game="{escape(game.name)}" data-pits="{pits}" '
           f'data-to-move="{to_move}">',
           f"<title>{escape(title)}</title>",
           f'<rect x="1" y="1" width="{width - 2}" height="{height - 2}" rx="{CELL // 2}" fill="{WOOD}" '
           f'stroke="#7a5230" stroke-width="2"/>']
    for cell, (cx, cy, rx, ry) in layout(pits).items():
        is_store = cell in (pits, 2 * pits + 1)
        side, k = divmod(cell, pits + 1)
        seeds = int(board[cell])
        mark = (side, k) in marked and not is_store
        kind = "store" if is_store else "pit"
        ring = (f' stroke="{MOVER}" stroke-width="4"' if not is_store and side == to_move and not mark else "")
        out.append(f'<g class="cell {kind}" data-cell="{cell}" data-side="{side}" data-index="{k}" '
                   f'data-seeds="{seeds}"{" data-marked=" + chr(34) + "1" + chr(34) if mark else ""}>')
        out.append(f'<ellipse class="hole" cx="{cx:.1f}" cy="{cy:.1f}" rx="{rx:.1f}" ry="{ry:.1f}" '
                   f'fill="{MARK if mark else (STORE if is_store else PIT)}"{ring}/>')
        slots = STORE_SLOTS if is_store else PIT_SLOTS
        seed_r = 4.2 if not is_store else 4.0
        for j, (dx, dy) in enumerate(_slots(slots, rx - seed_r - 5, ry - seed_r - 5)):
            hidden = ' visibility="hidden"' if j >= seeds or mark else ""
            out.append(f'<circle class="seed" cx="{cx + dx:.1f}" cy="{cy + dy:.1f}" r="{seed_r}" fill="{SEED}" '
                       f'stroke="#8a6d45" stroke-width="0.6"{hidden}/>')
        if mark:
            out.append(f'<path class="mark" d="M{cx - 14:.1f},{cy - 14:.1f}l28,28m0,-28l-28,28" stroke="{TEXT}" '
                       f'stroke-width="5" stroke-linecap="round"/>')
        if not is_store:  # the pit's number, as the API and the move list name it, between the rows
            index_y = cy - ry - 4 if side == 0 else cy + ry + 12
            out.append(f'<text class="index" x="{cx:.1f}" y="{index_y:.1f}" text-anchor="middle" '
                       f'font-family="sans-serif" font-size="11" fill="#3b2412" opacity="0.7">{k}</text>')
        if is_store:  # whose store it is, under it: player_0's is on the right, where its row sows to
            out.append(f'<text class="owner" x="{cx:.1f}" y="{height + 20}" text-anchor="middle" '
                       f'font-family="sans-serif" font-size="11" fill="#3b2412">player_{side}</text>')
        label_y = cy + ry - 4 if is_store else (cy + ry + 14 if side == 0 else cy - ry - 4)
        label_y = min(max(label_y, 12), height + 22)
        out.append(f'<text class="count" x="{cx:.1f}" y="{label_y:.1f}" text-anchor="middle" '
                   f'font-family="sans-serif" font-size="14" font-weight="bold" fill="{TEXT}" '
                   f'stroke="#3b2412" stroke-width="3" paint-order="stroke">{seeds}</text>')
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)


def batch_svg(game, boards: np.ndarray, across: bool = False, gap: float = 0.0) -> str:
    """One SVG of every state of ``boards`` (one flat state, or a batch as rows), one under the
    other, or with ``across`` side by side, ``gap`` pixels apart."""
    if boards.ndim == 1:
        return board_svg(game, boards)
    parts, x, y, width, height = [], 0.0, 0.0, 0.0, 0.0
    for board in boards.reshape(-1, boards.shape[-1]):
        svg = board_svg(game, board)
        w, h = (float(svg.split(f'{key}="', 1)[1].split('"', 1)[0]) for key in ("width", "height"))
        parts.append(svg.replace("<svg ", f'<svg x="{x:g}" y="{y:g}" ', 1))
        if across:
            x, width, height = x + w + gap, x + w, max(height, h)
        else:
            y, width, height = y + h + gap, max(width, w), y + h
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
            f'viewBox="0 0 {width:g} {height:g}">\n' + "\n".join(parts) + "\n</svg>")


def save_svg(state, path, game=None) -> None:
    """Write the board of ``state`` to ``path`` as SVG (as Pgx's ``pgx.save_svg``).

    ``state``: a flat state of ``game`` (as ``game.init()`` makes), or a ``mancala_marl.jax``
    ``State`` or a batch of them (drawn one under the other). A JAX state names its game
    (``env_id``); ``game`` is then needed only for rules other than the defaults."""
    if isinstance(state, np.ndarray):
        if game is None:
            raise BadInput("a flat state does not say its game: save_svg(state, path, game=make_game(...))")
        boards = state
    else:  # a JAX State: its flat numba states are kept whole in _board (mancala_marl.jax.to_state)
        from .games import make_game

        boards = np.asarray(state._board, dtype=np.int32)
        game = game or make_game(str(state._env_id))
        if boards.shape[-1] != game.state_size:
            raise BadInput(f"a {boards.shape[-1]}-cell state is not one of {game!r} ({game.state_size} cells): "
                             f"pass the game of its rules, save_svg(state, path, game=make_game(...))")
    with open(path, "w", encoding="utf-8") as file:
        file.write(batch_svg(game, boards))
