"""The JAX engine held to the numba engine, move for move: :func:`crosscheck` plays random games
with the JAX environment (a vmapped ``lax.scan``), replays every move with the numba batch engine
and compares, after every step of every game, the whole flat state, the player to move, the legal
mask, the end, the truncation and the rewards. tests/jax runs it on 5,000 games per rule set;
benchmarks/jax_crosscheck.py on a million.
"""

from __future__ import annotations

import functools

import jax
import numpy as np

from .. import batch
from ..games.base import GAME_OVER
from .env import MancalaEnv
from .rules import pick_legal


CHUNK = 32  # rows of crosscheck_rule_sets' compiled step


class Mismatch(AssertionError):
    """The two engines disagree; the message names the game, the step, the row and both values."""


@functools.lru_cache(maxsize=16)
def _player(env: MancalaEnv, steps: int):
    """A jitted function playing ``steps`` random moves in every game of a batch, with the record
    of each step: (states, key) -> (states, (actions, boards, players, masks, ends, cuts, rewards))."""
    step = jax.vmap(env.step)

    def one(states, key):
        actions = pick_legal(jax.random.uniform(key, states.current_player.shape), states.legal_action_mask)
        states = step(states, actions)
        return states, (actions, states._board, states.current_player, states.legal_action_mask,
                        states.terminated, states.truncated, states.rewards)

    return jax.jit(lambda states, key: jax.lax.scan(one, states, jax.random.split(key, steps)))


