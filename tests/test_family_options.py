"""The family's options for the captures before sowing, the move rules that read the board, the
capture kinds, the opponent's store sown, the grand slam that gives another turn and the last seeds
handed to the opponent (games/family*.py), on exact boards worked by hand; their refusals, the
importer's mapping of MancalaGames' options to them, and random games of each.

Boards are written as in tests/test_family.py: ``p0 [holes 0..5] s0 | p1 [holes 0..5] s1``, each row
from its owner's left end; cells 0..5, store 6, 7..12, store 13; the hole across from cell c is
cell 12 - c.
"""

import re

import numpy as np
import pytest

from mancala_marl.errors import BadInput
from mancala_marl.games.family import Family
from mancala_marl.games.mancalagames import DEFAULTS, family_params
from mancala_marl.games.family_space import MARKS, PLAYED

from .test_family import OVER, After, legal, play, position

SOW_ONLY = dict(capture_min=0, must_share=False)


# -- captures before sowing ---------------------------------------------------------------------
@pytest.mark.parametrize("pre_capture, expected", [
    # one seed of each lap's to the store: hole 2's 3 seeds give 1 and sow holes 3 and 4 (2 -> 3);
    # the relay lifts hole 4's 3, gives 1, sows hole 5 and player_1's hole 0, empty: the sowing ends
    ("one_seed", After([0, 0, 0, 1, 0, 1], 2, [1, 0, 0, 0, 0, 0], 0, 1)),
    # without: hole 2's 3 seeds to holes 3, 4 and 5, which was empty: the sowing ends there, and
    # player_1, without seeds, cannot move: the game ends, player_0's 5 seeds to its store
    ("none", After([0, 0, 0, 0, 0, 0], 5, [0, 0, 0, 0, 0, 0], 0, OVER)),
])
def test_pre_capture_one_seed_of_each_lap(pre_capture, expected):
    # laps="relay": p0 [0 0 3 0 2 0] 0 | p1 [0 0 0 0 0 0] 0, player_0 plays hole 2
    game = Family(pre_capture=pre_capture, laps="relay", **SOW_ONLY)
    state = position(game, [0, 0, 3, 0, 2, 0], 0, [0, 0, 0, 0, 0, 0], 0)
    assert play(game, state, 2) == expected


@pytest.mark.parametrize("hole, expected", [
    # player_0's holes of one seed, 0 and 3, take across (player_1's holes 5 and 2: 6 + 2) before
    # hole 2 sows its 2 seeds into holes 3 and 4
    (2, After([1, 0, 0, 2, 1, 0], 8, [3, 1, 0, 4, 5, 0], 0, 1)),
    # a hole of one that is played takes across too: the board as the move found it
    (3, After([1, 0, 2, 0, 1, 0], 8, [3, 1, 0, 4, 5, 0], 0, 1)),
])
def test_pre_capture_across_the_movers_ones(hole, expected):
    game = Family(pre_capture="across_ones", **SOW_ONLY)
    state = position(game, [1, 0, 2, 1, 0, 0], 0, [3, 1, 2, 4, 5, 6], 0)
    assert play(game, state, hole) == expected


@pytest.mark.parametrize("hole, expected", [
    # a lone seed lifted from hole 1 takes the hole across (player_1's hole 4: 3), then is sown
    (1, After([0, 0, 1, 0, 2, 0], 3, [1, 1, 1, 1, 0, 1], 0, 1)),
    # two seeds lifted take nothing
    (4, After([0, 1, 0, 0, 0, 1], 0, [2, 1, 1, 1, 3, 1], 0, 1)),
])
def test_pre_capture_across_a_lone_seed_lifted(hole, expected):
    game = Family(pre_capture="across_lone", **SOW_ONLY)
    state = position(game, [0, 1, 0, 0, 2, 0], 0, [1, 1, 1, 1, 3, 1], 0)
    assert play(game, state, hole) == expected


