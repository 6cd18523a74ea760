"""The family's turns: which moves are legal (move rules, chosen ways, must-share), a move played
whole, and the end of the game with who takes the seeds left (:mod:`mancala_marl.games.family`
says them in words)."""

from __future__ import annotations

import numpy as np

from .._compile import kernel
from .base import GAME_OVER, SPEC_PITS, SPEC_SEEDS, action_count, sweep_to_stores
from .family_space import (BOTH_STORES, Cleared, Direction, ENDLESS, EXTRA_TURNS, FIRST_WAY, Goal, GrandSlam,
                           Leftover, MARKS, MOVES_PLAYED, MOVE_LIMIT, MoveRule, NO_RETURN, PLAYED, REPEAT, SLAMMED, Spec,
                           TURNS_PLAYED, WINNER, history_slot, row_seeds, share_out, side_of, sown_store, walk)
from .family_children import (bank_children, child_seeds, claim_children_leftover, divide_into_children,
                              free_row_seeds, has_child, mark_of)
from .history import clear_history, record_position
from .family_rounds import closed_count, next_round
from .family_start import start_total
from .family_sowing import crossing_cell, sow_and_capture, sows_backward, way_allowed


@kernel(inline="always")
def may_move(state, spec, mover, hole, backward):
    """Whether ``hole`` holds enough seeds and passes the move rule, sown clockwise (``backward``)
    or not (not yet must-share or an illegal grand slam)."""
    holes = spec[SPEC_PITS]
    origin = mover * (holes + 1) + hole
    seeds = state[origin]
    # a child is never played
    if seeds < spec[Spec.MIN_SEEDS] or (spec[Spec.CHILDREN] and mark_of(state, holes, origin) != 0):
        return False
    rule = spec[Spec.MOVE_RULE]
    own_store = sown_store(spec, mover, holes)
    if rule == MoveRule.SINGLE_TO_EMPTY:  # a lone seed moves only into an empty hole (and never into the store)
        following = walk(state, spec, origin, holes, backward, own_store)
        return side_of(following, holes) >= 0 and not (seeds == 1 and state[following] > 0)
    if rule == MoveRule.NOT_ACROSS_ONES:  # not across from a hole of the opponent's holding one seed
        return state[2 * holes - origin] != 1
    if rule == MoveRule.OPPONENT_OR_EMPTY and seeds <= holes:  # the first lap must end across, or in an empty hole
        cell = first_lap_end(state, spec, origin, seeds, holes, backward, own_store)
        return not (side_of(cell, holes) == mover and state[cell] > 0)
    if rule == MoveRule.EVERY_HOLE_FIRST:  # a hole played already waits until each of the row's has been
        marks = 2 * holes + 2 + MARKS
        if state[marks + origin] == PLAYED:
            for cell in range(mover * (holes + 1), mover * (holes + 1) + holes):
                if state[marks + cell] != PLAYED:
                    return False
        return True
    if rule == MoveRule.TO_OCCUPIED:  # the first lap must not end in a hole it leaves holding one seed
        cell = first_lap_end(state, spec, origin, seeds, holes, backward, own_store)
        if side_of(cell, holes) < 0:
            return True
        # the seeds the lap drops there: it passes every cell of the ring alike, laps apart
        ring = 2 * holes + (own_store >= 0) + 2 * (own_store == BOTH_STORES) - (spec[Spec.SKIP_ORIGIN] != 0) \
            - closed_count(state, spec)
        left = seeds - 1 if spec[Spec.LEAVE_ONE] else seeds
        dropped = (left - 1) // ring + 1
        before = 1 if cell == origin and spec[Spec.LEAVE_ONE] else (0 if cell == origin else state[cell])
        return before + dropped != 1
    return True


@kernel(inline="always")
def first_lap_end(state, spec, origin, seeds, holes, backward, own_store):
    """The cell where a move's first lap from ``origin`` (``seeds`` in it) drops its last seed."""
    cell = origin
    left = seeds - 1 if spec[Spec.LEAVE_ONE] and not (seeds == 1 and spec[Spec.MOVE_ONE]) else seeds
    while left > 0:
        cell = walk(state, spec, cell, holes, backward, own_store)
        if cell == origin and spec[Spec.SKIP_ORIGIN]:
            cell = walk(state, spec, cell, holes, backward, own_store)
        left -= 1
    return cell


