"""The two-row family's refused combinations, as one table, and what its rule sets are drawn over.

Each of :data:`RULES` is one combination of parameters the family does not play (a parameter
that would do nothing, or two rules whose interplay no game has): when it applies, the message
``Family(...)`` refuses it with, the changes that make a drawn set keep to it, and an example.
``Family.__init__`` refuses the first row that a set breaks; the tests' generator
(``Family.param_strategy``) and :func:`mancala_marl.games.family.sample_rules` draw each
parameter over :data:`DRAWS` and repair the draw by the rows (:func:`repaired`); the tests check
each row with its example. A new rule that forbids a combination is one row here.

What stays out of the table needs the built game: a start in which no hole may be played, the
forced first move of ``start="rightmost_first"``, a random start that the move rule never lets
player_0 open (``Family.__init__`` and ``init_rows`` refuse those).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .family_children import CHILD_PARAMS, KEPT
from .family_space import MOST_SEEDS_ONLY, PARAMETERS, Start
from .family_start import FEWEST_HOLES, RANDOM_FLOOR, start_total

DEFAULTS = {param.name: param.default for param in PARAMETERS}
# the capture kinds that are the whole capture: no cross capture nor gap capture beside them
WHOLE_KINDS = ("singles", "pull_across", "opponent_counts", "next")


@dataclass(frozen=True)
class Rule:
    """A refused combination. ``breaks(params)``: whether a full set of parameters has it;
    ``says``: the refusal, a template formatted with the parameters (and ``total_seeds``, the
    seeds the start puts down); ``fix``: the values that make a set keep to it (the generator's
    repair); ``example``: values over the defaults that break this row alone."""

    breaks: Callable[[dict], bool]
    says: str
    fix: dict
    example: dict

    def message(self, params: dict) -> str:
        return self.says.format(**params, total_seeds=start_seeds(params))


def start_seeds(params: dict) -> int:
    return int(start_total(Start[params["start"].upper()], params["holes"], params["seeds"]))


def names_way(params: dict) -> bool:
    """Whether a move names its way (``Family.count_actions``: 2H actions)."""
    return params["choose_direction"] != "none" or params["direction"] == "opposed"


def has_children(params: dict) -> bool:
    return params["children"] != "none"


# a value of each parameter that the loops below refuse beside another goal, without children
# or with them, other than the value they ask for (each loop row's example)
_OTHER = {"end_seeds_left": 0, "end_cleared": "own", "early_win": False, "win_short": 1, "end_below": 1,
          "leftover": "mover", "unfed_takes": True, "endless_leftover": "owner", "win_sweep": True,
          "repetition_ends": True, "child_count": 2, "child_side": "opponent", "child_holes": "ends",
          "child_sowing": "skip_opponent", "child_stores": True, "children_bank": True, "lap_capture": True,
          "must_share": True, "capture_gap": True, "take_last": 1, "take_across": True, "goal": "deprive",
          "grand_slam": "illegal", "passing": "owner", "pre_capture": "one_seed", "capture_kind": "pull_across",
          "opponent_store": "sown", "take_final": True, "last_seeds_to_opponent": 1}
_GOAL = {"goal": "deprive", "must_share": False}  # another goal, with what it asks of the rest
_CHILDREN = {"children": "normal", "child_count": 2, "must_share": False}  # a game of children, likewise
_RANDOM = "with start='random' is not played: a drawn start must let every hole open the game (seeds >= 2, " \
          "min_seeds <= 2, grand_slam not 'illegal')"


def _beside_goal(name: str) -> Rule:
    return Rule(lambda p: p["goal"] != "most_seeds" and p[name] != DEFAULTS[name],
                f"{name}={{{name}!r}} does nothing with goal={{goal!r}}: no store count ends or wins the game",
                {name: DEFAULTS[name]}, {**_GOAL, name: _OTHER[name]})


def _without_children(name: str) -> Rule:
    return Rule(lambda p: not has_children(p) and p[name] != DEFAULTS[name],
                f"{name}={{{name}!r}} does nothing with children='none'", {name: DEFAULTS[name]}, {name: _OTHER[name]})


def _kept_beside_children(name: str) -> Rule:  # KEPT: the rules a game of children leaves as they are
    extra = {"sow_store": True} if name == "opponent_store" else {}
    return Rule(lambda p: has_children(p) and p[name] != KEPT[name],
                f"{name}={{{name}!r}} is not played with children={{children!r}}", {name: KEPT[name]},
                {**_CHILDREN, **extra, name: _OTHER[name]})


# a game of holes closed for good (close_at) captures nothing else: these are the family's "no capture"
NO_CAPTURE = {"capture_min": 0, "capture_max": 0, "cross_capture": False, "capture_gap": False,
              "capture_kind": "standard", "passing": "none", "pre_capture": "none", "take_last": 0,
              "lap_capture": False, "last_seeds_to_opponent": 0, "grand_slam": "legal", "no_single_capture": False,
              "capture_extra_turn": False, "take_across": False, "take_final": False}
# locked_holes: the captures that read no hole's lock (each takes holes of its own choosing)
UNLOCKED_TAKES = {"take_last": 0, "capture_kind": "standard", "take_own": "leave", "pre_capture": "none"}
_CLOSING = {"close_at": 3, **NO_CAPTURE, **_GOAL, "goal": "immobilize"}
# sow_captured (mikro tsoro): a relay whose only capture is across, at each lap's end, sown on
SOWN_CAPTURES = {**NO_CAPTURE, "laps": "relay", "lap_rule": "any", "lap_capture": True, "cross_capture": True,
                 "take_own": "leave", "sow_store": False, "children": "none", "close_at": 0}
ROUND_PARAMS = ("round_fill", "closed_holes", "round_starter", "match_holes", "match_end", "match_target")
_MATCH = {"rounds": "match"}
_TALLY = {"rounds": "match", "match_end": "round_wins"}
_ROUND_OTHER = {"round_fill": "left", "closed_holes": True, "round_starter": "loser", "match_holes": 2,
                "match_end": "points", "match_target": 3}


def _single_round(name: str) -> Rule:
    return Rule(lambda p: p["rounds"] == "one" and p[name] != DEFAULTS[name],
                f"{name}={{{name}!r}} does nothing with rounds='one'", {name: DEFAULTS[name]},
                {name: _ROUND_OTHER[name]})


def _start_holes(start: str, fewest: int) -> Rule:
    return Rule(lambda p: p["start"] == start and p["holes"] < fewest,
                f"start={{start!r}} needs at least {fewest} holes a side, got holes={{holes}}", {"start": "equal"},
                {"start": start, "holes": fewest - 1})


# In the order Family.__init__ reads them: the first row a set breaks is the refusal it gets.
RULES: tuple[Rule, ...] = (
    # the way of sowing
    Rule(lambda p: p["direction"] in ("outward", "inward") and p["holes"] % 2 and p["choose_direction"] == "none",
         "direction={direction!r} with an odd number of holes ({holes}) needs choose_direction='middle' or 'all': "
         "the middle hole has no way of its own", {"choose_direction": "middle"}, {"direction": "outward", "holes": 5}),
    Rule(lambda p: p["choose_direction"] in ("middle", "ends_and_middle") and not p["holes"] % 2,
         "choose_direction={choose_direction!r} needs an odd number of holes, got {holes}",
         {"choose_direction": "none"}, {"choose_direction": "middle"}),
    # a rule that would do nothing
    Rule(lambda p: not p["early_win"] and p["win_short"], "win_short={win_short} does nothing with early_win=False",
         {"win_short": 0}, {"early_win": False, "win_short": 1}),
    Rule(lambda p: p["slam_from_empty"] and p["grand_slam"] in ("legal", "illegal"),
         "slam_from_empty=True does nothing with grand_slam={grand_slam!r}", {"slam_from_empty": False},
         {"slam_from_empty": True}),
    Rule(lambda p: p["slam_avoided"] and p["grand_slam"] != "no_capture",
         "slam_avoided=True needs grand_slam='no_capture', got {grand_slam!r}", {"slam_avoided": False},
         {"slam_avoided": True}),
    Rule(lambda p: not p["early_win"] and p["win_sweep"], "win_sweep=True does nothing with early_win=False",
         {"win_sweep": False}, {"early_win": False, "win_sweep": True}),
    Rule(lambda p: p["direction"] == "opposed" and p["choose_direction"] != "none",
         "choose_direction={choose_direction!r} with direction='opposed': the first move already chooses",
         {"choose_direction": "none"}, {"direction": "opposed", "choose_direction": "all"}),
    Rule(lambda p: p["lap_rule"] != "any" and p["laps"] == "single",
         "lap_rule={lap_rule!r} needs laps: with laps='single' it does nothing", {"lap_rule": "any"},
         {"lap_rule": "own_side"}),
    Rule(lambda p: p["lap_count"] and not p["lap_rule"].startswith("count"),
         "lap_count={lap_count} does nothing with lap_rule={lap_rule!r}", {"lap_count": 0}, {"lap_count": 1}),
    # rules whose interplay no game has
    Rule(lambda p: p["pre_capture"] in ("across_ones", "across_lone") and p["laps"] != "single",
         "pre_capture={pre_capture!r} with laps={laps!r} is not played: only a move of one lap captures across "
         "before sowing", {"pre_capture": "none"}, {"pre_capture": "across_ones", "laps": "relay"}),
    Rule(lambda p: p["opponent_store"] != "passed" and not p["sow_store"],
         "opponent_store={opponent_store!r} needs sow_store=True", {"opponent_store": "passed"},
         {"opponent_store": "sown"}),
    Rule(lambda p: p["opponent_store"] != "passed" and p["laps"] != "single",
         "opponent_store={opponent_store!r} with laps={laps!r} is not played: a lap would start from a store",
         {"opponent_store": "passed"}, {"sow_store": True, "opponent_store": "sown", "laps": "relay"}),
    Rule(lambda p: p["capture_kind"] == "opponent_store" and p["opponent_store"] != "sown_no_turn",
         "capture_kind='opponent_store' needs opponent_store='sown_no_turn': a last seed there must end the turn "
         "to take it", {"capture_kind": "standard"}, {"capture_kind": "opponent_store"}),
    Rule(lambda p: p["take_final"] and p["capture_gap"],
         "take_final=True with capture_gap=True is not played: the hole taken is not the last one",
         {"take_final": False}, {"take_final": True, "capture_gap": True}),
    Rule(lambda p: p["capture_kind"] in WHOLE_KINDS and p["cross_capture"],
         "capture_kind={capture_kind!r} with cross_capture=True is not played: the kind is the capture",
         {"cross_capture": False}, {"capture_kind": "pull_across", "cross_capture": True}),
    Rule(lambda p: p["capture_kind"] in WHOLE_KINDS and p["capture_gap"],
         "capture_kind={capture_kind!r} with capture_gap=True is not played: the kind is the capture",
         {"capture_gap": False}, {"capture_kind": "pull_across", "capture_gap": True}),
    Rule(lambda p: p["capture_kind"] == "singles" and p["capture_min"],
         "capture_min={capture_min} does nothing with capture_kind='singles'", {"capture_min": 0},
         {"capture_kind": "singles"}),
    Rule(lambda p: p["last_seeds_to_opponent"] and p["passing"] != "none",
         "last_seeds_to_opponent={last_seeds_to_opponent} with passing={passing!r} is not played: a seed would be "
         "taken twice", {"last_seeds_to_opponent": 0}, {"last_seeds_to_opponent": 1, "passing": "owner"}),
    Rule(lambda p: p["move_one"] and not p["leave_one"], "move_one=True is not played with leave_one=False",
         {"move_one": False}, {"move_one": True}),
    Rule(lambda p: p["move_one"] and p["direction"] == "outward",
         "move_one=True is not played with direction='outward'",
         {"move_one": False}, {"move_one": True, "leave_one": True, "direction": "outward"}),
    # MancalaGames plays it oddly
    Rule(lambda p: p["passing"] != "none" and p["sow_store"],
         "passing captures with sow_store=True are not played: a store is not a hole to take", {"passing": "none"},
         {"passing": "owner", "sow_store": True}),
    # the start (family_start)
    *(_start_holes(start, fewest) for start, fewest in FEWEST_HOLES.items()),
    Rule(lambda p: p["start"] == "alternate_split" and p["holes"] % 2,
         "start='alternate_split' needs an even number of holes, got holes={holes}", {"start": "equal"},
         {"start": "alternate_split", "holes": 5}),
    Rule(lambda p: p["start"] == "rightmost_first" and names_way(p),
         "start='rightmost_first' is not played where a move names its way (its forced move names none)",
         {"start": "equal"}, {"start": "rightmost_first", "choose_direction": "all"}),
    # every hole of a random start keeps two seeds: then every hole opens the game
    Rule(lambda p: p["start"] == "random" and p["seeds"] < RANDOM_FLOOR, "seeds={seeds!r} " + _RANDOM,
         {"start": "equal"}, {"start": "random", "seeds": 1}),
    Rule(lambda p: p["start"] == "random" and p["min_seeds"] > RANDOM_FLOOR, "min_seeds={min_seeds!r} " + _RANDOM,
         {"start": "equal"}, {"start": "random", "min_seeds": 3}),
    Rule(lambda p: p["start"] == "random" and p["grand_slam"] == "illegal", "grand_slam={grand_slam!r} " + _RANDOM,
         {"start": "equal"}, {"start": "random", "grand_slam": "illegal"}),
    # Urim's full holes
    Rule(lambda p: p["sow_max"] and p["move_rule"] != "any",
         "sow_max={sow_max} with move_rule={move_rule!r} is not played: no game has both", {"sow_max": 0},
         {"sow_max": 10, "move_rule": "singles_last"}),
    Rule(lambda p: p["sow_max"] and p["laps"] == "next", "sow_max={sow_max} with laps='next' is not played: no "
         "game has both", {"sow_max": 0}, {"sow_max": 10, "laps": "next"}),
    Rule(lambda p: p["sow_max"] and (2 * p["holes"] - 1) * p["sow_max"] <= start_seeds(p),
         "sow_max={sow_max} is too small for {total_seeds} seeds on {holes} holes a side: every hole could be "
         "full, and a sowing would find no hole", {"sow_max": 0}, {"sow_max": 4}),
    # another goal than most seeds: what only ends or scores a most-seeds game stays at its default
    *(_beside_goal(param.name) for param in PARAMETERS if param.name in MOST_SEEDS_ONLY),
    Rule(lambda p: p["goal"] != "most_seeds" and p["must_share"],
         "must_share=True is not played with goal={goal!r}: pass must_share=False", {"must_share": False},
         {"goal": "deprive"}),
    Rule(lambda p: p["goal"] != "most_seeds" and p["must_pass"],
         "must_pass=True is not played with goal={goal!r}: pass must_pass=False", {"must_pass": False},
         {**_GOAL, "must_pass": True}),
    Rule(lambda p: p["goal"] == "clear" and (p["min_seeds"] > 1 or p["move_rule"] != "any"),
         "goal='clear' needs every hole of seeds playable: min_seeds={min_seeds} and move_rule={move_rule!r} "
         "(1 and 'any')", {"min_seeds": 1, "move_rule": "any"}, {**_GOAL, "goal": "clear", "min_seeds": 2}),
    # children (family_children): their parameters do nothing without them, and no game of
    # MancalaGames' has them beside the rules KEPT leaves as they are
    *(_without_children(name) for name in CHILD_PARAMS),
    *(_kept_beside_children(name) for name in KEPT),
    Rule(lambda p: has_children(p) and p["laps"] == "next", "laps={laps!r} is not played with children={children!r}",
         {"laps": "single"}, {**_CHILDREN, "laps": "next"}),
    Rule(lambda p: has_children(p) and p["child_holes"] == "fixed_right" and p["child_count"],
         "child_count={child_count} does nothing with child_holes='fixed_right': no child is made",
         {"child_count": 0}, {**_CHILDREN, "child_holes": "fixed_right"}),
    Rule(lambda p: p["children"] == "bull" and p["child_holes"] != "fixed_right" and p["child_count"] < 2,
         "children='bull' needs child_count >= 2, got {child_count}", {"child_count": 2},
         {**_CHILDREN, "children": "bull", "child_count": 1}),
    Rule(lambda p: p["children"] not in ("none", "bull") and p["child_holes"] != "fixed_right" and p["child_count"] < 1,
         "children={children!r} needs child_count >= 1, got {child_count}", {"child_count": 1},
         {**_CHILDREN, "child_count": 0}),
    # children_bank: a child then holds no seeds between moves, so nothing may read its count
    Rule(lambda p: p["children_bank"] and p["children"] == "weg",
         "children_bank=True is not played with children='weg': it reads the seeds a child keeps",
         {"children_bank": False}, {**_CHILDREN, "children": "weg", "children_bank": True}),
    Rule(lambda p: has_children(p) and p["children_bank"] and p["child_stores"],
         "children_bank=True is not played with child_stores=True: it reads the seeds a child keeps",
         {"children_bank": False}, {**_CHILDREN, "child_stores": True, "children_bank": True}),
    Rule(lambda p: has_children(p) and p["children_bank"] and p["sow_max"],
         "children_bank=True is not played with sow_max={sow_max}: a full child is passed over",
         {"children_bank": False}, {**_CHILDREN, "children_bank": True, "sow_max": 10}),
    # child_stores: the stores are not played
    Rule(lambda p: has_children(p) and p["child_stores"] and p["sow_store"],
         "child_stores=True (no stores) is not played with sow_store=True", {"sow_store": False},
         {**_CHILDREN, "child_stores": True, "sow_store": True}),
    Rule(lambda p: has_children(p) and p["child_stores"] and p["leftover"] == "divided",
         "leftover='divided' is not played with child_stores=True", {"leftover": "owner"},
         {**_CHILDREN, "child_stores": True, "leftover": "divided"}),
    Rule(lambda p: has_children(p) and p["child_stores"] and p["take_own"] == "always",
         "take_own='always' is not played with child_stores=True", {"take_own": "on_capture"},
         {**_CHILDREN, "child_stores": True, "take_own": "always"}),
    Rule(lambda p: (has_children(p) and p["child_stores"] and p["laps"] != "single"
                    and p["endless_leftover"] != "divided"),
         "endless_leftover={endless_leftover!r} is not played with child_stores=True (only 'divided')",
         {"endless_leftover": "divided"}, {**_CHILDREN, "child_stores": True, "laps": "relay",
                                           "endless_leftover": "owner"}),
    # a match of rounds (family_rounds): won by seeds, of holes only
    *(_single_round(name) for name in ROUND_PARAMS),
    Rule(lambda p: p["rounds"] == "match" and p["goal"] != "most_seeds",
         "rounds='match' is not played with goal={goal!r}: a match is won by seeds", {"rounds": "one"},
         {**_GOAL, **_MATCH}),
    Rule(lambda p: p["rounds"] == "match" and has_children(p),
         "rounds='match' is not played with children={children!r}", {"rounds": "one"}, {**_CHILDREN, **_MATCH}),
    Rule(lambda p: p["rounds"] == "match" and p["repetition_ends"],
         "rounds='match' is not played with repetition_ends=True", {"rounds": "one"},
         {**_MATCH, "repetition_ends": True}),
    # a match won by a tally starts each round afresh, as the game starts
    *(Rule(lambda p, name=name: p["match_end"] != "unfilled" and p[name] != DEFAULTS[name],
           f"{name}={{{name}!r}} does nothing with match_end={{match_end!r}}: each round starts afresh",
           {name: DEFAULTS[name]}, {**_TALLY, name: _ROUND_OTHER[name]})
      for name in ("round_fill", "closed_holes", "match_holes")),
    Rule(lambda p: p["rounds"] == "match" and p["match_end"] == "unfilled" and p["match_target"] != 1,
         "match_target={match_target} does nothing with match_end='unfilled'", {"match_target": 1},
         {**_MATCH, "match_target": 3}),
    Rule(lambda p: p["match_end"] != "unfilled" and p["start"] != "equal",
         "match_end={match_end!r} is played with start='equal' only (each round starts so), got {start!r}",
         {"start": "equal"}, {**_TALLY, "start": "two_empty"}),
    # the starter of a refilled round must have a move, as every hole it fills holds ``seeds``
    Rule(lambda p: p["rounds"] == "match" and p["move_rule"] != "any" and p["match_end"] == "unfilled",
         "rounds='match' is not played with move_rule={move_rule!r}: a round's starter might have no move",
         {"rounds": "one"}, {**_MATCH, "move_rule": "singles_last"}),
    Rule(lambda p: p["rounds"] == "match" and p["min_seeds"] > p["seeds"],
         "rounds='match' is not played with min_seeds={min_seeds} above seeds={seeds}: a round's starter might "
         "have no move", {"rounds": "one"}, {**_MATCH, "start": "plus_one", "min_seeds": 5}),
    Rule(lambda p: p["rounds"] == "match" and p["grand_slam"] == "illegal" and p["match_end"] == "unfilled",
         "rounds='match' is not played with grand_slam='illegal': a round's starter might have no move",
         {"rounds": "one"}, {**_MATCH, "grand_slam": "illegal"}),
    Rule(lambda p: p["match_holes"] > p["holes"],
         "match_holes={match_holes} is more holes than a row has ({holes}): the match could not go past its "
         "first round", {"match_holes": 1}, {**_MATCH, "match_holes": 7}),
    Rule(lambda p: p["share_either_way"] and not (p["must_share"] and names_way(p)),
         "share_either_way=True needs must_share=True and moves that name their way (choose_direction or "
         "direction='opposed')", {"share_either_way": False}, {"share_either_way": True}),
    Rule(lambda p: p["fixed_way_turns"] and not (p["choose_direction"] != "none" and p["direction"] in ("ccw", "cw")
                                                 and p["move_rule"] == "any"),
         "fixed_way_turns={fixed_way_turns} needs a chosen way (choose_direction) over one way of sowing (direction "
         "'ccw' or 'cw') and move_rule='any'", {"fixed_way_turns": 0}, {"fixed_way_turns": 2}),
    Rule(lambda p: p["move_rule"] == "every_hole_first" and (has_children(p) or p["rounds"] == "match"),
         "move_rule='every_hole_first' is not played with children or rounds='match': it marks the holes played",
         {"move_rule": "any"}, {**_TALLY, "move_rule": "every_hole_first"}),
    Rule(lambda p: p["locked_holes"] and (has_children(p) or p["rounds"] == "match" or p["close_at"]),
         "locked_holes=True is not played with children, rounds='match' or close_at: it marks the holes played",
         {"locked_holes": False}, {**_MATCH, "locked_holes": True}),
    Rule(lambda p: p["locked_holes"] and any(p[name] != value for name, value in UNLOCKED_TAKES.items()),
         "locked_holes=True is not played beside captures of their own choosing (pass "
         + ", ".join(f"{name}={value!r}" for name, value in UNLOCKED_TAKES.items()) + ")",
         {"locked_holes": False}, {"locked_holes": True, "take_last": 2}),
    Rule(lambda p: (p["locked_holes"] or p["move_rule"] == "every_hole_first") and p["repetition_ends"],
         "repetition_ends=True is not played with locked_holes or move_rule='every_hole_first': a position is "
         "more than its board there", {"repetition_ends": False}, {"locked_holes": True, "repetition_ends": True}),
    # holes closed for good (close_at): the closing is the game's only capture, as in Deka, Embeli, Nambayi
    Rule(lambda p: not p["close_at"] and not p["close_rightmost"], "close_rightmost=False does nothing with "
         "close_at=0", {"close_rightmost": True}, {"close_rightmost": False}),
    Rule(lambda p: p["close_at"] and p["goal"] not in ("deprive", "immobilize"),
         "close_at={close_at} needs goal='deprive' or 'immobilize', got {goal!r}: closing holes takes seeds out of "
         "play, and no store counts them", {"close_at": 0}, {**_CLOSING, "goal": "clear"}),
    Rule(lambda p: p["close_at"] and any(p[name] != value for name, value in NO_CAPTURE.items()),
         "close_at={close_at} is not played beside another capture: closing holes is the capture (pass "
         + ", ".join(f"{name}={value!r}" for name, value in NO_CAPTURE.items()) + ")",
         NO_CAPTURE, {**_CLOSING, "capture_min": 2}),
    Rule(lambda p: p["close_at"] and (p["sow_store"] or p["sow_max"] or p["laps"] == "next"),
         "close_at={close_at} is played with holes only, all of them sown, in one lap or relay laps: sow_store=False, "
         "sow_max=0 and laps other than 'next' (got {sow_store!r}, {sow_max}, {laps!r})",
         {"sow_store": False, "sow_max": 0, "laps": "single"}, {**_CLOSING, "laps": "next"}),
    Rule(lambda p: p["close_at"] and p["lap_rule"] != "any",
         "close_at={close_at} is not played with lap_rule={lap_rule!r}: a relay closes a hole only as it goes on "
         "from it", {"lap_rule": "any"}, {**_CLOSING, "laps": "relay", "lap_rule": "own_side"}),
    Rule(lambda p: p["close_at"] == 1 and p["laps"] == "relay",
         "close_at=1 with laps='relay' closes nothing: a relay ends in a hole it leaves holding one seed, and "
         "closes only a hole it sows on from", {"close_at": 2}, {**_CLOSING, "close_at": 1, "laps": "relay"}),
    Rule(lambda p: p["close_at"] and p["move_rule"] != "any",
         "close_at={close_at} is not played with move_rule={move_rule!r}", {"move_rule": "any"},
         {**_CLOSING, "move_rule": "to_occupied"}),
    # each player sowing round its own row (sow_own_row, MancalaGames' NorthSouthCycle): no seed reaches the opponent
    Rule(lambda p: p["sow_own_row"] and p["must_share"],
         "sow_own_row=True is not played with must_share=True: no move puts seeds in the opponent's row",
         {"must_share": False}, {"sow_own_row": True, "capture_side": "both"}),
    Rule(lambda p: p["sow_own_row"] and (p["opponent_store"] != "passed" or p["last_seeds_to_opponent"]
                                         or p["lap_rule"] in ("own_side", "opponent_side")),
         "sow_own_row=True does nothing with opponent_store={opponent_store!r}, last_seeds_to_opponent="
         "{last_seeds_to_opponent} or lap_rule={lap_rule!r}: every seed is sown in the mover's own row (pass "
         "'passed', 0 and a lap_rule of counts)", {"opponent_store": "passed", "last_seeds_to_opponent": 0,
                                                    "lap_rule": "any"},
         {"sow_own_row": True, "must_share": False, "capture_side": "both", "sow_store": True,
          "opponent_store": "sown"}),
    Rule(lambda p: p["sow_own_row"] and (has_children(p) or p["close_at"] or p["sow_max"]
                                         or p["move_rule"] == "to_occupied"),
         "sow_own_row=True is not played with children, close_at, sow_max or move_rule='to_occupied' (their "
         "counts are of the ring of both rows)", {"sow_own_row": False},
         {**_CHILDREN, "sow_own_row": True, "capture_side": "both"}),
    Rule(lambda p: p["sow_own_row"] and (p["passing"] == "sower_opponent" or (
            p["capture_min"] > 0 and p["capture_kind"] == "standard" and not p["cross_capture"]
            and not p["capture_gap"] and p["capture_side"] in ("opponent", "opponent_first"))),
         "sow_own_row=True does nothing with captures of the opponent's holes by count (capture_side="
         "{capture_side!r}) or as the seeds pass them (passing={passing!r}): the seeds never reach them (pass "
         "capture_side='own' or 'both', or capture across)", {"capture_side": "both", "passing": "none"},
         {"sow_own_row": True, "must_share": False}),
    # a lap's capture sown on (sow_captured, MancalaGames' LAP_CAPT_SEEDS): the captured seeds stay on the board
    Rule(lambda p: p["sow_captured"] and p["goal"] == "most_seeds",
         "sow_captured=True needs goal='deprive', 'clear' or 'immobilize': the captured seeds stay on the board, "
         "and no store counts them", _GOAL, {**SOWN_CAPTURES, "sow_captured": True}),
    Rule(lambda p: p["sow_captured"] and any(p[name] != value for name, value in SOWN_CAPTURES.items()),
         "sow_captured=True is played by a relay whose only capture is across, at each lap's end (pass "
         + ", ".join(f"{name}={value!r}" for name, value in SOWN_CAPTURES.items()) + ")",
         SOWN_CAPTURES, {**_GOAL, "sow_captured": True}),
)


def broken(params: dict) -> list[Rule]:
    """The rows a full set of parameters breaks, in the table's order."""
    return [rule for rule in RULES if rule.breaks(params)]


