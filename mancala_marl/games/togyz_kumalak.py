"""Togyz Kumalak: 9 holes of 9 balls per side by default; the stores are kazans.

- Take all balls of a non-empty own hole. If there are several, the first goes back into that
  hole and the rest into the following holes (kazans are not on the path); a single ball moves
  to the next hole.
- A ball falling into a tuzduk goes straight to the tuzduk owner's kazan.
- Last ball in an opponent's hole that is not a tuzduk: an even count is captured. A count of
  exactly 3 makes the hole the mover's tuzduk (its balls go to the kazan) unless the mover
  already has one, the hole is the opponent's last (9th), or the opponent's tuzduk stands on
  the mover's hole with the same number. A tuzduk lasts to the end; it is never a legal move.
- The game ends when a kazan holds a majority (82 of 162; ``stop_at_majority=False`` plays on)
  or the player to move has no move; remaining balls go to the kazan of their side.

Other rule sets: OpenSpiel has no Togyz Kumalak; the ``tesauro`` observation is
gym-togyzkumalak's. ``stop_at_majority=False`` plays every game out, for a final margin.

State slots after TO_MOVE: player_0's tuzduk (a hole number 0..holes-1 on player_1's side, or -1),
then player_1's (on player_0's side). The ``counts`` observation adds one flag per hole (own holes
first: "the opponent's tuzduk is here"; then the opponent's: "my tuzduk is here"); ``tesauro`` is
gym-togyzkumalak's encoding (see :func:`tesauro`). ``exact`` is the hole nearest the kazan whose
last ball captures (Togyz has no extra turn to aim for).
"""

from __future__ import annotations

import numpy as np

from .._compile import kernel
from .base import (
    NO_TUZDUK,
    SPEC_PITS,
    SPEC_SEEDS,
    Game,
    end_move,
    pits_param,
    seeds_param,
    side_is_empty,
    spec_index,
    store_of,
)
from .family import togyz_rules
from .family_rules import DEFAULTS
from .family_text import rules_text
from .params import Param

PARAMETERS = (
    pits_param("holes", 9, "holes a side", low=2, why_low="the last hole can never become a tuzduk"),
    seeds_param("balls", 9, "balls in each hole at the start"),
    Param("stop_at_majority", bool, True, "the game ends as soon as a kazan holds more than half the balls"),
)
STOP_AT_MAJORITY = spec_index(PARAMETERS, "stop_at_majority")


@kernel(inline="always")
def _cell(holes, ring):
    """Board index of position ``ring`` on the 2*holes ring of holes (kazans left out)."""
    return ring if ring < holes else ring + 1


@kernel(refcounts=False)
def apply_move(state, hole, spec):
    holes = spec[SPEC_PITS]
    stop_at_majority = spec[STOP_AT_MAJORITY] != 0
    majority = 2 * holes * spec[SPEC_SEEDS] // 2 + 1
    cells = 2 * holes + 2
    tuzduk = cells + 1  # state[tuzduk + p]: player p's tuzduk on the other side, or -1
    mover = state[cells]
    ring_size = 2 * holes

    ring = mover * holes + hole
    balls = state[_cell(holes, ring)]
    state[_cell(holes, ring)] = 0
    if balls == 1:
        ring += 1
    for _ in range(balls):  # sow; with several balls the first goes back into the hole
        if ring >= ring_size:
            ring -= ring_size
        side, number = ring // holes, ring % holes
        if state[tuzduk + 1 - side] == number:  # a tuzduk: the ball goes to its owner
            state[store_of(holes, 1 - side)] += 1
        else:
            state[_cell(holes, ring)] += 1
        ring += 1
    ring -= 1
    if ring < 0:
        ring += ring_size

    side, number = ring // holes, ring % holes
    pos = _cell(holes, ring)
    if side != mover and state[tuzduk + mover] != number:  # an opponent's hole, not our tuzduk
        count = state[pos]
        own_kazan = store_of(holes, mover)
        if count % 2 == 0:  # capture
            state[own_kazan] += count
            state[pos] = 0
        elif (count == 3 and state[tuzduk + mover] == NO_TUZDUK and number != holes - 1
              and state[tuzduk + 1 - mover] != number):
            state[tuzduk + mover] = number
            state[own_kazan] += count
            state[pos] = 0

    next_player = 1 - mover
    over = side_is_empty(state, holes, next_player)
    if stop_at_majority and (state[holes] >= majority or state[cells - 1] >= majority):
        over = True
    end_move(state, holes, next_player, over)


@kernel(refcounts=True)  # its copy of the state may allocate
def capture_exact(state, spec, scratch):
    """The hole nearest the kazan whose last ball lands in an opponent's hole (not a tuzduk) and
    empties it into the mover's kazan: an even count captured, or a tuzduk made; -1 if none.
    ``scratch`` is a spare row of the state's shape."""
    pits = spec[SPEC_PITS]
    cells = 2 * pits + 2
    mover = state[cells]
    first = mover * (pits + 1)
    for hole in range(pits - 1, -1, -1):
        balls = state[first + hole]
        if balls == 0:
            continue
        # With several balls the first goes back into the hole, so the last lands balls-1 on.
        ring = (mover * pits + hole + (1 if balls == 1 else balls - 1)) % (2 * pits)
        if ring // pits == mover or state[cells + 1 + mover] == ring % pits:
            continue  # our own side, or our tuzduk (always empty: its balls go to our kazan)
        scratch[:] = state
        apply_move(scratch, hole, spec)
        if scratch[_cell(pits, ring)] == 0:  # the last ball landed there: only a capture empties it
            return hole
    return -1


