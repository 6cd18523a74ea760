"""Rule-of-thumb policies: ``max``, ``exact`` (Sungka paper) and ``simple`` (CS572 Kalah report).

Pits are numbered 0..P-1 in sowing order, so on every board the pit *nearest the own store* is
the highest-numbered one (P-1): in Kalah and Sungka the last pit before the store, in Togyz
Kumalak the 9th hole, next to the kazan in the usual drawing. All three are deterministic.
"""

from __future__ import annotations

import numpy as np

from mancala_marl.games.base import TOGYZ

from .base import Policy, register_policy


def _own_pits(game, state) -> np.ndarray:
    """(P,) seed counts of the mover's pits, in sowing order."""
    first = game.to_move(state) * (game.pits + 1)
    return state[first:first + game.pits]


def _check_live(game, state) -> None:
    if game.is_terminal(state):
        raise ValueError("the game is over: there is no move to choose")


def max_move(game, state) -> int:
    """The legal pit with the most seeds; ties go to the pit nearest the own store."""
    _check_live(game, state)
    pits = _own_pits(game, state)
    legal = game.legal_mask(state)
    counts = np.where(legal, pits, -1)
    return int(game.pits - 1 - np.argmax(counts[::-1]))  # argmax takes the first, so scan from the store


def exact_move(game, state) -> int | None:
    """The ``exact`` pit, or None when no pit qualifies (the policy then plays ``max``).

    Kalah, Sungka: the pit nearest the store whose seed count equals its distance to the store,
    so the last seed falls in the store and earns another move (Dionido & Bautista, III-D).
    Togyz Kumalak has no extra turn; the move that earns something there is a capture, so
    ``exact`` is the hole nearest the kazan whose last ball falls in an opponent's hole
    (not a tuzduk) and empties it into the mover's kazan: an even count captured, or a tuzduk made.
    """
    _check_live(game, state)
    pits = _own_pits(game, state)
    p = game.pits
    if game.spec[0] != TOGYZ:
        for pit in range(p - 1, -1, -1):
            if pits[pit] == p - pit:
                return pit
        return None
    mover = game.to_move(state)
    for hole in range(p - 1, -1, -1):
        balls = int(pits[hole])
        if balls == 0:
            continue
        # With several balls the first goes back into the hole, so the last lands balls-1 on.
        ring = (mover * p + hole + (1 if balls == 1 else balls - 1)) % (2 * p)
        if ring // p == mover or state[game.board_size + 1 + mover] == ring % p:
            continue  # our own side, or our tuzduk (always empty: its balls go to our kazan)
        cell = ring + 1 if ring >= p else ring  # board index (player_1's holes follow player_0's kazan)
        after = state.copy()
        game.apply(after, hole)
        if after[cell] == 0:  # the last ball landed there, so only a capture can empty it
            return hole
    return None


@register_policy("max")
class MaxPolicy(Policy):
    """The legal pit with the most seeds (ties: the pit nearest the own store)."""

    def act(self, game, state):
        return max_move(game, state)


@register_policy("exact")
class ExactPolicy(Policy):
    """The pit nearest the store whose last seed earns another move (Togyz: captures); else ``max``."""

    def act(self, game, state):
        move = exact_move(game, state)
        return max_move(game, state) if move is None else move


@register_policy("simple")
class SimplePolicy(Policy):
    """Always the non-empty pit closest to the own store (CS572 Kalah report's simple strategy)."""

    def act(self, game, state):
        _check_live(game, state)
        return int(np.flatnonzero(game.legal_mask(state))[-1])
