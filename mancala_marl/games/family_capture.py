"""The family's captures: by count, across, two out, the last few seeds, and the grand slam rules
(:mod:`mancala_marl.games.family` says them in words)."""

from __future__ import annotations

import numpy as np

from .._compile import copy_cells, kernel
from .base import SPEC_PITS
from .family_space import (CAPTURED, PLAYED, CaptureKind, Chain, Children, CrossChain, EXTRA_TURNS, GrandSlam, Lap, Parity,
                           PreCapture, REPEAT, ROUND_STARTER, SLAMMED, Side, Spec, TURNS_PLAYED, TakeOwn, Taker,
                           match_slot, row_seeds, side_of, sown_store, walk)
from .family_children import child_due, first_child, make_child, mark_of


@kernel(inline="always")
def count_qualifies(count, spec):
    """Whether a hole of ``count`` seeds is taken by the capture counts."""
    low = spec[Spec.CAPTURE_MIN]
    high = spec[Spec.CAPTURE_MAX]
    parity = spec[Spec.CAPTURE_PARITY]
    if count < max(low, 1) or (high > 0 and count > high):
        return False
    return not ((parity == Parity.EVEN and count % 2 == 1) or (parity == Parity.ODD and count % 2 == 0))


@kernel(inline="always")
def side_allowed(cell, holes, mover, side_rule):
    """Whether ``cell`` is on a side captures come from (for the ``*_first`` rules: the side the
    first hole taken must be on)."""
    side = side_of(cell, holes)
    if side_rule == Side.OPPONENT or side_rule == Side.OPPONENT_FIRST:
        return side == 1 - mover
    if side_rule == Side.OWN or side_rule == Side.OWN_FIRST:
        return side == mover
    return True


@kernel(inline="always")
def can_take(state, cell, holes, mover, spec, by_count, side_rule):
    """Whether the hole ``cell`` may be taken: a hole (not a store) with seeds, on a side
    ``side_rule`` allows, and, ``by_count``, of a count that is taken."""
    if side_of(cell, holes) < 0 or state[cell] == 0:
        return False
    if not side_allowed(cell, holes, mover, side_rule):
        return False
    if by_count and not count_qualifies(state[cell], spec):
        return False
    if spec[Spec.LOCKED_HOLES] and mark_of(state, holes, cell) != PLAYED:  # a locked hole is not taken
        return False
    return not (spec[Spec.CHILDREN] and mark_of(state, holes, cell) != 0)  # a child is never taken


@kernel(refcounts=False)
def pre_capture(state, rule, origin, seeds, mover, holes):
    """The capture before a lap is sown (``pre_capture``), from the ``seeds`` lifted from
    ``origin``; returns the seeds left to sow. ``across_ones`` reads the board as the move found it:
    it is called once, before the move's seeds are lifted."""
    store = mover * (holes + 1) + holes
    if rule == PreCapture.ONE_SEED:
        if seeds > 0:
            state[store] += 1
            seeds -= 1
    elif rule == PreCapture.ACROSS_LONE:
        if seeds == 1 and side_of(origin, holes) >= 0:
            state[store] += state[2 * holes - origin]
            state[2 * holes - origin] = 0
    elif rule == PreCapture.ACROSS_ONES:
        first = mover * (holes + 1)
        for cell in range(first, first + holes):
            if state[cell] == 1:
                state[store] += state[2 * holes - cell]
                state[2 * holes - cell] = 0
    return seeds