def refusal(params: dict) -> str:
    """Why ``Family`` refuses a full set of parameters by the table ('' when no row does)."""
    for rule in RULES:
        if rule.breaks(params):
            return rule.message(params)
    return ""


def repaired(params: dict) -> dict:
    """``params`` (the defaults for those it lacks) changed by each broken row's ``fix``, pass after pass
    until no row is broken (a fix may break a row above it: ``child_stores`` turns ``sow_store``
    off, after which ``opponent_store`` must be passed)."""
    params = {**DEFAULTS, **params}
    for _ in range(10):  # two passes settle every set so far
        rules = broken(params)
        if not rules:
            return params
        for rule in rules:
            if rule.breaks(params):  # an earlier fix may have mended it
                params.update(rule.fix)
    raise AssertionError(f"the family's rules table does not settle on {params}: its fixes undo one another")


# What the tests' generator and sample_rules draw each parameter from, uniformly: a number over its
# range here (sow_max, which has none, stays 0), a string over its choices, a bool over both values.
# goal: most_seeds is twice a choice, so that half the games or so play the usual goal; rounds: one
# round twice, so that a third or so are matches (which take longer to play out).
RANGES = {"holes": (2, 8), "seeds": (1, 5), "lap_count": (0, 4), "last_seeds_to_opponent": (0, 6),
          "min_seeds": (1, 1), "capture_min": (0, 4), "capture_max": (0, 4), "captures": (0, 2),
          "no_capture_turns": (0, 2), "take_last": (0, 4), "end_seeds_left": (-1, 3), "win_short": (0, 4),
          "end_below": (0, 4), "child_count": (2, 4), "match_holes": (1, 3), "match_target": (1, 3),
          "fixed_way_turns": (0, 2)}
