"""Observation encodings, always from the observing player's side of the board.

``"counts"`` (default), length 2P+2 plus the game's extra features, values 0..total seeds:
    own pits 0..P-1, own store, opponent's pits 0..P-1, opponent's store, then what the game adds
    (``Game.extra_features`` per pit: Togyz Kumalak's tuzduk flags, so 38 for Togyz(9, 9)).

``"paper"``, length 2P: the Sungka paper's house counts without the stores, own side first.

``"moves"``, ``counts`` then, for each of the observer's pits, what playing it does now (zeros
    for an illegal pit, or when the observer is not to move), found by playing it on a copy with
    the game's own kernels: [legal, own store gain / 10, the same player moves again, the game
    ends, seeds the opponent's pits gain / 10, the opponent's best single-move store gain in
    reply / 10 (0 when there is no reply)]. Rules, not search: no move is preferred, only
    described, which spares a network the sowing arithmetic it otherwise learns slowly.

``"turns"``, ``moves`` with a seventh feature per pit: the most that move can add to the
    observer's store margin over the whole turn it starts, following extra turns (and the
    opponent's passes) for up to ``TURN_CHAIN`` more moves, / 10. Where a turn can run to many
    moves (Sungka), that is what a move is worth now; a single move's store gain is not.

``"afterstates"``, ``turns`` then, for each of the observer's pits, the ``counts`` encoding of the
    board that playing it leaves, from the observer's side (zeros for an illegal pit). A network
    can score each move by the position it makes (:mod:`mancala_marl.agents.afterstate`), one
    evaluation shared by every pit, instead of learning the sowing's arithmetic for each pit.

A game's own encodings (``Game.custom_obs``, e.g. Togyz Kumalak's ``"tesauro"``) come from its
rules file.

All encodings are float32 so the same network input works for every obs_type. One compiled
encoder, :func:`encode_row`, serves the environments (:func:`encode`), the batch engine and the
vectorized env (:func:`encode_batch`).
"""

from __future__ import annotations

import functools

import numpy as np
from gymnasium import spaces

from mancala_marl.errors import BadInput
from ._compile import kernel
from .games.base import GAME_OVER, SPEC_PITS, Game, margin
from .games.dispatch import apply_move, encode_custom, encode_extra, legal_moves

GENERIC = ("counts", "paper", "moves", "turns", "afterstates")
COUNTS, PAPER, MOVES, TURNS, AFTERSTATES = 0, 1, 2, 3, 4  # obs ids; a game's own encodings are 5, 6, ...
COUNTS_FIRST = ("counts", "moves", "turns", "afterstates")  # encodings that start with the counts encoding
MOVE_FEATURES = 6  # per pit, in "moves"; "turns" and "afterstates" add one
PER_PIT = {"moves": MOVE_FEATURES, "turns": MOVE_FEATURES + 1, "afterstates": MOVE_FEATURES + 1}
TURN_CHAIN = 4  # moves of one turn followed after the first, as alphabeta's default max_chain
MOVE_SCALE = 10.0  # seeds per unit in the move features


def obs_types(game: Game) -> tuple[str, ...]:
    """The encodings ``game`` offers: the generic ones (``GENERIC``; not those of each pit's move
    where a move also names its way) and the game's own."""
    per_pit = game.actions == game.pits
    return tuple(t for t in GENERIC if per_pit or t not in PER_PIT) + tuple(game.custom_obs)


def all_obs_types() -> list[str]:
    """Every encoding some registered game offers (a command line's choices; each game still
    checks its own with :func:`check_obs_type`)."""
    from .games import GAMES

    # from the classes, not games built from them: building the family compiles its kernels
    return list(dict.fromkeys(t for cls in GAMES.values() for t in GENERIC + tuple(cls.custom_obs)))


def check_obs_type(game: Game, obs_type: str) -> None:
    if obs_type in PER_PIT and game.actions != game.pits:
        raise BadInput(f"obs_type {obs_type!r} describes each pit's move, and a move of {game!r} also names its "
                       "way: use one of " + ", ".join(map(repr, obs_types(game))))
    if obs_type not in obs_types(game):
        raise BadInput(f"obs_type must be one of {list(obs_types(game))} for {game.name}, got {obs_type!r}")


def obs_id(game: Game, obs_type: str) -> int:
    check_obs_type(game, obs_type)
    return (GENERIC + tuple(game.custom_obs)).index(obs_type)  # the kernels' ids, whatever the game offers


