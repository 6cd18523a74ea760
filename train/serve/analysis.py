"""The engines' view of a position: what ``alphabeta`` makes of each move (the final margin it
sees, in seeds, for the player to move), what share of ``alphazero``'s visits each move gets and
its value (-1..1), and, where the perfect-play databases cover the position, each move's exact
margin. Each search runs under the server's time cap."""

from __future__ import annotations

import numpy as np

from mancala_marl.agents import make_policy

ENGINES = ("alphabeta", "alphazero")
_perfect = None


def analyse(game, state, engine: str, move_time: float) -> dict:
    """``{"engine", "value", "best", "moves": [{"pit", "value"[, "share"]}], "perfect"}``."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {str(engine)[:40]!r}")
    if game.is_terminal(state):
        raise ValueError("the game is over: there is no move to weigh")
    legal = np.flatnonzero(game.legal_mask(state))
    view = (_alphabeta if engine == "alphabeta" else _alphazero)(game, state, legal, move_time)
    view["engine"], view["perfect"] = engine, perfect(game, state)
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
    if policy._forest is None or policy._forest.visits[0, 0].sum() == 0:  # a forced move: nothing searched
        return {"value": None, "best": best, "unit": "visit share", "sims": 0,
                "moves": [{"pit": int(p), "share": float(p == best), "value": None} for p in legal]}
    visits = policy._forest.visits[0, 0].astype(float)
    values = policy._forest.value_sum[0, 0].astype(float)
    moves = [{"pit": int(p), "share": round(visits[p] / visits.sum(), 4),
              "value": round(values[p] / visits[p], 3) if visits[p] else None} for p in legal]
    return {"value": round(values.sum() / visits.sum(), 3), "best": best, "unit": "visit share",
            "sims": int(policy.last_sims), "moves": moves}


def perfect(game, state) -> dict | None:
    """Each legal move's exact final margin for the mover, from the perfect-play databases, or
    None where they do not cover the position (or no ``perfect`` policy is installed)."""
    global _perfect
    try:
        if _perfect is None:
            _perfect = make_policy("perfect")  # its databases load once per server
        values = _perfect.move_values(game, state)
    except (ValueError, AttributeError):
        return None
    best = max(values.values())
    return {"best": best, "moves": [{"pit": int(p), "value": int(v), "gives_away": int(best - v)}
                                    for p, v in sorted(values.items())]}
