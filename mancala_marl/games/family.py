"""The two-row Mancala family: one rules space whose parameters say how a game sows, captures,
passes and ends, so that Wari, Ayoayo, Bohnenspiel, Dakon and their cousins are points of it.

The board is a ring of two rows of holes with a store at each end, as in every game here:
player_0's holes ``0 .. H-1`` (left to right as player_0 sees them), player_0's store, then
player_1's holes, player_1's store. Counter-clockwise sowing runs along that ring by increasing
index; clockwise the other way. A move is a hole of the mover's, ``0 .. H-1`` in that order (and
its way, where the mover chooses it: see Actions).

**Sowing.** The mover lifts the seeds of a hole holding at least ``min_seeds`` (all of them, or
all but one with ``leave_one``) and drops one in each hole along the ring, in ``direction``:
``ccw`` or ``cw`` for every move; ``outward`` (the left half of a row sows clockwise, the right
half counter-clockwise, away from the middle; with ``min_seeds=1`` a lone seed sown across the end
of the rows may not be played straight back) or ``inward`` (towards the middle); ``by_parity``: an
odd count lifted sows counter-clockwise, an even one clockwise; ``opposed``: the first move of the
game chooses its way, which is the first mover's for the game, and the other player sows the
other way. ``choose_direction`` lets the mover choose the way of the ``middle`` hole of an odd row
(which ``outward`` and ``inward`` need there) or of ``all`` holes. Captures read "backward" and
"forward" along the move's own way. ``move_rule="opponent_or_empty"`` allows only a hole of at
most H seeds whose first lap ends across or in an empty hole (or a fuller one);
``"single_to_empty"`` moves a lone seed only into an empty hole.

- The stores are passed over, unless ``sow_store``: the mover's own store is then a hole of the
  ring, and a last seed there gives the mover another turn.
- ``skip_origin``: a lap that comes round to the hole it started from passes over it.
- ``laps="relay"``: when the last seed lands in a hole that held seeds, that hole's seeds are
  lifted and sown on, and so on (a lap that ends where a capture is due stops there, to capture).
  ``"next"``: the sowing goes on from the hole after the last one, if it holds seeds. A sowing of
  more than :data:`MAX_LAPS` laps is endless: the game stops, the seeds in hand leave play and
  the seeds on the board are shared out by ``endless_leftover``. A lap that ends in the mover's
  store ends the sowing (another turn); a ``"next"`` lap ending beside it goes on from the store,
  sowing its seeds (MancalaGames' rule, kept so as to play its files). ``lap_rule`` adds a
  condition on the last hole for each further lap (it holds exactly, or at least, ``lap_count``
  seeds; it is on the mover's side, or the opponent's), tested before a lap's capture.
  ``lap_capture``: a relay lap captures where it ends and sows on (a lone seed that cross-captured
  goes on alone, one that did not stops; after a capture by count the sowing goes on from the next
  hole).

**Actions.** Where no move chooses its way, an action is a hole of the mover's, ``0 .. H-1``.
Where some do (``choose_direction``, ``opposed``), there are ``2H`` actions: ``h`` sows hole ``h``
counter-clockwise and ``H + h`` sows it clockwise; the mask allows the ways the rules allow (a
hole whose way is fixed has one legal action of the two). The per-pit observations (``moves``,
``turns``, ``afterstates``) are refused for these games.

**Captures.** Where the last seed falls (never in a store):

- By count: the hole is taken when it then holds ``capture_min .. capture_max`` seeds
  (``capture_max=0``: no upper bound) of ``capture_parity``, on ``capture_side``
  (``opponent_first`` or ``own_first``: the last hole must be on that side, and the chain may then
  cross to the other); none when ``capture_min=0``. ``captures`` holes may be taken in a row (0:
  as many as qualify), going ``chain`` (backward along the sowing, or forward, or one way round the
  ring, ``cw`` or ``ccw``, whichever way the move sowed) from the last hole while each qualifies.
- ``cross_capture``: a last seed in an empty hole takes the hole across the board, if that hole
  qualifies by the counts above (when given) and its side; the chain then takes the holes across
  from each next empty hole (any next hole, with ``cross_chain="any"``). ``take_own`` also takes
  the sowing seed, when something was captured (``"on_capture"``) or whenever the last seed made
  a hole of one on the side it may take from (``"always"``).
- ``capture_gap``: a last hole that held seeds, followed by an empty one, takes the hole beyond
  the gap (chains go on across the next gap).
- ``passing``: the holes sown on the way that qualify by count are taken as the seeds pass, by
  their row's ``owner`` (the last hole by the mover; ``owner_all``: it too), or by the ``sower``
  (from any row, ``sower_own`` row or ``sower_opponent`` row).
- ``take_last``: after a move, when at most this many seeds are left where captures come from,
  every seed on the board goes to ``take_last_by`` (the mover, or the first player).
- ``no_single_capture``: a lap of one seed captures nothing; ``no_capture_turns``: nothing is
  captured in the game's first turns.
- ``grand_slam``: a move that would take every seed of the opponent's row is ``legal``, ``illegal``
  (unless the opponent's row was empty before it), or sows and takes nothing (``no_capture``), or
  takes every hole of that row but one: the first holding seeds from the mover's left end
  (``leave_left``) or right end (``leave_right``), as the mover sees the board (a row of one full
  hole is taken whole).
- ``take_across``: a capture also takes the hole across from the first hole it took.
- ``capture_extra_turn``: a move that captures gives the mover another turn (``extra_turn_once``:
  not one that follows another extra turn).

**Turns and the end.** With ``must_share``, a player whose opponent's row is empty must play a
move that leaves the opponent seeds; if none does, the game ends (or, with ``must_pass``, any move
is allowed). With ``must_pass`` a player without a legal move passes; without it, the game ends.
After each move, in this order, the game ends:

1. when at most ``end_seeds_left`` seeds are left on the board (-1: never), or the mover's own
   (``end_cleared="own"``) or the opponent's (``"opponent"``) row is empty;
2. at once, with the board as it is, when a store holds more than the winning count (or both
   hold exactly half: a draw): half the game's seeds, ``2 * holes * seeds`` (``win_short=0``), or
   all of them less ``win_short`` (a game of rounds, which goes on until the loser can no longer
   fill its holes);
3. when no hole holds ``min_seeds`` seeds, when the player to move has no legal move (and, with
   ``must_pass``, neither has the other), when fewer than ``end_below`` seeds are left on the
   board (and some are), too few for any capture to change the outcome, or (a bound of ours:
   MancalaGames has none, and two players can circle for ever) after :data:`MOVE_LIMIT` moves.

At ends 1 and 3 the seeds left on the board go by ``leftover``: to the ``owner`` of each hole's
row, all to the last ``mover``, ``divided`` evenly (the odd seed to the player with the smaller
store, player_1 when they are level), or to ``nobody`` (out of play); with ``unfed_takes``, a game that ends because a player
cannot feed the other gives them to the unfed player. More seeds in store wins.

A rule set in which no hole can be played at the start is refused, as are ``passing`` with
``sow_store`` (which MancalaGames plays oddly) and a parameter that would do nothing
(``lap_rule`` without laps, ``lap_count`` without a count rule).

The semantics are MancalaGames' (StoneShark's engine of 141 traditional games), which
``benchmarks/family_crosscheck.py`` plays against move for move; :func:`load_mancalagames` reads
its game files. A game of several rounds is its first round here.
"""

