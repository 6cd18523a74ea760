"""The family's rules of which way a move sows and how far its laps and captures go
(games/family.py): ``direction`` beyond one fixed way, moves that name their way
(``choose_direction``, ``opposed``: 2H actions), ``lap_rule``, next laps beside the store,
``capture_side="opponent_first"``, the grand slams that leave a hole, ``cross_chain``, chains that
run one way round the ring.

Boards are written as in test_family.py: ``p0 [a b c d e f] s0 | p1 [g h i j k l] s1`` with
player_0's holes at cells 0..H-1, its store at H, player_1's holes at H+1..2H, its store at
2H+1; counter-clockwise runs by increasing cell. Each test plays one move and checks the whole
state after it (the helpers count the move and the seeds).
"""

import re

import pytest

from mancala_marl.errors import BadInput
from mancala_marl.games.family import Family
from tests.test_family import SOW_ONLY, After, legal, play, position


# -- which way a move sows ----------------------------------------------------------------------
def test_by_parity_sows_an_even_count_clockwise_and_an_odd_one_counter_clockwise():
    game = Family(direction="by_parity", **SOW_ONLY)
    # two seeds (even) from hole 0 go clockwise: past player_1's store into its holes 5 and 4
    state = position(game, [2, 3, 0, 0, 0, 0], 0, [0, 0, 0, 0, 0, 1], 0)
    assert play(game, state, 0) == After([0, 3, 0, 0, 0, 0], 0, [0, 0, 0, 0, 1, 2], 0, 1)
    # three seeds (odd) from hole 1 go counter-clockwise: holes 2, 3, 4
    state = position(game, [2, 3, 0, 0, 0, 0], 0, [0, 0, 0, 0, 0, 1], 0)
    assert play(game, state, 1) == After([2, 0, 1, 1, 1, 0], 0, [0, 0, 0, 0, 0, 1], 0, 1)


@pytest.mark.parametrize("direction, p0_after, p1_after", [
    # outward: hole 0 (left half) sows clockwise into player_1's holes 3 and 2; hole 3 (right
    # half) sows its seed counter-clockwise, past the store, into player_1's hole 0
    ("outward", [0, 0, 0, 1], [0, 0, 1, 2]),
    # inward: hole 0 sows counter-clockwise into holes 1 and 2
    ("inward", [0, 1, 1, 1], [0, 0, 0, 1]),
])
def test_outward_and_inward_on_four_holes(direction, p0_after, p1_after):
    game = Family(holes=4, direction=direction, **SOW_ONLY)
    state = position(game, [2, 0, 0, 1], 0, [0, 0, 0, 1], 0)
    assert play(game, state, 0) == After(p0_after, 0, p1_after, 0, 1)
    if direction == "outward":
        state = position(game, [2, 0, 0, 1], 0, [0, 0, 0, 1], 0)
        assert play(game, state, 3) == After([2, 0, 0, 0], 0, [1, 0, 0, 1], 0, 1)


def test_outward_on_an_odd_row_is_refused():
    with pytest.raises(BadInput, match=re.escape("direction='outward' with an odd number of holes (5) needs "
                                                 "choose_direction='middle' or 'all'")):
        Family(holes=5, direction="outward")


# -- laps -------------------------------------------------------------------------------------
@pytest.mark.parametrize("rule, count, p0_after", [
    # hole 0's two seeds end in hole 2, which then holds 3: each rule says whether the lap goes
    # on from there (its 3 seeds into holes 3, 4, 5, ending in an empty hole) or stops
    ("any", 0, [0, 1, 0, 1, 1, 1]),
    ("count_is", 3, [0, 1, 0, 1, 1, 1]),
    ("count_is", 4, [0, 1, 3, 0, 0, 0]),
    ("count_at_least", 3, [0, 1, 0, 1, 1, 1]),
    ("count_at_least", 4, [0, 1, 3, 0, 0, 0]),
    ("own_side", 0, [0, 1, 0, 1, 1, 1]),
    ("opponent_side", 0, [0, 1, 3, 0, 0, 0]),
])
def test_lap_rule(rule, count, p0_after):
    game = Family(laps="relay", lap_rule=rule, lap_count=count, **SOW_ONLY)
    state = position(game, [2, 0, 2, 0, 0, 0], 0, [1] * 6, 0)
    assert play(game, state, 0) == After(p0_after, 0, [1] * 6, 0, 1)


