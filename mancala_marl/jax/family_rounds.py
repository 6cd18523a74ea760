"""A match of rounds in JAX (``rounds="match"``): the twin of :mod:`mancala_marl.games.family_rounds`,
the next round set up within the move that ends one, held to it move for move."""

from __future__ import annotations

import jax.numpy as jnp

from ..games.base import SPEC_PITS, SPEC_SEEDS
from ..games.family_space import (CLOSED, DRAWN_ROUND, EXTRA_TURNS, FIRST_WAY, HISTORY_SLOTS, LAST_SEEDS,
                                  LAST_WINNER, MARKS, MOVES_PLAYED, MOVE_LIMIT, MatchEnd, NO_RETURN, OUT_OF_PLAY,
                                  ROUND, ROUND_STARTER, RoundFill, RoundStarter, Spec, TALLY, TURNS_PLAYED, WINNER)
from .family_ring import row_seeds, side_of


def match_slot(spec, history):
    """The first of the match's slots (numba's family_space.match_slot); ``history``: the history's
    first slot."""
    return history + jnp.where(spec[Spec.REPETITION_ENDS] != 0, HISTORY_SLOTS, 0)


def fill_rank(spec, player, hole):
    """The place of ``hole`` in the order ``player`` fills its holes for a round (0: first): the
    inverse of numba's family_rounds.filled_hole."""
    holes = spec[SPEC_PITS]
    south = jnp.where(player == 0, hole, holes - 1 - hole)  # "outside": both rows from player_0's left end
    outside = jnp.where(south <= holes - 1 - south, 2 * south, 2 * (holes - 1 - south) + 1)
    return jnp.select([spec[Spec.ROUND_FILL] == RoundFill.LEFT, spec[Spec.ROUND_FILL] == RoundFill.RIGHT],
                      [hole, holes - 1 - hole], outside)


def next_round(flat, spec, history, mover, following, endless):
    """A round has just ended (the player to move is GAME_OVER) in a match: its result recorded, and
    the next round set up unless the match is over (the player to move then the next round's
    starter; a starter without a move is for the caller to end). Returns (flat, set up)."""
    holes, seeds = spec[SPEC_PITS], spec[SPEC_SEEDS]
    cells = 2 * holes + 2
    size = flat.shape[0]
    base = match_slot(spec, history)
    held = jnp.stack([flat[holes] + row_seeds(flat, holes, 0), flat[cells - 1] + row_seeds(flat, holes, 1)])
    s0, s1 = flat[holes], flat[cells - 1]
    winner = jnp.where(s0 > s1, 0, jnp.where(s1 > s0, 1, -1))
    slot = jnp.arange(size)
    recorded = jnp.select([slot == base + LAST_WINNER, slot == base + LAST_SEEDS, slot == base + LAST_SEEDS + 1],
                          [jnp.where(winner >= 0, winner + 1, DRAWN_ROUND), held[0], held[1]], flat)
    # a match won by a tally (numba's tallied_end): the round's winner scores; each round starts afresh
    tallied = spec[Spec.MATCH_END] != MatchEnd.UNFILLED
    skunk = spec[-1] * 3 // 4  # (the game's seeds, after the spec: a tally's start is equal)
    gain = 1 + ((spec[Spec.MATCH_END] == MatchEnd.POINTS) & (jnp.maximum(s0, s1) >= skunk))
    tally = jnp.stack([flat[jnp.clip(base + TALLY, 0, size - 1)], flat[jnp.clip(base + TALLY + 1, 0, size - 1)]])
    tally = tally + jnp.where(jnp.arange(2) == winner, gain, 0)
    recorded = jnp.where(tallied & (slot == base + TALLY), tally[0],
                         jnp.where(tallied & (slot == base + TALLY + 1), tally[1], recorded))
    decided = endless | (tally >= spec[Spec.MATCH_TARGET]).any() | (flat[cells + MOVES_PLAYED] >= MOVE_LIMIT)
    match_winner = jnp.where(tally[0] == tally[1], 0, jnp.where(tally[0] > tally[1], 1, 2))
    recorded = jnp.where(tallied & decided & (slot == cells + WINNER), match_winner, recorded)
    need = spec[Spec.MATCH_HOLES] * seeds
    goes_on = jnp.where(tallied, ~decided,
                        ~endless & (held >= need).all() & (flat[cells + MOVES_PLAYED] < MOVE_LIMIT))
    # the board: each hole by its place in its player's fill order; each store the seeds left over
    side = side_of(slot, holes)
    player = jnp.maximum(side, 0)
    hole = jnp.where(side == 1, slot - holes - 1, slot)
    filled = jnp.minimum(held // jnp.maximum(seeds, 1), holes)
    unfilled = fill_rank(spec, player, hole) >= filled[player]
    board = jnp.where((side >= 0) & (slot < cells), jnp.where(unfilled, 0, seeds), recorded)
    board = jnp.where(slot == holes, held[0] - filled[0] * seeds, jnp.where(slot == cells - 1, held[1] - filled[1] * seeds,
                                                                          board))
    # each hole's mark: closed where it was left unfilled
    cell = jnp.clip(slot - cells - MARKS, 0, size - 1)
    mark_side = side_of(cell, holes)
    mark_hole = jnp.where(mark_side == 1, cell - holes - 1, cell)
    closing = fill_rank(spec, jnp.maximum(mark_side, 0), mark_hole) >= filled[jnp.maximum(mark_side, 0)]
    is_mark = (spec[Spec.CLOSED_HOLES] != 0) & (slot >= cells + MARKS) & (slot < 2 * cells + MARKS)
    board = jnp.where(is_mark, jnp.where((mark_side >= 0) & closing, CLOSED, 0), board)
    fresh_board = jnp.where((slot < cells) & (side >= 0), seeds,  # the seeds out of play back on the board
                            jnp.where((slot == holes) | (slot == cells - 1) | (slot == cells + OUT_OF_PLAY), 0,
                                      recorded))
    board = jnp.where(tallied, fresh_board, board)
    rule = spec[Spec.ROUND_STARTER]
    starter = jnp.select([rule == RoundStarter.ALTERNATE, rule == RoundStarter.LOSER, rule == RoundStarter.WINNER],
                         [1 - flat[jnp.clip(base + ROUND_STARTER, 0, size - 1)],
                          jnp.where(winner >= 0, 1 - winner, 1 - following), jnp.where(winner >= 0, winner, following)],
                         mover)
    fresh = (slot == cells + TURNS_PLAYED) | (slot == cells + EXTRA_TURNS) | (slot == cells + FIRST_WAY) | \
        (slot == cells + NO_RETURN) | (slot == cells + WINNER)
    board = jnp.where(fresh, 0, board)
    board = jnp.where(slot == base + ROUND, flat[jnp.clip(base + ROUND, 0, size - 1)] + 1, board)
    board = jnp.where(slot == base + ROUND_STARTER, starter, board)
    board = jnp.where(slot == cells, starter, board).astype(flat.dtype)
    return jnp.where(goes_on, board, recorded.astype(flat.dtype)), goes_on