@kernel(refcounts=False)
def movable(state, spec, mover, out):
    """The actions whose hole holds enough seeds, that pass the move rule and, where a move names
    its way, may go that way, into ``out``; returns their count."""
    holes = spec[SPEC_PITS]
    first = mover * (holes + 1)
    # the hole a lone seed just crossed into may not be played back (no hole: out of 0..holes-1)
    blocked = state[2 * holes + 2 + NO_RETURN] - 1 - first
    count = 0
    if action_count(spec) > holes:  # hole h counter-clockwise, then h + holes clockwise
        for way in range(2):
            for h in range(holes):
                ok = h != blocked and way_allowed(state, spec, mover, h, way == 1) and \
                    may_move(state, spec, mover, h, way == 1)
                out[way * holes + h] = ok
                count += ok
    # the common case, without may_move's call per hole (a third of a move's time)
    elif spec[Spec.MOVE_RULE] == MoveRule.ANY and not spec[Spec.CHILDREN]:
        least = spec[Spec.MIN_SEEDS]
        for h in range(holes):
            out[h] = state[first + h] >= least and h != blocked
            count += out[h]
    else:
        for h in range(holes):
            out[h] = h != blocked and may_move(state, spec, mover, h, sows_backward(spec, h, state[first + h]))
            count += out[h]
    if spec[Spec.MOVE_RULE] == MoveRule.SINGLES_LAST:  # a hole of one only when every hole that may be played holds one
        others = False
        for action in range(action_count(spec)):
            others = others or (out[action] and state[first + action % holes] != 1)
        if others:
            for action in range(action_count(spec)):
                if out[action] and state[first + action % holes] == 1:
                    out[action] = False
                    count -= 1
    return count


@kernel(refcounts=False)
def legal_holes(state, spec, out):
    """The mover's legal actions into ``out``; returns their count. Must-share and an illegal grand
    slam are decided by playing each move on a copy."""
    holes = spec[SPEC_PITS]
    cells = 2 * holes + 2
    mover = state[cells]
    if mover == GAME_OVER:
        out[:] = False
        return 0
    count = movable(state, spec, mover, out)
    if count == 0:
        return 0
    share = fed = False
    if spec[Spec.MUST_SHARE] or spec[Spec.GRAND_SLAM] == GrandSlam.ILLEGAL:
        opponent_seeds = row_seeds(state, holes, 1 - mover)
        share = spec[Spec.MUST_SHARE] and opponent_seeds == 0
        fed = share or (spec[Spec.GRAND_SLAM] == GrandSlam.ILLEGAL and opponent_seeds > 0)
    if fed or (spec[Spec.SLAM_AVOIDED] and count > 1):
        count = tried_holes(state, spec, out, share, fed)
    return count


@kernel(refcounts=True)
def tried_holes(state, spec, out, share, fed):
    """legal_holes' trial of each movable action in ``out`` on a copy, once: with ``fed``, it stays
    legal when it leaves the opponent seeds (``share``: the opponent has none; else the grand slam
    is illegal); then with ``slam_avoided``, the grand slams among those left are dropped unless
    every one is. Returns the count kept."""
    holes = spec[SPEC_PITS]
    mover = state[2 * holes + 2]
    avoid = spec[Spec.SLAM_AVOIDED] != 0
    kept = 0
    slams = np.zeros(out.shape[0], dtype=np.bool_)
    either_way = share and spec[Spec.SHARE_EITHER_WAY] != 0
    movable_ones = out.copy() if either_way else out  # (read only where a hole's other way may come back)
    trial = np.empty(state.shape[0], dtype=state.dtype)  # not empty_like: the narration replays on an array subclass
    for action in range(action_count(spec)):
        if out[action]:
            trial[:] = state
            result = sow_and_capture(trial, spec, action)
            slams[action] = avoid and (result & SLAMMED) != 0
            if fed:
                out[action] = row_seeds(trial, holes, 1 - mover) > 0
            kept += out[action]
    if either_way:  # a hole that feeds one way is played either way
        for hole in range(holes):
            if out[hole] or out[hole + holes]:
                kept += (movable_ones[hole] and not out[hole]) + (movable_ones[hole + holes] and not out[hole + holes])
                out[hole], out[hole + holes] = movable_ones[hole], movable_ones[hole + holes]
    if kept == 0 and share and spec[Spec.MUST_PASS]:  # nothing shares: any move will do
        kept = movable(state, spec, mover, out)
    if avoid and kept > 1:
        taken = 0
        for action in range(out.shape[0]):
            taken += out[action] and slams[action]
        if taken < kept:
            for action in range(out.shape[0]):
                out[action] = out[action] and not slams[action]
            kept -= taken
    return kept