def test_a_lap_rule_that_does_nothing_is_refused():
    with pytest.raises(BadInput, match=re.escape("lap_rule='count_is' needs laps")):
        Family(lap_rule="count_is", lap_count=3)
    with pytest.raises(BadInput, match=re.escape("lap_count=3 does nothing with lap_rule='own_side'")):
        Family(laps="relay", lap_rule="own_side", lap_count=3)


def test_a_next_lap_beside_the_store_goes_on_from_the_store():
    # MancalaGames' rule: hole 4's seed ends in hole 5, and the next lap starts from the store
    # after it (3 seeds into player_1's holes 0-2), then from player_1's hole 3 (into 4), then from
    # its hole 5 (past player_1's store into player_0's hole 0), before an empty hole 1
    game = Family(laps="next", sow_store=True, **SOW_ONLY)
    state = position(game, [0, 0, 0, 0, 1, 0], 3, [1] * 6, 0)
    assert play(game, state, 4) == After([1, 0, 0, 0, 0, 1], 0, [2, 2, 2, 0, 2, 0], 0, 1)


# -- captures ---------------------------------------------------------------------------------
@pytest.mark.parametrize("side, p0_after, s0", [
    # the last seed makes player_1's hole 0 a 2: taken, then the chain runs back onto the own
    # row (holes 5 and 4 hold 2) with opponent_first, and stops at the side with "opponent"
    ("opponent_first", [0, 0, 0, 0, 0, 0], 6),
    ("opponent", [0, 0, 0, 0, 2, 2], 2),
])
def test_opponent_first_lets_the_chain_cross_to_the_own_row(side, p0_after, s0):
    game = Family(capture_side=side)
    state = position(game, [0, 0, 0, 3, 1, 1], 0, [1] * 6, 0)
    assert play(game, state, 3) == After(p0_after, s0, [0, 1, 1, 1, 1, 1], 0, 1)


def test_opponent_first_takes_nothing_from_a_last_hole_on_the_own_row():
    game = Family(capture_side="opponent_first")
    # the last seed makes the own hole 2 a 2: it is not taken, nor anything behind it
    state = position(game, [1, 1, 0, 0, 0, 0], 0, [1] * 6, 0)
    assert play(game, state, 1) == After([1, 0, 1, 0, 0, 0], 0, [1] * 6, 0, 1)


@pytest.mark.parametrize("rule, s0, p1_after", [
    # hole 5's three seeds make player_1's holes 0-2 hold 2, 2, 3: all taken is a grand slam (and
    # the game's end, player_1 having no move: player_0's last seed goes to its store)
    ("legal", 8, [0, 0, 0, 0, 0, 0]),
    # leave_right keeps the first full hole from the mover's right end (player_1's hole 0, which
    # faces player_0's hole 5); leave_left the first from the left end (player_1's hole 2)
    ("leave_right", 5, [2, 0, 0, 0, 0, 0]),
    ("leave_left", 4, [0, 0, 3, 0, 0, 0]),
])
def test_grand_slam_that_leaves_a_hole(rule, s0, p1_after):
    game = Family(grand_slam=rule, must_share=False)
    state = position(game, [1, 0, 0, 0, 0, 3], 0, [1, 1, 2, 0, 0, 0], 0)
    over = rule == "legal"
    assert play(game, state, 5) == After([0 if over else 1, 0, 0, 0, 0, 0], s0, p1_after, 0, -1 if over else 1)


def test_a_grand_slam_of_one_full_hole_is_taken_whole():
    # hole 5's seed makes player_1's only full hole a 3: taken whole, and player_1, left without a
    # move, ends the game (player_0's last seed to its store)
    game = Family(grand_slam="leave_right", must_share=False)
    state = position(game, [1, 0, 0, 0, 0, 1], 0, [2, 0, 0, 0, 0, 0], 0)
    assert play(game, state, 5) == After([0] * 6, 4, [0] * 6, 0, -1)


