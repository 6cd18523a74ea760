"""A two-row game's rules in a player's words, written from its parameters (``Game.rules_text``).

:func:`describe` turns a rule set of the family (:mod:`mancala_marl.games.family`, whose docstring
is the developer's account of the same rules) into short paragraphs: the board and the start, a
move, captures, the holes a player comes to own, turns, and the end. The package's four games are
points of the family (``kalah_rules``...), so they are described the same way, in their own words
for holes and seeds. Each sentence is written only where its rule takes part, so that two rule sets
that play alike read alike and a rule that changes play changes the text (the tests hold it to
both); a choice that every game makes the plain way (seeds dropped into the hole a lap started
from, say) is left unsaid rather than spelled out each time.
"""

from __future__ import annotations

from .family_rules import DEFAULTS, has_children, start_seeds
from .family_space import MAX_LAPS, MOVE_LIMIT
from .family_start import start_rows

SIDE = {"both": "either row", "opponent": "the opponent's row", "own": "their own row",
        "opponent_first": "the opponent's row", "own_first": "their own row"}
# the hole a last seed must fall in for a cross capture, by capture_side (which names the row taken
# from; a *_first rule names the last hole's row instead, the chain then running on either row)
ACROSS_FROM = {"both": "on either row", "opponent": "of their own", "own": "of the opponent's",
               "opponent_first": "of the opponent's", "own_first": "of their own"}
PLAIN_SIDE = {"opponent_first": "opponent", "own_first": "own"}
# sow_own_row: the one-way sowings, which never reach the opponent's row
OWN_ROW_WAY = {"ccw": "counter-clockwise (rightward along their own row)",
               "cw": "clockwise (leftward along their own row)"}
WAY = {"ccw": "counter-clockwise (rightward along their own row, then along the opponent's)",
       "cw": "clockwise (leftward along their own row, then along the opponent's)",
       "outward": "away from the middle of their row: a hole of the left half sows clockwise "
                  "(leftward), one of the right half counter-clockwise",
       "inward": "towards the middle of their row: a hole of the left half sows counter-clockwise "
                 "(rightward), one of the right half clockwise",
       "by_parity": "counter-clockwise (rightward along their own row) from a {h} of an odd number of {s}s, "
                    "clockwise from one of an even number",
       "opposed": "the way the first move of the game chose: that player sows it for the whole game and "
                  "the other player the other way"}
LEFTOVER = {"owner": "each player takes the {s}s left on their own row",
            "mover": "the player who moved last takes the {s}s left on the board",
            "divided": "the {s}s left on the board are shared evenly (an odd one to the player with fewer "
                       "in store, the second if level)",
            "nobody": "the {s}s left on the board leave the game"}
CHILD_MADE = {"normal": "a last {s} that makes a {h} hold exactly {c} {s}s makes it the player's",
              "one": "a last {s} that makes a {h} hold exactly {c} {s}s makes it the player's, if they own "
                     "none yet",
              "weg": "a last {s} that makes a {h} hold exactly {c} {s}s makes it the player's",
              "bull": "a last {s} that makes a {h} hold exactly {c} {s}s makes it the player's, and so do a "
                      "last {h} and the one sown before it holding {c_less} and {c} {s}s, in either order",
              "qur": "a last {s} in an empty {h} across from one of exactly {c} {s}s makes both the "
                     "player's"}
CHILD_HOLES = {
    "ends": "Only the end {h}s of a row can be owned.",
    "no_ends": "An end {h} of a row is never owned.",
    "inner_own": "A player can own inner {h}s only on their own row, and end {h}s only on the opponent's.",
    "ends_next_opponent": "A player can own the end {h}s of either row, and those next to them on the opponent's "
                          "row only.",
    "ends_inner_opponent": "A player can own the end {h}s of either row, and the inner ones on the opponent's "
                           "row only.",
    "no_own_right": "A player never owns their own rightmost {h}.",
    "no_opponent_right": "A player never owns the opponent's leftmost {h} (as the opponent sees their row).",
    "no_opponent_left": "A player never owns the opponent's rightmost {h} (as the opponent sees their row).",
    "not_symmetric": "A player never owns the opponent's rightmost {h} (as the opponent sees their row), nor "
                     "the {h} in the same place as one already owned across the board.",
    "not_facing": "A player never owns the opponent's leftmost {h} (as the opponent sees their row), nor a {h} "
                  "across from one already owned."}


