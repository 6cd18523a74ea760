"""The two-row family's rules space (:mod:`mancala_marl.games.family` says what each rule does):
the values of each choice (one enum per choice, ``Lap``, ``CaptureKind``...), its parameters and
where a kernel finds each in ``spec`` (:data:`Spec`), the state's slots after the turn, and the
ring of holes and stores every kernel walks.

A kernel reads ``spec[Spec.LAPS] == Lap.RELAY``; ``Param("laps", ..., choices=Lap)`` takes the
names ("relay") from the same enum, so a choice is declared in one place. A new choice is a new
member at the end of its enum (the codes are the positions)."""

from __future__ import annotations

from enum import IntEnum

from .._compile import kernel
from .base import MAX_MOVES, SPEC_PITS, pits_param, seeds_param, spec_slots
from .history import HASHES, HISTORY
from .params import Param

MAX_LAPS = 75  # MancalaGames' bound on a relay sowing, after which it calls the sowing endless
# One bound of ours: MancalaGames has no repetition rule, so two players can circle for ever
# (a lone seed handed back and forth under must_share). After MOVE_LIMIT moves the game ends as
# when no move is left. It is the environments' truncation, so that every search, rollout and
# match over the family ends.
MOVE_LIMIT = MAX_MOVES
# the slots after TO_MOVE; FIRST_WAY: 0 before the first move of an "opposed" game, then 1 + the
# way player_0 sows (0: ccw, 1: cw); NO_RETURN: 1 + the cell a lone seed just crossed into at the
# end of the rows ("outward"), which may not be played straight back (0: none); WINNER: in a game of
# another goal than most_seeds, which no store count decides, 1 + the winner once it is over (0: a draw)
OUT_OF_PLAY, MOVES_PLAYED, TURNS_PLAYED, EXTRA_TURNS, FIRST_WAY, NO_RETURN, WINNER = 1, 2, 3, 4, 5, 6, 7
# MARKS: in a game of children only (``children`` not "none"), one slot per cell of the board
# after WINNER: state[TO_MOVE + MARKS + cell] is 0 for a hole of nobody's, 1 + p for player p's
# child, CLOSED for a hole closed for the round (closed_holes) or for good (close_at; the row it
# is in says who closed it: the other player); a store's slot stays 0
MARKS = 8
CLOSED = 3
PLAYED = 4  # every_hole_first, locked_holes: a hole its owner has played (no other kind of mark meets it)
# a match's slots (rounds="match"), after the marks and the history: the round being played (1 for
# the first), who started it, and the last round's result: 1 + its winner (0 before any round has
# ended, 3 for a drawn round) and the seeds each player held at its end (store and own row)
# and, in a match won by a tally (match_end other than "unfilled"), each player's tally (TALLY, 2 slots)
ROUND, ROUND_STARTER, LAST_WINNER, LAST_SEEDS, TALLY = 0, 1, 2, 3, 5
MATCH_SLOTS = 7
DRAWN_ROUND = 3


# The values of each choice, in order: a kernel reads a choice as its code (``Lap.RELAY``), a
# parameter takes it by name ("relay"), and Param(choices=Lap) reads the names from here.
class Start(IntEnum):
    EQUAL, TWO_EMPTY, TRIPLES, PLUS_ONE, ALTERNATE_ONE, ALTERNATE_SPLIT, GAMACHA, RIGHTMOST_FIRST, RANDOM = range(9)


class Direction(IntEnum):
    CCW, CW, OUTWARD, INWARD, BY_PARITY, OPPOSED = range(6)


class ChooseDirection(IntEnum):
    NONE, MIDDLE, ALL, ENDS_AND_MIDDLE = range(4)


class OpponentStore(IntEnum):
    PASSED, SOWN, SOWN_NO_TURN = range(3)


class Lap(IntEnum):
    SINGLE, RELAY, NEXT = range(3)


