"""Labelled positions: boards whose every legal move is valued by perfect play, shipped with the package.

A set is a yardstick that needs no solver: an agent's move on each position is graded at once
(:func:`mancala_marl.matches.grading.grade_on_set`), and any language can read the set
(``mancala-marl positions GAME --jsonl``). Three ship (:data:`SHIPPED`): Kalah(6,4), Kalah(6,4)
with ``empty_capture=true`` (values are final margins in seeds for the player to move), and Oware
endgames (values are results: +1 win, 0 draw, -1 loss); ``mancala-marl positions GAME --build``
makes one for other rules.

A position is a board as :meth:`~mancala_marl.games.base.Game.from_board` takes it (the pits and
stores, ``2 * pits + 2`` counts) and the player to move; its value for a legal pit is what that
move is worth to the mover under perfect play from then on, the stores already banked included.
How the positions were drawn (policies, openings, stages) is in the set's header; the builder is
:func:`mancala_marl.matches.labelling.build_set` (``mancala-marl positions GAME --build``).

The file is NumPy's ``.npz`` with these arrays:

=============  ===================  ===========================================================
``header``     0-d unicode          JSON: ``game`` (its spec), ``value`` ("margin" or
                                    "result"), ``count``, ``sha256`` of the arrays below, and
                                    how the set was drawn and solved
``boards``     (n, 2P+2) int16      pits and stores, player_0's pits first (``from_board``)
``to_move``    (n,) int8            0 or 1
``values``     (n, actions) int8    each legal move's value; ``ILLEGAL`` (-128) where not legal
=============  ===================  ===========================================================

A file that is truncated, corrupt, or made for other rules is refused in one line saying how to
build it again, never read as it is.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mancala_marl.errors import BadInput

ILLEGAL = -128
FOLDER = Path(__file__).parent / "sets"
FORMAT_VERSION = 1
# game spec (as Game.cli_spec writes it): the shipped set's file in FOLDER, and how it is built
SHIPPED = {
    "kalah": ("kalah.npz", "--count 5000 --db-seeds 26 --tt-bits 24"),
    "kalah:empty_capture=True": ("kalah_empty_capture.npz", "--count 2000 --db-seeds 24 --tt-bits 24"),
    "oware": ("oware_endgames.npz", "--count 2000"),
}


class PositionSetError(BadInput):
    """A labelled set file that cannot be used as it is; the message says why and how to rebuild it."""


@dataclass(frozen=True)
class LabelledSet:
    """Positions of one game and the perfect-play value of each legal move (see the module's docstring)."""

    game: str
    value: str  # "margin" (final margin in seeds, for the mover) or "result" (+1, 0, -1)
    boards: np.ndarray
    to_move: np.ndarray
    values: np.ndarray
    header: dict

    def __len__(self) -> int:
        return len(self.boards)

    def legal(self) -> np.ndarray:
        """(n, actions) bool: the legal moves of each position."""
        return self.values != ILLEGAL

    def best(self) -> np.ndarray:
        """(n,) each position's best value."""
        return np.where(self.legal(), self.values.astype(np.int16), -1000).max(axis=1)

    def results(self) -> np.ndarray:
        """(n, actions) the result of each move for the mover (+1, 0, -1; ``ILLEGAL`` where not legal)."""
        return np.where(self.legal(), np.sign(self.values), ILLEGAL).astype(np.int8)

    def seeds_in_play(self, pits: int) -> np.ndarray:
        """(n,) the seeds in the pits (not the stores) of each position: its stage."""
        return self.boards.sum(axis=1) - self.boards[:, pits] - self.boards[:, 2 * pits + 1]

    def states(self, game) -> np.ndarray:
        """(n, state size) int32: each position as a state of ``game`` (``from_board``)."""
        return np.stack([game.from_board(board, int(mover)) for board, mover in zip(self.boards, self.to_move)])

    def rows(self, pits: int):
        """Each position as a plain dict: ``board``, ``to_move``, ``values`` ({pit: value} over the
        legal moves, pit keys as strings, as JSON has them) and ``seeds_in_play``."""
        seeds = self.seeds_in_play(pits)
        for board, mover, values, n in zip(self.boards, self.to_move, self.values, seeds):
            yield {"board": board.tolist(), "to_move": int(mover),
                   "values": {str(pit): int(v) for pit, v in enumerate(values) if v != ILLEGAL},
                   "seeds_in_play": int(n)}


def _digest(boards: np.ndarray, to_move: np.ndarray, values: np.ndarray) -> str:
    digest = hashlib.sha256()
    for array in (boards, to_move, values):
        digest.update(str(array.shape).encode())
        digest.update(np.ascontiguousarray(array).tobytes())
    return digest.hexdigest()


def make_set(game, value: str, boards, to_move, values, drawn: dict) -> LabelledSet:
    """A set of ``game`` from its arrays, ``drawn`` saying how (kept in the header)."""
    boards = np.asarray(boards, dtype=np.int16)
    to_move = np.asarray(to_move, dtype=np.int8)
    values = np.asarray(values, dtype=np.int8)
    header = {"format": FORMAT_VERSION, "game": game.cli_spec(), "value": value, "count": len(boards),
              "sha256": _digest(boards, to_move, values), **drawn}
    return LabelledSet(game.cli_spec(), value, boards, to_move, values, header)


def save_set(labelled: LabelledSet, path) -> None:
    """Write ``labelled`` to ``path`` (an ``.npz``), all or nothing."""
    from mancala_marl.atomic import write_atomically

    def write(temporary: Path) -> None:
        with open(temporary, "wb") as out:
            np.savez_compressed(out, header=np.array(json.dumps(labelled.header, sort_keys=True)),
                                boards=labelled.boards, to_move=labelled.to_move, values=labelled.values)

    write_atomically(Path(path), write)


def rebuild_command(game_spec: str, path) -> str:
    count = SHIPPED.get(game_spec, (None, "--count N"))[1]
    return f"mancala-marl positions {game_spec} --build {count} --out {path}"


def load_set(path, game=None) -> LabelledSet:
    """The set in the file at ``path``, after checking its arrays against the header's checksum (and
    its game against ``game``'s rules, if given); a :class:`PositionSetError` otherwise."""
    path = Path(path)
    expected = None if game is None else game.cli_spec()

    def refuse(why: str) -> PositionSetError:
        return PositionSetError(f"labelled positions {path}: {why}; build it again with: "
                                f"{rebuild_command(expected or 'GAME', path)}")

    if not path.is_file():
        raise refuse("no such file")
    try:
        with np.load(path, allow_pickle=False) as data:
            header = json.loads(str(data["header"]))
            boards, to_move, values = data["boards"], data["to_move"], data["values"]
    except (zipfile.BadZipFile, KeyError, ValueError, OSError, EOFError) as error:
        raise refuse(f"not a readable set ({type(error).__name__}: {error})") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT_VERSION:
        raise refuse(f"format {header.get('format') if isinstance(header, dict) else None!r}, "
                     f"this library reads {FORMAT_VERSION}")
    if expected is not None and header.get("game") != expected:
        raise refuse(f"made for {header.get('game')!r}, not {expected!r}")
    if header.get("sha256") != _digest(boards, to_move, values) or header.get("count") != len(boards):
        raise refuse("its positions do not match the checksum in its header (a damaged file)")
    return LabelledSet(header["game"], header["value"], boards, to_move, values, header)


def shipped_path(game) -> Path | None:
    """The file of the set shipped for ``game``'s rules, or None."""
    entry = SHIPPED.get(game.cli_spec())
    return None if entry is None else FOLDER / entry[0]


def shipped_set(game) -> LabelledSet:
    """The set shipped with the package for ``game``'s rules; BadInput naming those that ship."""
    path = shipped_path(game)
    if path is None:
        raise BadInput(f"no labelled positions ship for {game.cli_spec()}; they ship for {', '.join(SHIPPED)} "
                       f"(build a set with: mancala-marl positions {game.cli_spec()} --build --count N --out FILE)")
    return load_set(path, game)


__all__ = ["ILLEGAL", "SHIPPED", "LabelledSet", "PositionSetError", "load_set", "make_set", "save_set",
           "shipped_path", "shipped_set"]
