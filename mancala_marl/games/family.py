"""The two-row Mancala family: one rules space whose parameters say how a game sows, captures,
passes and ends, so that Wari, Ayoayo, Bohnenspiel, Dakon and their cousins are points of it.

The board is a ring of two rows of holes with a store at each end, as in every game here:
player_0's holes ``0 .. H-1`` (left to right as player_0 sees them), player_0's store, then
player_1's holes, player_1's store. Counter-clockwise sowing runs along that ring by increasing
index; clockwise the other way. A move is a hole of the mover's, ``0 .. H-1`` in that order (and
its way, where the mover chooses it: see Actions).

**The start.** Every hole holds ``seeds`` (``start="equal"``), or the board is filled in a
traditional pattern (some holes empty, one seed more, a forced first move) or at random, every
hole keeping two seeds: :mod:`mancala_marl.games.family_start` says each. A random start is drawn
from the numpy Generator handed to ``init(rng)`` (``random_start`` says so), which the
environments seed with ``reset(seed=...)`` and the batch engine's ``init_states(game, n, rng)``
draws each row from. The game's seeds, and so the winning count, are those the start puts down.

**Sowing.** The mover lifts the seeds of a hole holding at least ``min_seeds`` (all of them, or
all but one with ``leave_one``) and drops one in each hole along the ring, in ``direction``:
``ccw`` or ``cw`` for every move; ``outward`` (the left half of a row sows clockwise, the right
half counter-clockwise, away from the middle; with ``min_seeds=1`` a lone seed sown across the end
of the rows may not be played straight back) or ``inward`` (towards the middle); ``by_parity``: a
hole of an odd count sows counter-clockwise, of an even one clockwise (its count before the move,
with ``leave_one`` too); ``opposed``: the first move of the
game chooses its way, which is the first mover's for the game, and the other player sows the
other way. ``choose_direction`` lets the mover choose the way of the ``middle`` hole of an odd row
(which ``outward`` and ``inward`` need there), of ``all`` holes, or of the ends and the middle of
an odd row (``ends_and_middle``, MancalaGames' OnlyChild). Captures read "backward" and
"forward" along the move's own way. ``move_rule="opponent_or_empty"`` allows only a hole of at
most H seeds whose first lap ends across or in an empty hole (or a fuller one);
``"single_to_empty"`` moves a lone seed only into an empty hole; ``"not_across_ones"`` no hole
across from one of the opponent's holding a single seed; ``"singles_last"`` a hole of one seed only
when every hole that may be played holds one; ``"to_occupied"`` only a hole whose first lap does
not end in a hole it leaves holding one seed (a store will do). Where a random start leaves
player_0 no move under the move rule, it is drawn again.

``pre_capture`` takes seeds before the sowing: ``"one_seed"``, one of each lap's seeds goes to the
mover's store before the lap is sown; ``"across_ones"``, each hole of the mover's holding a single
seed as the move begins takes the hole across; ``"across_lone"``, a move lifting one seed takes the
hole across from it (these two with one lap only). They count as no capture (no extra turn, no
grand slam).

- The stores are passed over, unless ``sow_store``: the mover's own store is then a hole of the
  ring, and a last seed there gives the mover another turn. ``opponent_store="sown"`` sows the
  opponent's store too, a last seed there giving another turn as well; ``"sown_no_turn"``, the turn
  passes (one lap only).
- ``last_seeds_to_opponent``: a lap that starts with at most this many seeds on the board gives
  each seed it sows in the opponent's holes to the opponent's store, but a last seed that makes a
  capture by count.
- ``skip_origin``: a lap that comes round to the hole it started from passes over it.
- ``sow_max``: a hole already holding this many seeds is passed over too (Urim's full holes).
- ``laps="relay"``: when the last seed lands in a hole that held seeds, that hole's seeds are
  lifted and sown on, and so on (a lap that ends where a capture is due stops there, to capture).
  ``"next"``: the sowing goes on from the hole after the last one, if it holds seeds. A sowing of
  more than ``family_space.MAX_LAPS`` (75) laps is endless: the game stops, the seeds in hand
  leave play and the seeds on the board are shared out by ``endless_leftover``. A lap that ends in the mover's
  store ends the sowing (another turn); a ``"next"`` lap ending beside it goes on from the store,
  sowing its seeds (MancalaGames' rule, kept so as to play its files). ``lap_rule`` adds a
  condition on the last hole for each further lap (it holds exactly, or at least, ``lap_count``
  seeds; it is on the mover's side, or the opponent's), tested before a lap's capture.
  ``lap_capture``: a relay lap captures where it ends and sows on (a lone seed that cross-captured
  goes on alone, one that did not stops; after a capture by count the sowing goes on from the next
  hole).

- ``move_one``: with ``leave_one``, a hole of a single seed is lifted whole and its seed sown.
- ``children``: a hole can become a player's *child* (:mod:`mancala_marl.games.family_children`
  says each kind, where they may be made, how sowing passes them, and games without stores). A
  child keeps the seeds sown into it, which count for its owner beside its store at the end; it
  is never played nor captured, and a relay lap stops in it. A last seed that makes one captures
  nothing. Its state: a mark per cell after the other slots, in a game of children only.

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
  hole is taken whole), or takes it all and gives the mover another turn (``extra_turn``), or
  takes it all and hands the seeds left in the mover's own row to the opponent's store
  (``opponent_gets_row``, MancalaGames' OPP_GETS_REMAIN).
- ``take_across``: a capture also takes the hole across from the first hole it took;
  ``take_final``: the last hole sown, where captures come from.
- ``capture_kind`` other than ``"standard"`` (the rules above) changes what the end of a sowing
  takes: ``"singles"``, every hole of one seed where captures come from; ``"pull_across"``, a last
  seed in an empty hole draws the seeds of the hole across (if it qualifies) into its own hole, out
  of no store; ``"store_to_opponent"``, a last seed in an empty hole where captures come from hands
  the mover's store to the opponent (else the rules above); ``"opponent_store"``, a last seed in the
  opponent's store (``opponent_store="sown_no_turn"``) takes that store (else the rules above);
  ``"opponent_counts"``, a last seed on the opponent's row or in the mover's own last hole (next to
  its store, counter-clockwise) takes every hole of the opponent's of a count taken; ``"next"``, the
  hole after the last one along ``chain``'s way is taken when it qualifies (after laps: when the
  last hole qualifies and the next holds seeds), then each next one while it qualifies, up to
  ``captures``.
- ``capture_extra_turn``: a move that captures gives the mover another turn (``extra_turn_once``:
  not one that follows another extra turn).

**Turns and the end.** With ``must_share``, a player whose opponent's row is empty must play a
move that leaves the opponent seeds; if none does, the game ends (or, with ``must_pass``, any move
is allowed). With ``must_pass`` a player without a legal move passes; without it, the game ends.
After each move, in this order, the game ends:

1. when at most ``end_seeds_left`` seeds are left on the board (-1: never), or the mover's own
   (``end_cleared="own"``), the opponent's (``"opponent"``) or either row (``"either"``) is empty;
2. with ``early_win`` (MancalaGames' rule; Kalah plays on), at once, with the board as it is,
   when a store holds more than the winning count (or both hold exactly half: a draw): half the game's seeds, ``2 * holes * seeds`` (``win_short=0``), or
   all of them less ``win_short`` (a game of rounds, which goes on until the loser can no longer
   fill its holes);
3. when no hole holds ``min_seeds`` seeds, when the player to move has no legal move (and, with
   ``must_pass``, neither has the other), when fewer than ``end_below`` seeds are left on the
   board (and some are), too few for any capture to change the outcome, or (a bound of ours:
   MancalaGames has none, and two players can circle for ever) after ``family_space.MOVE_LIMIT``
   (1000) moves.

At ends 1 and 3 the seeds left on the board go by ``leftover``: to the ``owner`` of each hole's
row, all to the last ``mover``, ``divided`` evenly (the odd seed to the player with the smaller
store, player_1 when they are level), or to ``nobody`` (out of play); with ``unfed_takes``, a game
that ends because a player cannot feed the other gives them to the unfed player. More seeds in
store wins.

**Goals.** ``goal="most_seeds"`` is the above. The others end the game otherwise, after each
move, the board left as it is, and no store count decides them: ``"deprive"``, the mover wins when
the opponent's row is empty, else loses when its own row is; ``"clear"``, the mover wins when its
own row is empty, else loses when the opponent's is; then, in ``"deprive"`` and ``"immobilize"``,
a player to move without a legal move loses (in ``"clear"``, where every seed can move, the game is
then a draw). An endless sowing, or ``MOVE_LIMIT`` moves, ends these games in a draw. ``returns``
gives the winner (a slot of the state records it); the stores hold what was captured, as they do in
MancalaGames. The parameters that only say how a most-seeds game ends (``end_seeds_left``,
``end_cleared``, ``early_win``, ``win_short``, ``end_below``, ``leftover``, ``unfed_takes``,
``endless_leftover``) stay at their defaults beside another goal, ``must_share`` and
``must_pass`` are off (as MancalaGames has them: must-share forbids the very move that deprives),
and a ``"clear"`` game moves any hole of seeds (``min_seeds=1``, ``move_rule="any"``).

A rule set in which no hole can be played at the start is refused, as are a start pattern on too
few holes (or a random one that might leave the first player no move), ``passing`` with
``sow_store`` (which MancalaGames plays oddly) and a parameter that would do nothing
(``lap_rule`` without laps, ``lap_count`` without a count rule): each refused combination is a
row of ``mancala_marl.games.family_rules.RULES``, with its message and its repair.
:func:`sample_rules` draws rule sets the family takes, at random, within bounds.

**The package's own games.** Kalah, Sungka, Oware and Togyz Kumalak are points of the family
(:func:`kalah_rules`, :func:`sungka_rules`, :func:`oware_rules`, :func:`togyz_rules`: their rules
written as its parameters play move for move as their own kernels over random games). Five rules
serve only the last two, where the package follows other sources than MancalaGames:
``children_bank`` sends a child's seeds to its owner's store after each move (Togyz Kumalak's
tuzduk feeds the kazan; MancalaGames' Toguz_Kumalak.txt keeps them in the child), not beside
``children="weg"``, ``child_stores`` or ``sow_max``, which read a child's count;
``slam_from_empty`` counts a grand slam of a row that was empty before the move too (OpenSpiel's
Oware), with a ``grand_slam`` that undoes or cuts one back; ``slam_avoided``, with
``grand_slam="no_capture"``, makes a grand slam illegal while another move is legal (Oware's
``grand_slam="illegal"``, as Ludii has it); ``win_sweep``, with ``early_win``, gives
the seeds on the board by ``leftover`` at an outright win as at the other ends; and
``repetition_ends`` ends the game, the seeds left going by ``leftover``, when a position (board,
stores, player to move) comes again since the last move that put seeds in a store, or after 256
such positions (Oware's rule: its history kept after the other slots, as Oware keeps it).

The semantics are MancalaGames' (StoneShark's engine of 141 traditional games), which
``benchmarks/family_crosscheck.py`` plays against move for move; :func:`load_mancalagames` reads
its game files.

**Rounds.** ``rounds="match"`` plays a whole match of rounds won by seeds, as MancalaGames plays
its games of rounds refilled from the ends of the rows (:mod:`mancala_marl.games.family_rounds`
says each rule): at a round's end each player's seeds (store and own row) refill its holes,
``seeds`` a hole in ``round_fill``'s order, the rest staying in its store; with ``closed_holes``
the holes it cannot fill are closed for the round (a mark per cell, which every walk round the
ring passes); ``round_starter`` says who starts the next; the match ends when a player cannot fill
``match_holes`` holes, after an endless sowing or at ``MOVE_LIMIT`` moves in all, won as its last
round was. All of it happens within the move that ends a round, so that every engine built on the
kernels (the environments, the batch engine, the searches) plays matches; the state keeps the
round, its starter and the last round's result after the other slots. A match is won by seeds,
without children or the repetition rule; the other games of rounds (tallies of rounds,
territories, even refills) are their first round.

**Holes closed for good.** ``close_at`` (MancalaGames' SOW_BLKD_DIV, in Deka, Embeli, Nambayi,
with a goal of depriving or immobilizing and no other capture): a lap whose last seed brings a hole
across to ``close_at`` seeds closes it (not the rightmost, without ``close_rightmost``); a single
lap's seeds there leave play, a relay sows them on. Its owner's sowing passes over it; a seed its
closer sows there leaves play. The closed holes are marks, as children are.

**Each row its own ring.** ``sow_own_row`` (MancalaGames' NorthSouthCycle: NS Kalah, Tchuka Ruma):
a player sows round its own row alone, through its own store where ``sow_store``, and never into
the opponent's row, which only a capture across reaches (``family_space.step_in_row``; every walk
round the board, a sowing, a chain or a gap, keeps to the row it starts in).

The kernels read the rules from ``spec`` as they play, so one compiled set serves every game of the
family. They are compiled without reference counts on their arrays (``refcounts=False``,
:mod:`mancala_marl._compile`), which had cost a move more than half its time; the few steps that
allocate (must-share's trial of each move on a copy, the board kept for a grand slam rule) are
kernels of their own that keep them.
"""

