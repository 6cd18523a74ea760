"""Each game in its own words (issue 59 §4): ``Game.rules_text()`` is written from the rule parameters.

Held both ways: for each of the family's parameters, rule sets that differ only there and play
differently read differently; and rule sets that read alike play alike (a parameter changed on
drawn rule sets, and a few changed at once). Plus what a player's text must not hold, its length
for the named games, and hand-worked sentences.
"""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest

from mancala_marl.errors import BadInput
from mancala_marl.games import GAMES, NAMED_GAMES, make_game
from mancala_marl.games.family import Family, sample_rules
from mancala_marl.games.family_rules import DRAWS, repaired
from mancala_marl.games.family_space import PARAMETERS
from mancala_marl.games.family_text import counts, describe

KNOWN = {param.name: param for param in PARAMETERS}


def play(game: Family, games: int = 6, moves: int = 200) -> list[tuple]:
    """What a player sees over seeded random games: each board with the player to move, each mask, each result."""
    seen = []
    for g in range(games):
        rng = np.random.default_rng(g)
        state = game.init(np.random.default_rng(100 + g))
        for _ in range(moves):
            seen.append(tuple(state[: game.board_size + 1]))
            if game.is_terminal(state):
                seen.append(tuple(game.returns(state)))
                break
            mask = game.legal_mask(state)
            seen.append(tuple(mask))
            state = game.apply(state, int(rng.choice(np.flatnonzero(mask))))
    return seen


def plays_alike(a: dict, b: dict) -> bool:
    first, second = Family(**a), Family(**b)
    return first.board_size == second.board_size and play(first) == play(second)


