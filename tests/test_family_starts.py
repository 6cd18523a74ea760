"""The family's starts (games/family_start.py): each pattern's board worked by hand, the winning
count from the start's seeds, the random start drawn from the environments' seed, the refusals,
and the importer's mapping of MancalaGames' start patterns.

Boards are written as in tests/test_family.py: ``p0 [holes 0..H-1] s0 | p1 [holes 0..H-1] s1``,
each row from its owner's left end; the hole across from player_0's hole h is player_1's hole
H-1-h.
"""

import functools
import json
import re
import sys
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from mancala_marl import batch, family_v0
from mancala_marl.errors import BadInput
from mancala_marl.games.family import Family
from mancala_marl.games.mancalagames import family_params, load_mancalagames
from mancala_marl.single_agent import SingleAgentEnv

from .test_family import After, OVER, play, position, seen


def rows(game, state=None):
    state = game.init() if state is None else state
    h = game.pits
    return state[:h].tolist(), state[h + 1:2 * h + 1].tolist()


# -- the patterns, by hand ----------------------------------------------------------------------
@pytest.mark.parametrize("start, holes, seeds, p0, p1, total", [
    ("equal", 3, 2, [2, 2, 2], [2, 2, 2], 12),
    # the last two holes of each row empty
    ("two_empty", 6, 4, [4, 4, 4, 4, 0, 0], [4, 4, 4, 4, 0, 0], 32),
    # threes of (empty, full, full) from the left; holes 6 and 7, a part of a three, empty
    ("triples", 8, 3, [0, 3, 3, 0, 3, 3, 0, 0], [0, 3, 3, 0, 3, 3, 0, 0], 24),
    # each row's last hole one more
    ("plus_one", 5, 4, [4, 4, 4, 4, 5], [4, 4, 4, 4, 5], 42),
    # Sadeqa: every other hole round the ring from player_0's hole 1; player_1's hole 3 a single
    # seed, player_0's hole 7 (H-3) emptied
    ("alternate_one", 10, 4, [0, 4, 0, 4, 0, 4, 0, 0, 0, 4], [0, 4, 0, 1, 0, 4, 0, 4, 0, 4], 33),
    # five holes: the ring's odd holes are player_0's 1, 3 and player_1's 0, 2, 4; player_1's
    # hole 2 cut to one, nothing emptied
    ("alternate_one", 5, 4, [0, 4, 0, 4, 0], [4, 0, 1, 0, 4], 17),
    # Sadeqa II: holes 1, 3, 5 of each row full; 8 // 4 = 2 seeds of player_1's hole 5 go across
    # to player_0's hole 0
    ("alternate_split", 6, 8, [2, 8, 0, 8, 0, 8], [0, 8, 0, 8, 0, 6], 48),
    # a quarter of 12 is 3
    ("alternate_split", 4, 12, [3, 12, 0, 12], [0, 12, 0, 9], 48),
    # Gamacha: the ring's even holes from player_0's hole 2 (player_1's 0, 2, .. 10); d = 1 + 2 * (11 // 4)
    # = 5, so player_1's hole 6, across from player_0's hole 5, moves into it
    ("gamacha", 12, 4, [0, 0, 4, 0, 4, 4, 4, 0, 4, 0, 4, 0], [4, 0, 4, 0, 4, 0, 0, 0, 4, 0, 4, 0], 44),
])
def test_each_pattern_by_hand(start, holes, seeds, p0, p1, total):
    game = Family(holes=holes, seeds=seeds, start=start, must_share=False)
    assert rows(game) == (p0, p1)
    assert game.total_seeds == total == sum(p0) + sum(p1)
    assert game.to_move(game.init()) == 0 and not game.random_start


