"""Kalah (standard rules, as in OpenSpiel's ``mancala``), any number of pits and seeds.

- Sow from a non-empty own pit, one seed per cell, skipping the opponent's store.
- Last seed in the own store: extra turn.
- Last seed in an own pit that was empty, with seeds in the opposite pit: both go to the store
  (``empty_capture=True`` also stores the lone seed when the opposite pit is empty).
- ``end_rule="either"``: the game ends when either side is empty after a move;
  ``"mover"``: when the player to move has no seeds. Remaining seeds go to their side's store.

Other rule sets: OpenSpiel's ``mancala`` is Kalah(6, 4) with the defaults here (checked move for
move) and takes no parameters. ``empty_capture=True`` is the rule of the Kalah that Irving,
Donkers & Uiterwijk solved (2000): the last seed is stored even when the opposite pit is empty.
"""

from __future__ import annotations

from .._compile import kernel
from .base import SPEC_PITS, Game, end_move, pits_param, seeds_param, side_is_empty, sow, spec_index, store_of
from .family import kalah_rules
from .family_rules import DEFAULTS
from .family_text import rules_text
from .params import Param

END_RULES = ("either", "mover")
PARAMETERS = (
    pits_param("pits", 6, "pits a side"),
    seeds_param("seeds", 4, "seeds in each pit at the start"),
    Param("empty_capture", bool, False,
          "a last seed in an empty own pit is stored even when the opposite pit is empty"),
    Param("end_rule", str, "either", "the game ends when either side is empty after a move, or when the mover "
                                     "has no seeds", choices=END_RULES),
)
EMPTY_CAPTURE, END_RULE = (spec_index(PARAMETERS, name) for name in ("empty_capture", "end_rule"))
END_WHEN_MOVER_EMPTY = END_RULES.index("mover")


@kernel(refcounts=False)
def apply_move(state, pit, spec):
    pits = spec[SPEC_PITS]
    empty_capture = spec[EMPTY_CAPTURE] != 0
    end_when_mover_empty = spec[END_RULE] == END_WHEN_MOVER_EMPTY
    cells = 2 * pits + 2
    mover = state[cells]
    own_store = store_of(pits, mover)
    opponent_store = store_of(pits, 1 - mover)

    pos = mover * (pits + 1) + pit
    seeds = state[pos]
    state[pos] = 0
    pos = sow(state, pos, seeds, opponent_store, cells)

    extra_turn = pos == own_store
    on_own_side = mover * (pits + 1) <= pos < own_store
    if on_own_side and state[pos] == 1:  # capture
        opposite = 2 * pits - pos
        if state[opposite] > 0 or empty_capture:
            state[own_store] += state[opposite] + 1
            state[opposite] = 0
            state[pos] = 0

    next_player = mover if extra_turn else 1 - mover
    if end_when_mover_empty:
        over = side_is_empty(state, pits, next_player)
    else:
        over = side_is_empty(state, pits, 0) or side_is_empty(state, pits, 1)
    end_move(state, pits, next_player, over)


class Kalah(Game):
    terms = "The stores are called kalahs."
    rules_text = rules_text
    name = "kalah"
    parameters = PARAMETERS
    apply_kernel = staticmethod(apply_move)
    store_free = True  # the rest of a game depends on the pits alone
    captures_opposite = True
    examples = ({}, {"pits": 4, "seeds": 3, "end_rule": "mover"}, {"pits": 3, "seeds": 2, "empty_capture": True})

    @classmethod
    def param_strategy(cls, st):
        return st.fixed_dictionaries({"pits": st.integers(1, 8), "seeds": st.integers(1, 6),
                                      "empty_capture": st.booleans(), "end_rule": st.sampled_from(END_RULES)})

    def family_rules(self) -> dict:
        """These rules as the two-row family's parameters, which play move for move as this game's kernels."""
        return {**DEFAULTS, **kalah_rules(**self.params)}
