"""The two-row family's rules in JAX (:mod:`mancala_marl.games.family` says them in words), a
second implementation held to the numba kernels move for move (tests/jax/test_family_jax.py).

**Rules as data.** Every function here reads the rules from ``spec``, a traced int32 array (the
numba game's own ``spec``, then :data:`TOTAL`, the game's seeds), and the board size from it too:
nothing is specialised to one rule set, so one compiled step can serve a batch whose rows are
different games, their flat states padded to the largest.

**What is played.** Sowing counter-clockwise, clockwise, outward (a lone seed crossing into the
other row not played straight back), inward or by parity, the opposed and chosen ways (``2H``
actions: ``h`` sows hole ``h`` counter-clockwise, ``h + H`` clockwise); every move rule; the
stores sown or passed (the opponent's too), the origin and full holes (sow_max) skipped or not,
all seeds lifted or all but one; one lap, relay
laps (with the captures a lap makes, lap_capture) and laps from the next hole, with their lap
rules; the captures before a lap (pre_capture); captures by count (with chains either way, a side
rule, a limit), across (with the sowing seed) or two out, the hole across from the first and the
last hole taken too, the holes taken as the seeds pass, the last seeds sown to the opponent, the
last few seeds taken, captures withheld in the first turns or from a single seed; every grand
slam rule; extra turns on a capture; must-share, passes and every end of a most-seeds game; every
goal; every capture kind; random starts (drawn by ``init(key)``); children
(:mod:`.family_children`); the end by repetition (:mod:`.history`). Every rule set of the numba
family is played.

The code is the numba kernels' own control flow, written with ``lax.while_loop`` and selects, so
that the two can be read side by side; a select computes both its branches, so writes at an
index are always additions of what the branch would add (zero when not taken).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
from jax import lax

from mancala_marl.errors import BadInput
from ..games.base import GAME_OVER, SPEC_PITS
from ..games.family_space import (BOTH_STORES, CAPTURED, CLOSED, PLAYED, CaptureKind, Chain, ChildSowing, Children,
                                  ChooseDirection, Cleared, CrossChain, Direction, ENDLESS, EXTRA_TURNS, FIRST_WAY,
                                  Goal, GrandSlam, HISTORY_SLOTS, Lap, LapRule, Leftover, MARKS, MAX_LAPS,
                                  MOVES_PLAYED, MOVE_LIMIT, MoveRule, NO_RETURN, OUT_OF_PLAY, OpponentStore, Parity,
                                  Passing, PreCapture, REPEAT, SLAMMED, Side, Spec, Start, TURNS_PLAYED, TakeOwn,
                                  Taker, ROUND_STARTER, WINNER)
from ..games.family_start import RANDOM_FLOOR, start_state
from .family_children import (bank_children, child_due, child_seeds, divide_into_children, first_child,
                              free_row_seeds, has_child, make_child, mark_of, marks, skips_child, stores_to_children)
from .family_ring import (closed_at, closed_cells, in_row, is_hole, move_seeds, ring_step, row_seeds, side_of,
                          sown_store, walk)
from .family_rounds import match_slot, next_round
from .history import holds_history, prefix_hash, record_position
from .rules import Rules


def refusal(game) -> str | None:
    """Why the JAX family cannot play ``game``, in one line (it is not a numba Family); None when it can."""
    if game.name != "family":
        return f"{game!r} is not a game of the two-row family"
    return None


def spec_of(game) -> jnp.ndarray:
    """The rules as data: the numba game's spec, then its seeds (:data:`TOTAL`)."""
    return jnp.asarray([*game.spec.tolist(), game.total_seeds], jnp.int32)


def make_rules(game) -> Rules:
    """The rules of one rule set, its spec a constant; :func:`apply` and :func:`legal` take any."""
    why = refusal(game)
    if why:
        raise BadInput(why)
    spec, actions, head = spec_of(game), game.actions, head_size([game])
    start, most = jnp.asarray(start_state(game)), random_seeds(game)
    return Rules(apply=lambda flat, pit: apply(flat, pit, spec, actions, head),
                 legal=lambda flat: legal(flat, spec, actions, head), extra_obs=None,
                 returns=lambda flat: returns(flat, spec),
                 init=(lambda key: random_start(key, start, spec, most, actions)) if game.random_start else None)


REDRAWS = 1000  # as the numba family's: random starts drawn before one with a legal move is given up


def random_seeds(game) -> int:
    """The seeds a random start of ``game`` shares out above each hole's floor (0: not random)."""
    return game.total_seeds - RANDOM_FLOOR * 2 * game.pits if game.random_start else 0


def random_start(key, start, spec, most: int, actions: int):
    """The start of a game whose ``spec`` says start='random': ``start`` (each hole at its floor)
    with the seeds above the floor shared out as the numba family shares them, by a multinomial
    over Dirichlet(1, ..., 1) weights (every way of sharing them equally likely), drawn again while
    the player to move has no legal move (a move rule may refuse a start); ``start`` itself for
    another start. ``most``: a bound on the seeds shared out (static)."""
    holes = spec[SPEC_PITS]
    hole = is_hole(start, holes)
    shared = spec[-1] - RANDOM_FLOOR * 2 * holes

    def draw(key):
        weights_key, seeds_key = jax.random.split(key)
        logits = jnp.where(hole, jnp.log(jax.random.exponential(weights_key, start.shape)), -jnp.inf)
        cells = jax.random.categorical(seeds_key, logits, shape=(most,))
        return start.at[cells].add((jnp.arange(most) < shared).astype(start.dtype))

    def refused(carry):
        _, board, tries = carry
        return ~legal(board, spec, actions).any() & (tries < REDRAWS)

    def again(carry):
        key, _, tries = carry
        key, sub = jax.random.split(key)
        return key, draw(sub), tries + 1

    key, sub = jax.random.split(key)
    board = lax.while_loop(refused, again, (key, draw(sub), 1))[1]
    # repetition_ends: the history is the drawn position alone (numba's from_board)
    kept = spec[Spec.REPETITION_ENDS] != 0
    board = record_position(board, history_slot(spec), prefix_hash(board, jnp.where(kept, 2 * holes + 3, 0)), True,
                            kept)[0]
    return jnp.where(spec[Spec.START] == Start.RANDOM, board, start)


# -- captures -------------------------------------------------------------------------------------
def count_qualifies(count, spec):
    low, high, parity = spec[Spec.CAPTURE_MIN], spec[Spec.CAPTURE_MAX], spec[Spec.CAPTURE_PARITY]
    in_range = (count >= jnp.maximum(low, 1)) & ((high == 0) | (count <= high))
    return in_range & ~((parity == Parity.EVEN) & (count % 2 == 1)) & ~((parity == Parity.ODD) & (count % 2 == 0))


def side_allowed(cell, holes, mover, side_rule):
    side = side_of(cell, holes)
    theirs = (side_rule == Side.OPPONENT) | (side_rule == Side.OPPONENT_FIRST)
    mine = (side_rule == Side.OWN) | (side_rule == Side.OWN_FIRST)
    return jnp.where(theirs, side == 1 - mover, jnp.where(mine, side == mover, True))


def can_take(flat, cell, holes, mover, spec, by_count, side_rule):
    """A hole with seeds, on a side ``side_rule`` allows, of a count taken (``by_count``)."""
    by_count = jnp.asarray(by_count, jnp.bool_)  # (~ on a Python bool is an int's)
    return (
        (side_of(cell, holes) >= 0)
        & (flat[cell] != 0)
        & side_allowed(cell, holes, mover, side_rule)
        & (~by_count | count_qualifies(flat[cell], spec))
        & (mark_of(flat, spec, cell) == 0)  # a child is never taken
        & ((spec[Spec.LOCKED_HOLES] == 0) | played_at(flat, spec, cell))  # nor a locked hole
    )


def marks_played(spec):
    """Whether the holes played are marked (PLAYED): every_hole_first, locked_holes."""
    return (spec[Spec.MOVE_RULE] == MoveRule.EVERY_HOLE_FIRST) | (spec[Spec.LOCKED_HOLES] != 0)


def played_at(flat, spec, cell):
    slot = jnp.clip(2 * spec[SPEC_PITS] + 2 + MARKS + cell, 0, flat.shape[0] - 1)
    return flat[slot] == PLAYED


