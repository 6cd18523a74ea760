"""Building labelled sets: positions from varied play, every legal move valued by perfect play.

:func:`build_set` draws positions as grading does (:func:`mancala_marl.matches.grading.draw_positions`:
spread evenly over stages by seeds in play, none with a single legal move), from several kinds of
play so that a set is not one player's habits: each batch opens with a different number of random
moves (``openings``) and seats a different pair of ``players`` in turn. No board is taken twice
(the same pits, stores and player to move). Each position is then rebuilt from its board alone
(``Game.from_board``, as a user of the set would) and every legal move valued by the game's solver
(``mancala_marl.endgame.solver``), on ``workers`` threads that share the endgame database.
Where the solver can give up on a position (Oware's search budget), a tenth more are drawn and
those it gave up on left out, each stage keeping its share; while that leaves fewer than asked,
more are drawn (from other seeds, boards not taken yet) and valued, up to ``TOP_UPS`` times. The
set's header records all of it. ``mancala-marl positions GAME --build`` is the command.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from mancala_marl.endgame.labelled import ILLEGAL, LabelledSet, make_set
from mancala_marl.errors import BadInput, NotSolved
from mancala_marl.games import parse_game
from mancala_marl.limits import check_count
from mancala_marl.progress import progress_bar

from .grading import BINS, BINS_PARAM, MAX_SEEDS_PARAM, _bin_of, _shares, draw_positions, seed_bins

OPENINGS = (2, 4, 6, 8)
TOP_UPS = 4
# strong and weak play, seated in turn (each game: one of them against the next), so that a set
# holds the positions good players reach and those they would avoid
PLAYERS = ("alphabeta:depth=6", "alphabeta:depth=2", "greedy", "random")


def _draw(game, count: int, seed: int, openings, players, bins: int, max_seeds, seen: set | None = None,
          top_up: int = 0) -> list[np.ndarray]:
    """``count`` distinct positions (rebuilt from their boards), each stage its share: batch ``j``
    opens with ``openings[j]`` random moves; where the batches drew boards already taken (also in
    ``seen``, which gains the new ones), or too few of a stage, they draw again (up to 8 rounds) for
    what is missing. ``top_up``: the how-manieth draw of one set, which seeds it apart."""
    size = game.board_size
    edges = seed_bins(game, bins, max_seeds)
    shares = _shares(count, len(edges))
    by_stage, seen = [[] for _ in edges], set() if seen is None else seen
    want = count
    for round_ in range(8):
        for j, opening in enumerate(openings):
            batch = want // len(openings) + (j < want % len(openings))
            entropy = [seed, j, round_] + ([top_up] if top_up else [])  # the first draw as it always was
            batch_seed = int(np.random.SeedSequence(entropy).generate_state(1)[0] >> 1)
            for state in draw_positions(game, batch, batch_seed, opening, players, bins, max_seeds) if batch else ():
                key = (state[:size].tobytes(), int(game.to_move(state)))
                if key not in seen:
                    seen.add(key)
                    by_stage[_bin_of(game.seeds_in_play(state), edges)].append(game.from_board(state[:size], key[1]))
        short = [max(0, share - len(got)) for share, got in zip(shares, by_stage)]
        if not any(short):
            break
        want = min(count, max(short) * len(edges))  # each draw spreads over every stage
    chosen = [state for share, got in zip(shares, by_stage) for state in got[:share]]
    spare = [state for share, got in zip(shares, by_stage) for state in got[share:]]
    return chosen + spare[: max(0, count - len(chosen))]


def _keep(states, unsolved, count: int, stage, stages: int) -> list[int]:
    """The indices of at most ``count`` solved positions, each stage its share (as drawn), the
    stages short of it made up from the others' spare ones."""
    by_stage = [[i for i in range(len(states)) if not unsolved[i] and stage[i] == k] for k in range(stages)]
    shares = _shares(count, stages)
    keep = [i for k in range(stages) for i in by_stage[k][: shares[k]]]
    spare = [i for k in range(stages) for i in by_stage[k][shares[k]:]]
    return sorted(keep + spare[: max(0, count - len(keep))])


