"""``save_svg`` for the JAX states, as Pgx's ``pgx.save_svg`` draws its own: the board of a
``State`` (or of each state of a batch, one under the other) by the one SVG renderer of the
library, :func:`mancala_marl.svg.board_svg`."""

from __future__ import annotations

import numpy as np

from ..games import Game, make_game
from ..svg import board_svg
from . import to_state


def numba_state(state, game: Game | None = None) -> tuple[Game, np.ndarray]:
    """(the numba game, the flat state or batch of them) of a JAX ``State``. Without ``game``, the
    game of the state's ``env_id`` with its default rules; other rules need their ``game``."""
    boards = to_state(state)
    game = game or make_game(str(state._env_id))
    if boards.shape[-1] != game.state_size:
        raise ValueError(f"a {boards.shape[-1]}-cell state is not one of {game!r} ({game.state_size} cells): "
                         f"pass the game of its rules, save_svg(state, path, game=make_game(...))")
    return game, boards


def batch_svg(game: Game, boards: np.ndarray) -> str:
    """One SVG of every board of ``boards`` (one state, or a batch as rows), one under the other."""
    if boards.ndim == 1:
        return board_svg(game, boards)
    parts, y, width = [], 0, 0
    for board in boards.reshape(-1, boards.shape[-1]):
        svg = board_svg(game, board)
        w, h = (float(svg.split(f'{key}="', 1)[1].split('"', 1)[0]) for key in ("width", "height"))
        parts.append(svg.replace("<svg ", f'<svg x="0" y="{y:g}" ', 1))
        y, width = y + h, max(width, w)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{y:g}" '
            f'viewBox="0 0 {width:g} {y:g}">\n' + "\n".join(parts) + "\n</svg>")


def save_svg(state, path, game: Game | None = None) -> None:
    """Write the board of a JAX ``State`` (or a batch of them) to ``path`` as SVG."""
    game, boards = numba_state(state, game)
    with open(path, "w", encoding="utf-8") as file:
        file.write(batch_svg(game, boards))
