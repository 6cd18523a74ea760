"""The family's children (holes a player owns: ``children`` and its parameters), ``move_one`` and
the importer's mapping of MancalaGames' children, on exact boards worked by hand.

The boards have 3 holes a side: player_0's holes are cells 0, 1, 2, its store cell 3, player_1's
holes cells 4, 5, 6, its store cell 7; counter-clockwise sowing goes 0 -> 2, (store 3), 4 -> 6,
(store 7), 0 ...; the hole across from cell c is 6 - c. ``kids(game, state)`` lists the children
as (cell, owner) pairs.
"""

from pathlib import Path

import numpy as np
import pytest

from mancala_marl.errors import BadInput
from mancala_marl.games.family import Family
from mancala_marl.games.family_space import MARKS
from mancala_marl.games.mancalagames import DEFAULTS, family_params, load_mancalagames

from .test_family import After, OVER, legal, play, position

# no capture, no duty to feed: a test adds the rules it looks at
PLAIN = dict(holes=3, seeds=3, capture_min=0, must_share=False)
ORACLE = Path(__file__).resolve().parents[2] / "shared" / "oracles" / "mancalagames" / "GameProps"
CHILD_FILES = ("Andot", "Qelat", "Krur", "Rath", "Qelat_II", "Weg", "Sadeqa_II", "Enkeshui", "Leyla-Gobale",
               "Toguz_Kumalak", "Toguz_Xorgol")


def marked(game, state, *children):
    """``state`` with each (cell, owner) of ``children`` made that owner's child."""
    for cell, owner in children:
        state[game.board_size + MARKS + cell] = 1 + owner
    return state


def kids(game, state):
    return game.children_of(state)


# -- making a child -----------------------------------------------------------------------------
def test_a_last_seed_making_child_count_makes_the_movers_child():
    # p0 [0 2 0] 0 | p1 [2 0 1] 0; player_0 plays hole 1: seeds into cells 2 and 4, the last making
    # 3 in player_1's hole 0 -> player_0's child there; player_1 may no longer play it, and its 3
    # seeds count for player_0.
    game = Family(children="normal", child_count=3, **PLAIN)
    state = position(game, [0, 2, 0], 0, [2, 0, 1], 0)
    assert play(game, state, 1) == After([0, 0, 1], 0, [3, 0, 1], 0, 1)
    assert kids(game, state) == [(4, 0)]
    assert legal(game, state) == [2]
    assert game.scores(state) == (3, 0)
    assert "player_0's child" in game.illegal_reason(state, 0)


def test_no_child_where_the_count_is_not_child_count():
    game = Family(children="normal", child_count=4, **PLAIN)
    state = position(game, [0, 2, 0], 0, [2, 0, 1], 0)
    assert play(game, state, 1) == After([0, 0, 1], 0, [3, 0, 1], 0, 1)
    assert kids(game, state) == []


def test_seeds_sown_into_a_child_stay_there_and_count_for_its_owner():
    # player_0's child at cell 4 holds 3; player_0 plays hole 2 (2 seeds): cells 4 and 5
    game = Family(children="normal", child_count=3, **PLAIN)
    state = marked(game, position(game, [0, 0, 2], 0, [3, 0, 1], 0), (4, 0))
    assert play(game, state, 2) == After([0, 0, 0], 0, [4, 1, 1], 0, 1)
    assert kids(game, state) == [(4, 0)]
    assert game.scores(state) == (4, 0)


@pytest.mark.parametrize("child, after", [
    # a last seed making 3 in player_1's hole 0 (a count of 2..3 on the opponent's row): taken,
    (None, After([0, 0, 0], 3, [0, 1, 1], 0, 1)),
    # but not from player_1's child
    ((4, 1), After([0, 0, 0], 0, [3, 1, 1], 0, 1)),
])
def test_a_child_is_never_captured(child, after):
    game = Family(holes=3, seeds=3, children="normal", child_count=5, must_share=False)
    state = position(game, [0, 0, 1], 0, [2, 1, 1], 0)
    if child:
        marked(game, state, child)
    assert play(game, state, 2) == after


