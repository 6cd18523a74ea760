"""The family's goals other than the most seeds (``goal``: deprive, clear, immobilize), its sow_max,
and the importer's mapping of MancalaGames' goals, on exact boards worked by hand.

Most boards have 3 holes a side: player_0's holes are cells 0, 1, 2, its store cell 3, player_1's
holes cells 4, 5, 6, its store cell 7; counter-clockwise sowing goes 0 -> 2, (store 3), 4 -> 6,
(store 7), 0 ...; the hole across from cell c is 6 - c. Each board gives the store of the player
who loses the goal more seeds, so that a most-seeds reading of the end would name the other winner.
"""

import re

import numpy as np
import pytest

from mancala_marl.errors import BadInput
from mancala_marl.games.family import Family
from mancala_marl.games.family_space import MOVE_LIMIT
from mancala_marl.games.mancalagames import DEFAULTS, family_params

from .test_family import After, OVER, play, position

# No duty to feed (no goal but the most seeds has one) and no capture unless a test asks for one
PLAIN = dict(holes=3, seeds=3, capture_min=0, must_share=False)
CROSS = dict(cross_capture=True, captures=1)  # a last seed in an empty hole takes the hole across


def result(game, state):
    return game.returns(state).tolist()


# -- deprive ------------------------------------------------------------------------------------
def test_deprive_the_mover_wins_by_emptying_the_opponents_row():
    # p0 [0 1 0] 0 | p1 [3 0 0] 6; player_0 plays hole 1: its seed lands in the empty hole 2 and
    # takes the 3 across (cell 4), player_1's last. -> p0 [0 0 1] 3 | p1 [0 0 0] 6: player_0 has
    # deprived player_1 and wins with the fewer seeds in store; the seed left stays on the board.
    game = Family(goal="deprive", **PLAIN, **CROSS)
    state = position(game, [0, 1, 0], 0, [3, 0, 0], 6)
    assert play(game, state, 1) == After([0, 0, 1], 3, [0, 0, 0], 6, OVER)
    assert result(game, state) == [1, -1]


def test_deprive_the_mover_who_gives_away_its_last_seeds_loses():
    # p0 [0 0 1] 5 | p1 [1 1 1] 0; player_0 plays hole 2: its last seed goes to player_1's hole 0.
    # -> p0 [0 0 0] 5 | p1 [2 1 1] 0: player_0 has no seeds left, player_1 wins.
    game = Family(goal="deprive", **PLAIN)
    state = position(game, [0, 0, 1], 5, [1, 1, 1], 0)
    assert play(game, state, 2) == After([0, 0, 0], 5, [2, 1, 1], 0, OVER)
    assert result(game, state) == [-1, 1]


@pytest.mark.parametrize("p0_before, hole, p0_after, s0, to_move, returns", [
    # p0 [2 0 0] 0 | p1 [1 0 1] 5; hole 0 sows holes 1 and 2 -> p0 [0 1 1]: player_1, to move,
    # holds no hole of min_seeds=2, has no move, and loses
    ([2, 0, 0], 0, [0, 1, 1], 0, 1, [1, -1]),
    # p0 [1 2 0] 0 | p1 [1 0 1] 5 with sow_store: hole 1 sows hole 2 and the store, another turn
    # -> p0 [1 0 1] 1: player_0, to move again, has no hole of 2 and loses
    ([1, 2, 0], 1, [1, 0, 1], 1, 0, [-1, 1]),
])
def test_deprive_a_player_to_move_without_a_move_loses(p0_before, hole, p0_after, s0, to_move, returns):
    game = Family(goal="deprive", min_seeds=2, sow_store=to_move == 0, **PLAIN)
    state = position(game, p0_before, 0, [1, 0, 1], 5)
    assert play(game, state, hole) == After(p0_after, s0, [1, 0, 1], 5, OVER)
    assert result(game, state) == returns


# -- clear --------------------------------------------------------------------------------------
def test_clear_the_mover_wins_by_emptying_its_own_row():
    # p0 [0 0 1] 0 | p1 [1 1 1] 6, sow_store: hole 2 sows player_0's store (another turn, but the
    # row is empty) -> p0 [0 0 0] 1 | p1 [1 1 1] 6: player_0 has cleared its row and wins.
    game = Family(goal="clear", sow_store=True, **PLAIN)
    state = position(game, [0, 0, 1], 0, [1, 1, 1], 6)
    assert play(game, state, 2) == After([0, 0, 0], 1, [1, 1, 1], 6, OVER)
    assert result(game, state) == [1, -1]