# For each parameter: a context (values over the defaults, Wari's rules) and values it takes there, of
# which most pairs play differently over the sampled games (each value at least once). A value given
# as (value, changes) takes other changes with it, where the family refuses a parameter that would do
# nothing (a child count in a game without children).
PER_PARAMETER = {
    "holes": ({}, [6, 5, 3]),
    "seeds": ({}, [4, 3, 5]),
    "start": ({"holes": 6}, ["equal", "two_empty", "triples", "plus_one", "alternate_one", "alternate_split",
                             "gamacha", "rightmost_first", "random"]),
    "direction": ({}, ["ccw", "cw", "outward", "inward", "by_parity", "opposed"]),
    "choose_direction": ({"holes": 5}, ["none", "middle", "all", "ends_and_middle"]),
    "sow_store": ({}, [False, True]),
    "opponent_store": ({"sow_store": True}, ["passed", "sown", "sown_no_turn"]),
    "laps": ({}, ["single", "relay", "next"]),
    "lap_rule": ({"laps": "relay"}, ["any", "own_side", "opponent_side"]),
    "lap_count": ({"laps": "relay", "lap_rule": "count_is"}, [2, 3, 4]),
    "lap_capture": ({"laps": "relay", "cross_capture": True, "capture_min": 0, "capture_max": 0}, [False, True]),
    "last_seeds_to_opponent": ({}, [0, 12, 30]),
    "skip_origin": ({"seeds": 12}, [True, False]),
    "sow_max": ({}, [0, 5]),
    "leave_one": ({"min_seeds": 2}, [False, True]),
    "move_one": ({"leave_one": True}, [False, True]),
    "min_seeds": ({"must_share": False}, [1, 2, 3]),
    "move_rule": ({}, ["any", "opponent_or_empty", "single_to_empty", "not_across_ones", "singles_last",
                       "to_occupied", "every_hole_first"]),
    "pre_capture": ({}, ["none", "one_seed", "across_ones", "across_lone"]),
    "capture_min": ({}, [2, 1, 0]),
    "capture_max": ({}, [3, 2, 0]),
    "capture_parity": ({"capture_max": 0}, ["any", "even", "odd"]),
    "capture_side": ({}, ["opponent", "own", "both", "opponent_first", "own_first"]),
    "cross_capture": ({}, [False, True]),
    "cross_chain": ({"cross_capture": True, "capture_min": 0}, ["empty", "any"]),
    "take_own": ({"cross_capture": True, "capture_min": 0, "captures": 1}, ["leave", "on_capture", "always"]),
    "capture_kind": ({}, ["standard", "pull_across", "store_to_opponent", "opponent_counts", "next",
                          ("singles", {"capture_min": 0})]),
    "capture_gap": ({"capture_min": 0}, [False, True]),
    "passing": ({"capture_min": 4, "capture_max": 4, "capture_side": "both", "captures": 1},
                ["none", "owner", "owner_all", "sower", "sower_own", "sower_opponent"]),
    "captures": ({}, [0, 1, 2]),
    "chain": ({"capture_side": "both"}, ["backward", "forward", "cw", "ccw"]),
    "no_single_capture": ({}, [False, True]),
    "grand_slam": ({"holes": 3, "seeds": 2}, ["legal", "illegal", "no_capture", "leave_left", "leave_right",
                                               "extra_turn", "opponent_gets_row"]),
    "take_final": ({"cross_capture": True, "capture_min": 0, "capture_side": "both"}, [False, True]),
    "take_across": ({"capture_side": "both"}, [False, True]),
    "capture_extra_turn": ({}, [False, True]),
    "extra_turn_once": ({"capture_extra_turn": True}, [False, True]),
    "no_capture_turns": ({}, [0, 4]),
    "take_last": ({}, [0, 4]),
    "take_last_by": ({"take_last": 4}, ["mover", "first"]),
    "must_share": ({}, [True, False]),
    "must_pass": ({"must_share": False}, [False, True]),
    "goal": ({"must_share": False}, ["most_seeds", "deprive", "clear", "immobilize"]),
    "end_seeds_left": ({}, [-1, 0, 6]),
    "end_cleared": ({"must_share": False}, ["no", "own", "opponent", "either"]),
    "early_win": ({}, [True, False]),
    "win_short": ({}, [0, 12]),
    "end_below": ({}, [0, 6]),
    "leftover": ({"end_below": 8}, ["owner", "mover", "divided", "nobody"]),
    "unfed_takes": ({}, [False, True]),
    "endless_leftover": ({"laps": "relay", "skip_origin": False, "capture_min": 0, "holes": 3, "seeds": 2,
                          "must_share": False}, ["divided", "owner", "mover", "nobody"]),
    "children": ({"child_count": 3, "must_share": False}, [("none", {"child_count": 0}), "normal", "one", "weg",
                                                           "bull", "qur"]),
    "child_count": ({"children": "normal", "must_share": False}, [2, 3, 4]),
    "child_side": ({"children": "normal", "child_count": 3, "must_share": False}, ["any", "opponent", "own"]),
    "child_holes": ({"children": "normal", "child_count": 2, "must_share": False},
                    ["anywhere", "ends", "no_ends", "inner_own", "ends_next_opponent", "no_own_right",
                     "no_opponent_right", "no_opponent_left", "not_symmetric", "not_facing", "ends_inner_opponent",
                     ("fixed_right", {"child_count": 0})]),
    "child_sowing": ({"children": "normal", "child_count": 2, "must_share": False},
                     ["into", "skip_opponent", "skip_opponent_but_last"]),
    "child_stores": ({"children": "normal", "child_count": 3, "must_share": False}, [False, True]),
    "children_bank": ({"children": "normal", "child_count": 3, "must_share": False}, [False, True]),
    "slam_from_empty": ({"grand_slam": "no_capture", "holes": 3, "seeds": 2, "capture_min": 1, "capture_max": 2},
                        [False, True]),
    "slam_avoided": ({"grand_slam": "no_capture", "holes": 3, "seeds": 2}, [False, True]),
    "win_sweep": ({}, [False, True]),
    "repetition_ends": ({"holes": 3, "seeds": 1, "must_share": False}, [False, True]),
    "rounds": ({}, ["one", "match"]),
    "round_fill": ({"rounds": "match", "closed_holes": True}, ["outside", "left", "right"]),
    "closed_holes": ({"rounds": "match"}, [False, True]),
    "round_starter": ({"rounds": "match"}, ["alternate", "loser", "winner", "last_mover"]),
    "match_holes": ({"rounds": "match"}, [1, 2, 3]),
    "match_end": ({"rounds": "match", "match_target": 2}, [("unfilled", {"match_target": 1}), "round_wins", "points"]),
    "match_target": ({"rounds": "match", "match_end": "round_wins"}, [1, 2, 3]),
    "close_at": ({"goal": "immobilize", "must_share": False, "capture_min": 0, "capture_max": 0}, [0, 1, 2, 3]),
    "share_either_way": ({"choose_direction": "all"}, [False, True]),
    "fixed_way_turns": ({"choose_direction": "all"}, [0, 1, 2]),
    "locked_holes": ({"holes": 3, "seeds": 2}, [False, True]),
    "sow_own_row": ({"must_share": False, "sow_store": True, "cross_capture": True, "capture_min": 0,
                     "capture_max": 0}, [False, True]),
    "sow_captured": ({"goal": "deprive", "must_share": False, "capture_min": 0, "capture_max": 0, "laps": "relay",
                      "lap_capture": True, "cross_capture": True, "captures": 1}, [False, True]),
    "close_rightmost": ({"goal": "immobilize", "must_share": False, "capture_min": 0, "capture_max": 0,
                         "close_at": 2}, [True, False]),
}