@kernel(refcounts=False)
def take_last(state, spec, mover):
    """When a few seeds are left (``take_last`` or fewer, counted where captures come from), a
    player takes every seed on the board."""
    holes = spec[SPEC_PITS]
    left = 0
    for cell in range(2 * holes + 1):
        if side_of(cell, holes) >= 0 and (
            spec[Spec.CROSS_CAPTURE] or side_allowed(cell, holes, mover, spec[Spec.CAPTURE_SIDE])
        ):
            left += state[cell]
    if 0 < left <= spec[Spec.TAKE_LAST]:
        # the first player: in a match, the round's (MancalaGames' starter)
        first = state[match_slot(spec) + ROUND_STARTER] if spec[Spec.ROUNDS] else 0
        taker = mover if spec[Spec.TAKE_LAST_BY] == Taker.MOVER else first
        store = taker * (holes + 1) + holes
        for cell in range(2 * holes + 1):
            if side_of(cell, holes) >= 0:
                state[store] += state[cell]
                state[cell] = 0


@kernel(inline="always")
def hand_row_over(state, holes, mover):
    """grand_slam='opponent_gets_row': the capture stands, and the seeds left in the mover's own row go to
    the opponent's store (MancalaGames' OPP_GETS_REMAIN)."""
    first = mover * (holes + 1)
    for cell in range(first, first + holes):
        state[(1 - mover) * (holes + 1) + holes] += state[cell]
        state[cell] = 0


@kernel(refcounts=False)
def keep_grand_slam_hole(state, before, holes, mover, left):
    """A capture took every seed of the opponent's row: it is undone, and the opponent's holes
    are taken but one, the first holding seeds from the mover's ``left`` end or right end (as the
    mover sees the board). A row of one full hole is taken all the same."""
    first = (1 - mover) * (holes + 1)
    full = 0
    for cell in range(first, first + holes):
        full += before[cell] > 0
    if full <= 1:
        return
    copy_cells(before, state, 2 * holes + 2)
    keeper = -1
    store = mover * (holes + 1) + holes
    for h in range(holes):
        cell = first + holes - 1 - h if left else first + h  # the opponent's pit 0 faces the mover's right end
        if state[cell] > 0:
            if keeper < 0:
                keeper = cell
            else:
                state[store] += state[cell]
                state[cell] = 0


# What a game of children does at the last hole before any capture (children_first), beside a
# child cell that the capture goes into (child_stores)
INTO_STORE = -1  # no child for it: a capture goes into the store, as in a game without children
WEG_TAKEN = -2  # the opponent's weg gave up its seeds, and the turn passes
WEG_TAKEN_AGAIN = -3  # so, and the mover moves again (capture_extra_turn)
NOTHING_TAKEN = -4  # a child was made instead, or (child_stores) there is no child to capture into


@kernel(refcounts=False)
def children_first(state, spec, last, mover, backward, own_store):
    """What a game of children does at the last hole before any capture: a weg's capture
    (WEG_TAKEN, WEG_TAKEN_AGAIN), a child made or, without stores and without a child, nothing
    (NOTHING_TAKEN); else the child a capture goes into (child_stores), or INTO_STORE."""
    holes = spec[SPEC_PITS]
    cells = 2 * holes + 2
    home = INTO_STORE
    due = child_due(state, spec, last, mover, backward, own_store)
    if spec[Spec.CHILD_STORES]:
        home = first_child(state, holes, mover)
        if home < 0 and not due:  # no child to capture into, none made: nothing happens
            return NOTHING_TAKEN
    if spec[Spec.CHILDREN] == Children.WEG and mark_of(state, holes, last) == 2 - mover:  # the opponent's weg
        seeds = 2 if state[last] >= 2 else 1
        state[last] -= seeds
        state[home if home >= 0 else mover * (holes + 1) + holes] += seeds
        return WEG_TAKEN_AGAIN if extra_turn_due(state, spec, cells) else WEG_TAKEN
    if due:  # a child made instead of a capture
        make_child(state, spec, last, mover, backward, own_store)
        return NOTHING_TAKEN
    return home


@kernel(inline="always")
def extra_turn_due(state, spec, cells):
    """Whether a capture gives another turn (capture_extra_turn; extra_turn_once: not after one)."""
    return spec[Spec.CAPTURE_EXTRA_TURN] and (not spec[Spec.EXTRA_TURN_ONCE] or state[cells + EXTRA_TURNS] == 0)


