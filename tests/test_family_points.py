"""Kalah, Sungka, Oware and Togyz Kumalak as points of the two-row family: their rules written as
the family's parameters (``kalah_rules``, ``sungka_rules``, ``oware_rules``, ``togyz_rules``) play
move for move as their own kernels over random games with their rule parameters: the legal moves,
every cell, the player to move, the end and the result. Then the four rules that only these points
use, on boards worked by hand."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mancala_marl.games import make_game
from mancala_marl.errors import BadInput, IllegalMoveError
from mancala_marl.games.family import Family, kalah_rules, oware_rules, sungka_rules, togyz_rules


def play_in_lockstep(family, game, rng, games=5):
    for _ in range(games):
        ours, theirs = family.init(), game.init()
        while not game.is_terminal(theirs):
            assert family.legal_mask(ours).tolist() == game.legal_mask(theirs).tolist()
            pit = int(rng.choice(np.flatnonzero(game.legal_mask(theirs))))
            family.apply(ours, pit)
            game.apply(theirs, pit)
            assert ours[:family.board_size].tolist() == theirs[:game.board_size].tolist()
            assert family.to_move(ours) == game.to_move(theirs)
        assert family.is_terminal(ours)
        assert family.returns(ours).tolist() == game.returns(theirs).tolist()


@settings(max_examples=60, deadline=None)
@given(pits=st.integers(2, 8), seeds=st.integers(1, 6), empty_capture=st.booleans(),
       end_rule=st.sampled_from(["either", "mover"]), seed=st.integers(0, 2**32 - 1))
def test_kalah_as_family_parameters_plays_move_for_move_as_the_kalah_kernel(pits, seeds, empty_capture, end_rule,
                                                                             seed):
    kalah = make_game("kalah", pits=pits, seeds=seeds, empty_capture=empty_capture, end_rule=end_rule)
    play_in_lockstep(Family(**kalah_rules(pits, seeds, empty_capture, end_rule)), kalah, np.random.default_rng(seed))


@settings(max_examples=40, deadline=None)
@given(houses=st.integers(2, 7), stones=st.integers(1, 7), sunog_needs_opposite=st.booleans(),
       seed=st.integers(0, 2**32 - 1))
def test_sungka_as_family_parameters_plays_move_for_move_as_the_sungka_kernel(houses, stones, sunog_needs_opposite,
                                                                               seed):
    sungka = make_game("sungka", houses=houses, stones=stones, sunog_needs_opposite=sunog_needs_opposite)
    play_in_lockstep(Family(**sungka_rules(houses, stones, sunog_needs_opposite)), sungka,
                     np.random.default_rng(seed))


@pytest.mark.parametrize("rules, game", [(kalah_rules(), "kalah"), (sungka_rules(), "sungka"),
                                         (oware_rules(), "oware"), (togyz_rules(), "togyz_kumalak")])
def test_the_defaults_are_the_games_defaults(rules, game):
    # the standard Kalah(6, 4), Sungka(7, 7), Oware(6, 4) and Togyz Kumalak(9, 9), each with its
    # own rules as the family writes them
    made = make_game(game)
    assert (rules["holes"], rules["seeds"]) == (made.pits, made.seeds)
    if game in ("kalah", "sungka"):
        assert Family(**rules).params["early_win"] is False  # both play on to the end


@settings(max_examples=40, deadline=None)
@given(houses=st.integers(2, 6), seeds=st.integers(1, 4), grand_slam=st.sampled_from(["no_capture", "illegal"]),
       seed=st.integers(0, 2**32 - 1))
def test_oware_as_family_parameters_plays_move_for_move_as_the_oware_kernel(houses, seeds, grand_slam, seed):
    # small boards end by a repeated position in a third to three quarters of random games, and
    # Oware(3, 2)'s illegal grand slams change the legal moves about once in two games
    oware = make_game("oware", houses=houses, seeds=seeds, grand_slam=grand_slam)
    play_in_lockstep(Family(**oware_rules(houses, seeds, grand_slam)), oware, np.random.default_rng(seed), games=10)


@settings(max_examples=30, deadline=None)
@given(holes=st.integers(3, 9), balls=st.integers(1, 9), stop_at_majority=st.booleans(),
       seed=st.integers(0, 2**32 - 1))
def test_togyz_as_family_parameters_plays_move_for_move_as_the_togyz_kernel(holes, balls, stop_at_majority, seed):
    togyz = make_game("togyz_kumalak", holes=holes, balls=balls, stop_at_majority=stop_at_majority)
    play_in_lockstep(Family(**togyz_rules(holes, balls, stop_at_majority)), togyz, np.random.default_rng(seed))


def test_a_repeated_position_ends_the_game_and_the_rows_go_to_their_owners():
    # Oware's rules on 3 holes a side, a lone seed each: player_0's hole 2 and player_1's hole 2.
    # 2: into player_1's hole 0 (a 1: no capture); player_1's 2: into player_0's hole 0; then each
    # lone seed one hole on, 0, 0, 1, 1: the start again, player_0 to move. The game ends, each
    # seed to its own row's owner.
    game = Family(**oware_rules(3, 1))
    state = game.from_board([0, 0, 1, 0, 0, 0, 1, 0])
    for move in (2, 2, 0, 0, 1):
        game.apply(state, move)
        assert not game.is_terminal(state)
    assert state[:8].tolist() == [0, 0, 1, 0, 0, 1, 0, 0]
    game.apply(state, 1)
    assert game.is_terminal(state)
    assert state[:8].tolist() == [0, 0, 0, 1, 0, 0, 0, 1]
    # without the rule the seeds chase each other on
    plain = Family(**{**oware_rules(3, 1), "repetition_ends": False})
    state = plain.from_board([0, 0, 1, 0, 0, 0, 1, 0])
    for move in (2, 2, 0, 0, 1, 1):
        plain.apply(state, move)
    assert not plain.is_terminal(state) and state[:8].tolist() == [0, 0, 1, 0, 0, 0, 1, 0]


def test_a_move_that_banks_seeds_starts_the_history_again():
    # Oware's rules on 3 holes a side; the history counts the positions since seeds were banked
    game = Family(**oware_rules(3, 1))
    count = game.board_size + 8  # after the family's own slots (no marks: no children)
    state = game.from_board([0, 1, 1, 0, 0, 0, 1, 0])
    assert state[count] == 1
    for move in (2, 2, 1, 0, 0):  # lone seeds moving on, no capture: [0, 1, 1, 0, 0, 1, 0, 0]
        game.apply(state, move)
    assert state[count] == 6 and state[:8].tolist() == [0, 1, 1, 0, 0, 1, 0, 0]
    state = game.from_board([0, 0, 1, 0, 1, 0, 1, 0])
    game.apply(state, 2)  # into player_1's hole 0, making 2: taken (player_1 keeps hole 2's seed)
    assert state[:8].tolist() == [0, 0, 0, 2, 0, 0, 1, 0] and state[count] == 1


def test_children_bank_sends_a_new_child_and_what_falls_in_it_to_the_owners_store():
    rules = togyz_rules(3, 2)
    game = Family(**rules)
    # player_0's hole 2 lifts its 3 balls: the first goes back into it, the next makes player_1's
    # hole 0 a 3 and the last player_1's hole 1: a tuzduk (a child) for player_0, its 3 balls banked
    state = game.from_board([1, 1, 3, 0, 2, 2, 1, 0])
    game.apply(state, 2)
    assert state[:8].tolist() == [1, 1, 1, 3, 3, 0, 1, 0]
    assert game.children_of(state) == [(5, 0)]
    # player_1's hole 0 (3 balls): one stays, one into hole 1 (the tuzduk: to player_0's kazan),
    # the last into hole 2, making 2 on its own row: no capture
    game.apply(state, 0)
    assert state[:8].tolist() == [1, 1, 1, 4, 1, 0, 2, 0]
    kept = Family(**{**rules, "children_bank": False})
    state = kept.from_board([1, 1, 3, 0, 2, 2, 1, 0])
    kept.apply(state, 2)
    assert state[:8].tolist() == [1, 1, 1, 0, 3, 3, 1, 0] and kept.scores(state) == (3, 0)


def test_win_sweep_gives_the_board_to_its_owners_at_an_outright_win():
    # Oware(3, 2): player_0's hole 2 (1 seed) into player_1's hole 0 holding 2: 3 captured, store 6
    # + 3 = 9 of 12 seeds, more than half: the game ends, the seeds left go to their rows' owners
    board = [1, 0, 1, 6, 2, 1, 1, 0]
    game = Family(**oware_rules(3, 2))
    state = game.from_board(board)
    game.apply(state, 2)
    assert game.is_terminal(state) and state[:8].tolist() == [0, 0, 0, 10, 0, 0, 0, 2]
    still = Family(**{**oware_rules(3, 2), "win_sweep": False})
    state = still.from_board(board)
    still.apply(state, 2)
    assert still.is_terminal(state) and state[:8].tolist() == [1, 0, 0, 9, 0, 1, 1, 0]


def test_slam_from_empty_counts_a_grand_slam_of_a_row_that_was_empty():
    # Oware(4, 3), player_1 to move, player_0's row empty: hole 1's 13 seeds go round the ring,
    # skipping their hole, and leave 2 in each of player_0's holes: a grand slam, which takes
    # nothing (Oware's rule); the family's own rule takes only a row that held seeds, so there the
    # move takes all 8 and must-share forbids it
    board = [0, 0, 0, 0, 0, 1, 13, 1, 4, 5]
    game = Family(**oware_rules(4, 3))
    state = game.from_board(board, to_move=1)
    assert game.legal_mask(state).tolist() == [False, True, False, True]
    game.apply(state, 1)
    assert state[:10].tolist() == [2, 2, 2, 2, 0, 2, 0, 3, 6, 5]
    plain = Family(**{**oware_rules(4, 3), "slam_from_empty": False})
    assert plain.legal_mask(plain.from_board(board, to_move=1)).tolist() == [False, False, False, True]


def test_slam_avoided_forbids_a_grand_slam_while_another_move_is_legal():
    game = Family(**oware_rules(3, 2, grand_slam="illegal"))
    # hole 2's seed makes 3 in player_1's hole 0, the only seeds of that row: a grand slam, and
    # hole 0 is legal beside it
    assert game.legal_mask(game.from_board([1, 0, 1, 5, 2, 0, 0, 3])).tolist() == [True, False, False]
    with pytest.raises(IllegalMoveError, match="hole 2 would be a grand slam, not legal while another move is"):
        game.apply(game.from_board([1, 0, 1, 5, 2, 0, 0, 3]), 2)
    lenient = Family(**oware_rules(3, 2))
    assert lenient.legal_mask(lenient.from_board([1, 0, 1, 5, 2, 0, 0, 3])).tolist() == [True, False, True]
    # the only move is a grand slam: legal, and it takes nothing
    state = game.from_board([0, 0, 1, 5, 2, 0, 0, 4])
    assert game.legal_mask(state).tolist() == [False, False, True]
    game.apply(state, 2)
    assert state[:8].tolist() == [0, 0, 0, 5, 3, 0, 0, 4]


@pytest.mark.parametrize("params, named", [
    ({"children": "weg", "child_count": 4, "must_share": False, "children_bank": True}, "children_bank"),
    ({"children_bank": True, "must_share": False}, "children_bank"),
    ({"slam_from_empty": True}, "slam_from_empty"),
    ({"grand_slam": "illegal", "slam_avoided": True}, "slam_avoided"),
    ({"early_win": False, "win_sweep": True}, "win_sweep"),
    ({"goal": "deprive", "must_share": False, "repetition_ends": True}, "repetition_ends"),
])
def test_the_points_rules_refuse_what_they_do_not_play(params, named):
    with pytest.raises(BadInput, match=named):
        Family(**params)
    with pytest.raises(BadInput, match="grand_slam='leave_left'"):
        oware_rules(grand_slam="leave_left")