@pytest.mark.parametrize("child, after, children", [
    # relay laps: the last seed makes 3 in cell 4, which is lifted and sown on (cells 5, 6, 0)
    (None, After([1, 0, 0], 0, [0, 2, 2], 0, 1), []),
    # a lap ending in a child stops there
    ((4, 1), After([0, 0, 0], 0, [3, 1, 1], 0, 1), [(4, 1)]),
])
def test_a_relay_stops_in_a_child(child, after, children):
    game = Family(children="normal", child_count=5, laps="relay", **PLAIN)
    state = position(game, [0, 0, 1], 0, [2, 1, 1], 0)
    if child:
        marked(game, state, child)
    assert play(game, state, 2) == after
    assert kids(game, state) == children


def test_a_relay_stops_where_a_child_is_made():
    game = Family(children="normal", child_count=3, laps="relay", **PLAIN)
    state = position(game, [0, 0, 1], 0, [2, 1, 1], 0)
    assert play(game, state, 2) == After([0, 0, 0], 0, [3, 1, 1], 0, 1)
    assert kids(game, state) == [(4, 0)]


@pytest.mark.parametrize("side, children", [("any", [(2, 0)]), ("own", [(2, 0)]), ("opponent", [])])
def test_child_side(side, children):
    # player_0's hole 0 (2 seeds) sows cells 1 and 2, the last making 3 in its own hole 2
    game = Family(children="normal", child_count=3, child_side=side, **PLAIN)
    state = position(game, [2, 0, 2], 0, [1, 1, 1], 0)
    assert play(game, state, 0) == After([0, 1, 3], 0, [1, 1, 1], 0, 1)
    assert kids(game, state) == children


@pytest.mark.parametrize("pattern, children", [
    ("anywhere", [(4, 0)]),
    ("ends", [(4, 0)]),  # cell 4 is player_1's left end
    ("no_ends", []),
    ("inner_own", [(4, 0)]),  # an end hole, to its row's opponent
    ("no_opponent_right", []),  # a row's leftmost hole is its owner's alone
    ("not_facing", []),
])
def test_child_holes(pattern, children):
    game = Family(children="normal", child_count=3, child_holes=pattern, **PLAIN)
    state = position(game, [0, 2, 0], 0, [2, 0, 1], 0)
    play(game, state, 1)
    assert kids(game, state) == children


def test_not_symmetric_and_not_facing_look_at_the_other_children():
    # player_1 owns cell 0 (player_0's hole 0, the same number as cell 4) and cell 2 (across from 4)
    for pattern, other in (("not_symmetric", (0, 1)), ("not_facing", (2, 1))):
        game = Family(children="normal", child_count=3, child_holes=pattern, **PLAIN)
        state = marked(game, position(game, [0, 2, 0], 0, [2, 0, 1], 0), other)
        play(game, state, 1)
        assert kids(game, state) == [other], pattern
    game = Family(children="normal", child_count=3, child_holes="not_symmetric", **PLAIN)
    state = marked(game, position(game, [0, 2, 0], 0, [2, 0, 1], 0), (5, 1))  # another number
    play(game, state, 1)
    assert kids(game, state) == [(4, 0), (5, 1)]


@pytest.mark.parametrize("kind, children", [("normal", [(4, 0), (6, 0)]), ("one", [(6, 0)])])
def test_one_child_a_player(kind, children):
    game = Family(children=kind, child_count=3, **PLAIN)
    state = marked(game, position(game, [0, 2, 0], 0, [2, 0, 1], 0), (6, 0))
    play(game, state, 1)
    assert kids(game, state) == children


@pytest.mark.parametrize("weg_seeds, after", [
    # a last seed in player_1's weg of 2 makes 3: two go to player_0, who plays again
    (2, After([1, 0, 0], 2, [1, 1, 1], 0, 0)),
    # in an empty weg: the one seed
    (0, After([1, 0, 0], 1, [0, 1, 1], 0, 0)),
])
def test_a_weg_gives_two_seeds_to_the_opponent_who_ends_there(weg_seeds, after):
    game = Family(children="weg", child_count=3, capture_extra_turn=True, **PLAIN)
    state = marked(game, position(game, [1, 0, 1], 0, [weg_seeds, 1, 1], 0), (4, 1))
    assert play(game, state, 2) == after
    assert kids(game, state) == [(4, 1)]