# close_at: drawn beside the goals it needs (deprive, immobilize), three draws in ten of those close
# holes (and capture nothing else)
CLOSE_AT_DRAWS = (0, 0, 0, 0, 0, 0, 0, 1, 2, 3)
# sow_own_row: one game in five sows round its own row, whose players meet only in captures across
OWN_ROW_DRAWS = (False, False, False, False, True)
# sow_captured: one game in ten is a relay capturing across at each lap's end, sown on (the repair sets the rest)
SOWN_DRAWS = (False,) * 9 + (True,)
DRAWS: dict[str, range | tuple] = {
    param.name: CLOSE_AT_DRAWS if param.name == "close_at" else OWN_ROW_DRAWS if param.name == "sow_own_row"
    else SOWN_DRAWS if param.name == "sow_captured"
    else range(RANGES[param.name][0], RANGES[param.name][1] + 1) if param.type is int
    else ("most_seeds", *param.choices) if param.name == "goal" else ("one", *param.choices) if param.name == "rounds"
    else param.choices or (False, True)
    for param in PARAMETERS if param.type is not int or param.name in RANGES or param.name == "close_at"}


def draw(rng, draws: dict) -> dict:
    """One value of each of ``draws`` (a dict as :data:`DRAWS`) from a numpy Generator."""
    return {name: values[int(rng.integers(len(values)))] for name, values in draws.items()}


def strategy(st, draws: dict):
    """A hypothesis strategy of dicts, each of ``draws`` (a dict as :data:`DRAWS`) drawn over its values."""
    return st.fixed_dictionaries({name: st.integers(values.start, values.stop - 1) if isinstance(values, range)
                                  else st.sampled_from(values) for name, values in draws.items()})