# -- move rules that read the board ---------------------------------------------------------------
def test_move_rule_not_across_ones():
    # player_1's holes 1 and 5 hold one seed: across from them are player_0's holes 4 and 0
    game = Family(move_rule="not_across_ones", **SOW_ONLY)
    state = position(game, [1, 1, 1, 1, 1, 1], 0, [2, 1, 2, 2, 2, 1], 0)
    assert legal(game, state) == [1, 2, 3, 5]


@pytest.mark.parametrize("p0, moves", [
    ([1, 2, 1, 0, 3, 1], [1, 4]),     # holes of more than one: the ones wait
    ([1, 0, 1, 0, 0, 1], [0, 2, 5]),  # every hole that may be played holds one: any of them
])
def test_move_rule_singles_last(p0, moves):
    game = Family(move_rule="singles_last", **SOW_ONLY)
    assert legal(game, position(game, p0, 0, [1, 1, 1, 1, 1, 1], 0)) == moves


def test_move_rule_to_occupied():
    # skip_origin=False, a ring of 12 holes: p0 [12 1 0 1 1 13] 0 | p1 [0 1 1 1 1 1] 0.
    # hole 0: 12 seeds end in hole 0 itself, emptied, now one: refused; hole 1 ends in hole 2,
    # empty: refused; holes 3 and 4 end in holes holding a seed; hole 5's 13 seeds come round to
    # player_1's hole 0 twice, leaving it two: allowed.
    game = Family(move_rule="to_occupied", skip_origin=False, **SOW_ONLY)
    assert legal(game, position(game, [12, 1, 0, 1, 1, 13], 0, [0, 1, 1, 1, 1, 1], 0)) == [3, 4, 5]


def test_move_rule_every_hole_first():
    # Adji-boto's rule: each of a player's holes once before any again. Three holes of two seeds,
    # no stores sown: player_0 plays hole 0, then may play holes 1 and 2 only; once all three have
    # been played, any
    game = Family(holes=3, seeds=2, move_rule="every_hole_first", **SOW_ONLY)
    state = game.init()
    for hole, after in [(0, After([0, 3, 3], 0, [2, 2, 2], 0, 1)), (0, After([0, 3, 3], 0, [0, 3, 3], 0, 0))]:
        assert play(game, state, hole) == after
    assert legal(game, state) == [1, 2]
    assert play(game, state, 1) == After([0, 0, 4], 0, [1, 4, 3], 0, 1)
    assert legal(game, state) == [1, 2]  # player_1's hole 0 was played
    assert play(game, state, 1) == After([1, 1, 5], 0, [1, 0, 4], 0, 0)
    assert legal(game, state) == [2]
    assert play(game, state, 2) == After([2, 2, 0], 0, [2, 1, 5], 0, 1)
    assert play(game, state, 2) == After([3, 3, 1], 0, [3, 2, 0], 0, 0)
    assert legal(game, state) == [0, 1, 2]  # every hole of player_0's played: any again
    # a row whose unplayed holes are empty has no move, whatever its played holes hold
    state = position(game, [0, 2, 0], 0, [1, 1, 1], 0)
    state[game.board_size + MARKS + 1] = PLAYED
    assert legal(game, state) == []


@pytest.mark.parametrize("unlocked, after", [
    ([], After([0, 0, 0], 0, [2, 2, 0], 0, 1)),  # both holes sown are locked: nothing is taken
    ([5], After([0, 0, 0], 2, [2, 0, 0], 0, 1)),  # hole 1 played before: taken; the chain stops at locked hole 0
    ([4, 5], After([0, 0, 0], 4, [0, 0, 0], 0, OVER)),
])
def test_locked_holes_are_not_captured_until_their_owner_has_played_them(unlocked, after):
    # Wari's captures of 2 or 3 back along the sowing; player_0's 2 seeds make player_1's holes 0, 1 two
    game = Family(holes=3, locked_holes=True, must_share=False)
    state = position(game, [0, 0, 2], 0, [1, 1, 0], 0)
    for cell in unlocked:
        state[game.board_size + MARKS + cell] = PLAYED
    assert play(game, state, 2) == after
    assert state[game.board_size + MARKS + 2] == PLAYED  # the hole just played is unlocked


