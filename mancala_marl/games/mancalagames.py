"""Read a game file of MancalaGames (StoneShark's catalogue of 141 traditional games) as a point
of the two-row family (:mod:`mancala_marl.games.family`).

A file is a JSON object (``game_class``, ``game_constants`` with ``holes`` and ``nbr_start``,
``game_info`` with the rule options that differ from MancalaGames' defaults) followed by text
sections. Each option is mapped to our parameters; an option, or a value of one, that the family
does not play is refused in one line naming it. A game of rounds won by seeds, whose next round
is filled from either end of a row or both, with closed holes or without, is played as a whole
match (``rounds="match"``: who starts each round and how many holes end it are read too), as is a
game of equal starts whose rounds a tally of round wins or points decides (Gelech, Urim). The
other games of rounds are their first round: a game whose rounds another tally counts (seeds,
extra seeds, wins by clearing, depriving, immobilizing), or whose rounds start from a pattern or at
random, won as that round is won; a game of territories; a game refilled evenly or by the
players' choice. A start pattern is our ``start`` with player_0
as the starter; MancalaGames' random start shares out ``nbr_start`` seeds in all, ours ``seeds`` a
hole, so such a file is played only where its count fills the holes evenly.

Where MancalaGames plays a rule otherwise than the sources its files cite, the importer follows
MancalaGames (the named games, :mod:`mancala_marl.games.named`, follow the sources):

- In a game whose mover chooses the way to sow (``udir_holes``) over a fixed way (CW or CCW), a
  chain of captures runs against the game's way, whatever way the move went (``chain="cw"`` or
  ``"ccw"`` here), where the sources run it back along the move's own sowing.
- With laps from the next hole and sowing into the store (STOP_STORE), a lap ending beside the
  mover's store goes on from the store, sowing the seeds it held.
- Outward (SPLIT) sowing forbids moving a lone seed straight back across the end of the rows, a
  rule of MancalaGames' own.
- ``Kalah.txt`` wins outright at more than half the seeds and ends only when the mover cannot
  move (our ``kalah`` sweeps the board when either side is empty).

Nothing of MancalaGames is imported here: its files are data, read by the rules written below.
"""

from __future__ import annotations

import json
from pathlib import Path

from mancala_marl.errors import BadInput
from .family import Family
from .family_space import ChildHoles, MOST_SEEDS_ONLY, PARAMETERS, Start
from .family_start import start_total

