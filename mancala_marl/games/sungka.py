"""Sungka, single round, as in "Mastering the Game of Sungka from Random Play" (Dionido & Bautista).

- Take all stones of a non-empty own house and sow them one per cell, skipping the opponent's
  head. On laps nothing else is skipped: the emptied house receives stones too.
- Last stone in the own head: extra turn.
- Last stone in a house that held stones before (either side): pick them all up, the one just
  dropped included, and keep sowing from the next cell (relay sowing).
- Last stone in an empty house: the move ends. On the mover's own side that is *sunog*: the stone
  and the opposite house go to the mover's head (``sunog_needs_opposite=True``: only if the
  opposite house holds stones).
- A player with empty houses passes; the game ends when all houses are empty.

Other rule sets: traditional play begins with both players sowing at the same time and goes on
over several rounds, in which a player who cannot refill every house plays on without the empty
ones ("burnt" houses), until one cannot fill any; here, as in the paper, one round, player_0
first. OpenSpiel has no Sungka.
"""

from __future__ import annotations

from .._compile import kernel
from .base import (
    GAME_OVER,
    SPEC_PITS,
    SPEC_SEEDS,
    Game,
    pits_param,
    seeds_param,
    side_is_empty,
    sow,
    spec_index,
    store_of,
)
from .family import sungka_rules
from .family_rules import DEFAULTS
from .family_text import rules_text
from .params import Param

PARAMETERS = (
    pits_param("houses", 7, "houses a side"),
    seeds_param("stones", 7, "stones in each house at the start"),
    Param("sunog_needs_opposite", bool, False,
          "sunog takes the last stone only when the opposite house holds stones"),
)
SUNOG_NEEDS_OPPOSITE = spec_index(PARAMETERS, "sunog_needs_opposite")


@kernel(refcounts=False)
def apply_move(state, house, spec):
    houses = spec[SPEC_PITS]
    sunog_needs_opposite = spec[SUNOG_NEEDS_OPPOSITE] != 0
    cells = 2 * houses + 2
    mover = state[cells]
    own_head = store_of(houses, mover)
    opponent_head = store_of(houses, 1 - mover)
    # Each lap of the board drops a stone into the mover's head, so a move makes fewer than
    # (stones + 1) laps; a longer move means the kernel itself is broken.
    max_drops = (2 * houses * spec[SPEC_SEEDS] + 1) * cells

    pos = mover * (houses + 1) + house
    stones = state[pos]
    state[pos] = 0
    drops = 0
    extra_turn = False
    while True:
        drops += stones
        pos = sow(state, pos, stones, opponent_head, cells)
        if drops > max_drops:
            raise RuntimeError("sungka: a move exceeded its bound on drops")
        if pos == own_head:
            extra_turn = True
            break
        if state[pos] > 1:  # relay sowing from a house that was not empty
            stones = state[pos]
            state[pos] = 0
            continue
        if mover * (houses + 1) <= pos < own_head:  # sunog
            opposite = 2 * houses - pos
            if state[opposite] > 0 or not sunog_needs_opposite:
                state[own_head] += state[opposite] + 1
                state[opposite] = 0
                state[pos] = 0
        break

    preferred = mover if extra_turn else 1 - mover
    if not side_is_empty(state, houses, preferred):
        state[cells] = preferred
    elif not side_is_empty(state, houses, 1 - preferred):
        state[cells] = 1 - preferred  # the preferred player has no stones: it passes
    else:
        state[cells] = GAME_OVER


class Sungka(Game):
    terms = "The stores are called heads, and the capture across from an empty house of one's own is sunog."
    rules_text = rules_text
    name = "sungka"
    parameters = PARAMETERS
    apply_kernel = staticmethod(apply_move)
    store_free = True  # the rest of a game depends on the houses alone
    captures_opposite = True
    capture_word = "sunog"
    examples = ({}, {"houses": 4, "stones": 3}, {"houses": 5, "stones": 4, "sunog_needs_opposite": True})

    @classmethod
    def param_strategy(cls, st):
        return st.fixed_dictionaries({"houses": st.integers(1, 8), "stones": st.integers(1, 8),
                                      "sunog_needs_opposite": st.booleans()})

    def family_rules(self) -> dict:
        """These rules as the two-row family's parameters, which play move for move as this game's kernels."""
        return {**DEFAULTS, **sungka_rules(**self.params)}