from __future__ import annotations

import numpy as np

from mancala_marl.errors import BadInput
from .._compile import kernel
from .base import (GAME_OVER, MAX_MOVES, SPEC_PITS, SPEC_SEEDS, Game, action_count, pits_param, seeds_param,
                   spec_index, sweep_to_stores)
from .params import Param

MAX_LAPS = 75  # MancalaGames' bound on a relay sowing, after which it calls the sowing endless
# One bound of ours: MancalaGames has no repetition rule, so two players can circle for ever
# (a lone seed handed back and forth under must_share). After MOVE_LIMIT moves the game ends as
# when no move is left. It is the environments' truncation, so that every search, rollout and
# match over the family ends.
MOVE_LIMIT = MAX_MOVES
# the slots after TO_MOVE; FIRST_WAY: 0 before the first move of an "opposed" game, then 1 + the
# way player_0 sows (0: ccw, 1: cw); NO_RETURN: 1 + the cell a lone seed just crossed into at the
# end of the rows ("outward"), which may not be played straight back (0: none)
OUT_OF_PLAY, MOVES_PLAYED, TURNS_PLAYED, EXTRA_TURNS, FIRST_WAY, NO_RETURN = 1, 2, 3, 4, 5, 6
DIRECTIONS = ("ccw", "cw", "outward", "inward", "by_parity", "opposed")
CHOICES = ("none", "middle", "all")
LAPS = ("single", "relay", "next")
LAP_RULES = ("any", "count_is", "count_at_least", "own_side", "opponent_side")
PARITIES = ("any", "even", "odd")
SIDES = ("both", "opponent", "own", "opponent_first", "own_first")
CHAINS = ("backward", "forward", "cw", "ccw")
TAKE_OWN = ("leave", "on_capture", "always")
GRAND_SLAMS = ("legal", "illegal", "no_capture", "leave_left", "leave_right")
CLEARED = ("no", "own", "opponent")
LEFTOVERS = ("owner", "mover", "divided", "nobody")
MOVE_RULES = ("any", "opponent_or_empty", "single_to_empty")
PASSING = ("none", "owner", "owner_all", "sower", "sower_own", "sower_opponent")
TAKERS = ("mover", "first")
MAX_COUNT = 1 << 20