# -- the grand slam that gives another turn ------------------------------------------------------
@pytest.mark.parametrize("grand_slam, expected", [
    # hole 5's 2 seeds make player_1's holes 0, 1 hold 2 and 3, taken (the defaults' 2..3): the
    # whole row; the capture stands and player_0 moves again
    ("extra_turn", After([1, 0, 0, 0, 0, 0], 5, [0, 0, 0, 0, 0, 0], 0, 0)),
    # legal: player_1 has no move, the game ends, player_0's seed to its owner
    ("legal", After([0, 0, 0, 0, 0, 0], 6, [0, 0, 0, 0, 0, 0], 0, OVER)),
])
def test_grand_slam_extra_turn(grand_slam, expected):
    game = Family(grand_slam=grand_slam, must_share=False)
    state = position(game, [1, 0, 0, 0, 0, 2], 0, [1, 2, 0, 0, 0, 0], 0)
    assert play(game, state, 5) == expected


# -- capture kinds ------------------------------------------------------------------------------
@pytest.mark.parametrize("side, expected", [
    # hole 5's 2 seeds end in player_1's hole 1: every hole of one on player_1's row is taken (0, 3, 5)
    ("opponent", After([1, 0, 0, 0, 0, 0], 3, [0, 2, 3, 0, 0, 0], 0, 1)),
    # from both rows: player_0's hole 0 too
    ("both", After([0, 0, 0, 0, 0, 0], 4, [0, 2, 3, 0, 0, 0], 0, 1)),
])
def test_capture_kind_singles(side, expected):
    game = Family(capture_kind="singles", capture_side=side, **SOW_ONLY)
    state = position(game, [1, 0, 0, 0, 0, 2], 0, [0, 1, 3, 1, 0, 1], 0)
    assert play(game, state, 5) == expected


@pytest.mark.parametrize("p0, hole, expected", [
    # a lone seed into empty hole 1 draws the 5 seeds across (player_1's hole 4) into it: no store
    ([1, 0, 0, 0, 0, 0], 0, After([0, 6, 0, 0, 0, 0], 0, [1, 1, 1, 1, 0, 1], 0, 1)),
    # a last seed joining others (hole 1 held one) draws nothing
    ([1, 1, 0, 0, 0, 0], 0, After([0, 2, 0, 0, 0, 0], 0, [1, 1, 1, 1, 5, 1], 0, 1)),
])
def test_capture_kind_pull_across(p0, hole, expected):
    game = Family(capture_kind="pull_across", **SOW_ONLY)
    state = position(game, p0, 0, [1, 1, 1, 1, 5, 1], 0)
    assert play(game, state, hole) == expected


@pytest.mark.parametrize("p0, hole, expected", [
    # the last seed in player_1's empty hole 0: player_0's store (5) goes to player_1's
    ([0, 0, 0, 0, 0, 1], 5, After([0, 0, 0, 0, 0, 0], 0, [1, 3, 1, 1, 1, 1], 7, 1)),
    # the last seed joining others (player_1's hole 1): nothing
    ([0, 0, 0, 0, 0, 2], 5, After([0, 0, 0, 0, 0, 0], 5, [1, 4, 1, 1, 1, 1], 2, 1)),
    # an empty hole of player_0's own, not where captures come from: nothing
    ([1, 0, 0, 0, 0, 1], 0, After([0, 1, 0, 0, 0, 1], 5, [0, 3, 1, 1, 1, 1], 2, 1)),
])
def test_capture_kind_store_to_opponent(p0, hole, expected):
    game = Family(capture_kind="store_to_opponent", **SOW_ONLY)
    state = position(game, p0, 5, [0, 3, 1, 1, 1, 1], 2)
    assert play(game, state, hole) == expected