# MancalaGames' option defaults (a file names only what differs from them)
DEFAULTS = {
    "goal": 0, "goal_param": 0, "end_cond": 0, "end_param": 0, "mustpass": False, "rounds": 0,
    "round_starter": 0, "round_fill": 0, "no_sides": False, "stores": False, "start_pattern": 0,
    "prescribed": 0, "unclaimed": 0, "quitter": 4, "play_locs": 0, "min_move": 1, "allow_rule": 0,
    "mustshare": False, "sow_direct": 1, "sow_start": False, "move_one": False, "skip_start": False,
    "sow_stores": 0, "blocks": False, "mlaps": 0, "mlap_cont": 0, "mlap_param": 0, "child_cvt": 0,
    "child_type": 0, "child_rule": 0, "child_locs": 0, "presowcapt": 0, "sow_rule": 0, "sow_param": 0,
    "udir_holes": [], "capt_dir": 0, "capt_side": 0, "moveunlock": False, "evens": False, "capt_min": 0,
    "capt_max": 0, "nosinglecapt": False, "nocaptmoves": 0, "capt_type": 0, "crosscapt": 0, "xc_sown": False,
    "xcpickown": 0, "pickextra": 0, "multicapt": 0, "grandslam": 0, "capt_rturn": 0, "capt_on": [],
}
TEXT_ONLY = {"name", "about", "help_file"}
# option -> {value in the file: our value}; a value not listed is refused
CHOICES = {
    "sow_direct": ("direction", {1: "ccw", -1: "cw", 0: "outward", 4: "inward", 3: "by_parity", 2: "opposed"}),
    "sow_stores": ("sow_store", {0: False, 1: True, 2: True, 6: True}),
    "mlaps": ("laps", {0: "single", 1: "relay", 2: "next"}),
    # a territory's holes are its side's in the first round: OPP_TERR, OWN_TERR are the sides
    "capt_side": ("capture_side", {0: "both", 1: "opponent", 2: "own", 3: "opponent_first", 4: "own_first",
                                   5: "opponent", 6: "own"}),
    "crosscapt": ("cross_capture", {0: False, 1: True, 3: True}),
    "xcpickown": ("take_own", {0: "leave", 1: "on_capture", 2: "always"}),
    "capt_dir": ("chain", {0: "backward", 1: "forward"}),
    "grandslam": ("grand_slam", {0: "legal", 1: "illegal", 2: "no_capture", 3: "opponent_gets_row", 4: "leave_left",
                                 5: "leave_right", 6: "extra_turn"}),
    "capt_rturn": ("capture_extra_turn", {0: False, 1: True, 2: True}),
    "end_cond": ("end_cleared", {0: "no", 1: "own", 2: "opponent", 3: "no"}),
    # STOP_STORE is ours: a lap ending in the store stops there (another turn)
    "mlap_cont": ("lap_rule", {0: "any", 1: "count_is", 2: "count_at_least", 3: "own_side", 4: "opponent_side",
                               6: "any"}),
    "allow_rule": ("move_rule", {0: "any", 1: "opponent_or_empty", 2: "single_to_empty", 3: "singles_last",
                                 9: "every_hole_first", 10: "not_across_ones", 11: "to_occupied"}),
    "presowcapt": ("pre_capture", {0: "none", 1: "one_seed", 2: "across_ones", 3: "across_lone"}),
    "sow_rule": ("passing", {0: "none", 3: "owner", 4: "owner_all", 14: "sower", 15: "sower_own", 16: "sower_opponent",
                             8: "none", 7: "none", 9: "none", 10: "none", 11: "none", 1: "none", 2: "none",
                             12: "none"}),
    "pickextra": ("take_last_by", {0: "mover", 1: "mover", 2: "mover", 3: "mover", 4: "first", 5: "mover"}),
}
# CaptType -> our capture_kind, beside two out (capture_gap)
KIND_OF = {1: "next", 4: "singles", 5: "opponent_counts", 6: "store_to_opponent", 7: "pull_across",
           8: "opponent_store"}
# SowStores: how the opponent's store is sown (BOTH, BOTH_NR_OPP: another turn in the own store only)
OPPONENT_STORE_OF = {0: "passed", 1: "passed", 2: "sown", 6: "sown_no_turn"}
LEFTOVER_OF = {0: "owner", 1: "nobody", 2: "mover", 4: "divided"}
# A refusal says, in a player's words, what the file asks that is not played: by option and value,
# by option, and for the other game classes (the file's option and value follow, for developers)
VALUE_WORDS = {("capt_dir", 2): "chains of captures that run both ways from the last hole",
               ("child_type", 7): "holes of no one's that captures clear"}
OPTION_WORDS = {
    "sow_direct": "another way of sowing", "sow_stores": "another way of sowing the stores",
    "mlaps": "another kind of laps", "capt_side": "captures from other rows",
    "crosscapt": "another capture across the board", "xcpickown": "another rule for the seed that captures across",
    "capt_dir": "another way for a chain of captures", "grandslam": "another grand slam rule",
    "capt_rturn": "another extra turn after a capture", "end_cond": "another end of the game",
    "mlap_cont": "another rule for sowing on", "allow_rule": "another rule of which holes may be played",
    "presowcapt": "another capture before the sowing", "sow_rule": "another sowing rule",
    "pickextra": "another take after a capture", "goal": "another way of winning", "rounds": "rounds of another kind",
    "start_pattern": "another start", "child_type": "another kind of owned hole",
    "child_rule": "another rule of which row holes are owned in",
    "child_locs": "another pattern of the holes that may be owned",
    "unclaimed": "another sharing of the seeds left at the end", "capt_type": "another kind of capture",
}
GAME_CLASS_WORDS = {
    "NorthSouthCycle": "each player sowing round their own row alone", "EastWestCycle": "each player sowing round "
    "their own half of the board", "NSGratuitous": "captures handed to the opponent, each player sowing their own "
    "row", "EWGratuitous": "captures handed to the opponent, each player sowing their own half",
    "ZigZag": "sowing that zigzags between the rows", "BearOff": "seeds borne off the board once only lone seeds "
    "are left", "Diffusion": "Diffusion's sowing round the hole played", "ShareOne": "a single seed handed to an "
    "opponent without seeds, before the move", "NoSides": "moves from any hole, whoever's side it is on",
}
NOT_PLAYED = {  # options the family does not play yet, at any value but the default
    "prescribed": "a prescribed opening",  # but NO_UDIR_FIRSTS (fixed_way_turns), read below
    "play_locs": "moves from the stores", "no_sides": "moves from any hole, whoever's side it is on",
    "xc_sown": "cross captures only after sowing round the opponent's row",
}
# ChildType -> our children (RAM, 7: holes of no one's, which captures clear, is not played)
CHILD_OF = {0: "none", 1: "normal", 3: "one", 4: "weg", 5: "bull", 6: "qur"}
# ChildRule -> our child_side; a territory's owners are the sides in the first round
CHILD_SIDE_OF = {0: "any", 1: "opponent", 2: "own"}
TERRITORY_CHILD_SIDE_OF = {4: "opponent", 5: "own"}
# SowRule -> our child_sowing (NO_OPP_CHILD, OPP_CHILD_ONLY1)
CHILD_SOWING_OF = {9: "skip_opponent", 11: "skip_opponent_but_last"}
# StartPattern -> our start (family_start says each); the others are refused
START_OF = {0: "equal", 1: "gamacha", 3: "alternate_one", 4: "triples", 5: "two_empty", 6: "random",
            7: "alternate_split", 8: "plus_one", 9: "rightmost_first"}
