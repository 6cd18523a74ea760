"""The family's sowing: which way a move goes, its laps, the holes it takes as it passes, and the
capture where it ends (:mod:`mancala_marl.games.family` says them in words)."""

from __future__ import annotations

from .._compile import kernel
from .base import SPEC_PITS, action_count
from .family_space import (BOTH_STORES, CAPTURED, CLOSED, MARKS, CaptureKind, ChooseDirection, Direction, ENDLESS, FIRST_WAY,
                           GrandSlam, Lap, LapRule, MAX_LAPS, OUT_OF_PLAY, OpponentStore, Passing, PreCapture,
                           PLAYED, REPEAT, Spec, TURNS_PLAYED, marks_played, next_sown, row_seeds, side_of, sown_store, step, walk)
from .family_capture import can_take, capture, pre_capture
from .family_children import child_due, mark_of


@kernel(refcounts=False)
def sow_and_capture(state, spec, action):
    """Play ``action`` (a hole of the player to move; where the way is chosen, ``hole + holes``
    sows it clockwise) and take what it captures; returns REPEAT | CAPTURED | ENDLESS | SLAMMED bits. The
    turn and the end are left to the caller."""
    holes = spec[SPEC_PITS]
    cells = 2 * holes + 2
    mover = state[cells]
    origin = mover * (holes + 1) + action % holes
    backward = action_backward(state, spec, mover, action)
    own_store = sown_store(spec, mover, holes)
    inhibited = state[cells + TURNS_PLAYED] < spec[Spec.NO_CAPTURE_TURNS]
    if marks_played(spec):  # the hole played (unlocked: locked_holes), before its own sowing reads it
        state[cells + MARKS + origin] = PLAYED
    # a lap stops where a capture by count is due, unless the captures are two out
    stop_for_count = spec[Spec.CAPTURE_MIN] > 0 and not spec[Spec.CROSS_CAPTURE] and not spec[Spec.CAPTURE_GAP] and \
        not inhibited and spec[Spec.CAPTURE_KIND] == CaptureKind.STANDARD
    # only a grand slam that takes nothing asks (a row's sum is a tenth of a move's time)
    opponent_had_seeds = spec[Spec.GRAND_SLAM] >= GrandSlam.NO_CAPTURE and (spec[Spec.SLAM_FROM_EMPTY] or
                                                                  row_seeds(state, holes, 1 - mover) > 0)
    lap_rule = spec[Spec.LAP_RULE]
    pre = spec[Spec.PRE_CAPTURE]
    if pre == PreCapture.ACROSS_ONES:  # from the board as the move found it, once
        pre_capture(state, pre, origin, 0, mover, holes)
    seeds = lift(state, spec, origin)
    last = origin
    laps = 0
    result = 0
    while True:
        if pre and pre != PreCapture.ACROSS_ONES:  # before each lap
            seeds = pre_capture(state, pre, origin, seeds, mover, holes)
        lap_seeds = seeds
        last = sow_lap(state, spec, origin, seeds, mover, backward, own_store, inhibited)
        if last == own_store:
            return result | REPEAT
        if own_store == BOTH_STORES and side_of(last, holes) < 0:  # (no laps: refused)
            if last == mover * (holes + 1) + holes or spec[Spec.OPPONENT_STORE] == OpponentStore.SOWN:
                return REPEAT
            if spec[Spec.CAPTURE_KIND] == CaptureKind.OPPONENT_STORE:
                return capture(state, spec, last, lap_seeds, opponent_had_seeds, backward)
            return 0
        if own_store >= 0 and result & REPEAT:  # a lap's capture gave another turn: the sowing stops
            break
        if lap_rule and not lap_goes_on(state, spec, last, holes, mover, lap_rule):  # before a lap's capture
            break
        go_on, origin, taken = next_lap(state, spec, last, lap_seeds, mover, backward, own_store, stop_for_count,
                                        opponent_had_seeds)
        result |= taken
        if spec[Spec.CLOSE_AT] and not inhibited and closes(state, spec, last, mover):
            close_hole(state, spec, last, go_on)
        if not go_on:
            break
        laps += 1
        if laps >= MAX_LAPS:
            state[cells + OUT_OF_PLAY] += state[origin]  # the seeds in hand leave play, as MancalaGames drops them
            state[origin] = 0
            return ENDLESS
        seeds = state[origin]
        state[origin] = 0
    return result | capture(state, spec, last, lap_seeds, opponent_had_seeds, backward)