@functools.lru_cache(maxsize=256)
def _high(game_type: type, params: tuple, obs_type: str) -> np.ndarray:
    game = game_type(**dict(params))
    total = float(game.total_seeds)
    if obs_type == "counts":
        high = np.full(game.board_size + game.extra_features * game.pits, total, dtype=np.float32)
        high[game.board_size:] = 1.0
        return high
    if obs_type == "paper":
        return np.full(2 * game.pits, total, dtype=np.float32)
    if obs_type in PER_PIT:
        counts = _high(game_type, params, "counts")
        per_pit = [1, total / MOVE_SCALE, 1, 1, total / MOVE_SCALE, total / MOVE_SCALE, total / MOVE_SCALE]
        parts = [counts, np.tile(np.array(per_pit[:PER_PIT[obs_type]], np.float32), game.pits)]
        if obs_type == "afterstates":
            parts.append(np.tile(counts, game.pits))
        return np.concatenate(parts)
    return game.custom_obs_high(obs_type)


def low_bounds(game: Game, obs_type: str) -> np.ndarray:
    """Lower bounds: 0, except the opponent's pit change in ``moves`` (it can lose seeds), the
    move's own-store gain where a game's store can give seeds back (``Game.stores_can_shrink``) and a
    turn's margin gain in ``turns`` (the opponent's store can grow in the mover's turn: a Togyz
    Kumalak ball sown into the opponent's tuzduk, the seeds swept when the game ends)."""
    high = _high(type(game), tuple(game.params.items()), obs_type)
    low = np.zeros_like(high)
    if obs_type in PER_PIT:
        per_pit = PER_PIT[obs_type]
        first = observation_space(game, "counts").shape[0]
        features = low[first:first + game.pits * per_pit]
        features[4::per_pit] = -game.total_seeds / MOVE_SCALE
        if game.stores_can_shrink:  # the move's own-store gain
            features[1::per_pit] = -game.total_seeds / MOVE_SCALE
        if per_pit > MOVE_FEATURES:  # the turn's gain
            features[MOVE_FEATURES::per_pit] = -game.total_seeds / MOVE_SCALE
    return low


def observation_space(game: Game, obs_type: str = "counts") -> spaces.Box:
    check_obs_type(game, obs_type)
    high = _high(type(game), tuple(game.params.items()), obs_type)
    return spaces.Box(low=low_bounds(game, obs_type), high=high.copy(), dtype=np.float32)


@kernel
def encode_row(state, player, spec, obs, out):
    """Write ``player``'s observation ``obs`` (an obs id) of ``state`` into ``out`` (float32)."""
    pits = spec[SPEC_PITS]
    cells = 2 * pits + 2
    if obs > AFTERSTATES:
        encode_custom(state, player, spec, obs, out)
        return
    if obs == PAPER:  # own pits, then the opponent's pits
        shift = player * (pits + 1)
        for k in range(pits):
            out[k] = state[(shift + k) % cells]
            out[pits + k] = state[(shift + pits + 1 + k) % cells]
        return
    per_pit = MOVE_FEATURES + 1 if obs >= TURNS else MOVE_FEATURES if obs == MOVES else 0
    boards = pits if obs == AFTERSTATES else 0  # one counts encoding per pit after the features
    size = (out.shape[0] - pits * per_pit) // (1 + boards)  # the counts encoding's length
    _counts_row(state, player, spec, out[:size])
    if per_pit:
        _move_features(state, player, spec, per_pit, out[size:size + pits * per_pit], out[size + pits * per_pit:])


@kernel
def _counts_row(state, player, spec, out):
    """The ``counts`` encoding of ``state`` seen by ``player``: the board, then the game's extras."""
    pits = spec[SPEC_PITS]
    cells = 2 * pits + 2
    shift = player * (pits + 1)
    for k in range(cells):
        out[k] = state[(shift + k) % cells]
    if out.shape[0] > cells:
        encode_extra(state, player, spec, out[cells:])


