"""The two-row family (games/family.py) rule by rule, on exact boards worked by hand, and the
importer of MancalaGames game files (games/mancalagames.py).

Every board below has 6 holes a side unless it says otherwise. A board is written

    p0 [a b c d e f] s0 | p1 [g h i j k l] s1

player_0's holes 0..5 (cells 0..5), player_0's store (cell 6), player_1's holes 0..5 (cells
7..12), player_1's store (cell 13). Counter-clockwise sowing goes 0 -> 5, (store 6), 7 -> 12,
(store 13), 0 ...; hole h of player_1 is cell 7 + h, and the hole across from cell c is 12 - c.
Each test plays one move and checks the whole state after it: both rows, both stores, the player
to move (-1: the game is over), the seeds out of play and the count of moves played.
"""

import json
import re
from collections import namedtuple

import numpy as np
import pytest

from mancala_marl.errors import BadInput, IllegalMoveError
from mancala_marl.games.family import Family
from mancala_marl.games.family_space import MAX_LAPS, MOVE_LIMIT, MOVES_PLAYED
from mancala_marl.games.mancalagames import (DEFAULTS, capture_counts, family_params, load_mancalagames,
                                            no_change_below)

After = namedtuple("After", "p0 s0 p1 s1 to_move out", defaults=(0,))
OVER = -1

# No capture and no duty to feed: the sowing tests see the sowing alone.
SOW_ONLY = dict(capture_min=0, must_share=False)


def position(game, p0, s0, p1, s1, to_move=0, moves=0):
    """A state of ``game``: the two rows and stores, the player to move, the moves played so far."""
    state = game.from_board([*p0, s0, *p1, s1], to_move)
    state[game.board_size + MOVES_PLAYED] = moves
    return state


def seen(game, state):
    h = game.pits
    return After(state[:h].tolist(), int(state[h]), state[h + 1:2 * h + 1].tolist(), int(state[2 * h + 1]),
                 game.to_move(state), game.out_of_play(state))


def play(game, state, hole):
    """Play ``hole`` and return the whole state after it; checks on the way that the move was
    counted and that no seed was made or lost."""
    moves = int(state[game.board_size + MOVES_PLAYED])
    seeds = int(state[:game.board_size].sum()) + game.out_of_play(state)
    game.apply(state, hole)
    assert int(state[game.board_size + MOVES_PLAYED]) == moves + 1
    assert int(state[:game.board_size].sum()) + game.out_of_play(state) == seeds
    return seen(game, state)


def legal(game, state):
    return np.flatnonzero(game.legal_mask(state)).tolist()


# -- sowing -------------------------------------------------------------------------------------
def test_counter_clockwise_sowing_passes_over_both_stores():
    # p0 [1 1 1 1 4 1] 0 | p1 [1 1 1 1 1 1] 0; player_0 plays hole 4: its 4 seeds go to hole 5,
    # past its own store (not sown without sow_store), into player_1's holes 0, 1, 2.
    # -> p0 [1 1 1 1 0 2] 0 | p1 [2 2 2 1 1 1] 0, player_1 to move.
    game = Family(**SOW_ONLY)
    state = position(game, [1, 1, 1, 1, 4, 1], 0, [1, 1, 1, 1, 1, 1], 0)
    assert play(game, state, 4) == After([1, 1, 1, 1, 0, 2], 0, [2, 2, 2, 1, 1, 1], 0, 1)


def test_clockwise_sowing():
    # direction="cw": the seeds go by decreasing cell. p0 [1 4 1 1 1 1] 0 | p1 [1 1 1 1 1 1] 0;
    # player_0 plays hole 1: 4 seeds to hole 0, past player_1's store (cell 13), into player_1's
    # holes 5, 4, 3. -> p0 [2 0 1 1 1 1] 0 | p1 [1 1 1 2 2 2] 0.
    game = Family(direction="cw", **SOW_ONLY)
    state = position(game, [1, 4, 1, 1, 1, 1], 0, [1, 1, 1, 1, 1, 1], 0)
    assert play(game, state, 1) == After([2, 0, 1, 1, 1, 1], 0, [1, 1, 1, 2, 2, 2], 0, 1)


@pytest.mark.parametrize("skip_origin, p0_after", [
    (True, [0, 3, 2, 2, 2, 2]),   # the 12th seed passes over hole 0 and falls in hole 1
    (False, [1, 2, 2, 2, 2, 2]),  # the 12th seed falls back in hole 0
])
def test_skip_origin_on_a_lap_of_twelve(skip_origin, p0_after):
    # p0 [12 1 1 1 1 1] 0 | p1 [1 1 1 1 1 1] 0; player_0 plays hole 0: 12 seeds, 11 to holes 1..5
    # and player_1's six holes; the 12th comes round to hole 0, the hole the lap started from.
    game = Family(skip_origin=skip_origin, **SOW_ONLY)
    state = position(game, [12, 1, 1, 1, 1, 1], 0, [1, 1, 1, 1, 1, 1], 0)
    assert play(game, state, 0) == After(p0_after, 0, [2, 2, 2, 2, 2, 2], 0, 1)


def test_leave_one():
    # leave_one: a move lifts all its hole's seeds but one. p0 [1 1 3 1 1 1] 0 | p1 [1 1 1 1 1 1] 0;
    # player_0 plays hole 2: one seed stays, 2 go to holes 3 and 4.
    # -> p0 [1 1 1 2 2 1] 0 | p1 unchanged (without leave_one it would be p0 [1 1 0 2 2 2]).
    game = Family(leave_one=True, **SOW_ONLY)
    state = position(game, [1, 1, 3, 1, 1, 1], 0, [1, 1, 1, 1, 1, 1], 0)
    assert play(game, state, 2) == After([1, 1, 1, 2, 2, 1], 0, [1, 1, 1, 1, 1, 1], 0, 1)


@pytest.mark.parametrize("sow_store, expected", [
    # the last of 2 seeds from hole 4 falls in the own store: another turn
    (True, After([1, 1, 1, 1, 0, 2], 1, [1, 1, 1, 1, 1, 1], 0, 0)),
    # without sow_store the store is passed over: the 2nd seed falls in player_1's hole 0
    (False, After([1, 1, 1, 1, 0, 2], 0, [2, 1, 1, 1, 1, 1], 0, 1)),
])
def test_last_seed_in_the_own_store_gives_another_turn(sow_store, expected):
    # p0 [1 1 1 1 2 1] 0 | p1 [1 1 1 1 1 1] 0; player_0 plays hole 4 (2 seeds): hole 5, then store 6.
    game = Family(sow_store=sow_store, **SOW_ONLY)
    state = position(game, [1, 1, 1, 1, 2, 1], 0, [1, 1, 1, 1, 1, 1], 0)
    assert play(game, state, 4) == expected


def test_sow_store_sows_the_own_store_only():
    # sow_store: p0 [1 1 1 1 1 9] 0 | p1 [1 1 1 1 1 1] 0; player_0 plays hole 5 (9 seeds): its own
    # store, player_1's six holes, past player_1's store, then holes 0 and 1.
    # -> p0 [2 2 1 1 1 0] 1 | p1 [2 2 2 2 2 2] 0; the last seed is not in the store: player_1 moves.
    game = Family(sow_store=True, **SOW_ONLY)
    state = position(game, [1, 1, 1, 1, 1, 9], 0, [1, 1, 1, 1, 1, 1], 0)
    assert play(game, state, 5) == After([2, 2, 1, 1, 1, 0], 1, [2, 2, 2, 2, 2, 2], 0, 1)


def test_sow_store_for_player_1():
    # sow_store, player_1 to move: p0 [1 1 1 1 1 1] 0 | p1 [1 1 1 1 1 1] 0; player_1's hole 5
    # (cell 12) sows its one seed into player_1's store (cell 13): player_1 moves again.
    game = Family(sow_store=True, **SOW_ONLY)
    state = position(game, [1, 1, 1, 1, 1, 1], 0, [1, 1, 1, 1, 1, 1], 0, to_move=1)
    assert play(game, state, 5) == After([1, 1, 1, 1, 1, 1], 0, [1, 1, 1, 1, 1, 0], 1, 1)


# -- which holes may be played ------------------------------------------------------------------
@pytest.mark.parametrize("to_move", [0, 1])
def test_move_rule_opponent_or_empty(to_move):
    # move_rule="opponent_or_empty" (MancalaGames' OPP_OR_EMPTY): a hole of at most 6 seeds (the
    # holes a side) is played only if its lap ends on the opponent's row or in an empty hole; a
    # fuller hole is played freely. The mover's row [1 1 1 0 2 7], the other's [1 1 1 1 1 1], for
    # either player:
    #   hole 0 -> hole 1, which holds a seed: refused; hole 1 -> hole 2, the same: refused
    #   hole 2 -> the empty hole 3: legal; hole 3 is empty
    #   hole 4 -> hole 5 and the opponent's hole 0, on his row: legal
    #   hole 5 holds 7, more than 6: legal, though its 7th seed comes round to the mover's hole 0
    game = Family(move_rule="opponent_or_empty", **SOW_ONLY)
    mover, other = [1, 1, 1, 0, 2, 7], [1, 1, 1, 1, 1, 1]
    rows = (mover, other) if to_move == 0 else (other, mover)
    state = position(game, rows[0], 0, rows[1], 0, to_move=to_move)
    assert legal(game, state) == [2, 4, 5]
    with pytest.raises(IllegalMoveError, match=re.escape(f"player_{to_move}'s hole 0 is not allowed by "
                                                         "move_rule='opponent_or_empty'")):
        game.apply(state, 0)


