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

from mancala_marl.jax.rules import pick_legal

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


class Games(NamedTuple):
    """The games in play, carried from one generation to the next."""

    state: object        # the environment's State of every game
    left: jax.Array      # random opening moves each game still plays before the search takes over


def start_fn(env, games: int, opening: int = 0):
    """``key -> Games``: ``games`` games at the start, each to open with 0..``opening`` uniformly
    random moves, drawn per game, as the torch backend's ``--opening``: self-play from the one
    standard start seldom reaches the positions other openings lead to."""
    start = jax.vmap(env.init)(jax.random.split(jax.random.key(0), games))  # every game starts alike

    def start_games(key) -> Games:
        return Games(start, jax.random.randint(key, (games,), 0, opening + 1))
    return start_games


def selfplay_fn(env, features, games: int, moves: int, sims: int, opening: int = 0):
    """``(params, key, Games) -> (Games, Positions)``: ``moves`` steps of each of ``games`` games
    (not jitted: the caller jits it, or maps it over devices). A game that ends starts again at
    once, with its own random opening; the games still going at the end are handed back to be
    carried on."""
    search = search_fn(env, features, sims)
    restart = start_fn(env, games, opening)

    def selfplay(params, key, playing: Games):
        def step(carry: Games, key):
            state, left = carry
            searching, drawing, reopening = jax.random.split(key, 3)
            out = search(params, searching, state)
            random = left > 0
            action = jnp.where(random, pick_legal(jax.random.uniform(drawing, (games,)), state.legal_action_mask),
                               out.action)
            after, reward, discount, ended = transition(env, state, action)
            positions = Positions(state.observation, state.legal_action_mask, out.action_weights, reward, discount,
                                  ended, state.current_player == 0, random, out.search_tree.summary().value)
            fresh = restart(reopening)
            carry = jax.tree_util.tree_map(lambda new, old: jnp.where(ended.reshape(-1, *[1] * (old.ndim - 1)), new, old),
                                           fresh, Games(after, left - 1))
            return carry, positions

        return jax.lax.scan(step, playing, jax.random.split(key, moves))
    return selfplay


def finished_window(like: Positions, steps: int) -> Positions:
    """``steps`` steps of ``like``'s games (``like``: one step, (games, ...)) that are all over:
    the window a run starts with. Each step ends its own game, so :func:`value_targets` resolves
    every one of them inside the window, and none is ever learned from or counted as dropped."""
    blank = jax.tree_util.tree_map(lambda a: jnp.zeros((steps, *a.shape), a.dtype), like)
    return blank._replace(ended=jnp.ones_like(blank.ended))


def value_targets(positions: Positions, value_q: float = 0.0, held: int = 0):
    """(values, learn, resolved, lost) of each step (steps, games) of ``positions``, whose first
    ``held`` steps are positions already seen by an earlier call (the carried window).

    ``values``: the game's outcome from the side of the player to move there, chained back through
    the discounts, blended with the root search's value by ``value_q`` (as the torch backend's
    ``--value-q``: the search's value carries less of one game's luck). A position is
    ``resolved`` once its game has ended, and resolved *now* when that end lies after the held
    steps (those that ended within them were resolved by the earlier call); ``learn`` is resolved
    now and chosen by the search (not a random opening move). ``lost``: positions in the first
    ``steps - held`` steps (those that leave the window) whose game has not ended yet."""
    def back(later, step):
        reward, discount = step
        value = reward + discount * later
        return value, value

    _, values = jax.lax.scan(back, jnp.zeros_like(positions.reward[0]), (positions.reward, positions.discount),
                             reverse=True)
    steps = positions.ended.shape[0]
    index = jnp.arange(steps)[:, None]
    # the step at which each position's game ends (steps where it has not ended yet)
    end = jax.lax.cummin(jnp.where(positions.ended, index, steps), axis=0, reverse=True)
    resolved = (end < steps) & (end >= held)
    lost = (end == steps) & (index < steps - held)
    return (1.0 - value_q) * values + value_q * positions.search_value, resolved & ~positions.random, resolved, lost
