"""Holes closed for good as the game goes (``close_at``: MancalaGames' SOW_BLKD_DIV, the rule of
Deka, Embeli and Nambayi), on exact boards worked by hand, then over random games.

The boards have 3 holes a side: player_0's holes are cells 0, 1, 2, its store cell 3, player_1's
holes cells 4, 5, 6, its store cell 7; counter-clockwise sowing goes 0 -> 2, (store 3, not sown),
4 -> 6, (store 7), 0 ... No other capture, no duty to feed; the player left without a move loses.
"""

import numpy as np
import pytest

from mancala_marl.errors import IllegalMoveError
from mancala_marl.games import make_game
from mancala_marl.games.family import Family, sample_rules
from mancala_marl.games.mancalagames import family_params

from .test_family import After, OVER, legal, play, position

CLOSING = dict(holes=3, close_at=2, capture_min=0, capture_max=0, must_share=False, goal="immobilize",
               skip_origin=False)


def closed(game, state):
    return game.closed_cells(state)


def test_a_single_lap_closes_the_hole_it_fills_to_the_count_and_its_seeds_leave_play():
    # player_0's lone seed makes player_1's hole 0 (cell 4) two: it closes, its 2 seeds out of play
    game = Family(**CLOSING)
    state = position(game, [0, 0, 1], 0, [1, 0, 4], 0)
    assert play(game, state, 2) == After([0, 0, 0], 0, [0, 0, 4], 0, 1, out=2)
    assert closed(game, state) == [4]
    # player_1 sows its 4 round the ring (no stores) and passes over its own closed hole: 0, 1, 2,
    # then not cell 4 but cell 5
    assert play(game, state, 2) == After([1, 1, 1], 0, [0, 1, 0], 0, 0, out=2)
    # a seed player_0 sows into the hole it closed leaves play; the hole stays closed and empty
    assert play(game, state, 2) == After([1, 1, 0], 0, [0, 1, 0], 0, 1, out=3)
    assert closed(game, state) == [4]
    with pytest.raises(IllegalMoveError, match="hole 0 is closed for good"):
        game.apply(state, 0)


def test_a_relay_sows_on_the_seeds_of_the_hole_it_closes():
    # close_at=3: the lone seed makes cell 4 three, which closes; the relay lifts them and sows 5,
    # 6, then (store 7 passed) 0, where the lap ends in an empty hole
    game = Family(**{**CLOSING, "close_at": 3, "laps": "relay"})
    state = position(game, [0, 0, 1], 0, [2, 0, 0], 0)
    assert play(game, state, 2) == After([1, 0, 0], 0, [0, 1, 1], 0, 1)
    assert closed(game, state) == [4]


def test_a_relay_ending_in_a_hole_its_mover_closed_stops_there():
    # cell 4 closed by player_0; its seed into 4 leaves play and ends the lap (an empty hole)
    game = Family(**{**CLOSING, "close_at": 3, "laps": "relay"})
    state = position(game, [0, 0, 1], 0, [0, 2, 0], 0)
    state[game.board_size + 8 + 4] = 3  # MARKS + cell 4: CLOSED
    assert play(game, state, 2) == After([0, 0, 0], 0, [0, 2, 0], 0, 1, out=1)


@pytest.mark.parametrize("rightmost, closes", [(True, True), (False, False)])
def test_the_opponents_rightmost_hole_closes_only_where_close_rightmost(rightmost, closes):
    # player_0's 3 seeds end in player_1's hole 2 (cell 6), its rightmost, making it two
    game = Family(**CLOSING, close_rightmost=rightmost)
    state = position(game, [0, 0, 3], 0, [0, 0, 1], 0)
    after = play(game, state, 2)
    assert closed(game, state) == ([6] if closes else [])
    assert after == (After([0, 0, 0], 0, [1, 1, 0], 0, 1, out=2) if closes else After([0, 0, 0], 0, [1, 1, 2], 0, 1))


def test_no_hole_closes_in_the_turns_without_captures():
    game = Family(**CLOSING, no_capture_turns=1)
    state = position(game, [0, 0, 1], 0, [1, 0, 4], 0)
    assert play(game, state, 2) == After([0, 0, 0], 0, [2, 0, 4], 0, 1)
    assert closed(game, state) == []


def test_a_player_whose_holes_are_closed_or_empty_loses_by_immobilization():
    # player_0 closes player_1's hole 0, which held player_1's last seed: player_1 has no move
    game = Family(**CLOSING)
    state = position(game, [0, 0, 1], 0, [1, 0, 0], 0)
    assert play(game, state, 2) == After([0, 0, 0], 0, [0, 0, 0], 0, OVER, out=2)
    assert game.returns(state).tolist() == [1.0, -1.0]


def test_the_rules_refuse_closing_beside_other_captures_or_a_store_count_in_one_line():
    with pytest.raises(ValueError, match="close_at=2 needs goal='deprive' or 'immobilize'"):
        Family(**{**CLOSING, "goal": "most_seeds"})
    with pytest.raises(ValueError, match="not played beside another capture"):
        Family(**{**CLOSING, "capture_min": 2})
    with pytest.raises(ValueError, match="close_rightmost=False does nothing with close_at=0"):
        Family(close_rightmost=False)


def test_random_games_that_close_holes_keep_their_seeds_never_sow_a_closed_hole_and_end():
    rng = np.random.default_rng(11)
    closed_seen = 0
    for _ in range(40):
        game = Family(**sample_rules(rng, close_at=(1, 4), choices={"goal": ("deprive", "immobilize")}))
        assert game.params["close_at"] > 0
        state = game.init(rng)
        total = int(state[:game.board_size].sum())
        while not game.is_terminal(state):
            mask = game.legal_mask(state)
            assert mask.any(), (game, state)
            game.apply(state, int(rng.choice(np.flatnonzero(mask))))
            assert (state[:game.board_size] >= 0).all()
            assert int(state[:game.board_size].sum()) + game.out_of_play(state) == total
            for cell in game.closed_cells(state):
                assert state[cell] == 0  # a closed hole never holds a seed
        closed_seen += len(game.closed_cells(state))
    assert closed_seen > 40  # holes were closed, not only drawn as closable


def test_mancalagames_closing_files_import_as_close_at():
    deka = family_params({"game_constants": {"holes": 6, "nbr_start": 2},
                          "game_info": {"blocks": True, "goal": 10, "mlaps": 1, "nocaptmoves": 1, "sow_rule": 2,
                                        "sow_param": 3}})
    assert (deka["close_at"], deka["close_rightmost"], deka["laps"], deka["goal"]) == (3, False, "relay", "immobilize")
    nambayi = family_params({"game_constants": {"holes": 8, "nbr_start": 3},
                             "game_info": {"blocks": True, "goal": 10, "mlaps": 1, "sow_rule": 1, "sow_param": 4}})
    assert (nambayi["close_at"], nambayi["close_rightmost"]) == (4, True)
    Family(**deka), Family(**nambayi)


def test_the_environment_shows_the_closed_holes():
    game = Family(**CLOSING)
    state = position(game, [0, 0, 1], 0, [1, 0, 4], 0)
    game.apply(state, 2)
    pits, legend = game.marked_pits(state)
    assert pits == [(1, 0)] and "closed for good" in legend
    assert make_game("family", **CLOSING).params["close_at"] == 2
