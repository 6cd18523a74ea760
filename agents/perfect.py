"""``perfect``: perfect play, from the endgame databases and a search to the end of the game.

On Kalah (any rules, boards of up to 8 pits a side) every position is solved exactly: MTD(f)
alpha-beta with a transposition table, the database at the leaves
(:mod:`mancala_marl.endgame.kalah_solver`). On Oware, positions with at most ``db_seeds`` seeds in play
get their exact result (win, draw or loss), not a margin: a search under our rules with the
database after each capture (:mod:`mancala_marl.endgame.oware_solver`). The database is built into
the cache the first time it is needed (:func:`mancala_marl.endgame.database`); a position with
many seeds left can take long, which ``time_limit`` bounds.
"""

from __future__ import annotations

import sys
import time

from mancala_marl.errors import NotSolved
from mancala_marl.games import Param

from .base import SEED, Policy, check_game_on, register_policy

DB_SEEDS = Param("db_seeds", int, None, "seeds in play the endgame database covers (default: what builds in "
                 "under a minute)", low=0, high=127, optional=True)
TIME_LIMIT = Param("time_limit", float, None, "seconds a question may take; past it, an error", low=0.001,
                   high=7 * 24 * 3600, optional=True)
TT_BITS = Param("tt_bits", int, 22, "the search's table holds 2**tt_bits entries", low=10, high=30)


def default_db_seeds(game) -> int:
    """The most seeds in play whose database holds at most its builder's ``DEFAULT_POSITIONS``
    boards (Kalah: 16 seeds on 6 pits, built in about 15 s; Oware: 12, in about 30 s)."""
    from mancala_marl.endgame import BUILDERS
    from mancala_marl.endgame.ranking import layer_sizes

    sizes = layer_sizes(2 * game.pits, min(game.total_seeds, 127)).cumsum()
    return int((sizes <= BUILDERS[game.name].DEFAULT_POSITIONS).sum() - 1)


@register_policy("perfect")
class PerfectPolicy(Policy):
    """Perfect play: every Kalah position, and Oware endgames, from endgame databases and search.

    ``act`` plays an optimal move (Kalah: the best final margin; Oware: the best result); among
    equals, the pit nearest the own store (as ``alphabeta``). On Kalah ``value(game, state)`` is
    the exact final margin (mover's store - opponent's) and ``move_values(game, state)`` that
    margin after each legal pit; on both games ``result`` and ``move_results`` give +1, 0 or -1
    (win, draw, loss) for the mover. ``db_seeds``: the database's size (built on first use);
    ``time_limit``: seconds a question may take before it is given up with an error.
    """

    parameters = (DB_SEEDS, TIME_LIMIT, TT_BITS, SEED)

    def __init__(self, db_seeds: int | None = None, time_limit: float | None = None, tt_bits: int = 22,
                 seed: int | None = None):
        super().__init__(seed)
        self.db_seeds = db_seeds
        self.time_limit = time_limit
        self.tt_bits = int(tt_bits)
        self._solver = None
        self.last_value = None

    def prepare(self, game) -> None:
        self.solver(game)

    def exact_margins(self, game) -> bool:
        """Whether this player gives exact final margins on ``game`` (Kalah), or results only (Oware)."""
        from mancala_marl.endgame import solver_class

        return solver_class(game).exact_margins

    def max_seeds(self, game) -> int | None:
        """The most seeds in play of a position this player answers for on ``game`` (None: every
        one), known before its database is built."""
        from mancala_marl.endgame import solver_class

        return None if solver_class(game).covers_every_position else self.db_seeds_for(game)

    def db_seeds_for(self, game) -> int:
        """The size of the database this policy uses on ``game``: ``db_seeds``, or the default."""
        return default_db_seeds(game) if self.db_seeds is None else min(self.db_seeds, game.total_seeds)

    def solver(self, game):
        """The game's solver, its database loaded (or built) on first use."""
        if self._solver is not None and self._solver.game.spec.tolist() == game.spec.tolist():
            return self._solver
        from mancala_marl.endgame import database, solver, solver_class

        solver_class(game)  # a game without perfect play is refused before any database is built
        self._solver = solver(database(game, self.db_seeds_for(game), progress=sys.stderr.isatty()), self.tt_bits)
        return self._solver

    def _ask(self, what: str, game, state):
        check_game_on(game, state)
        solver = self.solver(game)
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        try:
            return getattr(solver, what)(state, deadline)
        except NotSolved as error:
            within = f"time_limit={self.time_limit:g} s" if error.limit == "time" else error.limit
            raise NotSolved(within, f"perfect: this position (with {game.seeds_in_play(state)} seeds in play) "
                                    f"was not solved within {within}; give more time, or use a larger database "
                                    f"(db_seeds)") from None

    def act(self, game, state) -> int:
        pit, self.last_value = self._ask("best_move", game, state)
        return pit

    def value(self, game, state) -> int:
        """The exact final margin, in seeds, for the player to move."""
        return self._ask("value", game, state)

    def best_moves(self, game, state) -> tuple[int, list[int]]:
        """(the exact final margin for the player to move, every optimal pit)."""
        return self._ask("best_moves", game, state)

    def move_values(self, game, state) -> dict[int, int]:
        """``{pit: exact final margin for the mover after it}`` over the legal pits."""
        return self._ask("move_values", game, state)

    def result(self, game, state) -> int:
        """+1, 0 or -1: the mover's result (win, draw, loss) under perfect play."""
        return self._ask("result", game, state)

    def move_results(self, game, state) -> dict[int, int]:
        """``{pit: the mover's result after it}`` over the legal pits."""
        return self._ask("move_results", game, state)
