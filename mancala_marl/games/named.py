"""Traditional games by name: each a point of a registered game's rules space, with where it is
played and a published source for its rules.

Most are points of the two-row family (:mod:`mancala_marl.games.family`), written as its
parameters; Oware, Togyz Kumalak and Sungka keep their own rules files. The family's presets are the
readings of MancalaGames' catalogue, played against its engine move for move
(``benchmarks/family_crosscheck.py``); the source is the one that catalogue cites for the game.
A game of rounds refilled from the ends of the rows is played as a whole match (``rounds="match"``),
with the round rules of MancalaGames' file for it (:func:`match`); the other games of rounds are
their first round here.

``make_game("wari")`` builds one, ``make_game("wari", seeds=5)`` a variant of it; the command line
takes ``wari`` or ``wari:seeds=5`` wherever it takes a game.
"""

from __future__ import annotations

from dataclasses import dataclass, field

RUSS = "Russ, Laurence. Mancala Games. 1984"
VALDEZ = "Valdez, Jacob A. 50 Ways to Play Mancala. 2023"
MOHR = "Mohr, Merilyn Simonds. The New Games Treasury. 1993"
WIKI = "Mancala World, https://mancala.fandom.com/wiki/"
HANSON = "Hanson, Sue and Jon. All about Mancala: It's History and How to Play. 2003"

# The family's parameters that many games here set alike: a single cross capture; no obligation
# to feed and no skipped origin; a four taken anywhere as the seeds pass (the "puc" of West and
# East African games), the last hole's by the mover.
CROSS = {"capture_min": 0, "capture_max": 0, "cross_capture": True, "captures": 1}
FREE = {"skip_origin": False, "must_share": False}
FOURS = {"capture_min": 4, "capture_max": 4, "capture_side": "both", "captures": 1, "passing": "owner"}


def tally(end: str, target: int) -> dict:
    """A match of rounds each started afresh, won by the first to ``target`` round wins or points."""
    return {"rounds": "match", "match_end": end, "match_target": target}


def match(fill: str, *, closed: bool = True, starter: str = "alternate", holes: int = 1) -> dict:
    """A whole match of rounds (family_rounds): each round's seeds refill the holes from ``fill``'s
    end, the holes left unfilled ``closed`` for the round, until a player cannot fill ``holes``."""
    return {"rounds": "match", "round_fill": fill, "closed_holes": closed, "round_starter": starter,
            "match_holes": holes}


@dataclass(frozen=True)
class NamedGame:
    """A traditional game: the registered game (``game``) and the rule parameters (``params``)
    that make it, its region, a source for its rules and what sets it apart, in a line."""

    name: str
    title: str
    region: str
    source: str
    about: str
    params: dict = field(default_factory=dict)
    game: str = "family"