@kernel(inline="always")
def closes(state, spec, last, mover):
    """close_at: whether the lap that ended in ``last`` closes it: a hole of the opponent's, open,
    brought to close_at seeds (the opponent's rightmost too, where close_rightmost)."""
    holes = spec[SPEC_PITS]
    return side_of(last, holes) == 1 - mover and state[last] == spec[Spec.CLOSE_AT] and \
        mark_of(state, holes, last) != CLOSED and \
        (spec[Spec.CLOSE_RIGHTMOST] or last != (1 - mover) * (holes + 1) + holes - 1)


@kernel(inline="always")
def close_hole(state, spec, cell, sown_on):
    """Close ``cell`` for good; its seeds leave play, unless a relay lap goes on sowing them
    (``sown_on``: MancalaGames closes a relay's hole only as the relay goes on from it)."""
    holes = spec[SPEC_PITS]
    if spec[Spec.LAPS] == Lap.RELAY and not sown_on:
        return
    state[2 * holes + 2 + MARKS + cell] = CLOSED
    if not sown_on:
        state[2 * holes + 2 + OUT_OF_PLAY] += state[cell]
        state[cell] = 0


@kernel(inline="always")
def lift(state, spec, origin):
    """The seeds a move takes up from ``origin``: all of them, or all but one (leave_one; a lone
    seed moves where move_one lets it)."""
    seeds = state[origin]
    if spec[Spec.LEAVE_ONE] and not (seeds == 1 and spec[Spec.MOVE_ONE]):
        state[origin] = 1
        return seeds - 1
    state[origin] = 0
    return seeds


@kernel(inline="always")
def sow_lap(state, spec, origin, seeds, mover, backward, own_store, inhibited):
    """Sow ``seeds`` one a hole from ``origin``, with what passing and last_seeds_to_opponent take
    on the way; returns the last cell sown."""
    holes = spec[SPEC_PITS]
    passing, few_left = spec[Spec.PASSING], spec[Spec.LAST_SEEDS_TO_OPPONENT]
    # few seeds left on the board: those sown in the opponent's holes are the opponent's
    to_opponent = few_left > 0 and row_seeds(state, holes, 0) + row_seeds(state, holes, 1) <= few_left
    special = to_opponent or (passing and not inhibited)  # one test a seed where neither is
    # holes to pass over beyond the origin
    closing = spec[Spec.CLOSE_AT] > 0
    passes_over = spec[Spec.SOW_MAX] or spec[Spec.CHILD_SOWING] or spec[Spec.CLOSED_HOLES] or closing or \
        spec[Spec.SOW_OWN_ROW]
    skip_origin = spec[Spec.SKIP_ORIGIN]
    cell = origin
    while seeds > 0:
        if passes_over:  # full holes, the opponent's children or closed holes to pass over too, or one row's ring
            cell = next_sown(state, spec, cell, origin, holes, backward, own_store, mover, seeds == 1)
        else:  # the common walk, inline (next_sown's loop costs a most-seeds game 7%)
            cell = step(cell, holes, backward, own_store)
            if cell == origin and skip_origin:
                cell = step(cell, holes, backward, own_store)
        if closing and mark_of(state, holes, cell) == CLOSED:  # a hole the mover closed: the seed leaves play
            state[2 * holes + 2 + OUT_OF_PLAY] += 1
            seeds -= 1
            continue
        state[cell] += 1
        if special:
            take_in_passing(state, spec, cell, seeds, mover, to_opponent, inhibited)
        seeds -= 1
    return cell


