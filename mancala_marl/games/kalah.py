"""Kalah (standard rules, as in OpenSpiel's ``mancala``), any number of pits and seeds.

- Sow from a non-empty own pit, one seed per cell, skipping the opponent's store.
- Last seed in the own store: extra turn.
- Last seed in an own pit that was empty, with seeds in the opposite pit: both go to the store
  (``empty_capture=True`` also stores the lone seed when the opposite pit is empty).
- ``end_rule="either"``: the game ends when either side is empty after a move;
  ``"mover"``: when the player to move has no seeds. Remaining seeds go to their side's store.
"""

from __future__ import annotations

from .._compile import kernel
from .base import (
    SPEC_FLAG_A,
    SPEC_FLAG_B,
    SPEC_PITS,
    Game,
    check_bool,
    check_choice,
    end_move,
    side_is_empty,
    sow,
    store_of,
)

END_RULES = {"either": 0, "mover": 1}


@kernel
def apply_move(state, pit, spec):
    pits = spec[SPEC_PITS]
    empty_capture = spec[SPEC_FLAG_A] != 0
    end_when_mover_empty = spec[SPEC_FLAG_B] != 0
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
    name = "kalah"
    apply_kernel = staticmethod(apply_move)
    store_free = True  # the rest of a game depends on the pits alone
    examples = ({}, {"pits": 4, "seeds": 3, "end_rule": "mover"}, {"pits": 3, "seeds": 2, "empty_capture": True})

    @classmethod
    def param_strategy(cls, st):
        return st.fixed_dictionaries({"pits": st.integers(1, 8), "seeds": st.integers(1, 6),
                                      "empty_capture": st.booleans(), "end_rule": st.sampled_from(list(END_RULES))})

    def __init__(self, pits: int = 6, seeds: int = 4, empty_capture: bool = False, end_rule: str = "either"):
        check_bool("empty_capture", empty_capture)
        check_choice("end_rule", end_rule, END_RULES)
        params = dict(pits=pits, seeds=seeds, empty_capture=bool(empty_capture), end_rule=end_rule)
        super().__init__(pits, seeds, params, flag_a=int(empty_capture), flag_b=END_RULES[end_rule])