def test_rightmost_first_plays_player_0s_last_hole():
    # p0 [4 4 4 4 4 4] 0 | p1 [4 4 4 4 4 4] 0; player_0's forced move from hole 5 sows player_1's
    # holes 0..3 (no capture: 5 seeds is no 2 or 3). -> p0 [4 4 4 4 4 0] 0 | p1 [5 5 5 5 4 4] 0,
    # player_1 to move, one move played.
    game = Family(start="rightmost_first")
    state = game.init()
    assert seen(game, state) == After([4, 4, 4, 4, 4, 0], 0, [5, 5, 5, 5, 4, 4], 0, 1)
    assert state[game.board_size + 2] == 1 and game.total_seeds == 48  # MOVES_PLAYED


def test_the_winning_count_is_half_the_starts_seeds():
    # two_empty, 4 holes of 3: 12 seeds, so more than 6 in a store wins at once.
    # p0 [0 0 1 1] 6 | p1 [2 1 1 0] 0; player_0 sows hole 3's seed into its store: 7 > 6, the game
    # is over with the board as it is (counted from 2 * 4 * 3 = 24 it would be another turn).
    game = Family(holes=4, seeds=3, start="two_empty", sow_store=True, capture_min=0, must_share=False)
    state = position(game, [0, 0, 1, 1], 6, [2, 1, 1, 0], 0)
    assert play(game, state, 3) == After([0, 0, 1, 0], 7, [2, 1, 1, 0], 0, OVER)


# -- the random start ---------------------------------------------------------------------------
def test_a_random_start_keeps_two_a_hole_and_is_the_seeds():
    game = Family(holes=6, seeds=5, start="random")
    assert game.random_start and game.total_seeds == 60
    states = batch.init_states(game, 500, np.random.default_rng(1))
    board = states[:, :game.board_size]
    assert (board.sum(axis=1) == 60).all() and (board[:, [6, 13]] == 0).all()
    assert (np.delete(board, [6, 13], axis=1) >= 2).all()
    assert (states[:, game.board_size] == 0).all() and (states[:, game.board_size + 1:] == 0).all()
    assert len({row.tobytes() for row in board}) == 500  # drawn, row by row
    assert np.array_equal(states, batch.init_states(game, 500, np.random.default_rng(1)))
    assert np.array_equal(game.init(np.random.default_rng(7)), game.init(np.random.default_rng(7)))


def test_every_way_of_sharing_out_a_random_start_is_equally_likely():
    # 2 holes a side of 3: each hole keeps 2 and the 4 seeds left go to the 4 holes, in any of the
    # C(7, 3) = 35 ways. Each is drawn about 1/35 of the time (a seed dropped in a hole at random,
    # one after the other, would draw the even shares far more often than 4-0-0-0).
    game = Family(holes=2, seeds=3, start="random", must_share=False)
    states = batch.init_states(game, 35_000, np.random.default_rng(0))
    shares = [tuple(row) for row in states[:, [0, 1, 3, 4]] - 2]
    ways = [tuple(b - a - 1 for a, b in zip((-1, *bars), (*bars, 7))) for bars in combinations(range(7), 3)]
    counts = np.array([shares.count(way) for way in ways])
    assert len(ways) == 35 and counts.sum() == 35_000
    chi2 = ((counts - 1000) ** 2 / 1000).sum()
    assert chi2 < 70  # 34 degrees of freedom: 70 is beyond the 0.9997 quantile


@functools.cache
def random_family_env(**params):
    return functools.partial(family_v0.env, holes=6, seeds=4, start="random", **params)


def test_a_random_start_passes_pettingzoos_api_and_seed_tests():
    api_test(random_family_env()(), num_cycles=100)
    seed_test(random_family_env(), num_cycles=100)


def test_reset_seeds_the_random_start():
    env = random_family_env()()
    env.reset(seed=3)
    first = env.unwrapped.board.copy()
    env.reset()  # no seed: the next draw of the same Generator
    second = env.unwrapped.board.copy()
    env.reset(seed=3)
    assert np.array_equal(env.unwrapped.board, first) and not np.array_equal(first, second)
    learner = SingleAgentEnv(Family(holes=6, seeds=4, start="random"))
    learner.reset(seed=5)
    start = learner.game.board(learner._state).copy()
    learner.reset(seed=5)
    assert np.array_equal(learner.game.board(learner._state), start)


