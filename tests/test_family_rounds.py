"""Whole matches of rounds (issue 59 §1: ``rounds="match"``, family_rounds), on exact boards worked
by hand, then over random matches and through the environments.

The boards have 3 holes a side and 2 seeds a hole (12 in all): player_0's holes are cells 0, 1, 2,
its store cell 3, player_1's holes cells 4, 5, 6, its store cell 7; counter-clockwise sowing goes
0 -> 2, (store 3), 4 -> 6, (store 7), 0 ... Without captures and without the duty to feed, a round
ends when the player to move has no move, each player then taking the seeds on its own row.
"""

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from mancala_marl import make_env
from mancala_marl.errors import IllegalMoveError
from mancala_marl.games import make_game
from mancala_marl.games.family import Family, sample_rules
from mancala_marl.games.family_space import MOVES_PLAYED, MOVE_LIMIT, TALLY as TALLY_SLOT, match_slot
from mancala_marl.games.mancalagames import family_params

from .test_family import After, OVER, play, position

MATCH = dict(holes=3, seeds=2, capture_min=0, must_share=False, early_win=False, rounds="match",
             closed_holes=True, round_fill="left")


def closed(game, state):
    return game.closed_cells(state)


# -- a round's end and the next round's board ----------------------------------------------------
def end_of_round_one(**rules):
    """p0 [1 0 0] 6 | p1 [0 0 0] 5, player_0 to move: its hole 0 sows into hole 1, and player_1,
    without a seed, cannot move. The round ends, player_0 taking its 1: 7 against 5, player_0 wins
    the round, its last mover."""
    game = Family(**{**MATCH, **rules})
    state = position(game, [1, 0, 0], 6, [0, 0, 0], 5)
    return game, state, play(game, state, 0)


def test_a_round_won_refills_each_row_from_the_seeds_held_and_closes_the_holes_left_unfilled():
    # held 7 and 5, 2 a hole: player_0 fills its 3 holes (6, 1 left in store), player_1 two (4, 1
    # left); left fill: player_1's holes 0 and 1, its hole 2 (cell 6) closed. The players take
    # turns to start (round_starter="alternate"): player_1 starts round 2.
    game, state, after = end_of_round_one()
    assert after == After([2, 2, 2], 1, [2, 2, 0], 1, 1)
    assert closed(game, state) == [6]
    assert game.round_of(state) == 2
    assert game.last_round(state) == {"round": 1, "winner": 0, "seeds": [7, 5]}


@pytest.mark.parametrize("fill, p1, closed_cell", [("left", [2, 2, 0], 6), ("right", [0, 2, 2], 4),
                                                   ("outside", [2, 0, 2], 5)])
def test_the_fill_order_says_which_holes_are_filled_first(fill, p1, closed_cell):
    # player_1 fills two of its three holes: from its left (0, 1), its right (2, 1), or from both
    # ends inwards, beginning at the end on player_0's left (its hole 2, then 0)
    game, state, after = end_of_round_one(round_fill=fill)
    assert after.p1 == p1 and closed(game, state) == [closed_cell]


def test_without_closed_holes_the_holes_left_unfilled_are_open_and_empty():
    game, state, after = end_of_round_one(closed_holes=False)
    assert after == After([2, 2, 2], 1, [2, 2, 0], 1, 1) and closed(game, state) == []
    # player_1's hole 1 sows into its empty hole 2, then past its store into player_0's hole 0
    assert play(game, state, 1) == After([3, 2, 2], 1, [2, 0, 1], 1, 0)


def test_a_closed_hole_is_passed_over_by_the_sowing_and_cannot_be_played():
    # round 2, player_1 to move: its hole 1 (2 seeds) passes its closed hole 2 and its store,
    # sowing player_0's holes 0 and 1
    game, state, _ = end_of_round_one()
    with pytest.raises(IllegalMoveError, match="closed for this round"):
        game.apply(game.copy(state), 2)
    assert play(game, state, 1) == After([3, 3, 2], 1, [2, 0, 0], 1, 0)


@pytest.mark.parametrize("starter, first", [("alternate", 1), ("loser", 1), ("winner", 0), ("last_mover", 0)])
def test_who_starts_the_next_round(starter, first):
    _, _, after = end_of_round_one(round_starter=starter)
    assert after.to_move == first


@pytest.mark.parametrize("starter, first", [("alternate", 1), ("loser", 0), ("winner", 1), ("last_mover", 0)])
def test_who_starts_after_a_drawn_round(starter, first):
    # p0 [1 0 0] 5 | p1 [0 0 0] 6: the same move ends the round 6 to 6. The player who would have
    # moved next is player_1: the winner's rule gives it the start, the loser's the other player.
    game = Family(**{**MATCH, "round_starter": starter})
    state = position(game, [1, 0, 0], 5, [0, 0, 0], 6)
    after = play(game, state, 0)
    assert game.last_round(state) == {"round": 1, "winner": None, "seeds": [6, 6]}
    assert after == After([2, 2, 2], 0, [2, 2, 2], 0, first)


