"""Oware endgame databases: bounds on the margin still to come, by retrograde iteration.

Captured seeds never return, so a database layer is again the boards with ``n`` seeds on them,
seen from the player to move, and its entry the margin still to come. Two things of our rules
make Oware's value depend on more than the board:

- **The repetition rule** (and the bound of 256 positions without a capture): a game also ends
  when a position repeats since the last capture, so the value depends on that history. Within a
  layer, moves can circle back. The database takes a position right after a capture, whose
  history is the position alone, and asks, as retrograde analysis of games with cycles does,
  what each side can *force*:
  ``low`` is what the mover can make sure of while forcing the game to a capture or an end (a line
  that circles for ever counts against them), ``high`` what the opponent can hold them to while
  forcing it themselves. Forcing lines never repeat a position (a repetition the other side could
  steer into would be an endless circle), so the value under our rules, whatever a repetition
  scores, lies in ``low..high``; where they meet it is exact.
- **The majority rule** (a store past half the seeds ends the game): it changes when a game
  stops, so margins, but never who wins: a store past half stays past half. The database leaves
  it out, so ``low``/``high`` bound the margin of the game played to its end, and the *result*
  under our rules is the sign of the store margin plus the value, exact wherever the bounds agree
  on that sign.

``low`` and ``high`` come from iterating, layer by layer, ``low(p) = max over moves of (seeds
captured - high(child))`` and ``high(p) = max(seeds captured - low(child))`` from -infinity and
+infinity (stored as ``-(n + 1)`` and ``n + 1``) until nothing changes. Every move is played by the
rules kernel (:func:`mancala_marl.games.oware.apply_move`), with the majority rule switched off
by a spec whose seed count is too large for any store to pass half.
"""

from __future__ import annotations

import numpy as np

from .._compile import kernel
from ..games.base import GAME_OVER, SPEC_SEEDS
from ..games.history import clear_history, record_position
from ..games.oware import apply_move, legal_moves
from .ranking import index, next_side, state_index, unrank

# the perfect policy's default database: 12 seeds on 6 houses (5.4 MiB of bounds); past it the
# bounds decide ever fewer boards (a tenth at 14 seeds) for many times the building
DEFAULT_POSITIONS = 1 << 22


def database_spec(game) -> np.ndarray:
    """``game``'s spec with the majority rule out of reach."""
    spec = game.spec.copy()
    spec[SPEC_SEEDS] = 1 << 40
    return spec


@kernel(inline="always")
def load_fresh(state, board, pits):
    """A state with ``board`` (the mover's houses, then the opponent's), empty stores, player_0 to
    move and a history of this position alone (as right after a capture)."""
    cells = 2 * pits + 2
    for p in range(pits):
        state[p] = board[p]
        state[pits + 1 + p] = board[pits + p]
    state[pits] = 0
    state[2 * pits + 1] = 0
    state[cells] = 0
    clear_history(state, cells)
    record_position(state, cells)


@kernel
def layer_moves(seeds, pits, spec, low, high, table, blocks, state, legal, fixed_low, fixed_high, edges):
    """Play every move of layer ``seeds`` once. A move that captures or ends the game has a known
    outcome: the best of those goes to ``fixed_low``/``fixed_high`` (int16, one per board in index
    order). A move that keeps every seed on the board leads to a board of the same layer: its
    index goes to ``edges`` (boards x pits, -1 for none)."""
    cells = 2 * pits + 2
    first = blocks[seeds, 0]
    board = np.zeros(2 * pits, dtype=np.int32)
    for mine in range(seeds + 1):
        theirs = seeds - mine
        unrank(0, board, 0, pits, mine, table)
        more_mine = True
        while more_mine:
            unrank(0, board, pits, pits, theirs, table)
            more_theirs = True
            while more_theirs:
                at = index(board, pits, table, blocks) - first
                lo, hi = -(1 << 14), -(1 << 14)
                load_fresh(state, board, pits)
                if legal_moves(state, spec, legal) == 0:  # no play reaches it: the rest is swept
                    lo = hi = mine - theirs
                for house in range(pits):
                    edges[at, house] = -1
                    if not legal[house]:
                        continue
                    load_fresh(state, board, pits)
                    apply_move(state, house, spec)
                    gained = state[pits] - state[cells - 1]
                    if state[cells] == GAME_OVER:
                        lo, hi = max(lo, gained), max(hi, gained)
                    elif gained > 0:
                        below = state_index(state, pits, 1, table, blocks)
                        lo, hi = max(lo, gained - high[below]), max(hi, gained - low[below])
                    else:
                        edges[at, house] = state_index(state, pits, 1, table, blocks)
                fixed_low[at], fixed_high[at] = lo, hi
                more_theirs = next_side(board, pits, pits)
            more_mine = next_side(board, 0, pits)


@kernel
def relax_layer(first, fixed_low, fixed_high, edges, low, high, safe_low=None, safe_high=None):
    """One pass of ``low = max(fixed, -high(child))``, ``high = max(fixed, -low(child))`` over a
    layer (boards ``first..``); returns how many boards changed. With ``safe_low``/``safe_high``
    (:func:`search_bounds`), either side may also stop forcing and hold its bound that holds
    whatever the history."""
    changed = 0
    for at in range(fixed_low.shape[0]):
        lo, hi = np.int64(fixed_low[at]), np.int64(fixed_high[at])
        if safe_low is not None:
            lo = max(lo, np.int64(safe_low[first + at]))
        for house in range(edges.shape[1]):
            c = edges[at, house]
            if c >= 0:
                lo, hi = max(lo, -np.int64(high[c])), max(hi, -np.int64(low[c]))
        if safe_high is not None:
            hi = min(hi, np.int64(safe_high[first + at]))
        if lo != low[first + at] or hi != high[first + at]:
            low[first + at], high[first + at] = lo, hi
            changed += 1
    return changed