@pytest.mark.parametrize("p0, expected", [
    # the last seed on player_1's row (hole 0, now 3): player_1's holes of 2, 4 or 6 are taken
    ([0, 0, 0, 0, 2, 0], After([0, 0, 0, 0, 0, 1], 10, [3, 3, 0, 1, 0, 0], 0, 1)),
    # the last seed in player_0's own last hole: the same, player_1's hole 0 still holding 2
    ([0, 0, 0, 0, 1, 0], After([0, 0, 0, 0, 0, 1], 12, [0, 3, 0, 1, 0, 0], 0, 1)),
    # elsewhere on player_0's row: nothing
    ([0, 0, 1, 0, 0, 0], After([0, 0, 0, 1, 0, 0], 0, [2, 3, 4, 1, 6, 0], 0, 1)),
])
def test_capture_kind_opponent_counts(p0, expected):
    game = Family(capture_kind="opponent_counts", capture_min=2, capture_max=6, capture_parity="even",
                  must_share=False)
    state = position(game, p0, 0, [2, 3, 4, 1, 6, 0], 0)
    assert play(game, state, int(np.flatnonzero(p0)[0])) == expected


@pytest.mark.parametrize("captures, expected", [
    # hole 5's 2 seeds end in player_1's hole 1; chain="forward": the next hole (player_1's hole 2, 3)
    (1, After([0, 0, 0, 0, 0, 0], 3, [2, 1, 0, 2, 0, 0], 0, 1)),
    # and on while the holes hold seeds: hole 3 (2), then hole 4 is empty
    (0, After([0, 0, 0, 0, 0, 0], 5, [2, 1, 0, 0, 0, 0], 0, 1)),
])
def test_capture_kind_next(captures, expected):
    game = Family(capture_kind="next", chain="forward", captures=captures, **SOW_ONLY)
    state = position(game, [0, 0, 0, 0, 0, 2], 0, [1, 0, 3, 2, 0, 0], 0)
    assert play(game, state, 5) == expected


@pytest.mark.parametrize("take_final, expected", [
    # relay laps: the lone seed ends in player_1's empty hole 0, a hole captures come from, and the
    # next one holds 5: taken
    (False, After([0, 0, 0, 0, 0, 0], 5, [1, 0, 1, 0, 0, 0], 0, 1)),
    # take_final: the last hole's seed with them
    (True, After([0, 0, 0, 0, 0, 0], 6, [0, 0, 1, 0, 0, 0], 0, 1)),
])
def test_capture_kind_next_after_laps_and_take_final(take_final, expected):
    game = Family(capture_kind="next", chain="forward", laps="relay", take_final=take_final, captures=1, **SOW_ONLY)
    state = position(game, [0, 0, 0, 0, 0, 1], 0, [0, 5, 1, 0, 0, 0], 0)
    assert play(game, state, 5) == expected


# -- the opponent's store sown ------------------------------------------------------------------
@pytest.mark.parametrize("rules, expected", [
    # hole 5's 8 seeds: the own store, player_1's six holes, player_1's store: another turn
    ({"opponent_store": "sown"}, After([1, 1, 1, 1, 1, 0], 1, [2, 2, 2, 2, 2, 2], 6, 0)),
    # the same sowing, the turn passes
    ({"opponent_store": "sown_no_turn"}, After([1, 1, 1, 1, 1, 0], 1, [2, 2, 2, 2, 2, 2], 6, 1)),
    # and the last seed takes the store it fell in (5 + 1)
    ({"opponent_store": "sown_no_turn", "capture_kind": "opponent_store"},
     After([1, 1, 1, 1, 1, 0], 7, [2, 2, 2, 2, 2, 2], 0, 1)),
    # passed over: the 8th seed falls in player_0's hole 0
    ({}, After([2, 1, 1, 1, 1, 0], 1, [2, 2, 2, 2, 2, 2], 5, 1)),
])
def test_opponent_store_sown(rules, expected):
    game = Family(sow_store=True, **rules, **SOW_ONLY)
    state = position(game, [1, 1, 1, 1, 1, 8], 0, [1, 1, 1, 1, 1, 1], 5)
    assert play(game, state, 5) == expected