class LapRule(IntEnum):
    ANY, COUNT_IS, COUNT_AT_LEAST, OWN_SIDE, OPPONENT_SIDE = range(5)


class MoveRule(IntEnum):
    ANY, OPPONENT_OR_EMPTY, SINGLE_TO_EMPTY, NOT_ACROSS_ONES, SINGLES_LAST, TO_OCCUPIED, EVERY_HOLE_FIRST = range(7)


class PreCapture(IntEnum):
    NONE, ONE_SEED, ACROSS_ONES, ACROSS_LONE = range(4)


class Parity(IntEnum):
    ANY, EVEN, ODD = range(3)


class Side(IntEnum):
    BOTH, OPPONENT, OWN, OPPONENT_FIRST, OWN_FIRST = range(5)


class CrossChain(IntEnum):
    EMPTY, ANY = range(2)


class TakeOwn(IntEnum):
    LEAVE, ON_CAPTURE, ALWAYS = range(3)


class CaptureKind(IntEnum):
    STANDARD, SINGLES, PULL_ACROSS, STORE_TO_OPPONENT, OPPONENT_STORE, OPPONENT_COUNTS, NEXT = range(7)


class Passing(IntEnum):
    NONE, OWNER, OWNER_ALL, SOWER, SOWER_OWN, SOWER_OPPONENT = range(6)


class Chain(IntEnum):
    BACKWARD, FORWARD, CW, CCW = range(4)


class GrandSlam(IntEnum):
    LEGAL, ILLEGAL, NO_CAPTURE, LEAVE_LEFT, LEAVE_RIGHT, EXTRA_TURN, OPPONENT_GETS_ROW = range(7)


class Taker(IntEnum):
    MOVER, FIRST = range(2)


class Goal(IntEnum):
    MOST_SEEDS, DEPRIVE, CLEAR, IMMOBILIZE = range(4)


class Cleared(IntEnum):
    NO, OWN, OPPONENT, EITHER = range(4)


class Leftover(IntEnum):
    OWNER, MOVER, DIVIDED, NOBODY = range(4)


class Children(IntEnum):
    NONE, NORMAL, ONE, WEG, BULL, QUR = range(6)


class ChildSide(IntEnum):
    ANY, OPPONENT, OWN = range(3)


class Rounds(IntEnum):
    ONE, MATCH = range(2)


class RoundFill(IntEnum):
    OUTSIDE, LEFT, RIGHT = range(3)


class RoundStarter(IntEnum):
    ALTERNATE, LOSER, WINNER, LAST_MOVER = range(4)


class MatchEnd(IntEnum):
    UNFILLED, ROUND_WINS, POINTS = range(3)


class ChildHoles(IntEnum):
    """Where a player may make a child: family_children.HOLE_PATTERNS says each."""
    (ANYWHERE, ENDS, NO_ENDS, INNER_OWN, ENDS_NEXT_OPPONENT, NO_OWN_RIGHT, NO_OPPONENT_RIGHT, NO_OPPONENT_LEFT,
     NOT_SYMMETRIC, NOT_FACING, ENDS_INNER_OPPONENT, FIXED_RIGHT) = range(12)


class ChildSowing(IntEnum):
    INTO, SKIP_OPPONENT, SKIP_OPPONENT_BUT_LAST = range(3)

# the parameters that only say how a most_seeds game ends and scores: another goal leaves them at their defaults
MOST_SEEDS_ONLY = ("end_seeds_left", "end_cleared", "early_win", "win_short", "end_below", "leftover", "unfed_takes",
                   "endless_leftover", "win_sweep", "repetition_ends")
MAX_COUNT = 1 << 20