@pytest.mark.parametrize("sow_store, p0, p1, legal_holes", [
    # hole 5's lone seed passes over the store into his empty hole 0: legal
    (False, [1, 1, 0, 1, 3, 1], [0, 1, 1, 1, 1, 1], [1, 4, 5]),
    # his hole 0 holds a seed: hole 5 is refused
    (False, [1, 1, 0, 1, 3, 1], [1, 1, 1, 1, 1, 1], [1, 4]),
    # with sow_store the hole after hole 5 is the store, no hole: hole 5 is never played, even
    # with 2 seeds (MancalaGames' rule)
    (True, [1, 1, 0, 1, 3, 2], [0, 1, 1, 1, 1, 1], [1, 4]),
])
def test_move_rule_single_to_empty(sow_store, p0, p1, legal_holes):
    # move_rule="single_to_empty" (MancalaGames' SINGLE_TO_ZERO): a lone seed is played only into
    # an empty hole; a hole of more seeds is played freely. p0 [1 1 0 1 3 x]: hole 0 -> hole 1
    # (a seed there): refused; hole 1 -> the empty hole 2: legal; hole 3 -> hole 4 (3 seeds):
    # refused; hole 4 holds 3: legal.
    game = Family(move_rule="single_to_empty", sow_store=sow_store, **SOW_ONLY)
    state = position(game, p0, 0, p1, 0)
    assert legal(game, state) == legal_holes


# -- laps ---------------------------------------------------------------------------------------
def test_relay_laps():
    # laps="relay", no capture. p0 [2 0 1 0 3 0] 0 | p1 [1 1 1 1 1 1] 0; player_0 plays hole 0:
    #   2 seeds -> holes 1, 2; hole 2 held 1, now 2: lift them
    #   2 seeds -> holes 3, 4; hole 4 held 3, now 4: lift them
    #   4 seeds -> hole 5, player_1's 0, 1, 2; his hole 2 held 1, now 2: lift them
    #   2 seeds -> player_1's 3, 4; his hole 4 held 1, now 2: lift them
    #   2 seeds -> player_1's 5, player_0's hole 0 (emptied at the start): it held nothing, stop.
    # -> p0 [1 1 0 1 0 1] 0 | p1 [2 2 0 2 0 2] 0.
    game = Family(laps="relay", **SOW_ONLY)
    state = position(game, [2, 0, 1, 0, 3, 0], 0, [1, 1, 1, 1, 1, 1], 0)
    assert play(game, state, 0) == After([1, 1, 0, 1, 0, 1], 0, [2, 2, 0, 2, 0, 2], 0, 1)


def test_relay_stops_where_a_count_capture_is_due():
    # laps="relay", captures of 2..3 on the opponent's row (the defaults).
    # p0 [5 5 5 5 2 0] 0 | p1 [3 1 1 1 1 1] 0; player_0 plays hole 4:
    #   2 seeds -> hole 5, player_1's hole 0 (3 -> 4: no capture, and it held seeds): lift the 4
    #   4 seeds -> player_1's holes 1..4, each 1 -> 2; the last (hole 4) held seeds, but 2 is
    #   taken there: the relay stops to capture. Backward: his holes 4, 3, 2, 1 (2 each: 8); his
    #   hole 0 is empty, the chain ends.
    # -> p0 [5 5 5 5 0 1] 8 | p1 [0 0 0 0 0 1] 0.
    game = Family(laps="relay", must_share=False)
    state = position(game, [5, 5, 5, 5, 2, 0], 0, [3, 1, 1, 1, 1, 1], 0)
    assert play(game, state, 4) == After([5, 5, 5, 5, 0, 1], 8, [0, 0, 0, 0, 0, 1], 0, 1)


def test_next_laps():
    # laps="next", no capture. p0 [2 0 0 1 0 2] 0 | p1 [1 1 0 1 1 1] 0; player_0 plays hole 0:
    #   2 seeds -> holes 1, 2 (the last); the hole after it, 3, holds 1: lift it
    #   1 seed  -> hole 4 (the last); the hole after it, 5, holds 2: lift them
    #   2 seeds -> player_1's 0, 1 (the last); the hole after it, his 2, is empty: stop.
    # -> p0 [0 1 1 0 1 0] 0 | p1 [2 2 0 1 1 1] 0. (A relay would have stopped in the empty hole 2.)
    game = Family(laps="next", **SOW_ONLY)
    state = position(game, [2, 0, 0, 1, 0, 2], 0, [1, 1, 0, 1, 1, 1], 0)
    assert play(game, state, 0) == After([0, 1, 1, 0, 1, 0], 0, [2, 2, 0, 1, 1, 1], 0, 1)


@pytest.mark.parametrize("endless_leftover, s0, s1, out", [
    ("owner", 2 + 3, 0, 4),
    ("nobody", 2, 0, 4 + 3),
    ("divided", 2 + 1, 0 + 1 + 1, 4),  # 3 seeds: 1 each, the odd one to the smaller store (player_1's)
])
def test_an_endless_relay_ends_the_game(endless_leftover, s0, s1, out):
    # 2 holes a side (cells 0, 1 | store 2 | 3, 4 | store 5), relay laps, no capture.
    # p0 [1 3] 2 | p1 [2 1] 0; player_0 plays hole 0 and the relay circles for ever:
    #   lap 1: 1 seed  from hole 0   -> p0 [0 4] | p1 [2 1], last in hole 1 (4): lift
    #   lap 2: 4 seeds from hole 1   -> his 0, his 1, hole 0, (hole 1 skipped) his 0: p0 [1 0] | p1 [4 2]
    #   lap 3: 4 seeds from his 0    -> his 1, hole 0, hole 1, his 1:               p0 [2 1] | p1 [0 4]
    #   lap 4: 4 seeds from his 1    -> hole 0, hole 1, his 0, hole 0:              p0 [4 2] | p1 [1 0]
    #   lap 5: 4 seeds from hole 0   -> hole 1, his 0, his 1, hole 1:               p0 [0 4] | p1 [2 1]
    # Lap 5 leaves what lap 1 left: laps 1, 5, 9, ... 73 alike, so lap 75 ends as lap 3 did, p0 [2 1] |
    # p1 [0 4] with 4 seeds to lift from his hole 1. After MAX_LAPS (75) laps those 4 seeds in hand
    # leave play, and the 3 seeds on the board go by endless_leftover; the game is over.
    assert MAX_LAPS == 75
    game = Family(holes=2, laps="relay", endless_leftover=endless_leftover, **SOW_ONLY)
    state = position(game, [1, 3], 2, [2, 1], 0)
    assert play(game, state, 0) == After([0, 0], s0, [0, 0], s1, OVER, out)


# -- captures by count --------------------------------------------------------------------------
@pytest.mark.parametrize("rules, p1_before, p1_after, s0", [
    # his holes 0, 1, 2 become 2, 3, 2: all three taken backward from the last (2 + 3 + 2)
    ({}, [1, 2, 1, 2, 4, 4], [0, 0, 0, 2, 4, 4], 7),
    # his hole 1 becomes 4: the chain stops there, only the last hole is taken
    ({}, [1, 3, 1, 2, 4, 4], [2, 4, 0, 2, 4, 4], 2),
    # the last hole becomes 4, more than capture_max=3: nothing is taken
    ({}, [1, 2, 3, 2, 4, 4], [2, 3, 4, 2, 4, 4], 0),
    # capture_max=0, no upper bound: the last hole of 5 is taken too (5 + 3 + 2)
    ({"capture_max": 0}, [1, 2, 4, 2, 4, 4], [0, 0, 0, 2, 4, 4], 10),
    # captures=1: one hole at most; captures=2: two
    ({"captures": 1}, [1, 2, 1, 2, 4, 4], [2, 3, 0, 2, 4, 4], 2),
    ({"captures": 2}, [1, 2, 1, 2, 4, 4], [2, 0, 0, 2, 4, 4], 5),
])
def test_count_capture_chain_backward(rules, p1_before, p1_after, s0):
    # Captures of 2..3 on the opponent's row (the defaults). p0 [4 4 4 4 4 3] 0 | p1 as given;
    # player_0 plays hole 5: 3 seeds into player_1's holes 0, 1, 2, the last in his hole 2. The
    # chain goes backward from there (his 2, 1, 0) while each hole qualifies; before his hole 0
    # comes player_0's hole 5, never taken from the opponent's row.
    game = Family(**rules)
    state = position(game, [4, 4, 4, 4, 4, 3], 0, p1_before, 0)
    assert play(game, state, 5) == After([4, 4, 4, 4, 4, 0], s0, p1_after, 0, 1)


