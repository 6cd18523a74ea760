"""Score a policy against the arena's baselines, for the examples (``mancala_marl.train.arena``).

Kept free of any RL library so every example's virtualenv can import it.
"""

from __future__ import annotations

from mancala_marl.agents import Policy
from mancala_marl.train.arena import arena

KEYS = ("games", "wins", "draws", "losses", "win_rate", "ci95", "mean_margin")


def evaluate(policy: Policy, game, opponents, games_per_seat: int, seed: int = 0, opening: int = 2) -> dict:
    """``policy`` against each named baseline (``mancala_marl.agents.make_policy`` specs such as ``"greedy"`` or
    ``"alphabeta:depth=4"``) with the arena's conventions: ``games_per_seat`` games in each seat,
    game ``i`` of both seats from the same ``opening`` random moves (so deterministic baselines
    still meet different positions).

    Returns ``{opponent: {"overall": {...}, "first": {...}, "second": {...}}}``, each with the
    arena's games, wins, draws, losses, win_rate, ci95 (95% Wilson interval) and mean_margin (seeds,
    policy minus opponent); "first" holds the games where ``policy`` was player_0.
    """
    results = {}
    for name in opponents:
        summary = arena(game, policy, name, n=games_per_seat, seed=seed, opening=opening)
        parts = {"overall": summary["overall"], **summary["seats"]}
        results[name] = {part: {k: stats[k] for k in KEYS} for part, stats in parts.items()}
    return results