PARAMETERS = (
    pits_param("holes", 6, "holes a side", low=2),
    seeds_param("seeds", 4, "seeds in each hole at the start"),
    Param("direction", str, "ccw", "the way seeds are sown round the ring: one way, outward or inward from the "
                                   "middle of the row, by the count lifted (odd: ccw), or opposed (the first "
                                   "mover chooses a way for the game, the other player sows the other)",
          choices=DIRECTIONS),
    Param("choose_direction", str, "none", "the holes whose mover chooses the way to sow: none, the middle one of "
                                           "an odd row, or all", choices=CHOICES),
    Param("sow_store", bool, False, "the mover's own store is sown into; a last seed there gives another turn"),
    Param("laps", str, "single", "one lap, relay laps from the last hole, or laps from the next hole",
          choices=LAPS),
    Param("lap_rule", str, "any", "a further lap is sown only when the last hole holds lap_count seeds (or at "
                                  "least that), or is on the mover's or the opponent's side", choices=LAP_RULES),
    Param("lap_count", int, 0, "the count lap_rule asks for", low=0, high=MAX_COUNT),
    Param("lap_capture", bool, False, "relay laps capture where each lap ends and sow on: a cross capture with "
                                      "the lone seed, a capture by count from the next hole"),
    Param("skip_origin", bool, True, "a lap passes over the hole it started from"),
    Param("leave_one", bool, False, "a move lifts all its hole's seeds but one"),
    Param("min_seeds", int, 1, "seeds a hole needs to be played", low=1, high=MAX_COUNT),
    Param("move_rule", str, "any", "which holes may be played beyond min_seeds", choices=MOVE_RULES),
    Param("capture_min", int, 2, "fewest seeds a hole holds after the last seed to be taken (0: no capture by "
                                 "count)", low=0, high=MAX_COUNT),
    Param("capture_max", int, 3, "most seeds a hole may hold to be taken (0: no bound)", low=0, high=MAX_COUNT),
    Param("capture_parity", str, "any", "the counts that are taken: any, even or odd", choices=PARITIES),
    Param("capture_side", str, "opponent", "the row captures are taken from", choices=SIDES),
    Param("cross_capture", bool, False, "a last seed in an empty hole takes the hole across the board"),
    Param("cross_chain", str, "empty", "the holes of a cross capture's chain after the first: empty ones, or any",
          choices=("empty", "any")),
    Param("take_own", str, "leave", "a cross capture also takes the sowing seed", choices=TAKE_OWN),
    Param("capture_gap", bool, False, "the last hole followed by an empty one takes the hole beyond it"),
    Param("passing", str, "none", "holes sown on the way that qualify by count are taken: by their owner (the "
                                  "last one by the mover, or it too: owner_all), or by the mover (from any row, "
                                  "the own or the opponent's)", choices=PASSING),
    Param("captures", int, 0, "holes taken in a row at most (0: as many as qualify)", low=0, high=MAX_COUNT),
    Param("chain", str, "backward", "the way a chain of captures runs from the last hole: back along the "
                                    "sowing, forward, or one way round the ring whatever way the move sowed",
          choices=CHAINS),
    Param("no_single_capture", bool, False, "a lap of a single seed captures nothing"),
    Param("grand_slam", str, "legal", "a move taking every seed of the opponent's row", choices=GRAND_SLAMS),
    Param("take_across", bool, False, "a capture also takes the hole across from the first hole taken"),
    Param("capture_extra_turn", bool, False, "a move that captures gives another turn"),
    Param("extra_turn_once", bool, False, "with capture_extra_turn: not after another extra turn"),
    Param("no_capture_turns", int, 0, "turns at the start in which nothing is captured", low=0, high=MAX_COUNT),
    Param("take_last", int, 0, "after a move, when at most this many seeds are left where captures come from, "
                               "they are all taken (0: never)", low=0, high=MAX_COUNT),
    Param("take_last_by", str, "mover", "who takes them: the mover, or the first player", choices=TAKERS),
    Param("must_share", bool, True, "a move must leave seeds to an opponent who has none"),
    Param("must_pass", bool, False, "a player without a legal move passes (else the game ends)"),
    Param("end_seeds_left", int, -1, "the game ends when at most this many seeds are on the board (-1: never)",
          low=-1, high=MAX_COUNT),
    Param("end_cleared", str, "no", "the game ends when this row is empty after a move", choices=CLEARED),
    Param("win_short", int, 0, "a store with more than all the seeds less this wins at once (0: more than "
                               "half)", low=0, high=MAX_COUNT),
    Param("end_below", int, 0, "the game ends when fewer seeds than this are on the board (0: never)",
          low=0, high=MAX_COUNT),
    Param("leftover", str, "owner", "who gets the seeds left on the board at the end", choices=LEFTOVERS),
    Param("unfed_takes", bool, False, "with must_share (and not must_pass): when the game ends because a player "
                                      "cannot feed an opponent without seeds, the unfed player takes the seeds left"),
    Param("endless_leftover", str, "divided", "who gets them when a relay sowing is endless",
          choices=LEFTOVERS),
)
(DIRECTION, CHOOSE_DIRECTION, SOW_STORE, LAPS_, LAP_RULE, LAP_COUNT, LAP_CAPTURE, SKIP_ORIGIN, LEAVE_ONE, MIN_SEEDS, MOVE_RULE, CAPTURE_MIN, CAPTURE_MAX,
 CAPTURE_PARITY, CAPTURE_SIDE, CROSS_CAPTURE, CROSS_CHAIN, TAKE_OWN_, CAPTURE_GAP, PASSING_, CAPTURES, CHAIN, NO_SINGLE_CAPTURE,
 GRAND_SLAM, TAKE_ACROSS, CAPTURE_EXTRA_TURN, EXTRA_TURN_ONCE, NO_CAPTURE_TURNS, TAKE_LAST, TAKE_LAST_BY, MUST_SHARE, MUST_PASS, END_SEEDS_LEFT, END_CLEARED, WIN_SHORT, END_BELOW,
 LEFTOVER, UNFED_TAKES, ENDLESS_LEFTOVER) = (
    spec_index(PARAMETERS, param.name) for param in PARAMETERS[2:])
RELAY, NEXT = LAPS.index("relay"), LAPS.index("next")
EVEN, ODD = PARITIES.index("even"), PARITIES.index("odd")
SIDE_OPPONENT, SIDE_OWN, OPPONENT_FIRST, OWN_FIRST = (SIDES.index(name) for name in SIDES[1:])
OUTWARD, INWARD, BY_PARITY, OPPOSED = (DIRECTIONS.index(name) for name in DIRECTIONS[2:])
CHOOSE_MIDDLE, CHOOSE_ALL = 1, 2
COUNT_IS, COUNT_AT_LEAST, OWN_SIDE, OPPONENT_SIDE = range(1, 5)
FORWARD, CHAIN_CW, CHAIN_CCW = 1, 2, 3
ON_CAPTURE, ALWAYS = TAKE_OWN.index("on_capture"), TAKE_OWN.index("always")
SLAM_ILLEGAL, SLAM_NO_CAPTURE, LEAVE_LEFT = (GRAND_SLAMS.index(name) for name in GRAND_SLAMS[1:4])
CLEARED_OWN, CLEARED_OPPONENT = CLEARED.index("own"), CLEARED.index("opponent")
OWNER_ALL, SOWER_OWN, SOWER_OPPONENT = (PASSING.index(name) for name in ("owner_all", "sower_own", "sower_opponent"))
OPPONENT_OR_EMPTY, SINGLE_TO_EMPTY = MOVE_RULES.index("opponent_or_empty"), MOVE_RULES.index("single_to_empty")
TO_OWNER, TO_MOVER, DIVIDED, TO_NOBODY = range(4)
# What a sowing ended in (sow_and_capture's result): bits
REPEAT, CAPTURED, ENDLESS = 1, 2, 4


# -- the ring ---------------------------------------------------------------------------------
@kernel(inline="always")
def side_of(cell, holes):
    """0 or 1 for a hole, -1 for a store."""
    if cell < holes:
        return 0
    if holes < cell <= 2 * holes:
        return 1
    return -1