PARAMETERS = (
    pits_param("holes", 6, "holes a side", low=2),
    seeds_param("seeds", 4, "seeds in each hole at the start (in its full holes, for a pattern with empty "
                            "ones; on average, for a random start)"),
    Param("start", str, "equal", "how the board is filled at the start: every hole alike, or a traditional "
                                 "pattern (family_start says each), or at random from the environment's seed",
          choices=Start),
    Param("direction", str, "ccw", "the way seeds are sown round the ring: one way, outward or inward from the "
                                   "middle of the row, by the count in the hole (odd: ccw), or opposed (the first "
                                   "mover chooses a way for the game, the other player sows the other)",
          choices=Direction),
    Param("choose_direction", str, "none", "the holes whose mover chooses the way to sow: none, the middle one of "
                                           "an odd row, all, or the two ends and the middle of an odd row",
          choices=ChooseDirection),
    Param("sow_store", bool, False, "the mover's own store is sown into; a last seed there gives another turn"),
    Param("opponent_store", str, "passed", "with sow_store, the opponent's store is passed over, or sown too: a "
                                           "last seed there gives another turn (sown) or not (sown_no_turn)",
          choices=OpponentStore),
    Param("laps", str, "single", "one lap, relay laps from the last hole, or laps from the next hole",
          choices=Lap),
    Param("lap_rule", str, "any", "a further lap is sown only when the last hole holds lap_count seeds (or at "
                                  "least that), or is on the mover's or the opponent's side", choices=LapRule),
    Param("lap_count", int, 0, "the count lap_rule asks for", low=0, high=MAX_COUNT),
    Param("lap_capture", bool, False, "relay laps capture where each lap ends and sow on: a cross capture with "
                                      "the lone seed, a capture by count from the next hole"),
    Param("last_seeds_to_opponent", int, 0, "a lap that starts with at most this many seeds on the board (0: "
                                            "none) gives the seeds it sows in the opponent's holes to the "
                                            "opponent's store, but a last seed that captures", low=0,
          high=MAX_COUNT),
    Param("skip_origin", bool, True, "a lap passes over the hole it started from"),
    Param("sow_max", int, 0, "holes holding this many seeds or more are passed over by the sowing (0: none)",
          low=0, high=MAX_COUNT),
    Param("leave_one", bool, False, "a move lifts all its hole's seeds but one"),
    Param("move_one", bool, False, "with leave_one: a hole of one seed is lifted whole, its seed sown on"),
    Param("min_seeds", int, 1, "seeds a hole needs to be played", low=1, high=MAX_COUNT),
    Param("move_rule", str, "any", "which holes may be played beyond min_seeds (every_hole_first: each of the "
                                   "row's holes once before any again)", choices=MoveRule),
    Param("pre_capture", str, "none", "a capture before the sowing: one seed of each lap's to the mover's store, "
                                      "the holes across from the mover's holes of one seed, or the hole across "
                                      "from a hole whose lone seed is lifted", choices=PreCapture),
    Param("capture_min", int, 2, "fewest seeds a hole holds after the last seed to be taken (0: no capture by "
                                 "count)", low=0, high=MAX_COUNT),
    Param("capture_max", int, 3, "most seeds a hole may hold to be taken (0: no bound)", low=0, high=MAX_COUNT),
    Param("capture_parity", str, "any", "the counts that are taken: any, even or odd", choices=Parity),
    Param("capture_side", str, "opponent", "the row captures are taken from", choices=Side),
    Param("cross_capture", bool, False, "a last seed in an empty hole takes the hole across the board"),
    Param("cross_chain", str, "empty", "the holes of a cross capture's chain after the first: empty ones, or any",
          choices=CrossChain),
    Param("take_own", str, "leave", "a cross capture also takes the sowing seed", choices=TakeOwn),
    Param("capture_kind", str, "standard", "what a sowing's end takes: as the capture rules say; every hole "
                                           "of one seed (singles); the seeds across, drawn into a last hole that "
                                           "was empty (pull_across); or, where the last hole was empty, the "
                                           "mover's store, handed to the opponent (store_to_opponent); or, "
                                           "where the last seed falls in the opponent's store (opponent_store "
                                           "sown), that store, else as the capture rules say (opponent_store); "
                                           "where the last seed falls in the opponent's row or the mover's own "
                                           "last hole, every hole of the opponent's of a count taken "
                                           "(opponent_counts); the hole after the last one along the chain's "
                                           "way, and on (next)",
          choices=CaptureKind),
    Param("capture_gap", bool, False, "the last hole followed by an empty one takes the hole beyond it"),
    Param("passing", str, "none", "holes sown on the way that qualify by count are taken: by their owner (the "
                                  "last one by the mover, or it too: owner_all), or by the mover (from any row, "
                                  "the own or the opponent's)", choices=Passing),
    Param("captures", int, 0, "holes taken in a row at most (0: as many as qualify)", low=0, high=MAX_COUNT),
    Param("chain", str, "backward", "the way a chain of captures runs from the last hole: back along the "
                                    "sowing, forward, or one way round the ring whatever way the move sowed",
          choices=Chain),
    Param("no_single_capture", bool, False, "a lap of a single seed captures nothing"),
    Param("grand_slam", str, "legal", "a move taking every seed of the opponent's row", choices=GrandSlam),
    Param("take_final", bool, False, "a capture also takes the seeds of the last hole sown, where captures come "
                                     "from"),
    Param("take_across", bool, False, "a capture also takes the hole across from the first hole taken"),
    Param("capture_extra_turn", bool, False, "a move that captures gives another turn"),
    Param("extra_turn_once", bool, False, "with capture_extra_turn: not after another extra turn"),
    Param("no_capture_turns", int, 0, "turns at the start in which nothing is captured", low=0, high=MAX_COUNT),
    Param("take_last", int, 0, "after a move, when at most this many seeds are left where captures come from, "
                               "they are all taken (0: never)", low=0, high=MAX_COUNT),
    Param("take_last_by", str, "mover", "who takes them: the mover, or the first player", choices=Taker),
    Param("must_share", bool, True, "a move must leave seeds to an opponent who has none"),
    Param("must_pass", bool, False, "a player without a legal move passes (else the game ends)"),
    Param("goal", str, "most_seeds", "what wins: the most seeds in store; leaving the opponent no seeds or no "
                                     "move (deprive); emptying one's own row (clear); leaving the opponent no "
                                     "move (immobilize)", choices=Goal),
    Param("end_seeds_left", int, -1, "the game ends when at most this many seeds are on the board (-1: never)",
          low=-1, high=MAX_COUNT),
    Param("end_cleared", str, "no", "the game ends when this row (or either) is empty after a move",
          choices=Cleared),
    Param("early_win", bool, True, "a store holding more than the winning count ends the game at once (Kalah "
                                   "plays on to the end)"),
    Param("win_short", int, 0, "a store with more than all the seeds less this wins at once (0: more than "
                               "half)", low=0, high=MAX_COUNT),
    Param("end_below", int, 0, "the game ends when fewer seeds than this are on the board (0: never)",
          low=0, high=MAX_COUNT),
    Param("leftover", str, "owner", "who gets the seeds left on the board at the end", choices=Leftover),
    Param("unfed_takes", bool, False, "with must_share (and not must_pass): when the game ends because a player "
                                      "cannot feed an opponent without seeds, the unfed player takes the seeds left"),
    Param("endless_leftover", str, "divided", "who gets them when a relay sowing is endless",
          choices=Leftover),
    Param("children", str, "none", "holes a player comes to own (family_children says each kind): none; "
                                   "normal (a last seed making child_count seeds); one (the same, one a "
                                   "player); weg (normal, and a last seed in the opponent's takes two); bull "
                                   "(normal, or the last two holes at child_count - 1 and child_count); qur "
                                   "(a last seed in an empty hole across child_count seeds: both holes)",
          choices=Children),
    Param("child_count", int, 0, "the seeds that make a child", low=0, high=MAX_COUNT),
    Param("child_side", str, "any", "the row a child may be made in, as the mover sees it",
          choices=ChildSide),
    Param("child_holes", str, "anywhere", "which holes of each row may become whose children (family_children "
                                          "says each pattern); fixed_right: each player's rightmost hole is "
                                          "its child from the start and no other is made", choices=ChildHoles),
    Param("child_sowing", str, "into", "how sowing treats the opponent's children: sows into them, passes over "
                                       "them, or passes over them but for the last seed", choices=ChildSowing),
    Param("child_stores", bool, False, "the stores are not played: captures go into the capturer's first child "
                                       "(none before it has one), and the seeds claimed at the end into each "
                                       "player's first child"),
    # the package's own Togyz Kumalak and Oware (not MancalaGames' files) as points of the space
    Param("children_bank", bool, False, "seeds in a child go to its owner's store after each move, as Togyz "
                                        "Kumalak's tuzduk sends them to the kazan (MancalaGames keeps them in the "
                                        "child)"),
    Param("slam_from_empty", bool, False, "a move that sows into the opponent's empty row and takes it all is a "
                                          "grand slam too, as in OpenSpiel's Oware (MancalaGames: only a row that "
                                          "held seeds)"),
    Param("slam_avoided", bool, False, "with grand_slam='no_capture': a grand slam is not a legal move while "
                                       "another move is (the package's Oware with grand_slam='illegal', Ludii's)"),
    Param("win_sweep", bool, False, "an outright win (early_win) also gives the seeds left on the board by leftover, "
                                    "as OpenSpiel's Oware does (MancalaGames leaves the board as it is)"),
    Param("repetition_ends", bool, False, "the game ends when a position (board, stores, player to move) comes again "
                                          "since the last move that put seeds in a store, or after 256 such "
                                          "positions (the package's Oware); the seeds left go by leftover"),
    # a match of rounds (MancalaGames' Rounds, RoundFill, RoundStarter, blocks, for the most seeds)
    Param("rounds", str, "one", "one round is the game; or a match of rounds: the seeds each player holds at a "
                                "round's end (store and own row) fill its holes for the next, seeds a hole, and "
                                "the match ends when a player cannot fill match_holes holes", choices=Rounds),
    Param("round_fill", str, "outside", "the order a player's holes are filled in for the next round: from the "
                                        "ends of its row inwards (player_0 from its left end, player_1 from its "
                                        "right), from its left end, or from its right end; the seeds too few "
                                        "for a hole stay in its store", choices=RoundFill),
    Param("closed_holes", bool, False, "the holes a player cannot fill for a round are closed for it: no seed is "
                                       "sown into them, nor does any walk round the ring stop there"),
    Param("round_starter", str, "alternate", "who starts each round after the first: the players in turn, the "
                                             "last round's loser, its winner (a drawn round: the player whose "
                                             "turn would have come next starts it, or, for loser, the other), or "
                                             "its last mover", choices=RoundStarter),
    Param("match_holes", int, 1, "the match ends when a player holds too few seeds to fill this many holes",
          low=1, high=MAX_COUNT),
    Param("match_end", str, "unfilled", "how a match ends: when a player cannot fill match_holes holes (each "
                                        "round refilled from the seeds held); or, each round started afresh, "
                                        "when a player has won match_target rounds, or scored match_target "
                                        "points (a point a round won, another for a round won with three "
                                        "quarters of the seeds or more)", choices=MatchEnd),
    Param("match_target", int, 1, "the round wins or points that win a match won by a tally", low=1,
          high=MAX_COUNT),
    # holes closed for good as the game goes (MancalaGames' SOW_BLKD_DIV: Deka, Embeli, Nambayi)
    Param("close_at", int, 0, "a lap whose last seed brings a hole of the opponent's to this many seeds closes "
                              "it for good (0: never): its seeds leave play, or, with relay laps, are sown on; "
                              "the mover's sowing passes over its own closed holes, and a seed it sows into a "
                              "hole it closed leaves play", low=0, high=MAX_COUNT),
    Param("close_rightmost", bool, True, "with close_at: a player's rightmost hole may be closed too"),
    Param("share_either_way", bool, False, "with must_share, where a move names its way: a hole that feeds the "
                                           "opponent one way may be played either way (MancalaGames' rule)"),
    Param("locked_holes", bool, False, "every hole starts locked: nothing is captured from it until its owner has "
                                       "played it (MancalaGames' moveunlock, Bechi)"),
    Param("fixed_way_turns", int, 0, "where a move names its way: the game's first this many turns (a turn: a "
                                     "player's moves until the other's) sow the way of direction whatever way "
                                     "they name (Four-Capture: 2, each player's first)", low=0, high=MAX_COUNT),
    Param("sow_own_row", bool, False, "each player sows round its own row alone, and its own store where "
                                      "sow_store (MancalaGames' NorthSouthCycle): no seed reaches the opponent's "
                                      "row, which only a capture across reaches"),
    Param("sow_captured", bool, False, "with lap_capture across: what a lap's end captures goes into its last hole, "
                                       "which is sown on, and a lap that captures nothing sows on as a relay; the "
                                       "sowing stops once the opponent has no seeds (MancalaGames' LAP_CAPT_SEEDS, "
                                       "mikro tsoro)"),
)
# repetition_ends: the positions since the last move that banked seeds, kept as Oware keeps them
# (mancala_marl.games.history: a count, their digest and 64-bit hashes), after the marks' slots
HISTORY_SLOTS = HASHES + 2 * HISTORY
Spec = spec_slots("Spec", PARAMETERS, __name__)  # spec[Spec.LAPS]: the laps parameter
BOTH_STORES = -2  # a sowing's own_store where both stores are sown
# What a sowing ended in (sow_and_capture's result): bits; SLAMMED: a grand slam that took nothing
REPEAT, CAPTURED, ENDLESS, SLAMMED = 1, 2, 4, 8


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
def sown_store(spec, mover, holes):
    """The store a sowing of ``mover``'s drops seeds in: -1 none, BOTH_STORES both, else the
    mover's own."""
    if not spec[Spec.SOW_STORE]:
        return -1
    return BOTH_STORES if spec[Spec.OPPONENT_STORE] else mover * (holes + 1) + holes


