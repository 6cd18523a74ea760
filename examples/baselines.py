"""Score a policy against the arena's baselines (``mancala_marl.matches.arena``), and check the
examples' shared arguments (``--env-kwargs``, ``--opponents``) before any training starts.

Kept free of any RL library so every example's virtualenv can import it.
"""

from __future__ import annotations

import argparse
import inspect

from mancala_marl import ENV_MODULES
from mancala_marl.agents import Policy, check_policies
from mancala_marl.env import MancalaEnv
from mancala_marl.matches.arena import arena

KEYS = ("games", "wins", "draws", "losses", "win_rate", "ci95", "mean_margin")

# What a bad --env-kwargs or --opponents raises: bad names and values (ValueError), a missing
# network file (OSError), a policy whose extra is not installed (MissingExtraError, an ImportError).
SETUP_ERRORS = (ValueError, OSError, ImportError)


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


def env_kwargs_help(example: str) -> str:
    """``--env-kwargs`` help naming each game's own parameters, read from the envs' signatures so
    that it cannot drift from them (a Kalah example offered for every game sent Sungka users into
    a traceback from inside the workers)."""
    common = [name for name in inspect.signature(MancalaEnv).parameters if name != "game"]
    own = {game: [name for name in inspect.signature(module.env).parameters if name not in common]
           for game, module in ENV_MODULES.items()}
    rules = "; ".join(f"{game}: {', '.join(names)}" for game, names in own.items())
    return (f"JSON object of keyword arguments of the game's env(), e.g. {example}; the rule parameters are "
            f"the game's own ({rules}; defaults in README's table of games), and any game takes "
            f"{', '.join(name for name in common if name != 'render_mode')}")


def check_setup(game: str, env_kwargs: dict, opponents):
    """The rules an example will train on, after checking ``env_kwargs`` against ``game``'s env and
    making every opponent once for them; raises one of :data:`SETUP_ERRORS` naming the problem, so
    that a typo stops the run before training, not in the evaluation after it."""
    if game not in ENV_MODULES:
        raise ValueError(f"unknown game {game!r}; known games: {', '.join(ENV_MODULES)}")
    if not isinstance(env_kwargs, dict):
        raise ValueError(f"--env-kwargs must be a JSON object such as '{{\"reward\": \"result\"}}', got {env_kwargs!r}")
    rules = ENV_MODULES[game].raw_env(**env_kwargs).game
    check_policies(rules, list(opponents))
    return rules


def exit_on_bad_setup(parser: argparse.ArgumentParser, game: str, env_kwargs, opponents) -> None:
    """:func:`check_setup` for a command line: a bad setup ends it with one line and argparse's status 2."""
    try:
        check_setup(game, env_kwargs, opponents)
    except SETUP_ERRORS as error:
        parser.exit(2, f"{parser.prog}: error: {' '.join(str(error).split())}\n")
