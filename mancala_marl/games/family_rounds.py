"""A match of rounds (``rounds="match"``), as MancalaGames plays its games of rounds won by seeds:
the end of one round sets up the next, inside the move that ended it.

- **The seeds each player holds** at a round's end are its store and the seeds left in its own
  row (a round won outright leaves the board as it lies, and those seeds are the row owner's).
- **The match ends** when either holds fewer than ``match_holes * seeds`` (too few to fill that
  many holes), after an endless sowing, or at the family's own bound, ``MOVE_LIMIT`` (1000) moves
  in all, which ends the round then played (MancalaGames has none); it is won as its last round
  was, by the stores.
- **The next round's board**: each player fills as many of its holes as its seeds allow,
  ``seeds`` a hole, in ``round_fill``'s order; the seeds left over stay in its store. With
  ``closed_holes`` the holes it could not fill are closed for the round: the walk round the ring
  passes them (``family_space.walk``), so no seed is sown into them and no capture reaches them.
  Without it they are open, and empty.
- **A match won by a tally** (``match_end`` "round_wins" or "points", MancalaGames' RND_WIN_COUNT_MAX
  and RND_POINTS) starts each round afresh, every hole holding ``seeds`` and the stores empty (the
  seeds out of play back on the board); a
  round won scores a round win, or a point and another for three quarters of the seeds or more in
  store; the match ends when a player's tally reaches ``match_target`` (or after an endless sowing,
  or at ``MOVE_LIMIT`` moves), won by the higher tally (level: a draw).
- **Who starts it**: ``round_starter``.
- Every other slot starts afresh (turns played, extra turns, an opposed game's ways) but the
  moves played, which count the match's; the seeds out of play stay out.

The match's slots (``family_space.MATCH_SLOTS``, after the marks and the history) hold the round
being played, its starter and the last round's result, which the environments report.
"""

from __future__ import annotations

from .._compile import kernel
from .base import SPEC_PITS, SPEC_SEEDS
from .family_space import (CLOSED, DRAWN_ROUND, EXTRA_TURNS, FIRST_WAY, LAST_SEEDS, LAST_WINNER, MARKS,
                           MOVES_PLAYED, MOVE_LIMIT, MatchEnd, NO_RETURN, OUT_OF_PLAY, ROUND, ROUND_STARTER,
                           RoundFill, RoundStarter, Spec, TALLY, TURNS_PLAYED, WINNER, match_slot, row_seeds)
from .family_start import start_total


@kernel(inline="always")
def closed_count(state, spec):
    """The holes closed for the round (0 without closed_holes)."""
    if not spec[Spec.CLOSED_HOLES]:
        return 0
    cells = 2 * spec[SPEC_PITS] + 2
    count = 0
    for cell in range(cells):
        count += state[cells + MARKS + cell] == CLOSED
    return count


@kernel(inline="always")
def filled_hole(spec, player, k):
    """The ``k``-th hole ``player`` fills for a round (as it sees its row, from its left end)."""
    holes = spec[SPEC_PITS]
    fill = spec[Spec.ROUND_FILL]
    if fill == RoundFill.LEFT:
        return k
    if fill == RoundFill.RIGHT:
        return holes - 1 - k
    # from both ends inwards, player_0 from its left end, player_1 from its right: MancalaGames
    # fills both rows alike from the left end of the board as player_0 sees it
    hole = k // 2 if k % 2 == 0 else holes - 1 - k // 2
    return hole if player == 0 else holes - 1 - hole


@kernel(inline="always")
def round_starter(state, spec, winner, mover, following):
    """Who starts the next round: ``winner`` of the last (-1: drawn), ``mover`` its last mover,
    ``following`` the player whose turn would have come next."""
    rule = spec[Spec.ROUND_STARTER]
    if rule == RoundStarter.ALTERNATE:
        return 1 - state[match_slot(spec) + ROUND_STARTER]
    if rule == RoundStarter.LOSER:
        return 1 - winner if winner >= 0 else 1 - following
    if rule == RoundStarter.WINNER:
        return winner if winner >= 0 else following
    return mover