def build_set(game, count: int, seed: int = 0, bins: int = BINS, max_seeds: int | None = None,
              openings: Sequence[int] = OPENINGS, players: Sequence[str] = PLAYERS, db_seeds: int | None = None,
              workers: int | None = None, tt_bits: int = 22, progress: bool = False) -> LabelledSet:
    """A labelled set of ``count`` positions of ``game`` (see the module's docstring).

    ``max_seeds``: positions with at most that many seeds in play (Oware: at most, and by default,
    what its database covers, ``db_seeds``). ``db_seeds``: the endgame database's size (default:
    the ``perfect`` policy's). ``workers``: solving threads (default: every core), each with a
    table of ``2**tt_bits`` entries kept from one position to the next (a larger one saves work
    between the early positions, which share much of their trees; the values do not depend on it).
    """
    from mancala_marl.agents.perfect import default_db_seeds
    from mancala_marl.endgame import database, solver_class

    game = parse_game(game)
    count = check_count("graded", count, "positions")
    bins, max_seeds = BINS_PARAM.check(bins), MAX_SEEDS_PARAM.check(max_seeds)
    if not openings or not players:
        raise BadInput("build_set: give at least one opening and one player")
    kind = solver_class(game)  # a game without perfect play is refused here, before any work
    db_seeds = default_db_seeds(game) if db_seeds is None else min(int(db_seeds), game.total_seeds)
    if not kind.covers_every_position:
        if max_seeds is not None and max_seeds > db_seeds:
            raise BadInput(f"build_set: perfect play on {game.name} covers at most {db_seeds} seeds in play "
                           f"(db_seeds); max_seeds={max_seeds} asks for more")
        max_seeds = db_seeds if max_seeds is None else max_seeds
    start = time.perf_counter()
    spare = 0 if kind.covers_every_position else -(-count // 10)
    seen: set = set()
    states = _draw(game, count + spare, seed, tuple(openings), tuple(players), bins, max_seeds, seen)
    drawn_seconds = time.perf_counter() - start
    db = database(game, db_seeds, progress=progress)
    workers = max(1, min(workers or os.cpu_count() or 1, len(states) or 1))
    values, unsolved = _value(game, states, db, kind, tt_bits, workers, progress)
    for top_up in range(1, TOP_UPS + 1):
        short = count - int((~unsolved).sum())
        if short <= 0:
            break
        # as many more as the give-up rate so far says are needed, and a tenth beside
        more = int(short / max(0.05, 1 - unsolved.mean()) * 1.1) + 1
        begun = time.perf_counter()
        extra = _draw(game, more, seed, tuple(openings), tuple(players), bins, max_seeds, seen, top_up)
        drawn_seconds += time.perf_counter() - begun
        if not extra:
            break
        extra_values, extra_unsolved = _value(game, extra, db, kind, tt_bits, workers, progress)
        states, values = states + extra, np.concatenate([values, extra_values])
        unsolved = np.concatenate([unsolved, extra_unsolved])
    edges = seed_bins(game, bins, max_seeds)
    keep = _keep(states, unsolved, count, [_bin_of(game.seeds_in_play(s), edges) for s in states], len(edges))
    states, values = [states[i] for i in keep], values[keep]
    size = game.board_size
    drawn = {"seed": seed, "openings": list(openings), "players": list(players),
             "bins": [list(edge) for edge in edges], "db_seeds": db_seeds, "drawn": len(unsolved),
             "unsolved": int(unsolved.sum()), "seconds": round(time.perf_counter() - start, 1),
             "drawing_seconds": round(drawn_seconds, 1)}
    return make_set(game, "margin" if kind.exact_margins else "result", [s[:size] for s in states],
                    [game.to_move(s) for s in states], values, drawn)


def _value(game, states, db, kind, tt_bits: int, workers: int, progress: bool):
    """Every legal move of each of ``states`` valued by the solver on ``workers`` threads, each with
    a solver of its own: (values, unsolved)."""
    from mancala_marl.endgame import solver

    values = np.full((len(states), game.actions), ILLEGAL, dtype=np.int8)
    unsolved = np.zeros(len(states), dtype=bool)
    local = threading.local()
    lock = threading.Lock()

    with progress_bar(disable=not progress) as bar:
        task = bar.add_task(f"valuing every move of {len(states)} positions", total=len(states))

        def solve(i: int) -> None:
            if not hasattr(local, "solver"):
                local.solver = solver(db, tt_bits)
            ask = local.solver.move_values if kind.exact_margins else local.solver.move_results
            if not kind.covers_every_position:
                # a search with a budget: what it settles must not depend on what the thread solved
                # before, so that a set is the same on any number of workers
                local.solver.table.clear()
            try:
                for pit, value in ask(states[i]).items():
                    values[i, pit] = value
            except NotSolved:
                unsolved[i] = True
            with lock:
                bar.advance(task)

        # the slow positions (most seeds in play) first, so that no thread is left with them at the end
        order = sorted(range(len(states)), key=lambda i: -game.seeds_in_play(states[i]))
        with ThreadPoolExecutor(max_workers=workers) as pool:
            for done in [pool.submit(solve, i) for i in order]:
                done.result()
    return values, unsolved


__all__ = ["OPENINGS", "PLAYERS", "build_set"]