@kernel(inline="always")
def step(cell, holes, backward, own_store):
    """The cell after ``cell`` along the ring (before it, ``backward``), passing over the stores
    but ``own_store`` (-1: none)."""
    cells = 2 * holes + 2
    while True:
        cell = cell - 1 if backward else cell + 1
        if cell == cells:
            cell = 0
        elif cell < 0:
            cell = cells - 1
        if (cell != holes and cell != cells - 1) or cell == own_store:
            return cell


@kernel(inline="always")
def row_seeds(state, holes, player):
    total = 0
    first = player * (holes + 1)
    for cell in range(first, first + holes):
        total += state[cell]
    return total


@kernel(inline="always")
def count_qualifies(count, spec):
    """Whether a hole of ``count`` seeds is taken by the capture counts."""
    low = spec[CAPTURE_MIN]
    high = spec[CAPTURE_MAX]
    parity = spec[CAPTURE_PARITY]
    if count < max(low, 1) or (high > 0 and count > high):
        return False
    return not ((parity == EVEN and count % 2 == 1) or (parity == ODD and count % 2 == 0))


@kernel(inline="always")
def side_allowed(cell, holes, mover, side_rule):
    """Whether ``cell`` is on a side captures come from (for the ``*_first`` rules: the side the
    first hole taken must be on)."""
    side = side_of(cell, holes)
    if side_rule == SIDE_OPPONENT or side_rule == OPPONENT_FIRST:
        return side == 1 - mover
    if side_rule == SIDE_OWN or side_rule == OWN_FIRST:
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
    return not by_count or count_qualifies(state[cell], spec)


@kernel
def take_last(state, spec, mover):
    """When a few seeds are left (``take_last`` or fewer, counted where captures come from), a
    player takes every seed on the board."""
    holes = spec[SPEC_PITS]
    left = 0
    for cell in range(2 * holes + 1):
        if side_of(cell, holes) >= 0 and (spec[CROSS_CAPTURE] or side_allowed(cell, holes, mover, spec[CAPTURE_SIDE])):
            left += state[cell]
    if 0 < left <= spec[TAKE_LAST]:
        taker = mover if spec[TAKE_LAST_BY] == 0 else 0
        store = taker * (holes + 1) + holes
        for cell in range(2 * holes + 1):
            if side_of(cell, holes) >= 0:
                state[store] += state[cell]
                state[cell] = 0


@kernel
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
    state[:2 * holes + 2] = before
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


# -- a move -----------------------------------------------------------------------------------
@kernel
def capture(state, spec, last, lap_seeds, opponent_had_seeds, backward):
    """Take what a lap ending in ``last`` (a hole, after a lap of ``lap_seeds`` sown ``backward``
    or not) captures, then the last few seeds (``take_last``); a grand slam is undone or cut back
    by ``grand_slam``. Returns CAPTURED, with REPEAT for ``capture_extra_turn``, or 0."""
    holes = spec[SPEC_PITS]
    cells = 2 * holes + 2
    mover = state[cells]
    own_store = mover * (holes + 1) + holes if spec[SOW_STORE] else -1
    by_count = spec[CAPTURE_MIN] > 0
    inhibited = state[cells + TURNS_PLAYED] < spec[NO_CAPTURE_TURNS]
    if spec[NO_SINGLE_CAPTURE] and lap_seeds == 1 or inhibited:
        return 0
    sides = spec[CAPTURE_SIDE]
    if sides >= OPPONENT_FIRST:  # the last hole decides for the whole chain, which may cross sides
        if not side_allowed(last, holes, mover, sides):
            return 0
        sides = 0
    slam_rule = spec[GRAND_SLAM]
    if slam_rule >= SLAM_NO_CAPTURE:
        saved = state[:cells].copy()
    store = mover * (holes + 1) + holes
    limit = spec[CAPTURES]
    chain_rule = spec[CHAIN]
    chain_backward = chain_rule == CHAIN_CW if chain_rule >= CHAIN_CW else backward == (chain_rule == FORWARD)
    taken = 0
    cell = first = last  # first: the first hole taken (the last one sown, or two out)
    if not by_count and not spec[CROSS_CAPTURE] and not spec[CAPTURE_GAP]:
        pass  # no capture at the last hole
    elif spec[CAPTURE_GAP]:  # across an empty hole: from the last hole, then from each hole taken
        while spec[LAPS_] != 0 or state[cell] > 1:  # without laps, the last seed must have joined others
            gap = step(cell, holes, chain_backward, own_store)
            beyond = step(gap, holes, chain_backward, own_store)
            if state[gap] != 0 or not can_take(state, beyond, holes, mover, spec, False, sides):
                break
            state[store] += state[beyond]
            state[beyond] = 0
            if taken == 0:
                first = beyond
            taken += 1
            if limit == 1 or taken == limit:
                break
            cell = beyond
    elif spec[CROSS_CAPTURE]:
        while True:
            empty_before = state[cell] == 1 if taken == 0 else (state[cell] == 0 or spec[CROSS_CHAIN] == 1)
            if side_of(cell, holes) < 0 or not empty_before:
                break
            across = 2 * holes - cell
            if not can_take(state, across, holes, mover, spec, by_count, sides):
                break
            state[store] += state[across]
            state[across] = 0
            taken += 1
            if taken == 1 and spec[TAKE_OWN_] == ON_CAPTURE:
                state[store] += state[cell]
                state[cell] = 0
            if limit == 1 or taken == limit:
                break
            cell = step(cell, holes, chain_backward, own_store)
        if spec[TAKE_OWN_] == ALWAYS and state[last] == 1 and \
                side_allowed(2 * holes - last, holes, mover, spec[CAPTURE_SIDE]):
            state[store] += 1
            state[last] = 0
    else:
        while can_take(state, cell, holes, mover, spec, True, sides):
            state[store] += state[cell]
            state[cell] = 0
            taken += 1
            if limit == 1 or taken == limit:
                break
            cell = step(cell, holes, chain_backward, own_store)
    if taken and spec[TAKE_ACROSS] and can_take(state, 2 * holes - first, holes, mover, spec, False, sides):
        state[store] += state[2 * holes - first]
        state[2 * holes - first] = 0
    if spec[TAKE_LAST]:
        take_last(state, spec, mover)
    if taken == 0:
        return 0
    if slam_rule >= SLAM_NO_CAPTURE and opponent_had_seeds and row_seeds(state, holes, 1 - mover) == 0:
        if slam_rule == SLAM_NO_CAPTURE:
            state[:cells] = saved
            return 0
        keep_grand_slam_hole(state, saved, holes, mover, slam_rule == LEAVE_LEFT)
    extra = spec[CAPTURE_EXTRA_TURN] and (not spec[EXTRA_TURN_ONCE] or state[cells + EXTRA_TURNS] == 0)
    return REPEAT | CAPTURED if extra else CAPTURED


