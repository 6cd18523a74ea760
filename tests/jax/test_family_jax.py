"""The two-row family in JAX against the numba family, move for move: every named game and
MancalaGames file of the family, and rule sets drawn by the family's sampler, many rule sets in one
batch and one compiled step; the end by repetition on hand-worked boards; a game not of the family
refused in one line."""

from pathlib import Path

import jax
import numpy as np
import pytest

from mancala_marl.errors import BadInput
from mancala_marl.games import GAME_OVER, GAMES, NAMED, Family, make_game
from mancala_marl.games.family import oware_rules, sample_rules
from mancala_marl.games.history import HISTORY
from mancala_marl.games.mancalagames import load_played
from mancala_marl.jax import family, make
from mancala_marl.jax.crosscheck import Mismatch, crosscheck, crosscheck_rule_sets

ROOT = Path(__file__).resolve().parents[2]
ORACLE = ROOT.parent / "shared" / "oracles" / "mancalagames" / "GameProps"


def test_every_named_game_matches_numba_in_one_batch():
    games = [make_game(name) for name in NAMED if name not in GAMES]
    assert len(games) >= 42  # Wari, Dakon, Bohnenspiel, Songo, Pallanguli...: the named games of the family
    totals = crosscheck_rule_sets(games, plays=3, seed=1)
    assert totals["games"] == 3 * len(games) and totals["moves"] > 100 * len(games)


@pytest.mark.skipif(not ORACLE.is_dir(), reason="MancalaGames' files are in ../shared/oracles beside the clone")
def test_the_mancalagames_files_of_the_family_match_numba():
    games = [game for game in load_played(ORACLE) if game.name == "family"]
    assert len(games) >= 107
    crosscheck_rule_sets(games, plays=2, seed=2)


def test_drawn_rule_sets_match_numba_in_one_batch():
    rng = np.random.default_rng(3)
    # (the sampler draws children five times in six: half of these are kept without)
    games = [Family(**sample_rules(rng, choices={"children": ("none",)})) for _ in range(16)]
    games += [Family(**sample_rules(rng)) for _ in range(16)]
    # and full holes passed over, which the sampler leaves out unless asked
    games += [Family(**sample_rules(rng, sow_max=(1, 10))) for _ in range(8)]
    assert len({game.pits for game in games}) > 3  # boards of several sizes in the one batch
    # games that end by repetition beside games that do not, with children (the history after the
    # marks) and without
    assert {(game.params["repetition_ends"], game.params["children"] != "none") for game in games} == {
        (False, False), (False, True), (True, False), (True, True)}
    totals = crosscheck_rule_sets(games, plays=2, seed=4)
    assert totals["games"] == 80


def test_rule_sets_of_closed_holes_locked_holes_holes_played_in_turn_and_chosen_ways_match_numba():
    rng = np.random.default_rng(7)
    games = [Family(**sample_rules(rng, close_at=(1, 4), choices={"goal": ("deprive", "immobilize"), "laps": (laps,)}))
             for _ in range(5) for laps in ("single", "relay")]
    assert {game.params["laps"] for game in games} == {"single", "relay"}
    assert {game.params["close_rightmost"] for game in games} == {False, True}
    games += [Family(**sample_rules(rng, choices={"move_rule": ("every_hole_first",)})) for _ in range(4)]
    games += [Family(**sample_rules(rng, choices={"locked_holes": (True,), "children": ("none",)}))
              for _ in range(4)]
    games += [Family(**sample_rules(rng, fixed_way_turns=(1, 2), choices={"choose_direction": ("all",),
                                                                          "direction": ("ccw", "cw")}))
              for _ in range(4)]
    # and the chosen ways: the ends and the middle, must-share offering both ways of a hole that feeds
    games += [Family(**sample_rules(rng, holes=(3, 7), choices={"choose_direction": ("ends_and_middle",)}))
              for _ in range(2)]
    games += [Family(**sample_rules(rng, choices={"share_either_way": (True,), "children": ("none",)}))
              for _ in range(4)]
    totals = crosscheck_rule_sets(games, plays=3, seed=8)
    assert totals["games"] == 3 * len(games) and totals["moves"] > 20 * len(games)


def test_rule_sets_sowing_their_own_rows_or_their_captures_match_numba():
    rng = np.random.default_rng(12)
    games = [Family(**sample_rules(rng, choices={"sow_own_row": (True,), "sow_store": (sown,)}))
             for _ in range(5) for sown in (False, True)]
    games += [Family(**sample_rules(rng, choices={"sow_own_row": (True,), "grand_slam": ("opponent_gets_row",)}))
              for _ in range(4)]
    # and mikro tsoro's relay, whose captures at each lap's end are sown on (sow_captured), on either ring
    games += [Family(**sample_rules(rng, choices={"sow_captured": (True,), "sow_own_row": (own,)}))
              for _ in range(3) for own in (False, True)]
    assert {game.params["direction"] for game in games} > {"ccw", "cw"}
    totals = crosscheck_rule_sets(games, plays=3, seed=13)
    assert totals["games"] == 3 * len(games) and totals["moves"] > 10 * len(games)


