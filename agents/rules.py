"""Rule-of-thumb policies: ``max``, ``exact`` (Sungka paper) and ``simple`` (CS572 Kalah report).

Pits are numbered 0..P-1 in sowing order, so on every board the pit *nearest the own store* is
the highest-numbered one (P-1): in Kalah and Sungka the last pit before the store, in Togyz
Kumalak the 9th hole, next to the kazan in the usual drawing. All three are deterministic.

Each choice is one compiled kernel (:func:`max_pit`, :func:`exact_pit`, :func:`random_pit`), called
by the policies here and by the vectorized env's opponents alike, over the game's own legality
kernel: a move the game forbids (an Oware house that would not feed the opponent) is never
chosen. What ``exact`` aims for is the game's declaration (``Game.exact_kernel``): the store in
Kalah and Sungka, a capture in Togyz Kumalak and Oware.
"""

from __future__ import annotations

import numpy as np

from mancala_marl._compile import kernel
from mancala_marl.games.base import SPEC_PITS, action_count
from mancala_marl.games.dispatch import exact_move as _exact_move
from mancala_marl.games.dispatch import legal_moves

from .base import Policy, check_game_on, register_policy
from .pcg64 import pcg64_below


@kernel
def max_pit(state, spec, mask):
    """The legal pit with the most seeds; ties go to the pit nearest the own store (highest
    index); -1 when there is no legal move. ``mask`` is (actions,) bool scratch. (Where an action
    also names a direction, action ``a`` plays pit ``a % P``.)"""
    pits = spec[SPEC_PITS]
    first = state[2 * pits + 2] * (pits + 1)
    legal_moves(state, spec, mask)
    best, best_count = -1, -1
    for p in range(action_count(spec)):
        if mask[p] and state[first + p % pits] >= best_count:
            best, best_count = p, state[first + p % pits]
    return best


@kernel
def exact_pit(state, spec, scratch, mask):
    """The game's ``exact`` pit if it is legal, else :func:`max_pit`. ``scratch`` is a spare row
    of the state's shape, ``mask`` (P,) bool scratch."""
    pit = _exact_move(state, spec, scratch)
    if pit >= 0:
        legal_moves(state, spec, mask)
        if mask[pit]:
            return pit
    return max_pit(state, spec, mask)


@kernel
def random_pit(state, spec, rng, mask):
    """A uniform legal pit drawn like ``rng.choice(np.flatnonzero(legal_mask))`` from the PCG64
    row ``rng`` (see :mod:`mancala_marl.agents.pcg64`)."""
    k = pcg64_below(rng, legal_moves(state, spec, mask))
    for p in range(action_count(spec)):
        if mask[p]:
            if k == 0:
                return p
            k -= 1
    return -1


def max_move(game, state) -> int:
    """The legal pit with the most seeds; ties go to the pit nearest the own store."""
    check_game_on(game, state)
    return int(max_pit(state, game.spec, np.empty(game.actions, dtype=np.bool_)))


def exact_move(game, state) -> int | None:
    """The game's ``exact`` pit, or None when no legal pit qualifies (the policy then plays ``max``).

    Kalah, Sungka: the pit nearest the store whose seed count equals its distance to the store,
    so the last seed falls in the store and earns another move (Dionido & Bautista, III-D).
    Togyz Kumalak has no extra turn; the move that earns something there is a capture, so
    ``exact`` is the hole nearest the kazan whose last ball empties an opponent's hole into the
    mover's kazan; likewise Oware's is the house nearest the store that captures.
    """
    check_game_on(game, state)
    pit = int(type(game).exact_kernel(state, game.spec, state.copy()))
    return pit if pit >= 0 and game.legal_mask(state)[pit] else None


@register_policy("max")
class MaxPolicy(Policy):
    """The legal pit with the most seeds (ties: the pit nearest the own store)."""

    def act(self, game, state):
        return max_move(game, state)


@register_policy("exact")
class ExactPolicy(Policy):
    """The pit nearest the store whose last seed earns another move (Togyz, Oware: captures); else ``max``."""

    def act(self, game, state):
        check_game_on(game, state)
        return int(exact_pit(state, game.spec, state.copy(), np.empty(game.actions, dtype=np.bool_)))


@register_policy("simple")
class SimplePolicy(Policy):
    """Always the legal pit closest to the own store (CS572 Kalah report's simple strategy)."""

    def act(self, game, state):
        check_game_on(game, state)
        return int(np.flatnonzero(game.legal_mask(state))[-1])
