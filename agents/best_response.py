"""Can any play beat a deterministic baseline from a given position? An exact answer by search.

Against ``max`` or ``exact`` the opponent's moves are fixed by the position, so the game is a
puzzle for one player: a line of the learner's moves wins or it does not. :func:`can_win`
searches those lines depth first (an OR tree: only the learner chooses) until one ends in a win,
remembering every position already explored so that none is searched twice. Unlike a
depth-limited search, a "no" is a proof that nothing wins from there against that baseline,
which bounds what any policy can score on a test built from such positions
(``benchmarks/ceiling.py``).

Two bounds end a line early, both valid because seeds are conserved and stores never shrink:
the opponent already holds half the seeds (the learner can no longer finish strictly ahead), or
the learner holds more than half (it has won). The learner's moves are tried best first by the
store margin once the opponent has answered, so that a win, when there is one, is usually met
early; proving there is none means exploring every reachable position, which may not fit the
node budget: then the answer is "unknown". A line that returns to a position already on it wins
nothing (the games' balls can circle for ever); the matches' 1000-move stop is not modelled.
"""

from __future__ import annotations

import numpy as np

from mancala_marl._compile import kernel
from mancala_marl.errors import BadInput
from mancala_marl.games.base import GAME_OVER, MAX_MOVES, SPEC_PITS, action_count, margin
from mancala_marl.games.dispatch import apply_move, legal_moves
from mancala_marl.games.params import Param
from mancala_marl._compile import copy_cells
from mancala_marl.search_core import COUNTERS, NODES, insert_ordered, new_counters, set_limits, spend

from .alphabeta import position_key
from .rules import exact_pit, max_pit

WIN, NO_WIN, UNKNOWN = 1, 0, -1
# counters[], after the search core's: the winning line's length, the table's slots used
LINE, USED = COUNTERS, COUNTERS + 1
OPPONENTS = {"max": 0, "exact": 1}
TABLE_BITS = Param("table_bits", int, 24, "the table of the positions explored holds 2**table_bits keys",
                   low=10, high=32)


@kernel
def _answer(state, learner, spec, opponent, scratch, mask):
    """Play the opponent's fixed moves until the learner is to move or the game is over
    (``scratch``, ``mask``: the baselines' scratch space)."""
    cells = 2 * spec[SPEC_PITS] + 2
    while state[cells] == 1 - learner:
        pit = max_pit(state, spec, mask) if opponent == 0 else exact_pit(state, spec, scratch, mask)
        apply_move(state, pit, spec)


@kernel
def _settled(state, learner, spec, total):
    """WIN or NO_WIN if the line's outcome is already decided, else UNKNOWN."""
    pits = spec[SPEC_PITS]
    cells = 2 * pits + 2
    if state[cells] == GAME_OVER:
        return WIN if margin(state, pits, learner) > 0 else NO_WIN
    mine, theirs = state[learner * (pits + 1) + pits], state[(1 - learner) * (pits + 1) + pits]
    if 2 * mine > total:
        return WIN
    if 2 * theirs >= total:
        return NO_WIN
    return UNKNOWN


@kernel(refcounts=True)
def _search(root, learner, spec, opponent, key_cells, total, table, used, frames, counters):
    """WIN, NO_WIN or UNKNOWN from ``root`` (see :meth:`BestResponse.can_win`). ``table``: a set
    of the positions explored, their keys by linear probing (0: an empty slot, as in the search
    core's tables, which hold bounds this search has no use for), ``used`` the slots written; ``frames``: (states, children, order, count, next child, line) by ply.

    This allocates the moves' scratch and hands it to :func:`_explore`, which runs without
    reference counts (:mod:`mancala_marl._compile`)."""
    actions = action_count(spec)
    scratch, their_mask = np.empty_like(root), np.empty(actions, np.bool_)
    mask, gains = np.empty(actions, np.bool_), np.empty(actions, np.int64)
    return _explore(root, learner, spec, opponent, key_cells, total, table, used, frames, counters, scratch,
                    their_mask, mask, gains)


