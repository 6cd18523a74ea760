"""Games between a policy and baselines in both seats, and the rows of ``RUN_DIR/evaluations.csv``
(what ``mancala-marl plot`` draws), for every trainer: SB3's through
:class:`~mancala_marl.train.callbacks.BaselineEvalCallback`, AlphaZero's (either backend) directly.
No SB3 here, so that the JAX AlphaZero runs without the [train] extra.

:func:`play` plays one seat against one opponent with the arena's match loop (the full arena
with intervals and Elo lives in :mod:`mancala_marl.matches.arena`).
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

from mancala_marl.agents import make_policy

from .arena import play_game

CSV_FIELDS = ("timesteps", "opponent", "seat", "games", "wins", "draws", "losses", "win_rate",
              "mean_score", "mean_margin", "wall_seconds")


def play(game, policy, opponent, seat: int, games: int, seed: int = 0, opening: int = 0) -> dict:
    """``games`` games of ``policy`` in seat ``seat`` (0 first, 1 second) against ``opponent``,
    through the arena's match loop (:func:`mancala_marl.matches.arena.play_game`), each from
    ``opening`` uniformly random moves (without them, two deterministic policies play one game).

    Returns counts and means from ``policy``'s side: wins, draws, losses, win_rate,
    mean_score (its final store, seeds), mean_margin (its store minus the opponent's).
    """
    scores, margins = [], []
    for g in range(games):
        seeds = (seed + 2 * g, seed + 2 * g + 1)  # (policy's, opponent's)
        openings = np.random.default_rng([seed, g])
        if seat == 0:
            own, other, _ = play_game(game, policy, opponent, seeds, openings, opening)
        else:
            other, own, _ = play_game(game, opponent, policy, seeds[::-1], openings, opening)
        scores.append(own)
        margins.append(own - other)
    wins, draws = sum(m > 0 for m in margins), sum(m == 0 for m in margins)
    return {"games": games, "wins": int(wins), "draws": int(draws), "losses": int(games - wins - draws),
            "win_rate": wins / games, "mean_score": float(np.mean(scores)), "mean_margin": float(np.mean(margins))}


def evaluate(game, policy, opponents, games: int, seed: int = 0, opening: int = 0) -> list[dict]:
    """:func:`play` against each opponent spec in both seats; one row per (opponent, seat).
    ``opening`` random moves start the games against deterministic opponents (a random opponent
    varies the games by itself, from the usual start)."""
    rows = []
    for name in opponents:
        opponent = make_policy(name) if isinstance(name, str) else name
        for seat, seat_name in enumerate(("first", "second")):
            rows.append({"opponent": str(name), "seat": seat_name,
                         **play(game, policy, opponent, seat, games, seed, opening if opponent.deterministic else 0)})
    return rows


def append_evaluations(csv_path, rows: list[dict], timesteps: int, wall_seconds: float) -> None:
    """Append :func:`evaluate` rows, stamped with ``timesteps`` and ``wall_seconds``, to the CSV
    that ``mancala-marl plot`` reads (header written with the first rows)."""
    csv_path = Path(csv_path)
    new_file = not csv_path.exists() or csv_path.stat().st_size == 0  # empty: a crash before the header
    # A row cut off by a crash mid-write stays a short line of its own (plot leaves it out), instead
    # of running into the next row.
    cut_off = not new_file and last_byte(csv_path) != b"\n"
    with csv_path.open("a", newline="") as handle:
        if cut_off:
            handle.write("\n")
        writer = csv.DictWriter(handle, fieldnames=CSV_FIELDS, extrasaction="ignore")
        if new_file:
            writer.writeheader()
        for row in rows:
            row.update(timesteps=timesteps, wall_seconds=round(wall_seconds, 1))
            writer.writerow(row)


def last_byte(path: Path) -> bytes:
    with path.open("rb") as handle:
        handle.seek(-1, 2)
        return handle.read(1)


def model_policy(model, game, obs_type: str):
    """An in-memory ``model`` (being trained) as a greedy policy for ``game``."""
    from mancala_marl.agents.learned import ModelPolicy, algo_name, make_metadata
    return ModelPolicy(model=model, metadata=make_metadata(game, obs_type, algo_name(model)))


def win_rate_cells(rows: list[dict]) -> str:
    """:func:`evaluate` rows as one short line: ``random/f 100%  random/s 98%  ...``."""
    return "  ".join(f"{r['opponent']}/{r['seat'][0]} {100 * r['win_rate']:.0f}%" for r in rows)