def test_a_players_own_weg_is_sown_into():
    game = Family(children="weg", child_count=3, capture_extra_turn=True, **PLAIN)
    state = marked(game, position(game, [1, 0, 1], 0, [2, 1, 1], 0), (4, 0))
    assert play(game, state, 2) == After([1, 0, 0], 0, [3, 1, 1], 0, 1)


@pytest.mark.parametrize("p0_before, p0_after", [
    ([2, 1, 2], [0, 2, 3]),  # the last hole at 3, the one before at 2
    ([2, 2, 1], [0, 3, 2]),  # the other order
])
def test_a_bull_pair_makes_two_children(p0_before, p0_after):
    game = Family(children="bull", child_count=3, **PLAIN)
    state = position(game, p0_before, 0, [1, 1, 1], 0)
    assert play(game, state, 0) == After(p0_after, 0, [1, 1, 1], 0, 1)
    assert kids(game, state) == [(1, 0), (2, 0)]


def test_a_qur_takes_the_empty_hole_and_the_one_across():
    # player_0's hole 0 sows its seed into the empty cell 1, across from cell 5's 3 seeds
    game = Family(children="qur", child_count=3, **PLAIN)
    state = position(game, [1, 0, 0], 0, [1, 3, 1], 0)
    assert play(game, state, 0) == After([0, 1, 0], 0, [1, 3, 1], 0, 1)
    assert kids(game, state) == [(1, 0), (5, 0)]
    assert game.scores(state) == (4, 0)


# -- sowing past children -------------------------------------------------------------------------
@pytest.mark.parametrize("sowing, owner, after", [
    ("into", 1, After([0, 0, 0], 0, [2, 1, 1], 0, 1)),
    ("skip_opponent", 1, After([0, 0, 0], 0, [1, 2, 1], 0, 1)),
    ("skip_opponent", 0, After([0, 0, 0], 0, [2, 1, 1], 0, 1)),  # the mover's own child is sown
])
def test_child_sowing_of_a_lone_seed(sowing, owner, after):
    game = Family(children="normal", child_count=9, child_sowing=sowing, **PLAIN)
    state = marked(game, position(game, [0, 0, 1], 0, [1, 1, 1], 0), (4, owner))
    assert play(game, state, 2) == after


@pytest.mark.parametrize("sowing, p0_before, after", [
    # the last seed goes into the opponent's child with skip_opponent_but_last,
    ("skip_opponent_but_last", [0, 0, 1], After([0, 0, 0], 0, [2, 1, 1], 0, 1)),
    # the others pass over it: 2 seeds go to cells 5 and 6
    ("skip_opponent_but_last", [0, 0, 2], After([0, 0, 0], 0, [1, 2, 2], 0, 1)),
    ("into", [0, 0, 2], After([0, 0, 0], 0, [2, 2, 1], 0, 1)),
])
def test_child_sowing_but_the_last_seed(sowing, p0_before, after):
    game = Family(children="normal", child_count=9, child_sowing=sowing, **PLAIN)
    state = marked(game, position(game, p0_before, 0, [1, 1, 1], 0), (4, 1))
    assert play(game, state, 2) == after


# -- without stores -------------------------------------------------------------------------------
@pytest.mark.parametrize("child, after", [
    # player_0 has no child: the capture of cell 4's 3 seeds does not happen
    (None, After([1, 0, 0], 0, [3, 1, 1], 0, 1)),
    # it has one (cell 0): the 3 seeds go into it
    ((0, 0), After([4, 0, 0], 0, [0, 1, 1], 0, 1)),
])
def test_child_stores_captures_go_into_the_first_child(child, after):
    game = Family(holes=3, seeds=3, children="normal", child_count=5, child_stores=True, must_share=False)
    state = position(game, [1, 0, 1], 0, [2, 1, 1], 0)
    if child:
        marked(game, state, child)
    assert play(game, state, 2) == after