def test_a_grand_slam_hands_the_movers_row_over_as_numba_does():
    from tests.test_family import position

    # (tests/test_family_own_row.py: the capture of player_1's last 4 seeds, player_0's 4 left to player_1)
    game = Family(holes=3, sow_own_row=True, must_share=False, capture_min=0, capture_max=0, sow_store=True,
                  cross_capture=True, captures=1, capture_side="both", grand_slam="opponent_gets_row")
    state = position(game, [1, 0, 3], 0, [0, 4, 0], 0)
    after = np.asarray(family.make_rules(game).apply(jax.numpy.asarray(state), 0))
    game.apply(state, 0)
    assert after.tolist() == state.tolist() and state[:8].tolist() == [0, 0, 0, 4, 0, 0, 0, 4]


def test_a_laps_capture_is_sown_on_as_numba_sows_it():
    from tests.test_family import position

    # (tests/test_family_own_row.py: the 2 captured across are sown on with the last hole's seed)
    game = Family(holes=3, sow_own_row=True, must_share=False, capture_min=0, capture_max=0, laps="relay",
                  lap_capture=True, cross_capture=True, captures=1, goal="deprive", skip_origin=False,
                  sow_captured=True)
    state = position(game, [1, 0, 0], 0, [0, 2, 1], 0)
    after = np.asarray(family.make_rules(game).apply(jax.numpy.asarray(state), 0))
    game.apply(state, 0)
    assert after.tolist() == state.tolist() and state[:8].tolist() == [1, 1, 1, 0, 0, 0, 1, 0]


def test_a_hole_that_feeds_one_way_is_offered_both_ways_as_numba_offers_it():
    from tests.test_family import position

    for either in (False, True):  # (tests/test_family_ways.py: hole 0 feeds clockwise only)
        game = Family(holes=3, choose_direction="all", capture_min=0, share_either_way=either)
        state = position(game, [1, 0, 0], 0, [0, 0, 0], 0)
        legal = np.asarray(family.make_rules(game).legal(jax.numpy.asarray(state)))
        assert np.flatnonzero(legal).tolist() == np.flatnonzero(game.legal_mask(state)).tolist() == \
            ([0, 3] if either else [3])


@pytest.mark.parametrize("goal", ["clear", "immobilize"])  # (deprive: in test_mixed)
def test_a_game_of_another_goal_rewards_its_winner_not_the_larger_store(goal):
    # the stores hold what was captured, and the goal, not their count, decides the game
    # (MancalaGames' Gabata-style games): each step's rewards and the end held to numba's returns
    rng = np.random.default_rng(6)
    env = make("family", **sample_rules(rng, fixed={"goal": goal}, holes=(3, 5)))
    totals = crosscheck(env, 60, seed=7)
    assert totals["games"] == 60 and totals["truncated"] == 0


def test_a_game_of_children_counts_their_seeds_for_their_owner():
    # a child keeps its seeds to the end, where they count beside its owner's store: each step's
    # rewards and the end held to numba's returns (Family.scores); bulls here, wegs in test_mixed
    rng = np.random.default_rng(9)
    env = make("family", **sample_rules(rng, fixed={"children": "bull"}, holes=(4, 6), tries=3000))
    totals = crosscheck(env, 60, seed=10)
    assert totals["games"] == 60 and totals["truncated"] == 0


def test_a_random_start_is_drawn_by_init_as_numba_draws_it():
    # every hole keeps two seeds and the rest are shared out, every way alike: the draws from JAX's
    # keys and from numba's generator are the same distribution, and the moves from them numba's
    env = make("family", start="random", holes=4, seeds=4, move_rule="opponent_or_empty")
    game = env.game
    states = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), 3000))
    drawn = np.asarray(states._board)[:, :game.board_size]
    expected = np.stack([game.init(np.random.default_rng(i)) for i in range(3000)])[:, :game.board_size]
    holes = [cell for cell in range(game.board_size) if cell not in (4, 9)]
    assert (drawn[:, holes] >= 2).all() and (drawn.sum(1) == 32).all() and not drawn[:, [4, 9]].any()
    assert np.asarray(states.legal_action_mask).any(1).all()  # the move rule's refused starts drawn again
    assert len({row.tobytes() for row in drawn}) > 2900
    for cell in holes:  # each hole's count, as numba's: mean 4, and the same histogram
        ours, theirs = (np.bincount(rows[:, cell], minlength=40)[:40] / len(rows) for rows in (drawn, expected))
        assert abs(drawn[:, cell].mean() - 4) < 0.15 and 0.5 * np.abs(ours - theirs).sum() < 0.06, cell
    assert crosscheck(env, 100, seed=8)["games"] == 100