@pytest.mark.parametrize("chain, p1_after, s0", [
    ("backward", [0, 0, 0, 2, 3, 4], 2 + 2 + 2),    # his holes 2, 1, 0
    ("forward", [2, 2, 0, 0, 0, 4], 2 + 2 + 3),     # his holes 2, 3, 4; his hole 5 holds 4: stop
])
def test_count_capture_chain_forward(chain, p1_after, s0):
    # p0 [4 4 4 4 4 3] 0 | p1 [1 1 1 2 3 4] 0; player_0 plays hole 5: his holes 0, 1, 2 become
    # 2, 2, 2, the last seed in his hole 2: p1 [2 2 2 2 3 4].
    game = Family(chain=chain)
    state = position(game, [4, 4, 4, 4, 4, 3], 0, [1, 1, 1, 2, 3, 4], 0)
    assert play(game, state, 5) == After([4, 4, 4, 4, 4, 0], s0, p1_after, 0, 1)


@pytest.mark.parametrize("parity, p1_before, p1_after, s0", [
    ("even", [2, 3, 1, 1, 1, 1], [3, 0, 1, 1, 1, 1], 4),   # his 1 -> 4 taken; his 0 -> 3 (odd) ends it
    ("odd", [2, 3, 1, 1, 1, 1], [3, 4, 1, 1, 1, 1], 0),    # his 1 -> 4 is even: nothing
    ("even", [3, 2, 1, 1, 1, 1], [4, 3, 1, 1, 1, 1], 0),   # his 1 -> 3 is odd: nothing
    ("odd", [3, 2, 1, 1, 1, 1], [4, 0, 1, 1, 1, 1], 3),    # his 1 -> 3 taken; his 0 -> 4 (even) ends it
    ("any", [3, 2, 1, 1, 1, 1], [0, 0, 1, 1, 1, 1], 7),    # both taken
])
def test_capture_parity(parity, p1_before, p1_after, s0):
    # capture_min=1, capture_max=0: any count of the parity is taken. p0 [4 4 4 4 4 2] 0 | p1 as
    # given; player_0 plays hole 5: 2 seeds into player_1's holes 0 and 1 (the last).
    game = Family(capture_min=1, capture_max=0, capture_parity=parity)
    state = position(game, [4, 4, 4, 4, 4, 2], 0, p1_before, 0)
    assert play(game, state, 5) == After([4, 4, 4, 4, 4, 0], s0, p1_after, 0, 1)


@pytest.mark.parametrize("side, p0_before, hole, expected", [
    # p0 [4 4 4 4 3 1] 0 | p1 [1 2 1 1 1 1] 0; hole 4: 3 seeds to hole 5 (-> 2), his 0 (-> 2), his 1
    # (-> 3, the last). Backward: his 1, his 0, then (past player_0's store) player_0's hole 5.
    ("opponent", [4, 4, 4, 4, 3, 1], 4, After([4, 4, 4, 4, 0, 2], 3 + 2, [0, 0, 1, 1, 1, 1], 0, 1)),
    ("both", [4, 4, 4, 4, 3, 1], 4, After([4, 4, 4, 4, 0, 0], 3 + 2 + 2, [0, 0, 1, 1, 1, 1], 0, 1)),
    ("own", [4, 4, 4, 4, 3, 1], 4, After([4, 4, 4, 4, 0, 2], 0, [2, 3, 1, 1, 1, 1], 0, 1)),
    # p0 [4 2 1 1 4 4]; hole 1: 2 seeds to holes 2 (-> 2) and 3 (-> 2, the last), on player_0's
    # own row: "own" takes holes 3 and 2, then hole 1 (emptied) ends the chain.
    ("own", [4, 2, 1, 1, 4, 4], 1, After([4, 0, 0, 0, 4, 4], 2 + 2, [1, 2, 1, 1, 1, 1], 0, 1)),
    ("opponent", [4, 2, 1, 1, 4, 4], 1, After([4, 0, 2, 2, 4, 4], 0, [1, 2, 1, 1, 1, 1], 0, 1)),
])
def test_capture_side(side, p0_before, hole, expected):
    game = Family(capture_side=side)
    state = position(game, p0_before, 0, [1, 2, 1, 1, 1, 1], 0)
    assert play(game, state, hole) == expected


# -- cross captures -----------------------------------------------------------------------------
CROSS = dict(capture_min=0, cross_capture=True, captures=1, must_share=False)


@pytest.mark.parametrize("take_own, across, expected", [
    # his hole 2 holds 2: taken; the sowing seed stays ("leave") or goes with them
    ("leave", 2, After([0, 0, 0, 1, 3, 3], 2, [2, 2, 0, 5, 2, 2], 0, 1)),
    ("on_capture", 2, After([0, 0, 0, 0, 3, 3], 2 + 1, [2, 2, 0, 5, 2, 2], 0, 1)),
    ("always", 2, After([0, 0, 0, 0, 3, 3], 2 + 1, [2, 2, 0, 5, 2, 2], 0, 1)),
    # his hole 2 is empty: nothing is captured; "always" takes the sowing seed all the same
    ("leave", 0, After([0, 0, 0, 1, 3, 3], 0, [2, 2, 0, 5, 2, 2], 0, 1)),
    ("on_capture", 0, After([0, 0, 0, 1, 3, 3], 0, [2, 2, 0, 5, 2, 2], 0, 1)),
    ("always", 0, After([0, 0, 0, 0, 3, 3], 1, [2, 2, 0, 5, 2, 2], 0, 1)),
])
def test_cross_capture_and_take_own(take_own, across, expected):
    # cross_capture, one hole at most (Kalah's rule). p0 [0 0 1 0 3 3] 0 | p1 [2 2 x 5 2 2] 0;
    # player_0 plays hole 2: its one seed falls in the empty hole 3, across from his hole 2 (x).
    game = Family(take_own=take_own, **CROSS)
    state = position(game, [0, 0, 1, 0, 3, 3], 0, [2, 2, across, 5, 2, 2], 0)
    assert play(game, state, 2) == expected


def test_cross_capture_chain():
    # cross_capture with captures=0 (no limit), chain backward, take_own="leave".
    # p0 [0 4 1 0 3 3] 0 | p1 [2 2 2 5 2 2] 0; player_0 plays hole 2: 1 seed into the empty hole 3:
    # across, his hole 2 (2) is taken; the chain goes back to hole 2 (emptied by the move): across,
    # his hole 3 (5) is taken; hole 1 holds 4, not empty: the chain ends.
    # -> p0 [0 4 0 1 3 3] 7 | p1 [2 2 0 0 2 2] 0.
    game = Family(**{**CROSS, "captures": 0})
    state = position(game, [0, 4, 1, 0, 3, 3], 0, [2, 2, 2, 5, 2, 2], 0)
    assert play(game, state, 2) == After([0, 4, 0, 1, 3, 3], 7, [2, 2, 0, 0, 2, 2], 0, 1)


@pytest.mark.parametrize("across, s0, p1_after", [(3, 3, [2, 2, 0, 5, 2, 2]), (4, 0, [2, 2, 4, 5, 2, 2])])
def test_cross_capture_by_count(across, s0, p1_after):
    # cross_capture with captures of 2..3: the hole across is taken only if it holds 2..3.
    # p0 [0 0 1 0 3 3] 0 | p1 [2 2 x 5 2 2] 0; hole 2 sows into the empty hole 3, across from his 2.
    game = Family(**{**CROSS, "capture_min": 2, "capture_max": 3})
    state = position(game, [0, 0, 1, 0, 3, 3], 0, [2, 2, across, 5, 2, 2], 0)
    assert play(game, state, 2) == After([0, 0, 0, 1, 3, 3], s0, p1_after, 0, 1)


# -- captures two out ---------------------------------------------------------------------------
# capture_gap as MancalaGames' TWO_OUT plays it: forward along the sowing, from either row.
GAP = dict(capture_min=0, capture_gap=True, chain="forward", capture_side="both", must_share=False)


@pytest.mark.parametrize("rules, p0_before, p1_before, expected", [
    # hole 4 held a seed, hole 5 after it is empty: his hole 0 beyond the gap (past player_0's
    # store) is taken
    ({}, [2, 0, 0, 1, 1, 0], [3, 1, 1, 1, 1, 1], After([2, 0, 0, 0, 2, 0], 3, [0, 1, 1, 1, 1, 1], 0, 1)),
    # hole 4 was empty: with one lap the last seed must have joined others, nothing is taken
    ({}, [2, 0, 0, 1, 0, 0], [3, 1, 1, 1, 1, 1], After([2, 0, 0, 0, 1, 0], 0, [3, 1, 1, 1, 1, 1], 0, 1)),
    # hole 5 holds a seed: no gap, nothing is taken
    ({}, [2, 0, 0, 1, 1, 1], [3, 1, 1, 1, 1, 1], After([2, 0, 0, 0, 2, 1], 0, [3, 1, 1, 1, 1, 1], 0, 1)),
    # captures=0, but with one lap the chain cannot go on: it would go on from the hole just
    # taken, now empty, and with one lap a capture needs a last hole that held seeds. His hole 1
    # is empty and his hole 2 (5) stays.
    ({"captures": 0}, [2, 0, 0, 1, 1, 0], [3, 0, 5, 1, 1, 1],
     After([2, 0, 0, 0, 2, 0], 3, [0, 0, 5, 1, 1, 1], 0, 1)),
])
def test_capture_gap(rules, p0_before, p1_before, expected):
    # capture_gap, one hole at most (captures=1), one lap. player_0 plays hole 3: its one seed
    # falls in hole 4, the last hole.
    game = Family(**{**GAP, "captures": 1, **rules})
    state = position(game, p0_before, 0, p1_before, 0)
    assert play(game, state, 3) == expected