def take_chain(flat, spec, start, holes, mover, sides, chain_backward, own_store, across, going,
               counted=True, forced=False, first=False):
    """The chain of captures from ``start``: the hole itself (of a count taken, where
    ``counted``), or ``across`` (the hole across from each empty one, the sowing seed with the
    first where ``take_own`` says); where ``forced``, ``first`` says whether ``start`` is taken
    (capture_kind "next" has its own test). Returns (flat, holes taken)."""
    store = mover * (holes + 1) + holes
    by_count = spec[Spec.CAPTURE_MIN] > 0
    limit = spec[Spec.CAPTURES]

    def body(carry):
        flat, cell, taken, _ = carry
        empty_before = jnp.where(
            taken == 0, flat[cell] == 1, (flat[cell] == 0) | (spec[Spec.CROSS_CHAIN] == CrossChain.ANY)
        )
        target = jnp.where(across, jnp.where(side_of(cell, holes) >= 0, 2 * holes - cell, cell), cell)
        ok = jnp.where(across, (side_of(cell, holes) >= 0) & empty_before, True) & \
            can_take(flat, target, holes, mover, spec, jnp.where(across, by_count, counted), sides)
        ok = jnp.where((taken == 0) & forced, first, ok)
        flat = move_seeds(flat, target, store, ok)
        taken = taken + ok
        flat = move_seeds(flat, cell, store, ok & across & (taken == 1) & (spec[Spec.TAKE_OWN] == TakeOwn.ON_CAPTURE))
        going = ok & (limit != 1) & (taken != limit)
        return flat, jnp.where(going, walk(flat, spec, cell, holes, chain_backward, own_store), cell), taken, going

    flat, _, taken, _ = lax.while_loop(lambda carry: carry[3], body, (flat, start, jnp.int32(0), going))
    return flat, taken


def take_two_out(flat, spec, last, holes, mover, sides, chain_backward, own_store, going):
    """capture_gap: across an empty hole, the hole beyond, from the last hole, then from each hole
    taken (without laps, the last seed must have joined others). Returns (flat, holes taken)."""
    store = mover * (holes + 1) + holes
    limit = spec[Spec.CAPTURES]

    def body(carry):
        flat, cell, taken, _ = carry
        gap = walk(flat, spec, cell, holes, chain_backward, own_store)
        beyond = walk(flat, spec, gap, holes, chain_backward, own_store)
        ok = (flat[gap] == 0) & can_take(flat, beyond, holes, mover, spec, False, sides)
        flat = move_seeds(flat, beyond, store, ok)
        taken = taken + ok
        going = ok & (limit != 1) & (taken != limit)
        return flat, jnp.where(going, beyond, cell), taken, going

    def goes_on(carry):
        flat, cell, _, going = carry
        return going & ((spec[Spec.LAPS] != Lap.SINGLE) | (flat[cell] > 1))

    flat, _, taken, _ = lax.while_loop(goes_on, body, (flat, last, jnp.int32(0), going))
    return flat, taken


def take_last(flat, spec, holes, mover):
    """When at most ``take_last`` seeds are left where captures come from, one player takes all."""
    cell = jnp.arange(flat.shape[0])
    counted = is_hole(flat, holes) & (
        (spec[Spec.CROSS_CAPTURE] != 0) | side_allowed(cell, holes, mover, spec[Spec.CAPTURE_SIDE])
    )
    left = jnp.where(counted, flat, 0).sum()
    # the first player: in a match, the round's (MancalaGames' starter)
    first = jnp.where(spec[Spec.ROUNDS] != 0,
                      flat[jnp.clip(match_slot(spec, history_slot(spec)) + ROUND_STARTER, 0, flat.shape[0] - 1)], 0)
    taker = jnp.where(spec[Spec.TAKE_LAST_BY] == Taker.MOVER, mover, first)
    return claim(flat, holes, taker, Leftover.MOVER, (left > 0) & (left <= spec[Spec.TAKE_LAST]))


def capture(flat, spec, last, lap_seeds, opponent_had_seeds, backward):
    """What a lap ending in the hole ``last`` captures, and the grand slam rules; (flat, result)."""
    holes = spec[SPEC_PITS]
    cells = 2 * holes + 2
    mover = flat[cells]
    own_store = sown_store(spec, mover, holes)
    store = mover * (holes + 1) + holes
    by_count, across = spec[Spec.CAPTURE_MIN] > 0, spec[Spec.CROSS_CAPTURE] != 0
    side_rule = spec[Spec.CAPTURE_SIDE]
    first_side = side_rule >= Side.OPPONENT_FIRST  # the last hole decides, and the chain may cross sides
    withheld = ((spec[Spec.NO_SINGLE_CAPTURE] != 0) & (lap_seeds == 1)) | \
        (flat[cells + TURNS_PLAYED] < spec[Spec.NO_CAPTURE_TURNS])
    skip = withheld | (first_side & ~side_allowed(last, holes, mover, side_rule))
    sides = jnp.where(first_side, 0, side_rule)
    chain = spec[Spec.CHAIN]
    chain_backward = jnp.where(chain >= Chain.CW, chain == Chain.CW, backward == (chain == Chain.FORWARD))
    saved = flat
    gap = spec[Spec.CAPTURE_GAP] != 0
    kind = spec[Spec.CAPTURE_KIND]
    kinded, kind_taken = capture_of_kind(flat, spec, last, store, mover, by_count, sides)
    # the standard captures, also where store_to_opponent or opponent_store took nothing
    standard = (kind == CaptureKind.STANDARD) | ((kind_taken == 0) & (
        (kind == CaptureKind.STORE_TO_OPPONENT) | (kind == CaptureKind.OPPONENT_STORE)))
    # capture_kind "next": the hole after the last one, then each next one while they qualify (one
    # chain serves it and the standard one)
    after = walk(flat, spec, last, holes, chain_backward, own_store)
    next_first = jnp.where(spec[Spec.LAPS] != Lap.SINGLE, can_take(flat, last, holes, mover, spec, by_count, sides) &
                           (side_of(after, holes) >= 0) & (flat[jnp.clip(after, 0, cells - 1)] > 0),
                           can_take(flat, after, holes, mover, spec, by_count, sides))
    is_next = kind == CaptureKind.NEXT
    across = across & ~is_next
    taking, taken = take_chain(kinded, spec, jnp.where(is_next, after, last), holes, mover, sides, chain_backward,
                               own_store, across,
                               ~skip & jnp.where(is_next, next_first, standard & ~gap & (by_count | across)),
                               counted=~is_next | by_count, forced=is_next, first=next_first)
    taking, two_out = take_two_out(taking, spec, last, holes, mover, sides, chain_backward, own_store,
                                   ~skip & gap & standard)
    taken = taken + two_out + kind_taken
    across = across & ~gap & standard
    always = across & (spec[Spec.TAKE_OWN] == TakeOwn.ALWAYS) & (taking[last] == 1) & \
        side_allowed(2 * holes - last, holes, mover, side_rule)
    always = always.astype(jnp.int32)
    taking = taking.at[last].add(-always).at[store].add(always)
    # the first hole taken: the last one sown, or two out
    two_on = walk(flat, spec, walk(flat, spec, last, holes, chain_backward, own_store), holes, chain_backward, own_store)
    first = jnp.where(gap & standard, two_on, last)
    opposite = jnp.clip(2 * holes - first, 0, cells - 1)
    taking = move_seeds(taking, opposite, store, (taken > 0) & (spec[Spec.TAKE_ACROSS] != 0) &
                        (side_of(first, holes) >= 0) & can_take(taking, opposite, holes, mover, spec, False, sides))
    taking = move_seeds(taking, last, store, (taken > 0) & (spec[Spec.TAKE_FINAL] != 0) &
                        can_take(taking, last, holes, mover, spec, False, sides))
    taking = jnp.where(spec[Spec.TAKE_LAST] > 0, take_last(taking, spec, holes, mover), taking)
    slam_rule = spec[Spec.GRAND_SLAM]
    slam = (taken > 0) & (slam_rule >= GrandSlam.NO_CAPTURE) & opponent_had_seeds & \
        (row_seeds(taking, holes, 1 - mover) == 0)
    extra = (spec[Spec.CAPTURE_EXTRA_TURN] != 0) & \
        ((spec[Spec.EXTRA_TURN_ONCE] == 0) | (flat[cells + EXTRA_TURNS] == 0))
    result = jnp.where(taken == 0, 0, jnp.where(extra, REPEAT | CAPTURED, CAPTURED))
    result = jnp.where(slam & (slam_rule == GrandSlam.EXTRA_TURN), REPEAT | CAPTURED,
                       jnp.where(slam & (slam_rule == GrandSlam.NO_CAPTURE), SLAMMED, result))
    taking = jnp.where(slam & (slam_rule == GrandSlam.NO_CAPTURE), saved, taking)
    leave = slam & (slam_rule >= GrandSlam.LEAVE_LEFT) & (slam_rule < GrandSlam.EXTRA_TURN)
    kept = keep_grand_slam_hole(taking, saved, holes, mover, slam_rule == GrandSlam.LEAVE_LEFT)
    taking = jnp.where(leave, kept, taking)
    taking = jnp.where(slam & (slam_rule == GrandSlam.OPPONENT_GETS_ROW), hand_row_over(taking, holes, mover), taking)
    taking, result = jnp.where(skip, flat, taking), jnp.where(skip, 0, result)
    return children_first(flat, spec, last, backward, own_store, extra, taking, result, withheld)