def test_clear_the_mover_who_empties_the_opponents_row_loses():
    # p0 [1 0 2] 0 | p1 [0 3 0] 0; hole 0's seed lands in the empty hole 1 and takes the 3 across
    # (cell 5), player_1's last. -> p0 [0 1 2] 3 | p1 [0 0 0] 0: player_1's row is clear, it wins.
    game = Family(goal="clear", **PLAIN, **CROSS)
    state = position(game, [1, 0, 2], 0, [0, 3, 0], 0)
    assert play(game, state, 0) == After([0, 1, 2], 3, [0, 0, 0], 0, OVER)
    assert result(game, state) == [-1, 1]


@pytest.mark.parametrize("goal", ["deprive", "clear"])
def test_both_rows_empty_the_mover_wins(goal):
    # p0 [0 0 1] 0 | p1 [0 0 0] 8, sow_store: hole 2 sows the store -> p0 [0 0 0] 1 | p1 [0 0 0] 8.
    # Deprive reads the opponent's row first, clear the mover's own: either way player_0 wins.
    game = Family(goal=goal, sow_store=True, **PLAIN)
    state = position(game, [0, 0, 1], 0, [0, 0, 0], 8)
    assert play(game, state, 2) == After([0, 0, 0], 1, [0, 0, 0], 8, OVER)
    assert result(game, state) == [1, -1]


# -- immobilize ---------------------------------------------------------------------------------
@pytest.mark.parametrize("goal, expected, returns", [
    # deprive: player_0's row is empty, player_1 wins
    ("deprive", After([0, 0, 0], 0, [3, 1, 0], 5, OVER), [-1, 1]),
    # immobilize: an empty row is no end while the player to move can move: player_1 moves
    ("immobilize", After([0, 0, 0], 0, [3, 1, 0], 5, 1), [0, 0]),
])
def test_immobilize_plays_on_past_an_empty_row(goal, expected, returns):
    # p0 [0 0 2] 0 | p1 [2 0 0] 5, min_seeds=2; hole 2 sows player_1's holes 0 and 1
    game = Family(goal=goal, min_seeds=2, **PLAIN)
    state = position(game, [0, 0, 2], 0, [2, 0, 0], 5)
    assert play(game, state, 2) == expected
    assert result(game, state) == returns


def test_immobilize_the_player_who_cannot_move_loses():
    # p0 [2 0 0] 0 | p1 [1 0 1] 5, min_seeds=2: hole 0 -> p0 [0 1 1]; player_1 cannot move, loses
    game = Family(goal="immobilize", min_seeds=2, **PLAIN)
    state = position(game, [2, 0, 0], 0, [1, 0, 1], 5)
    assert play(game, state, 0) == After([0, 1, 1], 0, [1, 0, 1], 5, OVER)
    assert result(game, state) == [1, -1]


# -- draws --------------------------------------------------------------------------------------
@pytest.mark.parametrize("goal", ["deprive", "clear", "immobilize"])
def test_an_endless_relay_is_a_draw_with_the_board_as_it_is(goal):
    # test_family's endless relay (2 holes a side): p0 [1 3] 2 | p1 [2 1] 0, hole 0; after 75
    # laps p0 [2 1] | p1 [0 4] with player_1's 4 seeds in hand, which leave play. A most-seeds game
    # shares out the 3 seeds on the board; these leave them where they lie, and draw.
    game = Family(goal=goal, holes=2, laps="relay", capture_min=0, must_share=False)
    state = position(game, [1, 3], 2, [2, 1], 0)
    assert play(game, state, 0) == After([2, 1], 2, [0, 0], 0, OVER, 4)
    assert result(game, state) == [0, 0]


@pytest.mark.parametrize("moves, to_move", [(MOVE_LIMIT - 1, OVER), (MOVE_LIMIT - 2, 1)])
def test_the_move_limit_is_a_draw(moves, to_move):
    # p0 [1 1 1] 0 | p1 [1 1 1] 0; hole 0 -> p0 [0 2 1]: nothing won; the 1000th move ends the game
    game = Family(goal="deprive", **PLAIN)
    state = position(game, [1, 1, 1], 0, [1, 1, 1], 0, moves=moves)
    assert play(game, state, 0) == After([0, 2, 1], 0, [1, 1, 1], 0, to_move)
    assert result(game, state) == [0, 0]