# -- the last seeds to the opponent -------------------------------------------------------------
@pytest.mark.parametrize("limit, expected", [
    # 2 seeds on the board once hole 5's 3 are lifted, at most 6: the seeds sown in player_1's holes
    # 0 and 1 go to player_1's store; the last one makes player_1's hole 2 hold 2, a capture: it
    # stays and is taken with the seed there
    (6, After([0, 0, 0, 0, 0, 0], 22, [1, 0, 0, 0, 0, 0], 22, 1)),
    # exactly 2: the same
    (2, After([0, 0, 0, 0, 0, 0], 22, [1, 0, 0, 0, 0, 0], 22, 1)),
    # more than 1 on the board: sown as usual, hole 2 (2) taken, hole 1 (1) stops the chain
    (1, After([0, 0, 0, 0, 0, 0], 22, [2, 1, 0, 0, 0, 0], 20, 1)),
])
def test_last_seeds_to_opponent(limit, expected):
    game = Family(last_seeds_to_opponent=limit, must_share=False)
    state = position(game, [0, 0, 0, 0, 0, 3], 20, [1, 0, 1, 0, 0, 0], 20)
    assert play(game, state, 5) == expected


# -- refusals -----------------------------------------------------------------------------------
@pytest.mark.parametrize("rules, message", [
    ({"pre_capture": "across_ones", "laps": "relay"}, "pre_capture='across_ones' with laps='relay' is not played"),
    ({"pre_capture": "across_lone", "laps": "next"}, "pre_capture='across_lone' with laps='next' is not played"),
    ({"capture_kind": "singles", "cross_capture": True}, "capture_kind='singles' with cross_capture=True"),
    ({"capture_kind": "next", "capture_gap": True}, "capture_kind='next' with capture_gap=True"),
    ({"capture_kind": "singles"}, "capture_min=2 does nothing with capture_kind='singles'"),
    ({"opponent_store": "sown"}, "opponent_store='sown' needs sow_store=True"),
    ({"opponent_store": "sown", "sow_store": True, "laps": "relay"}, "opponent_store='sown' with laps='relay'"),
    ({"capture_kind": "opponent_store", "sow_store": True}, "capture_kind='opponent_store' needs "
                                                             "opponent_store='sown_no_turn'"),
    ({"take_final": True, "capture_gap": True}, "take_final=True with capture_gap=True is not played"),
    ({"last_seeds_to_opponent": 3, "passing": "owner"}, "last_seeds_to_opponent=3 with passing='owner' is not played"),
])
def test_options_the_family_cannot_play_are_refused(rules, message):
    with pytest.raises(BadInput, match=re.escape(message)):
        Family(**rules)


# -- the importer ------------------------------------------------------------------------------
def imported(**info):
    data = {"game_class": "Mancala", "game_constants": {"holes": 6, "nbr_start": 4},
            "game_info": {"capt_on": [2, 3], "sow_direct": 1, "stores": True, **info}}
    return family_params(data, "Test.txt")