def rules_text(game) -> str:
    """``game.rules_text()``, every game's: the rules in a player's words, its family point
    (``game.family_rules()``) described with its own words for pits and seeds, then its ``terms``.
    The rules module's docstring is the developer's account of the same rules."""
    text = describe(game.family_rules(), game.pit_word[:-1], game.seed_word[:-1])
    return f"{text}\n\n{game.terms}" if game.terms else text


def describe(params: dict, hole: str = "hole", seed: str = "seed") -> str:
    """The rules of the family's rule set ``params`` (every parameter given) as paragraphs of plain
    sentences, holes and seeds called ``hole`` and ``seed`` (singular)."""
    p = {**DEFAULTS, **params}
    words = {"h": hole, "s": seed}
    parts = [board(p), move(p), captures(p), children(p), turns(p), ending(p), match(p)]
    return "\n\n".join(" ".join(s.format(**words) for s in part) for part in parts if part)


def counted(n: int, thing: str) -> str:
    return f"{n:,} {thing}" + ("" if n == 1 else "s")


def are(n: int) -> str:
    return "is" if n == 1 else "are"


def spoken_list(items) -> str:
    items = [str(i) for i in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def least_count(p: dict) -> int:
    """The least count a capture takes: capture_min (1 at least), raised to the parity's."""
    low, parity = max(p["capture_min"], 1), p["capture_parity"]
    return low + (parity != "any" and (low % 2 == 0) != (parity == "even"))


def counts(p: dict) -> str:
    """The counts a capture takes, as a phrase that follows "holding": "2 or 3 {s}s"."""
    high, parity = p["capture_max"], p["capture_parity"]
    step = 1 if parity == "any" else 2
    first = least_count(p)
    if high and high < first:
        return "no number of {s}s"
    if high and (high - first) // step < 4:
        return spoken_list(range(first, high + 1, step)) + " {s}" + ("" if high == 1 else "s")
    kind = {"any": "", "even": "an even number of ", "odd": "an odd number of "}[parity]
    if high:
        return f"{kind}{first} to {high} {{s}}s" if kind == "" else f"{kind}{{s}}s from {first} to {high}"
    return f"{kind}{{s}}s, at least {first}" if kind else f"at least {first} {{s}}{'s' if first > 1 else ''}"


def never_by_count(p: dict) -> bool:
    """Whether the capture counts take no count at all (a bound below the least, an odd 2..2): then
    nothing that asks for them ever captures."""
    return p["capture_min"] > 0 and 0 < p["capture_max"] < least_count(p)


def board(p: dict) -> list[str]:
    holes, seeds, start = p["holes"], p["seeds"], p["start"]
    total = start_seeds(p)
    stores = ("; there are no stores: a player's captures go into a {h} they own (below)."
              if p["child_stores"] else ", and a store at the right end of each player's row.")
    out = [f"The board has two rows of {holes} {{h}}s, one for each player{stores}"]
    if start == "equal":
        out.append(f"Each {{h}} starts with {counted(seeds, '{s}')}, {total:,} in all.")
    elif start == "random":
        out.append(f"Each {{h}} starts with two {{s}}s, and the other {total - 4 * holes:,} of the {total:,} "
                   "are shared out among the {h}s at random, every way of sharing them equally likely"
                   + (", drawn again if the first player could not move." if p["move_rule"] != "any" else "."))
    elif start == "rightmost_first":
        out.append(f"Each {{h}} starts with {counted(seeds, '{s}')}, {total:,} in all, and the first player "
                   "must open the game with their rightmost {h}.")
    else:
        first, second = start_rows(start, holes, seeds)
        out.append("The {h}s start unevenly: from each player's left, the first player's hold "
                   f"{', '.join(map(str, first))} and the second player's {', '.join(map(str, second))} "
                   f"({total:,} in all).")
    return out


def move(p: dict) -> list[str]:
    need = p["min_seeds"]
    lifted = "all the {s}s"
    if p["leave_one"]:
        lifted = "all the {s}s but one" + (" (a lone {s} is lifted and sown)" if p["move_one"] else "")
    holding = "" if need == 1 else f" (one holding at least {need})"
    way = "either way round, as the player chooses" if p["choose_direction"] == "all" else WAY[p["direction"]]
    if p["sow_own_row"] and p["choose_direction"] != "all" and p["direction"] in OWN_ROW_WAY:
        way = OWN_ROW_WAY[p["direction"]]
    out = [f"A move lifts {lifted} from one of the player's {{h}}s{holding} and sows them one by one into the "
           f"{{h}}s that follow, {way}."]
    out += {"opponent_or_empty": ["A {h} of at most " + str(p["holes"]) + " {s}s may be played only if its "
                                  "sowing ends on the opponent's row or in an empty {h}."],
            "single_to_empty": ["A lone {s} may be played only into an empty {h}" + (
                ", and no {h} whose first {s} would fall in a store." if p["sow_store"] else ".")],
            "not_across_ones": ["A {h} across from one of the opponent's holding a single {s} may not be played."],
            "singles_last": ["A {h} of one {s} may be played only when every {h} they may play holds one."],
            "to_occupied": ["A {h} may not be played if its sowing would end in an empty {h} (ending in a store "
                            "is allowed)."],
            "every_hole_first": ["A player must play each of their {h}s once before playing any {h} again; while "
                                 "some have not been played, only those may be (if none of them can be, the player "
                                 "has no move)."]}.get(p["move_rule"], [])
    if p["sow_own_row"]:
        out.append("A sowing never leaves the player's own row: past its end it comes round to its other end"
                   + (" through the player's store" if p["sow_store"] else "")
                   + ". No {s} is ever sown on the opponent's row.")
    if p["direction"] == "outward" and need == 1 and not p["leave_one"] and not p["sow_own_row"] and \
            p["choose_direction"] not in ("all", "ends_and_middle"):
        out.append("A lone {s} sown across the end of the rows may not be played straight back.")
    if p["choose_direction"] == "middle":
        out.append("The middle {h} of a row may be sown either way, as the player chooses.")
    if p["choose_direction"] == "ends_and_middle":
        out.append("The two end {h}s and the middle {h} of a row may be sown either way, as the player chooses.")
    if p["fixed_way_turns"]:
        turns = "turn" if p["fixed_way_turns"] == 1 else f"{p['fixed_way_turns']} turns"
        way = "counter-clockwise" if p["direction"] == "ccw" else "clockwise"
        out.append(f"In the game's first {turns} every move is sown {way}, whichever way the player names.")
    if not p["child_stores"]:  # (a game without stores: the board's sentence says so)
        out.append("The stores are passed over." if not p["sow_store"] else
                   "Their own store is sown into as the {s}s pass it" + (
                       "." if p["sow_own_row"] else "; the opponent's is passed over.")
                   if p["opponent_store"] == "passed" else "Both stores are sown into as the {s}s pass them.")
    if p["skip_origin"]:
        out.append("A sowing that comes round to its starting {h} passes over it.")
    if p["sow_max"]:
        out.append(f"Any {{h}} already holding {p['sow_max']} {{s}}s or more is passed over.")
    out += laps(p)
    if p["pre_capture"] != "none":
        out.append({"one_seed": "Before each lap is sown, one of its {s}s goes into the player's store.",
                    "across_ones": "Before sowing, each of the player's {h}s holding a single {s} captures the "
                                   "{s}s of the {h} across from it.",
                    "across_lone": "A move that lifts a single {s} first captures the {s}s of the {h} across "
                                   "from it."}[p["pre_capture"]])
    if p["last_seeds_to_opponent"]:
        out.append(f"When at most {counted(p['last_seeds_to_opponent'], '{s}')} are on the board as a lap "
                   "starts, the {s}s it drops on the opponent's row go into the opponent's store instead, "
                   "all but a last {s} that captures.")
    return out


def laps(p: dict) -> list[str]:
    if p["laps"] == "single":
        return []
    further = {"any": "", "count_is": f" and now holds exactly {p['lap_count']}",
               "count_at_least": f" and now holds at least {p['lap_count']}",
               "own_side": " on their own row", "opponent_side": " on the opponent's row"}
    where = further[p["lap_rule"]]
    # where a lap stops short of going on, to capture (family_sowing.next_lap)
    for_count = p["capture_min"] > 0 and p["capture_kind"] == "standard" and not (
        p["cross_capture"] or p["capture_gap"] or p["lap_capture"] or never_by_count(p))
    counted_stop = ["where its last {s} makes a count that is captured"] if for_count else []
    if p["laps"] == "relay":
        stops = ["in an empty {h}"] + (["in a store"] if p["sow_store"] else []) + counted_stop
        stops += ["in an owned {h} or one it makes the player's"] if has_children(p) else []
        out = [f"When the last {{s}} falls in a {{h}} that held {{s}}s{where}, the player lifts them all and "
               f"sows on; the sowing stops {spoken_list(stops)}."]
    else:
        last = {"count_is": f" in a {{h}} that now holds exactly {p['lap_count']}",
                "count_at_least": f" in a {{h}} that now holds at least {p['lap_count']}"}.get(p["lap_rule"], where)
        stops = counted_stop + (["where its last {s} falls in an empty {h} across from {s}s it may capture"]
                                if p["cross_capture"] else [])
        out = [f"When the last {{s}} falls{last}, the player lifts the {{s}}s of the next {{h}} and sows on, "
               "for as long as that next {h} holds any" + (f"; the sowing stops {spoken_list(stops)}." if stops
                                                           else ".")]
    if p["lap_capture"] and p["laps"] == "relay":  # by the first capture rule that applies (next_lap)
        if p["sow_captured"]:
            out.append("Each lap captures where it ends, and a lone last {s} that captures across is sown on "
                       "with the {s}s it captured, which never leave the board. Once the opponent has no {s}s "
                       "left, the sowing stops.")
        elif p["cross_capture"]:
            out.append("Each lap captures where it ends: a lone last {s} that captures across goes on, alone, "
                       "and one that captures nothing ends the move.")
        elif p["capture_gap"]:
            out.append("Each lap that ends in a {h} that held {s}s captures across the gap beyond it, if any, "
                       "before the player lifts that {h}'s {s}s and sows on.")
        elif not never_by_count(p):
            out.append(f"A lap whose last {{s}} makes a {{h}} hold {counts(p)} captures them, and the "
                       "sowing goes on from the next {h}.")
    shared = LEFTOVER[p["endless_leftover"]] if p["goal"] == "most_seeds" else "it is a draw"
    out.append(f"A sowing of more than {MAX_LAPS} laps ends the game: the {{s}}s in hand leave it, and {shared}.")
    return out


def captures(p: dict) -> list[str]:
    kind, side = p["capture_kind"], p["capture_side"]
    by_count, never = p["capture_min"] > 0, never_by_count(p)
    many = p["captures"] != 1
    upto = f", up to {counted(p['captures'], '{h}')} in all" if p["captures"] > 1 else ""
    chain_way = {"backward": "before it (back along the sowing)", "forward": "after it (on along the sowing)",
                 "cw": "next to it clockwise", "ccw": "next to it counter-clockwise"}[p["chain"]]
    out = []
    if kind == "standard":
        if p["capture_gap"]:
            lone = "" if p["laps"] != "single" else " that held {s}s"
            first = side.endswith("_first")  # the last hole's row, then either row
            last_row, taken_row = (f" on {SIDE[side]}", "") if first else ("", f", on {SIDE[side]},")
            out.append(f"If the last {{s}} falls in a {{h}}{lone}{last_row} and the {{h}} {chain_way} is empty, the "
                       f"{{s}}s of the {{h}} beyond that gap{taken_row} are captured")
            out[-1] += (f", and again beyond each further gap{upto}." if many and p["laps"] != "single" else ".")
        elif p["cross_capture"] and never:  # the hole across never qualifies
            if p["take_own"] == "always" and not side.endswith("_first"):
                out.append(f"A last {{s}} in an empty {{h}} {ACROSS_FROM[side]} goes into the player's store.")
        elif p["cross_capture"]:
            qualifies = f" if it holds {counts(p)}" if by_count else ""
            own = {"on_capture": ", with the capturing {s}", "leave": "",
                   "always": ", and the capturing {s} goes into the store, capture or not"}[p["take_own"]]
            out.append(f"If the last {{s}} falls in an empty {{h}} {ACROSS_FROM[side]}, the {{s}}s of the "
                       f"{{h}} across are captured{qualifies}{own}.")
            if p["take_own"] == "always" and side.endswith("_first"):  # the seed's rule reads the plain side,
                out[-1] = out[-1].replace(", and the capturing {s} goes into the store, capture or not", "")
            if many:  # which the *_first rule's last hole never meets: it is never taken alone
                each = "each next empty {h}" if p["cross_chain"] == "empty" else "each next {h}"
                out.append(f"Then the {{h}} across from {each} {chain_way.replace(' it', ' the last')} is taken "
                           f"too, while it qualifies{upto}" + (", on either row." if side.endswith("_first")
                                                              else "."))
        elif by_count and not never:
            out.append(f"If the last {{s}} makes a {{h}} on {SIDE[side]} hold {counts(p)}, they are captured"
                       + (f", then the {{h}} {chain_way} if it qualifies, and so on{upto}." if many else "."))
            if side.endswith("_first") and many:
                out.append("The chain may run on into the other row.")
    else:
        out += capture_of_kind(p, kind, side, many, upto, chain_way)
    if p["passing"] != "none" and not never:
        out += passing(p)
    owning = has_children(p)
    if p["close_at"]:
        out += closing(p)
    if not out and not p["take_last"] and p["pre_capture"] == "none":
        if not owning:
            return ["Nothing is ever captured."]
    won = " and wins no {h}" if owning else ""  # the same moves make no child (below)
    if p["no_single_capture"]:
        single = "A sowing whose last lap is a single {s}" if p["laps"] != "single" else "A move of a single {s}"
        out.append(f"{single} captures nothing{won}.")
    if p["take_across"]:
        out.append("A capture also takes the {h} across from the first {h} it took.")
    if p["take_final"]:
        out.append("A capture also takes the {s}s of the last {h} sown, if it is on a row captures come from.")
    if p["locked_holes"]:
        out.append("Every {h} starts locked: nothing is captured from a {h} until its owner has played it.")
    if p["no_capture_turns"]:
        turns = "turn" if p["no_capture_turns"] == 1 else f"{p['no_capture_turns']} turns"
        out.append(f"In the game's first {turns} no move " + ("closes a {h}." if p["close_at"] else "captures")
                   + ("" if p["close_at"] else " or wins a {h}." if owning else "."))
    out += grand_slam(p)
    if p["take_last"]:
        taker = "the player who moved" if p["take_last_by"] == "mover" else \
            "the player who started the round" if p["rounds"] == "match" else "the first player"
        where = "the board" if p["cross_capture"] or side == "both" else SIDE[side]
        out.append(f"After a move that leaves at most {counted(p['take_last'], '{s}')} on {where}, {taker} "
                   "takes every {s} on the board.")
    return out


def closing(p: dict) -> list[str]:
    """close_at: the holes closed for good, the game's only capture."""
    spared = "" if p["close_rightmost"] else " (but for the opponent's rightmost {h})"
    then = "the sowing goes on from it with those {s}s" if p["laps"] == "relay" else "those {s}s leave the game"
    which = "A lap whose last {s} makes" if p["laps"] == "relay" else "A last {s} that makes"
    return [f"{which} a {{h}} of the opponent's hold exactly {counted(p['close_at'], '{s}')} closes it for "
            f"good{spared}: {then}.",
            "A player's sowing passes over their own closed {h}s, and a {s} they sow into a {h} they closed leaves "
            "the game. Nothing else is captured."]


def passing(p: dict) -> list[str]:
    """The holes taken as the seeds pass: on the rows both capture_side and the rule allow."""
    side = PLAIN_SIDE.get(p["capture_side"], p["capture_side"])
    rows = {"own", "opponent"} if side == "both" else {side}
    rows &= {"sower_own": {"own"}, "sower_opponent": {"opponent"}}.get(p["passing"], {"own", "opponent"})
    if not rows:
        return []
    row = "either row" if len(rows) == 2 else SIDE[rows.pop()]
    held = counts(p) if p["capture_min"] > 0 else "{s}s"
    taker = {"owner": "by its row's owner (the last hole sown excepted)",
             "owner_all": "by its row's owner, the last one too"}.get(p["passing"],
                                                                      "by the player (the last hole sown excepted)")
    return [f"As the {{s}}s pass, each {{h}} on {row} that they make hold {held} is taken {taker}."]


def capture_of_kind(p, kind, side, many, upto, chain_way) -> list[str]:
    never = never_by_count(p)
    if kind == "opponent_counts":  # ending on the opponent's row, or in the own rightmost hole
        where = {"own_first": "in the player's own rightmost {h}", "opponent_first": "on the opponent's row"}.get(
            side, "on the opponent's row or in the player's own rightmost {h}")
        held = f" holding {counts(p)}" if p["capture_min"] > 0 else ""
        taken = ("the move counts as a capture but takes nothing" if side == "own" or never else
                 f"every {{h}} of the opponent's{held} is captured")
        return [f"If the last {{s}} falls {where}, {taken}."]
    if never and kind in ("pull_across", "next"):
        return []
    if side.endswith("_first"):  # the last hole's row decides; the capture then takes from either row
        row = SIDE[side]
        return [f"Captures are made only where the last {{s}} falls on {row}, and then from either row."] + \
            capture_of_kind(p, kind, "both", many, upto, chain_way)
    if kind == "singles":
        return [f"At the end of a sowing, every {{h}} of one {{s}} on {SIDE[side]} is captured."]
    if kind == "pull_across":
        held = f" if it holds {counts(p)}" if p["capture_min"] > 0 else ""
        return [f"If the last {{s}} falls in an empty {{h}}, the {{s}}s of the {{h}} across, on {SIDE[side]}, "
                f"move into it{held} (they stay on the board)."]
    if kind == "next":
        then = (f", then each next one that way while it qualifies{upto}" if many else "")
        held = f"holds {counts(p)}" if p["capture_min"] > 0 else "holds {s}s"
        if p["laps"] != "single":
            return [f"When the last {{h}} of a sowing {held} and the {{h}} {chain_way} holds {{s}}s, that next "
                    f"{{h}} is captured{then}."]
        way = {"backward": "before the last one (back along the sowing)", "forward": "after the last one",
               "cw": "clockwise from the last one", "ccw": "counter-clockwise from the last one"}[p["chain"]]
        return [f"The {{h}} {way} is captured when it {held}{then}."]
    standard = captures({**p, "capture_kind": "standard", "passing": "none", "no_single_capture": False,
                         "take_across": False, "take_final": False, "no_capture_turns": 0,
                         "grand_slam": "legal", "take_last": 0})
    otherwise = [] if standard == ["Nothing is ever captured."] else ["Otherwise:"] + standard
    if kind == "store_to_opponent":
        return [f"If the last {{s}} falls in an empty {{h}} on {SIDE[side]}, the player's store is handed to "
                "the opponent."] + otherwise
    return ["A last {s} in the opponent's store captures that store."] + otherwise  # opponent_store


def grand_slam(p: dict) -> list[str]:
    rule = p["grand_slam"]
    if rule == "legal":
        return []
    slam = "A move that would capture every {s} of the opponent's row (a grand slam)"
    out = [slam + {"illegal": " may not be played, unless that row was empty before it.",
                   "no_capture": " may be played but captures nothing.",
                   "leave_left": " captures all of it but the first {h} holding {s}s from the player's left.",
                   "leave_right": " captures all of it but the first {h} holding {s}s from the player's right.",
                   "extra_turn": " captures it all and gives the player another turn.",
                   "opponent_gets_row": " captures it all, and the {s}s left in the player's own row go to the "
                                        "opponent's store."}[rule]]
    if p["slam_from_empty"]:
        out.append("Sowing into an empty row and capturing it all counts as a grand slam too.")
    if p["slam_avoided"]:
        out.append("It may be played only when no other move is legal.")
    return out


def children(p: dict) -> list[str]:
    if not has_children(p):
        return []
    c = p["child_count"]
    if p["child_holes"] == "fixed_right":
        out = ["Each player owns their rightmost {h} from the start, and no other {h} is ever owned."]
        if p["children"] == "weg":
            out.append("A last {s} in the one the opponent owns captures two of its {s}s (one, if it holds one).")
    else:
        where = {"any": "", "opponent": " on the opponent's row", "own": " on their own row"}[p["child_side"]]
        made = CHILD_MADE[p["children"]].format(c=c, c_less=c - 1, h="{h}", s="{s}")
        out = [f"A player can come to own {{h}}s{where}: {made}, instead of capturing."]
        out += [CHILD_HOLES[p["child_holes"]]] if p["child_holes"] in CHILD_HOLES else []
        if p["children"] == "weg":
            out.append("A last {s} in a {h} the opponent owns captures two of its {s}s (one, if it holds one).")
    if p["children_bank"]:
        out.append("An owned {h} is never played nor captured; after every move its {s}s go to its owner's store.")
    else:
        out.append("An owned {h} keeps the {s}s sown into it for its owner; it is never played nor captured.")
    out += {"skip_opponent": ["Sowing passes over the {h}s the opponent owns."],
            "skip_opponent_but_last": ["Sowing passes over the {h}s the opponent owns, but a last {s} may fall "
                                       "in one."]}.get(p["child_sowing"], [])
    if p["child_stores"]:
        out.append("A capture goes into the capturer's first owned {h} (a player who owns none captures "
                   "nothing), and so do the {s}s a player gets at the end (into the opponent's, where the "
                   "player owns none).")
    return out


def turns(p: dict) -> list[str]:
    out = []
    if p["sow_store"]:
        both = p["opponent_store"] == "sown"
        out.append("A last {s} in " + ("either store" if both else "their own store") + " gives the player "
                   "another turn" + (", and one in the opponent's store ends the turn." if
                                     p["opponent_store"] == "sown_no_turn" else "."))
    if p["capture_extra_turn"]:
        out.append("A move that captures gives the player another turn"
                   + (", but not one that follows another extra turn." if p["extra_turn_once"] else "."))
    if p["must_share"]:
        unfed = (", and the player left without {s}s takes those on the board" if p["unfed_takes"]
                 and not p["must_pass"] else "")
        out.append("A player whose opponent has no {s}s must play a move that gives them some; "
                   + ("if none does, any move may be played." if p["must_pass"] else
                      f"if none does, the game ends{unfed}."))
        if p["share_either_way"]:
            out.append("A {h} that gives them some sown one way may then be sown either way.")
    if p["must_pass"]:
        out.append("A player who cannot move passes.")
    return out


def ending(p: dict) -> list[str]:
    goal = p["goal"]
    is_match = p["rounds"] == "match"
    limit = f"after {MOVE_LIMIT:,} moves"
    if goal != "most_seeds":
        win = {"deprive": "A player wins by leaving the opponent's row without {s}s, and loses by emptying "
                          "their own; a player who cannot move loses.",
               "clear": "A player wins by emptying their own row, and loses when the opponent's is emptied; if "
                        "the player to move cannot move, the game is a draw.",
               "immobilize": "A player wins by leaving the opponent no move: the player to move who cannot "
                             "move loses."}[goal]
        stores = "The stores decide nothing" if p["sow_captured"] else \
            "The stores hold what was captured but decide nothing"
        return [win, f"{stores}; a game still on {limit} is a draw."]
    total = start_seeds(p)
    ends = ["neither player can move" if p["must_pass"] else "the player to move cannot move"]
    owning = has_children(p)
    left_on = "on the board outside owned {h}s" if owning else "on the board"  # an owned hole's seeds stay its own
    if p["end_seeds_left"] >= 0:
        ends.append(f"at most {counted(p['end_seeds_left'], '{s}')} {are(p['end_seeds_left'])} left {left_on}"
                    if p["end_seeds_left"] else f"no {{s}} is left {left_on}")
    cleared = {"own": "the player who moved has emptied their own row",
               "opponent": "the opponent's row is empty after a move", "either": "either row is empty"}
    if p["end_cleared"] in cleared:
        ends.append(cleared[p["end_cleared"]])
    if p["end_below"] > 1:
        ends.append(f"fewer than {counted(p['end_below'], '{s}')} {are(p['end_below'])} left {left_on}"
                    + (" and no player owns a {h}" if owning else ""))  # (end_below=1 never ends: some must be left)
    if p["repetition_ends"]:
        ends.append("a position repeats with no {s}s stored in between (or after 256 positions without any)")
    ends = ["when " + end for end in ends] + [limit]
    kept = " (owned {h}s keep theirs)" if owning and not p["children_bank"] else ""
    out = [f"{'A round' if is_match else 'The game'} ends {spoken_list(ends)}; then {LEFTOVER[p['leftover']]}{kept}."]
    held = ("in owned {h}s" if p["child_stores"] else "in store and owned {h}s" if owning and not p["children_bank"]
            else "in store")
    if p["early_win"]:
        need = total - p["win_short"] if p["win_short"] else (total + 1) // 2
        sweep = (", and the rest are shared as at the end" if p["win_sweep"] else "")
        out.append(f"A player with more than {need:,} of the {total:,} {{s}}s {held} wins{' the round' * is_match} "
                   f"at once{sweep}.")
    out.append(f"The player with the most {{s}}s {held} wins the round; equal is a drawn round." if is_match else
               f"The player with the most {{s}}s {held} wins; equal is a draw.")
    return out


FILL_ORDER = {"left": "from the left end of their row", "right": "from the right end of their row",
              "outside": "from both ends of their row inwards (the end on the first player's left first)"}
STARTER = {"alternate": "The players take turns to start the rounds.",
           "loser": "A round's loser starts the next (after a draw, the player who would not have moved next).",
           "winner": "A round's winner starts the next (after a draw, the player who would have moved next).",
           "last_mover": "The player who made a round's last move starts the next."}


def match(p: dict) -> list[str]:
    """A match of rounds (family_rounds)."""
    if p["rounds"] != "match":
        return []
    if p["match_end"] != "unfilled":
        target = p["match_target"]
        tally = (f"The first player to win {counted(target, 'round')} wins the match" if p["match_end"] == "round_wins"
                 else f"A round won scores a point, and another if the winner holds at least three quarters of the "
                      f"{{s}}s in store; the first player to score {counted(target, 'point')} wins the match")
        return ["The game is a match of rounds, each started afresh as the first.", STARTER[p["round_starter"]],
                f"{tally}; after an endless sowing or {MOVE_LIMIT:,} moves in all, the higher count wins it, and "
                "equal counts draw."]
    out = [f"The game is a match of rounds. After each round the players refill their own {{h}}s, "
           f"{counted(p['seeds'], '{s}')} to a {{h}}, {FILL_ORDER[p['round_fill']]}, with the {{s}}s in their store "
           "and on their row; the rest stays in store.",
           "A {h} left unfilled is closed for the round: sowing and captures pass it by." if p["closed_holes"]
           else "A {h} left unfilled starts the round empty.",
           STARTER[p["round_starter"]],
           f"The match ends when a player cannot fill {counted(p['match_holes'], '{h}')}, after an endless sowing "
           f"or after {MOVE_LIMIT:,} moves in all; the last round's winner wins it."]
    return out