def test_a_random_game_of_each_goal_ends_with_a_result_the_stores_do_not_decide():
    rng = np.random.default_rng(1)
    for goal in ("deprive", "clear", "immobilize"):
        game = Family(goal=goal, holes=4, seeds=2, must_share=False, cross_capture=True, captures=1, capture_min=0)
        state = game.init()
        while not game.is_terminal(state):
            game.apply(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
        assert game.state_fault(state) is None
        assert result(game, state) in ([1, -1], [-1, 1], [0, 0])


# -- sow_max ------------------------------------------------------------------------------------
@pytest.mark.parametrize("sow_max, p1_after", [(0, [6, 1, 0]), (5, [5, 1, 1])])
def test_sow_max_passes_over_full_holes(sow_max, p1_after):
    # p0 [0 3 0] 0 | p1 [5 0 0] 0; hole 1 sows hole 2, then (store passed over) player_1's hole 0,
    # which already holds 5 = sow_max and is passed over too, then his holes 1 and 2.
    game = Family(sow_max=sow_max, **PLAIN)
    state = position(game, [0, 3, 0], 0, [5, 0, 0], 0)
    assert play(game, state, 1) == After([0, 0, 1], 0, p1_after, 0, 1)


# -- refusals -----------------------------------------------------------------------------------
@pytest.mark.parametrize("rules, message", [
    ({"goal": "deprive"}, "must_share=True is not played with goal='deprive'"),
    ({"goal": "immobilize", "must_share": False, "must_pass": True}, "must_pass=True is not played"),
    ({"goal": "clear", "must_share": False, "leftover": "mover"}, "leftover='mover' does nothing with goal='clear'"),
    ({"goal": "deprive", "must_share": False, "early_win": False}, "early_win=False does nothing with goal="),
    ({"goal": "immobilize", "must_share": False, "end_cleared": "own"}, "end_cleared='own' does nothing"),
    ({"goal": "clear", "must_share": False, "min_seeds": 2}, "goal='clear' needs every hole of seeds playable"),
    ({"goal": "clear", "must_share": False, "move_rule": "single_to_empty"}, "move_rule='single_to_empty'"),
    ({"goal": "winning", "must_share": False}, "goal"),
    ({"sow_max": 4, "move_rule": "opponent_or_empty"}, "sow_max=4 with move_rule='opponent_or_empty' is not played"),
    ({"sow_max": 9, "laps": "next"}, "sow_max=9 with laps='next' is not played"),
    ({"sow_max": 4}, "sow_max=4 is too small for 48 seeds"),  # 11 holes of 4 could all be full
])
def test_refused_beside_a_goal_or_sow_max(rules, message):
    with pytest.raises(BadInput, match=re.escape(message)):
        Family(**rules)


# -- the importer -------------------------------------------------------------------------------
def imported(**info):
    return family_params({"game_constants": {"holes": 6, "nbr_start": 4},
                          "game_info": {**DEFAULTS, "sow_direct": 1, "stores": True, **info}}, "Game.txt")


@pytest.mark.parametrize("goal, ours", [(0, "most_seeds"), (1, "deprive"), (2, "most_seeds"), (3, "clear"),
                                        (7, "most_seeds"), (8, "clear"), (9, "deprive"), (10, "immobilize"),
                                        (11, "immobilize")])
def test_the_importer_maps_the_goal(goal, ours):
    rounds = 2 if goal >= 4 else 0  # the tallies are games of rounds (NO_MOVES)
    goal_param = 3 if goal == 2 else 0  # a territory won by 3 holes' worth
    params = imported(goal=goal, rounds=rounds, goal_param=goal_param, unclaimed=2, capt_on=[2, 3])
    assert params["goal"] == ours
    if ours == "most_seeds":
        assert params["leftover"] == "mover"  # unclaimed=2: LAST_MOVER
    else:  # what only a most-seeds game reads stays at its default: the leftover, the rounds' win
        assert (params["leftover"], params["win_short"], params["end_below"]) == ("owner", 0, 0)
    Family(**params)


def test_the_importer_maps_max_sow_and_refuses_an_unknown_goal():
    assert imported(sow_rule=7, sow_param=17)["sow_max"] == 17
    assert imported()["sow_max"] == 0
    with pytest.raises(BadInput, match=re.escape("Game.txt asks for another way of winning, which is not played here (goal=12)")):
        imported(goal=12)
    closing = imported(goal=10, sow_rule=2, sow_param=3, blocks=True)  # SOW_BLKD_DIV_NR: not the rightmost
    assert (closing["close_at"], closing["close_rightmost"]) == (3, False)


def test_the_single_agent_view_rewards_the_goal_not_the_stores():
    from mancala_marl.single_agent import SingleAgentEnv

    # test_deprive_the_mover_wins_by_emptying_the_opponents_row: player_0 wins with fewer seeds in store
    game = Family(goal="deprive", **PLAIN, **CROSS)
    env = SingleAgentEnv(game, opponent="random", reward="result")
    env.reset(seed=0)
    env.set_state(position(game, [0, 1, 0], 0, [3, 0, 0], 6))
    _, reward, terminated, _, info = env.step(1)
    assert (reward, terminated, info["result"]) == (1.0, True, 1)