def children_first(flat, spec, last, backward, own_store, extra, taking, result, withheld):
    """What a game of children does at the last hole before any capture (numba's children_first):
    a weg's capture, a child made or, without stores and without a child, nothing; else the
    capture (``taking``, ``result``: what it would take into the store) goes into the mover's first
    child (child_stores) or stays in the store. Elsewhere, or where captures are ``withheld``,
    the capture as it is."""
    holes = spec[SPEC_PITS]
    mover = flat[2 * holes + 2]
    store = mover * (holes + 1) + holes
    due = child_due(flat, spec, last, mover, backward, own_store)
    home = jnp.where(spec[Spec.CHILD_STORES] != 0, first_child(flat, spec, mover), -1)
    nothing = (spec[Spec.CHILD_STORES] != 0) & (home < 0) & ~due  # no child to capture into, none made
    weg = (spec[Spec.CHILDREN] == Children.WEG) & (
        mark_of(flat, spec, last) == 2 - mover
    )  # the opponent's weg gives two seeds
    weg_seeds = jnp.where(flat[last] >= 2, 2, 1)
    weg_flat = flat.at[last].add(-weg_seeds).at[jnp.where(home >= 0, home, store)].add(weg_seeds)
    gain = taking[store] - flat[store]
    homed = jnp.where(home >= 0, taking.at[store].add(-gain).at[jnp.maximum(home, 0)].add(gain), taking)
    children = (spec[Spec.CHILDREN] != Children.NONE) & ~withheld
    kept = jnp.select(
        [nothing, weg, due], [flat, weg_flat, make_child(flat, spec, last, mover, backward, own_store, True)], homed
    )
    kept_result = jnp.where(nothing | due, 0, jnp.where(weg, jnp.where(extra, REPEAT | CAPTURED, CAPTURED), result))
    return jnp.where(children, kept, taking), jnp.where(children, kept_result, result)


def capture_of_kind(flat, spec, last, store, mover, by_count, sides):
    """The capture a ``capture_kind`` other than the standard one and "next" makes at ``last``:
    (flat, how many holes it took, 1 for a capture of a kind that takes no hole)."""
    holes = spec[SPEC_PITS]
    kind = spec[Spec.CAPTURE_KIND]
    cell = jnp.arange(flat.shape[0])
    last_seeds = flat[last]
    # the opponent's store (opponent_store, the only kind whose sowing ends in a store): it is taken
    in_store = (kind != CaptureKind.STANDARD) & (side_of(last, holes) < 0)
    # singles: every hole of one seed where captures come from
    singles = (kind == CaptureKind.SINGLES) & ~in_store & (side_of(cell, holes) >= 0) & (flat == 1) & \
        side_allowed(cell, holes, mover, sides)
    # pull_across: a last seed in an empty hole draws the seeds across into it
    opposite = jnp.clip(2 * holes - last, 0, flat.shape[0] - 1)
    pull = (kind == CaptureKind.PULL_ACROSS) & ~in_store & (last_seeds == 1) & \
        can_take(flat, opposite, holes, mover, spec, by_count, sides)
    # store_to_opponent: the mover's store goes to the opponent's
    to_opponent = (kind == CaptureKind.STORE_TO_OPPONENT) & ~in_store & (last_seeds == 1) & (flat[store] > 0) & \
        side_allowed(last, holes, mover, sides)
    # opponent_counts: ending across, or in the own last hole, takes each hole of a taken count
    counts = (
        (kind == CaptureKind.OPPONENT_COUNTS)
        & ~in_store
        & ((side_of(last, holes) == 1 - mover) | (last == store - 1))
    )
    theirs = counts & (side_of(cell, holes) == 1 - mover) & can_take(flat, cell, holes, mover, spec, by_count, sides)
    taken_cells = singles | theirs
    gain = jnp.where(taken_cells, flat, 0).sum() + jnp.where(in_store, last_seeds, 0)
    flat = jnp.where(taken_cells | (in_store & (cell == last)), 0, flat).at[store].add(gain)
    flat = move_seeds(flat, opposite, last, pull)
    flat = move_seeds(flat, store, (1 - mover) * (holes + 1) + holes, to_opponent)
    taken = singles.sum() + (in_store | pull | to_opponent | counts).astype(jnp.int32)
    return flat, taken


def hand_row_over(flat, holes, mover):
    """grand_slam='opponent_gets_row': the seeds of the mover's own row into the opponent's store."""
    row = in_row(flat, holes, mover)
    return jnp.where(row, 0, flat).at[(1 - mover) * (holes + 1) + holes].add(row_seeds(flat, holes, mover))


def keep_grand_slam_hole(taking, before, holes, mover, left):
    """A capture took every seed of the opponent's row: it is undone, and the opponent's holes
    are taken but one, the first holding seeds from the mover's ``left`` end or right end (as the
    mover sees the board). A row of one full hole is taken all the same."""
    cell = jnp.arange(before.shape[0])
    first = (1 - mover) * (holes + 1)
    full = (cell >= first) & (cell < first + holes) & (before > 0)
    # the opponent's pit 0 faces the mover's right end: from the left, the highest cell comes first
    keeper = jnp.where(left, jnp.where(full, cell, -1).max(), jnp.where(full, cell, before.shape[0]).min())
    taken = full & (cell != keeper)
    kept = jnp.where(taken, 0, before).at[mover * (holes + 1) + holes].add(jnp.where(taken, before, 0).sum())
    return jnp.where(full.sum() <= 1, taking, kept)


