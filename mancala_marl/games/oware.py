"""Oware (Abapa; also Awale, Ayo, Awari), by default exactly OpenSpiel's ``oware``.

- Sow counter-clockwise from a non-empty own house, one seed per house, never into the house
  sown from (a house of 12 or more seeds skips itself on each lap). The stores are not on the
  path: they only hold captured seeds.
- Last seed in the opponent's row making 2 or 3: capture it and, going backwards, every
  consecutive house of the opponent's row holding 2 or 3.
- Grand slam, a move that would capture every seed on the opponent's side:
  ``grand_slam="no_capture"`` (OpenSpiel, default): legal, captures nothing.
  ``grand_slam="illegal"`` (Ludii): not a legal move, unless every move of the turn would be a
  grand slam; then those moves are legal and capture nothing, so a player is never left without
  a move by this rule alone.
- Must feed: when the opponent's row is empty, only moves that put a seed into it are legal.
- The game ends when a store holds more than half the seeds, or both exactly half; when the
  player to move has no legal move; or when a position (board, scores, player to move) repeats
  since the last capture. Seeds left on the board then go to the store of their side (as
  OpenSpiel collects them), so the final scores add up to all the seeds.
- One bound of ours: a stretch of :data:`HISTORY` = 256 positions without a capture also ends
  the game that way, as if the next position repeated one. Without it a game need not end: two
  deterministic players can circle through more positions than any fixed history holds.
  OpenSpiel keeps every position since the last capture and stops with an error at 1000 moves
  instead; the two agree move for move wherever no stretch reaches 256 positions
  (``examples/openspiel_crosscheck.py`` compares them).

State slots after TO_MOVE: the positions since the last capture, as
:mod:`mancala_marl.games.history` keeps them (a count, their digest and their 64-bit hashes):
2 * 256 + 3 = 515 int32 slots, 2 KB a state.
"""

from __future__ import annotations

import numpy as np

from .._compile import kernel
from .base import (
    GAME_OVER,
    SPEC_PITS,
    SPEC_SEEDS,
    Game,
    pits_param,
    seeds_param,
    spec_index,
    store_of,
    sweep_to_stores,
)
from .history import COUNT, DIGEST, HASHES, HISTORY, clear_history, record_position
from .family import oware_rules
from .family_rules import DEFAULTS
from .family_text import rules_text
from .params import Param

GRAND_SLAM_RULES = ("no_capture", "illegal")
PARAMETERS = (
    pits_param("houses", 6, "houses a side"),
    seeds_param("seeds", 4, "seeds in each house at the start"),
    Param("grand_slam", str, "no_capture", "a move that would capture every seed of the opponent is legal and "
                                           "captures nothing, or is illegal", choices=GRAND_SLAM_RULES),
)
GRAND_SLAM = spec_index(PARAMETERS, "grand_slam")
SLAM_ILLEGAL = GRAND_SLAM_RULES.index("illegal")


@kernel(inline="always")
def _cell(houses, ring):
    """Board index of position ``ring`` on the 2*houses ring of houses (stores left out)."""
    return ring if ring < houses else ring + 1


@kernel(inline="always")
def _sow(state, houses, mover, house):
    """Sow ``house`` of ``mover``, skipping the house sown from; returns the ring position of
    the last seed."""
    ring_size = 2 * houses
    origin = mover * houses + house
    seeds = state[_cell(houses, origin)]
    state[_cell(houses, origin)] = 0
    ring = origin
    while seeds > 0:
        ring += 1
        if ring == ring_size:
            ring = 0
        if ring == origin:
            continue
        state[_cell(houses, ring)] += 1
        seeds -= 1
    return ring