# -- refusals -----------------------------------------------------------------------------------
@pytest.mark.parametrize("rules, message", [
    ({"start": "spiral"}, "start"),
    ({"start": "two_empty", "holes": 3}, "start='two_empty' needs at least 4 holes a side, got holes=3"),
    ({"start": "triples", "holes": 2}, "start='triples' needs at least 3 holes a side, got holes=2"),
    ({"start": "gamacha", "holes": 2}, "start='gamacha' needs at least 3 holes a side, got holes=2"),
    ({"start": "alternate_one", "holes": 2}, "start='alternate_one' needs at least 3 holes a side"),
    ({"start": "alternate_split", "holes": 5}, "start='alternate_split' needs an even number of holes, got holes=5"),
    ({"start": "rightmost_first", "choose_direction": "all"}, "start='rightmost_first' is not played where a move "
                                                              "names its way"),
    ({"start": "rightmost_first", "min_seeds": 5}, "start='rightmost_first' is not played where player_0's last "
                                                   "hole may not open the game (min_seeds=5"),
    ({"start": "random", "seeds": 1}, "seeds=1 with start='random' is not played"),
    ({"start": "random", "min_seeds": 3}, "min_seeds=3 with start='random' is not played"),
    ({"start": "random", "grand_slam": "illegal"}, "grand_slam='illegal' with start='random' is not played"),
])
def test_starts_the_family_cannot_play_are_refused(rules, message):
    with pytest.raises(BadInput, match=re.escape(message)):
        Family(**rules)


# -- the importer -------------------------------------------------------------------------------
def info(**given):
    return {"game_class": "Mancala", "game_constants": {"holes": 6, "nbr_start": 4},
            "game_info": {"capt_on": [2, 3], "sow_direct": 1, "stores": True, **given}}


@pytest.mark.parametrize("pattern, start", [(0, "equal"), (1, "gamacha"), (3, "alternate_one"), (4, "triples"),
                                            (5, "two_empty"), (7, "alternate_split"), (8, "plus_one"),
                                            (9, "rightmost_first")])
def test_the_importer_maps_each_start_pattern(pattern, start):
    params = family_params(info(start_pattern=pattern), "Game.txt")
    assert params["start"] == start and params["seeds"] == 4


def test_the_importer_reads_a_random_starts_seeds_in_all():
    # MancalaGames' random start shares out nbr_start seeds in all: 48 on 12 holes is 4 a hole
    params = family_params({**info(start_pattern=6), "game_constants": {"holes": 6, "nbr_start": 48}}, "Game.txt")
    assert params["start"] == "random" and params["seeds"] == 4
    with pytest.raises(BadInput, match=re.escape("Game.txt asks for a random start of 70 seeds, which 12 holes cannot "
                                                 "share evenly, which is not played here (start_pattern=6)")):
        family_params({**info(start_pattern=6), "game_constants": {"holes": 6, "nbr_start": 70}}, "Game.txt")
    with pytest.raises(BadInput, match=re.escape("asks for another start, which is not played here (start_pattern=13)")):
        family_params(info(start_pattern=13), "Game.txt")


def test_the_importer_counts_a_patterns_seeds():
    # two_empty on 6 holes of 4: 32 seeds; capturing from 2 up to every seed ends below 2
    params = family_params(info(start_pattern=5, capt_on=[], capt_min=2), "Game.txt")
    assert params["capture_min"] == 2 and params["capture_max"] == 0 and params["end_below"] == 2


def test_a_round_of_no_moves_with_a_start_pattern_plays_to_the_last_seed_but_one():
    # rounds of NO_MOVES for the most seeds end a round once the loser cannot fill goal_param holes
    # (2 * 4 seeds short of all); with a start pattern MancalaGames plays on until one seed is short
    assert family_params(info(rounds=2, goal_param=2), "Game.txt")["win_short"] == 8
    assert family_params(info(rounds=2, goal_param=2, start_pattern=5), "Game.txt")["win_short"] == 1