@pytest.mark.parametrize("info, ours", [
    ({"presowcapt": 1, "mlaps": 1}, {"pre_capture": "one_seed"}),
    ({"presowcapt": 2}, {"pre_capture": "across_ones"}),
    ({"presowcapt": 3}, {"pre_capture": "across_lone"}),
    ({"allow_rule": 3}, {"move_rule": "singles_last"}),
    ({"allow_rule": 10}, {"move_rule": "not_across_ones"}),
    ({"allow_rule": 11}, {"move_rule": "to_occupied"}),
    ({"allow_rule": 9}, {"move_rule": "every_hole_first"}),
    ({"moveunlock": True}, {"locked_holes": True}),
    ({"grandslam": 6}, {"grand_slam": "extra_turn"}),
    ({"capt_on": [], "capt_type": 4}, {"capture_kind": "singles"}),
    ({"capt_type": 5, "pickextra": 2}, {"capture_kind": "opponent_counts"}),
    ({"capt_on": [], "capt_type": 6, "sow_stores": 1}, {"capture_kind": "store_to_opponent"}),
    ({"capt_on": [], "capt_type": 7}, {"capture_kind": "pull_across"}),
    ({"capt_on": [], "capt_type": 1, "capt_dir": 1, "pickextra": 5}, {"capture_kind": "next", "chain": "forward",
                                                                       "take_final": True}),
    ({"capt_on": [], "sow_stores": 2}, {"sow_store": True, "opponent_store": "sown"}),
    ({"capt_on": [], "sow_stores": 6, "capt_type": 8}, {"opponent_store": "sown_no_turn",
                                                        "capture_kind": "opponent_store"}),
    ({"capt_on": [4], "mlaps": 1, "sow_rule": 10, "sow_param": 8}, {"lap_capture": True,
                                                                    "last_seeds_to_opponent": 8}),
])
def test_the_importer_maps_the_options(info, ours):
    params = imported(**info)
    assert {name: params[name] for name in ours} == ours
    Family(**params)


@pytest.mark.parametrize("info, message", [
    ({"capt_type": 5}, "asks for a capture of the opponent's next hole apart from its take, which is not played "
                       "here (capt_type=5)"),
    ({"pickextra": 2}, "apart from its take, which is not played here (pickextra=2)"),
    ({"udir_holes": [0, 3], "mustshare": True}, "asks for a chosen way of sowing for some holes only, which is not "
                                                "played here (udir_holes=[0, 3])"),
    ({"sow_stores": 2, "mlaps": 1}, "asks for laps sown into both stores, which is not played here (sow_stores=2)"),
    ({"capt_type": 9}, "asks for another kind of capture, which is not played here (capt_type=9)"),
])
def test_the_importer_refuses(info, message):
    with pytest.raises(BadInput, match=re.escape(message)):
        imported(**info)


def test_the_importer_needs_two_seeds_for_a_change_with_next():
    assert imported(capt_on=[], capt_type=1, capt_dir=1)["end_below"] == 2


# -- random games -------------------------------------------------------------------------------
@pytest.mark.parametrize("rules", [
    {"pre_capture": "one_seed", "laps": "relay"}, {"pre_capture": "across_ones"}, {"pre_capture": "across_lone"},
    {"move_rule": "not_across_ones", "must_pass": True}, {"move_rule": "singles_last"},
    {"move_rule": "to_occupied", "must_pass": True, "laps": "relay"}, {"grand_slam": "extra_turn", "captures": 0},
    {"capture_kind": "singles", "capture_min": 0, "capture_side": "both"}, {"capture_kind": "pull_across", "capture_min": 0},
    {"capture_kind": "store_to_opponent", "capture_min": 0, "sow_store": True, "laps": "relay", "lap_rule": "own_side"},
    {"capture_kind": "opponent_counts", "capture_max": 6, "capture_parity": "even"},
    {"capture_kind": "next", "capture_min": 0, "laps": "relay", "take_final": True},
    {"capture_kind": "next", "capture_min": 1, "capture_max": 5, "capture_parity": "odd", "captures": 0},
    {"sow_store": True, "opponent_store": "sown", "choose_direction": "all", "goal": "clear", "must_share": False,
     "capture_min": 0},
    {"sow_store": True, "opponent_store": "sown_no_turn", "capture_kind": "opponent_store", "cross_capture": True,
     "capture_min": 0, "captures": 1, "take_own": "on_capture"},
    {"last_seeds_to_opponent": 8, "laps": "relay", "lap_capture": True, "capture_min": 4, "capture_max": 4,
     "capture_side": "both"},
])
def test_random_games_keep_every_seed_and_end(rules):
    game = Family(**rules)
    rng = np.random.default_rng(3)
    for _ in range(30):
        state = game.init()
        while not game.is_terminal(state):
            play(game, state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
            assert game.state_fault(state) is None