# -- sowing ---------------------------------------------------------------------------------------
def sow_lap(flat, spec, origin, seeds, mover, backward, own_store, inhibited):
    """One seed in each cell after ``origin``, with what ``passing`` and ``last_seeds_to_opponent``
    take on the way; (flat, the cell of the last seed). A lap that takes nothing on the way is
    sown in closed form (:func:`sow_at_once`); the others seed by seed, the loop running only for
    them (under ``vmap`` a loop runs as long as its longest row)."""
    holes = spec[SPEC_PITS]
    passing, few_left = spec[Spec.PASSING], spec[Spec.LAST_SEEDS_TO_OPPONENT]
    # few seeds left on the board: those sown in the opponent's holes are the opponent's
    to_opponent = (few_left > 0) & (row_seeds(flat, holes, 0) + row_seeds(flat, holes, 1) <= few_left)
    # (the holes passed over, full ones or the opponent's children, change as the lap goes: no closed form)
    special = (
        ((passing != Passing.NONE) & ~inhibited)
        | to_opponent
        | (spec[Spec.SOW_MAX] > 0)
        | (spec[Spec.CHILD_SOWING] != ChildSowing.INTO)
        | (spec[Spec.CLOSE_AT] > 0)
        | (spec[Spec.SOW_OWN_ROW] != 0)  # (sow_at_once's closed form is the ring of both rows)
    )
    at_once, last_at_once = sow_at_once(flat, spec, origin, jnp.where(special, 0, seeds), backward, own_store)

    def body(carry):
        flat, cell, left = carry
        cell = next_sown(flat, spec, cell, origin, holes, backward, own_store, mover, left == 1)
        # close_at: a hole the mover closed (across; its own are passed over) takes the seed out of play
        gone = ((spec[Spec.CLOSE_AT] > 0) & closed_for_good(flat, spec, cell)).astype(flat.dtype)
        flat = flat.at[cell].add(1 - gone).at[2 * holes + 2 + OUT_OF_PLAY].add(gone)
        side = side_of(cell, holes)
        taker = jnp.where(passing <= Passing.OWNER_ALL, side, mover)
        passed = (
            (passing != Passing.NONE)
            & ~inhibited
            & ((left > 1) | (passing == Passing.OWNER_ALL))
            & ((passing != Passing.SOWER_OWN) | (side == mover))
            & ((passing != Passing.SOWER_OPPONENT) | (side == 1 - mover))
            & can_take(flat, cell, holes, mover, spec, spec[Spec.CAPTURE_MIN] > 0, spec[Spec.CAPTURE_SIDE])
        )
        flat = move_seeds(flat, cell, jnp.maximum(taker, 0) * (holes + 1) + holes, passed)
        theirs = to_opponent & (side == 1 - mover) & \
            ((left > 1) | ~can_take(flat, cell, holes, mover, spec, True, spec[Spec.CAPTURE_SIDE]))
        theirs = theirs.astype(jnp.int32)
        flat = flat.at[cell].add(-theirs).at[(1 - mover) * (holes + 1) + holes].add(theirs)
        return flat, cell, left - 1

    flat, last, _ = lax.while_loop(lambda carry: carry[2] > 0, body, (flat, origin, jnp.where(special, seeds, 0)))
    return jnp.where(special, flat, at_once), jnp.where(special, last, last_at_once)


def next_sown(flat, spec, cell, origin, holes, backward, own_store, mover, last_seed):
    """The cell a sowing drops its next seed into after ``cell``: past the hole it started from
    (skip_origin), past holes already holding sow_max seeds and past the opponent's children
    (child_sowing; but for the ``last_seed``, with "skip_opponent_but_last")."""
    full = spec[Spec.SOW_MAX]

    def passed_over(cell):
        return ((cell == origin) & (spec[Spec.SKIP_ORIGIN] != 0)) | \
            ((full > 0) & (side_of(cell, holes) >= 0) & (flat[cell] >= full)) | \
            skips_child(flat, spec, cell, mover, last_seed) | closed_at(flat, spec, cell) | \
            ((spec[Spec.CLOSE_AT] > 0) & (side_of(cell, holes) == mover) & closed_for_good(flat, spec, cell))

    def next_cell(cell):
        return ring_step(spec, cell, holes, backward, own_store)

    return lax.while_loop(passed_over, next_cell, next_cell(cell))


def closed_for_good(flat, spec, cell):
    """close_at: whether ``cell`` is a hole closed for good (its mark CLOSED)."""
    slot = jnp.clip(2 * spec[SPEC_PITS] + 2 + MARKS + cell, 0, flat.shape[0] - 1)
    return flat[slot] == CLOSED


def closes(flat, spec, last, mover):
    """close_at: whether the lap that ended in ``last`` brings a hole of the opponent's, open, to
    close_at seeds (the opponent's rightmost too, where close_rightmost; numba's family_sowing.closes)."""
    holes = spec[SPEC_PITS]
    return (spec[Spec.CLOSE_AT] > 0) & (side_of(last, holes) == 1 - mover) & (flat[last] == spec[Spec.CLOSE_AT]) & \
        ~closed_for_good(flat, spec, last) & \
        ((spec[Spec.CLOSE_RIGHTMOST] != 0) | (last != (1 - mover) * (holes + 1) + holes - 1))


def close_hole(flat, spec, cell, when, emptied):
    """Mark ``cell`` closed where ``when``; ``emptied``: its seeds leave play (a single lap)."""
    holes = spec[SPEC_PITS]
    slot = jnp.clip(2 * holes + 2 + MARKS + cell, 0, flat.shape[0] - 1)
    gone = jnp.where(when & emptied, flat[cell], 0)
    flat = flat.at[slot].set(jnp.where(when, CLOSED, flat[slot]))
    return flat.at[cell].add(-gone).at[2 * holes + 2 + OUT_OF_PLAY].add(gone)