@pytest.mark.parametrize("captures, expected", [
    (0, After([0, 1, 0, 1, 1, 0], 3 + 4, [0, 0, 0, 1, 1, 1], 0, 1)),
    (1, After([0, 1, 0, 1, 1, 0], 3, [0, 0, 4, 1, 1, 1], 0, 1)),
])
def test_capture_gap_chain_with_relay_laps(captures, expected):
    # capture_gap with laps="relay". p0 [2 0 1 0 0 0] 0 | p1 [3 0 4 1 1 1] 0; player_0 plays hole 0:
    #   2 seeds -> holes 1 (1) and 2 (1 -> 2): it held a seed, lift 2 -> holes 3, 4 (1 each):
    #   hole 4 was empty, the relay stops. With laps a last lone seed captures two out as well:
    #   hole 5 is empty, his hole 0 (3) beyond it is taken. captures=0: the chain goes on from the
    #   hole taken across the next gap: his hole 1 is empty, his hole 2 (4) is taken; his hole 3
    #   holds a seed: the chain ends.
    game = Family(laps="relay", **{**GAP, "captures": captures})
    state = position(game, [2, 0, 1, 0, 0, 0], 0, [3, 0, 4, 1, 1, 1], 0)
    assert play(game, state, 0) == expected


# -- passing captures ---------------------------------------------------------------------------
@pytest.mark.parametrize("mover", [0, 1])
@pytest.mark.parametrize("passing, own_after, own_store, other_after, other_store", [
    # only the last hole, by the usual capture
    ("none", [0, 0, 0, 4, 2, 2], 4, [4, 2, 0, 2, 2, 2], 0),
    # each row's 4 to its owner as the seeds pass; the last hole's to the mover
    ("owner", [0, 0, 0, 0, 2, 2], 4 + 4, [0, 2, 0, 2, 2, 2], 4),
    # the last hole too to its owner (the opponent), as it is sown: nothing left to the capture
    ("owner_all", [0, 0, 0, 0, 2, 2], 4, [0, 2, 0, 2, 2, 2], 4 + 4),
    # all three to the mover
    ("sower", [0, 0, 0, 0, 2, 2], 4 + 4 + 4, [0, 2, 0, 2, 2, 2], 0),
    # the mover's own hole 3 as the seeds pass, the last hole by the capture; his hole 0 stays
    ("sower_own", [0, 0, 0, 0, 2, 2], 4 + 4, [4, 2, 0, 2, 2, 2], 0),
    # the opponent's hole 0 as the seeds pass, and the last hole; the mover's hole 3 stays
    ("sower_opponent", [0, 0, 0, 4, 2, 2], 4 + 4, [0, 2, 0, 2, 2, 2], 0),
])
def test_passing_captures(mover, passing, own_after, own_store, other_after, other_store):
    # passing (MancalaGames' en passant sowing), captures of exactly 4 from either row. Seen from
    # the mover, for either player: own row [0 0 6 3 1 1], the other's [3 1 3 2 2 2]; the mover
    # plays hole 2: 6 seeds -> own holes 3 (3 -> 4), 4 (2), 5 (2), the other's holes 0 (3 -> 4),
    # 1 (2), 2 (3 -> 4, the last). Holes of 4 passed on the way: the mover's hole 3 and the
    # other's hole 0; the last hole (the other's 2) is taken by the mover's capture (its chain
    # backward stops at the other's hole 1, 2 seeds), unless owner_all took it first.
    game = Family(passing=passing, capture_min=4, capture_max=4, capture_side="both", must_share=False)
    own, other = [0, 0, 6, 3, 1, 1], [3, 1, 3, 2, 2, 2]
    if mover == 0:
        state = position(game, own, 0, other, 0)
        expected = After(own_after, own_store, other_after, other_store, 1)
    else:
        state = position(game, other, 0, own, 0, to_move=1)
        expected = After(other_after, other_store, own_after, own_store, 0)
    assert play(game, state, 2) == expected


# -- laps that capture --------------------------------------------------------------------------
@pytest.mark.parametrize("lap_capture, expected", [
    (True, After([2, 1, 1, 1, 0, 1], 2, [0, 0, 2, 2, 0, 5], 0, 1)),
    (False, After([1, 0, 0, 0, 0, 1], 2, [0, 3, 1, 1, 4, 4], 0, 1)),
])
def test_lap_capture_by_count(lap_capture, expected):
    # laps="relay", captures of 2..3 on the opponent's row. lap_capture (MancalaGames' LAP_CAPT):
    # a lap that ends where a capture is due captures there, and the sowing goes on from the next
    # hole; without it the relay stops there to capture.
    # p0 [1 0 0 0 2 0] 0 | p1 [1 3 1 1 4 4] 0; player_0 plays hole 4:
    #   2 seeds -> hole 5, his hole 0 (1 -> 2): taken (2); before it comes player_0's hole 5, on
    #   his own row: the chain ends. Without lap_capture the move ends here.
    #   lap_capture: the next hole, his 1, is lifted: 3 seeds -> his holes 2, 3 (2 each) and 4
    #   (4 -> 5): not taken, and it held seeds: lift the 5
    #   5 seeds -> his hole 5 (5), player_0's holes 0 (2), 1, 2, 3 (1 each): hole 3 was empty, stop
    #   (on player_0's own row: nothing taken).
    game = Family(laps="relay", lap_capture=lap_capture, must_share=False)
    state = position(game, [1, 0, 0, 0, 2, 0], 0, [1, 3, 1, 1, 4, 4], 0)
    assert play(game, state, 4) == expected


@pytest.mark.parametrize("lap_capture, expected", [
    (True, After([0, 0, 0, 0, 0, 1], 3 + 2, [0, 0, 0, 1, 1, 1], 0, 1)),
    (False, After([0, 0, 0, 1, 0, 0], 3, [0, 2, 0, 1, 1, 1], 0, 1)),
])
def test_lap_capture_cross(lap_capture, expected):
    # laps="relay", cross captures of one hole. lap_capture: a lone seed that cross-captured goes
    # on alone, sown as a lap of one; one that did not stops.
    # p0 [0 0 1 0 0 0] 0 | p1 [0 2 3 1 1 1] 0; player_0 plays hole 2: 1 seed into the empty hole 3,
    # across from his hole 2 (3): taken. Without lap_capture the move ends here.
    # lap_capture: the seed goes on into the empty hole 4, across from his hole 1 (2): taken; on
    # into the empty hole 5, across from his hole 0, which is empty: nothing taken, stop.
    game = Family(laps="relay", lap_capture=lap_capture, **CROSS)
    state = position(game, [0, 0, 1, 0, 0, 0], 0, [0, 2, 3, 1, 1, 1], 0)
    assert play(game, state, 2) == expected


@pytest.mark.parametrize("lap_capture, captures, expected", [
    (True, 0, After([0, 1, 0, 1, 1, 0], 5 + 3 + 4, [0, 0, 0, 1, 1, 1], 0, 1)),
    (True, 1, After([0, 1, 0, 1, 1, 0], 5 + 3, [0, 0, 4, 1, 1, 1], 0, 1)),
    (False, 0, After([1, 1, 0, 1, 0, 1], 0, [4, 1, 5, 2, 0, 2], 0, 1)),
])
def test_lap_capture_two_out(lap_capture, captures, expected):
    # laps="relay", captures two out (GAP, above; MancalaGames' LAP_CAPT with TWO_OUT).
    # lap_capture: a lap whose last seed joined others captures two out there, then the sowing
    # goes on from that hole.
    # p0 [2 0 1 0 5 0] 0 | p1 [3 0 4 1 1 1] 0; player_0 plays hole 0:
    #   2 seeds -> holes 1 (1) and 2 (1 -> 2): it held a seed, hole 3 after it is empty, hole 4
    #   beyond (5) is taken. captures=0: the chain goes on across each next gap: hole 5 empty ->
    #   his hole 0 (3) taken; his hole 1 empty -> his hole 2 (4) taken; his hole 3 holds 1: ends.
    #   The sowing goes on from hole 2: 2 seeds -> holes 3, 4 (1 each); hole 4 was emptied: stop.
    #   A last lone seed captures two out too when sowing in laps: hole 5 is empty, but his hole
    #   0 beyond it is empty by now.
    # captures=1: lap 1 takes hole 4 alone; at the end, hole 5 empty, his hole 0 (3) is taken.
    # Without lap_capture, a plain relay: hole 2 (2) -> holes 3, 4 (5 -> 6); lift 6 -> hole 5,
    # his holes 0..4; his hole 4 (1 -> 2): lift 2 -> his hole 5, player_0's hole 0 (emptied by the
    # move, now 1): stop. Hole 1 after it holds a seed: no gap, nothing taken.
    game = Family(laps="relay", lap_capture=lap_capture, **{**GAP, "captures": captures})
    state = position(game, [2, 0, 1, 0, 5, 0], 0, [3, 0, 4, 1, 1, 1], 0)
    assert play(game, state, 0) == expected