from __future__ import annotations

import numpy as np

from mancala_marl.errors import BadInput
from .base import Game
from .family_space import (CLOSED, PLAYED, DRAWN_ROUND, FIRST_WAY, HISTORY_SLOTS, LAST_SEEDS, LAST_WINNER, MARKS,
                           MATCH_SLOTS, MOVES_PLAYED, MOVE_LIMIT, NO_RETURN, OUT_OF_PLAY, PARAMETERS, ROUND,
                           ROUND_STARTER, Start, TALLY, TURNS_PLAYED, WINNER, history_slot, match_slot)
from .history import HISTORY, clear_history, record_position
from .family_rules import DRAWS, draw, refusal, repaired, strategy
from .family_sowing import action_backward, way_allowed
from .family_start import draw_rows, start_state, start_total
from .family_text import rules_text
from .family_encoding import BOARD_LENGTH, RULES_HOLES, RULES_LENGTH, rules_observation
from .family_turns import apply_move, legal_holes, may_move


def kalah_rules(pits: int = 6, seeds: int = 4, empty_capture: bool = False, end_rule: str = "either") -> dict:
    """Kalah's rules (:mod:`mancala_marl.games.kalah`, its parameters as there) as a point of the
    family: ``Family(**kalah_rules(...))`` plays move for move as ``Kalah(...)`` (tested over random
    games). MancalaGames' Kalah.txt is another point: it wins at once at more than half the seeds."""
    return {"holes": pits, "seeds": seeds, "sow_store": True, "skip_origin": False, "capture_min": 0,
            "cross_capture": True, "captures": 1, "take_own": "always" if empty_capture else "on_capture",
            "must_share": False, "early_win": False, "end_cleared": "either" if end_rule == "either" else "no"}