@kernel(inline="always")
def step(cell, holes, backward, own_store):
    """The cell after ``cell`` along the ring (before it, ``backward``), passing over the stores
    but ``own_store`` (-1: none; BOTH_STORES: neither)."""
    cells = 2 * holes + 2
    while True:
        cell = cell - 1 if backward else cell + 1
        if cell == cells:
            cell = 0
        elif cell < 0:
            cell = cells - 1
        if (cell != holes and cell != cells - 1) or cell == own_store or own_store == BOTH_STORES:
            return cell


@kernel(inline="always")
def step_in_row(cell, holes, backward, own_store):
    """sow_own_row: the cell after ``cell`` round the ring of its own row and that row's store, the
    store passed over but where it is ``own_store``."""
    first = 0 if cell <= holes else holes + 1  # the row's leftmost hole; first + holes is its store
    k = cell - first
    while True:
        k = k - 1 if backward else k + 1
        if k > holes:
            k = 0
        elif k < 0:
            k = holes
        if k != holes or first + holes == own_store:
            return first + k


@kernel(inline="always")
def ring_step(spec, cell, holes, backward, own_store):
    """The step of the game's ring: round both rows (``step``), or round the cell's own row (sow_own_row)."""
    if spec[Spec.SOW_OWN_ROW]:
        return step_in_row(cell, holes, backward, own_store)
    return step(cell, holes, backward, own_store)


