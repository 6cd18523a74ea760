"""Each player sowing round its own row alone (``sow_own_row``: MancalaGames' NorthSouthCycle, the
rule of NS Kalah and Tchuka Ruma) and the grand slam that hands the mover's row to the opponent
(``grand_slam="opponent_gets_row"``, NS Kalah's), on exact boards worked by hand, then over random
games.

The boards have 3 holes a side: player_0's holes are cells 0, 1, 2, its store cell 3, player_1's
holes cells 4, 5, 6, its store cell 7. Counter-clockwise, player_0's own ring is 0 -> 1 -> 2 ->
(store 3, where sow_store) -> 0, player_1's 4 -> 5 -> 6 -> (store 7) -> 4.
"""

import numpy as np
import pytest

from mancala_marl.errors import BadInput
from mancala_marl.games.family import Family, sample_rules
from mancala_marl.games.mancalagames import family_params

from .test_family import OVER, After, play, position

OWN_ROW = dict(holes=3, sow_own_row=True, must_share=False, capture_min=0, capture_max=0)
# NS Kalah's rules on 3 holes: the own store sown, a last seed there plays again, a last seed in an
# empty hole takes the hole across
NS_KALAH = dict(OWN_ROW, sow_store=True, cross_capture=True, captures=1, capture_side="both",
                grand_slam="opponent_gets_row")


def test_a_sowing_comes_round_its_own_row_past_the_opponents():
    # player_0's 4 seeds from hole 1: holes 2, 0, 1 (its origin, sown again: skip_origin off), 2;
    # player_1's row is never sown
    game = Family(**OWN_ROW, skip_origin=False)
    state = position(game, [0, 4, 0], 0, [1, 1, 1], 0)
    assert play(game, state, 1) == After([1, 1, 2], 0, [1, 1, 1], 0, 1)
    # player_1's lone seed from its hole 2 (cell 6) comes round to its hole 0 (cell 4)
    assert play(game, state, 2) == After([1, 1, 2], 0, [2, 1, 0], 0, 0)


def test_clockwise_sowing_comes_round_the_other_way():
    game = Family(**OWN_ROW, direction="cw")
    state = position(game, [3, 0, 0], 0, [1, 1, 1], 0)
    # from hole 0 leftward: holes 2, 1, then hole 0 is its origin, passed over (skip_origin): 2
    assert play(game, state, 0) == After([0, 1, 2], 0, [1, 1, 1], 0, 1)


def test_the_own_store_is_sown_between_the_rows_ends_and_a_last_seed_there_plays_again():
    game = Family(**OWN_ROW, sow_store=True)
    state = position(game, [1, 0, 2], 0, [1, 1, 1], 0)
    # hole 2's seeds: store 3, then hole 0 (not player_1's hole 0)
    assert play(game, state, 2) == After([2, 0, 0], 1, [1, 1, 1], 0, 1)
    state = position(game, [0, 1, 0], 0, [1, 1, 1], 0)
    # hole 1's seed goes to hole 2; then hole 2's lone seed ends in the store: another turn
    assert play(game, state, 1) == After([0, 0, 1], 0, [1, 1, 1], 0, 1)
    state = position(game, [1, 0, 1], 0, [1, 1, 1], 0)
    assert play(game, state, 2) == After([1, 0, 0], 1, [1, 1, 1], 0, 0)  # player_0 again


def test_a_last_seed_in_an_empty_own_hole_takes_across_and_a_grand_slam_hands_the_row_over():
    game = Family(**NS_KALAH)
    # hole 0's seed ends in empty hole 1: the hole across (player_1's hole 1, cell 5) is taken
    state = position(game, [1, 0, 3], 0, [2, 4, 0], 0)
    assert play(game, state, 0) == After([0, 1, 3], 4, [2, 0, 0], 0, 1)
    # the same capture taking player_1's last seeds is a grand slam: the capture stands, and
    # player_0's seeds left on its row (hole 1's sown seed and hole 2's 3) go to player_1's store
    state = position(game, [1, 0, 3], 0, [0, 4, 0], 0)
    after = play(game, state, 0)
    assert (after.p0, after.s0, after.p1, after.s1) == ([0, 0, 0], 4, [0, 0, 0], 4)
    legal_slam = Family(**{**NS_KALAH, "grand_slam": "legal"})
    state = position(legal_slam, [1, 0, 3], 0, [0, 4, 0], 0)
    after = play(legal_slam, state, 0)
    # (a legal grand slam: player_1 cannot move, and player_0 takes its own row's seeds)
    assert (after.p0, after.s0, after.p1, after.s1, after.to_move) == ([0, 0, 0], 8, [0, 0, 0], 0, OVER)


def test_the_rules_refuse_what_cannot_happen_when_no_seed_reaches_the_opponent():
    with pytest.raises(BadInput, match="sow_own_row=True is not played with must_share=True"):
        Family(holes=3, sow_own_row=True)
    with pytest.raises(BadInput, match="sow_own_row=True does nothing with opponent_store='sown'"):
        Family(**OWN_ROW, sow_store=True, opponent_store="sown")
    with pytest.raises(BadInput, match="sow_own_row=True is not played with children, close_at, sow_max"):
        Family(**OWN_ROW, children="normal", child_count=2)
    with pytest.raises(BadInput, match="sow_own_row=True is not played with children, close_at, sow_max"):
        Family(**OWN_ROW, sow_max=5)  # (its count of a ring of both rows would let a sowing pass over for ever)
    # Wari's captures of 2 or 3 on the opponent's row: the last seed never falls there
    with pytest.raises(BadInput, match="sow_own_row=True does nothing with captures of the opponent's holes"):
        Family(holes=3, sow_own_row=True, must_share=False)
    Family(holes=3, sow_own_row=True, must_share=False, capture_side="own")