def sungka_rules(houses: int = 7, stones: int = 7, sunog_needs_opposite: bool = False) -> dict:
    """Sungka's rules (:mod:`mancala_marl.games.sungka`, its parameters as there) as a point of the
    family, move for move as ``Sungka(...)`` over random games, but for one bound: a relay of more
    than ``MAX_LAPS`` (75) laps ends the family's game as endless, where Sungka's kernel sows on."""
    return {"holes": houses, "seeds": stones, "sow_store": True, "skip_origin": False, "laps": "relay",
            "capture_min": 0, "cross_capture": True, "captures": 1,
            "take_own": "on_capture" if sunog_needs_opposite else "always", "must_share": False, "must_pass": True,
            "early_win": False}


def oware_rules(houses: int = 6, seeds: int = 4, grand_slam: str = "no_capture") -> dict:
    """Oware's rules (:mod:`mancala_marl.games.oware`, its parameters as there) as a point of the
    family, move for move as ``Oware(...)`` over random games, but for one bound: the family ends a
    game at ``MOVE_LIMIT`` (1000) moves, where Oware's stretches of 256 positions without a capture
    may run on longer. MancalaGames' Oware.txt is another point: it leaves the board as it is at an
    outright win and has no repetition rule. Oware's ``grand_slam="illegal"`` (a grand slam is
    legal, and takes nothing, only when every move is one) is the family's ``"no_capture"`` with
    ``slam_avoided``; the family's own ``"illegal"`` allows one where the opponent's row was empty."""
    if grand_slam not in ("no_capture", "illegal"):
        raise BadInput(f"grand_slam={grand_slam!r}: Oware's rules are 'no_capture' or 'illegal'")
    return {"holes": houses, "seeds": seeds, "grand_slam": "no_capture", "slam_from_empty": True,
            "slam_avoided": grand_slam == "illegal", "win_sweep": True, "repetition_ends": True}