@pytest.mark.parametrize("chain, s0, p1_after", [
    # hole 2's seed ends alone in hole 3: player_1's hole 2 across is taken, then the chain runs
    # back: hole 2 (just emptied) takes hole 3 across; hole 1 holds seeds, which stops an "empty"
    # chain, while an "any" chain takes across from it and from hole 0 too
    ("empty", 2, [1, 1, 0, 0, 1, 1]),
    ("any", 4, [1, 1, 0, 0, 0, 0]),
])
def test_cross_chain(chain, s0, p1_after):
    game = Family(sow_store=True, capture_min=0, cross_capture=True, cross_chain=chain, must_share=False)
    state = position(game, [2, 3, 1, 0, 0, 0], 0, [1] * 6, 0)
    # p1 index: hole h of player_1 is across from player_0's hole 5 - h
    assert play(game, state, 2) == After([2, 3, 0, 1, 0, 0], s0, p1_after, 0, 1)


# -- moves that name their way ----------------------------------------------------------------
def test_outward_with_a_chosen_middle_hole_has_ten_actions():
    # hole h counter-clockwise is action h, clockwise h + 5: the left holes sow clockwise only, the
    # right ones counter-clockwise only, the middle one both ways
    game = Family(holes=5, direction="outward", choose_direction="middle", **SOW_ONLY)
    assert game.actions == 10
    assert legal(game, game.init()) == [2, 3, 4, 5, 6, 7]
    state = position(game, [0, 0, 2, 0, 0], 0, [1] * 5, 0)
    assert play(game, state, 2) == After([0, 0, 0, 1, 1], 0, [1] * 5, 0, 1)
    state = position(game, [0, 0, 2, 0, 0], 0, [1] * 5, 0)
    assert play(game, state, 7) == After([1, 1, 0, 0, 0], 0, [1] * 5, 0, 1)


def test_outward_with_chosen_ends_and_middle_offers_both_ways_at_those_three_holes():
    # OnlyChild's rule: holes 0, 2, 4 either way; hole 1 clockwise only (6), hole 3 counter-clockwise (3)
    game = Family(holes=5, direction="outward", choose_direction="ends_and_middle", **SOW_ONLY)
    assert legal(game, game.init()) == [0, 2, 3, 4, 5, 6, 7, 9]
    # hole 0's two seeds counter-clockwise, rightward along the row (outward would send them across)
    state = position(game, [2, 0, 0, 0, 0], 0, [1] * 5, 0)
    assert play(game, state, 0) == After([0, 1, 1, 0, 0], 0, [1] * 5, 0, 1)
    state = position(game, [2, 0, 0, 0, 0], 0, [1] * 5, 0)
    assert play(game, state, 5) == After([0, 0, 0, 0, 0], 0, [1, 1, 1, 2, 2], 0, 1)


@pytest.mark.parametrize("either_way, legal_moves", [(False, [3]), (True, [0, 3])])
def test_must_share_with_a_chosen_way_keeps_the_ways_that_feed_or_both(either_way, legal_moves):
    # player_1 has no seeds: hole 0 feeds sown clockwise (into player_1's hole 2), not
    # counter-clockwise (into hole 1); MancalaGames' rule offers both ways of a hole that feeds
    game = Family(holes=3, choose_direction="all", capture_min=0, share_either_way=either_way)
    state = position(game, [1, 0, 0], 0, [0, 0, 0], 0)
    assert legal(game, state) == legal_moves


def test_the_first_fixed_way_turns_sow_the_games_way_whatever_way_a_move_names():
    game = Family(holes=3, seeds=2, choose_direction="all", fixed_way_turns=2, **SOW_ONLY)
    state = game.init()
    assert legal(game, state) == list(range(6))  # both ways offered, as MancalaGames offers them
    assert play(game, state, 3) == After([0, 3, 3], 0, [2, 2, 2], 0, 1)  # hole 0 "clockwise", sown ccw
    assert play(game, state, 3) == After([0, 3, 3], 0, [0, 3, 3], 0, 0)
    assert play(game, state, 5) == After([1, 4, 0], 0, [0, 3, 4], 0, 1)  # the third turn: clockwise