# MancalaGames' goal: ours. A game of rounds counted by a tally (RND_WIN_COUNT_*, RND_SEED_COUNT,
# RND_EXTRA_SEEDS, RND_POINTS) that is not a match (TALLY_OF) is its first round here, won as a round
# is: by seeds, or by the elimination its tally counts (CLR, DEP, IMB); TERRITORY's first round is won by seeds
GOAL_OF = {0: "most_seeds", 2: "most_seeds", 4: "most_seeds", 5: "most_seeds", 6: "most_seeds", 7: "most_seeds",
           1: "deprive", 9: "deprive", 3: "clear", 8: "clear", 10: "immobilize", 11: "immobilize"}
# RoundFill -> our round_fill (NOT_APPLICABLE fills from both ends); RoundStarter -> our round_starter
FILL_OF = {0: "outside", 1: "left", 2: "right"}
STARTER_OF = {0: "alternate", 1: "loser", 2: "winner", 3: "last_mover"}
# a tally of rounds won by seeds (RND_WIN_COUNT_MAX, RND_POINTS), each round started afresh: our match_end
TALLY_OF = {4: "round_wins", 7: "points"}
ROUNDS = {0: "none", 1: "half seeds", 2: "no moves", 3: "seeds limit", 4: "double seeds limit"}