@kernel
def sow_and_capture(state, spec, action):
    """Play ``action`` (a hole of the player to move; where the way is chosen, ``hole + holes``
    sows it clockwise) and take what it captures; returns REPEAT | CAPTURED | ENDLESS bits. The
    turn and the end are left to the caller."""
    holes = spec[SPEC_PITS]
    cells = 2 * holes + 2
    mover = state[cells]
    hole = action % holes
    origin = mover * (holes + 1) + hole
    backward = action >= holes if action_count(spec) > holes else sows_backward(spec, hole, state[origin])
    own_store = mover * (holes + 1) + holes if spec[SOW_STORE] else -1
    by_count = spec[CAPTURE_MIN] > 0
    inhibited = state[cells + TURNS_PLAYED] < spec[NO_CAPTURE_TURNS]
    passing = spec[PASSING_]
    # a lap stops where a capture by count is due, unless the captures are two out
    stop_for_count = by_count and not spec[CROSS_CAPTURE] and not spec[CAPTURE_GAP] and not inhibited
    # only a grand slam that takes nothing asks (a row's sum is a tenth of a move's time)
    opponent_had_seeds = spec[GRAND_SLAM] >= SLAM_NO_CAPTURE and row_seeds(state, holes, 1 - mover) > 0
    skip_origin = spec[SKIP_ORIGIN]
    lap_rule = spec[LAP_RULE]

    seeds = state[origin]
    if spec[LEAVE_ONE]:
        seeds -= 1
        state[origin] = 1
    else:
        state[origin] = 0
    last = origin
    laps = 0
    result = 0
    while True:
        lap_seeds = seeds
        cell = origin
        while seeds > 0:
            cell = step(cell, holes, backward, own_store)
            if cell == origin and skip_origin:
                cell = step(cell, holes, backward, own_store)
            state[cell] += 1
            if passing and not inhibited and (seeds > 1 or passing == OWNER_ALL):
                side = side_of(cell, holes)
                if (passing != SOWER_OWN or side == mover) and (passing != SOWER_OPPONENT or side == 1 - mover) \
                        and can_take(state, cell, holes, mover, spec, by_count, spec[CAPTURE_SIDE]):
                    taker = side if passing <= OWNER_ALL else mover
                    state[taker * (holes + 1) + holes] += state[cell]
                    state[cell] = 0
            seeds -= 1
        last = cell
        if last == own_store:
            return result | REPEAT
        go_on = False
        if own_store >= 0 and result & REPEAT:  # a lap's capture gave another turn: the sowing stops
            break
        if lap_rule and not lap_goes_on(state, spec, last, holes, mover, lap_rule):  # before a lap's capture
            break
        if spec[LAPS_] == RELAY and spec[LAP_CAPTURE]:  # capture where a lap ends, and sow on
            origin = last
            if spec[CROSS_CAPTURE]:  # a lone seed that captured goes on alone; one that did not stops
                if state[last] == 1:
                    taken = capture(state, spec, last, lap_seeds, opponent_had_seeds, backward)
                    result |= taken
                    go_on = (taken & CAPTURED) != 0
                else:
                    go_on = state[last] > 1
            elif spec[CAPTURE_GAP]:  # capture two out, then sow on from the last hole
                go_on = state[last] > 1
                if go_on:
                    result |= capture(state, spec, last, lap_seeds, opponent_had_seeds, backward)
            elif can_take(state, last, holes, mover, spec, True, spec[CAPTURE_SIDE]):  # capture, then sow on from the next hole
                result |= capture(state, spec, last, lap_seeds, opponent_had_seeds, backward)
                origin = step(last, holes, backward, own_store)
                go_on = True
            else:
                go_on = state[last] > 1
        elif spec[LAPS_] == RELAY:
            go_on = state[last] > 1 and not (stop_for_count and can_take(state, last, holes, mover, spec, True, spec[CAPTURE_SIDE]))
            origin = last
        elif spec[LAPS_] == NEXT:
            after = step(last, holes, backward, own_store)
            stop_for_cross = spec[CROSS_CAPTURE] and state[last] == 1 and \
                can_take(state, 2 * holes - last, holes, mover, spec, by_count, spec[CAPTURE_SIDE])
            go_on = state[after] > 0 and not stop_for_cross and \
                not (stop_for_count and can_take(state, last, holes, mover, spec, True, spec[CAPTURE_SIDE]))
            origin = after
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
def sows_backward(spec, hole, seeds):
    """Whether a move of ``hole`` (lifting ``seeds``) sows clockwise."""
    rule = spec[DIRECTION]
    if rule <= 1:
        return rule == 1
    if rule == BY_PARITY:
        return seeds % 2 == 0
    left_half = hole < spec[SPEC_PITS] // 2  # (an odd row's middle hole is always chosen)
    return left_half if rule == OUTWARD else not left_half


