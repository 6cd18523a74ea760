"""Endgame databases: the exact value of every position with at most ``max_seeds`` seeds in play.

    from mancala_marl.endgame import database
    db = database(make_game("kalah"), max_seeds=20)   # built into the cache on first use, then loaded
    db.value(state)                                   # the margin still to come for the player to move

Databases know the rules, never the environments. A game has one when :data:`BUILDERS` names
it; the files live in :func:`cache_dir` (``MANCALA_MARL_CACHE`` moves it).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import numpy as np

from mancala_marl.errors import BadInput
from mancala_marl.games.params import Param
from mancala_marl.progress import progress_bar
from .._compile import drop_stale_cache

drop_stale_cache(__name__, ("mancala_marl._compile", "mancala_marl.games", "mancala_marl.search_core"))

# ruff: noqa: E402
from . import files, kalah_database, oware_database
from .files import DatabaseFileError
from .ranking import layer_sizes, layout, state_index

MAX_SEEDS = 127  # a value of -n..n fits a signed byte
MAX_SEEDS_PARAM = Param("max_seeds", int, 20, "seeds in play the database covers", low=0, high=MAX_SEEDS,
                        why_high="a value of -n..n fits a signed byte")
MAX_ENTRIES = 1 << 33  # 8 GiB of values: past what this library is meant to build on one machine


def cache_dir() -> Path:
    """Where database files go: ``$MANCALA_MARL_CACHE``, else the user's cache folder."""
    if os.environ.get("MANCALA_MARL_CACHE"):
        return Path(os.environ["MANCALA_MARL_CACHE"])
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "mancala_marl" / "endgame"
    root = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(root) / "mancala_marl" / "endgame"


class Database:
    """The values of one game's boards with up to ``max_seeds`` seeds in play, layer after layer.

    ``low[index(board)]`` and ``high[index(board)]`` bound the margin still to come for the player
    to move, the board seen from their side (their pits first); ``table`` and ``blocks`` make the
    index (:mod:`mancala_marl.endgame.ranking`). In Kalah the two are one array, the exact value
    (``values``); in Oware they are what each side can force (:mod:`mancala_marl.endgame.oware_database`).
    """

    def __init__(self, game, max_seeds: int, values: np.ndarray):
        self.game, self.max_seeds = game, int(max_seeds)
        self.cells = 2 * game.pits
        self.table, self.blocks = layout(game.pits, self.max_seeds)
        size = int(self.blocks[-1, 0])
        if values.shape not in ((size,), (2 * size,)):
            raise BadInput(f"{values.size} values for {size} positions")
        self.values = values
        self.low, self.high = (values, values) if values.size == size else (values[:size], values[size:])

    def covers(self, state: np.ndarray) -> bool:
        return not self.game.is_terminal(state) and self.game.seeds_in_play(state) <= self.max_seeds

    def bounds(self, state: np.ndarray) -> tuple[int, int]:
        """(low, high): the margin still to come for the player to move in ``state`` lies between."""
        if self.game.is_terminal(state):
            raise BadInput("the game is over: no value to come")
        if not self.covers(state):
            raise BadInput(f"the database holds positions with at most {self.max_seeds} seeds in play, "
                             f"this one has {self.game.seeds_in_play(state)}")
        at = state_index(state, self.game.pits, self.game.to_move(state), self.table, self.blocks)
        return int(self.low[at]), int(self.high[at])

    def value(self, state: np.ndarray) -> int:
        """The exact margin still to come for the player to move in ``state``; a ValueError where
        the database only bounds it."""
        low, high = self.bounds(state)
        if low != high:
            raise BadInput(f"the database bounds this position's margin to come to {low}..{high}, "
                             "no exact value (the side that forces the game on decides it)")
        return low

    def __repr__(self) -> str:
        return f"Database({self.game!r}, max_seeds={self.max_seeds}, positions={self.low.size:,})"