def test_the_importer_plays_a_count_of_round_wins_as_a_match_to_that_count():
    # RND_WIN_COUNT_MAX (goal 4): each round is won by the most seeds, in rounds of HALF_SEEDS as of
    # NO_MOVES, and the match by the first to goal_param round wins
    assert family_params(info(goal=4, goal_param=4, rounds=1), "Game.txt")["win_short"] == 0
    params = family_params(info(goal=4, goal_param=4, rounds=2), "Game.txt")
    assert (params["goal"], params["rounds"], params["match_end"], params["match_target"]) == \
        ("most_seeds", "match", "round_wins", 4)


# -- MancalaGames' own starts (where the oracle is beside the clone) ----------------------------
ROOT = Path(__file__).resolve().parents[1]
ORACLE = next((folder for folder in (ROOT.parent / "shared" / "oracles" / "mancalagames",
                                     Path("/work/shared/oracles/mancalagames"))
               if (folder / "src" / "mancala.py").is_file()), None)
PATTERN_FILES = ["Bay_Khom", "Boola", "Centering", "Enkeshui", "Gamacha", "Sadeqa", "Sadeqa_II", "Tapata"]


@pytest.mark.skipif(ORACLE is None, reason="MancalaGames is not in ../shared/oracles/mancalagames")
def test_each_pattern_is_mancalagames_start_in_every_file_that_uses_it():
    """Our start, built from each file's holes, seeds and pattern, is MancalaGames' board at the
    start of a game South begins (files we refuse for other rules too)."""
    path, modules = list(sys.path), set(sys.modules)
    sys.path.insert(0, str(ORACLE / "src"))
    try:
        import animator
        animator.ENABLED = False
        import man_config
        for name in PATTERN_FILES:
            file = ORACLE / "GameProps" / f"{name}.txt"
            head = json.JSONDecoder().raw_decode(file.read_text(encoding="utf-8").lstrip())[0]
            params = family_params({**head, "game_info": {"start_pattern": head["game_info"]["start_pattern"]}}, name)
            game, _ = man_config.make_game(str(file))
            game.starter = True  # the new game hands the first move to South
            game.new_game()
            ours = Family(holes=params["holes"], seeds=params["seeds"], start=params["start"], must_share=False)
            p0, p1 = rows(ours)
            assert (p0 + p1, ours.total_seeds) == (list(game.board), game.cts.total_seeds), name
    finally:
        sys.path[:] = path
        for module in set(sys.modules) - modules:
            if (getattr(sys.modules[module], "__file__", None) or "").startswith(str(ORACLE / "src")):
                del sys.modules[module]


@pytest.mark.skipif(ORACLE is None, reason="MancalaGames is not in ../shared/oracles/mancalagames")
def test_load_mancalagames_takes_the_start():
    assert load_mancalagames(ORACLE / "GameProps" / "Bay_Khom.txt").params["start"] == "plus_one"


def test_a_random_start_is_drawn_again_where_the_move_rule_leaves_player_0_no_move():
    # move_rule="to_occupied" on 2 holes a side, 3 seeds a hole (12 in all, two a hole kept): a hole
    # of 4 seeds (the ring's length, with no store sown and the origin not passed over) ends its
    # lap in itself, then holding one seed, so it may not be played; a row of [4 4] leaves player_0
    # no move, and such a start is drawn again. Every start drawn leaves player_0 a move.
    game = Family(holes=2, seeds=3, start="random", move_rule="to_occupied", skip_origin=False, capture_min=0,
                  must_share=False)
    states = game.init_rows(400, np.random.default_rng(1))
    assert all(game.legal_mask(state).any() for state in states)
    assert {tuple(state[:2]) for state in states} >= {(2, 2), (2, 6), (6, 2)}
    assert (4, 4) not in {tuple(state[:2]) for state in states}