@kernel(refcounts=False)
def capture(state, spec, last, lap_seeds, opponent_had_seeds, backward):
    """Take what a lap ending in ``last`` (a hole, after a lap of ``lap_seeds`` sown ``backward``
    or not) captures, then the last few seeds (``take_last``); a grand slam is undone or cut back
    by ``grand_slam``. Returns CAPTURED, with REPEAT for ``capture_extra_turn``, or 0."""
    if GrandSlam.NO_CAPTURE <= spec[Spec.GRAND_SLAM] < GrandSlam.EXTRA_TURN:  # the board before the capture is kept
        return capture_keeping_board(state, spec, last, lap_seeds, opponent_had_seeds, backward)
    return take(state, spec, last, lap_seeds, opponent_had_seeds, backward, state)  # (no board kept)


@kernel(refcounts=True)
def capture_keeping_board(state, spec, last, lap_seeds, opponent_had_seeds, backward):
    """capture, with room for the board before it (allocated: a kernel with reference counts)."""
    saved = np.empty(2 * spec[SPEC_PITS] + 2, dtype=state.dtype)
    return take(state, spec, last, lap_seeds, opponent_had_seeds, backward, saved)


@kernel(refcounts=False)
def take(state, spec, last, lap_seeds, opponent_had_seeds, backward, saved):
    """capture's work; a grand slam rule that undoes or cuts back a capture keeps the board
    before it in ``saved``."""
    holes = spec[SPEC_PITS]
    cells = 2 * holes + 2
    mover = state[cells]
    own_store = sown_store(spec, mover, holes)
    by_count = spec[Spec.CAPTURE_MIN] > 0
    inhibited = state[cells + TURNS_PLAYED] < spec[Spec.NO_CAPTURE_TURNS]
    if spec[Spec.NO_SINGLE_CAPTURE] and lap_seeds == 1 or inhibited:
        return 0
    home = INTO_STORE  # or, without stores (child_stores): the child the capture goes into
    if spec[Spec.CHILDREN]:
        home = children_first(state, spec, last, mover, backward, own_store)
        if home == NOTHING_TAKEN:
            return 0
        if home == WEG_TAKEN or home == WEG_TAKEN_AGAIN:
            return CAPTURED if home == WEG_TAKEN else REPEAT | CAPTURED
    sides = spec[Spec.CAPTURE_SIDE]
    if sides >= Side.OPPONENT_FIRST:  # the last hole decides for the whole chain, which may cross sides
        if not side_allowed(last, holes, mover, sides):
            return 0
        sides = 0
    if GrandSlam.NO_CAPTURE <= spec[Spec.GRAND_SLAM] < GrandSlam.EXTRA_TURN:
        copy_cells(state, saved, cells)
    store = mover * (holes + 1) + holes
    banked = state[store] if home >= 0 else 0
    chain_rule = spec[Spec.CHAIN]
    backward = (
        chain_rule == Chain.CW if chain_rule >= Chain.CW else backward == (chain_rule == Chain.FORWARD)
    )  # the chain's way
    kind = spec[Spec.CAPTURE_KIND]
    taken = 0
    first = last  # the first hole taken (the last one sown, or two out)
    if kind != CaptureKind.STANDARD:
        taken = capture_of_kind(state, spec, last, store, mover, by_count, sides, backward, own_store)
    # the standard captures, also where store_to_opponent or opponent_store took nothing
    if (
        kind == CaptureKind.STANDARD
        or taken == 0
        and (kind == CaptureKind.STORE_TO_OPPONENT or kind == CaptureKind.OPPONENT_STORE)
    ):
        if spec[Spec.CAPTURE_GAP]:
            taken = capture_two_out(state, spec, last, store, mover, sides, backward, own_store)
            first = walk(state, spec, walk(state, spec, last, holes, backward, own_store), holes, backward, own_store)
        elif spec[Spec.CROSS_CAPTURE]:
            taken = capture_across(state, spec, last, store, mover, by_count, sides, backward, own_store)
        elif by_count:  # the last hole, then each next one, while their counts are taken
            taken = take_chain(state, spec, last, can_take(state, last, holes, mover, spec, True, sides), store,
                               mover, True, sides, backward, own_store)
    return after_capture(state, spec, last, first, taken, home, banked, saved, opponent_had_seeds, sides)