def test_random_games_sowing_their_own_rows_never_sow_the_opponents():
    rng = np.random.default_rng(5)
    moves = 0
    for _ in range(40):
        game = Family(**sample_rules(rng, choices={"sow_own_row": (True,)}))
        assert game.params["sow_own_row"]
        h = game.pits
        state = game.init(rng)
        total = int(state[:game.board_size].sum())
        while not game.is_terminal(state):
            mover = game.to_move(state)
            theirs = slice(h + 1, 2 * h + 1) if mover == 0 else slice(0, h)
            before, round_played = state[theirs].copy(), game.round_of(state)
            mask = game.legal_mask(state)
            assert mask.any(), (game, state)
            game.apply(state, int(rng.choice(np.flatnonzero(mask))))
            moves += 1
            if game.round_of(state) == round_played:  # (a match's next round refills both rows)
                assert (state[theirs] <= before).all(), (game, before, state)  # taken from, never sown into
            assert (state[:game.board_size] >= 0).all()
            assert int(state[:game.board_size].sum()) + game.out_of_play(state) == total
    assert moves > 400


def test_mancalagames_north_south_files_import_as_sow_own_row():
    ns_kalah = family_params({"game_class": "NorthSouthCycle", "game_constants": {"holes": 7, "nbr_start": 4},
                              "game_info": {"crosscapt": 1, "grandslam": 3, "sow_direct": 1, "sow_stores": 1,
                                            "stores": True}})
    assert (ns_kalah["sow_own_row"], ns_kalah["grand_slam"], ns_kalah["sow_store"]) == (True, "opponent_gets_row", True)
    Family(**ns_kalah)
    wari = family_params({"game_constants": {"holes": 6, "nbr_start": 4}, "game_info": {"capt_on": [2, 3]}})
    assert not wari["sow_own_row"]
    with pytest.raises(BadInput, match="sowing round their own half"):
        family_params({"game_class": "EastWestCycle", "game_info": {}})


# mikro tsoro's sowing (sow_captured: MancalaGames' LAP_CAPT_SEEDS) on 3 holes a side: a relay
# capturing across at each lap's end, what it captures sown on from the last hole
TSORO = dict(OWN_ROW, laps="relay", lap_capture=True, cross_capture=True, captures=1, goal="deprive",
             skip_origin=False, sow_captured=True)


def test_a_laps_capture_is_sown_on_from_its_last_hole():
    game = Family(**TSORO)
    # hole 0's seed ends in empty hole 1 and takes the 2 across (player_1's hole 1, cell 5); hole 1's
    # 3 seeds are sown on: holes 2, 0, 1, whose lone seed finds nothing across: the sowing stops
    state = position(game, [1, 0, 0], 0, [0, 2, 1], 0)
    assert play(game, state, 0) == After([1, 1, 1], 0, [0, 0, 1], 0, 1)
    # the same capture leaving player_1 no seed ends the sowing and the game, player_0 the winner
    state = position(game, [1, 0, 0], 0, [0, 2, 0], 0)
    assert play(game, state, 0) == After([1, 1, 1], 0, [0, 0, 0], 0, OVER)
    assert game.returns(state).tolist() == [1.0, -1.0]
    # without sow_captured, the lone seed that captured goes on alone and the 2 go to the store
    plain = Family(**{**TSORO, "sow_captured": False})
    state = position(plain, [1, 0, 0], 0, [0, 2, 1], 0)
    assert play(plain, state, 0) == After([0, 0, 1], 2, [0, 0, 1], 0, 1)


def test_random_games_sowing_their_captures_keep_every_seed_on_the_board():
    rng = np.random.default_rng(8)
    captures = 0
    for _ in range(30):
        game = Family(**sample_rules(rng, choices={"sow_captured": (True,)}))
        h = game.pits
        state = game.init(rng)
        total = int(state[:game.board_size].sum())
        while not game.is_terminal(state):
            theirs = slice(h + 1, 2 * h + 1) if game.to_move(state) == 0 else slice(0, h)
            before = int(state[theirs].sum())
            game.apply(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
            captures += int(state[theirs].sum()) < before  # (a capture, or the opponent's refill of a match)
            assert state[h] == state[2 * h + 1] == 0  # nothing leaves the board
            assert int(state[:game.board_size].sum()) + game.out_of_play(state) == total
    assert captures > 30


def test_mancalagames_mikro_tsoro_imports_as_sow_captured():
    tsoro = family_params({"game_class": "NorthSouthCycle", "game_constants": {"holes": 5, "nbr_start": 2},
                           "game_info": {"crosscapt": True, "goal": 1, "mlaps": 1, "sow_direct": 1, "sow_rule": 12}})
    assert (tsoro["sow_own_row"], tsoro["sow_captured"], tsoro["lap_capture"], tsoro["laps"]) == (True, True, True,
                                                                                                   "relay")
    Family(**tsoro)
    with pytest.raises(BadInput, match="sow_captured=True needs goal='deprive', 'clear' or 'immobilize'"):
        Family(**{**TSORO, "goal": "most_seeds"})
    with pytest.raises(BadInput, match="sow_captured=True is played by a relay whose only capture is across"):
        Family(**{**TSORO, "laps": "single"})
