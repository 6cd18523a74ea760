"""The ranges of the counts people type: games, workers, opening moves, steps, sizes, shares.

Every command (and anything else that takes a count from a person, a web request included) checks
its counts here, where they enter, so that a slip of the keyboard (``-n 99999999999999999999``)
is one line of error rather than a run that fills the memory or never ends. A policy's own
parameters (``alphabeta:depth=``, ``alphazero:time=``) have their ranges in their declarations.
A run's setting that is such a count is declared with :func:`limit`, which gives it the count's
range under its own name (``limit("envs", "n_envs", default=8)``), so that no range is written twice.

``check_count("games", 10**20)`` raises ``ValueError: games must be <= 1000000 (a million games
a seat pin a win rate to 0.001), got 100000000000000000000; it takes 1..1000000``.
"""

from __future__ import annotations

import dataclasses

from mancala_marl.errors import BadInput
from mancala_marl.games.base import MAX_MOVES
from mancala_marl.games.params import Param

MILLION, BILLION = 1_000_000, 1_000_000_000

LIMITS: dict[str, Param] = {param.name: param for param in (
    Param("games", int, 100, "games in each seat", low=1, high=MILLION,
          why_high="a million games a seat pin a win rate to 0.001"),
    Param("workers", int, 1, "parallel processes", low=1, high=256),
    Param("opening", int, 0, "random moves at the start of each game", low=0, high=MAX_MOVES,
          why_high="no game is longer"),
    Param("timesteps", int, 600_000, "moves a learner trains on", low=1, high=100 * BILLION),
    Param("envs", int, 8, "games played at once", low=1, high=65_536),
    Param("steps", int, 1, "optimiser steps, epochs or rounds", low=1, high=BILLION),
    Param("generations", int, 1, "self-play generations", low=1, high=MILLION),
    Param("positions", int, 1, "positions held or labelled at once", low=1, high=100 * MILLION,
          why_high="more would not fit in memory"),
    Param("graded", int, 60, "positions graded against perfect play", low=1, high=100_000,
          why_high="one can take a minute to solve"),
    Param("batch_size", int, 256, "positions per optimiser step", low=1, high=MILLION),
    Param("sims", int, 200, "simulations per move", low=0, high=MILLION),
    Param("every", int, 1, "steps between two evaluations, checkpoints or snapshots", low=0, high=100 * BILLION),
    Param("minutes", float, 1.0, "minutes of a run", low=0.001, high=60 * 24 * 365),
    Param("interval", float, 5.0, "minutes between two snapshots (0: none between)", low=0.0, high=60 * 24 * 365),
    Param("share", float, 0.0, "a chance or a share of a whole", low=0, high=1),
    Param("learning_rate", float, 1e-3, "the optimiser's step size", low=1e-8, high=1),
)}


def limit(kind: str, name: str | None = None, **changes) -> Param:
    """The declaration of a setting that takes the range of ``kind`` (a key of :data:`LIMITS`),
    named ``name`` (default: ``kind``), with ``changes`` to its default, doc or reasons, or a
    narrower range (``low=1`` for an interval that must not be 0); never a wider one, so that
    this module keeps the bounds."""
    base = LIMITS[kind]
    param = dataclasses.replace(base, name=name or kind, **changes)
    if param.type is not base.type or param.low < base.low or param.high > base.high:
        raise TypeError(f"setting {param.name}: {kind} takes {base.kind} {base.bounds}, "
                        f"not {param.kind} {param.bounds}")
    return param


def check_count(kind: str, value, name: str | None = None):
    """``value`` checked against the range of ``kind`` (a key of :data:`LIMITS`): returned as an
    int (a float for ``minutes``, ``interval``, ``share`` and ``learning_rate``), or a one-line ValueError that names ``name`` (default: ``kind``),
    the value and the range."""
    return limit(kind, name).check(value)


def check_workers(workers, jobs: int, name: str = "workers", unit: str = "job") -> int:
    """``workers`` checked (:func:`check_count`) and no more than the ``jobs`` there are to share
    (``unit``: what a job is, for the message): more processes than jobs would start only to sit idle."""
    workers = check_count("workers", workers, name)
    if workers > jobs:
        raise BadInput(f"{name} must be <= {jobs} (one {unit} each at least; there are {jobs}), got {workers}")
    return workers