@kernel
def relax_safe(first, fixed_low, fixed_high, edges, lead, safe_low, safe_high):
    """One pass of the bounds that hold whatever the history (:func:`search_bounds`) over a layer;
    ``lead[at]``: the mover's seeds less the opponent's on board ``first + at``. Returns how many
    boards changed."""
    changed = 0
    for at in range(fixed_low.shape[0]):
        lo, hi = np.int64(fixed_low[at]), np.int64(fixed_high[at])
        for house in range(edges.shape[1]):
            c = edges[at, house]
            if c >= 0:
                swept = -np.int64(lead[c - first])  # the mover's margin to come if the game ends there
                lo = max(lo, min(swept, -np.int64(safe_high[c])))
                hi = max(hi, max(swept, -np.int64(safe_low[c])))
        if lo != safe_low[first + at] or hi != safe_high[first + at]:
            safe_low[first + at], safe_high[first + at] = lo, hi
            changed += 1
    return changed


def _layer_edges(game, seeds, spec, low, high, table, blocks, state, legal):
    """:func:`layer_moves` of layer ``seeds`` into new arrays: (first, last, fixed_low, fixed_high, edges)."""
    first, last = int(blocks[seeds, 0]), int(blocks[seeds + 1, 0])
    fixed_low = np.empty(last - first, dtype=np.int16)
    fixed_high = np.empty(last - first, dtype=np.int16)
    edges = np.empty((last - first, game.pits), dtype=np.int32 if blocks[-1, 0] < 2**31 else np.int64)
    layer_moves(seeds, game.pits, spec, low, high, table, blocks, state, legal, fixed_low, fixed_high, edges)
    return first, last, fixed_low, fixed_high, edges


def _scratch(game):
    return (database_spec(game), game.from_board(np.zeros(game.board_size, dtype=np.int32)),
            np.zeros(game.pits, dtype=np.bool_))


def build_all(game, max_seeds: int, table, blocks, advance) -> np.ndarray:
    """Layers 0..``max_seeds``: ``low`` then ``high``, one array of twice the boards."""
    size = int(blocks[-1, 0])
    bounds = np.empty(2 * size, dtype=np.int8)
    low, high = bounds[:size], bounds[size:]
    spec, state, legal = _scratch(game)
    for seeds in range(max_seeds + 1):
        first, last = int(blocks[seeds, 0]), int(blocks[seeds + 1, 0])
        low[first:last], high[first:last] = -(seeds + 1), seeds + 1  # nothing forced yet
        first, last, fixed_low, fixed_high, edges = _layer_edges(game, seeds, spec, low, high, table, blocks, state,
                                                                 legal)
        while relax_layer(first, fixed_low, fixed_high, edges, low, high):
            pass
        np.maximum(low[first:last], -seeds, out=low[first:last])  # no margin is outside -n..n
        np.minimum(high[first:last], seeds, out=high[first:last])
        advance(last - first)
    return bounds


def search_bounds(db) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(``low``, ``high``, ``safe_low``, ``safe_high``) of every board of ``db``, for the search
    under our rules (:mod:`mancala_marl.endgame.oware_solver`).

    ``safe_low``/``safe_high`` bound the margin to come whatever the history: as if the side they
    bound against could end the game at any position the line enters, as a repetition of it would
    (the seeds swept as they lie there). They come from iterating ``safe_low(p) = max over moves
    of min(the sweep of the child, -safe_high(child))`` (a capture or an end: its outcome) from
    plus infinity, and ``safe_high(p) = max(sweep, -safe_low(child))`` from minus infinity.
    ``low``/``high`` are the database's bounds, for a position right after a capture, where the
    forcing side may also stop forcing and hold its safe bound; captures lead to boards bounded
    the same way. Both pairs are rebuilt from the rules, layer by layer, as the database is
    (about twice as long as building it)."""
    game, table, blocks = db.game, db.table, db.blocks
    size = int(blocks[-1, 0])
    low, high = np.empty(size, dtype=np.int8), np.empty(size, dtype=np.int8)
    safe_low, safe_high = np.empty(size, dtype=np.int8), np.empty(size, dtype=np.int8)
    spec, state, legal = _scratch(game)
    for seeds in range(db.max_seeds + 1):
        first, last, fixed_low, fixed_high, edges = _layer_edges(game, seeds, spec, low, high, table, blocks, state,
                                                                 legal)
        lead = np.empty(last - first, dtype=np.int8)
        for mine in range(seeds + 1):
            end = blocks[seeds, mine + 1] if mine < seeds else last
            lead[blocks[seeds, mine] - first:end - first] = 2 * mine - seeds
        safe_low[first:last], safe_high[first:last] = seeds + 1, -(seeds + 1)
        while relax_safe(first, fixed_low, fixed_high, edges, lead, safe_low, safe_high):
            pass
        low[first:last], high[first:last] = -(seeds + 1), seeds + 1
        while relax_layer(first, fixed_low, fixed_high, edges, low, high, safe_low, safe_high):
            pass
        for bound in (low, high, safe_low, safe_high):
            np.clip(bound[first:last], -seeds, seeds, out=bound[first:last])
    return low, high, safe_low, safe_high