@kernel
def tuzduk_flags(state, player, spec, out):
    """For each of ``player``'s holes "the opponent's tuzduk is here", then for each of the
    opponent's holes "my tuzduk is here"."""
    pits = spec[SPEC_PITS]
    cells = 2 * pits + 2
    out[:] = 0.0
    theirs, mine = state[cells + 2 - player], state[cells + 1 + player]
    if theirs >= 0:
        out[theirs] = 1.0
    if mine >= 0:
        out[pits + mine] = 1.0


@kernel
def tesauro(state, player, spec, obs_id, out):
    """gym-togyzkumalak's encoding, 128 floats for 9 holes. Per side, own side first: holes
    1..P-1 as [n>=1, n>=2, n mod 2, (n mod 9)/8, (n mod 18)/17, n/9, is-tuzduk], the last hole as
    [n>=1, n mod 2, (n mod 9)/8, (n mod 18)/17, n/9], then min(kazan, majority)/majority and
    [this kazan > the other kazan]; last the seat one-hot, [1, 0] for player_0 (White). As in the
    original, the kazan cap is the majority (82 for 9x9)."""
    pits = spec[SPEC_PITS]
    cells = 2 * pits + 2
    majority = 2 * pits * spec[SPEC_SEEDS] // 2 + 1
    k = 0
    for s in range(2):
        side = player if s == 0 else 1 - player
        tuzduk_here = state[cells + 2 - side]  # the other player's tuzduk lies on this side
        for number in range(pits):
            n = np.float32(state[side * (pits + 1) + number])
            last = number == pits - 1  # the last hole can never be a tuzduk, and drops n >= 2
            out[k] = n >= 1
            k += 1
            if not last:
                out[k] = n >= 2
                k += 1
            out[k] = n % np.float32(2)
            out[k + 1] = (n % np.float32(9)) / np.float32(8)
            out[k + 2] = (n % np.float32(18)) / np.float32(17)
            out[k + 3] = n / np.float32(9)
            k += 4
            if not last:
                out[k] = number == tuzduk_here
                k += 1
        mine, other = state[side * (pits + 1) + pits], state[(1 - side) * (pits + 1) + pits]
        out[k] = np.float32(min(mine, majority) / majority)  # float64 division, as in Python
        out[k + 1] = mine > other
        k += 2
    out[k] = player == 0
    out[k + 1] = player == 1


class TogyzKumalak(Game):
    terms = "The stores are called kazans, and an owned hole is a tuzduk."
    rules_text = rules_text
    name = "togyz_kumalak"
    mark_word = "tuzduk"
    parameters = PARAMETERS
    apply_kernel = staticmethod(apply_move)
    exact_kernel = staticmethod(capture_exact)
    extra_slots = 2  # the two tuzduks
    extra_features = 2  # per hole: a tuzduk flag for each side
    extra_obs_kernel = staticmethod(tuzduk_flags)
    custom_obs = ("tesauro",)
    custom_obs_kernel = staticmethod(tesauro)
    # store_free stays False: the majority rule makes the end depend on the kazans
    examples = ({}, {"holes": 5, "balls": 5, "stop_at_majority": False}, {"holes": 4, "balls": 4})

    @classmethod
    def param_strategy(cls, st):
        return st.fixed_dictionaries({"holes": st.integers(2, 9), "balls": st.integers(1, 9),
                                      "stop_at_majority": st.booleans()})

    def from_board(self, board, to_move: int = 0, tuzduk=(NO_TUZDUK, NO_TUZDUK)) -> np.ndarray:
        """A state from a canonical board, the player to move and (player_0's, player_1's) tuzduk."""
        state = super().from_board(board, to_move)
        state[self.board_size + 1:] = tuzduk
        return state

    def tuzduks(self, state) -> tuple[int, int]:
        """(player_0's tuzduk, player_1's tuzduk): a hole number 0..holes-1 on the other side, or -1."""
        return int(state[self.board_size + 1]), int(state[self.board_size + 2])

    def state_bounds(self):
        low, high = super().state_bounds()
        high[self.board_size + 1:] = self.pits - 2  # a tuzduk: -1, or any hole but the last
        return low, high

    def slots_fault(self, state):
        tuzduks = self.tuzduks(state)
        for player, hole in enumerate(tuzduks):
            balls = state[(1 - player) * (self.pits + 1) + hole] if hole != NO_TUZDUK else 0
            if balls:
                return (f"player_{player}'s tuzduk, hole {hole} of player_{1 - player}, must be empty (its balls "
                        f"go to the kazan), got {balls}")
        if tuzduks[0] == tuzduks[1] != NO_TUZDUK:
            return f"the two tuzduks cannot stand on holes of the same number, got {tuzduks[0]} for both"
        return None

    def custom_obs_high(self, obs_type: str) -> np.ndarray:
        """Upper bounds of the ``tesauro`` encoding."""
        side = [1, 1, 1, 1, 1, self.total_seeds / 9, 1] * (self.pits - 1) + [1, 1, 1, 1, self.total_seeds / 9, 1, 1]
        return np.array(side * 2 + [1, 1], dtype=np.float32)

    def illegal_reason(self, state, action) -> str:
        reason = super().illegal_reason(state, action)
        mover = self.to_move(state)
        if reason.endswith("is empty, it cannot be played") and self.tuzduks(state)[1 - mover] == action:
            return f"player_{mover}'s hole {action} is the opponent's tuzduk, it cannot be played"
        return reason

    def marked_pits(self, state):
        marks = [(side, hole) for side, hole in ((1, self.tuzduks(state)[0]), (0, self.tuzduks(state)[1]))
                 if hole >= 0]
        return marks, "X = tuzduk (its balls go to the owner's kazan)"

    def family_rules(self) -> dict:
        """These rules as the two-row family's parameters, which play move for move as this game's kernels."""
        return {**DEFAULTS, **togyz_rules(**self.params)}
