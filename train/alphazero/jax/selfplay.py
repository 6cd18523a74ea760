"""Self-play of a whole batch of games at once with mctx's Gumbel MuZero search, as Pgx's AlphaZero
example plays it: one ``lax.scan`` of ``moves`` steps over ``games`` games, each finished game
started again at once (``auto_reset``), the search's ``action_weights`` (the policy improved by
its completed Q-values) as the policy target.

Mancala games have extra turns: a transition's ``discount`` in the search, and in the value
targets, is +1 where the same player moves again (an extra turn, or the other player's pass), -1
where the mover changes and 0 where the game ends, so that every value is from the side of the
player to move at its node. Rewards are the mover's.
"""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp
import mctx

from mancala_marl.jax.crosscheck import pick_legal

from .network import forward


class Positions(NamedTuple):
    """One self-play step of every game ((moves, games, ...) after the scan)."""

    obs: jax.Array       # the observation of the player to move (the network's input, before features)
    mask: jax.Array      # legal moves
    policy: jax.Array    # the search's improved policy: the policy target
    reward: jax.Array    # the mover's reward for the move played
    discount: jax.Array  # +1 same mover next, -1 the other, 0 the end (also a truncation)
    ended: jax.Array     # the game ended (or was truncated) with this move
    first: jax.Array     # player_0 moved
    random: jax.Array    # a random opening move, not the search's: not learned from
    search_value: jax.Array  # the root search's value, from the mover's side


def transition(env, state, action):
    """``env.step`` of a batch, with the mover's reward and the discount of the transition."""
    mover = state.current_player
    state = jax.vmap(env.step)(state, action)
    ended = state.terminated | state.truncated
    reward = jnp.take_along_axis(state.rewards, mover[:, None], axis=1)[:, 0]
    discount = jnp.where(ended, 0.0, jnp.where(state.current_player == mover, 1.0, -1.0))
    return state, reward, discount, ended


def evaluate(params, features, state):
    """The network's (prior logits, value) of a batch of states, as the search reads them."""
    logits, value = forward(params, features(state.observation))
    # illegal moves get no prior (mctx masks them at the root only)
    logits = jnp.where(state.legal_action_mask, logits - logits.max(-1, keepdims=True), jnp.finfo(logits.dtype).min)
    return logits, value


def search_fn(env, features, sims: int, gumbel_scale: float = 1.0):
    """``(params, key, state) -> mctx PolicyOutput`` of a batch of live positions."""
    def recurrent_fn(params, key, action, state):
        del key
        state, reward, discount, ended = transition(env, state, action)
        logits, value = evaluate(params, features, state)
        return mctx.RecurrentFnOutput(reward=reward, discount=discount, prior_logits=logits,
                                      value=jnp.where(ended, 0.0, value)), state

    def search(params, key, state):
        logits, value = evaluate(params, features, state)
        root = mctx.RootFnOutput(prior_logits=logits, value=value, embedding=state)
        return mctx.gumbel_muzero_policy(params, key, root, recurrent_fn, sims,
                                         invalid_actions=~state.legal_action_mask,
                                         qtransform=mctx.qtransform_completed_by_mix_value,
                                         gumbel_scale=gumbel_scale)
    return search


def selfplay_fn(env, features, games: int, moves: int, sims: int, opening: int = 0):
    """``(params, key) -> Positions`` of ``moves`` steps of ``games`` games from the start (not
    jitted: the caller jits it, or maps it over devices). With ``opening`` > 0 each game first
    plays 0..opening uniformly random moves, drawn per game, as the torch backend's ``--opening``:
    self-play from the one standard start seldom reaches the positions other openings lead to."""
    search = search_fn(env, features, sims)
    start = jax.vmap(env.init)(jax.random.split(jax.random.key(0), games))  # every game starts alike

    def openings(key):
        return jax.random.randint(key, (games,), 0, opening + 1)

    def selfplay(params, key):
        def step(carry, key):
            state, left = carry
            searching, drawing, next_opening = jax.random.split(key, 3)
            out = search(params, searching, state)
            random = left > 0
            action = jnp.where(random, pick_legal(jax.random.uniform(drawing, (games,)), state.legal_action_mask),
                               out.action)
            after, reward, discount, ended = transition(env, state, action)
            positions = Positions(state.observation, state.legal_action_mask, out.action_weights, reward, discount,
                                  ended, state.current_player == 0, random, out.search_tree.summary().value)
            restart = jax.tree_util.tree_map(
                lambda fresh, old: jnp.where(ended.reshape(-1, *[1] * (old.ndim - 1)), fresh, old), start, after)
            return (restart, jnp.where(ended, openings(next_opening), left - 1)), positions

        first, key = jax.random.split(key)
        return jax.lax.scan(step, (start, openings(first)), jax.random.split(key, moves))[1]
    return selfplay


def value_targets(positions: Positions, value_q: float = 0.0):
    """(values, valid) of each step (moves, games): the game's outcome from the side of the player
    to move there, chained back through the discounts, blended with the root search's value by
    ``value_q`` (as the torch backend's ``--value-q``: the search's value carries less of one
    game's luck); valid where the game ended within the scan (the positions of a game still going
    at its end have no outcome yet, and are dropped) and the search chose the move (not a random
    opening move)."""
    def back(later, step):
        reward, discount = step
        value = reward + discount * later
        return value, value

    _, values = jax.lax.scan(back, jnp.zeros_like(positions.reward[0]), (positions.reward, positions.discount),
                             reverse=True)
    valid = (jnp.cumsum(positions.ended[::-1], axis=0)[::-1] > 0) & ~positions.random
    return (1.0 - value_q) * values + value_q * positions.search_value, valid
