"""Exact results (win, draw, loss) of Oware endgames: a search under our rules, the database at
the positions right after a capture.

The database (:mod:`mancala_marl.endgame.oware`) bounds the margin still to come of a position
whose history is the position alone, as right after a capture, in the game without the majority
rule. The result under our rules is the sign of the store margin plus that margin, so the
database decides it wherever the store margin plus either bound has the same sign. Elsewhere the
search plays on, with the rules kernel and the position's own history, so that repetitions end
lines as they end games; captures lead back to the database. Results are -1, 0 and +1 for the
player to move, searched with alpha-beta over those three values.
"""

from __future__ import annotations

import sys
import time

import numpy as np

CHECK_EVERY = 4096  # nodes between two looks at the clock


class ResultSolver:
    """Exact results of one Oware game's positions with at most ``database.max_seeds`` seeds in play."""

    def __init__(self, database, max_nodes: int = 200_000):
        self.db, self.game = database, database.game
        self.max_nodes = int(max_nodes)
        self.nodes = 0

    def check_covered(self, state: np.ndarray) -> None:
        seeds = self.db.seeds_in_play(state)
        if seeds > self.db.max_seeds:
            raise ValueError(f"perfect: this {self.game.name} position has {seeds} seeds in play, more than the "
                             f"{self.db.max_seeds} of the endgame database (db_seeds); no exact result")

    def result(self, state: np.ndarray, deadline: float | None = None) -> int:
        """+1, 0 or -1: the result for the player to move under perfect play by both."""
        self.check_covered(state)
        self._start(deadline)
        return self._search(state, -1, 1, (), self._unseen(state))

    def move_results(self, state: np.ndarray, deadline: float | None = None) -> dict[int, int]:
        """``{pit: the mover's result after playing it}`` for every legal pit."""
        self.check_covered(state)
        self._start(deadline)
        unseen = self._unseen(state)
        return {int(pit): self._after(state, int(pit), -1, 1, (), unseen)
                for pit in np.flatnonzero(self.game.legal_mask(state))}

    def _unseen(self, state):
        """Whether ``state`` comes after positions of its stretch that the search cannot see."""
        return True if self.game.positions_since_capture(state) > 1 else None

    def best_move(self, state: np.ndarray, deadline: float | None = None) -> tuple[int, int]:
        """(a pit with the best result, that result): the pit nearest the mover's store among them."""
        results = self.move_results(state, deadline)
        best = max(results.values())
        return max(pit for pit, r in results.items() if r == best), best

    # -- the search -------------------------------------------------------------------------------
    def _start(self, deadline):
        self.deadline, self.budget = deadline, self.nodes + self.max_nodes
        # a line without capture runs up to 256 positions (the rules' bound), two frames each
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 4000))

    def _after(self, state, pit, alpha, beta, history=(), unknown=None) -> int:
        """The result, for the mover of ``state``, of playing ``pit``; ``history`` holds the swept
        margins (player_0's) of the positions since the last capture before ``state``, ``unknown``
        the range of those the search did not see (a position taken mid-stretch)."""
        game = self.game
        mover = game.to_move(state)
        child = game.apply_fast(state.copy(), pit)
        if game.is_terminal(child):
            stores = game.scores(child)
            return int(np.sign(stores[mover] - stores[1 - mover]))
        if sum(game.scores(child)) > sum(game.scores(state)):  # a capture: a new stretch, its history the child
            history, unknown = (), None
        else:
            history = history + (self._swept(state),)
        return -self._search(child, -beta, -alpha, history, unknown)  # in Oware the turn always passes

    def _swept(self, state) -> int:
        """player_0's margin if the game ended here with the seeds swept to their sides."""
        board = self.game.board(state)
        return int(board[: self.game.pits + 1].sum() - board[self.game.pits + 1:].sum())

    def _search(self, state, alpha, beta, history=(), unknown=None) -> int:
        game, db = self.game, self.db
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 0:
            if self.nodes > self.budget:
                raise TimeoutError(f"more than {self.max_nodes:,} positions")
            if self.deadline is not None and time.perf_counter() > self.deadline:
                raise TimeoutError("time")
        # What each side can force from here (the database), or, where a line comes back to a
        # position of this stretch, that position's sweep: the result lies between (module doc).
        mover = game.to_move(state)
        sense = 1 if mover == 0 else -1
        stores = game.scores(state)
        banked = stores[mover] - stores[1 - mover]
        low, high = db.bounds(state)
        lo, hi = np.sign(banked + low), np.sign(banked + high)
        for swept in history:
            lo, hi = min(lo, np.sign(sense * swept)), max(hi, np.sign(sense * swept))
        if unknown is not None:
            seeds = db.seeds_in_play(state)
            lo, hi = min(lo, np.sign(banked - seeds)), max(hi, np.sign(banked + seeds))
        if lo == hi or lo >= beta or hi <= alpha:
            return int(lo if lo >= beta or lo == hi else hi)
        alpha, beta = max(alpha, lo), min(beta, hi)
        best = -2
        # captures first: they end the search in the database sooner
        for pit in self._ordered(state):
            r = self._after(state, pit, alpha, beta, history, unknown)
            if r > best:
                best = r
                if r > alpha:
                    alpha = r
                    if alpha >= beta:
                        break
        return best

    def _ordered(self, state) -> list[int]:
        game = self.game
        legal = [int(p) for p in np.flatnonzero(game.legal_mask_fast(state))]
        stores = sum(game.scores(state))

        def captures(pit):
            return sum(game.scores(game.apply_fast(state.copy(), pit))) - stores

        return sorted(legal, key=lambda pit: (-captures(pit), -pit))

    def best_moves(self, state: np.ndarray, deadline: float | None = None) -> tuple[int, list[int]]:
        """(the best result for the mover, every pit that keeps it)."""
        results = self.move_results(state, deadline)
        best = max(results.values())
        return best, sorted(pit for pit, r in results.items() if r == best)

    def value(self, state, deadline=None):
        raise ValueError(MARGINS_NOT_EXACT)

    move_values = value


MARGINS_NOT_EXACT = ("perfect: Oware's values are exact results (win, draw, loss), not margins: the majority rule "
                     "stops a game when a store passes half the seeds, which changes the margin but never the "
                     "winner; use result() and move_results()")