@kernel(inline="always")
def take_chain(state, spec, cell, go_on, store, mover, by_count, sides, backward, own_store):
    """The chain: take ``cell`` (if ``go_on``), then each next hole while it may be taken, up to
    ``captures`` holes; returns how many were taken."""
    holes = spec[SPEC_PITS]
    limit = spec[Spec.CAPTURES]
    taken = 0
    while go_on:
        state[store] += state[cell]
        state[cell] = 0
        taken += 1
        if limit == 1 or taken == limit:
            break
        cell = walk(state, spec, cell, holes, backward, own_store)
        go_on = can_take(state, cell, holes, mover, spec, by_count, sides)
    return taken


@kernel(inline="always")
def capture_of_kind(state, spec, last, store, mover, by_count, sides, backward, own_store):
    """The capture a ``capture_kind`` other than the standard one makes at ``last``; returns how
    many holes it took (1 for a capture of a kind that takes no hole)."""
    holes = spec[SPEC_PITS]
    kind = spec[Spec.CAPTURE_KIND]
    taken = 0
    if side_of(last, holes) < 0:  # the opponent's store (opponent_store): it is taken
        state[store] += state[last]
        state[last] = 0
        taken = 1
    elif kind == CaptureKind.SINGLES:  # every hole of one seed where captures come from
        for cell in range(2 * holes + 1):
            if state[cell] == 1 and side_of(cell, holes) >= 0 and side_allowed(cell, holes, mover, sides):
                state[store] += 1
                state[cell] = 0
                taken += 1
    elif kind == CaptureKind.PULL_ACROSS:  # a last seed in an empty hole draws the seeds across into it
        if state[last] == 1 and can_take(state, 2 * holes - last, holes, mover, spec, by_count, sides):
            state[last] += state[2 * holes - last]
            state[2 * holes - last] = 0
            taken = 1
    elif kind == CaptureKind.STORE_TO_OPPONENT and state[last] == 1 and state[store] > 0 and \
            side_allowed(last, holes, mover, sides):  # the mover's store goes to the opponent's
        state[(1 - mover) * (holes + 1) + holes] += state[store]
        state[store] = 0
        taken = 1
    elif kind == CaptureKind.OPPONENT_COUNTS:  # ending across, or in the own last hole: each hole of a taken count
        if side_of(last, holes) == 1 - mover or last == store - 1:
            taken = 1  # a capture, even of nothing
            for cell in range((1 - mover) * (holes + 1), (1 - mover) * (holes + 1) + holes):
                if can_take(state, cell, holes, mover, spec, by_count, sides):
                    state[store] += state[cell]
                    state[cell] = 0
    elif kind == CaptureKind.NEXT:  # the hole after the last one, then each next one while they qualify
        cell = walk(state, spec, last, holes, backward, own_store)
        if spec[Spec.LAPS]:  # after laps, the last hole qualifies and the next holds seeds
            go_on = can_take(state, last, holes, mover, spec, by_count, sides) and \
                side_of(cell, holes) >= 0 and state[cell] > 0
        else:
            go_on = can_take(state, cell, holes, mover, spec, by_count, sides)
        taken = take_chain(state, spec, cell, go_on, store, mover, by_count, sides, backward, own_store)
    return taken