def test_every_parameter_of_the_family_has_its_pairs():
    assert set(PER_PARAMETER) == set(KNOWN)


@pytest.mark.parametrize("name", list(PER_PARAMETER))
def test_a_parameter_that_changes_play_changes_the_text(name):
    context, values = PER_PARAMETER[name]
    sets = [dict(Family(**{**context, name: value[0], **value[1]} if isinstance(value, tuple) else
                        {**context, name: value}).params) for value in values]  # each one the family takes
    shown = 0
    for a, b in itertools.combinations(sets, 2):
        if plays_alike(a, b):  # (the sampled games never met the difference)
            continue
        shown += 1
        assert describe(a) != describe(b), f"{name}: {a[name]!r} and {b[name]!r} read alike:\n{describe(a)}"
    assert shown >= len(values) - 1, f"{name}: only {shown} pairs of {values} played differently"


def neighbours(rules: dict):
    """The rule sets the family takes that differ from ``rules`` in one parameter."""
    for name, param in KNOWN.items():
        value = rules[name]
        if param.choices or param.type is bool:
            others = [v for v in (param.choices or (False, True)) if v != value]
        else:
            others = sorted({value - 1, value + 1, 0, 1, 2, 4} - {value})
        for other in others:
            try:
                yield name, dict(Family(**{**rules, name: other}).params)
            except BadInput:
                continue


def test_rule_sets_one_parameter_apart_that_read_alike_play_alike():
    rng = np.random.default_rng(0)
    bases = [sample_rules(rng) for _ in range(12)] + [make_game(g.name).family_rules() for g in NAMED_GAMES]
    # and the rules no named game has: holes closed for good (Deka's), a chosen way beside must-share, NS Kalah's, mikro tsoro's
    bases += [dict(Family(goal="immobilize", must_share=False, capture_min=0, capture_max=0, laps="relay",
                          close_at=3).params), dict(Family(choose_direction="all", share_either_way=True).params),
              dict(Family(sow_own_row=True, must_share=False, sow_store=True, cross_capture=True, capture_min=0,
                          capture_max=0, grand_slam="opponent_gets_row").params),
              dict(Family(sow_own_row=True, must_share=False, capture_min=0, capture_max=0, laps="relay",
                          lap_capture=True, cross_capture=True, captures=1, goal="deprive", sow_captured=True).params)]
    varied, alike = set(), 0
    for rules in bases:
        text = describe(rules)
        for name, other in neighbours(rules):
            varied.add(name)
            if describe(other) == text:
                alike += 1
                assert plays_alike(rules, other), f"{name}={other[name]!r} against {rules[name]!r} reads alike " \
                                                  f"and plays otherwise, in {rules}"
    assert varied == set(KNOWN) and alike >= 50  # every parameter was changed, and pairs read alike were played