@kernel(inline="always")
def has_move(state, spec, player):
    holes = spec[SPEC_PITS]
    cells = 2 * holes + 2
    if (
        spec[Spec.MOVE_RULE] == MoveRule.ANY
        and not spec[Spec.MUST_SHARE]
        and spec[Spec.GRAND_SLAM] != GrandSlam.ILLEGAL
        and state[cells + NO_RETURN] == 0
        and not spec[Spec.CHILDREN]
    ):
        for cell in range(player * (holes + 1), player * (holes + 1) + holes):  # no move to try on a copy
            if state[cell] >= spec[Spec.MIN_SEEDS]:
                return True
        return False
    return has_legal_move(state, spec, player)


@kernel(refcounts=True)
def has_legal_move(state, spec, player):
    """Whether ``player`` has a legal move, by legal_holes (into a mask it allocates)."""
    cells = 2 * spec[SPEC_PITS] + 2
    scratch = np.empty(action_count(spec), dtype=np.bool_)
    saved = state[cells]
    state[cells] = player
    count = legal_holes(state, spec, scratch)
    state[cells] = saved
    return count > 0


@kernel(refcounts=False)
def claim_leftover(state, holes, mover, rule):
    """The end: the seeds still on the board go by ``rule`` (a Leftover; Leftover.MOVER: to ``mover``)."""
    if rule == Leftover.OWNER:
        sweep_to_stores(state, holes)
        return
    left = 0
    for player in range(2):
        first = player * (holes + 1)
        for cell in range(first, first + holes):
            left += state[cell]
            state[cell] = 0
    share_out(state, holes, mover, rule, left)


@kernel(refcounts=False)
def goal_outcome(state, spec, mover, following):
    """After ``mover``'s move in a game of another goal than most seeds, whose end no store count
    decides: -1 to play on, else the WINNER slot's value (1 + the winner, 0: a draw)."""
    holes = spec[SPEC_PITS]
    goal = spec[Spec.GOAL]
    mine, theirs = row_seeds(state, holes, mover), row_seeds(state, holes, 1 - mover)
    if goal == Goal.DEPRIVE and (theirs == 0 or mine == 0):  # the opponent's row first: both empty, the mover wins
        return 1 + (mover if theirs == 0 else 1 - mover)
    if goal == Goal.CLEAR and (mine == 0 or theirs == 0):  # the mover's own row first
        return 1 + (mover if mine == 0 else 1 - mover)
    if not has_move(state, spec, following):  # a player who cannot move loses (clear: a draw, no rule says)
        return 0 if goal == Goal.CLEAR else 2 - following
    return 0 if state[2 * holes + 2 + MOVES_PLAYED] >= MOVE_LIMIT else -1


@kernel(refcounts=False)
def repeated(state, spec, banked):
    """repetition_ends, after a move with the player to move set: whether the position came before
    since the last move that put seeds in a store (``banked``: the stores' seeds before the move),
    or the stretch of positions without one is full (Oware's history, kept after the marks)."""
    holes = spec[SPEC_PITS]
    cells = 2 * holes + 2
    base = history_slot(spec)
    if state[holes] + state[cells - 1] != banked:  # seeds banked never come back: no older position recurs
        clear_history(state, cells, base)
    return record_position(state, cells, base)


# What follows a move in a game of most seeds (turn_after), beside the player to move next
GAME_ENDS = -1  # the game is over: the seeds left go by leftover
WON_AS_IT_LIES = -2  # won outright (early_win without win_sweep): the board stays as it is


@kernel(refcounts=False)
def apply_move(state, action, spec):
    """Play ``action`` for the player to move: its sowing and captures, then the turn and the end,
    by the goal's rule or, for most seeds, by turn_after's; in a match, a round's end sets up the
    next round (family_rounds)."""
    cells = 2 * spec[SPEC_PITS] + 2
    mover = state[cells]
    endless = play_move(state, action, spec)
    if spec[Spec.ROUNDS] and state[cells] == GAME_OVER:
        # (the starter always has a move: family_rules keeps the rules that could refuse it out of a match)
        next_round(state, spec, mover, 1 - mover if state[cells + EXTRA_TURNS] == 0 else mover, endless)


