"""Every policy's move is bounded, on any rule set the family takes: a node budget per move (the
same move on any machine) and, where given, the clock.

The rule set below was found by a fuzz of the web API: passes and extra turns chain, so one
greedy move (its turn followed for 12 moves) searched for more than 20 s without end.
"""

import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mancala_marl.agents import POLICIES, make_policy
from mancala_marl.agents.alphabeta import CHAIN, GREEDY_NODES, greedy_pit
from mancala_marl.errors import BadInput, NotSolved
from mancala_marl.games import Family, make_game
from mancala_marl.search_core import MAX_PLY, NODES, new_counters

CHAINING = dict(holes=8, seeds=3, start="rightmost_first", direction="by_parity", move_rule="to_occupied",
                leave_one=True, children="weg", child_count=3, child_holes="no_own_right",
                child_sowing="skip_opponent", child_stores=True, capture_side="own_first", capture_min=0,
                capture_max=0, capture_parity="even", captures=2, no_single_capture=True, take_own="on_capture",
                extra_turn_once=True, must_share=False, must_pass=True, repetition_ends=True, end_below=3,
                end_cleared="opponent", end_seeds_left=0, early_win=False, take_last_by="first")
# A hang guard, far above any bounded move here (under a second): the real bound is the node count.
SECONDS_A_MOVE = 10.0


def long_turns(game, count, seed=0):
    """Positions of random games where greedy's whole turn does not fit in 2,000 nodes."""
    rng, found = np.random.default_rng(seed), []
    probe = make_policy("greedy", nodes=2000)
    for _ in range(40):
        state = game.init(rng)
        while not game.is_terminal(state) and len(found) < count:
            probe.act(game, state)
            if probe.last_depth == 0:
                found.append(state.copy())
            state = game.apply(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
        if len(found) == count:
            return found
    raise AssertionError("no long turn found")


def play_bounded(game, spec, moves, rng, budget=None):
    """``moves`` moves of ``spec`` against random, each legal, within ``budget`` nodes (twice the
    policy's own: a turn that does not fit is searched again shorter) and the hang guard."""
    policy = make_policy(spec, seed=0)
    state = game.init(rng)
    policy.act(game, state)  # compiled first: the guard times moves, not numba
    for _ in range(moves):
        if game.is_terminal(state):
            state = game.init(rng)
        if game.to_move(state) == 0:
            before, start = getattr(policy, "nodes", 0), time.perf_counter()
            move = policy.act(game, state)
            took = time.perf_counter() - start
            assert took < SECONDS_A_MOVE, (spec, took)
            if budget is not None:
                assert policy.nodes - before <= 2 * budget + 2, (spec, policy.nodes - before)
        else:
            move = int(rng.choice(np.flatnonzero(game.legal_mask(state))))
        assert game.legal_mask(state)[move], (spec, move)
        state = game.apply(state, move)


@pytest.mark.parametrize("spec, budget", [("greedy:nodes=2000", 2000), ("greedy:nodes=2000,max_chain=30", 2000),
                                          ("alphabeta:nodes=3000", 3000), ("alphabeta:depth=8,nodes=3000", 3000)])
def test_search_policies_stay_within_their_nodes_where_turns_chain(spec, budget):
    play_bounded(make_game("family", **CHAINING), spec, 150, np.random.default_rng(1), budget)


def test_a_turn_too_long_for_the_budget_is_followed_for_fewer_moves():
    game = make_game("family", **CHAINING)
    short = make_policy("greedy", nodes=2000)
    for state in long_turns(game, 5):
        move = short.act(game, state)
        assert short.last_depth == 0 and game.legal_mask(state)[move]
        assert short.nodes <= 5 * (2 * 2000 + 2)
        # no whole turn fitted: the move is that of a turn followed for fewer moves, as long as fitted
        chain = int(short.table(game).counters[CHAIN])
        assert 0 <= chain < 12
        assert move == make_policy("greedy", nodes=10**9, max_chain=chain).act(game, state)


def test_the_compiled_greedy_move_keeps_greedys_budget():
    # the batch engine's greedy (the training opponent) is the policy with its defaults
    game = make_game("family", **CHAINING)
    stack = np.zeros((MAX_PLY, game.actions, game.state_size), dtype=np.int32)
    counters, policy = new_counters(extra=2), make_policy("greedy")
    for state in long_turns(game, 2, seed=3):
        move = greedy_pit(state, game.spec, stack, counters)
        assert 0 < counters[NODES] <= 2 * GREEDY_NODES + 2
        assert move == policy.act(game, state) and game.legal_mask(state)[move]


def test_a_time_limit_stops_a_turn_that_does_not_fit():
    game = make_game("family", **CHAINING)
    policy = make_policy("greedy", nodes=10**12, time_limit=0.05)
    state = long_turns(game, 1, seed=2)[0]
    policy.act(game, state)  # compiled
    start = time.perf_counter()
    move = policy.act(game, state)
    assert time.perf_counter() - start < 2.0 and game.legal_mask(state)[move]


def test_the_solver_says_it_has_not_solved_within_its_nodes():
    game = make_game("kalah", pits=4, seeds=3)
    with pytest.raises(NotSolved, match="no exact value within nodes=100"):
        make_policy("solver", nodes=100).value(game, game.init())
    with pytest.raises(NotSolved, match="no exact move within nodes=100"):
        make_policy("solver", nodes=100).act(game, game.init())
    assert make_policy("solver").value(game, game.init()) == make_policy("solver", nodes=None).value(game, game.init())


def generic_policies(game):
    """Every registered policy that plays ``game`` with no file given (the others refuse it, cleanly)."""
    playing = []
    for name in sorted(POLICIES):
        try:
            policy = make_policy(name)
            policy.prepare(game)
        except BadInput:
            continue
        playing.append(name)
    return playing


def test_every_generic_policy_is_played_here():
    assert {"random", "max", "exact", "simple", "greedy", "alphabeta"} <= set(generic_policies(make_game("family")))


@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(params=Family.param_strategy(st))
def test_every_generic_policy_moves_within_bounds_on_drawn_rule_sets(params):
    game = make_game("family", **params)
    rng = np.random.default_rng(0)
    for name in generic_policies(game):
        # the searches with small budgets, so that the test is quick; their defaults are the same code
        spec, budget = {"greedy": ("greedy:nodes=3000", 3000), "alphabeta": ("alphabeta:nodes=3000", 3000),
                        "solver": ("solver:nodes=3000", None)}.get(name, (name, None))
        try:
            play_bounded(game, spec, 30, rng, budget)
        except (NotSolved, BadInput):  # an exact player that cannot answer says so
            assert name == "solver"