def crosscheck(env: MancalaEnv, games: int, seed: int = 0, chunk: int = 20_000,
               record_bytes: int = 64 << 20) -> dict:
    """Play ``games`` random games on ``env`` and on the numba engine side by side, ``chunk`` games
    at a time; raises :class:`Mismatch` at the first difference. Returns what was compared:
    ``{"games", "moves", "longest", "truncated"}``."""
    game = env.game
    totals = {"games": 0, "moves": 0, "longest": 0, "truncated": 0}
    for first in range(0, games, chunk):
        n = min(chunk, games - first)
        steps = max(1, min(64, record_bytes // (n * game.state_size * 4)))
        play = _player(env, steps)
        states = jax.vmap(env.init)(jax.random.split(jax.random.PRNGKey(0), n))
        key = jax.random.fold_in(jax.random.PRNGKey(seed), first)
        numba_states = batch.init_states(game, n)
        if getattr(game, "random_start", False):  # numba plays from the starts JAX drew (tested apart)
            numba_states = np.stack([game.state_from(board) for board in np.asarray(states._board)])
        done = np.zeros(n, bool)
        t = 0
        while not done.all():
            key, sub = jax.random.split(key)
            states, record = play(states, sub)
            for row in zip(*(np.asarray(x) for x in record)):
                t += 1
                totals["moves"] += int((~done).sum())
                done = _compare_step(env, numba_states, done, t, first, *row)
                if done.all():
                    break
        totals["games"] += n
        totals["longest"] = max(totals["longest"], t)
        totals["truncated"] += int(np.asarray(states.truncated).sum())
    return totals


def _compare_step(env, numba_states, done, t, first, actions, boards, players, masks, ends, cuts, rewards):
    """Replay step ``t`` on the rows that were still on, compare everything; the new ``done``."""
    game = env.game
    live = np.flatnonzero(~done)
    before = numba_states[live]
    after = before.copy()
    status = batch.apply_moves(game, after, actions[live])
    if (status != 0).any():
        i = live[np.flatnonzero(status != 0)[0]]
        raise Mismatch(f"{game!r}, step {t}, game {first + i}: the JAX mask allowed {actions[i]}, numba refused it")
    numba_states[live] = after
    over = numba_states[:, game.to_move_index] == GAME_OVER
    expected_players = players.copy()  # a finished game's step changes nothing, its player included
    mover = before[:, game.to_move_index]
    expected_players[live] = np.where(over[live], 1 - mover, after[:, game.to_move_index])
    stores = [game.pits, 2 * game.pits + 1]
    expected_rewards = np.zeros_like(rewards)
    if env.reward_type == "score_diff":
        gain = after[:, stores] - before[:, stores]
        expected_rewards[live, 0] = gain[:, 0] - gain[:, 1]
        expected_rewards[live, 1] = -expected_rewards[live, 0]
    else:
        for i in live[over[live]]:  # the game's own returns: a goal but most seeds is not the stores'
            expected_rewards[i] = game.returns(numba_states[i])
    cut = ~over & (t >= env.max_moves)
    where = f"{game!r}, step {t}"
    for what, got, expected in [("flat state", boards, numba_states), ("end", ends, over),
                                ("player to move", players, expected_players),
                                ("legal mask", masks, batch.legal_masks(game, numba_states) | over[:, None]),
                                ("truncated", cuts, cut), ("rewards", rewards, expected_rewards)]:
        if not np.array_equal(got, expected):
            bad = np.flatnonzero((got != expected).reshape(len(got), -1).any(1))
            raise Mismatch(f"{where}, game {first + bad[0]} ({len(bad)} games differ): {what} JAX "
                           f"{got[bad[0]].tolist()}, numba {expected[bad[0]].tolist()}")
    return done | over | cut


def crosscheck_rule_sets(games, plays: int = 4, seed: int = 0) -> dict:
    """The JAX family held to the numba family on many rule sets at once: ``plays`` random games of
    each numba :class:`~mancala_marl.games.Family` in ``games``, side by side in one batch whose
    rows are different games, with one compiled step for all of them (the rules read from each
    row's spec, the flat states padded to the largest board). After every move, every cell of each
    row (the padding left zero), its legal mask (none past its own actions) and its end are
    compared with numba's; raises :class:`Mismatch` at the first difference. Returns
    ``{"rule_sets", "games", "moves"}``."""
    from . import family

    size, actions = max(game.state_size for game in games), max(game.actions for game in games)
    head = family.head_size(games)
    rows = [game for game in games for _ in range(plays)]
    specs = np.stack([np.asarray(family.spec_of(game)) for game in rows])
    flats = np.zeros((len(rows), size), np.int32)
    rng = np.random.default_rng(seed)
    cpu = [game.init(rng) for game in rows]  # (a random start drawn once, for both)
    for i, game in enumerate(rows):
        flats[i, :game.state_size] = cpu[i]

    def moved(flat, action, spec):
        after = family.apply(flat, action, spec, actions, head)
        return after, family.legal(after, spec, actions, head)

    step = jax.jit(jax.vmap(moved))
    masks = np.array(jax.jit(jax.vmap(lambda flat, spec: family.legal(flat, spec, actions, head)))(flats, specs))
    live = np.arange(len(rows))
    width, moves, t = min(CHUNK, len(rows)), 0, 0
    while live.size:
        picks = np.zeros(len(rows), np.int32)
        for i in live:
            game, expected = rows[i], cpu[i]
            if not (np.array_equal(masks[i, :game.actions], game.legal_mask(expected)) and not masks[i, game.actions:].any()):
                raise Mismatch(f"{game!r}, step {t}, row {i}: legal mask JAX {masks[i].tolist()}, numba "
                               f"{game.legal_mask(expected).tolist()} in {expected.tolist()}")
            picks[i] = rng.choice(np.flatnonzero(masks[i]))
        # the live rows in chunks of one size (the last one filled up with rows again, unused), so
        # that a step costs what the games still on need, and the step is compiled once
        for chunk in range(0, live.size, width):
            part = np.resize(live[chunk:chunk + width], width)
            after, after_masks = (np.asarray(x) for x in step(flats[part], picks[part], specs[part]))
            for k, i in enumerate(live[chunk:chunk + width]):
                game = rows[i]
                before, cpu[i] = cpu[i], game.apply(cpu[i], int(picks[i]))
                moves += 1
                if not (np.array_equal(after[k, :game.state_size], cpu[i]) and not after[k, game.state_size:].any()):
                    raise Mismatch(f"{game!r}, step {t + 1}, row {i}: {before.tolist()} after {picks[i]}: flat state "
                                   f"JAX {after[k].tolist()}, numba {cpu[i].tolist()}")
                flats[i], masks[i] = after[k], after_masks[k]
        t += 1
        live = np.array([i for i in live if not rows[i].is_terminal(cpu[i])], np.int64)
    return {"rule_sets": len(games), "games": len(rows), "moves": moves}