# -- capture modifiers --------------------------------------------------------------------------
@pytest.mark.parametrize("no_single_capture, expected", [
    (False, After([1, 1, 1, 1, 1, 0], 2, [0, 1, 1, 1, 1, 1], 0, 1)),
    (True, After([1, 1, 1, 1, 1, 0], 0, [2, 1, 1, 1, 1, 1], 0, 1)),
])
def test_no_single_capture(no_single_capture, expected):
    # p0 [1 1 1 1 1 1] 0 | p1 [1 1 1 1 1 1] 0; player_0 plays hole 5: its single seed makes his
    # hole 0 a 2, taken, unless no_single_capture (a lap of one seed captures nothing).
    game = Family(no_single_capture=no_single_capture)
    state = position(game, [1, 1, 1, 1, 1, 1], 0, [1, 1, 1, 1, 1, 1], 0)
    assert play(game, state, 5) == expected


@pytest.mark.parametrize("hole, expected", [
    (5, After([1, 1, 1, 1, 1, 0], 2, [0, 1, 1, 1, 1, 1], 0, 0)),  # captures 2: player_0 again
    (0, After([0, 2, 1, 1, 1, 1], 0, [1, 1, 1, 1, 1, 1], 0, 1)),  # no capture: player_1's turn
])
def test_capture_extra_turn(hole, expected):
    # capture_extra_turn. p0 [1 1 1 1 1 1] 0 | p1 [1 1 1 1 1 1] 0; hole 5 makes his hole 0 a 2
    # (taken); hole 0 makes player_0's hole 1 a 2 (own row: nothing taken).
    game = Family(capture_extra_turn=True)
    state = position(game, [1, 1, 1, 1, 1, 1], 0, [1, 1, 1, 1, 1, 1], 0)
    assert play(game, state, hole) == expected


@pytest.mark.parametrize("extra_turn_once, second", [
    (True, After([2, 3, 0, 0, 0, 0], 4, [1, 0, 1, 1, 1, 1], 0, 1)),   # it followed an extra turn
    (False, After([2, 3, 0, 0, 0, 0], 4, [1, 0, 1, 1, 1, 1], 0, 0)),  # another extra turn
])
def test_extra_turn_once(extra_turn_once, second):
    # capture_extra_turn with extra_turn_once (MancalaGames' capt_rturn ONCE): a capture gives
    # another turn, but not one that is itself an extra turn. p0 [2 3 0 0 2 1] 0 | p1 [1 1 1 1 1 1] 0:
    #   player_0's hole 4: 2 seeds -> hole 5, his hole 0 (1 -> 2): taken, another turn
    #   player_0's hole 5: 2 seeds -> his holes 0 (1), 1 (1 -> 2): taken; his hole 0 (1) ends the
    #   chain. This extra turn's capture gives none with extra_turn_once.
    game = Family(capture_extra_turn=True, extra_turn_once=extra_turn_once)
    state = position(game, [2, 3, 0, 0, 2, 1], 0, [1, 1, 1, 1, 1, 1], 0)
    assert play(game, state, 4) == After([2, 3, 0, 0, 0, 2], 2, [0, 1, 1, 1, 1, 1], 0, 0)
    assert play(game, state, 5) == second
    if extra_turn_once:
        # The count starts again with player_1's turn: his hole 5 sows past his store into
        # player_0's hole 0 (2 -> 3): taken, and he has another turn.
        assert play(game, state, 5) == After([0, 3, 0, 0, 0, 0], 4, [1, 0, 1, 1, 1, 0], 3, 1)


@pytest.mark.parametrize("take_across, capture_side, s0, p0_after", [
    (True, "both", 7 + 4, [4, 4, 4, 0, 4, 0]),    # across from his hole 2: player_0's hole 3 (4)
    (False, "both", 7, [4, 4, 4, 4, 4, 0]),
    (True, "opponent", 7, [4, 4, 4, 4, 4, 0]),    # player_0's own row is not taken from
])
def test_take_across(take_across, capture_side, s0, p0_after):
    # take_across (MancalaGames' PICKCROSS): a capture also takes the hole across from the first
    # hole it took, if captures may come from there. p0 [4 4 4 4 4 3] 0 | p1 [1 2 1 2 4 4] 0;
    # player_0 plays hole 5: his holes 0, 1, 2 become 2, 3, 2 (the last in his hole 2) and are
    # taken backward from there (7); then player_0's hole 5, emptied by the move, ends the chain.
    # The first hole taken is his hole 2 (cell 9), across from player_0's hole 3 (cell 3).
    game = Family(take_across=take_across, capture_side=capture_side)
    state = position(game, [4, 4, 4, 4, 4, 3], 0, [1, 2, 1, 2, 4, 4], 0)
    assert play(game, state, 5) == After(p0_after, s0, [0, 0, 0, 2, 4, 4], 0, 1)


@pytest.mark.parametrize("take_across, expected", [
    (True, After([0, 0, 2, 0, 0, 0], 3 + 5, [1, 0, 1, 1, 1, 1], 0, 1)),
    (False, After([0, 0, 2, 0, 0, 0], 3, [1, 5, 1, 1, 1, 1], 0, 1)),
])
def test_take_across_after_a_capture_two_out(take_across, expected):
    # As in Pandi: a capture two out takes the hole beyond the gap, and take_across the hole
    # across from that one (not from the last hole sown). p0 [0 1 1 0 3 0] 0 | p1 [1 5 1 1 1 1] 0;
    # player_0 plays hole 1 into hole 2 (1 -> 2); hole 3 is empty; hole 4 beyond it (3) is
    # taken, and across from it his hole 1 (5).
    game = Family(take_across=take_across, **{**GAP, "captures": 1})
    state = position(game, [0, 1, 1, 0, 3, 0], 0, [1, 5, 1, 1, 1, 1], 0)
    assert play(game, state, 1) == expected


@pytest.mark.parametrize("no_capture_turns, first, second", [
    (0, After([1, 1, 1, 1, 1, 0], 2, [0, 1, 1, 1, 1, 1], 0, 1), After([0, 1, 1, 1, 1, 0], 2, [0, 1, 1, 1, 1, 0], 2, 0)),
    (1, After([1, 1, 1, 1, 1, 0], 0, [2, 1, 1, 1, 1, 1], 0, 1), After([0, 1, 1, 1, 1, 0], 0, [2, 1, 1, 1, 1, 0], 2, 0)),
    (2, After([1, 1, 1, 1, 1, 0], 0, [2, 1, 1, 1, 1, 1], 0, 1), After([2, 1, 1, 1, 1, 0], 0, [2, 1, 1, 1, 1, 0], 0, 0)),
])
def test_no_capture_turns(no_capture_turns, first, second):
    # no_capture_turns (MancalaGames' nocaptmoves): nothing is captured in the game's first turns.
    # p0 [1 1 1 1 1 1] 0 | p1 [1 1 1 1 1 1] 0 at the start of the game (no turn played yet):
    #   turn 1, player_0's hole 5: his hole 0 becomes 2, taken unless no_capture_turns >= 1
    #   turn 2, player_1's hole 5: past his store into player_0's hole 0 (1 -> 2), taken unless
    #   no_capture_turns >= 2
    game = Family(no_capture_turns=no_capture_turns)
    state = position(game, [1, 1, 1, 1, 1, 1], 0, [1, 1, 1, 1, 1, 1], 0)
    assert play(game, state, 5) == first
    assert play(game, state, 5) == second


def test_no_capture_turns_counts_turns_not_moves():
    # An extra turn is part of the same turn: with sow_store and no_capture_turns=1, both moves of
    # player_0's first turn capture nothing. (MancalaGames refuses this pair of rules; its turn
    # count, which an extra turn does not advance, is the one kept here.)
    # p0 [1 1 1 1 3 1] 0 | p1 [1 1 1 1 1 1] 0:
    #   hole 5: its seed into the store, another turn
    #   hole 4: 3 seeds -> hole 5, the store, his hole 0 (1 -> 2): not taken, still the first turn
    game = Family(sow_store=True, no_capture_turns=1, must_share=False)
    state = position(game, [1, 1, 1, 1, 3, 1], 0, [1, 1, 1, 1, 1, 1], 0)
    assert play(game, state, 5) == After([1, 1, 1, 1, 3, 0], 1, [1, 1, 1, 1, 1, 1], 0, 0)
    assert play(game, state, 4) == After([1, 1, 1, 1, 0, 1], 2, [2, 1, 1, 1, 1, 1], 0, 1)