def check_request(game, max_seeds) -> None:
    """Refuse, in one line, a game with no database or a size past what can be built."""
    if game.name not in BUILDERS:
        raise BadInput(f"no endgame database for {game.name}; databases exist for {', '.join(BUILDERS)}")
    MAX_SEEDS_PARAM.check(max_seeds)
    if game.pits > 8:
        raise BadInput(f"endgame databases take boards of at most 8 pits a side, {game!r} has {game.pits}")
    entries = int(layer_sizes(2 * game.pits, int(max_seeds)).sum())
    if entries > MAX_ENTRIES:
        raise BadInput(f"a database of {game!r} up to {max_seeds} seeds holds {entries:,} positions, "
                         f"more than the {MAX_ENTRIES:,} this library builds; ask for fewer seeds")


def rules(game) -> dict:
    """The rule parameters a database depends on: all but the seeds a pit starts with, since a
    board's future does not depend on how many seeds the game began with."""
    return {key: value for key, value in game.params.items() if key != game.seed_word}


def file_path(game, max_seeds: int, folder: Path | None = None) -> Path:
    rules_text = "_".join(f"{key}={value}" for key, value in rules(game).items())
    return Path(folder or cache_dir()) / f"{game.name}_{rules_text}_upto{max_seeds}.mmdb"


def header(game, max_seeds: int) -> dict:
    return {"game": game.name, "rules": rules(game), "max_seeds": int(max_seeds),
            "value": "margin still to come for the player to move, board from the mover's side"}


def build(game, max_seeds: int, progress: bool = False) -> tuple[np.ndarray, float]:
    """All layers 0..``max_seeds`` of ``game``'s database in memory: (values, seconds)."""
    check_request(game, max_seeds)
    table, blocks = layout(game.pits, max_seeds)
    start = time.perf_counter()
    with progress_bar(disable=not progress) as bar:
        task = bar.add_task(f"endgame database {game.cli_spec()} up to {max_seeds} seeds", total=int(blocks[-1, 0]))
        values = BUILDERS[game.name].build_all(game, max_seeds, table, blocks, lambda done: bar.advance(task, done))
    return values, time.perf_counter() - start


def database(game, max_seeds: int = 20, folder: Path | str | None = None, progress: bool = False,
             rebuild: bool = False) -> Database:
    """``game``'s database up to ``max_seeds`` seeds in play: loaded from ``folder`` (default
    :func:`cache_dir`), or built and saved there first (again if ``rebuild``). A file that fails its
    checks is refused (:class:`DatabaseFileError`), never read and never silently replaced."""
    check_request(game, max_seeds)
    path = file_path(game, max_seeds, Path(folder) if folder else None)
    if path.exists() and not rebuild:
        values = files.load(path, header(game, max_seeds),
                            rebuild=f"build it again with: mancala-marl solve {game.cli_spec()} "
                                    f"--db-seeds {max_seeds} --rebuild")
    else:
        values, _ = build(game, max_seeds, progress)
        files.save(path, header(game, max_seeds), values)
    return Database(game, max_seeds, values)


BUILDERS = {"kalah": kalah_database, "oware": oware_database}


def solver_class(game):
    """What answers questions of perfect play on ``game``: exact margins of every Kalah position
    (:class:`~mancala_marl.endgame.kalah_solver.Solver`), exact results of Oware endgames
    (:class:`~mancala_marl.endgame.oware_solver.ResultSolver`). Each declares ``exact_margins`` and
    ``covers_every_position`` (else only those with at most its database's seeds in play)."""
    from .oware_solver import ResultSolver
    from .kalah_solver import Solver

    classes = {"kalah": Solver, "oware": ResultSolver}
    if game.name not in classes:
        raise BadInput(f"perfect: no endgame database or solver for {game.labelled}; perfect play covers Kalah and Oware, "
                       f"at any size (on {game.known_as} use alphabeta, or solver on boards of at most 40 seeds)")
    return classes[game.name]


def solver(db, tt_bits: int = 22):
    """The solver of ``db``'s game (:func:`solver_class`) on ``db``, its table of ``2**tt_bits`` entries."""
    return solver_class(db.game)(db, tt_bits=tt_bits)

__all__ = ["Database", "DatabaseFileError", "database", "build", "cache_dir", "file_path", "solver", "solver_class", "BUILDERS"]