@kernel(inline="always")
def take_in_passing(state, spec, cell, seeds, mover, to_opponent, inhibited):
    """A seed just sown in ``cell`` (``seeds`` in hand, this one included): the hole is taken as
    the sowing passes (passing), or the seed is the opponent's (``to_opponent``), but a last seed
    that captures."""
    holes = spec[SPEC_PITS]
    passing = spec[Spec.PASSING]
    if passing and not inhibited and (seeds > 1 or passing == Passing.OWNER_ALL):
        side = side_of(cell, holes)
        if (
            (passing != Passing.SOWER_OWN or side == mover)
            and (passing != Passing.SOWER_OPPONENT or side == 1 - mover)
            and can_take(state, cell, holes, mover, spec, spec[Spec.CAPTURE_MIN] > 0, spec[Spec.CAPTURE_SIDE])
        ):
            taker = side if passing <= Passing.OWNER_ALL else mover
            state[taker * (holes + 1) + holes] += state[cell]
            state[cell] = 0
    if to_opponent and side_of(cell, holes) == 1 - mover and \
            (seeds > 1 or not can_take(state, cell, holes, mover, spec, True, spec[Spec.CAPTURE_SIDE])):
        state[cell] -= 1
        state[(1 - mover) * (holes + 1) + holes] += 1


@kernel(inline="always")
def next_lap(state, spec, last, lap_seeds, mover, backward, own_store, stop_for_count, opponent_had_seeds):
    """Where a lap that ended in ``last`` (a hole) goes on, by ``laps``, after the capture a lap
    makes (lap_capture): (whether another lap is sown, the hole it is sown from, capture's bits)."""
    holes = spec[SPEC_PITS]
    sides = spec[Spec.CAPTURE_SIDE]
    go_on = False
    origin = last
    result = 0
    if spec[Spec.LAPS] == Lap.RELAY and spec[Spec.LAP_CAPTURE]:  # capture where a lap ends, and sow on
        if spec[Spec.SOW_CAPTURED]:  # the capture is sown on from the last hole; the opponent left bare stops it
            if row_seeds(state, holes, 1 - mover) > 0:
                store = mover * (holes + 1) + holes
                banked = state[store]
                result = capture(state, spec, last, lap_seeds, opponent_had_seeds, backward)
                state[last] += state[store] - banked
                state[store] = banked
                go_on = (result & CAPTURED) != 0 or state[last] > 1
        elif spec[Spec.CROSS_CAPTURE]:  # a lone seed that captured goes on alone; one that did not stops
            if state[last] == 1:
                result = capture(state, spec, last, lap_seeds, opponent_had_seeds, backward)
                go_on = (result & CAPTURED) != 0
            else:
                go_on = state[last] > 1
        elif spec[Spec.CAPTURE_GAP]:  # capture two out, then sow on from the last hole
            go_on = state[last] > 1
            if go_on:
                result = capture(state, spec, last, lap_seeds, opponent_had_seeds, backward)
        elif can_take(state, last, holes, mover, spec, True, sides):  # capture, then sow on from the next hole
            result = capture(state, spec, last, lap_seeds, opponent_had_seeds, backward)
            origin = walk(state, spec, last, holes, backward, own_store)
            go_on = True
        else:
            go_on = state[last] > 1
    elif spec[Spec.LAPS] == Lap.RELAY:
        go_on = state[last] > 1 and not (stop_for_count and can_take(state, last, holes, mover, spec, True, sides))
        if go_on and spec[Spec.CHILDREN]:  # a lap stops in a child, or where one is to be made
            go_on = mark_of(state, holes, last) == 0 and not child_due(state, spec, last, mover, backward, own_store)
    elif spec[Spec.LAPS] == Lap.NEXT:
        origin = walk(state, spec, last, holes, backward, own_store)
        stop_for_cross = spec[Spec.CROSS_CAPTURE] and state[last] == 1 and \
            can_take(state, 2 * holes - last, holes, mover, spec, spec[Spec.CAPTURE_MIN] > 0, sides)
        go_on = state[origin] > 0 and not stop_for_cross and \
            not (stop_for_count and can_take(state, last, holes, mover, spec, True, sides))
    return go_on, origin, result