@kernel(inline="always")
def capture_two_out(state, spec, last, store, mover, sides, backward, own_store):
    """capture_gap: across an empty hole, from the last hole, then from each hole taken; returns
    how many holes were taken."""
    holes = spec[SPEC_PITS]
    limit = spec[Spec.CAPTURES]
    taken = 0
    cell = last
    while spec[Spec.LAPS] != Lap.SINGLE or state[cell] > 1:  # without laps, the last seed must have joined others
        gap = walk(state, spec, cell, holes, backward, own_store)
        beyond = walk(state, spec, gap, holes, backward, own_store)
        if state[gap] != 0 or not can_take(state, beyond, holes, mover, spec, False, sides):
            break
        state[store] += state[beyond]
        state[beyond] = 0
        taken += 1
        if limit == 1 or taken == limit:
            break
        cell = beyond
    return taken


@kernel(inline="always")
def capture_across(state, spec, last, store, mover, by_count, sides, backward, own_store):
    """cross_capture: a last seed in an empty hole takes the hole across, and (cross_chain) each
    next hole's across while the chain goes on; take_own takes the sown seed too. Returns how many
    holes were taken across."""
    holes = spec[SPEC_PITS]
    limit = spec[Spec.CAPTURES]
    taken = 0
    cell = last
    while True:
        empty_before = (
            state[cell] == 1 if taken == 0 else (state[cell] == 0 or spec[Spec.CROSS_CHAIN] == CrossChain.ANY)
        )
        if side_of(cell, holes) < 0 or not empty_before:
            break
        across = 2 * holes - cell
        if not can_take(state, across, holes, mover, spec, by_count, sides):
            break
        state[store] += state[across]
        state[across] = 0
        taken += 1
        if taken == 1 and spec[Spec.TAKE_OWN] == TakeOwn.ON_CAPTURE:
            state[store] += state[cell]
            state[cell] = 0
        if limit == 1 or taken == limit:
            break
        cell = walk(state, spec, cell, holes, backward, own_store)
    if (
        spec[Spec.TAKE_OWN] == TakeOwn.ALWAYS
        and state[last] == 1
        and side_allowed(2 * holes - last, holes, mover, spec[Spec.CAPTURE_SIDE])
    ):
        state[store] += 1
        state[last] = 0
    return taken


@kernel(inline="always")
def after_capture(state, spec, last, first, taken, home, banked, saved, opponent_had_seeds, sides):
    """What follows the capture's ``taken`` holes (``first`` the first of them): the holes across
    and at the end that go with it, the last few seeds, the child it goes into (``home``; the
    store held ``banked`` before it) and the grand slam rule; returns capture's result."""
    holes = spec[SPEC_PITS]
    cells = 2 * holes + 2
    mover = state[cells]
    store = mover * (holes + 1) + holes
    if taken and spec[Spec.TAKE_ACROSS] and can_take(state, 2 * holes - first, holes, mover, spec, False, sides):
        state[store] += state[2 * holes - first]
        state[2 * holes - first] = 0
    if taken and spec[Spec.TAKE_FINAL] and can_take(state, last, holes, mover, spec, False, sides):
        state[store] += state[last]
        state[last] = 0
    if spec[Spec.TAKE_LAST]:
        take_last(state, spec, mover)
    if taken == 0:
        return 0
    if home >= 0:  # what the capture put in the store goes into the child
        state[home] += state[store] - banked
        state[store] = banked
    slam_rule = spec[Spec.GRAND_SLAM]
    if slam_rule >= GrandSlam.NO_CAPTURE and opponent_had_seeds and row_seeds(state, holes, 1 - mover) == 0:
        if slam_rule == GrandSlam.EXTRA_TURN:  # the capture stands, and the mover moves again
            return REPEAT | CAPTURED
        if slam_rule == GrandSlam.NO_CAPTURE:
            copy_cells(saved, state, cells)
            return SLAMMED
        if slam_rule == GrandSlam.OPPONENT_GETS_ROW:
            hand_row_over(state, holes, mover)
        else:
            keep_grand_slam_hole(state, saved, holes, mover, slam_rule == GrandSlam.LEAVE_LEFT)
    return REPEAT | CAPTURED if extra_turn_due(state, spec, cells) else CAPTURED