@pytest.mark.parametrize("take_last, take_last_by, p0, p1, to_move, hole, expected", [
    # his holes 0, 1 become 2, 2: taken (4); 2 seeds are left on his row, where captures come
    # from: at most 2, so every seed on the board (those 2 and player_0's 3) goes to player_0
    (2, "mover", [3, 0, 0, 0, 0, 2], [1, 1, 0, 0, 0, 2], 0, 5, After([0] * 6, 4 + 2 + 3, [0] * 6, 0, OVER)),
    # 2 left is more than 1: the game goes on
    (1, "mover", [3, 0, 0, 0, 0, 2], [1, 1, 0, 0, 0, 2], 0, 5,
     After([3, 0, 0, 0, 0, 0], 4, [0, 0, 0, 0, 0, 2], 0, 1)),
    # no capture is needed: hole 4 sows into hole 5 and his row holds 2
    (2, "mover", [3, 0, 0, 0, 1, 0], [0, 0, 0, 0, 0, 2], 0, 4, After([0] * 6, 2 + 3 + 1, [0] * 6, 0, OVER)),
    # player_1 moves: his hole 5 takes player_0's holes 0, 1 (2 each); 2 left on player_0's row;
    # the 5 on the board go to player_1, the mover, or to player_0, the first player
    (2, "mover", [1, 1, 0, 0, 0, 2], [3, 0, 0, 0, 0, 2], 1, 5, After([0] * 6, 0, [0] * 6, 4 + 2 + 3, OVER)),
    (2, "first", [1, 1, 0, 0, 0, 2], [3, 0, 0, 0, 0, 2], 1, 5, After([0] * 6, 2 + 3, [0] * 6, 4, OVER)),
])
def test_take_last(take_last, take_last_by, p0, p1, to_move, hole, expected):
    # take_last (MancalaGames' PICKLASTSEEDS, PICK2XLASTSEEDS): after a move, when at most
    # take_last seeds are left on the row captures come from (Wari's: the opponent's), every seed
    # on the board goes to take_last_by; the board is then empty and the game over.
    game = Family(take_last=take_last, take_last_by=take_last_by)
    state = position(game, p0, 0, p1, 0, to_move=to_move)
    assert play(game, state, hole) == expected


# -- grand slams --------------------------------------------------------------------------------
# p0 [1 1 1 1 1 2] 0 | p1 [1 1 0 0 0 0] 0; player_0's hole 5 sows 2 seeds into his holes 0 and 1
# (2 each): taking both takes every seed of player_1's row.
SLAM = ([1, 1, 1, 1, 1, 2], 0, [1, 1, 0, 0, 0, 0], 0)


def test_grand_slam_legal():
    # The 4 seeds are taken; player_1 is left with no seed and no move: the game ends, and the
    # seeds left on the board go to their rows' owner (player_0's 5).
    game = Family(grand_slam="legal")
    state = position(game, *SLAM)
    assert legal(game, state) == [0, 1, 2, 3, 4, 5]
    assert play(game, state, 5) == After([0, 0, 0, 0, 0, 0], 4 + 5, [0, 0, 0, 0, 0, 0], 0, OVER)


def test_grand_slam_illegal():
    # The grand slam is not a legal move; the others (sowing on player_0's own row) are.
    game = Family(grand_slam="illegal")
    state = position(game, *SLAM)
    assert legal(game, state) == [0, 1, 2, 3, 4]
    with pytest.raises(IllegalMoveError, match="player_0's hole 5 would leave the opponent's row empty"):
        game.apply(state, 5)
    assert seen(game, state) == After(*SLAM, 0)  # refused: nothing moved


def test_grand_slam_illegal_unless_the_row_was_empty():
    # p0 [1 1 1 1 1 2] 0 | p1 empty, no must_share: no move can take the whole row, all are legal.
    game = Family(grand_slam="illegal", must_share=False)
    state = position(game, [1, 1, 1, 1, 1, 2], 0, [0, 0, 0, 0, 0, 0], 0)
    assert legal(game, state) == [0, 1, 2, 3, 4, 5]


def test_grand_slam_no_capture():
    # The move sows and takes nothing: -> p0 [1 1 1 1 1 0] 0 | p1 [2 2 0 0 0 0] 0.
    game = Family(grand_slam="no_capture")
    state = position(game, *SLAM)
    assert legal(game, state) == [0, 1, 2, 3, 4, 5]
    assert play(game, state, 5) == After([1, 1, 1, 1, 1, 0], 0, [2, 2, 0, 0, 0, 0], 0, 1)


# -- must share, must pass ----------------------------------------------------------------------
def test_must_share_keeps_the_moves_that_feed():
    # must_share, player_1's row empty. p0 [1 0 0 0 0 1] 5 | p1 [0 0 0 0 0 0] 5: hole 0 sows into
    # hole 1 (his row stays empty), hole 5 into his hole 0: only hole 5 is legal.
    game = Family(capture_min=0, must_share=True)
    state = position(game, [1, 0, 0, 0, 0, 1], 5, [0, 0, 0, 0, 0, 0], 5)
    assert legal(game, state) == [5]
    with pytest.raises(IllegalMoveError, match="player_0's hole 0 would leave the opponent's row empty"):
        game.apply(state, 0)
    assert play(game, state, 5) == After([1, 0, 0, 0, 0, 0], 5, [1, 0, 0, 0, 0, 0], 5, 1)


@pytest.mark.parametrize("must_pass, expected", [
    # no move of player_0's feeds player_1: the game ends, each row to its owner
    (False, After([0, 0, 0, 0, 0, 0], 5 + 3, [0, 0, 0, 0, 0, 0], 5, OVER)),
    # with must_pass any move will do: player_0 is to move
    (True, After([2, 1, 0, 0, 0, 0], 5, [0, 0, 0, 0, 0, 0], 5, 0)),
])
def test_must_share_with_no_move_that_feeds(must_pass, expected):
    # must_share, no capture. p0 [1 1 0 0 0 0] 5 | p1 [0 0 0 0 0 1] 5, player_1 to move: his hole 5
    # sows its one seed past his store into player_0's hole 0: p0 [2 1 0 0 0 0] | p1 empty. Neither
    # of player_0's holes reaches player_1's row (hole 0 -> 1, 2; hole 1 -> 2).
    game = Family(capture_min=0, must_share=True, must_pass=must_pass)
    state = position(game, [1, 1, 0, 0, 0, 0], 5, [0, 0, 0, 0, 0, 1], 5, to_move=1)
    assert play(game, state, 5) == expected
    position_after = position(game, [2, 1, 0, 0, 0, 0], 5, [0, 0, 0, 0, 0, 0], 5)
    assert legal(game, position_after) == ([0, 1] if must_pass else [])


@pytest.mark.parametrize("must_pass, expected", [
    (True, After([0, 0, 0, 0, 0, 3], 5, [0, 0, 0, 0, 0, 0], 5, 0)),         # player_1 passes
    (False, After([0, 0, 0, 0, 0, 0], 5 + 3, [0, 0, 0, 0, 0, 0], 5, OVER)),  # the game ends
])
def test_must_pass(must_pass, expected):
    # No capture, no must_share. p0 [0 0 0 0 1 2] 5 | p1 [0 0 0 0 0 0] 5; player_0 plays hole 4:
    # -> p0 [0 0 0 0 0 3]; player_1 has no move. With must_pass he passes and player_0 moves
    # again; without it the game ends (player_0's 3 seeds to player_0).
    game = Family(capture_min=0, must_share=False, must_pass=must_pass)
    state = position(game, [0, 0, 0, 0, 1, 2], 5, [0, 0, 0, 0, 0, 0], 5)
    assert play(game, state, 4) == expected


@pytest.mark.parametrize("no_capture_turns, expected, then_legal", [
    (0, After([0, 0, 0], 5, [0, 0, 0], 1, OVER), None),  # captures on: hole 0 is a grand slam, illegal
    # the pass is the turn that lifts the ban: the same grand slam, the game over (it was once left
    # on, player_0 to move with no legal move)
    (2, After([0, 0, 0], 5, [0, 0, 0], 1, OVER), None),
    (5, After([4, 0, 0], 1, [1, 0, 0], 0, 0), [0]),  # still banned: hole 0 captures nothing, legal
])
def test_a_pass_is_a_turn_and_what_follows_is_tried_after_it(no_capture_turns, expected, then_legal):
    # must_pass, min_seeds 2, grand slams illegal, captures banned in the first no_capture_turns
    # turns. p0 [4 0 2] 0 | p1 [0 0 0] 0, player_0 plays hole 2 (turn 1): its 2 seeds go to his
    # store and player_1's hole 0 -> p0 [4 0 0] 1 | p1 [1 0 0] 0. Player_1 cannot move (min_seeds):
    # he passes, turn 2. Player_0's hole 0 then sows 1, 2, the store and player_1's hole 0, which
    # makes 2: captured where captures are on, and it empties player_1's row.
    game = Family(holes=3, seeds=2, sow_store=True, min_seeds=2, must_share=False, must_pass=True,
                  grand_slam="illegal", no_capture_turns=no_capture_turns)
    state = position(game, [4, 0, 2], 0, [0, 0, 0], 0)
    assert play(game, state, 2) == expected
    if then_legal is not None:
        assert legal(game, state) == then_legal