@kernel(inline="always")
def way_allowed(state, spec, mover, hole, backward):
    """Whether ``hole`` may be sown that way (clockwise: ``backward``), in a game where a move names
    its way."""
    holes = spec[SPEC_PITS]
    if spec[DIRECTION] == OPPOSED:
        first = state[2 * holes + 2 + FIRST_WAY]
        return first == 0 or backward == ((first == 2) == (mover == 0))
    choose = spec[CHOOSE_DIRECTION]
    if choose == CHOOSE_ALL or (choose == CHOOSE_MIDDLE and hole == holes // 2):
        return True
    return backward == sows_backward(spec, hole, state[mover * (holes + 1) + hole])


@kernel(inline="always")
def lap_goes_on(state, spec, last, holes, mover, lap_rule):
    """Whether ``lap_rule`` lets a further lap start at the last hole sown."""
    if lap_rule == COUNT_IS:
        return state[last] == spec[LAP_COUNT]
    if lap_rule == COUNT_AT_LEAST:
        return state[last] >= spec[LAP_COUNT]
    return side_of(last, holes) == (mover if lap_rule == OWN_SIDE else 1 - mover)


@kernel(inline="always")
def may_move(state, spec, mover, hole, backward):
    """Whether ``hole`` holds enough seeds and passes the move rule, sown clockwise (``backward``)
    or not (not yet must-share or an illegal grand slam)."""
    holes = spec[SPEC_PITS]
    origin = mover * (holes + 1) + hole
    seeds = state[origin]
    if seeds < spec[MIN_SEEDS]:
        return False
    rule = spec[MOVE_RULE]
    own_store = mover * (holes + 1) + holes if spec[SOW_STORE] else -1
    if rule == SINGLE_TO_EMPTY:  # a lone seed moves only into an empty hole (and never into the store)
        following = step(origin, holes, backward, own_store)
        return side_of(following, holes) >= 0 and not (seeds == 1 and state[following] > 0)
    if rule == OPPONENT_OR_EMPTY and seeds <= holes:  # the first lap must end across, or in an empty hole
        cell = origin
        left = seeds - 1 if spec[LEAVE_ONE] else seeds
        while left > 0:
            cell = step(cell, holes, backward, own_store)
            if cell == origin and spec[SKIP_ORIGIN]:
                cell = step(cell, holes, backward, own_store)
            left -= 1
        return not (side_of(cell, holes) == mover and state[cell] > 0)
    return True


@kernel
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
    elif spec[MOVE_RULE] == 0:  # the common case, without may_move's call per hole (a third of a move's time)
        least = spec[MIN_SEEDS]
        for h in range(holes):
            out[h] = state[first + h] >= least and h != blocked
            count += out[h]
    else:
        for h in range(holes):
            out[h] = h != blocked and may_move(state, spec, mover, h, sows_backward(spec, h, state[first + h]))
            count += out[h]
    return count


@kernel(inline="always")
def crossing_cell(state, spec, action):
    """Where a lone seed sown outward from an end hole crosses into the other row (its owner
    may not play it straight back: MancalaGames' rule for outward sowing), or -1."""
    holes = spec[SPEC_PITS]
    if spec[DIRECTION] != OUTWARD or spec[MIN_SEEDS] != 1 or spec[LEAVE_ONE] or spec[CHOOSE_DIRECTION] == CHOOSE_ALL:
        return -1
    mover = state[2 * holes + 2]
    hole = action % holes
    origin = mover * (holes + 1) + hole
    clockwise = action >= holes if action_count(spec) > holes else sows_backward(spec, hole, 1)
    if state[origin] != 1 or not ((hole == 0 and clockwise) or (hole == holes - 1 and not clockwise)):
        return -1
    target = step(origin, holes, clockwise, mover * (holes + 1) + holes if spec[SOW_STORE] else -1)
    return target if side_of(target, holes) == 1 - mover else -1


@kernel
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
    if count == 0 or not (spec[MUST_SHARE] or spec[GRAND_SLAM] == SLAM_ILLEGAL):
        return count
    opponent_seeds = row_seeds(state, holes, 1 - mover)
    share = spec[MUST_SHARE] and opponent_seeds == 0
    no_slam = spec[GRAND_SLAM] == SLAM_ILLEGAL and opponent_seeds > 0
    if not share and not no_slam:
        return count
    kept = 0
    trial = np.empty(state.shape[0], dtype=state.dtype)  # not empty_like: the narration replays on an array subclass
    for action in range(action_count(spec)):
        if out[action]:
            trial[:] = state
            sow_and_capture(trial, spec, action)
            out[action] = row_seeds(trial, holes, 1 - mover) > 0
            kept += out[action]
    if kept == 0 and share and spec[MUST_PASS]:  # nothing shares: any move will do
        return movable(state, spec, mover, out)
    return kept


@kernel(inline="always")
def has_move(state, spec, player):
    holes = spec[SPEC_PITS]
    cells = 2 * holes + 2
    if spec[MOVE_RULE] == 0 and not spec[MUST_SHARE] and spec[GRAND_SLAM] != SLAM_ILLEGAL and \
            state[cells + NO_RETURN] == 0:
        for cell in range(player * (holes + 1), player * (holes + 1) + holes):  # no move to try on a copy
            if state[cell] >= spec[MIN_SEEDS]:
                return True
        return False
    scratch = np.empty(action_count(spec), dtype=np.bool_)
    saved = state[cells]
    state[cells] = player
    count = legal_holes(state, spec, scratch)
    state[cells] = saved
    return count > 0


@kernel
def claim_leftover(state, holes, mover, rule):
    """The end: the seeds still on the board go by ``rule`` (LEFTOVERS; TO_MOVER: to ``mover``)."""
    if rule == TO_OWNER:
        sweep_to_stores(state, holes)
        return
    cells = 2 * holes + 2
    stores = (holes, 2 * holes + 1)
    left = 0
    for player in range(2):
        first = player * (holes + 1)
        for cell in range(first, first + holes):
            left += state[cell]
            state[cell] = 0
    if rule == TO_MOVER:
        state[stores[mover]] += left
    elif rule == DIVIDED:
        half = left // 2
        state[stores[0]] += half
        state[stores[1]] += half
        if left % 2:
            state[stores[0] if state[stores[1]] > state[stores[0]] else stores[1]] += 1
    elif rule == TO_NOBODY:
        state[cells + OUT_OF_PLAY] += left


@kernel
def apply_move(state, action, spec):
    holes = spec[SPEC_PITS]
    cells = 2 * holes + 2
    mover = state[cells]
    state[cells + MOVES_PLAYED] += 1
    if spec[DIRECTION] == OPPOSED and state[cells + FIRST_WAY] == 0:  # the way chosen is the mover's for the game
        clockwise = action >= holes
        state[cells + FIRST_WAY] = 1 + (clockwise if mover == 0 else not clockwise)
    crossed = crossing_cell(state, spec, action)
    result = sow_and_capture(state, spec, action)
    state[cells + NO_RETURN] = crossed + 1 if crossed >= 0 and state[crossed] == 1 else 0
    if result & ENDLESS:
        claim_leftover(state, holes, mover, spec[ENDLESS_LEFTOVER])
        state[cells] = GAME_OVER
        return
    repeat = (result & REPEAT) != 0
    following = mover if repeat else 1 - mover
    state[cells + TURNS_PLAYED] += not repeat  # before the end's trial moves: no_capture_turns counts it
    state[cells + EXTRA_TURNS] = state[cells + EXTRA_TURNS] + 1 if repeat else 0
    on_board = 0
    playable = True
    # The board's count, where a rule asks for it (else an empty board is found by has_move below:
    # the per-move loop was a tenth of a move's time)
    if spec[END_SEEDS_LEFT] >= 0 or spec[END_BELOW] > 0 or spec[MIN_SEEDS] > 1 or spec[UNFED_TAKES]:
        playable = False
        for player in range(2):
            first = player * (holes + 1)
            for cell in range(first, first + holes):
                on_board += state[cell]
                playable = playable or state[cell] >= spec[MIN_SEEDS]

    ended = 0 <= spec[END_SEEDS_LEFT] and on_board <= spec[END_SEEDS_LEFT]
    cleared = spec[END_CLEARED]
    if cleared == CLEARED_OWN:
        ended = ended or row_seeds(state, holes, mover) == 0
    elif cleared == CLEARED_OPPONENT:
        ended = ended or row_seeds(state, holes, 1 - mover) == 0
    if not ended:
        total = 2 * holes * spec[SPEC_SEEDS]  # MancalaGames counts from the rules, not the board
        win = total - spec[WIN_SHORT] if spec[WIN_SHORT] else (total + 1) // 2
        s0, s1 = state[holes], state[cells - 1]
        if s0 > win or s1 > win or (s0 == win and s1 == win):
            state[cells] = GAME_OVER  # won outright: the board stays as it is
            return
        unfed = -1
        if spec[UNFED_TAKES] and spec[MUST_SHARE] and not spec[MUST_PASS] and playable:  # MancalaGames' must-share end, before the general one
            mover_can, other_can = False, False
            for h in range(holes):
                mover_can = mover_can or state[mover * (holes + 1) + h] >= spec[MIN_SEEDS]
                other_can = other_can or state[(1 - mover) * (holes + 1) + h] >= spec[MIN_SEEDS]
            if repeat and mover_can and not other_can and not has_move(state, spec, mover):
                unfed = 1 - mover
            elif not repeat and not mover_can and other_can and not has_move(state, spec, 1 - mover):
                unfed = mover
        if unfed >= 0:
            ended = True
            claim_leftover(state, holes, unfed, TO_MOVER)  # all to the unfed player
        elif not playable:
            ended = True
        elif spec[MUST_PASS]:
            ended = not has_move(state, spec, mover) and not has_move(state, spec, 1 - mover)
        else:
            ended = not has_move(state, spec, following)
        if not ended and (0 < on_board < spec[END_BELOW] or state[cells + MOVES_PLAYED] >= MOVE_LIMIT):
            ended = True
        if not ended:
            if spec[MUST_PASS] and not has_move(state, spec, following):
                following = 1 - following
                state[cells + TURNS_PLAYED] += 1  # a pass is a turn
            state[cells] = following
            return
    claim_leftover(state, holes, mover, spec[LEFTOVER])
    state[cells] = GAME_OVER


class Family(Game):
    name = "family"
    parameters = PARAMETERS
    apply_kernel = staticmethod(apply_move)
    legal_kernel = staticmethod(legal_holes)
    # seeds out of play (taken by nobody, or dropped by an endless sowing), moves played, turns
    # played, extra turns in a row, the way player_0 sows in an "opposed" game, the hole a lone seed
    # may not be played back from
    extra_slots = 6
    captures_opposite = False
    sweeps_at_end = False
    # Wari (the defaults); Kalah; Dakon (relay sowing into the store, passes, a game of rounds);
    # Alemungula (outward sowing, the middle hole's way chosen: ten actions)
    examples = ({},
                {"sow_store": True, "capture_min": 0, "cross_capture": True, "take_own": "on_capture", "captures": 1,
                 "must_share": False},
                {"holes": 7, "seeds": 7, "sow_store": True, "laps": "relay", "capture_min": 0, "cross_capture": True,
                 "take_own": "on_capture", "captures": 1, "must_share": False, "must_pass": True},
                {"holes": 5, "seeds": 5, "direction": "outward", "choose_direction": "middle", "skip_origin": False,
                 "capture_max": 4, "capture_parity": "even", "must_share": False})

    def __init__(self, *args, **values):
        super().__init__(*args, **values)
        params = self.params
        choose = params["choose_direction"]
        if params["direction"] in ("outward", "inward") and params["holes"] % 2 and choose == "none":
            raise BadInput(f"direction={params['direction']!r} with an odd number of holes ({params['holes']}) needs "
                           "choose_direction='middle' or 'all': the middle hole has no way of its own")
        if choose == "middle" and not params["holes"] % 2:
            raise BadInput(f"choose_direction='middle' needs an odd number of holes, got {params['holes']}")
        if params["direction"] == "opposed" and choose != "none":
            raise BadInput(f"choose_direction={choose!r} with direction='opposed': the first move already chooses")
        if params["lap_rule"] != "any" and params["laps"] == "single":
            raise BadInput(f"lap_rule={params['lap_rule']!r} needs laps: with laps='single' it does nothing")
        if params["lap_count"] and not params["lap_rule"].startswith("count"):
            raise BadInput(f"lap_count={params['lap_count']} does nothing with lap_rule={params['lap_rule']!r}")
        if self.params["passing"] != "none" and self.params["sow_store"]:
            raise BadInput("passing captures with sow_store=True are not played: a store is not a hole to take")
        if not self.legal_mask_fast(self.init()).any():
            raise BadInput(f"no first move: with seeds={self.seeds}, min_seeds={self.params['min_seeds']} and "
                           f"move_rule={self.params['move_rule']!r} no hole may be played at the start")

    def count_actions(self):
        """Twice the holes where a move names its way (hole h counter-clockwise, h + holes
        clockwise), else the holes."""
        chosen = self.params["choose_direction"] != "none" or self.params["direction"] == "opposed"
        return 2 * self.pits if chosen else self.pits

    def out_of_play(self, state):
        return int(state[self.board_size + OUT_OF_PLAY])

    def state_bounds(self):
        low, high = super().state_bounds()
        low[self.board_size + OUT_OF_PLAY:] = 0
        high[self.board_size + MOVES_PLAYED:] = MOVE_LIMIT
        high[self.board_size + TURNS_PLAYED] = 2 * MOVE_LIMIT  # a move and a pass are two turns
        high[self.board_size + FIRST_WAY] = 2 if self.params["direction"] == "opposed" else 0
        high[self.board_size + NO_RETURN] = self.board_size
        return low, high

    def illegal_reason(self, state, action):
        reason = super().illegal_reason(state, action)
        if not reason.endswith("is not a legal move here"):
            return reason
        player = self.to_move(state)
        hole, clockwise = action % self.pits, action >= self.pits
        seeds = state[player * (self.pits + 1) + hole]
        named = f"hole {hole}" if self.actions == self.pits else \
            f"hole {hole} sown {'clockwise' if clockwise else 'counter-clockwise'} (action {action})"
        if seeds < self.params["min_seeds"]:
            return f"player_{player}'s {named} holds {seeds} seeds, fewer than the {self.params['min_seeds']} a move needs"
        if self.actions > self.pits and not way_allowed(state, self.spec, player, hole, clockwise):
            return f"player_{player}'s {named}: the rules sow it the other way here"
        if state[self.board_size + NO_RETURN] - 1 == player * (self.pits + 1) + hole:
            return f"player_{player}'s {named} holds a lone seed just sown across the end of the rows: it may not go " \
                   "straight back"
        if self.actions == self.pits:
            clockwise = sows_backward(self.spec, hole, seeds)
        if not may_move(state, self.spec, player, hole, clockwise):
            return f"player_{player}'s {named} is not allowed by move_rule={self.params['move_rule']!r}"
        return f"player_{player}'s {named} would leave the opponent's row empty (must_share, or an illegal grand slam)"

    @classmethod
    def _takes(cls, params) -> bool:
        try:
            cls(**params)
        except BadInput:  # the pairs refused above, or no first move
            return False
        return True

    @classmethod
    def param_strategy(cls, st):
        return st.fixed_dictionaries({
            "holes": st.integers(2, 8), "seeds": st.integers(1, 5),
            "direction": st.sampled_from(DIRECTIONS), "choose_direction": st.sampled_from(CHOICES), "sow_store": st.booleans(), "laps": st.sampled_from(LAPS), "lap_capture": st.booleans(),
            "skip_origin": st.booleans(), "leave_one": st.booleans(), "min_seeds": st.just(1),
            "capture_min": st.integers(0, 4), "capture_max": st.integers(0, 4),
            "capture_parity": st.sampled_from(PARITIES), "capture_side": st.sampled_from(SIDES),
            "move_rule": st.sampled_from(MOVE_RULES), "capture_gap": st.booleans(), "passing": st.sampled_from(PASSING),
            "no_capture_turns": st.integers(0, 2), "take_last": st.integers(0, 4),
            "take_last_by": st.sampled_from(TAKERS), "unfed_takes": st.booleans(),
            "cross_capture": st.booleans(), "cross_chain": st.sampled_from(("empty", "any")), "take_own": st.sampled_from(TAKE_OWN), "captures": st.integers(0, 2),
            "chain": st.sampled_from(CHAINS), "no_single_capture": st.booleans(),
            "grand_slam": st.sampled_from(GRAND_SLAMS), "capture_extra_turn": st.booleans(),
            "take_across": st.booleans(), "extra_turn_once": st.booleans(),
            "must_share": st.booleans(), "must_pass": st.booleans(), "end_seeds_left": st.integers(-1, 3),
            "end_cleared": st.sampled_from(CLEARED), "win_short": st.integers(0, 4),
            "end_below": st.integers(0, 4), "leftover": st.sampled_from(LEFTOVERS),
            "endless_leftover": st.sampled_from(LEFTOVERS), "lap_rule": st.sampled_from(LAP_RULES),
            "lap_count": st.integers(0, 4)}).map(cls._lap_rule_used).filter(cls._takes)

    @staticmethod
    def _lap_rule_used(params):
        """A drawn set made one the rules take: a lap rule kept only where it does something, the
        choice of direction where the row and the direction allow it."""
        odd = params["holes"] % 2 == 1
        if params["direction"] == "opposed" or (params["choose_direction"] == "middle" and not odd):
            params["choose_direction"] = "none"
        if params["direction"] in ("outward", "inward") and odd and params["choose_direction"] == "none":
            params["choose_direction"] = "middle"
        if params["laps"] == "single":
            params["lap_rule"] = "any"
        if not params["lap_rule"].startswith("count"):
            params["lap_count"] = 0
        return params