def test_child_stores_the_seeds_claimed_at_the_end_go_into_the_first_child():
    # player_0 plays hole 1 into cell 2; player_1 has no hole to play: the end. Cell 2's seed is
    # player_0's (leftover "owner") and goes into its child, cell 0.
    game = Family(children="normal", child_count=5, child_stores=True, **PLAIN)
    state = marked(game, position(game, [2, 1, 0], 0, [2, 0, 0], 0), (0, 0), (4, 1))
    assert play(game, state, 1) == After([3, 0, 0], 0, [2, 0, 0], 0, OVER)
    assert game.returns(state).tolist() == [1, -1]


# -- the end --------------------------------------------------------------------------------------
def test_the_seeds_left_at_the_end_leave_the_children_theirs():
    game = Family(children="normal", child_count=5, **PLAIN)
    state = marked(game, position(game, [3, 1, 0], 0, [0, 0, 0], 2), (0, 1))
    assert play(game, state, 1) == After([3, 0, 0], 1, [0, 0, 0], 2, OVER)
    assert game.scores(state) == (1, 5)
    assert game.returns(state).tolist() == [-1, 1]


def test_an_outright_win_counts_the_children():
    # player_1's child holds 10 of the 18 seeds' worth: more than half, the game ends at once
    game = Family(children="normal", child_count=5, **PLAIN)
    state = marked(game, position(game, [10, 0, 1], 0, [0, 0, 1], 0), (0, 1))
    assert play(game, state, 2) == After([10, 0, 0], 0, [1, 0, 1], 0, OVER)
    assert game.returns(state).tolist() == [-1, 1]


def test_a_game_ends_when_only_children_hold_seeds():
    # player_0's last seed goes into player_1's child: no hole of nobody's holds a seed, the end
    game = Family(children="normal", child_count=5, **PLAIN)
    state = marked(game, position(game, [3, 0, 1], 0, [2, 0, 0], 0), (0, 0), (4, 1))
    assert play(game, state, 2) == After([3, 0, 0], 0, [3, 0, 0], 0, OVER)
    assert game.scores(state) == (3, 3)
    assert game.returns(state).tolist() == [0, 0]


@pytest.mark.parametrize("ends_at, after", [
    # at most 2 seeds outside children (cell 4's two): the end, cell 4's seeds to their row's owner
    (2, After([3, 0, 0], 0, [0, 0, 0], 2, OVER)),
    # the child's 3 seeds are not counted: 2 left, more than 1, play on
    (1, After([3, 0, 0], 0, [2, 0, 0], 0, 1)),
])
def test_end_seeds_left_counts_no_childs_seeds(ends_at, after):
    game = Family(children="normal", child_count=5, end_seeds_left=ends_at, **PLAIN)
    state = marked(game, position(game, [3, 0, 1], 0, [1, 0, 0], 0), (0, 0))
    assert play(game, state, 2) == after


def test_fixed_right_children_from_the_start():
    game = Family(children="weg", child_holes="fixed_right", **PLAIN)
    state = game.init()
    assert kids(game, state) == [(2, 0), (6, 1)]
    assert legal(game, state) == [0, 1]
    assert game.state_size == game.board_size + 1 + 7 + game.board_size


def test_a_game_without_children_keeps_its_state():
    assert Family().state_size == Family().board_size + 8
    assert Family().scores(Family().init()) == (0, 0)


# -- move_one -------------------------------------------------------------------------------------
@pytest.mark.parametrize("move_one, after", [
    (True, After([0, 1, 0], 0, [1, 1, 1], 0, 1)),  # the lone seed moves on
    (False, After([1, 0, 0], 0, [1, 1, 1], 0, 1)),  # all but one: nothing is sown
])
def test_move_one(move_one, after):
    game = Family(leave_one=True, move_one=move_one, **PLAIN)
    state = position(game, [1, 0, 0], 0, [1, 1, 1], 0)
    assert play(game, state, 0) == after