@kernel(inline="always")
def tallied_end(state, spec, winner, s0, s1, endless):
    """A match won by a tally: the round's ``winner`` (-1: drawn) scores a round win, or a point and
    another for three quarters of the seeds in store (``s0``, ``s1``); whether the match is over, a
    player having reached match_target (or an endless sowing, or MOVE_LIMIT moves), its winner
    then in the WINNER slot (the higher tally; level: a draw)."""
    holes = spec[SPEC_PITS]
    cells = 2 * holes + 2
    tally = match_slot(spec) + TALLY
    if winner >= 0:
        skunk = start_total(spec[Spec.START], holes, spec[SPEC_SEEDS]) * 3 // 4
        state[tally + winner] += 1 + (spec[Spec.MATCH_END] == MatchEnd.POINTS and max(s0, s1) >= skunk)
    t0, t1 = state[tally], state[tally + 1]
    target = spec[Spec.MATCH_TARGET]
    if not (endless or t0 >= target or t1 >= target or state[cells + MOVES_PLAYED] >= MOVE_LIMIT):
        return False
    state[cells + WINNER] = 0 if t0 == t1 else (1 if t0 > t1 else 2)
    return True


@kernel(inline="always")
def next_round(state, spec, mover, following, endless):
    """A round has just ended (the player to move is GAME_OVER): record its result, and set up the
    next round unless the match is over. Returns whether a round was set up."""
    holes, seeds = spec[SPEC_PITS], spec[SPEC_SEEDS]
    cells = 2 * holes + 2
    base = match_slot(spec)
    stores = (holes, cells - 1)
    held0 = state[holes] + row_seeds(state, holes, 0)
    held1 = state[cells - 1] + row_seeds(state, holes, 1)
    s0, s1 = state[holes], state[cells - 1]
    winner = 0 if s0 > s1 else (1 if s1 > s0 else -1)
    state[base + LAST_WINNER] = winner + 1 if winner >= 0 else DRAWN_ROUND
    state[base + LAST_SEEDS] = held0
    state[base + LAST_SEEDS + 1] = held1
    if spec[Spec.MATCH_END] != MatchEnd.UNFILLED:  # a tally: each round starts afresh, as the game does
        if tallied_end(state, spec, winner, s0, s1, endless):
            return False
        for cell in range(cells):
            state[cell] = 0 if cell == holes or cell == cells - 1 else seeds
        state[cells + OUT_OF_PLAY] = 0  # every seed is back on the board
        return start_round(state, spec, winner, mover, following)
    need = spec[Spec.MATCH_HOLES] * seeds
    if endless or held0 < need or held1 < need or state[cells + MOVES_PLAYED] >= MOVE_LIMIT:
        return False
    for player in range(2):
        held = held0 if player == 0 else held1
        filled = min(held // seeds, holes)
        state[stores[player]] = held - filled * seeds
        for k in range(holes):
            cell = player * (holes + 1) + filled_hole(spec, player, k)
            state[cell] = seeds if k < filled else 0
            if spec[Spec.CLOSED_HOLES]:
                state[cells + MARKS + cell] = CLOSED if k >= filled else 0
    return start_round(state, spec, winner, mover, following)


@kernel(inline="always")
def start_round(state, spec, winner, mover, following):
    """The next round, its board set: its starter to move, the round's slots afresh."""
    cells = 2 * spec[SPEC_PITS] + 2
    base = match_slot(spec)
    starter = round_starter(state, spec, winner, mover, following)
    state[base + ROUND] += 1
    state[base + ROUND_STARTER] = starter
    for slot in (TURNS_PLAYED, EXTRA_TURNS, FIRST_WAY, NO_RETURN, WINNER):
        state[cells + slot] = 0
    state[cells] = starter
    return True