@kernel(inline="always")
def _is_grand_slam(state, houses, last):
    """Would capturing from ring position ``last`` (in the opponent's row) take every seed of that
    row? (OpenSpiel's ``IsGrandSlam``: nothing beyond ``last``, and 2 or 3 in every house up to it.)"""
    row_start = (last // houses) * houses
    for ring in range(last + 1, row_start + houses):
        if state[_cell(houses, ring)] > 0:
            return False
    for ring in range(row_start, last + 1):
        count = state[_cell(houses, ring)]
        if count != 2 and count != 3:
            return False
    return True


@kernel(refcounts=False)
def apply_move(state, house, spec):
    houses = spec[SPEC_PITS]
    cells = 2 * houses + 2
    mover = state[cells]
    last = _sow(state, houses, mover, house)
    captured = 0
    if last // houses != mover and not _is_grand_slam(state, houses, last):
        row_start = (last // houses) * houses
        ring = last
        while ring >= row_start:
            count = state[_cell(houses, ring)]
            if count != 2 and count != 3:
                break
            captured += count
            state[_cell(houses, ring)] = 0
            ring -= 1
        state[store_of(houses, mover)] += captured
    state[cells] = 1 - mover
    if captured > 0:
        clear_history(state, cells)  # captured seeds never come back: no older position can recur
    over = record_position(state, cells)
    if not over:
        half = houses * spec[SPEC_SEEDS]  # half of all the seeds
        s0, s1 = state[houses], state[cells - 1]
        over = s0 > half or s1 > half or (s0 == half and s1 == half)
    if not over:
        over = not _can_move(state, houses, 1 - mover)  # (legal_moves counts none exactly then)
    if over:
        sweep_to_stores(state, houses)
        state[cells] = GAME_OVER


@kernel(inline="always")
def _can_move(state, houses, mover):
    """Whether ``mover`` has a non-empty house, one that reaches the opponent's row when that is
    empty: whether :func:`legal_moves` counts any move (the grand slam rule never leaves none)."""
    first = mover * (houses + 1)
    opponent_empty = True
    for i in range((1 - mover) * (houses + 1), (1 - mover) * (houses + 1) + houses):
        if state[i] > 0:
            opponent_empty = False
    for h in range(houses):
        seeds = state[first + h]
        if seeds > 0 and (not opponent_empty or seeds > houses - 1 - h):
            return True
    return False


@kernel(refcounts=False)
def legal_moves(state, spec, out):
    """Non-empty own houses; only those that reach the opponent's row when it is empty (must
    feed); with ``grand_slam="illegal"``, not a grand slam unless every move is one."""
    houses = spec[SPEC_PITS]
    cells = 2 * houses + 2
    mover = state[cells]
    if mover == GAME_OVER:
        out[:] = False
        return 0
    first = mover * (houses + 1)
    opponent_empty = True
    for i in range((1 - mover) * (houses + 1), (1 - mover) * (houses + 1) + houses):
        if state[i] > 0:
            opponent_empty = False
    count = 0
    for h in range(houses):
        seeds = state[first + h]
        out[h] = seeds > 0 and (not opponent_empty or seeds > houses - 1 - h)
        count += out[h]
    if spec[GRAND_SLAM] != SLAM_ILLEGAL or count == 0:
        return count
    return _without_slams(state, spec, out, count)


@kernel(refcounts=True)
def _without_slams(state, spec, out, count):
    """legal_moves' grand slam rule: the ``count`` moves in ``out`` less the grand slams (each sown
    on a copy, which this allocates), unless every one is a grand slam; returns the count kept."""
    houses = spec[SPEC_PITS]
    cells = 2 * houses + 2
    mover = state[cells]
    scratch = np.empty(cells, dtype=state.dtype)
    slams = 0
    for h in range(houses):
        if out[h]:
            scratch[:] = state[:cells]
            last = _sow(scratch, houses, mover, h)
            if last // houses != mover and _is_grand_slam(scratch, houses, last):
                slams += 1
    if slams == count:  # every move is a grand slam: they stay legal (and capture nothing)
        return count
    for h in range(houses):
        if out[h]:
            scratch[:] = state[:cells]
            last = _sow(scratch, houses, mover, h)
            if last // houses != mover and _is_grand_slam(scratch, houses, last):
                out[h] = False
    return count - slams


@kernel(refcounts=True)
def capture_exact(state, spec, scratch):
    """The legal house nearest the store whose last seed captures (2 or 3 in the opponent's row,
    not a grand slam); -1 if none."""
    houses = spec[SPEC_PITS]
    cells = 2 * houses + 2
    mover = state[cells]
    mask = np.empty(houses, dtype=np.bool_)
    legal_moves(state, spec, mask)
    for h in range(houses - 1, -1, -1):
        if mask[h]:
            scratch[:cells] = state[:cells]
            last = _sow(scratch, houses, mover, h)
            count = scratch[_cell(houses, last)]
            if last // houses != mover and (count == 2 or count == 3) and not _is_grand_slam(scratch, houses, last):
                return h
    return -1


class Oware(Game):
    rules_text = rules_text
    name = "oware"
    parameters = PARAMETERS
    apply_kernel = staticmethod(apply_move)
    legal_kernel = staticmethod(legal_moves)
    exact_kernel = staticmethod(capture_exact)
    extra_slots = HASHES + 2 * HISTORY
    # store_free stays False: the end depends on the stores (majority) and on the history
    examples = ({}, {"houses": 4, "seeds": 3}, {"houses": 5, "seeds": 2, "grand_slam": "illegal"})

    @classmethod
    def param_strategy(cls, st):
        return st.fixed_dictionaries({"houses": st.integers(1, 7), "seeds": st.integers(1, 5),
                                      "grand_slam": st.sampled_from(GRAND_SLAM_RULES)})

    def __init__(self, *args, **values):
        super().__init__(*args, **values)
        # The table key: the board, the player to move, the count and the digest of the history.
        self.key_cells = self.board_size + 1 + HASHES

    def from_board(self, board, to_move: int = 0) -> np.ndarray:
        """A state from a canonical board and the player to move; its history is this position alone."""
        state = super().from_board(board, to_move)
        record_position(state, self.board_size)
        return state

    def positions_since_capture(self, state) -> int:
        """How many positions (the current one included) the repetition rule remembers."""
        return int(state[self.board_size + 1 + COUNT])

    def state_bounds(self):
        low, high = super().state_bounds()
        low[self.board_size + 1 + DIGEST:] = np.iinfo(np.int32).min  # hash halves: any int32
        high[self.board_size + 1 + DIGEST:] = np.iinfo(np.int32).max
        low[self.board_size + 1 + COUNT], high[self.board_size + 1 + COUNT] = 0, HISTORY
        return low, high

    def illegal_reason(self, state, action) -> str:
        reason = super().illegal_reason(state, action)
        if not reason.endswith("is not a legal move here"):
            return reason
        mover = self.to_move(state)
        opponent = state[(1 - mover) * (self.pits + 1):(1 - mover) * (self.pits + 1) + self.pits]
        if opponent.sum() == 0:
            return f"player_{mover}'s house {action} does not reach the opponent's empty row: must feed the opponent"
        return f"player_{mover}'s house {action} would capture every seed of the opponent (a grand slam, illegal here)"

    def family_rules(self) -> dict:
        """These rules as the two-row family's parameters, which play move for move as this game's kernels."""
        return {**DEFAULTS, **oware_rules(**self.params)}