def sow_at_once(flat, spec, origin, seeds, backward, own_store):
    """A lap of ``seeds`` from ``origin`` without a loop: the cells it sows, in order along the
    ring from ``origin`` (the stores passed over but ``own_store``, the origin itself where
    ``skip_origin``), each get ``seeds // ring`` and the first ``seeds % ring`` one more; (flat,
    the cell of the last seed, ``origin`` for none)."""
    holes = spec[SPEC_PITS]
    cells = 2 * holes + 2
    cell = jnp.arange(flat.shape[0])
    distance = jnp.where(backward, origin - cell, cell - origin) % cells
    distance = jnp.where(distance == 0, cells, distance)  # the origin comes round last
    sown = (
        (cell < cells)
        & (((cell != holes) & (cell != cells - 1)) | (cell == own_store) | (own_store == BOTH_STORES))
        & ~((cell == origin) & (spec[Spec.SKIP_ORIGIN] != 0))
        & ~closed_cells(flat, spec)
    )
    ring = jnp.maximum(sown.sum(), 1)
    # each sown cell's place in the lap: how many sown cells come before it, itself included
    place = jnp.where(sown, (sown[None, :] & (distance[None, :] <= distance[:, None])).sum(1), 0)
    drops = jnp.where(sown, seeds // ring + (place <= seeds % ring), 0)
    last_place = (seeds - 1) % ring + 1
    last = jnp.where(seeds > 0, jnp.argmax(sown & (place == last_place)), origin)
    return flat + drops.astype(flat.dtype), last


def lap_goes_on(flat, spec, last, holes, mover):
    """Whether ``lap_rule`` lets a further lap start at the last hole sown."""
    rule, count = spec[Spec.LAP_RULE], flat[last]
    return jnp.where(rule == 0, True, jnp.where(rule == LapRule.COUNT_IS, count == spec[Spec.LAP_COUNT], jnp.where(
        rule == LapRule.COUNT_AT_LEAST, count >= spec[Spec.LAP_COUNT],
        side_of(last, holes) == jnp.where(rule == LapRule.OWN_SIDE, mover, 1 - mover))))


def action_count(spec):
    """The game's actions (the numba spec's last entry, before :data:`TOTAL`)."""
    return spec[-2]


def sows_backward(spec, hole, seeds):
    """Whether a move of ``hole`` (lifting ``seeds``) sows clockwise, by ``direction``."""
    rule = spec[Spec.DIRECTION]
    left_half = hole < spec[SPEC_PITS] // 2  # (an odd row's middle hole is always chosen)
    return jnp.where(rule <= Direction.CW, rule == Direction.CW, jnp.where(rule == Direction.BY_PARITY, seeds % 2 == 0,
                                                     jnp.where(rule == Direction.OUTWARD, left_half, ~left_half)))


def action_backward(flat, spec, mover, action):
    """Whether ``action`` of ``mover`` sows clockwise: the way it names, where a move names its way
    (``hole + holes``: clockwise), else its hole's way by the rules."""
    holes = spec[SPEC_PITS]
    cell = jnp.clip(jnp.maximum(mover, 0) * (holes + 1) + action % holes, 0, flat.shape[0] - 1)
    named = (action_count(spec) > holes) & (flat[2 * holes + 2 + TURNS_PLAYED] >= spec[Spec.FIXED_WAY_TURNS])
    return jnp.where(named, action >= holes, sows_backward(spec, action % holes, flat[cell]))


def crossing_cell(flat, spec, action):
    """Where a lone seed sown outward from an end hole crosses into the other row (its owner may
    not play it straight back: MancalaGames' rule for outward sowing), or -1."""
    holes = spec[SPEC_PITS]
    mover = jnp.maximum(flat[2 * holes + 2], 0)
    hole = action % holes
    origin = mover * (holes + 1) + hole
    ruled = (spec[Spec.DIRECTION] == Direction.OUTWARD) & (spec[Spec.MIN_SEEDS] == 1) & (spec[Spec.LEAVE_ONE] == 0) & \
        (spec[Spec.CHOOSE_DIRECTION] != ChooseDirection.ALL) & \
        (spec[Spec.CHOOSE_DIRECTION] != ChooseDirection.ENDS_AND_MIDDLE) & (flat[origin] == 1)
    clockwise = action_backward(flat, spec, mover, action)
    at_end = (hole == 0) & clockwise | (hole == holes - 1) & ~clockwise
    own_store = sown_store(spec, mover, holes)
    target = next_sown(flat, spec, origin, origin, holes, clockwise, own_store, mover, True)
    return jnp.where(ruled & at_end & (side_of(target, holes) == 1 - mover), target, -1)


def sow_and_capture(flat, spec, action, live=True):
    """Play ``action`` (a hole of the player to move) and take what it captures; (flat, the
    REPEAT | CAPTURED | ENDLESS | SLAMMED bits). The turn and the end are left to :func:`apply`.
    Not ``live``: a move whose result is thrown away, sown as if its hole were empty, so that its
    loops end at once (under ``vmap`` a loop runs as long as its longest row)."""
    holes = spec[SPEC_PITS]
    cells = 2 * holes + 2
    mover = flat[cells]
    origin = mover * (holes + 1) + action % holes
    backward = action_backward(flat, spec, mover, action)
    own_store = sown_store(spec, mover, holes)
    by_count, across = spec[Spec.CAPTURE_MIN] > 0, spec[Spec.CROSS_CAPTURE] != 0
    inhibited = flat[cells + TURNS_PLAYED] < spec[Spec.NO_CAPTURE_TURNS]
    # a relay stops where a capture by count is due, unless the captures are two out
    stop_for_count = (
        by_count
        & ~across
        & (spec[Spec.CAPTURE_GAP] == 0)
        & ~inhibited
        & (spec[Spec.CAPTURE_KIND] == CaptureKind.STANDARD)
    )
    opponent_had_seeds = (spec[Spec.GRAND_SLAM] >= GrandSlam.NO_CAPTURE) & \
        ((spec[Spec.SLAM_FROM_EMPTY] != 0) | (row_seeds(flat, holes, 1 - mover) > 0))
    GOING, CAPTURE, IN_STORE, ENDS, THEIR_STORE = 0, 1, 2, 3, 4
    store = mover * (holes + 1) + holes

    def lap(carry):
        flat, origin, seeds, _, laps, _, _, result = carry
        flat, seeds = pre_capture(flat, spec, origin, seeds, mover)
        flat, last = sow_lap(flat, spec, origin, seeds, mover, backward, own_store, inhibited)
        # one capture a lap serves both: the one a lap makes (lap_capture) and the move's last
        captured, taken = capture(flat, spec, last, seeds, opponent_had_seeds, backward)
        # a lap's capture that gave another turn stops the sowing (where a store is sown)
        stops = ((own_store >= 0) & ((result & REPEAT) != 0)) | ~lap_goes_on(flat, spec, last, holes, mover)
        go_on, following, lap_takes = next_lap(flat, spec, last, taken, mover, backward, own_store, stop_for_count)
        # where both stores are sown (no laps: refused), a last seed in the opponent's gives another
        # turn where opponent_store is "sown", and ends the move where it is "sown_no_turn"
        in_a_store = (own_store == BOTH_STORES) & (side_of(last, holes) < 0)
        repeats = (last == own_store) | \
            (in_a_store & ((last == store) | (spec[Spec.OPPONENT_STORE] == OpponentStore.SOWN)))
        # (there, capture_kind "opponent_store" takes that store)
        in_theirs = in_a_store & ~repeats & (spec[Spec.CAPTURE_KIND] != CaptureKind.OPPONENT_STORE)
        status = jnp.select([repeats, in_theirs, in_a_store | stops | ~go_on, laps + 1 >= MAX_LAPS],
                            [IN_STORE, THEIR_STORE, CAPTURE, ENDS], GOING)
        takes = (status == CAPTURE) | ((status != IN_STORE) & (status != THEIR_STORE) & lap_takes)
        before, flat = flat, jnp.where(takes, captured, flat)
        # sow_captured: what the lap's end captured goes into its last hole, to be sown on with it
        sown_on = (spec[Spec.SOW_CAPTURED] != 0) & lap_takes & ((status == GOING) | (status == ENDS))
        gained = jnp.where(sown_on, flat[store] - before[store], 0)
        flat = flat.at[store].add(-gained).at[last].add(gained)
        # close_at: a single lap's last hole closes, its seeds out of play; a relay's, as the relay goes on
        closing = ~inhibited & closes(flat, spec, last, mover) & \
            jnp.where(spec[Spec.LAPS] == Lap.RELAY, (status == GOING) | (status == ENDS), True)
        flat = close_hole(flat, spec, last, closing, spec[Spec.LAPS] != Lap.RELAY)
        result = result | jnp.where(takes, taken, 0)
        lifted = jnp.where((status == GOING) | (status == ENDS), flat[following], 0)
        flat = flat.at[following].add(-lifted)
        # an endless sowing: the seeds in hand leave play, as MancalaGames drops them
        flat = flat.at[cells + OUT_OF_PLAY].add(jnp.where(status == ENDS, lifted, 0))
        return flat, following, lifted, last, laps + 1, seeds, status, result

    # the hole played (unlocked: locked_holes), before its own sowing reads it
    played = jnp.clip(cells + MARKS + origin, 0, flat.shape[0] - 1)
    flat = flat.at[played].set(jnp.where(marks_played(spec), PLAYED, flat[played]))
    flat = across_ones(flat, spec, mover)
    seeds = jnp.where(live, flat[origin], 0)
    leave = (
        (seeds > 0) & (spec[Spec.LEAVE_ONE] != 0) & ~((seeds == 1) & (spec[Spec.MOVE_ONE] != 0))
    )  # all but one seed lifted
    seeds = seeds - leave.astype(jnp.int32)
    start = (flat.at[origin].set(leave.astype(jnp.int32)), origin, seeds, origin, jnp.int32(0), seeds,
             jnp.int32(GOING), jnp.int32(0))
    flat, _, _, _, _, _, status, result = lax.while_loop(lambda carry: carry[6] == GOING, lap, start)
    return flat, jnp.where(status == IN_STORE, result | REPEAT, jnp.where(status == ENDS, ENDLESS, result))


def pre_capture(flat, spec, origin, seeds, mover):
    """The capture before each lap is sown (pre_capture but across_ones), from the ``seeds``
    lifted from ``origin``: one of them to the store (one_seed), or a lone one takes the hole
    across (across_lone). Returns (flat, the seeds left to sow)."""
    holes = spec[SPEC_PITS]
    rule, store = spec[Spec.PRE_CAPTURE], mover * (holes + 1) + holes
    one = ((rule == PreCapture.ONE_SEED) & (seeds > 0)).astype(jnp.int32)
    lone = (rule == PreCapture.ACROSS_LONE) & (seeds == 1) & (side_of(origin, holes) >= 0)
    flat = move_seeds(flat.at[store].add(one), jnp.clip(2 * holes - origin, 0, flat.shape[0] - 1), store, lone)
    return flat, seeds - one


def across_ones(flat, spec, mover):
    """pre_capture across_ones, once, from the board as the move found it: each of the mover's
    holes holding one seed takes the hole across."""
    holes = spec[SPEC_PITS]
    cell = jnp.arange(flat.shape[0])
    across = flat[jnp.clip(2 * holes - cell, 0, flat.shape[0] - 1)]
    # an opponent's hole is taken where the mover's hole across holds one seed
    taken = (spec[Spec.PRE_CAPTURE] == PreCapture.ACROSS_ONES) & (side_of(cell, holes) == 1 - mover) & (across == 1)
    gain = jnp.where(taken, flat, 0).sum()
    return jnp.where(taken, 0, flat).at[mover * (holes + 1) + holes].add(gain)


def next_lap(flat, spec, last, taken, mover, backward, own_store, stop_for_count):
    """Where a lap that ended in ``last`` (a hole) goes on, by ``laps``, after the capture a lap
    makes (lap_capture; ``taken``: that capture's bits): (whether another lap is sown, the hole
    it is sown from, whether the lap's capture is made)."""
    holes = spec[SPEC_PITS]
    sides, laps_rule = spec[Spec.CAPTURE_SIDE], spec[Spec.LAPS]
    by_count, across, gap = spec[Spec.CAPTURE_MIN] > 0, spec[Spec.CROSS_CAPTURE] != 0, spec[Spec.CAPTURE_GAP] != 0
    due = stop_for_count & can_take(flat, last, holes, mover, spec, True, sides)
    after = walk(flat, spec, last, holes, backward, own_store)
    lone, more = flat[last] == 1, flat[last] > 1
    # lap_capture (relay): across, a lone seed that captured goes on alone, one that did not stops;
    # two out, the capture then a lap from the last hole; by count, from the next hole
    count_due = can_take(flat, last, holes, mover, spec, True, sides)
    lap_capture = (laps_rule == Lap.RELAY) & (spec[Spec.LAP_CAPTURE] != 0)
    takes = jnp.where(across, lone, jnp.where(gap, more, count_due))
    lap_go = jnp.where(across & lone, (taken & CAPTURED) != 0, more | (~across & ~gap & count_due))
    # sow_captured: a lap's capture is sown on from its last hole (sow_and_capture moves it there), no
    # capture sows on as a relay, and an opponent without seeds stops the sowing before its capture
    sows_captured, bare = spec[Spec.SOW_CAPTURED] != 0, row_seeds(flat, holes, 1 - mover) == 0
    takes = jnp.where(sows_captured, ~bare & ((taken & CAPTURED) != 0), takes)
    lap_go = jnp.where(sows_captured, ~bare & (((taken & CAPTURED) != 0) | more), lap_go)
    opposite = jnp.clip(2 * holes - last, 0, flat.shape[0] - 1)
    stop_for_across = across & lone & can_take(flat, opposite, holes, mover, spec, by_count, sides)
    # a relay stops in a child, or where one is to be made
    in_child = (spec[Spec.CHILDREN] != Children.NONE) & \
        ((mark_of(flat, spec, last) != 0) | child_due(flat, spec, last, mover, backward, own_store))
    relay_on = more & ~due & ~in_child
    next_on = (laps_rule == Lap.NEXT) & (flat[after] > 0) & ~stop_for_across & ~due
    go_on = jnp.where(lap_capture, lap_go, jnp.where(laps_rule == Lap.RELAY, relay_on, next_on))
    from_next = jnp.where(lap_capture, ~across & ~gap & count_due, laps_rule == Lap.NEXT)
    return go_on, jnp.where(from_next, after, last), lap_capture & takes


# -- turns ------------------------------------------------------------------------------------------
def movable(flat, spec, actions: int):
    """The actions whose hole holds enough seeds, that pass the move rule and, where a move names
    its way, may go that way: bool[actions]."""
    holes = spec[SPEC_PITS]
    cells = 2 * holes + 2
    mover = flat[cells]
    first = jnp.maximum(mover, 0) * (holes + 1)
    action = jnp.arange(actions)
    hole = action % holes
    seeds = flat[jnp.clip(first + hole, 0, flat.shape[0] - 1)]
    chosen = action_count(spec) > holes  # hole h counter-clockwise, then h + holes clockwise
    backward = jnp.where(chosen, action >= holes, sows_backward(spec, hole, seeds))
    # the hole a lone seed just crossed into may not be played back (no hole: out of 0..holes-1)
    blocked = flat[cells + NO_RETURN] - 1 - first
    way = way_allowed(flat, spec, mover, hole, backward)  # (elementwise over the actions)
    rule_ok = jax.vmap(lambda h, b: may_move(flat, spec, mover, h, b))(hole, backward)
    out = (mover >= 0) & (action < action_count(spec)) & (hole != blocked) & (~chosen | way) & rule_ok
    # singles_last: a hole of one only when every hole that may be played holds one
    others = (out & (seeds != 1)).any()
    return jnp.where((spec[Spec.MOVE_RULE] == MoveRule.SINGLES_LAST) & others, out & (seeds != 1), out)


def may_move(flat, spec, mover, hole, backward):
    """Whether ``hole`` holds enough seeds and passes the move rule, sown clockwise (``backward``)
    or not (not yet must-share or an illegal grand slam)."""
    holes = spec[SPEC_PITS]
    last_cell = flat.shape[0] - 1
    origin = jnp.clip(jnp.maximum(mover, 0) * (holes + 1) + hole, 0, last_cell)
    seeds = flat[origin]
    rule = spec[Spec.MOVE_RULE]
    own_store = sown_store(spec, mover, holes)
    # single_to_empty: a lone seed moves only into an empty hole (and never into the store)
    following = walk(flat, spec, origin, holes, backward, own_store)
    single = (side_of(following, holes) >= 0) & ~((seeds == 1) & (flat[following] > 0))
    # not_across_ones: not across from a hole of the opponent's holding one seed
    across = flat[jnp.clip(2 * holes - origin, 0, last_cell)] != 1
    # opponent_or_empty: the first lap (of a move of no more seeds than holes) ends across, or empty
    laps_end = (rule == MoveRule.OPPONENT_OR_EMPTY) | (rule == MoveRule.TO_OCCUPIED)
    cell = first_lap_end(flat, spec, origin, jnp.where(laps_end, seeds, 0), holes, backward, own_store)
    side = side_of(cell, holes)
    opponent_or_empty = (seeds > holes) | ~((side == mover) & (flat[cell] > 0))
    # to_occupied: the first lap must not end in a hole it leaves holding one seed; the seeds the
    # lap drops there: it passes every cell of the ring alike, laps apart
    ring = 2 * holes + (own_store >= 0) + 2 * (own_store == BOTH_STORES) - (spec[Spec.SKIP_ORIGIN] != 0) - \
        closed_cells(flat, spec).sum()
    left = jnp.where(spec[Spec.LEAVE_ONE] != 0, seeds - 1, seeds)
    dropped = (left - 1) // ring + 1
    before = jnp.where(cell == origin, jnp.where(spec[Spec.LEAVE_ONE] != 0, 1, 0), flat[cell])
    occupied = (side < 0) | (before + dropped != 1)
    # every_hole_first: a hole played already waits until each of the row's has been
    cell = jnp.arange(flat.shape[0])
    marked = flat[jnp.clip(2 * holes + 2 + MARKS + cell, 0, flat.shape[0] - 1)] == PLAYED
    first = jnp.maximum(mover, 0) * (holes + 1)
    unplayed = ((cell >= first) & (cell < first + holes) & ~marked).any()
    fresh = ~marked[origin] | ~unplayed
    ruled = jnp.select(
        [
            rule == MoveRule.SINGLE_TO_EMPTY,
            rule == MoveRule.NOT_ACROSS_ONES,
            rule == MoveRule.OPPONENT_OR_EMPTY,
            rule == MoveRule.TO_OCCUPIED,
            rule == MoveRule.EVERY_HOLE_FIRST,
        ],
        [single, across, opponent_or_empty, occupied, fresh],
        True,
    )
    return (seeds >= spec[Spec.MIN_SEEDS]) & ruled & (mark_of(flat, spec, origin) == 0)  # a child is never played


def first_lap_end(flat, spec, origin, seeds, holes, backward, own_store):
    """The cell where a move's first lap from ``origin`` (``seeds`` in it) drops its last seed."""
    lone = (seeds == 1) & (spec[Spec.MOVE_ONE] != 0)
    left = jnp.where((spec[Spec.LEAVE_ONE] != 0) & ~lone, seeds - 1, seeds)

    def body(carry):
        cell, left = carry
        cell = walk(flat, spec, cell, holes, backward, own_store)
        cell = jnp.where((cell == origin) & (spec[Spec.SKIP_ORIGIN] != 0), walk(flat, spec, cell, holes, backward,
                                                                                  own_store), cell)
        return cell, left - 1

    return lax.while_loop(lambda carry: carry[1] > 0, body, (origin, left))[0]


def way_allowed(flat, spec, mover, hole, backward):
    """Whether ``hole`` may be sown that way (clockwise: ``backward``), in a game where a move names
    its way: "opposed", the way of the mover's first move; a chosen hole, either way."""
    holes = spec[SPEC_PITS]
    first = flat[2 * holes + 2 + FIRST_WAY]
    opposed = (first == 0) | (backward == ((first == 2) == (mover == 0)))
    choose = spec[Spec.CHOOSE_DIRECTION]
    free = (choose == ChooseDirection.ALL) | ((choose >= ChooseDirection.MIDDLE) & (hole == holes // 2)) | \
        ((choose == ChooseDirection.ENDS_AND_MIDDLE) & ((hole == 0) | (hole == holes - 1)))
    cell = jnp.clip(jnp.maximum(mover, 0) * (holes + 1) + hole, 0, flat.shape[0] - 1)
    return jnp.where(
        spec[Spec.DIRECTION] == Direction.OPPOSED,
        opposed,
        free | (backward == sows_backward(spec, hole, flat[cell])),
    )


def legal(flat, spec, actions: int, head: int | None = None):
    """The mover's legal actions: bool[actions]. Must-share and an illegal grand slam are decided
    by playing every movable action on a copy (all of them, as a select computes both branches),
    of the ``head`` slots alone (:func:`apply`)."""
    flat = flat[:head]
    holes = spec[SPEC_PITS]
    mover = flat[2 * holes + 2]
    out = movable(flat, spec, actions)
    count = out.sum()
    opponent_seeds = row_seeds(flat, holes, 1 - mover)
    share = (spec[Spec.MUST_SHARE] != 0) & (opponent_seeds == 0)
    fed = share | ((spec[Spec.GRAND_SLAM] == GrandSlam.ILLEGAL) & (opponent_seeds > 0))
    avoid = spec[Spec.SLAM_AVOIDED] != 0
    # a finished game, or an action that cannot move, is tried as a movable one (thrown away), so
    # that no trial sows from a slot
    trial = flat.at[2 * holes + 2].set(jnp.maximum(mover, 0))
    need = (count > 0) & (fed | (avoid & (count > 1)))
    trials, results = jax.vmap(lambda action, live: sow_and_capture(trial, spec, action, live))(
        jnp.where(out, jnp.arange(actions), jnp.argmax(out)), out & need)
    kept = jnp.where(fed, out & (jax.vmap(lambda trial: row_seeds(trial, holes, 1 - mover))(trials) > 0), out)
    # share_either_way: a hole that feeds one way is played either way (its other action: +-holes)
    action = jnp.arange(actions)
    other = jnp.clip(jnp.where(action < holes, action + holes, action - holes), 0, actions - 1)
    either = share & (spec[Spec.SHARE_EITHER_WAY] != 0) & (action_count(spec) > holes)
    kept = jnp.where(either, kept | (out & kept[other]), kept)
    kept = jnp.where((kept.sum() == 0) & share & (spec[Spec.MUST_PASS] != 0), out, kept)
    slams = kept & avoid & ((results & SLAMMED) != 0)
    kept = jnp.where(avoid & (kept.sum() > 1) & (slams.sum() < kept.sum()), kept & ~slams, kept)
    return jnp.where(need, kept, out)


def has_move(flat, spec, player, actions: int):
    cells = 2 * spec[SPEC_PITS] + 2
    return legal(flat.at[cells].set(player), spec, actions).any()


def claim(flat, holes, who, rule, when=True):
    """The end: the seeds on the board go by ``rule`` (a Leftover; Leftover.MOVER: all to ``who``;
    Leftover.DIVIDED: the odd seed to the smaller store, player_1's when level), where ``when``."""
    cell = jnp.arange(flat.shape[0])
    hole = is_hole(flat, holes) & when
    left = jnp.where(hole, flat, 0).sum()
    row0 = jnp.where(hole & (cell < holes), flat, 0).sum()
    half, odd = left // 2, (left % 2 == 1) & (flat[2 * holes + 1] > flat[holes])
    player = jnp.arange(2)
    divided = half + (left % 2) * jnp.where(player == 0, odd, ~odd)
    gains = jnp.where(rule == Leftover.OWNER, jnp.stack([row0, left - row0]),
                      jnp.where(rule == Leftover.MOVER, jnp.where(player == who, left, 0),
                                jnp.where(rule == Leftover.DIVIDED, divided, 0)))
    flat = jnp.where(hole, 0, flat).at[holes].add(gains[0]).at[2 * holes + 1].add(gains[1])
    return flat.at[2 * holes + 2 + OUT_OF_PLAY].add(jnp.where(rule == Leftover.NOBODY, left, 0))


def claim_leftover(flat, spec, mover, rule):
    """The end: the seeds of the holes that are nobody's child go by ``rule`` (see :func:`claim`),
    the children keep theirs; without stores (child_stores), the stores then go into children."""
    claimed = claim(flat, spec[SPEC_PITS], mover, rule, marks(flat, spec) == 0)
    return jnp.where(
        (spec[Spec.CHILDREN] != Children.NONE) & (spec[Spec.CHILD_STORES] != 0),
        stores_to_children(claimed, spec),
        claimed,
    )


def history_slot(spec):
    """repetition_ends: the history's first slot (numba's family_space.history_slot)."""
    cells = 2 * spec[SPEC_PITS] + 2
    marked = (spec[Spec.CHILDREN] != Children.NONE) | (spec[Spec.CLOSED_HOLES] != 0) | (spec[Spec.CLOSE_AT] != 0) | \
        marks_played(spec)
    return cells + MARKS + jnp.where(marked, cells, 0)


def head_size(games) -> int:
    """The slots of a batch of ``games`` (numba Familys) before any row's history: what a move
    reads and writes but for the history (:func:`apply`'s ``head``)."""
    return max(game.state_size - (HISTORY_SLOTS if game.params["repetition_ends"] else 0) for game in games)


def apply(flat, action, spec, actions: int, head: int | None = None):
    """``action`` of the player to move, played whole: the sowing, the turn, the end.
    ``actions``: the length of a legal mask (static), for the trials of the turn's end. ``head``
    (static; :func:`head_size`): the slots before any row's history, on which the move is played
    (the end by repetition alone reads the history: a row's 515 slots of it would make each step
    of the move copy them); None: every slot."""
    if not holds_history(flat):  # no row of the batch keeps a history: no end by repetition
        return play(flat, action, spec, actions)
    holes = spec[SPEC_PITS]
    cells = 2 * holes + 2
    head = flat.shape[0] if head is None else head
    banked = flat[holes] + flat[cells - 1]
    after = play(flat[:head], action, spec, actions)
    return ends_by_repetition(jnp.concatenate([after, flat[head:]]), spec, flat[cells], banked)


def ends_by_repetition(flat, spec, mover, banked):
    """repetition_ends, after ``mover``'s move in a game of most seeds that plays on: the position
    is recorded in the history, and one seen before (or a full stretch of them) ends the game,
    the seeds left going by ``leftover``. ``banked``: the stores' seeds before the move; a move
    that banks some forgets the positions before it, as no seed banked comes back (numba's
    family_turns.repeated)."""
    holes = spec[SPEC_PITS]
    cells = 2 * holes + 2
    recorded = (spec[Spec.REPETITION_ENDS] != 0) & (spec[Spec.GOAL] == Goal.MOST_SEEDS) & (flat[cells] != GAME_OVER)
    position = prefix_hash(flat, jnp.where(recorded, cells + 1, 0))  # (no hashing in a batch without the rule)
    flat, repeated = record_position(flat, history_slot(spec), position, flat[holes] + flat[cells - 1] != banked,
                                     recorded)
    over = claim_leftover(flat, spec, mover, spec[Spec.LEFTOVER]).at[cells].set(GAME_OVER)
    return jnp.where(repeated, over, flat)


def play(flat, action, spec, actions: int):
    """:func:`apply` but for the end by repetition."""
    holes = spec[SPEC_PITS]
    cells = 2 * holes + 2
    mover = flat[cells]
    flat = flat.at[cells + MOVES_PLAYED].add(1)
    # "opposed": the way of the first move is the mover's for the game, the other the opponent's
    clockwise = action >= holes
    first_way = jnp.where((spec[Spec.DIRECTION] == Direction.OPPOSED) & (flat[cells + FIRST_WAY] == 0),
                          1 + jnp.where(mover == 0, clockwise, ~clockwise), flat[cells + FIRST_WAY])
    flat = flat.at[cells + FIRST_WAY].set(first_way.astype(jnp.int32))
    crossed = crossing_cell(flat, spec, action)
    flat, result = sow_and_capture(flat, spec, action)
    flat = jnp.where(spec[Spec.CHILDREN_BANK] != 0, bank_children(flat, spec), flat)
    kept = (crossed >= 0) & (flat[jnp.maximum(crossed, 0)] == 1)  # still a lone seed after the capture
    flat = flat.at[cells + NO_RETURN].set(jnp.where(kept, crossed + 1, 0))
    # an endless sowing ends a most-seeds game by endless_leftover (without stores, the seeds shared
    # between the children); another goal's is a draw, the board as it lies
    claimed = jnp.where(spec[Spec.CHILD_STORES] != 0, divide_into_children(flat, spec),
                        claim_leftover(flat, spec, mover, spec[Spec.ENDLESS_LEFTOVER]))
    endless = jnp.where(spec[Spec.GOAL] != Goal.MOST_SEEDS, flat, claimed)
    endless = endless.at[cells].set(GAME_OVER)
    repeat = (result & REPEAT) != 0
    flat = flat.at[cells + TURNS_PLAYED].add((~repeat).astype(jnp.int32)).at[cells + EXTRA_TURNS].set(
        jnp.where(repeat, flat[cells + EXTRA_TURNS] + 1, 0))
    ended = (result & ENDLESS) != 0
    flat = jnp.where(ended, endless, turn_after(flat, spec, mover, repeat, actions))
    # a match: the round's end sets up the next (family_rounds)
    following = jnp.where(flat[cells + EXTRA_TURNS] > 0, mover, 1 - mover)
    next_flat, _ = next_round(flat, spec, history_slot(spec), mover, following, ended)
    return jnp.where((spec[Spec.ROUNDS] != 0) & (flat[cells] == GAME_OVER), next_flat, flat)


def turn_after(flat, spec, mover, repeat, actions: int):
    """After a move that did not end in an endless sowing: the game's end, or who moves next."""
    holes = spec[SPEC_PITS]
    cells = 2 * holes + 2
    following = jnp.where(repeat, mover, 1 - mover)
    hole = is_hole(flat, holes)
    free = hole & (marks(flat, spec) == 0)  # a child's seeds are out of play (every hole, without children)
    counted = (
        (spec[Spec.END_SEEDS_LEFT] >= 0)
        | (spec[Spec.END_BELOW] > 0)
        | (spec[Spec.MIN_SEEDS] > 1)
        | (spec[Spec.UNFED_TAKES] != 0)
        | (spec[Spec.CHILDREN] != Children.NONE)
    )
    on_board = jnp.where(counted, jnp.where(free, flat, 0).sum(), 0)
    playable = ~counted | (free & (flat >= spec[Spec.MIN_SEEDS])).any()
    mine, theirs = free_row_seeds(flat, spec, mover), free_row_seeds(flat, spec, 1 - mover)
    cleared = spec[Spec.END_CLEARED]
    ended = ((spec[Spec.END_SEEDS_LEFT] >= 0) & (on_board <= spec[Spec.END_SEEDS_LEFT])) | \
        ((cleared == Cleared.OWN) & (mine == 0)) | ((cleared == Cleared.OPPONENT) & (theirs == 0)) | \
        ((cleared == Cleared.EITHER) & ((mine == 0) | (theirs == 0)))
    total = spec[-1]
    win = jnp.where(spec[Spec.WIN_SHORT] > 0, total - spec[Spec.WIN_SHORT], (total + 1) // 2)
    s0, s1 = flat[holes] + child_seeds(flat, spec, 0), flat[cells - 1] + child_seeds(flat, spec, 1)
    won = (spec[Spec.EARLY_WIN] != 0) & ((s0 > win) | (s1 > win) | ((s0 == win) & (s1 == win)))
    as_it_lies = ~ended & won & (spec[Spec.WIN_SWEEP] == 0)
    following_can = has_move(flat, spec, following, actions)
    # a pass is a turn, and may change what the other player may play (no_capture_turns): their
    # move is tried after it
    other_can = has_move(flat.at[cells + TURNS_PLAYED].add(1), spec, 1 - following, actions)
    row = jnp.arange(flat.shape[0])
    mover_can = (hole & (side_of(row, holes) == mover) & (flat >= spec[Spec.MIN_SEEDS])).any()
    opponent_can = (hole & (side_of(row, holes) == 1 - mover) & (flat >= spec[Spec.MIN_SEEDS])).any()
    unfed_rule = (
        ~won & (spec[Spec.UNFED_TAKES] != 0) & (spec[Spec.MUST_SHARE] != 0) & (spec[Spec.MUST_PASS] == 0) & playable
    )
    unfed = jnp.where(unfed_rule & repeat & mover_can & ~opponent_can & ~following_can, 1 - mover,
                      jnp.where(unfed_rule & ~repeat & ~mover_can & opponent_can & ~following_can, mover, -1))
    ends = (unfed >= 0) | won | ~playable | ~following_can & ((spec[Spec.MUST_PASS] == 0) | ~other_can)
    few = (on_board > 0) & (on_board < spec[Spec.END_BELOW]) & ~has_child(flat, spec, 0) & ~has_child(flat, spec, 1)
    ends = ends | few | (flat[cells + MOVES_PLAYED] >= MOVE_LIMIT)
    unfed_flat = claim(flat, holes, jnp.maximum(unfed, 0), Leftover.MOVER, unfed >= 0)
    passes = (spec[Spec.MUST_PASS] != 0) & ~following_can
    playing = flat.at[cells + TURNS_PLAYED].add(passes.astype(jnp.int32))
    playing = playing.at[cells].set(jnp.where(passes, 1 - following, following))
    over = claim_leftover(jnp.where(ended, flat, unfed_flat), spec, mover, spec[Spec.LEFTOVER]).at[cells].set(GAME_OVER)
    most_seeds = jnp.where(as_it_lies, flat.at[cells].set(GAME_OVER), jnp.where(ended | ends, over, playing))
    outcome = goal_outcome(flat, spec, mover, following, following_can)
    by_goal = flat.at[cells + WINNER].set(jnp.maximum(outcome, 0)).at[cells].set(jnp.where(outcome >= 0, GAME_OVER,
                                                                                            following))
    return jnp.where(spec[Spec.GOAL] != Goal.MOST_SEEDS, by_goal, most_seeds)


def goal_outcome(flat, spec, mover, following, following_can):
    """After ``mover``'s move in a game of another goal than most seeds (``following`` to move
    next, ``following_can``: whether they have a move): -1 to play on, else the WINNER slot's value
    (1 + the winner, 0: a draw)."""
    holes = spec[SPEC_PITS]
    goal = spec[Spec.GOAL]
    mine, theirs = row_seeds(flat, holes, mover), row_seeds(flat, holes, 1 - mover)
    deprived = (goal == Goal.DEPRIVE) & (
        (theirs == 0) | (mine == 0)
    )  # the opponent's row first: both empty, the mover wins
    cleared = (goal == Goal.CLEAR) & ((mine == 0) | (theirs == 0))  # the mover's own row first
    limit = flat[2 * holes + 2 + MOVES_PLAYED] >= MOVE_LIMIT
    return jnp.select([deprived, cleared, ~following_can, limit],
                      [1 + jnp.where(theirs == 0, mover, 1 - mover), 1 + jnp.where(mine == 0, mover, 1 - mover),
                       jnp.where(goal == Goal.CLEAR, 0, 2 - following), 0], -1)


def returns(flat, spec):
    """+1/-1/0 per player once the game is over, zeros before: by the stores (and each player's
    children) in a game of most seeds, else as the goal or a match's tally decided (the WINNER slot: 1 + the
    winner, 0 a draw)."""
    holes = spec[SPEC_PITS]
    winner = flat[2 * holes + 2 + WINNER]
    by_stores = jnp.sign(flat[holes] + child_seeds(flat, spec, 0) - flat[2 * holes + 1] - child_seeds(flat, spec, 1))
    sign = jnp.where(
        (spec[Spec.GOAL] == Goal.MOST_SEEDS) & (spec[Spec.MATCH_END] == 0), by_stores,
        jnp.where(winner == 0, 0, jnp.where(winner == 1, 1, -1))
    )
    over = flat[2 * holes + 2] == GAME_OVER
    return jnp.where(over, jnp.array([1.0, -1.0]) * sign.astype(jnp.float32), jnp.zeros(2, jnp.float32))