@kernel(refcounts=False)
def _explore(root, learner, spec, opponent, key_cells, total, table, used, frames, counters, scratch, their_mask,
             mask, gains):
    """:func:`_search` with its scratch: it borrows every array and allocates none."""
    stack, children, order, count, next_child, line = frames
    pits = spec[SPEC_PITS]
    depth_limit = stack.shape[0] - 1
    size_mask = np.uint64(table.shape[0] - 1)
    actions = action_count(spec)
    size = root.shape[0]
    copy_cells(root, stack[0], size)
    _answer(stack[0], learner, spec, opponent, scratch, their_mask)
    outcome = _settled(stack[0], learner, spec, total)
    if outcome != UNKNOWN:
        return outcome
    key = position_key(stack[0], pits, False, key_cells)
    used[0] = key & size_mask  # the slots written, so that the caller can clear just those
    table[used[0]] = key
    counters[USED] = 1
    d = 0
    expand = True
    while d >= 0:
        if expand:  # order the learner's moves here, best margin after the opponent's answer first
            expand = False
            legal_moves(stack[d], spec, mask)
            n = 0
            for p in range(actions):
                if mask[p]:
                    after = children[d, p]  # kept, so that playing the move later is a copy
                    copy_cells(stack[d], after, size)
                    apply_move(after, p, spec)
                    _answer(after, learner, spec, opponent, scratch, their_mask)
                    n = insert_ordered(order, d, gains, n, p, margin(after, pits, learner))
            count[d] = n
            next_child[d] = 0
        if next_child[d] == count[d]:
            d -= 1
            continue
        child = stack[d + 1]
        copy_cells(children[d, order[d, next_child[d]]], child, size)
        next_child[d] += 1
        outcome = _settled(child, learner, spec, total)
        if outcome == WIN:
            for k in range(d + 1):  # the winning line, for the caller to replay
                line[k] = order[k, next_child[k] - 1]
            counters[LINE] = d + 1
            return WIN
        if outcome == NO_WIN:
            continue
        key = position_key(child, pits, False, key_cells)
        slot = key & size_mask
        while table[slot] != 0 and table[slot] != key:
            slot = (slot + np.uint64(1)) & size_mask
        if table[slot] == key:  # explored already, or on the current line (a cycle)
            continue
        if spend(counters, None) or counters[NODES] * 2 > table.shape[0] or d + 1 == depth_limit:
            return UNKNOWN
        table[slot] = key
        used[counters[USED]] = slot
        counters[USED] += 1
        d += 1
        expand = True
    return NO_WIN


class BestResponse:
    """Reusable memory for :meth:`can_win` on one game (each search starts from an empty table)."""

    def __init__(self, game, opponent: str, table_bits: int = TABLE_BITS.default):
        if opponent not in OPPONENTS:
            raise BadInput(f"opponent must be one of {list(OPPONENTS)} (a deterministic baseline), got {opponent!r}")
        table_bits = TABLE_BITS.check(table_bits)
        self.game, self.opponent = game, OPPONENTS[opponent]
        self.table = np.zeros(1 << table_bits, dtype=np.uint64)  # keys only: a set of the positions explored
        self.used = np.zeros((1 << (table_bits - 1)) + 2, dtype=np.int64)
        self.stack = np.zeros((MAX_MOVES + 1, game.state_size), dtype=np.int32)
        self.children = np.zeros((MAX_MOVES + 1, game.actions, game.state_size), dtype=np.int32)
        self.order = np.zeros((MAX_MOVES + 1, game.actions), dtype=np.int64)
        self.count = np.zeros(MAX_MOVES + 1, dtype=np.int64)
        self.next_child = np.zeros(MAX_MOVES + 1, dtype=np.int64)
        self.line = np.zeros(MAX_MOVES + 1, dtype=np.int64)
        self.frames = (self.stack, self.children, self.order, self.count, self.next_child, self.line)
        self.counters = new_counters(extra=2)
        self.nodes, self.winning_line = 0, []

    def can_win(self, state: np.ndarray, learner: int, budget: int = 5_000_000) -> int:
        """WIN if some line of ``learner``'s moves beats the baseline from ``state`` (either player
        to move), NO_WIN if none does (proved), UNKNOWN if ``budget`` positions did not settle it.
        ``self.nodes``: positions explored; ``self.winning_line``: after WIN, the learner's moves of
        one winning line (the baseline's replies in between are its own), to replay."""
        game = self.game
        if learner not in (0, 1):
            raise BadInput(f"learner must be 0 or 1, got {learner!r}")
        if game.is_terminal(state):
            raise BadInput("the game is over: there is nothing to search")
        set_limits(self.counters, nodes=budget)
        self.counters[LINE] = self.counters[USED] = 0
        total = int(state[: game.board_size].sum())
        result = _search(state.astype(np.int32, copy=True), learner, game.spec, self.opponent, game.key_cells, total,
                         self.table, self.used, self.frames, self.counters)
        self.table[self.used[: self.counters[USED]]] = 0  # empty again, without clearing all of it
        self.nodes = int(self.counters[NODES])
        self.winning_line = [int(p) for p in self.line[: self.counters[LINE]]] if result == WIN else []
        return int(result)