@kernel
def turn_gain(after, player, spec, chain, stack, legal):
    """The most ``player``'s store margin can grow from ``after`` to the end of the turn (``after``
    may already be the opponent's turn or the game's end: 0), following ``player``'s further moves
    for up to ``chain`` of them; the last one followed, or one with no legal move, is scored as it
    stands. ``stack`` is (chain + 1, state size) scratch, ``legal`` (chain + 1, pits) bool."""
    pits = spec[SPEC_PITS]
    cells = 2 * pits + 2
    if after[cells] != player or chain == 0:
        return 0
    base = margin(after, pits, player)
    best = -(1 << 30)
    nxt = np.zeros(chain + 1, np.int64)  # the next pit to try at each depth
    stack[0, :] = after
    if legal_moves(stack[0], spec, legal[0]) == 0:
        return 0
    depth = 0
    while depth >= 0:
        p = nxt[depth]
        if p == pits:
            depth -= 1
            continue
        nxt[depth] += 1
        if not legal[depth, p]:
            continue
        child = stack[depth + 1]
        child[:] = stack[depth]
        apply_move(child, p, spec)
        if child[cells] == player and depth + 1 < chain and legal_moves(child, spec, legal[depth + 1]) > 0:
            depth += 1
            nxt[depth] = 0
        else:
            best = max(best, margin(child, pits, player) - base)
    return best


@kernel
def _move_features(state, player, spec, per_pit, out, boards):
    """Per pit, ``per_pit`` features of playing it into ``out``; and where ``boards`` is not
    empty, the counts encoding of the position it leaves into row ``p`` of ``boards``."""
    pits = spec[SPEC_PITS]
    cells = 2 * pits + 2
    out[:] = 0.0
    boards[:] = 0.0
    size = boards.shape[0] // pits
    if state[cells] != player:
        return
    turns = per_pit > MOVE_FEATURES
    stack = np.empty((TURN_CHAIN + 1 if turns else 0, state.shape[0]), state.dtype)
    turn_legal = np.empty((TURN_CHAIN + 1 if turns else 0, pits), np.bool_)
    own_store, their_first = player * (pits + 1) + pits, (1 - player) * (pits + 1)
    their_store = their_first + pits
    legal, replies = np.empty(pits, np.bool_), np.empty(pits, np.bool_)
    after, reply = np.empty_like(state), np.empty_like(state)
    legal_moves(state, spec, legal)
    theirs = 0
    for q in range(pits):
        theirs += state[their_first + q]
    for p in range(pits):
        if not legal[p]:
            continue
        after[:] = state
        apply_move(after, p, spec)
        if size:
            _counts_row(after, player, spec, boards[p * size:(p + 1) * size])
        o = p * per_pit
        out[o] = 1.0
        out[o + 1] = (after[own_store] - state[own_store]) / MOVE_SCALE
        out[o + 2] = after[cells] == player
        out[o + 3] = after[cells] == GAME_OVER
        now = 0
        for q in range(pits):
            now += after[their_first + q]
        out[o + 4] = (now - theirs) / MOVE_SCALE
        best = 0
        if after[cells] == 1 - player:
            legal_moves(after, spec, replies)
            for r in range(pits):
                if replies[r]:
                    reply[:] = after
                    apply_move(reply, r, spec)
                    best = max(best, reply[their_store] - after[their_store])
        out[o + 5] = best / MOVE_SCALE
        if turns:
            gain = margin(after, pits, player) - margin(state, pits, player)
            out[o + MOVE_FEATURES] = (gain + turn_gain(after, player, spec, TURN_CHAIN, stack, turn_legal)) / MOVE_SCALE


@kernel
def encode_rows(states, players, spec, obs, out):
    for i in range(states.shape[0]):
        encode_row(states[i], players[i], spec, obs, out[i])


def encode(game: Game, state: np.ndarray, player: int, obs_type: str = "counts") -> np.ndarray:
    """The observation of ``player`` (0 or 1) in ``state`` as a float32 vector."""
    out = np.empty(_size(game, obs_type), dtype=np.float32)
    encode_row(state, player, game.spec, obs_id(game, obs_type), out)
    return out


def encode_batch(game: Game, states: np.ndarray, players, obs_type: str = "counts",
                 out: np.ndarray | None = None) -> np.ndarray:
    """``(n, obs_dim)`` float32: row ``i`` of ``states`` seen by ``players[i]`` (0 or 1)."""
    players = np.ascontiguousarray(np.broadcast_to(np.asarray(players, dtype=np.int64), (states.shape[0],)))
    if out is None:
        out = np.empty((states.shape[0], _size(game, obs_type)), dtype=np.float32)
    encode_rows(states, players, game.spec, obs_id(game, obs_type), out)
    return out


def _size(game: Game, obs_type: str) -> int:
    check_obs_type(game, obs_type)
    return _high(type(game), tuple(game.params.items()), obs_type).shape[0]