@kernel(inline="always")
def sows_backward(spec, hole, seeds):
    """Whether a move of ``hole`` (lifting ``seeds``) sows clockwise."""
    rule = spec[Spec.DIRECTION]
    if rule <= Direction.CW:  # one way
        return rule == Direction.CW
    if rule == Direction.BY_PARITY:
        return seeds % 2 == 0
    left_half = hole < spec[SPEC_PITS] // 2  # (an odd row's middle hole is always chosen)
    return left_half if rule == Direction.OUTWARD else not left_half


@kernel(inline="always")
def action_backward(state, spec, mover, action):
    """Whether ``action`` of ``mover`` sows clockwise: the way it names, where a move names its
    way, else its hole's way by the rules."""
    holes = spec[SPEC_PITS]
    if action_count(spec) > holes and state[2 * holes + 2 + TURNS_PLAYED] >= spec[Spec.FIXED_WAY_TURNS]:
        return action >= holes
    hole = action % holes  # (a way named in the first fixed_way_turns is not read)
    return sows_backward(spec, hole, state[mover * (holes + 1) + hole])


@kernel(inline="always")
def way_allowed(state, spec, mover, hole, backward):
    """Whether ``hole`` may be sown that way (clockwise: ``backward``), in a game where a move names
    its way."""
    holes = spec[SPEC_PITS]
    if spec[Spec.DIRECTION] == Direction.OPPOSED:
        first = state[2 * holes + 2 + FIRST_WAY]
        return first == 0 or backward == ((first == 2) == (mover == 0))
    choose = spec[Spec.CHOOSE_DIRECTION]
    if choose == ChooseDirection.ALL or (choose >= ChooseDirection.MIDDLE and hole == holes // 2) or \
            (choose == ChooseDirection.ENDS_AND_MIDDLE and (hole == 0 or hole == holes - 1)):
        return True
    return backward == sows_backward(spec, hole, state[mover * (holes + 1) + hole])


@kernel(inline="always")
def lap_goes_on(state, spec, last, holes, mover, lap_rule):
    """Whether ``lap_rule`` lets a further lap start at the last hole sown."""
    if lap_rule == LapRule.COUNT_IS:
        return state[last] == spec[Spec.LAP_COUNT]
    if lap_rule == LapRule.COUNT_AT_LEAST:
        return state[last] >= spec[Spec.LAP_COUNT]
    return side_of(last, holes) == (mover if lap_rule == LapRule.OWN_SIDE else 1 - mover)


@kernel(inline="always")
def crossing_cell(state, spec, action):
    """Where a lone seed sown outward from an end hole crosses into the other row (its owner
    may not play it straight back: MancalaGames' rule for outward sowing), or -1."""
    holes = spec[SPEC_PITS]
    if (
        spec[Spec.DIRECTION] != Direction.OUTWARD
        or spec[Spec.MIN_SEEDS] != 1
        or spec[Spec.LEAVE_ONE]
        or spec[Spec.CHOOSE_DIRECTION] == ChooseDirection.ALL
        or spec[Spec.CHOOSE_DIRECTION] == ChooseDirection.ENDS_AND_MIDDLE
    ):
        return -1
    mover = state[2 * holes + 2]
    hole = action % holes
    origin = mover * (holes + 1) + hole
    if state[origin] != 1:
        return -1
    clockwise = action_backward(state, spec, mover, action)
    if not ((hole == 0 and clockwise) or (hole == holes - 1 and not clockwise)):
        return -1
    own_store = sown_store(spec, mover, holes)
    target = next_sown(state, spec, origin, origin, holes, clockwise, own_store, mover, True)
    return target if side_of(target, holes) == 1 - mover else -1