def togyz_rules(holes: int = 9, balls: int = 9, stop_at_majority: bool = True) -> dict:
    """Togyz Kumalak's rules (:mod:`mancala_marl.games.togyz_kumalak`, its parameters as there) as a
    point of the family, move for move as ``TogyzKumalak(...)`` over random games: its tuzduk is a
    child of ``children="one"``, its balls banked in the kazan (``children_bank``). MancalaGames'
    Toguz_Kumalak.txt is another point: it keeps them in the tuzduk and ends with fewer than two
    balls on the board."""
    return {"holes": holes, "seeds": balls, "skip_origin": False, "leave_one": True, "move_one": True,
            "capture_max": 0, "capture_parity": "even", "captures": 1, "must_share": False,
            "early_win": stop_at_majority, "win_sweep": stop_at_majority, "children": "one", "child_count": 3,
            "child_side": "opponent", "child_holes": "not_symmetric", "children_bank": True}


REDRAWS = 1000  # random starts drawn for a row before a move rule that refuses them all is given up


class Family(Game):
    name = "family"
    parameters = PARAMETERS
    apply_kernel = staticmethod(apply_move)
    legal_kernel = staticmethod(legal_holes)
    # seeds out of play (taken by nobody, or dropped by an endless sowing), moves played, turns
    # played, extra turns in a row, the way player_0 sows in an "opposed" game, the hole a lone seed
    # may not be played back from, the winner of a game of another goal than most seeds; then, in a
    # game of children only, a mark per cell (count_slots)
    extra_slots = 7
    captures_opposite = False
    # "rules": the board padded and the rule set encoded (family_encoding), one network for any game;
    # not offered past RULES_HOLES holes a row
    custom_obs = ("rules",)
    custom_obs_kernel = staticmethod(rules_observation)
    sweeps_at_end = False
    # Wari (the defaults); Kalah; Dakon (relay sowing into the store, passes, a game of rounds);
    # Alemungula (outward sowing, the middle hole's way chosen: ten actions); Oware(4, 3) as the
    # package plays it (its positions since a capture kept after the other slots: a 533-slot state)
    examples = ({},
                {"sow_store": True, "capture_min": 0, "cross_capture": True, "take_own": "on_capture", "captures": 1,
                 "must_share": False},
                {"holes": 7, "seeds": 7, "sow_store": True, "laps": "relay", "capture_min": 0, "cross_capture": True,
                 "take_own": "on_capture", "captures": 1, "must_share": False, "must_pass": True},
                {"holes": 5, "seeds": 5, "direction": "outward", "choose_direction": "middle", "skip_origin": False,
                 "capture_max": 4, "capture_parity": "even", "must_share": False},
                oware_rules(4, 3))

    def __init__(self, *args, **values):
        super().__init__(*args, **values)
        params = self.params
        refused = refusal(params)  # the table of family_rules: the combinations that are not played
        if refused:
            raise BadInput(refused)
        if self.pits > RULES_HOLES:
            self.custom_obs = ()
        self.random_start = params["start"] == "random"
        self.total_seeds = int(start_total(Start[params["start"].upper()], self.pits, self.seeds))
        # what the table cannot say, needing the built game: the forced first move of
        # "rightmost_first" (start_state), a random start's move rule (init_rows), a first move
        self._start = start_state(self)  # a random start: each hole's floor, filled by init_rows
        if not self.legal_mask_fast(self.init(np.random.default_rng(0))).any():
            raise BadInput(f"no first move: with seeds={self.seeds}, start={params['start']!r}, "
                           f"min_seeds={self.params['min_seeds']} and move_rule={self.params['move_rule']!r} no hole "
                           "may be played at the start")

    def custom_obs_high(self, obs_type: str) -> np.ndarray:
        """Upper bounds of the ``rules`` observation: the seeds on the board, then 1."""
        return np.concatenate([np.full(BOARD_LENGTH, float(self.total_seeds), np.float32),
                               np.ones(RULES_LENGTH, np.float32)])

    @property
    def stores_can_shrink(self) -> bool:
        """A "next" lap that ends beside the mover's sown store goes on from it, sowing its seeds;
        ``capture_kind="store_to_opponent"`` hands the store over."""
        params = self.params
        return (params["laps"] == "next" and params["sow_store"]) or params["capture_kind"] == "store_to_opponent"

    @property
    def has_marks(self) -> bool:
        """Whether the state has a mark per cell: children, or holes closed (for a round, or for good)."""
        return self.params["children"] != "none" or self.params["closed_holes"] or self.params["close_at"] > 0 or \
            self.params["move_rule"] == "every_hole_first" or self.params["locked_holes"]

    @property
    def is_match(self) -> bool:
        return self.params["rounds"] == "match"

    def count_slots(self) -> int:
        """``extra_slots``; in a game of children or closed holes a mark for each cell of the board;
        with ``repetition_ends`` the positions since seeds were last banked (family_space.HISTORY_SLOTS);
        in a match its MATCH_SLOTS (family_rounds)."""
        return self.extra_slots + (2 * self.pits + 2 if self.has_marks else 0) + \
            (HISTORY_SLOTS if self.params["repetition_ends"] else 0) + (MATCH_SLOTS if self.is_match else 0)

    def from_board(self, board, to_move: int = 0) -> np.ndarray:
        """The base's state, with the children a game has from the start (``child_holes="fixed_right"``:
        each player's rightmost hole); in a match, its first round, started by ``to_move``."""
        state = super().from_board(board, to_move)
        if self.params["child_holes"] == "fixed_right":
            marks = self.board_size + MARKS
            state[marks + self.pits - 1], state[marks + 2 * self.pits] = 1, 2
        if self.is_match:
            base = int(match_slot(self.spec))
            state[base + ROUND], state[base + ROUND_STARTER] = 1, to_move
        self._remember_start(state)
        return state

    def round_of(self, state) -> int:
        """The round being played (1 for the first; 1 in a game of one round)."""
        return int(state[int(match_slot(self.spec)) + ROUND]) if self.is_match else 1

    def last_round(self, state) -> dict | None:
        """The last round's result in a match, once one has ended: its number, its winner (0, 1, or
        None for a draw) and the seeds each player held at its end; None before."""
        if not self.is_match:
            return None
        base = int(match_slot(self.spec))
        winner = int(state[base + LAST_WINNER])
        if not winner:
            return None
        ended = int(state[base + ROUND]) - (not self.is_terminal(state))
        return {"round": ended, "winner": None if winner == DRAWN_ROUND else winner - 1,
                "seeds": [int(state[base + LAST_SEEDS]), int(state[base + LAST_SEEDS + 1])]}

    def closed_cells(self, state) -> list[int]:
        """The cells of the holes closed for the round (closed_holes), or for good (close_at)."""
        if not self.params["closed_holes"] and not self.params["close_at"]:
            return []
        marks = state[self.board_size + MARKS:self.board_size + MARKS + self.board_size]
        return [int(cell) for cell in np.flatnonzero(marks == CLOSED)]

    def _remember_start(self, state):
        """With ``repetition_ends``: the history is this position alone (as Oware's from_board has it)."""
        if self.params["repetition_ends"]:
            base = history_slot(self.spec)
            clear_history(state, self.board_size, base)
            record_position(state, self.board_size, base)

    def children_of(self, state) -> list[tuple[int, int]]:
        """The children on the board, as (cell, owner) pairs (none in a game without children)."""
        if self.params["children"] == "none":
            return []
        marks = state[self.board_size + MARKS:self.board_size + MARKS + self.board_size]
        return [(int(cell), int(marks[cell]) - 1) for cell in np.flatnonzero(marks)]

    def scores(self, state):
        """Each player's store, and in a game of children the seeds in that player's children."""
        s0, s1 = super().scores(state)
        for cell, owner in self.children_of(state):
            if owner == 0:
                s0 += int(state[cell])
            else:
                s1 += int(state[cell])
        return s0, s1

    def init(self, rng: np.random.Generator | None = None) -> np.ndarray:
        """The start ``start`` says (:mod:`mancala_marl.games.family_start`), drawn from ``rng``
        where it is random (None: a fresh, unseeded Generator)."""
        return self.init_rows(1, rng)[0] if self.random_start else self._start.copy()

    def init_rows(self, n: int, rng: np.random.Generator | None = None) -> np.ndarray:
        states = np.tile(self._start, (n, 1))
        if self.random_start:
            rng = np.random.default_rng() if rng is None else rng
            rows = np.arange(n)
            for _ in range(REDRAWS):  # a move rule may refuse every hole of a drawn start: drawn again
                drawn = draw_rows(len(rows), self.pits, self.seeds, rng)
                states[rows, :self.pits], states[rows, self.pits + 1:2 * self.pits + 1] = \
                    drawn[:, :self.pits], drawn[:, self.pits:]
                if self.params["move_rule"] == "any":
                    break
                rows = np.array([row for row in rows if not self.legal_mask_fast(states[row]).any()], dtype=int)
                if not len(rows):
                    break
            else:
                raise BadInput(f"move_rule={self.params['move_rule']!r} refused every hole of {REDRAWS} "
                               "random starts")
            for state in states:
                self._remember_start(state)
        return states

    def returns(self, state):
        """+1/-1/0 per player once the game is over: by the stores for most seeds, else as the
        game's goal, or a match's tally, decided (its winner slot)."""
        by_stores = self.params["goal"] == "most_seeds" and self.params["match_end"] == "unfilled"
        if by_stores or not self.is_terminal(state):
            return super().returns(state)
        winner = int(state[self.board_size + WINNER]) - 1
        sign = 0.0 if winner < 0 else (1.0 if winner == 0 else -1.0)
        return np.array([sign, -sign], dtype=np.float32)

    rules_text = rules_text

    def family_rules(self) -> dict:
        return dict(self.params)

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
        high[self.board_size + WINNER] = 0 if self.params["goal"] == "most_seeds" and \
            self.params["match_end"] == "unfilled" else 2
        marks = self.board_size + MARKS
        if self.has_marks:  # a hole's mark: 1 + its owner, or CLOSED; a store's none
            high[marks:marks + self.board_size] = PLAYED if self.params["move_rule"] == "every_hole_first" or \
                self.params["locked_holes"] else \
                CLOSED if self.params["closed_holes"] or self.params["close_at"] else 2
            high[marks + self.pits] = high[marks + 2 * self.pits + 1] = 0
        if self.is_match:
            base = int(match_slot(self.spec))
            low[base + ROUND], high[base + ROUND] = 1, MOVE_LIMIT
            high[base + ROUND_STARTER] = 1
            high[base + LAST_WINNER] = DRAWN_ROUND
            high[base + LAST_SEEDS:base + LAST_SEEDS + 2] = self.total_seeds
            high[base + TALLY:base + TALLY + 2] = 2 * MOVE_LIMIT  # (a round takes a move at least)
        if self.params["repetition_ends"]:  # as Oware's: a count, then hash halves (any int32)
            history = int(history_slot(self.spec))
            low[history + 1:], high[history + 1:] = np.iinfo(np.int32).min, np.iinfo(np.int32).max
            low[history], high[history] = 0, HISTORY
        return low, high

    def marked_pits(self, state):
        """The children, or the holes closed for the round, as (side, pit) pairs."""
        closed = self.closed_cells(state)
        if closed:
            return [(cell // (self.pits + 1), cell % (self.pits + 1)) for cell in closed], \
                ("closed for good: its owner passes over it, and a seed its closer sows there leaves play"
                 if self.params["close_at"] else "closed for this round: its player had too few seeds to fill it")
        marked = [(cell // (self.pits + 1), cell % (self.pits + 1)) for cell, _ in self.children_of(state)]
        return marked, "a child: a hole its owner has made its own" if marked else ""

    def illegal_reason(self, state, action):
        reason = super().illegal_reason(state, action)
        player = self.to_move(state)
        if reason.endswith(("is not a legal move here", "it cannot be played")) and \
                player * (self.pits + 1) + action % self.pits in self.closed_cells(state):
            if self.params["close_at"]:
                return f"player_{player}'s hole {action % self.pits} is closed for good (the opponent closed it)"
            return f"player_{player}'s hole {action % self.pits} is closed for this round (round {self.round_of(state)})"
        if not reason.endswith("is not a legal move here"):
            return reason
        hole, clockwise = action % self.pits, action >= self.pits
        seeds = state[player * (self.pits + 1) + hole]
        named = f"hole {hole}" if self.actions == self.pits else \
            f"hole {hole} sown {'clockwise' if clockwise else 'counter-clockwise'} (action {action})"
        cell = player * (self.pits + 1) + hole
        owners = dict(self.children_of(state))
        if cell in owners:
            return f"player_{player}'s {named} is player_{owners[cell]}'s child: a child is never played"
        if seeds < self.params["min_seeds"]:
            return f"player_{player}'s {named} holds {seeds} seeds, fewer than the {self.params['min_seeds']} a move needs"
        if self.actions > self.pits and not way_allowed(state, self.spec, player, hole, clockwise):
            return f"player_{player}'s {named}: the rules sow it the other way here"
        if state[self.board_size + NO_RETURN] - 1 == player * (self.pits + 1) + hole:
            return f"player_{player}'s {named} holds a lone seed just sown across the end of the rows: it may not go " \
                   "straight back"
        if not may_move(state, self.spec, player, hole, action_backward(state, self.spec, player, action)):
            return f"player_{player}'s {named} is not allowed by move_rule={self.params['move_rule']!r}"
        opponent = (1 - player) * (self.pits + 1)
        if self.params["slam_avoided"] and state[opponent:opponent + self.pits].any():
            return f"player_{player}'s {named} would be a grand slam, not legal while another move is (slam_avoided)"
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
        """Rule sets drawn over family_rules.DRAWS and repaired by its table, but for a random
        start: hypothesis replays each example, and a random start is drawn afresh each time."""
        draws = dict(DRAWS, start=tuple(start.name.lower() for start in Start if start != Start.RANDOM))
        return strategy(st, draws).map(repaired).filter(cls._takes)


def sample_rules(rng: np.random.Generator, *, fixed: dict | None = None, choices: dict | None = None,
                 tries: int = 1000, **bounds: tuple[int, int]) -> dict:
    """A rule set of the family drawn at random from ``rng``, one that ``Family(**rules)`` takes.

    Each parameter is drawn uniformly over ``family_rules.DRAWS``, as the
    tests' generator draws them: by default holes 2..8, seeds 1..5, min_seeds 1, sow_max 0, the
    other numbers over small ranges (``family_rules.RANGES``), every string parameter over its
    choices (all the starts, the random one too) and every bool over both. The draw is repaired by
    the family's table of refused combinations (``family_rules.RULES``), and drawn again where the
    built game still refuses it (no first move) or where a repair left what the arguments ask:
    ``tries`` draws at most, then BadInput.

    - ``bounds``: ``name=(low, high)`` for an integer parameter, both ends included, in place of
      its range: ``holes=(3, 3)``; ``sow_max=(0, 12)`` draws sow_max too.
    - ``choices``: ``{name: (value, ...)}`` for a string or bool parameter, the values drawn
      from: ``choices={"children": ("none",), "sow_store": (True,)}``.
    - ``fixed``: ``{name: value}``, parameters kept at a value: ``fixed={"start": "equal"}``.

    A rule set returned keeps to all three. It holds every parameter, as ``Family(**rules).params``.
    An unknown parameter, a choice or a bound it does not take, is refused naming it.

    >>> rules = sample_rules(np.random.default_rng(0), holes=(4, 6), choices={"children": ("none",)})
    >>> game = Family(**rules)
    >>> 4 <= game.pits <= 6 and rules["children"] == "none"
    True
    """
    draws, asked = _sampled_over(fixed or {}, choices or {}, bounds)
    reason = ""
    for _ in range(tries):
        rules = repaired(draw(rng, draws))
        strayed = [name for name, values in asked.items() if rules[name] not in values]
        if strayed:
            reason = f"the table's repair set {strayed[0]}={rules[strayed[0]]!r}"
            continue
        try:
            return dict(Family(**rules).params)
        except BadInput as error:  # a refusal the table cannot make: no first move
            reason = str(error)
    raise BadInput(f"sample_rules: no rule set within these bounds was taken in {tries} draws (the last: {reason})")


def _sampled_over(fixed: dict, choices: dict, bounds: dict) -> tuple[dict, dict]:
    """family_rules.DRAWS narrowed by sample_rules' arguments, and the values each argument asks for."""
    known = {param.name: param for param in PARAMETERS}
    asked = {}
    for kind, given in (("fixed", fixed), ("choices", choices), ("bound", bounds)):
        for name, value in given.items():
            if name not in known:
                raise BadInput(f"sample_rules: the family has no parameter {name!r} (a {kind}); its parameters: "
                               f"{', '.join(known)}")
            if name in asked:
                raise BadInput(f"sample_rules: {name} is given twice (fixed, choices, bounds)")
            asked[name] = _values_asked(kind, known[name], value)
    return {**DRAWS, **asked}, asked


def _values_asked(kind: str, param, value) -> tuple | range:
    name = param.name
    if kind == "fixed":
        return (param.check(value),)
    if kind == "choices":
        takes = param.choices or (False, True) if param.type in (str, bool) else ()
        if not takes:
            raise BadInput(f"sample_rules: {name} is a number: give a bound, {name}=(low, high), not choices")
        if isinstance(value, str) or not value:
            raise BadInput(f"sample_rules: choices for {name} must be a non-empty tuple of values, got {value!r}")
        for choice in value:
            if choice not in takes or isinstance(choice, bool) != (param.type is bool):
                raise BadInput(f"sample_rules: {name} has no choice {choice!r}; it takes {param.range_text}")
        return tuple(value)
    if param.type is not int:
        raise BadInput(f"sample_rules: {name} is not a number: give choices={{{name!r}: (...)}}, not a bound")
    if not (isinstance(value, tuple) and len(value) == 2 and value[0] <= value[1]):
        raise BadInput(f"sample_rules: the bound {name}={value!r} must be a pair (low, high) with low <= high")
    try:
        low, high = (param.check(end) for end in value)
    except BadInput as error:
        raise BadInput(f"sample_rules: the bound {name}={value!r}: {error}") from None
    return range(low, high + 1)