@kernel(inline="always")
def play_move(state, action, spec):
    """One move of a round; returns whether its sowing was endless."""
    holes = spec[SPEC_PITS]
    cells = 2 * holes + 2
    mover = state[cells]
    state[cells + MOVES_PLAYED] += 1
    # the way chosen is the mover's for the game
    if spec[Spec.DIRECTION] == Direction.OPPOSED and state[cells + FIRST_WAY] == 0:
        clockwise = action >= holes
        state[cells + FIRST_WAY] = 1 + (clockwise if mover == 0 else not clockwise)
    crossed = crossing_cell(state, spec, action)
    banked = state[holes] + state[cells - 1]
    result = sow_and_capture(state, spec, action)
    if spec[Spec.CHILDREN_BANK]:
        bank_children(state, holes)
    state[cells + NO_RETURN] = crossed + 1 if crossed >= 0 and state[crossed] == 1 else 0
    if result & ENDLESS:
        end_endless(state, spec, mover)
        return True
    repeat = (result & REPEAT) != 0
    following = mover if repeat else 1 - mover
    state[cells + TURNS_PLAYED] += not repeat  # before the end's trial moves: no_capture_turns counts it
    state[cells + EXTRA_TURNS] = state[cells + EXTRA_TURNS] + 1 if repeat else 0
    if spec[Spec.GOAL]:  # none of the ends below: the goal's own
        outcome = goal_outcome(state, spec, mover, following)
        state[cells + WINNER] = max(outcome, 0)
        state[cells] = GAME_OVER if outcome >= 0 else following
        return False
    following = turn_after(state, spec, mover, repeat)
    if following == WON_AS_IT_LIES:
        state[cells] = GAME_OVER
        return False
    if following >= 0:
        state[cells] = following
        if not (spec[Spec.REPETITION_ENDS] and repeated(state, spec, banked)):
            return False
    if spec[Spec.CHILDREN]:
        claim_children_leftover(state, spec, mover, spec[Spec.LEFTOVER])
    else:
        claim_leftover(state, holes, mover, spec[Spec.LEFTOVER])
    state[cells] = GAME_OVER
    return False


@kernel(inline="always")
def end_endless(state, spec, mover):
    """A move that sowed without end (MAX_LAPS) ends the game: in a game of most seeds the seeds
    left go by endless_leftover; another goal's is a draw, the board as it is."""
    holes = spec[SPEC_PITS]
    # (the importer keeps endless_leftover "divided" here)
    if spec[Spec.GOAL] == Goal.MOST_SEEDS and spec[Spec.CHILD_STORES]:
        divide_into_children(state, spec)
    elif spec[Spec.GOAL] == Goal.MOST_SEEDS and spec[Spec.CHILDREN]:
        claim_children_leftover(state, spec, mover, spec[Spec.ENDLESS_LEFTOVER])
    elif spec[Spec.GOAL] == Goal.MOST_SEEDS:
        claim_leftover(state, holes, mover, spec[Spec.ENDLESS_LEFTOVER])
    state[2 * holes + 2] = GAME_OVER


@kernel(inline="always")
def turn_after(state, spec, mover, repeat):
    """After ``mover``'s move in a game of most seeds (another turn if ``repeat``): the player to
    move next, a pass made (must_pass), or GAME_ENDS, or WON_AS_IT_LIES."""
    holes = spec[SPEC_PITS]
    cells = 2 * holes + 2
    following = mover if repeat else 1 - mover
    on_board, playable = seeds_in_play(state, spec)
    if 0 <= spec[Spec.END_SEEDS_LEFT] and on_board <= spec[Spec.END_SEEDS_LEFT] or row_cleared(state, spec, mover):
        return GAME_ENDS
    won = won_outright(state, spec)
    if won and not spec[Spec.WIN_SWEEP]:
        return WON_AS_IT_LIES
    if not won and spec[Spec.UNFED_TAKES] and spec[Spec.MUST_SHARE] and not spec[Spec.MUST_PASS] and playable:
        unfed = unfed_player(state, spec, mover, repeat)  # MancalaGames' must-share end, before the general one
        if unfed >= 0:
            claim_leftover(state, holes, unfed, Leftover.MOVER)  # all to the unfed player
            return GAME_ENDS
    if won or not playable:
        return GAME_ENDS
    ended = passes = not has_move(state, spec, following)
    if passes and spec[Spec.MUST_PASS]:
        # a pass is a turn, and it may change what the other player may play (no_capture_turns
        # lifts, and a grand slam it allows may be illegal): their move is tried after it
        state[cells + TURNS_PLAYED] += 1
        ended = not has_move(state, spec, 1 - following)
        state[cells + TURNS_PLAYED] -= 1
    children = spec[Spec.CHILDREN]
    few = 0 < on_board < spec[Spec.END_BELOW] and not (
        children and (has_child(state, holes, 0) or has_child(state, holes, 1))
    )
    if ended or few or state[cells + MOVES_PLAYED] >= MOVE_LIMIT:
        return GAME_ENDS
    if passes and spec[Spec.MUST_PASS]:
        following = 1 - following
        state[cells + TURNS_PLAYED] += 1
    return following