def test_a_difference_is_caught():
    # the check itself: a JAX family sowing one seed too many into player_1's store is caught
    apply = family.apply
    try:
        family.apply = lambda flat, action, spec, actions, head=None: apply(flat, action, spec, actions, head).at[
            2 * spec[1] + 1].add(1)
        with pytest.raises(Mismatch, match="flat state JAX"):
            crosscheck_rule_sets([make_game("wari")], plays=1)
    finally:
        family.apply = apply


def test_make_plays_a_named_game_a_rule_set_and_a_game():
    assert make("wari").game.params == make_game("wari").params
    assert make("family", holes=4, seeds=3).game.pits == 4
    game = make_game("dakon")
    assert make(game).game is game
    with pytest.raises(ValueError, match="takes no rule parameters"):
        make(game, holes=5)


def test_a_game_not_of_the_family_is_refused_in_one_line():
    with pytest.raises(ValueError, match=r"^Kalah\(.*\) is not a game of the two-row family$"):
        family.make_rules(make_game("kalah"))


# the family's move, the rules an argument: compiled once for each state size and action count
_apply = jax.jit(family.apply, static_argnums=(3, 4))


def _replay(game, board, moves):
    """``moves`` from ``board`` on the JAX family and on numba, every cell compared after each; the
    numba state at the end."""
    state = game.from_board(board)
    flat = jax.numpy.asarray(state)
    for move in moves:
        game.apply(state, move)
        flat = _apply(flat, move, family.spec_of(game), game.actions)
        assert np.asarray(flat).tolist() == state.tolist(), move
    return state


def test_a_repeated_position_ends_the_game_as_numba_ends_it():
    # tests/test_family_points.py's hand-worked chase: two lone seeds on Oware's rules, 3 holes a
    # side, come round to the start with player_0 to move; the seeds go to their rows' owners
    game = Family(**oware_rules(3, 1))
    state = _replay(game, [0, 0, 1, 0, 0, 0, 1, 0], [2, 2, 0, 0, 1, 1])
    assert game.is_terminal(state) and state[:8].tolist() == [0, 0, 0, 1, 0, 0, 0, 1]
    # a capture clears the history: one position in it after the move
    state = _replay(game, [0, 0, 1, 0, 1, 0, 1, 0], [2])
    assert state[:8].tolist() == [0, 0, 0, 2, 0, 0, 1, 0] and state[game.board_size + 8] == 1


@pytest.mark.parametrize("slot, count", [(1, 1), (1, 2), (40, 40), (40, 41), (254, 255), (0, HISTORY)])
def test_only_the_counted_history_slots_can_repeat(slot, count):
    # the position after player_0's hole 2 put in history slot `slot`, the other slots other
    # hashes: the move repeats a position only if the slot is one of the first `count`, and a full
    # history ends the game in any case (numba's games/history.py)
    game = Family(**oware_rules(3, 1))
    start = game.from_board([0, 0, 1, 0, 0, 0, 1, 0])
    after = start.copy()
    game.apply(after, 2)
    base = game.board_size + 8
    start[base] = count
    start[base + 3:] = np.arange(3, 3 + 2 * HISTORY)  # distinct hashes, none the position's
    start[base + 3 + 2 * slot:base + 5 + 2 * slot] = after[base + 5:base + 7]  # its hash: slot 1 of `after`
    ours = np.asarray(_apply(jax.numpy.asarray(start), 2, family.spec_of(game), game.actions))
    game.apply(start, 2)
    assert ours.tolist() == start.tolist()
    assert (start[game.board_size] == GAME_OVER) == (slot < count or count == HISTORY)


def test_a_random_start_is_the_first_position_of_its_history():
    # each drawn start whole, its history included, as numba's from_board makes it from the board
    # drawn; then random games from those starts, move for move
    env = make("family", start="random", holes=4, seeds=4, repetition_ends=True)
    game = env.game
    states = np.asarray(jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(12), 50))._board)
    for drawn in states:
        assert drawn.tolist() == game.from_board(drawn[:game.board_size]).tolist()
    assert len({row[:game.board_size].tobytes() for row in states}) > 40  # (the floor's history would not do)
    assert crosscheck(env, 100, seed=11)["games"] == 100