@pytest.mark.parametrize("unfed_takes, expected", [
    (True, After([0, 0, 0, 0, 0, 0], 5, [0, 0, 0, 0, 0, 0], 5 + 3, OVER)),   # to player_1, unfed
    (False, After([0, 0, 0, 0, 0, 0], 5 + 3, [0, 0, 0, 0, 0, 0], 5, OVER)),  # each row to its owner
])
def test_unfed_takes(unfed_takes, expected):
    # unfed_takes (MancalaGames' UNFED_PLAYER): when the game ends because a player cannot feed an
    # opponent who has no seeds, the unfed player takes the seeds left. As in
    # test_must_share_with_no_move_that_feeds: p0 [1 1 0 0 0 0] 5 | p1 [0 0 0 0 0 1] 5, player_1
    # sows his last seed into player_0's hole 0; neither of player_0's holes reaches player_1's
    # row: the game ends with 3 seeds on player_0's row.
    game = Family(capture_min=0, must_share=True, unfed_takes=unfed_takes)
    state = position(game, [1, 1, 0, 0, 0, 0], 5, [0, 0, 0, 0, 0, 1], 5, to_move=1)
    assert play(game, state, 5) == expected


@pytest.mark.parametrize("unfed_takes, expected", [
    (True, After([0, 0, 0, 0, 0, 0], 2, [0, 0, 0, 0, 0, 0], 1, OVER)),
    (False, After([0, 0, 0, 0, 0, 0], 2 + 1, [0, 0, 0, 0, 0, 0], 0, OVER)),
])
def test_unfed_takes_after_an_extra_turn(unfed_takes, expected):
    # The same end in the mover's extra turn. capture_extra_turn, must_share.
    # p0 [1 0 0 0 0 1] 0 | p1 [1 0 0 0 0 0] 0; player_0's hole 5 makes his hole 0 a 2: taken, and
    # player_0 moves again, now bound to feed player_1, whose row is empty; his only hole with
    # seeds, hole 0, sows into hole 1, which does not feed player_1: the game ends. The seed left
    # goes to player_1, the unfed player, with unfed_takes.
    game = Family(capture_extra_turn=True, must_share=True, unfed_takes=unfed_takes)
    state = position(game, [1, 0, 0, 0, 0, 1], 0, [1, 0, 0, 0, 0, 0], 0)
    assert play(game, state, 5) == expected


# -- the end ------------------------------------------------------------------------------------
@pytest.mark.parametrize("win_short, expected_to_move", [
    (0, OVER),   # 14 > 12, half of the 24 seeds
    (5, 1),      # 14 is not more than 24 - 5 = 19: the game goes on
    (11, OVER),  # 14 > 24 - 11 = 13
])
def test_win_outright_leaves_the_board(win_short, expected_to_move):
    # Wari's captures, 2 seeds a hole (24 in all, every one of them on this board).
    # p0 [0 0 0 0 0 1] 12 | p1 [1 1 1 1 1 1] 5; player_0 plays hole 5: his hole 0 becomes 2, taken:
    # player_0's store 14. The board is left as it is when the game is won outright:
    # p0 [0 0 0 0 0 0] 14 | p1 [0 1 1 1 1 1] 5. (Where it goes on, player_1 must feed player_0,
    # which his hole 5 does.)
    game = Family(seeds=2, win_short=win_short)
    state = position(game, [0, 0, 0, 0, 0, 1], 12, [1, 1, 1, 1, 1, 1], 5)
    assert play(game, state, 5) == After([0, 0, 0, 0, 0, 0], 14, [0, 1, 1, 1, 1, 1], 5, expected_to_move)


@pytest.mark.parametrize("end_seeds_left, expected", [
    (8, After([0, 0, 0, 0, 0, 0], 5 + 2, [0, 0, 0, 0, 0, 0], 5 + 6, OVER)),  # 8 left: the end
    (7, After([0, 0, 0, 0, 0, 2], 5, [1, 1, 1, 1, 1, 1], 5, 1)),             # 8 > 7: goes on
])
def test_end_seeds_left(end_seeds_left, expected):
    # No capture. p0 [0 0 0 0 1 1] 5 | p1 [1 1 1 1 1 1] 5; player_0 plays hole 4 -> hole 5:
    # 8 seeds on the board.
    game = Family(capture_min=0, end_seeds_left=end_seeds_left)
    state = position(game, [0, 0, 0, 0, 1, 1], 5, [1, 1, 1, 1, 1, 1], 5)
    assert play(game, state, 4) == expected


@pytest.mark.parametrize("end_cleared, expected", [
    ("own", After([0, 0, 0, 0, 0, 0], 3, [0, 0, 0, 0, 0, 0], 3 + 7, OVER)),
    ("opponent", After([0, 0, 0, 0, 0, 0], 3, [2, 1, 1, 1, 1, 1], 3, 1)),
    ("no", After([0, 0, 0, 0, 0, 0], 3, [2, 1, 1, 1, 1, 1], 3, 1)),
])
def test_end_cleared_own(end_cleared, expected):
    # No capture, no must_share. p0 [0 0 0 0 0 1] 3 | p1 [1 1 1 1 1 1] 3; player_0 plays hole 5
    # into his hole 0: player_0's own row is now empty. "own" ends the game (his 7 seeds to him).
    game = Family(capture_min=0, must_share=False, end_cleared=end_cleared)
    state = position(game, [0, 0, 0, 0, 0, 1], 3, [1, 1, 1, 1, 1, 1], 3)
    assert play(game, state, 5) == expected


@pytest.mark.parametrize("end_cleared, expected", [
    ("opponent", After([0, 0, 0, 0, 0, 0], 3 + 2, [0, 0, 0, 0, 0, 0], 3, OVER)),
    ("own", After([0, 0, 0, 0, 2, 0], 3, [0, 0, 0, 0, 0, 0], 3, 0)),
    ("no", After([0, 0, 0, 0, 2, 0], 3, [0, 0, 0, 0, 0, 0], 3, 0)),
])
def test_end_cleared_opponent(end_cleared, expected):
    # No capture, no must_share, must_pass (so an empty row alone does not end the game).
    # p0 [0 0 0 1 1 0] 3 | p1 [0 0 0 0 0 0] 3; player_0 plays hole 3 -> hole 4: player_1's row is
    # empty after the move. "opponent" ends the game; otherwise player_1 passes.
    game = Family(capture_min=0, must_share=False, must_pass=True, end_cleared=end_cleared)
    state = position(game, [0, 0, 0, 1, 1, 0], 3, [0, 0, 0, 0, 0, 0], 3)
    assert play(game, state, 3) == expected


@pytest.mark.parametrize("end_below, expected", [
    (4, After([0, 0, 0, 0, 0, 0], 10 + 2, [0, 0, 0, 0, 0, 0], 10 + 1, OVER)),  # 3 < 4: the end
    (3, After([0, 0, 0, 0, 0, 2], 10, [0, 0, 0, 0, 0, 1], 10, 1)),             # 3 is not < 3
])
def test_end_below(end_below, expected):
    # p0 [0 0 0 0 1 1] 10 | p1 [0 0 0 0 0 1] 10; player_0 plays hole 4 -> hole 5: 3 seeds left on
    # the board.
    game = Family(end_below=end_below)
    state = position(game, [0, 0, 0, 0, 1, 1], 10, [0, 0, 0, 0, 0, 1], 10)
    assert play(game, state, 4) == expected


@pytest.mark.parametrize("leftover, stores, expected_stores, out", [
    ("owner", (3, 2), (3, 2 + 7), 0),
    ("mover", (3, 2), (3 + 7, 2), 0),
    ("divided", (5, 1), (5 + 3, 1 + 3 + 1), 0),  # 3 each, the odd seed to player_1 (4 < 8)
    ("divided", (1, 5), (1 + 3 + 1, 5 + 3), 0),  # 3 each, the odd seed to player_0 (4 < 8)
    ("nobody", (3, 2), (3, 2), 7),
])
def test_leftover(leftover, stores, expected_stores, out):
    # end_cleared="own", no capture, no must_share. p0 [0 0 0 0 0 1] s0 | p1 [1 1 1 1 1 1] s1;
    # player_0 plays hole 5 into his hole 0 and empties his own row: the end, with 7 seeds left on
    # player_1's row [2 1 1 1 1 1].
    game = Family(capture_min=0, must_share=False, end_cleared="own", leftover=leftover)
    state = position(game, [0, 0, 0, 0, 0, 1], stores[0], [1, 1, 1, 1, 1, 1], stores[1])
    assert play(game, state, 5) == After([0] * 6, expected_stores[0], [0] * 6, expected_stores[1], OVER, out)


def test_leftover_to_the_mover_player_1():
    # As above with player_1 moving: p0 [1 1 1 1 1 1] 2 | p1 [0 0 0 0 0 1] 3; his hole 5 sows past
    # his store into player_0's hole 0 and empties his row: the 7 seeds left go to him, the mover.
    game = Family(capture_min=0, must_share=False, end_cleared="own", leftover="mover")
    state = position(game, [1, 1, 1, 1, 1, 1], 2, [0, 0, 0, 0, 0, 1], 3, to_move=1)
    assert play(game, state, 5) == After([0] * 6, 2, [0] * 6, 3 + 7, OVER)