def test_drawn_rule_sets_a_few_parameters_apart_that_read_alike_play_alike():
    rng = np.random.default_rng(7)
    alike = 0
    for _ in range(60):
        first = sample_rules(rng)
        changed = {name: DRAWS[name][int(rng.integers(len(DRAWS[name])))]
                   for name in rng.choice(sorted(DRAWS), size=3, replace=False)}
        try:
            second = dict(Family(**repaired({**first, **changed})).params)
        except BadInput:
            continue
        if describe(first) == describe(second):
            alike += 1
            assert plays_alike(first, second), f"{first}\nand\n{second}\nread alike and play otherwise"
    assert alike >= 5  # pairs that read alike were met, and played


def every_text():
    """The text of each registered game, each named game and some drawn rule sets, by a label."""
    texts = {name: make_game(name).rules_text() for name in GAMES}
    texts.update({g.name: make_game(g.name).rules_text() for g in NAMED_GAMES})
    rng = np.random.default_rng(3)
    texts.update({f"drawn {i}": describe(sample_rules(rng)) for i in range(40)})
    return texts


def test_a_players_text_names_no_parameter_nor_a_word_of_the_code():
    implementation = re.compile(r"=|_|\b(kernel|numba|spec|slot|MancalaGames|player_[01]|ccw|cw)\b|[{}`]")
    for label, text in every_text().items():
        assert not implementation.search(text), (label, implementation.search(text).group(), text)


def test_each_named_game_is_told_in_at_most_300_words_each_its_own():
    games = {g.name: make_game(g.name) for g in NAMED_GAMES}
    games.update({name: make_game(name) for name in GAMES if name != "family"})
    for name, game in games.items():
        # a match's rounds take a paragraph more, some 90 words
        most = 400 if game.family_rules()["rounds"] == "match" else 300
        assert 80 <= len(game.rules_text().split()) <= most, (name, len(game.rules_text().split()))
    named = [make_game(g.name) for g in NAMED_GAMES]
    for a, b in itertools.combinations(named, 2):
        if a.family_rules() != b.family_rules():
            assert a.rules_text() != b.rules_text(), (a.known_as, b.known_as)


def test_the_package_games_are_told_in_their_own_words():
    sungka, togyz = make_game("sungka").rules_text(), make_game("togyz_kumalak").rules_text()
    assert "stone" in sungka and "seed" not in sungka and "house" in sungka
    assert "ball" in togyz and "seed" not in togyz
    kalah = make_game("kalah").rules_text()
    assert kalah.startswith("The board has two rows of 6 pits, one for each player, and a store at the right end "
                            "of each player's row. Each pit starts with 4 seeds, 48 in all.")
    assert "If the last seed falls in an empty pit of their own, the seeds of the pit across are captured, with " \
           "the capturing seed." in kalah
    assert "A last seed in their own store gives the player another turn." in kalah
    assert "The game ends when the player to move cannot move, when either row is empty or after 1,000 moves" in kalah
    assert "either row" not in make_game("kalah", end_rule="mover").rules_text()
    oware = make_game("oware").rules_text()
    assert "(a grand slam) may be played but captures nothing" in oware
    assert "It may be played only when no other move is legal." in make_game("oware", grand_slam="illegal").rules_text()
    assert "more than 81 of the 162 balls in store wins at once" in togyz
    assert "more than 81" not in make_game("togyz_kumalak", stop_at_majority=False).rules_text()


def test_a_start_pattern_is_read_out_hole_by_hole():
    text = make_game("family", start="two_empty", holes=5, seeds=3).rules_text()
    assert "the first player's hold 3, 3, 3, 0, 0 and the second player's 3, 3, 3, 0, 0 (18 in all)" in text


@pytest.mark.parametrize("low, high, parity, said", [
    (2, 3, "any", "2 or 3 {s}s"),
    (4, 4, "any", "4 {s}s"),
    (1, 1, "any", "1 {s}"),
    (2, 6, "even", "2, 4 or 6 {s}s"),
    (1, 0, "odd", "an odd number of {s}s, at least 1"),
    (2, 0, "any", "at least 2 {s}s"),
    (1, 12, "any", "1 to 12 {s}s"),
    (2, 20, "even", "an even number of {s}s from 2 to 20"),
    (3, 3, "even", "no number of {s}s"),
])
def test_the_counts_a_capture_takes_read_as_a_player_says_them(low, high, parity, said):
    assert counts({"capture_min": low, "capture_max": high, "capture_parity": parity}) == said
