"""Score a policy against the arena's baselines (``agents.make_policy``), for the examples.

Kept free of any RL library so every example's virtualenv can import it.
"""

from __future__ import annotations

from agents import Policy, make_policy


def evaluate(policy: Policy, game, opponents, games: int, seed: int = 0) -> dict[str, float]:
    """Score of ``policy`` against each named baseline over ``games`` games, alternating seats
    (the policy is player_0 in even-numbered games): (wins + draws / 2) / games, in [0, 1]."""
    if games < 1:
        raise ValueError(f"games must be >= 1, got {games}")
    results = {}
    for name in opponents:
        opponent = make_policy(name)
        points = 0.0
        for number in range(games):
            seat = number % 2
            opponent.reset(seed + number)
            state = game.init()
            while not game.is_terminal(state):
                mover = policy if game.to_move(state) == seat else opponent
                game.apply(state, mover.act(game, state.copy()))
            points += (1.0 + float(game.returns(state)[seat])) / 2
        results[name] = points / games
    return results