@pytest.mark.parametrize("moves, expected", [
    (MOVE_LIMIT - 1, After([0] * 6, 6, [0] * 6, 6, OVER)),          # the 1000th move: the end
    (MOVE_LIMIT - 2, After([0, 2, 1, 1, 1, 1], 0, [1] * 6, 0, 1)),  # the 999th: goes on
])
def test_move_limit(moves, expected):
    # Wari. p0 [1 1 1 1 1 1] 0 | p1 [1 1 1 1 1 1] 0 after `moves` moves; player_0 plays hole 0 ->
    # hole 1 (own row, nothing taken). After MOVE_LIMIT (1000) moves the game ends as when no move
    # is left: each row to its owner.
    assert MOVE_LIMIT == 1000
    game = Family()
    state = position(game, [1] * 6, 0, [1] * 6, 0, moves=moves)
    assert play(game, state, 0) == expected
    assert int(state[game.board_size + MOVES_PLAYED]) == moves + 1


# -- refusals -----------------------------------------------------------------------------------
def test_min_seeds_above_the_seeds_is_refused():
    # no hole can be played at the start: refused, naming min_seeds
    with pytest.raises(BadInput, match=re.escape("min_seeds=5")):
        Family(seeds=4, min_seeds=5)
    assert Family(seeds=4, min_seeds=4).params["min_seeds"] == 4


@pytest.mark.parametrize("rules, named", [
    ({"direction": "up"}, "direction"),
    ({"laps": "double"}, "laps"),
    ({"capture_parity": "prime"}, "capture_parity"),
    ({"leftover": "winner"}, "leftover"),
    ({"capture_min": -1}, "capture_min"),
    ({"end_seeds_left": -2}, "end_seeds_left"),
    ({"holes": 1}, "holes"),
    ({"seeds": 0}, "seeds"),
    ({"sow_store": "yes"}, "sow_store"),
    ({"sow_stores": True}, "sow_stores"),  # not a parameter of ours
])
def test_bad_values_are_refused(rules, named):
    with pytest.raises(BadInput, match=re.escape(named)):
        Family(**rules)


def test_illegal_reason_names_min_seeds():
    # min_seeds=2: player_0's hole 0 holds 1 seed, too few; his empty hole 1 says it is empty.
    game = Family(min_seeds=2, must_share=False)
    state = position(game, [1, 0, 2, 2, 2, 2], 0, [2, 2, 2, 2, 2, 2], 0)
    assert legal(game, state) == [2, 3, 4, 5]
    assert game.illegal_reason(state, 0) == "player_0's hole 0 holds 1 seeds, fewer than the 2 a move needs"
    with pytest.raises(IllegalMoveError, match="fewer than the 2 a move needs"):
        game.apply(state, 0)
    assert "empty" in game.illegal_reason(state, 1)


# -- the importer -------------------------------------------------------------------------------
def refuse(option, why=""):
    raise BadInput(f"{option} refused: {why}")


def counts(total, capt_on=(), evens=False, capt_min=0, capt_max=0):
    info = {"capt_on": list(capt_on), "evens": evens, "capt_min": capt_min, "capt_max": capt_max}
    found = capture_counts(info, total, refuse)
    return found["capture_min"], found["capture_max"], found["capture_parity"]


@pytest.mark.parametrize("given, expected", [
    ({}, (0, 0, "any")),                              # no capture by count
    ({"capt_on": [2, 3]}, (2, 3, "any")),
    ({"capt_on": [2, 4, 6]}, (2, 6, "even")),
    ({"evens": True}, (2, 0, "even")),                # every even count up to the 48: no bound
    ({"capt_on": [1, 3, 5]}, (1, 5, "odd")),
    ({"capt_on": [4]}, (4, 4, "any")),
    ({"capt_min": 4}, (4, 0, "any")),
    ({"capt_min": 2, "capt_max": 3}, (2, 3, "any")),
    ({"evens": True, "capt_max": 6}, (2, 6, "even")),
])
def test_capture_counts(given, expected):
    assert counts(48, **given) == expected


def test_capture_counts_refuses_what_is_not_a_range():
    with pytest.raises(BadInput, match="capt_on"):
        counts(48, capt_on=[2, 5])
    with pytest.raises(BadInput, match=r"asks for capturing counts that are not a run of one parity, which is not played here \(capt_on=\[2, 5\]\)"):
        family_params({"game_info": {"capt_on": [2, 5]}}, "Game.txt")


@pytest.mark.parametrize("given, expected", [
    ({"capt_on": [2, 3]}, 2),                           # fewer than 2 seeds: no capture can come
    ({"capt_on": [2, 3], "mustshare": True}, 0),        # must-share ends such games itself
    ({"capt_on": [2, 3], "mustshare": True, "mustpass": True}, 2),
    ({"capt_on": [4]}, 4),
    ({"crosscapt": 1}, 2),
    ({}, 0),                                            # no capture by count: never
    ({"capt_on": [2, 3], "sow_stores": 1}, 0),
])
def test_no_change_below(given, expected):
    assert no_change_below({**DEFAULTS, **given}, 48) == expected


HEAD = {"game_class": "Mancala", "game_constants": {"holes": 6, "nbr_start": 4},
        "game_info": {"capt_on": [2, 3], "multicapt": -1, "mustshare": True, "capt_side": 1,
                      "skip_start": True, "sow_direct": 1, "stores": True}}
TEXT = "<text_section>\n<about>x</about>\n</text_section>\n"


def game_file(tmp_path, head, name="Game.txt"):
    path = tmp_path / name
    path.write_text(json.dumps(head, indent=3) + "\n" + TEXT, encoding="utf-8")
    return path


def test_load_mancalagames(tmp_path):
    game = load_mancalagames(game_file(tmp_path, HEAD, "Wari_like.txt"))
    assert isinstance(game, Family)
    assert game.title == "Wari_like"
    # every parameter the file sets; the rest (rules it does not mention) keep the family's defaults
    assert game.params == {**Family().params, **{
        "holes": 6, "seeds": 4, "direction": "ccw", "sow_store": False, "laps": "single", "skip_origin": True,
        "leave_one": False, "min_seeds": 1, "capture_min": 2, "capture_max": 3, "capture_parity": "any",
        "capture_side": "opponent", "cross_capture": False, "take_own": "leave", "captures": 0,
        "chain": "backward", "no_single_capture": False, "grand_slam": "legal", "capture_extra_turn": False,
        "must_share": True, "must_pass": False, "end_seeds_left": -1, "end_cleared": "no", "win_short": 0,
        "end_below": 0, "leftover": "owner", "endless_leftover": "divided"}}


def test_load_mancalagames_maps_the_options(tmp_path):
    info = {**HEAD["game_info"], "name": "Some Game", "sow_direct": -1, "sow_stores": 1, "mlaps": 1,
            "crosscapt": 1, "xcpickown": 1, "multicapt": 0, "capt_on": [], "mustshare": False,
            "mustpass": True, "grandslam": 1, "unclaimed": 2, "quitter": 0, "min_move": 2, "sow_start": True}
    game = load_mancalagames(game_file(tmp_path, {**HEAD, "game_info": info}))
    assert game.title == "Some Game"
    changed = {key: value for key, value in game.params.items() if value != Family().params[key]}
    assert changed == {"direction": "cw", "sow_store": True, "laps": "relay", "cross_capture": True,
                       "take_own": "on_capture", "captures": 1, "capture_min": 0, "capture_max": 0,
                       "must_share": False, "must_pass": True, "grand_slam": "illegal", "leftover": "mover",
                       "endless_leftover": "owner", "min_seeds": 2, "leave_one": True}


@pytest.mark.parametrize("change, message", [
    ({"game_info": {**HEAD["game_info"], "flavour": 1}}, "unknown option 'flavour'"),
    ({"game_class": "NoSides"}, "asks for moves from any hole, whoever's side it is on, which is not played here (game_class 'NoSides')"),
    ({"game_info": {**HEAD["game_info"], "sow_rule": 6}}, "asks for another sowing rule, which is not played here (sow_rule=6)"),
    ({"game_info": {**HEAD["game_info"], "sow_rule": 1}}, "asks for holes closed for good without the count that closes them, which is not played here (sow_rule=1)"),
    ({"game_info": {**HEAD["game_info"], "goal": 12}}, "asks for another way of winning, which is not played here (goal=12)"),
    ({"game_info": {**HEAD["game_info"], "prescribed": 3}}, "asks for a prescribed opening, which is not played here (prescribed=3)"),
    ({"game_info": {**HEAD["game_info"], "udir_holes": [1]}}, "asks for a chosen way of sowing for some holes only, which is not played here (udir_holes=[1])"),
])
def test_load_mancalagames_refuses_naming_the_option(tmp_path, change, message):
    with pytest.raises(BadInput, match=re.escape(message)):
        load_mancalagames(game_file(tmp_path, {**HEAD, **change}))


def test_load_mancalagames_refuses_a_file_that_is_not_a_game(tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("<text_section>\n<about>no JSON head</about>\n</text_section>\n", encoding="utf-8")
    with pytest.raises(BadInput, match=re.escape("notes.txt is not a MancalaGames game file: its head is not JSON")):
        load_mancalagames(text)
    no_info = game_file(tmp_path, {"game_class": "Mancala"}, "NoInfo.txt")
    with pytest.raises(BadInput, match="no game_info object"):
        load_mancalagames(no_info)
    with pytest.raises(BadInput, match="cannot read the MancalaGames file .*Missing.txt"):
        load_mancalagames(tmp_path / "Missing.txt")