def test_the_match_ends_when_a_player_cannot_fill_match_holes_holes():
    # held 7 and 5: player_1 can fill 2 holes, not 3 (match_holes=3): the match is over, won as its
    # last round was, by the stores (the board swept as the round ended)
    game, state, after = end_of_round_one(match_holes=3)
    assert after == After([0, 0, 0], 7, [0, 0, 0], 5, OVER)
    assert game.returns(state).tolist() == [1.0, -1.0]
    assert game.last_round(state) == {"round": 1, "winner": 0, "seeds": [7, 5]}


def test_a_round_won_outright_leaves_the_row_seeds_to_their_owner_for_the_refill():
    # early_win with win_short=4: more than 8 of the 12 in store wins the round at once, the board
    # as it lies. p0 [0 0 2] 8 | p1 [1 0 1] 0: player_0's hole 2 sows its store (9) and player_1's
    # hole 0 (2): won at once, player_1's 3 left on its row.
    game = Family(**{**MATCH, "early_win": True, "win_short": 4, "sow_store": True})
    state = position(game, [0, 0, 2], 8, [1, 0, 1], 0)
    # held: 9 and 0 + 3, its row's: player_1 fills one hole and keeps 1, its holes 1, 2 closed
    assert play(game, state, 2) == After([2, 2, 2], 3, [2, 0, 0], 1, 1)
    assert game.last_round(state) == {"round": 1, "winner": 0, "seeds": [9, 3]}
    assert closed(game, state) == [5, 6]


# -- a match won by a tally of rounds ----------------------------------------------------------------
TALLY = dict(holes=3, seeds=2, capture_min=0, must_share=False, early_win=False, rounds="match")


def tallied(game, state, tally, moves=0):
    """``state`` with the players' tallies (round wins or points) and the moves played so far."""
    base = int(match_slot(game.spec))
    state[base + TALLY_SLOT:base + TALLY_SLOT + 2] = tally
    state[game.board_size + MOVES_PLAYED] = moves
    return state


def tally_of(game, state):
    base = int(match_slot(game.spec))
    return state[base + TALLY_SLOT:base + TALLY_SLOT + 2].tolist()


def test_a_round_won_counts_and_the_next_round_starts_afresh():
    # the round of end_of_round_one, won by player_0 7 to 5: a round win; the board as at the start
    game = Family(**TALLY, match_end="round_wins", match_target=2)
    state = position(game, [1, 0, 0], 6, [0, 0, 0], 5)
    assert play(game, state, 0) == After([2, 2, 2], 0, [2, 2, 2], 0, 1)
    assert tally_of(game, state) == [1, 0] and game.round_of(state) == 2


def test_the_first_to_the_target_wins_the_match():
    game = Family(**TALLY, match_end="round_wins", match_target=2)
    state = tallied(game, position(game, [1, 0, 0], 6, [0, 0, 0], 5), [1, 1])
    assert play(game, state, 0).to_move == OVER and tally_of(game, state) == [2, 1]
    assert game.returns(state).tolist() == [1.0, -1.0]


def test_points_give_one_more_for_three_quarters_of_the_seeds():
    # player_1 wins the round 3 to 9: 9 is three quarters of the 12 seeds, two points; 2 + 2 reaches 4
    game = Family(**TALLY, match_end="points", match_target=4)
    state = tallied(game, position(game, [1, 0, 0], 2, [0, 0, 0], 9), [3, 2])
    assert play(game, state, 0).to_move == OVER and tally_of(game, state) == [3, 4]
    assert game.returns(state).tolist() == [-1.0, 1.0]


def test_at_the_move_limit_the_higher_tally_wins_whatever_the_last_round():
    # the 1000th move ends a round that player_1 wins 5 to 7; player_0 still leads 2 to 1
    game = Family(**TALLY, match_end="round_wins", match_target=5)
    state = tallied(game, position(game, [1, 0, 0], 4, [0, 0, 0], 7), [2, 0], moves=MOVE_LIMIT - 1)
    assert play(game, state, 0) == After([0, 0, 0], 5, [0, 0, 0], 7, OVER)
    assert tally_of(game, state) == [2, 1] and game.returns(state).tolist() == [1.0, -1.0]