def read_file(path) -> dict:
    """The JSON object at the head of a MancalaGames game file (its text sections left out)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise BadInput(f"cannot read the MancalaGames file {str(path)!r}: {error.strerror or error}") from None
    try:
        data, _ = json.JSONDecoder().raw_decode(text.lstrip())
    except json.JSONDecodeError as error:
        raise BadInput(f"{path.name} is not a MancalaGames game file: its head is not JSON ({error.msg}, "
                       f"line {error.lineno})") from None
    if not isinstance(data, dict) or not isinstance(data.get("game_info"), dict):
        raise BadInput(f"{path.name} is not a MancalaGames game file: no game_info object")
    return data


def family_params(data: dict, name: str = "the game") -> dict:
    """Our :class:`~mancala_marl.games.family.Family` parameters for a MancalaGames game (the
    object :func:`read_file` returns), or BadInput naming the first option the family cannot play."""
    game_class = data.get("game_class", "Mancala")
    if game_class not in ("Mancala", "NorthSouthCycle"):  # NorthSouthCycle: our sow_own_row
        what = GAME_CLASS_WORDS.get(game_class, "a game of another class than two-row sowing")
        raise BadInput(f"{name} asks for {what}, which is not played here (game_class {game_class!r})")
    constants = data.get("game_constants", {})
    holes, seeds = constants.get("holes", 3), constants.get("nbr_start", 4)
    given = data["game_info"]
    unknown = sorted(set(given) - set(DEFAULTS) - TEXT_ONLY)
    if unknown:
        raise BadInput(f"{name}: unknown option {unknown[0]!r} (not a MancalaGames option this importer knows)")
    info = {**DEFAULTS, **{key: value for key, value in given.items() if key not in TEXT_ONLY}}

    def refuse(option, why=""):
        value = info[option]
        key = (option, value if isinstance(value, int) else None)
        what = why or VALUE_WORDS.get(key) or OPTION_WORDS[option]
        raise BadInput(f"{name} asks for {what}, which is not played here ({option}={value!r})")

    for option, what in NOT_PLAYED.items():
        if info[option] != DEFAULTS[option] and (option, info[option]) != ("prescribed", 6):
            refuse(option, what)
    if info["goal"] not in GOAL_OF:
        refuse("goal")
    if info["goal"] == 2 and info["grandslam"] == 1:
        refuse("grandslam", "an illegal grand slam in a game of territories")
    # seeds: MancalaGames' nbr_start, which its rules read (a random start's seeds in all)
    params = {"holes": holes, "seeds": seeds, **start_params(info, holes, seeds, refuse)}
    chosen = sorted(info["udir_holes"])  # holes counted from the mover's left, whose way the mover chooses
    # must-share tries each way of a chosen hole, but then offers both ways of a hole that feeds either way
    params["share_either_way"] = bool(chosen and info["mustshare"])
    params["fixed_way_turns"] = 2 if info["prescribed"] == 6 else 0  # NO_UDIR_FIRSTS: each player's first turn
    params["locked_holes"] = bool(info["moveunlock"])
    params["sow_own_row"] = game_class == "NorthSouthCycle"
    if chosen and info["sow_direct"] == 2:
        refuse("udir_holes", "a chosen way of sowing beside opposed ways")
    if chosen == list(range(holes)):
        params["choose_direction"] = "all"
    elif chosen == [holes // 2] and holes % 2:
        params["choose_direction"] = "middle"
    elif chosen == [0, holes // 2, holes - 1] and holes % 2 and holes > 2:
        params["choose_direction"] = "ends_and_middle"
    elif chosen:
        refuse("udir_holes", "a chosen way of sowing for some holes only")
    for option, (ours, values) in CHOICES.items():
        value = info[option]
        if isinstance(value, bool):
            value = int(value)
        if value not in values:
            refuse(option)
        params[ours] = values[value]
    if chosen and info["sow_direct"] in (1, -1) and info["capt_dir"] == 0 and (info["multicapt"] or info["capt_type"] == 1):
        # MancalaGames runs these chains against the game's own way, not the way the move chose
        params["chain"] = "cw" if info["sow_direct"] == 1 else "ccw"
    if info["capt_dir"] == 1 and not info["multicapt"] and not info["capt_type"]:
        params["chain"] = "backward"  # a single capture has no chain: the direction says nothing
    params.update(children_params(info, refuse))
    params.update(leftover_params(info, refuse))
    params.update(capture_type_params(info, refuse))
    params["opponent_store"] = OPPONENT_STORE_OF[info["sow_stores"]]
    if info["sow_stores"] in (2, 6) and info["mlaps"]:
        refuse("sow_stores", "laps sown into both stores")
    params["cross_chain"] = "any" if info["crosscapt"] == 3 else "empty"  # ONE_ANY
    params["no_capture_turns"] = int(info["nocaptmoves"])
    params["lap_capture"] = info["sow_rule"] in (8, 10, 12)  # LAP_CAPT, LAP_CAPT_OPP_GETS, LAP_CAPT_SEEDS
    # LAP_CAPT_SEEDS: the lap's capture sown on; MancalaGames stops its sowing once the opponent is bare
    # only where the board has no stores
    params["sow_captured"] = info["sow_rule"] == 12
    if params["sow_captured"] and info["stores"]:
        refuse("sow_rule", "captures sown on at each lap's end beside stores")
    params["last_seeds_to_opponent"] = info["sow_param"] if info["sow_rule"] == 10 else 0
    params["sow_max"] = info["sow_param"] if info["sow_rule"] == 7 else 0  # MAX_SOW
    # SOW_BLKD_DIV(_NR): holes closed for good at sow_param seeds (blocks marks them closed)
    if info["sow_rule"] in (1, 2) and not info["sow_param"]:
        refuse("sow_rule", "holes closed for good without the count that closes them")
    params["close_at"] = info["sow_param"] if info["sow_rule"] in (1, 2) else 0
    params["close_rightmost"] = info["sow_rule"] != 2
    params["take_across"] = info["pickextra"] == 1  # PICKCROSS
    params["take_final"] = info["pickextra"] == 5  # PICKFINAL
    if (info["capt_type"] == 5) != (info["pickextra"] == 2):  # CAPT_OPP_1CCW marks, PICKOPPBASIC takes
        refuse("capt_type" if info["capt_type"] == 5 else "pickextra",
               "a capture of the opponent's next hole apart from its take")
    if info["pickextra"] == 5 and info["capt_type"] == 2:
        refuse("pickextra", "the last hole sown taken after a capture across a gap")
    params["extra_turn_once"] = info["capt_rturn"] == 2  # ONCE
    if params["lap_capture"] and info["mlaps"] != 1:
        refuse("sow_rule", "captures at each lap's end without relay sowing")
    # the last few seeds: one hole's worth taken by the mover, two holes' by the round's starter
    params["take_last"] = {3: seeds, 4: 2 * seeds}.get(info["pickextra"], 0)
    if info["mlaps"] == 2 and info["sow_stores"] and info["mlap_cont"] != 6:
        refuse("mlaps", "sowing on from the next hole past a lap that ends in the store")
    if info["mlaps"] == 0 and info["mlap_cont"]:
        params["lap_rule"] = "any"  # no laps: MancalaGames reads no lap rule
    params["lap_count"] = info["mlap_param"] if params["lap_rule"].startswith("count") else 0
    if params["passing"] != "none" and info["sow_stores"]:
        refuse("sow_rule", "captures as the seeds pass, beside sowing into the stores")
    params.update(skip_origin=bool(info["skip_start"]), leave_one=bool(info["sow_start"]),
                  move_one=bool(info["sow_start"] and info["move_one"]),
                  min_seeds=int(info["min_move"]), must_share=bool(info["mustshare"]),
                  must_pass=bool(info["mustpass"]), no_single_capture=bool(info["nosinglecapt"]))
    total = int(start_total(Start[params["start"].upper()], holes, params["seeds"]))
    params.update(capture_counts(info, total, refuse))
    multi = info["multicapt"]
    params["captures"] = 0 if multi < 0 else max(multi, 1)

    rounds = info["rounds"]
    if rounds not in ROUNDS:
        refuse("rounds")
    params["win_short"] = 0
    params["end_seeds_left"] = info["end_param"] if info["end_cond"] == 3 else -1
    if rounds == 2:  # no moves: the round goes on until the loser cannot fill goal_param holes
        # (a start pattern, or UMOVE's refill, plays on to the last seed but one)
        params["win_short"] = seeds * max(info["goal_param"], 1) \
            if info["goal"] == 0 and info["round_fill"] != 7 and not info["start_pattern"] else 1
    elif info["goal"] == 2:  # territory: a round is won outright by enough seeds to claim goal_param holes
        needed = info["goal_param"] * seeds if info["round_fill"] in (12, 13) else \
            (info["goal_param"] - 1) * seeds + seeds // 2 + 1
        if not 0 < needed < total:
            refuse("goal_param", "a territory that no one, or anyone, wins at once")
        params["win_short"] = total - needed
    elif rounds in (3, 4):  # the round ends when one or two holes' worth of seeds are left
        params["win_short"] = 1
    if rounds in (3, 4) and info["pickextra"] not in (3, 4):  # else the last seeds are picked up instead
        params["end_seeds_left"] = seeds * (rounds - 2)
    params["end_below"] = no_change_below(info, total)
    quitter = info["quitter"]
    if info["mlaps"] and GOAL_OF[info["goal"]] == "most_seeds":  # the quitter shares out an endless sowing's board
        # (DIVVIED without stores shares the seeds into the children)
        if quitter not in LEFTOVER_OF or (quitter == 4 and not info["stores"] and not info["child_type"]):
            refuse("quitter", "another sharing of the board after an endless sowing")
        params["endless_leftover"] = LEFTOVER_OF[quitter]
    if info["end_cond"] == 4:
        refuse("end_cond")
    if info["round_fill"] == 10:  # LOSER_ONLY
        refuse("round_fill", "rounds that end counting the seeds left in each row where they lie")
    params["goal"] = GOAL_OF[info["goal"]]
    params.update(match_params(info))
    if params["goal"] != "most_seeds":  # MancalaGames reads none of the most-seeds ends (nor end_cond) for these
        params.update({param.name: param.default for param in PARAMETERS if param.name in MOST_SEEDS_ONLY})
    return params


def match_params(info: dict) -> dict:
    """A game of rounds won by seeds, refilled from either end or both (with closed holes or not), is
    played as a match (:mod:`mancala_marl.games.family_rounds`), as is a game of equal starts whose
    rounds a tally of round wins or points decides; the other games of rounds are their first round."""
    if not info["rounds"] or info["round_fill"] not in FILL_OF or info["child_type"]:
        return {}
    starter = STARTER_OF[info["round_starter"]]
    if info["goal"] in TALLY_OF and not info["start_pattern"] and not info["round_fill"]:
        return {"rounds": "match", "round_starter": starter, "match_end": TALLY_OF[info["goal"]],
                "match_target": max(int(info["goal_param"]), 1)}
    if info["goal"] != 0:
        return {}
    return {"rounds": "match", "round_fill": FILL_OF[info["round_fill"]], "closed_holes": bool(info["blocks"]),
            "round_starter": starter, "match_holes": max(int(info["goal_param"]), 1)}


def start_params(info: dict, holes: int, seeds: int, refuse) -> dict:
    """MancalaGames' start pattern as our ``start``. Its random start shares out ``nbr_start``
    seeds in all, where ours shares ``seeds`` a hole: the file's count must fill the holes evenly."""
    pattern = info["start_pattern"]
    if pattern not in START_OF:
        refuse("start_pattern")
    if START_OF[pattern] != "random":
        return {"start": START_OF[pattern]}
    if seeds % (2 * holes):
        refuse("start_pattern", f"a random start of {seeds} seeds, which {2 * holes} holes cannot share evenly")
    return {"start": "random", "seeds": seeds // (2 * holes)}


def children_params(info: dict, refuse) -> dict:
    """MancalaGames' children (``child_type``, ``child_cvt``, ``child_rule``, ``child_locs``, the
    sow rules that pass over children) as ours; a game of children without stores puts its
    captures into them (``child_stores``)."""
    kind = info["child_type"]
    if kind not in CHILD_OF:
        refuse("child_type")
    sowing = CHILD_SOWING_OF.get(info["sow_rule"], "into")
    if kind == 0:
        if sowing != "into":
            refuse("sow_rule", "passing over owned holes in a game without them")
        return {}
    rule = info["child_rule"]
    side = TERRITORY_CHILD_SIDE_OF.get(rule) if info["goal"] == 2 else None
    side = side or CHILD_SIDE_OF.get(rule)
    if side is None:
        refuse("child_rule")
    holes = ChildHoles(info["child_locs"]).name.lower() if 0 <= info["child_locs"] < len(ChildHoles) else None
    if holes is None:
        refuse("child_locs")
    return {"children": CHILD_OF[kind], "child_count": 0 if holes == "fixed_right" else int(info["child_cvt"]),
            "child_side": side, "child_holes": holes, "child_sowing": sowing, "child_stores": not info["stores"]}


def leftover_params(info: dict, refuse) -> dict:
    """Who takes the seeds left at the end: MancalaGames' ``unclaimed``; with UNFED_PLAYER, the
    unfed player at a must-share end and the ``quitter`` rule at any other end."""
    unclaimed = info["unclaimed"]
    if unclaimed != 3:
        if unclaimed not in LEFTOVER_OF:
            refuse("unclaimed")
        return {"leftover": LEFTOVER_OF[unclaimed], "unfed_takes": False}
    if info["quitter"] not in LEFTOVER_OF:
        refuse("quitter", "another sharing of the seeds left at an end other than must-share's")
    return {"leftover": LEFTOVER_OF[info["quitter"]],
            "unfed_takes": bool(info["mustshare"] and not info["mustpass"])}


def capture_type_params(info: dict, refuse) -> dict:
    """MancalaGames' ``capt_type``: none, or TWO_OUT (across an empty hole), which runs along the
    sowing unless a chain of captures turns it back."""
    if info["capt_type"] in KIND_OF:  # SINGLETONS, PASS_STORE_CAPT, PULL_ACROSS
        return {"capture_gap": False, "capture_kind": KIND_OF[info["capt_type"]]}
    if info["capt_type"] == 0:
        return {"capture_gap": False}
    if info["capt_type"] != 2:
        refuse("capt_type", "another kind of capture")
    if info["crosscapt"] or ((info["capt_on"] or info["evens"] or info["capt_min"] or info["capt_max"])
                             and not 3 <= info["sow_rule"] <= 4 and not 14 <= info["sow_rule"] <= 16):
        # counts with two-out captures are the passing captures' (the last hole's capture is two out)
        refuse("capt_type", "captures across a gap beside captures by count or across the board")
    backward = info["capt_dir"] == 0 and info["multicapt"]
    return {"capture_gap": True, "chain": "backward" if backward else "forward"}


def capture_counts(info: dict, total: int, refuse) -> dict:
    """MancalaGames' counts that capture (a list of counts, evens, a least and a most count) as our
    ``capture_min``, ``capture_max`` and ``capture_parity``, found by listing the counts each takes."""
    capt_on, evens, low, high = info["capt_on"], info["evens"], info["capt_min"], info["capt_max"]
    if not (capt_on or evens or low or high):
        return {"capture_min": 0, "capture_max": 0, "capture_parity": "any"}
    taken = [count for count in range(1, total + 1)
             if (not capt_on or count in capt_on) and (not evens or count % 2 == 0)
             and (not low or count >= low) and (not high or count <= high)]
    if not taken:
        refuse("capt_on", "captures by a count no hole can hold")
    first, last = taken[0], taken[-1]
    for parity, step in (("any", 1), ("even", 2), ("odd", 2)):
        if parity != "any" and first % 2 != (parity == "odd"):
            continue
        if taken == list(range(first, last + 1, step)):
            bounded = last < total  # a count above every seed of the board is no bound
            return {"capture_min": first, "capture_max": last if bounded else 0, "capture_parity": parity}
    refuse("capt_on", "capturing counts that are not a run of one parity")
    raise AssertionError("refuse raises")


def no_change_below(info: dict, total: int) -> int:
    """MancalaGames ends a game when fewer seeds are left than any capture needs (and some are):
    that least count, or 0 where the game's other rules end it first or no capture is by count."""
    children = info["child_type"] and info["child_type"] != 7
    weg_only = info["child_type"] == 4 and not any(info[name] for name in (
        "capt_max", "capt_min", "capt_on", "capt_type", "crosscapt", "evens", "sow_stores"))
    if (info["sow_stores"] or (info["mustshare"] and not info["mustpass"]) or info["end_cond"]
            or info["rounds"] in (3, 4) or info["pickextra"] in (3, 4) or (children and not info["stores"]) or weg_only):
        return 0
    needed = info["child_cvt"] if children else total  # (a game with a child never ends so: family_children)
    if info["evens"] or info["crosscapt"] or info["capt_type"] == 1:  # (NEXT)
        needed = min(2, needed)
    if info["capt_type"] == 2:  # two out: the hole beyond the gap, and the last one unless lapping
        needed = min(2 if info["mlaps"] else 3, needed)
    if info["capt_on"]:
        needed = min(info["capt_on"]) if info["evens"] else min(*info["capt_on"], needed)
    if info["capt_min"]:
        needed = info["capt_min"] if needed == total else max(info["capt_min"], needed)
    return needed if info["min_move"] < needed < total else 0


def load_mancalagames(path) -> Family:
    """The game a MancalaGames game file describes, as a :class:`Family` game (its first round,
    for a game of rounds). Raises BadInput in one line naming what the family does not play."""
    data = read_file(path)
    name = Path(path).name
    game = Family(**family_params(data, name))
    game.title = data["game_info"].get("name", Path(path).stem)
    game.source_file = str(path)
    return game


def load_played(folder) -> list[Family]:
    """The games of every MancalaGames file in ``folder`` (its ``GameProps``) that the family
    plays, in the files' name order; the others are left out (load_mancalagames says why)."""
    games = []
    for path in sorted(Path(folder).glob("*.txt")):
        try:
            games.append(load_mancalagames(path))
        except BadInput:
            continue
    return games