NAMED_GAMES = (  # the family's by title, then the games with rules files of their own
    NamedGame("achochodi", "Achochodi", "Western Africa", f"{VALDEZ}, p63",
              "Wari's counts, taken from a last hole on the opponent's row in a chain that may run on; a lone seed "
              "lifted first takes the hole across.",
              {"pre_capture": "across_lone", "capture_side": "opponent_first", "leftover": "mover"}),
    NamedGame("adi", "Adi", "Western Africa", f"{RUSS}, p53",
              "Relay sowing; every hole made four is taken as the seeds pass; the mover takes the last four.",
              {**FREE, "laps": "relay", **FOURS, "take_last": 4, "must_pass": True, "win_short": 1}),
    NamedGame("adji_kui_i", "Adji Kui I", "Caribbean", f"{VALDEZ}, p51",
              "Wari's captures of 2 and 3, but a hole needs two seeds to move and a player without one passes.",
              {**FREE, "min_seeds": 2, "must_pass": True}),
    NamedGame("al_manqala", "Al-manqala", "Western Asia", f"{WIKI}Al-manqala",
              "Seven holes of seven; chains of 2s and 4s on either side; an unfed player takes the board.",
              {"holes": 7, "seeds": 7, "capture_side": "both", "capture_max": 4, "capture_parity": "even",
               "leftover": "nobody", "unfed_takes": True, "skip_origin": False}),
    NamedGame("alemungula", "Alemungula", "Western Africa", f"{WIKI}Alemungula",
              "Five holes of five sown outward from the middle, whose way the mover chooses; chains of 2s and 4s.",
              {"holes": 5, "seeds": 5, "direction": "outward", "choose_direction": "middle", "capture_max": 4,
               "capture_parity": "even", **FREE, "end_below": 2}),
    NamedGame("andot", "Andot", "Northern Africa, Eastern Africa", f"{VALDEZ}, p134",
              "Sown outward from the middle; a last seed making four wins the hole, which keeps what its owner "
              "takes: there are no stores.",
              {"direction": "outward", "skip_origin": False, "capture_min": 0, "capture_max": 0,
               "capture_side": "both", "captures": 1, "must_share": False, "must_pass": True,
               "leftover": "nobody", "children": "normal", "child_count": 4, "child_holes": "inner_own",
               "child_stores": True}),
    NamedGame("anywoli", "Anywoli", "Eastern Africa", f"{WIKI}Anywoli",
              "Twelve holes a side, relay sowing, fours taken as they pass; a capture gives another turn.",
              {"holes": 12, **FREE, "laps": "relay", **FOURS, "capture_extra_turn": True, "take_last": 4,
               "must_pass": True}),
    NamedGame("ayoayo", "Ayoayo", "Western Africa", f"{MOHR}, p102",
              "Relay sowing; a last seed in an empty own hole takes the hole across and itself.",
              {"laps": "relay", **CROSS, "take_own": "on_capture"}),
    NamedGame("bakuk", "Bakuk", "Northern Africa", f"{VALDEZ}, p144",
              "Three holes of six: even counts up to four are taken anywhere; the seeds left leave play.",
              {"holes": 3, "seeds": 6, **FREE, "capture_side": "both", "capture_max": 4, "capture_parity": "even",
               "leftover": "nobody", "end_below": 2}),
    NamedGame("bay_khom", "Bay Khom", "Southeast Asia", f"{WIKI}Bay_Khom",
              "Five holes, the last one seed fuller; sowing goes on from the next hole, either way; the hole past a "
              "gap is taken.",
              {"holes": 5, "start": "plus_one", "choose_direction": "all", "laps": "next", "skip_origin": False,
               "capture_min": 0, "capture_max": 0, "capture_side": "both", "capture_gap": True,
               "chain": "forward", "must_share": False, "end_below": 2}),
    NamedGame("bohnenspiel", "Bohnenspiel", "Europe (Germany)", f"{WIKI}Bohnenspiel",
              "The German bean game: 2, 4 or 6 taken on either row; the last mover takes the seeds left.",
              {"seeds": 6, **FREE, "capture_side": "both", "capture_max": 6, "capture_parity": "even",
               "leftover": "mover", "end_below": 2}),
    NamedGame("boola", "Boola", "Eastern Africa", f"{WIKI}Boola",
              "Twelve holes filled in threes; relay sowing and cross captures; the player left without a move "
              "loses.",
              {"holes": 12, "seeds": 3, "start": "triples", "laps": "relay", "skip_origin": False,
               "move_rule": "opponent_or_empty", "capture_min": 0, "capture_max": 0, "cross_capture": True,
               "captures": 1, "must_share": False, "goal": "immobilize"}),
    NamedGame("bosh", "Bosh", "Eastern Africa", f"{RUSS}, p45",
              "Sowing goes on from the next hole while it holds seeds; an empty one ends it and takes the "
              "hole beyond.",
              {"holes": 5, **FREE, "laps": "next", "capture_min": 0, "capture_max": 0, "capture_side": "both",
               "capture_gap": True, "chain": "forward", "captures": 1, "win_short": 4, "end_below": 2,
               **match("right")}),
    NamedGame("bule_perga", "Bule Perga", "South Asia", f"{WIKI}Bule_Perga",
              "Seven holes; sowing goes on from the next hole; every hole made four goes to its row's owner, the "
              "last to the mover.",
              {"holes": 7, "laps": "next", "skip_origin": False, "capture_min": 4, "capture_max": 4,
               "capture_side": "both", "passing": "owner_all", "captures": 1, "must_share": False, "end_below": 4}),
    NamedGame("cow", "Cow", "Northern Africa", f"{RUSS}, p21",
              "Alemungula's outward sowing and even captures, but a hole needs two seeds and a player without "
              "one passes.",
              {"holes": 5, "seeds": 5, "direction": "outward", "choose_direction": "middle", **FREE, "min_seeds": 2,
               "capture_max": 4, "capture_parity": "even", "must_pass": True}),
    NamedGame("dabuda", "Dabuda", "Eastern Africa", f"{RUSS}, p32",
              "Ten holes, relay sowing and cross captures; a first lap must end across or in an empty hole.",
              {"holes": 10, **FREE, "laps": "relay", **CROSS, "take_own": "on_capture",
               "move_rule": "opponent_or_empty", "end_below": 2}),
    NamedGame("dakon", "Dakon", "Southeast Asia", f"{RUSS}, p62",
              "Seven holes of seven, relay sowing through the own store, cross captures and passes.",
              {"holes": 7, "seeds": 7, **FREE, "sow_store": True, "laps": "relay", **CROSS, "take_own": "on_capture",
               "must_pass": True, "win_short": 28, **match("right", starter="last_mover", holes=4)}),
    NamedGame("djenon_abe", "Djenon Abe", "Western Africa", f"{WIKI}Djenon_Abe",
              "Relay sowing that stops on a capture of 2 or 4, taken from either row in chains.",
              {"laps": "relay", "skip_origin": False, "capture_side": "both", "capture_max": 4,
               "capture_parity": "even", "leftover": "divided"}),
    NamedGame("djenon_aboure", "Djenon Aboure", "Western Africa", f"{WIKI}Djenon_Aboure",
              "Djenon Abe where a hole needs two seeds to move and no one must feed the other.",
              {"laps": "relay", **FREE, "capture_side": "both", "capture_max": 4, "capture_parity": "even",
               "min_seeds": 2}),
    NamedGame("endodoi", "Endodoi", "Eastern Africa", f"{RUSS}, p28",
              "Eight holes, relay sowing; a last seed in an empty own hole takes across, and stops there.",
              {"holes": 8, **FREE, "laps": "relay", **CROSS, "take_own": "on_capture", "end_below": 2}),
    NamedGame("erherhe", "Erherhe", "Africa", f"{RUSS}, p19",
              "Wari's sowing and chains, but odd counts are taken.",
              {"capture_min": 1, "capture_parity": "odd"}),
    NamedGame("gamacha", "Gamacha", "Eastern Africa", f"{RUSS}, p33",
              "Twelve holes in its own starting pattern; relay sowing, cross captures; a player whose row is "
              "emptied loses.",
              {"holes": 12, "start": "gamacha", "laps": "relay", "skip_origin": False,
               "move_rule": "opponent_or_empty", "capture_min": 0, "capture_max": 0, "cross_capture": True,
               "captures": 1, "must_share": False, "goal": "deprive"}),
    NamedGame("gelech", "Gelech", "Western Africa", f"{VALDEZ}, p30",
              "Huroy where no hole across from a lone seed may be played: a match to ten round wins.",
              {"direction": "outward", "choose_direction": "all", **FREE, "move_rule": "not_across_ones",
               "pre_capture": "across_ones", "capture_min": 0, "capture_max": 0, "capture_side": "both", "captures": 1,
               "win_short": 1, "leftover": "mover", **tally("round_wins", 10)}),
    NamedGame("goat", "Goat", "Northern Africa", f"{MOHR}, p100",
              "Three holes of three sown outward, the middle one either way; a hole of two is taken.",
              {"holes": 3, "seeds": 3, "direction": "outward", "choose_direction": "middle", **FREE, "min_seeds": 2,
               "capture_max": 2, "must_pass": True}),
    NamedGame("halusa", "Halusa", "Western Asia", f"{VALDEZ}, p353",
              "Six holes of six; an even count is taken from the mover's own row; the unfed takes the board.",
              {"seeds": 6, "skip_origin": False, "capture_side": "own", "capture_max": 0, "capture_parity": "even",
               "captures": 1, "unfed_takes": True}),
    NamedGame("hufesay", "Hufesay", "Eastern Africa", f"{WIKI}Hufesay",
              "Relay sowing with cross captures that leave the sowing seed; players pass when stuck.",
              {"laps": "relay", **FREE, **CROSS, "must_pass": True, "leftover": "nobody", "end_below": 2,
               "endless_leftover": "nobody"}),
    NamedGame("huroy", "Huroy", "Western Africa", f"{VALDEZ}, p28",
              "Sowing either way; each lone seed of the mover's takes the hole across before the move; a match "
              "to ten round wins.",
              {"direction": "outward", "choose_direction": "all", **FREE, "pre_capture": "across_ones",
               "capture_min": 0, "capture_max": 0, "capture_side": "both", "captures": 1, "win_short": 1,
               "leftover": "mover", **tally("round_wins", 10)}),
    NamedGame("kale", "Kale", "Central Africa", f"{VALDEZ}, p69",
              "Wari whose chain, begun on the opponent's row, may run on into the mover's own.",
              {"capture_side": "opponent_first", "no_single_capture": True, "grand_slam": "no_capture",
               "unfed_takes": True}),
    NamedGame("kara", "Kara", "Northern Africa", f"{VALDEZ}, p148",
              "Seven seeds a hole; a last seed on the opponent's row takes every hole of theirs holding 2, 4 or 6.",
              {"seeds": 7, "skip_origin": False, "capture_max": 6, "capture_parity": "even",
               "capture_kind": "opponent_counts", "captures": 1, "must_share": False, "must_pass": True,
               "end_below": 2, "leftover": "nobody"}),
    NamedGame("krur", "Krur", "Northern Africa, Western Africa", f"{VALDEZ}, p132",
              "Four holes, relay sowing; a last seed making four wins an opponent's hole, which the opponent's "
              "sowing then passes over.",
              {"holes": 4, "laps": "relay", "skip_origin": False, "capture_min": 0, "capture_max": 0,
               "capture_side": "both", "captures": 1, "must_share": False, "children": "normal",
               "child_count": 4, "child_side": "opponent", "child_sowing": "skip_opponent", "child_stores": True}),
    NamedGame("leb_bbut_ahbochen", "Leb Bbut Ahbochen", "Northern Africa", f"{WIKI}Leb_Bbut_Ahbochen",
              "Ten holes a side; a relay goes on only from a hole made six; chains of 2s and 4s.",
              {"holes": 10, "laps": "relay", "lap_rule": "count_is", "lap_count": 6, "skip_origin": False,
               "capture_max": 4, "capture_parity": "even", "grand_slam": "no_capture"}),
    NamedGame("leyla_gobale", "Leyla-Gobale", "Eastern Africa", f"{RUSS}, p44",
              "Eight holes sown clockwise, cross captures; a last seed in an empty own hole across three wins both "
              "holes.",
              {"holes": 8, "direction": "cw", "skip_origin": False, "capture_min": 0, "capture_max": 0,
               "cross_capture": True, "take_own": "on_capture", "captures": 1, "must_share": False,
               "end_below": 2, "children": "qur", "child_count": 3, "child_side": "own"}),
    NamedGame("longbeu_a_cha", "Longbeu-a-cha", "South Asia", f"{RUSS}, p60",
              "Bosh's sowing from the next hole, with captures across each gap in a chain.",
              {"holes": 5, "seeds": 5, **FREE, "laps": "next", "capture_min": 0, "capture_max": 0,
               "capture_side": "both", "capture_gap": True, "chain": "forward", "end_below": 2}),
    NamedGame("mandoli", "Mandoli", "Europe", f"{VALDEZ}, p19",
              "Relay sowing; even counts taken two holes at most, and nothing in the first two turns.",
              {"seeds": 6, **FREE, "laps": "relay", "capture_side": "both", "capture_max": 0,
               "capture_parity": "even", "captures": 2, "no_capture_turns": 2, "leftover": "nobody", "end_below": 2,
               "endless_leftover": "nobody"}),
    NamedGame("mangala_ii", "Mangala II", "Western Asia, Europe", f"{VALDEZ}, p47",
              "Six seeds a hole and chains of even counts; a grand slam takes nothing.",
              {"seeds": 6, "skip_origin": False, "capture_max": 6, "capture_parity": "even",
               "grand_slam": "no_capture"}),
    NamedGame("mangala_iii", "Mangala III", "Eastern Africa", f"{HANSON}, p81",
              "Six holes of five sown outward from the middle; one hole of 2 or 4 is taken, on either side.",
              {"seeds": 5, "direction": "outward", **FREE, "min_seeds": 2, "capture_max": 4,
               "capture_parity": "even", "capture_side": "both", "captures": 1, "leftover": "divided"}),
    NamedGame("mangala_iv", "Mangala IV", "Western Asia", f"{WIKI}Mangala_IV",
              "Seven holes, the seeds dealt at random; relay sowing; 2s and 4s taken on either row.",
              {"holes": 7, "seeds": 7, "start": "random", "laps": "relay", "skip_origin": False,
               "capture_max": 4, "capture_parity": "even", "capture_side": "both", "must_share": False,
               "must_pass": True, "end_below": 2}),
    NamedGame("mbangbi", "Mbangbi", "Central Africa", f"{RUSS}, p20",
              "Five holes of eight sown either way; a hole needs two seeds; 2s and 4s taken in a clockwise chain.",
              {"holes": 5, "seeds": 8, "choose_direction": "all", "min_seeds": 2, "capture_max": 4,
               "capture_parity": "even", "chain": "cw", "must_share": False, "must_pass": True}),
    NamedGame("meusueb", "Meusueb", "Southeast Asia", f"{RUSS}, p66",
              "Relay sowing that takes a four at each lap's end; near the end the seeds sown across go to the "
              "opponent.",
              {"laps": "relay", "lap_capture": True, "last_seeds_to_opponent": 8, "skip_origin": False,
               "capture_min": 4, "capture_max": 4, "capture_side": "both", "captures": 1, "must_share": False,
               "end_below": 4}),
    NamedGame("modiar", "Modiar", "Northern Africa", f"{WIKI}Modiar",
              "Three holes of seven; a move leaves one seed behind; no grand slam, no capture in the first turn.",
              {"holes": 3, "seeds": 7, "skip_origin": False, "leave_one": True, "min_seeds": 2,
               "capture_side": "both", "capture_max": 6, "capture_parity": "even", "grand_slam": "illegal",
               "no_capture_turns": 1}),
    NamedGame("ndoto", "Ndoto", "Eastern Africa", f"{RUSS}, p30",
              "Eight holes of two, relay sowing, cross captures; a lone seed moves only into an empty hole.",
              {"holes": 8, "seeds": 2, **FREE, "laps": "relay", **CROSS, "move_rule": "single_to_empty",
               "end_below": 2}),
    NamedGame("nsa_isong", "Nsa Isong", "Western Africa", f"{WIKI}Nsa_Isong",
              "Adi sown clockwise, a game of rounds won outright by the seeds for all but two holes.",
              {**FREE, "direction": "cw", "laps": "relay", **FOURS, "take_last": 4, "win_short": 9}),
    NamedGame("obridjie", "Obridjie", "Eastern Africa", f"{VALDEZ}, p21",
              "Relay sowing that stops on a four; fours taken as the seeds pass go to their row's owner.",
              {**FREE, "laps": "relay", **FOURS, "leftover": "nobody", "end_below": 4, "endless_leftover": "nobody"}),
    NamedGame("ohvalhu", "Ohvalhu", "South Asia (Maldives)", f"{WIKI}Ohvalhu",
              "Eight holes of eight, relay sowing through the own store, cross captures.",
              {"holes": 8, "seeds": 8, **FREE, "sow_store": True, "laps": "relay", **CROSS, "take_own": "on_capture",
               "win_short": 32, **match("left", holes=4)}),
    NamedGame("olinda", "Olinda", "South Asia", f"{RUSS}, p61",
              "The first move chooses each player's way for the game; laps go on from the next hole, and the hole "
              "beyond a gap is taken.",
              {"holes": 7, "direction": "opposed", "laps": "next", **FREE, "capture_min": 0, "capture_max": 0,
               "capture_side": "both", "capture_gap": True, "chain": "forward", "win_short": 4, "end_below": 2,
               **match("left")}),
    NamedGame("olowuka", "Olowuka", "Western Africa", f"{WIKI}Olowuka",
              "Relay laps only from a hole of four or more; a grand slam leaves the opponent's rightmost full hole.",
              {"laps": "relay", "lap_rule": "count_at_least", "lap_count": 4, "grand_slam": "leave_right",
               **FREE, "end_below": 2}),
    NamedGame("ot_tjin", "Ot-tjin", "Southeast Asia", f"{RUSS}, p64",
              "Ten holes of three sown clockwise in relays; a hole made three is taken, on either row.",
              {"holes": 10, "seeds": 3, **FREE, "direction": "cw", "laps": "relay", "capture_side": "both",
               "capture_min": 3, "capture_max": 3, "captures": 1, "end_below": 3}),
    NamedGame("ouri", "Ouri", "Western Africa", f"{VALDEZ}, p66",
              "Wari where a single seed moves only when nothing else can, a grand slam gives another turn and the "
              "unfed take the board.",
              {"move_rule": "singles_last", "grand_slam": "extra_turn", "unfed_takes": True}),
    NamedGame("pallanguli", "Pallanguli (Pallanguzhi)", "South Asia", f"{HANSON}, p85-92",
              "Seven holes of six; sowing goes on from the next hole; fours as they pass, the hole past a gap.",
              {"holes": 7, "seeds": 6, "skip_origin": False, "laps": "next", **FOURS, "capture_gap": True,
               "chain": "forward", "take_last": 6, "must_pass": True, "win_short": 18, **match("right", holes=3)}),
    NamedGame("pandi", "Pandi", "South Asia", f"{RUSS}, p60",
              "Pallanguli's sowing; a capture past a gap also takes the hole across; every four as it passes.",
              {"holes": 7, "seeds": 5, **FREE, "laps": "next", **FOURS, "passing": "owner_all", "capture_gap": True,
               "chain": "forward", "take_across": True, "win_short": 5, "end_below": 2, **match("left")}),
    NamedGame("qelat", "Qelat", "Eastern Africa", f"{MOHR}, p101",
              "Sown outward; fours taken anywhere; a four made at or beside an end wins the hole; no stores.",
              {"direction": "outward", "capture_min": 4, "capture_max": 4, "capture_side": "both", "captures": 1,
               "must_share": False, "must_pass": True, "leftover": "nobody", "children": "normal",
               "child_count": 4, "child_holes": "ends_next_opponent", "child_stores": True}),
    NamedGame("qelat_ii", "Qelat II", "Eastern Africa", f"{VALDEZ}, p138",
              "Relay sowing; a last seed making four wins the hole, a weg that the opponent's last seeds rob two at "
              "a time.",
              {"laps": "relay", "skip_origin": False, "capture_min": 0, "capture_max": 0, "capture_side": "both",
               "captures": 1, "must_share": False, "children": "weg", "child_count": 4}),
    NamedGame("sadeqa_iii", "Sadeqa III", "Eastern Africa", f"{WIKI}Sadeqa_III",
              "Eight holes of six, relay sowing, cross captures that leave the sowing seed.",
              {"holes": 8, "seeds": 6, **FREE, "laps": "relay", **CROSS, "leftover": "mover", "end_below": 2}),
    NamedGame("sadeqa_iv", "Sadeqa IV", "Eastern Africa", f"{WIKI}Sadeqa_II",
              "Three seeds a hole, the rightmost opening; relay sowing, cross captures; a player left with an empty "
              "row loses.",
              {"seeds": 3, "start": "rightmost_first", "laps": "relay", "skip_origin": False, "capture_min": 0,
               "capture_max": 0, "capture_side": "both", "cross_capture": True, "captures": 1,
               "must_share": False, "goal": "deprive"}),
    NamedGame("sokusowo", "Sokusowo", "Eastern Africa", f"{VALDEZ}, p26",
              "Four holes; a hole needs two seeds; relay sowing, one seed of each lap banked before it is sown.",
              {"holes": 4, "laps": "relay", "skip_origin": False, "min_seeds": 2, "pre_capture": "one_seed",
               "capture_min": 0, "capture_max": 0, "capture_side": "both", "captures": 1, "must_share": False}),
    NamedGame("songo", "Songo", "Central Africa", f"{RUSS}, p19",
              "Seven holes of five sown clockwise; chains of 2s and 4s on the opponent's row.",
              {"holes": 7, "seeds": 5, "direction": "cw", "capture_max": 4, "capture_parity": "even"}),
    NamedGame("tegre", "Tegre", "Eastern Africa", f"{RUSS}, p30",
              "Relay sowing in which a lone seed that captures across sows on alone.",
              {**FREE, "laps": "relay", "lap_capture": True, **CROSS, "leftover": "mover", "win_short": 16,
               "end_below": 2, **match("right", closed=False, holes=4)}),
    NamedGame("tihbat", "Tihbat", "Northern Africa", f"{WIKI}Tihbat",
              "Two holes of seven: an even count up to eight is taken from either row.",
              {"holes": 2, "seeds": 7, **FREE, "capture_side": "both", "capture_max": 8, "capture_parity": "even",
               "captures": 1, "end_below": 2}),
    NamedGame("toguz_xorgol", "Toguz Xorgol", "Central Asia", f"{RUSS}, p25",
              "Nine holes of nine sown clockwise, a seed left behind; even counts from four taken; one owned hole "
              "each.",
              {"holes": 9, "seeds": 9, "direction": "cw", "skip_origin": False, "leave_one": True,
               "move_one": True, "capture_min": 4, "capture_max": 0, "capture_parity": "even", "captures": 1,
               "must_share": False, "end_below": 4, "children": "one", "child_count": 3,
               "child_side": "opponent", "child_holes": "not_facing"}),
    NamedGame("urim", "Urim", "Western Africa", f"{VALDEZ}, p55",
              "Wari's counts up to four, no hole sown past seventeen, a grand slam taking nothing: a match to ten "
              "points, two for a round won with three quarters of the seeds.",
              {"sow_max": 17, "capture_max": 4, "grand_slam": "no_capture", "win_short": 1, "leftover": "mover",
               **tally("points", 10)}),
    NamedGame("vai_lun_thlan", "Vai Lun Thlan", "South Asia", f"{MOHR}, p99",
              "Five seeds a hole sown clockwise; every hole made a single is taken, in chains; passes.",
              {"seeds": 5, **FREE, "direction": "cw", "capture_side": "both", "capture_min": 1, "capture_max": 1,
               "must_pass": True}),
    NamedGame("voleur", "Voleur", "Caribbean", f"{WIKI}Voleur",
              "Any count made by the last seed is taken, on either row, one hole a move.",
              {**FREE, "capture_side": "both", "capture_min": 1, "capture_max": 0, "captures": 1}),
    NamedGame("wari", "Wari", "Western Africa, Caribbean", f"{RUSS}, p14",
              "The family's defaults: chains of 2s and 3s on the opponent's row, must feed, the origin skipped."),
    NamedGame("waurie", "Waurie", "Caribbean", f"{VALDEZ}, p16",
              "Sowing through the own store and no captures: the first to empty their own row wins.",
              {"sow_store": True, "capture_min": 0, "capture_max": 0, "capture_side": "both", "captures": 1,
               "must_share": False, "goal": "clear"}),
    NamedGame("oware", "Oware (Abapa)", "Western Africa, Caribbean", "OpenSpiel's oware, https://github.com/"
              "google-deepmind/open_spiel (the rules module says where it departs)",
              "Wari with the grand slam allowed but capturing nothing, and an end on repetition.", game="oware"),
    NamedGame("togyz_kumalak", "Togyz Kumalak", "Central Asia (Kazakhstan, Kyrgyzstan)",
              "Wikipedia, https://en.wikipedia.org/wiki/Toguz_korgool (the rules module says which are played)",
              "Nine holes of nine; an even count on the opponent's row is taken, and one hole may become a tuzduk.",
              game="togyz_kumalak"),
    NamedGame("sungka", "Sungka", "Southeast Asia (Philippines)",
              "Dionido & Bautista, Mastering the Game of Sungka from Random Play (one round, as there)",
              "Seven holes of seven, relay sowing through the own store, and the sunog capture.",
              game="sungka"),
)
NAMED = {game.name: game for game in NAMED_GAMES}