@kernel(inline="always")
def walk(state, spec, cell, holes, backward, own_store):
    """``ring_step``, past the holes closed for the round (closed_holes): MancalaGames' walk passes them
    wherever it goes, sowing, a chain of captures or a gap."""
    cell = ring_step(spec, cell, holes, backward, own_store)
    if spec[Spec.CLOSED_HOLES]:
        marks = 2 * holes + 2 + MARKS
        while state[marks + cell] == CLOSED:
            cell = ring_step(spec, cell, holes, backward, own_store)
    return cell


@kernel(inline="always")
def next_sown(state, spec, cell, origin, holes, backward, own_store, mover, last_seed):
    """The cell a sowing drops its next seed into after ``cell``: past the hole it started from
    (skip_origin), past holes already holding sow_max seeds, past the opponent's children
    (child_sowing; but for the ``last_seed``, with "skip_opponent_but_last") and past the mover's
    own holes closed for good (close_at; the mover's closed holes across are sown, the seed leaving play)."""
    full = spec[Spec.SOW_MAX]
    closing = spec[Spec.CLOSE_AT] > 0
    skip = spec[Spec.CHILD_SOWING]
    skip_children = skip == ChildSowing.SKIP_OPPONENT or (skip == ChildSowing.SKIP_OPPONENT_BUT_LAST and not last_seed)
    theirs = 2 - mover  # the mark of the opponent's children
    marks = 2 * holes + 2 + MARKS
    while True:
        cell = walk(state, spec, cell, holes, backward, own_store)
        if (cell == origin and spec[Spec.SKIP_ORIGIN]) or (full and side_of(cell, holes) >= 0 and state[cell] >= full):
            continue
        if skip_children and state[marks + cell] == theirs:
            continue
        if closing and state[marks + cell] == CLOSED and side_of(cell, holes) == mover:
            continue
        return cell