@kernel(inline="always")
def seeds_in_play(state, spec):
    """The seeds in the holes out of children, and whether a hole holds enough to be played, where
    a rule asks for them; else (0, True): an empty board is found by has_move (the per-move loop
    was a tenth of a move's time)."""
    holes = spec[SPEC_PITS]
    children = spec[Spec.CHILDREN]
    on_board = 0
    playable = True
    if (
        spec[Spec.END_SEEDS_LEFT] >= 0
        or spec[Spec.END_BELOW] > 0
        or spec[Spec.MIN_SEEDS] > 1
        or spec[Spec.UNFED_TAKES]
        or children
    ):
        playable = False
        for player in range(2):
            first = player * (holes + 1)
            for cell in range(first, first + holes):
                if children and mark_of(state, holes, cell) != 0:  # a child's seeds are out of play
                    continue
                on_board += state[cell]
                playable = playable or state[cell] >= spec[Spec.MIN_SEEDS]
    return on_board, playable


@kernel(inline="always")
def row_cleared(state, spec, mover):
    """Whether a row is empty that ends the game by end_cleared (its children left out)."""
    cleared = spec[Spec.END_CLEARED]
    if not cleared:
        return False
    holes = spec[SPEC_PITS]
    children = spec[Spec.CHILDREN]
    mine = free_row_seeds(state, holes, mover) if children else row_seeds(state, holes, mover)
    theirs = free_row_seeds(state, holes, 1 - mover) if children else row_seeds(state, holes, 1 - mover)
    if cleared == Cleared.OWN:
        return mine == 0
    if cleared == Cleared.OPPONENT:
        return theirs == 0
    return cleared == Cleared.EITHER and (mine == 0 or theirs == 0)


@kernel(inline="always")
def won_outright(state, spec):
    """early_win: whether a store (with its player's children) holds more than half the seeds
    (win_short: all but that many), or both exactly half."""
    if not spec[Spec.EARLY_WIN]:
        return False
    holes = spec[SPEC_PITS]
    total = start_total(spec[Spec.START], holes, spec[SPEC_SEEDS])  # MancalaGames counts from the rules, not the board
    win = total - spec[Spec.WIN_SHORT] if spec[Spec.WIN_SHORT] else (total + 1) // 2
    s0, s1 = state[holes], state[2 * holes + 1]
    if spec[Spec.CHILDREN]:  # a player's children count beside its store
        s0 += child_seeds(state, holes, 0)
        s1 += child_seeds(state, holes, 1)
    return s0 > win or s1 > win or (s0 == win and s1 == win)


@kernel(inline="always")
def unfed_player(state, spec, mover, repeat):
    """MancalaGames' must-share end (unfed_takes): the player whose row is empty when the player to
    move holds seeds but has no move (none feeds it), who takes the seeds left; or -1."""
    holes = spec[SPEC_PITS]
    mover_can, other_can = False, False
    for h in range(holes):
        mover_can = mover_can or state[mover * (holes + 1) + h] >= spec[Spec.MIN_SEEDS]
        other_can = other_can or state[(1 - mover) * (holes + 1) + h] >= spec[Spec.MIN_SEEDS]
    if repeat and mover_can and not other_can and not has_move(state, spec, mover):
        return 1 - mover
    if not repeat and not mover_can and other_can and not has_move(state, spec, 1 - mover):
        return mover
    return -1