def test_opposed_the_first_move_chooses_each_players_way():
    game = Family(direction="opposed", **SOW_ONLY)
    state = game.init()
    assert legal(game, state) == list(range(12))
    game.apply(state, 7)  # player_0 sows hole 1 clockwise: player_0 sows clockwise for the game
    assert legal(game, state) == [0, 1, 2, 3, 4, 5]  # player_1 counter-clockwise
    game.apply(state, 0)
    assert legal(game, state) == [6, 8, 9, 10, 11]  # player_0 clockwise (its hole 1 is empty)
    assert "the rules sow it the other way here" in game.illegal_reason(state, 0)


def test_a_lone_seed_sown_outward_across_the_end_may_not_go_straight_back():
    # player_0's lone seed in hole 0 goes clockwise into player_1's hole 3: player_1 may not play it
    # straight back; then player_1's lone seed crosses the other end, into player_0's hole 3, which
    # player_0 may not play at once either; a move between frees it
    game = Family(holes=4, direction="outward", **SOW_ONLY)
    state = position(game, [1, 1, 0, 0], 0, [1, 0, 0, 0], 0)
    assert play(game, state, 0) == After([0, 1, 0, 0], 0, [1, 0, 0, 1], 0, 1)
    assert legal(game, state) == [0]
    assert "may not go straight back" in game.illegal_reason(state, 3)
    assert play(game, state, 0) == After([0, 1, 0, 1], 0, [0, 0, 0, 1], 0, 0)
    assert legal(game, state) == [1]
    assert play(game, state, 1) == After([1, 0, 0, 1], 0, [0, 0, 0, 1], 0, 1)
    assert legal(game, state) == [3]


@pytest.mark.parametrize("chain, s0, p1_after", [
    # hole 0's two seeds sown clockwise end in player_1's hole 4, a 2: taken; the chain "backward"
    # runs back along this move (to hole 5, a 2: taken too), "cw" runs clockwise (to hole 3: empty)
    ("backward", 4, [1, 1, 1, 0, 0, 0]),
    ("cw", 2, [1, 1, 1, 0, 0, 2]),
])
def test_a_chain_may_run_one_way_round_the_ring(chain, s0, p1_after):
    game = Family(choose_direction="all", chain=chain, must_share=False)
    state = position(game, [2, 0, 0, 0, 0, 1], 0, [1, 1, 1, 0, 1, 1], 0)
    assert play(game, state, 6) == After([0, 0, 0, 0, 0, 1], s0, p1_after, 0, 1)


def test_choose_direction_refusals():
    with pytest.raises(BadInput, match=re.escape("choose_direction='middle' needs an odd number of holes, got 6")):
        Family(choose_direction="middle")
    with pytest.raises(BadInput, match=re.escape("choose_direction='ends_and_middle' needs an odd number of holes")):
        Family(choose_direction="ends_and_middle")
    with pytest.raises(BadInput, match=re.escape("with direction='opposed': the first move already chooses")):
        Family(direction="opposed", choose_direction="all")


def test_the_importer_reads_the_chosen_ways_mancalagames_plays():
    from mancala_marl.games.mancalagames import family_params

    def imported(holes, **info):
        return family_params({"game_constants": {"holes": holes, "nbr_start": 4}, "game_info": info})

    assert imported(7, sow_direct=0, udir_holes=[0, 3, 6])["choose_direction"] == "ends_and_middle"  # OnlyChild
    feeding = imported(6, mustshare=True, udir_holes=list(range(6)))  # Je ki n je
    assert (feeding["choose_direction"], feeding["share_either_way"]) == ("all", True)
    first = imported(6, mustshare=True, udir_holes=list(range(6)), prescribed=6)  # Four-Capture's NO_UDIR_FIRSTS
    assert first["fixed_way_turns"] == 2
    for params in (feeding, first):
        Family(**params)
