"""Self-play: the games of one generation, all searched at once, and the targets they teach."""

from __future__ import annotations

import numpy as np

from mancala_marl.agents import alphazero as az_policy  # the policy that plays the trained network
from mancala_marl.agents import mcts
from mancala_marl.games import MAX_MOVES

from .config import AlphaZeroConfig


def completed_q_target(logits, value, visits, value_sum, mask, visit_init: float = 50.0, scale: float = 0.1):
    """The policy target of Gumbel AlphaZero (Danihelka et al., 2022, "Policy improvement by
    planning with Gumbel"): ``softmax(logits + sigma(completed Q))`` over the legal moves.

    With few simulations a move's share of the visits is a coarse, noisy target (root noise
    included); the Q-values the search found say how good each tried move is. A visited move's Q
    is its mean value; an unvisited one gets a mix of the network's value and the prior-weighted
    Q of the visited moves. The completed Qs are rescaled to [0, 1] over the legal moves and
    weighted by ``(visit_init + most visits) * scale``: the more the search looked, the more its
    findings count. ``logits``, ``visits``, ``value_sum``, ``mask``: (P,) at the root, values from
    the side of its player to move; ``value``: the network's value there."""
    prior = _softmax(logits, mask)
    seen = (visits > 0) & mask
    q = np.where(seen, value_sum / np.maximum(visits, 1), 0.0)
    total = visits[seen].sum()
    mixed = value
    if total > 0:
        mixed = (value + total * (prior[seen] * q[seen]).sum() / prior[seen].sum()) / (1.0 + total)
    completed = np.where(seen, q, mixed)
    low, high = completed[mask].min(), completed[mask].max()
    completed = (completed - low) / max(high - low, 1e-8)
    return _softmax(logits + (visit_init + visits.max()) * scale * completed, mask)


def _softmax(logits, mask):
    """Probabilities over the legal moves (0 on the others)."""
    p = np.exp(np.where(mask, logits - logits[mask].max(), -np.inf))
    return p / p.sum()


def random_opening(game, state, rng, moves: int) -> int:
    """Play up to ``moves`` uniformly random moves on ``state`` (in place), stopping before one that
    would end the game; returns the number played. (The Gymnasium views draw theirs with
    :func:`mancala_marl.single_agent.random_opening`, whose draws differ; the shipped Sungka
    network was trained with this one, so its command reproduces it only with this one.)"""
    for played in range(moves):
        after = state.copy()
        game.apply(after, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
        if game.is_terminal(after):
            return played
        state[:] = after
    return moves


def self_play(game, net, config: AlphaZeroConfig, rng, forest: mcts.Forest, progress=None):
    """``config.games`` games of ``net`` (``features -> (logits, values)``) against itself, all at
    once. Returns the positions
    (observations, masks, visit distributions, results from the mover's side) and statistics.

    With ``config.opening`` > 0 each game first plays 0..opening random moves, drawn per game:
    self-play from the one standard start visits few of the positions that other openings lead
    to, and a network alone plays there without a search to correct it."""
    n = config.games
    states = np.tile(game.init(), (n, 1))
    records = [[] for _ in range(n)]  # per game: (obs, mask, policy, mover, the root search's value)
    plies = np.zeros(n, dtype=np.int64)
    if config.opening:
        for g in range(n):
            plies[g] = random_opening(game, states[g], rng, int(rng.integers(config.opening + 1)))
    live = np.ones(n, dtype=np.bool_)
    unit = az_policy.margin_unit(game)
    w = config.value_q  # each position's value: (1 - w) * the game's outcome + w * its root search's value
    out, outcomes, lengths = [], [], []

    def noise(rows):
        masks = np.array([game.legal_mask(forest.roots[g]) for g in rows])
        draws = rng.dirichlet([config.dirichlet] * game.actions, size=len(rows)) * masks
        return (draws / draws.sum(axis=1, keepdims=True)).astype(np.float32)

    while live.any():
        rows = np.flatnonzero(live)
        forest.reset(states[rows], rows)
        az_policy.search(game, net, forest, config.sims, config.c_puct, active=live, noise=noise,
                         obs_type=config.obs_type, margin_weight=config.margin_weight)
        visits = forest.root_visits()[rows].astype(np.float64)
        # the root's mean value from its mover's side (the first visit only expanded it)
        root_q = forest.value_sum[rows, 0, :].sum(axis=1) / np.maximum(visits.sum(axis=1), 1)
        obs = az_policy.observe(game, states[rows], config.obs_type)
        if config.policy_target == "completed-q":  # the network's own prior, before the root noise
            root_logits, root_values = net(az_policy.expand(game, obs, config.obs_type))
            value_sums = forest.value_sum[rows, 0, :].astype(np.float64)
        for k, g in enumerate(rows):
            mask = game.legal_mask(states[g])
            policy = visits[k] / visits[k].sum()
            target = policy if config.policy_target == "visits" else completed_q_target(
                root_logits[k].astype(np.float64), float(root_values[k]), visits[k], value_sums[k], mask)
            records[g].append((obs[k], mask, target.astype(np.float32), game.to_move(states[g]), root_q[k]))
            if plies[g] < config.temperature_moves:
                move = int(rng.choice(game.actions, p=policy))
            else:
                move = int(np.argmax(np.where(mask, visits[k], -1)))
            game.apply(states[g], move)
            plies[g] += 1
            finished = game.is_terminal(states[g])
            if finished or plies[g] >= MAX_MOVES:
                live[g] = False
                # A game stopped at MAX_MOVES (balls circling for ever) teaches a draw.
                result = game.returns(states[g]) if finished else np.zeros(2)
                first_margin = float(np.subtract(*game.scores(states[g]))) if finished else 0.0
                value = [mcts.utility(side * first_margin, config.margin_weight, unit) for side in (1.0, -1.0)]
                outcomes.append(result[0])
                lengths.append(plies[g])
                out.extend((o, m, p, (1 - w) * value[mover] + w * q) for o, m, p, mover, q in records[g])
                if progress is not None:
                    progress()
    obs, masks, policies, results = (np.array(column) for column in zip(*out))
    stats = {"first_player_score": float(np.mean(outcomes)) * 0.5 + 0.5, "mean_length": float(np.mean(lengths)),
             "positions": len(results)}
    return (obs, masks, policies, results), stats