# -- refusals -------------------------------------------------------------------------------------
@pytest.mark.parametrize("params, words", [
    (dict(child_count=3), "child_count=3 does nothing with children='none'"),
    (dict(children="normal"), "needs child_count >= 1"),
    (dict(children="bull", child_count=1), "needs child_count >= 2"),
    (dict(children="normal", child_count=3, must_share=True), "must_share=True is not played with children"),
    (dict(children="normal", child_count=3, laps="next"), "laps='next' is not played with children"),
    (dict(children="weg", child_holes="fixed_right", child_count=2), "does nothing with child_holes='fixed_right'"),
    (dict(children="normal", child_count=3, child_stores=True, sow_store=True), "child_stores=True"),
    (dict(move_one=True), "move_one=True is not played with leave_one=False"),
])
def test_refused(params, words):
    with pytest.raises(BadInput, match=words.replace("(", r"\(").replace(")", r"\)")):
        Family(**{"must_share": False, **params})


# -- the importer ----------------------------------------------------------------------------------
def imported(**info):
    return family_params({"game_constants": {"holes": 9, "nbr_start": 9},
                          "game_info": {**DEFAULTS, "sow_direct": 1, "stores": True, **info}}, "Game.txt")


def test_the_importer_maps_a_tuzdik():
    params = imported(child_cvt=3, child_rule=1, child_type=3, child_locs=8, evens=True, move_one=True, capt_side=1,
                      sow_start=True)
    assert {key: params[key] for key in ("children", "child_count", "child_side", "child_holes", "child_sowing",
                                         "child_stores", "leave_one", "move_one", "end_below")} == {
        "children": "one", "child_count": 3, "child_side": "opponent", "child_holes": "not_symmetric",
        "child_sowing": "into", "child_stores": False, "leave_one": True, "move_one": True, "end_below": 2}


def test_the_importer_maps_no_stores_and_the_sowing_past_children():
    params = imported(child_cvt=4, child_type=1, child_rule=1, mlaps=1, sow_rule=9, stores=False)
    assert (params["child_stores"], params["child_sowing"], params["end_below"]) == (True, "skip_opponent", 0)


@pytest.mark.parametrize("info, words", [
    (dict(child_type=7), "asks for holes of no one's that captures clear, which is not played here"),
    (dict(child_type=1, child_cvt=4, child_rule=3), "another rule of which row holes are owned in, which is not played here .child_rule=3"),
    (dict(child_type=1, child_cvt=4, child_rule=4), "not played here .child_rule=4."),  # not a territory
    (dict(sow_rule=9), "passing over owned holes in a game without them, which is not played here .sow_rule=9."),
])
def test_the_importer_refuses(info, words):
    with pytest.raises(BadInput, match=words):
        imported(**info)


# -- properties over the catalogue's games of children --------------------------------------------
@pytest.mark.skipif(not ORACLE.is_dir(), reason="MancalaGames' game files are not beside the clone")
@pytest.mark.parametrize("name", CHILD_FILES)
def test_children_games_keep_their_seeds_and_marks(name):
    """Random games: no seed made or lost, no count below zero, no child ever played nor unmade,
    the returns those of the scores (stores and children)."""
    game = load_mancalagames(ORACLE / f"{name}.txt")
    rng = np.random.default_rng(7)
    marks = slice(game.board_size + MARKS, game.board_size + MARKS + game.board_size)
    for _ in range(10):
        state = game.init()
        total = int(state[:game.board_size].sum())
        while not game.is_terminal(state):
            mask = game.legal_mask(state)
            mover = game.to_move(state)
            assert not any(mask[cell - mover * (game.pits + 1)] for cell, _ in kids(game, state)
                           if cell // (game.pits + 1) == mover and mask.shape[0] == game.pits)
            before = state[marks].copy()
            game.apply(state, int(rng.choice(np.flatnonzero(mask))))
            assert (state[:game.board_size] >= 0).all()
            assert int(state[:game.board_size].sum()) + game.out_of_play(state) == total
            assert (state[marks][before > 0] > 0).all()  # a child stays a child
            assert game.state_fault(state) is None
        s0, s1 = game.scores(state)
        assert game.returns(state).tolist() == [float(np.sign(s0 - s1)), float(np.sign(s1 - s0))]