@kernel(inline="always")
def has_marks(spec):
    """Whether the state has a mark per cell: in a game of children, or of closed holes."""
    return spec[Spec.CHILDREN] != 0 or spec[Spec.CLOSED_HOLES] != 0 or spec[Spec.CLOSE_AT] != 0 or \
        marks_played(spec)


@kernel(inline="always")
def marks_played(spec):
    """Whether the holes played are marked (PLAYED): every_hole_first, locked_holes."""
    return spec[Spec.MOVE_RULE] == MoveRule.EVERY_HOLE_FIRST or spec[Spec.LOCKED_HOLES] != 0


@kernel(inline="always")
def history_slot(spec):
    """repetition_ends: the first slot of the history (HISTORY_SLOTS), after the marks in a game of
    children or closed holes."""
    cells = 2 * spec[SPEC_PITS] + 2
    return cells + MARKS + (cells if has_marks(spec) else 0)


@kernel(inline="always")
def match_slot(spec):
    """rounds="match": the first of the MATCH_SLOTS, after the marks and the history."""
    return history_slot(spec) + (HISTORY_SLOTS if spec[Spec.REPETITION_ENDS] else 0)


@kernel(inline="always")
def share_out(state, holes, mover, rule, left):
    """``left`` seeds taken off the board at the end go by ``rule`` (a Leftover but Leftover.OWNER, which
    keeps each row's own): to ``mover``, divided (the odd one to the smaller store, player_1's when
    level), or out of play."""
    stores = (holes, 2 * holes + 1)
    if rule == Leftover.MOVER:
        state[stores[mover]] += left
    elif rule == Leftover.DIVIDED:
        half = left // 2
        state[stores[0]] += half
        state[stores[1]] += half
        if left % 2:
            state[stores[0] if state[stores[1]] > state[stores[0]] else stores[1]] += 1
    elif rule == Leftover.NOBODY:
        state[2 * holes + 2 + OUT_OF_PLAY] += left


@kernel(inline="always")
def row_seeds(state, holes, player):
    total = 0
    first = player * (holes + 1)
    for cell in range(first, first + holes):
        total += state[cell]
    return total