# -- every match ends; seeds are conserved across rounds -----------------------------------------
def test_random_matches_keep_their_seeds_end_within_the_bound_and_always_offer_a_move():
    rng = np.random.default_rng(5)
    rounds_seen = 0
    for k in range(30):
        # refilled (the rules a refilled match takes, asked for: few drawn sets have them all), or started afresh
        kind = {"match_end": ("unfilled",), "move_rule": ("any",), "children": ("none",), "goal": ("most_seeds",)} \
            if k % 2 else {"match_end": ("round_wins", "points")}
        game = Family(**sample_rules(rng, choices={"rounds": ("match",), **kind}, holes=(3, 6)))
        state = game.init(rng)
        total = int(state[:game.board_size].sum())
        while not game.is_terminal(state):
            mask = game.legal_mask(state)
            assert mask.any(), (game, state)
            for cell in game.closed_cells(state):
                assert state[cell] == 0  # a closed hole is never sown
            game.apply(state, int(rng.choice(np.flatnonzero(mask))))
            assert (state[:game.board_size] >= 0).all()
            assert int(state[:game.board_size].sum()) + game.out_of_play(state) == total
        assert int(state[game.board_size + 2]) <= MOVE_LIMIT  # MOVES_PLAYED: the match's
        rounds_seen += game.round_of(state)
    assert rounds_seen > 50  # matches of several rounds were played, not only first rounds


# -- the importer and the named games -----------------------------------------------------------
def test_mancalagames_rounds_of_most_seeds_refilled_from_the_ends_are_matches():
    info = {"rounds": 2, "round_fill": 2, "round_starter": 3, "blocks": True, "goal_param": 4, "mustpass": True,
            "sow_stores": 1, "mlaps": 1, "crosscapt": 1, "xcpickown": 1, "stores": True}
    params = family_params({"game_constants": {"holes": 7, "nbr_start": 7}, "game_info": info})
    assert {key: params[key] for key in ("rounds", "round_fill", "closed_holes", "round_starter", "match_holes")} \
        == {"rounds": "match", "round_fill": "right", "closed_holes": True, "round_starter": "last_mover",
            "match_holes": 4}
    even = family_params({"game_constants": {"holes": 7, "nbr_start": 7}, "game_info": {**info, "round_fill": 4}})
    assert even.get("rounds", "one") == "one"  # refilled evenly: its first round
    # Urim's tally of points, each round started afresh
    points = family_params({"game_constants": {"holes": 6, "nbr_start": 4},
                            "game_info": {"rounds": 2, "goal": 7, "goal_param": 10, "stores": True}})
    assert (points["rounds"], points["match_end"], points["match_target"]) == ("match", "points", 10)


def test_dakon_is_a_match_by_default_and_its_first_round_by_choice():
    assert make_game("dakon").params["rounds"] == "match"
    first = make_game("dakon", rounds="one")  # its round rules go with its rounds
    assert first.params == {**make_game("dakon").params, "rounds": "one", "round_fill": "outside",
                            "closed_holes": False, "round_starter": "alternate", "match_holes": 1}


# -- the environment plays the whole match ------------------------------------------------------
def test_the_environment_plays_a_match_reports_its_rounds_and_rewards_at_its_end():
    env = make_env("dakon")
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    rewards, rounds, last = [], set(), None
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        rewards.append(reward)
        rounds.add(info["round"])
        last = info
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    raw = env.unwrapped
    assert len(rounds) > 1 and max(rounds) == raw.game.round_of(raw.state())
    assert [result["round"] for result in raw.round_results] == list(range(1, len(raw.round_results) + 1))
    assert last["rounds_won"].sum() == sum(result["winner"] is not None for result in raw.round_results)
    assert any(rewards[-2:]) and not any(rewards[:-2])  # rewards only as the match ends


def test_pettingzoo_api_and_seed_tests_pass_on_a_match():
    api_test(make_env("dakon"), num_cycles=300)
    seed_test(lambda **kwargs: make_env("dakon", **kwargs), num_cycles=300)


def test_the_gymnasium_view_plays_whole_matches():
    import gymnasium

    import mancala_marl  # noqa: F401  (registers the ids)

    env = gymnasium.make("mancala_marl/Dakon-v0")
    rounds = []
    for seed in range(3):
        obs, info = env.reset(seed=seed)
        rewards, done = [], False
        rng = np.random.default_rng(seed)
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, reward, terminated, truncated, info = env.step(action)
            rewards.append(reward)
            done = terminated or truncated
        if terminated:
            assert info["result"] == rewards[-1] and not any(rewards[:-1])
        rounds.append(info["round"])
    assert max(rounds) > 1


def test_the_arena_plays_whole_matches():
    from mancala_marl.matches.arena import match_records

    def mean_length(game):
        return np.mean([record["length"] for record in match_records(game, "random", "random", 4)])

    assert mean_length(make_game("dakon")) > 2 * mean_length(make_game("dakon", rounds="one"))
