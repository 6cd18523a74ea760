"""The engines' view of a position: what ``alphabeta`` makes of each move (the final margin it
sees, in seeds, for the player to move), what share of ``alphazero``'s visits each move gets and
its value (-1..1), and, where the perfect-play databases cover the position, each move's exact
margin. Each search runs under the server's time cap."""

from __future__ import annotations

import threading

import numpy as np

from mancala_marl.agents import make_policy
from mancala_marl.errors import BadInput, NotSolved

from .games import search_in_background

ENGINES = ("alphabeta", "alphazero")
_perfect: dict = {}  # (game, rules) -> its perfect policy once its database is ready
_lock = threading.Lock()


def analyse(game, state, engine: str, move_time: float) -> dict:
    """``{"engine", "value", "best", "moves": [{"pit", "value"[, "share"]}], "perfect"}``."""
    if engine not in ENGINES:
        raise BadInput(f"engine must be one of {', '.join(ENGINES)}, got {str(engine)[:40]!r}")
    if game.is_terminal(state):
        raise BadInput("the game is over: there is no move to weigh")
    legal = np.flatnonzero(game.legal_mask(state))
    view = (_alphabeta if engine == "alphabeta" else _alphazero)(game, state, legal, move_time)
    view["engine"], view["perfect"] = engine, perfect(game, state, move_time)
    return view


def _alphabeta(game, state, legal, move_time: float) -> dict:
    mover, moves = game.to_move(state), []
    search = make_policy("alphabeta", depth=64, time_limit=max(move_time / len(legal), 0.001), tt_bits=18)
    for pit in legal:
        child = game.apply(state.copy(), int(pit))
        if game.is_terminal(child):
            s = game.scores(child)
            value = s[mover] - s[1 - mover]
        else:
            search.act(game, child)
            value = search.last_value if game.to_move(child) == mover else -search.last_value
        moves.append({"pit": int(pit), "value": int(value)})
    best = max(moves, key=lambda m: m["value"])
    return {"value": best["value"], "best": best["pit"], "unit": "seeds", "moves": moves}


def _alphazero(game, state, legal, move_time: float) -> dict:
    policy = make_policy("alphazero", time=move_time)
    policy.prepare(game)  # a ValueError for rules no shipped network was trained on
    best = policy.act(game, state)
    root = policy.root_statistics()
    if root is None:  # a forced move: nothing searched
        return {"value": None, "best": best, "unit": "visit share", "sims": 0,
                "moves": [{"pit": int(p), "share": 1.0, "value": None} for p in legal]}
    if root["visits"].sum() == 0:  # a machine so busy that the time cap held one simulation:
        prior = root["prior"].astype(float)  # the network's own shares, unsearched
        return {"value": None, "best": best, "unit": "prior share", "sims": int(policy.last_sims),
                "moves": [{"pit": int(p), "share": round(prior[p] / prior[legal].sum(), 4), "value": None}
                          for p in legal]}
    visits = root["visits"].astype(float)
    values = root["value_sum"].astype(float)
    moves = [{"pit": int(p), "share": round(visits[p] / visits.sum(), 4),
              "value": round(values[p] / visits[p], 3) if visits[p] else None} for p in legal]
    return {"value": round(values.sum() / visits.sum(), 3), "best": best, "unit": "visit share",
            "sims": int(policy.last_sims), "moves": moves}


def perfect(game, state, move_time: float) -> dict | None:
    """Each legal move's exact final margin for the mover and the seeds it gives away, from the
    ``perfect`` policy (the endgame databases and a search under the server's time cap), or None
    where it does not cover the position, has no database for the rules yet, or is not installed.
    A database is built on first use (seconds to a minute): in the background, not in a request."""
    key = (game.name, game.cli_spec())
    with _lock:
        if key not in _perfect:
            _perfect[key] = None
            search_in_background(_prepare, key, game)  # at a search's priority, as the searches
        policy = _perfect[key]
    if policy is None:
        return None
    try:
        with _lock:  # a solver's table is not shared between threads
            policy.time_limit = move_time
            values = policy.move_values(game, state)
    except (NotSolved, BadInput):  # not within the time cap, or a position the databases do not cover
        return None
    best = max(values.values())
    return {"best": best, "moves": [{"pit": int(p), "value": int(v), "gives_away": int(best - v)}
                                    for p, v in sorted(values.items())]}


def _prepare(key, game) -> None:
    try:
        policy = make_policy("perfect")  # unknown where agents/perfect.py is not installed
        policy.prepare(game)
    except BadInput:  # no such policy, or a game without a database: stays None
        return
    with _lock:
        _perfect[key] = policy
