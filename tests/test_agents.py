"""Policies: legal moves everywhere, hand-computed choices, alpha-beta against plain minimax, the solver."""

import time

import numpy as np
import pytest

from mancala_marl.agents import POLICIES, make_policy, parse_policy_spec, split_policy_specs
from mancala_marl.agents.alphabeta import UNBOUNDED
from mancala_marl.games import make_game

from .helpers import random_game
from .registry import EXAMPLES

GAMES = [(game.name, game.params) for game in EXAMPLES]  # every registered game and its examples
FAST = ["random", "max", "exact", "simple", "greedy", "alphabeta:depth=2"]


def positions(game, count, seed=0):
    """``count`` live positions (both players to move) visited by uniformly random games."""
    rng = np.random.default_rng(seed)
    found = []
    while len(found) < count:
        history, _ = random_game(game, rng)
        found.extend(state for state, _ in history)
    order = rng.permutation(len(found))[:count]
    return [found[i] for i in order]


@pytest.mark.parametrize("name, params", GAMES)
def test_every_policy_plays_only_legal_moves_and_leaves_the_state_alone(name, params):
    game = make_game(name, **params)
    states = positions(game, 600, seed=len(params))
    assert {game.to_move(s) for s in states} == {0, 1}
    for spec in FAST + ["alphabeta:depth=4"]:
        policy = make_policy(spec, seed=1)
        for state in states[:150] if spec.endswith("4") else states:
            before = state.copy()
            move = policy.act(game, state)
            assert isinstance(move, int) and game.legal_mask(state)[move], (spec, state, move)
            assert (state == before).all(), f"{spec} modified the state"


@pytest.mark.parametrize("spec", FAST + ["alphazero:sims=2", "pretrained"])
def test_every_policy_refuses_a_finished_game_with_the_same_message(spec):
    game = make_game("kalah")
    _, finished = random_game(game, np.random.default_rng(0))
    with pytest.raises(ValueError, match="^the game is over: there is no move to choose$"):
        make_policy(spec, seed=1).act(game, finished)


@pytest.mark.parametrize("spec", FAST + ["alphazero:sims=2", "pretrained"])
@pytest.mark.parametrize("bad, named", [(list, "got list"), (lambda s: s[:-1], r"shape \(14,\)")])
def test_every_policy_refuses_what_is_not_a_state_naming_it(spec, bad, named):
    # A list or a board without its turn cell once reached the compiled kernels: a numba typing
    # error, or an index past the end.
    game = make_game("kalah")
    with pytest.raises(ValueError, match=rf"^state must be a 1-D integer numpy array of 15 cells for Kalah\(.*\).*{named}"):
        make_policy(spec, seed=1).act(game, bad(game.init()))
    with pytest.raises(ValueError, match=named):
        game.legal_mask(bad(game.init()))
    with pytest.raises(ValueError, match=named):
        game.apply(bad(game.init()), 0)


def test_policies_are_deterministic_given_a_seed():
    game = make_game("sungka")
    states = positions(game, 50)
    for spec in FAST:
        a, b = make_policy(spec, seed=7), make_policy(spec, seed=7)
        assert [a.act(game, s) for s in states] == [b.act(game, s) for s in states], spec


# Kalah boards are [pits of player_0 | store_0 | pits of player_1 | store_1]; the pit opposite
# board index a is 2P - a. Pits are numbered 0..P-1 towards the store.

def test_max_exact_simple_on_a_kalah_position():
    game = make_game("kalah")
    state = game.from_board([3, 0, 4, 2, 1, 5, 0, 4, 4, 4, 4, 4, 4, 0])
    # max: the most seeds is pit 5 (5 seeds).
    assert make_policy("max").act(game, state) == 5
    # exact: pit i needs 6 - i seeds to end in the store: pit 5 needs 1 (has 5), pit 4 needs 2
    # (has 1), pit 3 needs 3 (has 2), pit 2 needs 4 (has 4): pit 2.
    assert make_policy("exact").act(game, state) == 2
    # simple: the non-empty pit nearest the store: pit 5.
    assert make_policy("simple").act(game, state) == 5

    tie = game.from_board([5, 0, 4, 2, 1, 5, 0, 4, 4, 4, 4, 4, 4, 0])
    assert make_policy("max").act(game, tie) == 5  # pits 0 and 5 both hold 5: nearest the store
    no_exact = game.from_board([3, 0, 6, 2, 1, 0, 0, 4, 4, 4, 4, 4, 4, 0])
    # no pit has count == distance (6,5,4,3,2,1 needed; 3,0,6,2,1,0 held): exact plays max, pit 2.
    assert make_policy("exact").act(game, no_exact) == 2
    assert make_policy("simple").act(game, no_exact) == 4  # pit 5 is empty


def test_player_1_counts_from_its_own_side():
    game = make_game("kalah")
    # player_1's pits [0, 0, 3, 1, 1, 0] (board 7..12): exact needs 6 - i: pit 3 needs 3 (has 1),
    # pit 4 needs 2 (has 1), pit 2 needs 4 (has 3): none, so max: pit 2 (3 seeds); simple: pit 4.
    state = game.from_board([4, 4, 4, 4, 4, 4, 0, 0, 0, 3, 1, 1, 0, 0], to_move=1)
    assert make_policy("exact").act(game, state) == 2
    assert make_policy("max").act(game, state) == 2
    assert make_policy("simple").act(game, state) == 4


def test_sungka_start_exact_and_max():
    game = make_game("sungka")
    state = game.init()
    # Every house holds 7; house i is 7 - i from the head, so only house 0 ends in the head.
    assert make_policy("exact").act(game, state) == 0
    # All tie on 7 stones: max and simple take the house nearest the head, 6.
    assert make_policy("max").act(game, state) == 6
    assert make_policy("simple").act(game, state) == 6


def test_togyz_exact_is_the_capture_nearest_the_kazan():
    game = make_game("togyz_kumalak", holes=3, balls=9)
    # Board [h0 h1 h2 K0 | h0 h1 h2 K1]; the ring of holes is 0,1,2 (player_0) then 3,4,5.
    # hole 2 (1 ball): a single ball moves on, to player_1's h0: 4 + 1 = 5, odd: nothing.
    # hole 1 (6 balls): the first back into hole 1, then ring 2,3,4,5,0: ends on our side.
    # hole 0 (5 balls): back into 0, then ring 1,2,3,4: ends in player_1's h1, 1 + 1 = 2: capture.
    state = game.from_board([5, 6, 1, 0, 4, 1, 2, 0])
    assert make_policy("exact").act(game, state) == 0
    assert make_policy("max").act(game, state) == 1
    after = state.copy()
    game.apply(after, 0)
    assert game.scores(after)[0] == 2  # the capture the hand computation promised
    # No hole captures (hole 0 with 2 balls ends on hole 1): exact falls back on max, hole 1.
    quiet = game.from_board([2, 6, 1, 0, 4, 1, 2, 0])
    assert make_policy("exact").act(game, quiet) == 1


def test_greedy_prefers_the_capture_over_the_biggest_pit():
    game = make_game("kalah", pits=3, seeds=4)
    # player_0 [1, 0, 3], player_1 [0, 4, 0], stores 0 (board indices 0-2, 3, 4-6, 7).
    # pit 0: its seed ends in empty pit 1, opposite (index 5) holds 4: capture 5 -> margin 5
    #        (player_1's side is then empty: the game ends, player_0 sweeps 3 more: 8 - 0).
    # pit 2: 3 seeds to store, index 4, index 5: margin 1, turn over.
    state = game.from_board([1, 0, 3, 0, 0, 4, 0, 0])
    assert make_policy("greedy").act(game, state) == 0
    assert make_policy("max").act(game, state) == 2
    assert make_policy("exact").act(game, state) == 2  # pit 2 needs 1 seed, pit 0 needs 3: none; max
    assert make_policy("simple").act(game, state) == 2


def test_greedy_follows_the_extra_turn_to_the_end_of_the_turn():
    game = make_game("kalah", pits=4, seeds=4)
    # player_0 [1, 0, 3, 1] store 0, player_1 [2, 0, 4, 0] store 0 (indices 0-3, 4, 5-8, 9).
    # pit 0: ends in empty pit 1, captures index 7 (4) + 1 = 5: margin 5.
    # pit 2: to pit 3, store, index 5: margin 1.
    # pit 3: its one seed ends in the store (margin 1), extra turn; then pit 0 captures 4 + 1:
    #        margin 6. Looking one move only, pit 0 (5) would beat pit 3 (1).
    state = game.from_board([1, 0, 3, 1, 0, 2, 0, 4, 0, 0])
    greedy = make_policy("greedy")
    assert greedy.act(game, state) == 3
    assert greedy.last_value == 6


# -- alpha-beta against plain minimax --------------------------------------------------------

def minimax(game, state, depth, memo=None):
    """Margin for the mover by exhaustive search; depth counts turns, a same-player move is free.
    (Memoised on the whole state, which holds all that decides the rest of the game.)"""
    memo = {} if memo is None else memo
    key = (state.tobytes(), depth)
    if key not in memo:
        memo[key] = _minimax(game, state, depth, memo)
    return memo[key]


def _minimax(game, state, depth, memo):
    mover = game.to_move(state)
    best = None
    for pit in np.flatnonzero(game.legal_mask(state)):
        child = state.copy()
        game.apply(child, int(pit))
        scores = game.scores(child)
        margin = scores[mover] - scores[1 - mover]
        nxt = game.to_move(child)
        if nxt < 0:
            value = margin
        elif nxt == mover:
            value = minimax(game, child, depth, memo)
        elif depth <= 1:
            value = margin
        else:
            value = -minimax(game, child, depth - 1, memo)
        best = value if best is None else max(best, value)
    return best


# Boards whose games all end within a few dozen turns. Togyz Kumalak is left out of the search to
# the end: on small boards balls can circle for ever, so plain minimax has no bottom there.
# Oware's repetition rule ends every game; its history is part of the state, so both searches see it.
SMALL = [("kalah", dict(pits=3, seeds=2)), ("kalah", dict(pits=2, seeds=3, empty_capture=True)),
         ("sungka", dict(houses=3, stones=2)), ("sungka", dict(houses=2, stones=3, sunog_needs_opposite=True)),
         ("oware", dict(houses=2, seeds=1)), ("oware", dict(houses=2, seeds=1, grand_slam="illegal"))]


@pytest.mark.parametrize("name, params", SMALL)
def test_alphabeta_to_the_end_equals_exhaustive_minimax(name, params):
    game = make_game(name, **params)
    full = 60  # more turns than these games last
    for state in [game.init()] + positions(game, 8, seed=3):
        exact = minimax(game, state, full)
        for tt_bits in (0, 16):
            policy = make_policy("alphabeta", depth=full, max_chain=UNBOUNDED, tt_bits=tt_bits)
            move = policy.act(game, state)
            assert policy.last_value == exact, (name, state, tt_bits)
            child = state.copy()
            game.apply(child, move)  # the chosen move achieves the value
            if game.is_terminal(child):
                s = game.scores(child)
                achieved = s[game.to_move(state)] - s[1 - game.to_move(state)]
            elif game.to_move(child) == game.to_move(state):
                achieved = minimax(game, child, full)
            else:
                achieved = -minimax(game, child, full)
            assert achieved == exact


@pytest.mark.parametrize("name, params", SMALL + [("kalah", {}), ("togyz_kumalak", dict(holes=3, balls=2)),
                                          ("togyz_kumalak", {}), ("oware", {})])
def test_depth_limited_alphabeta_equals_depth_limited_minimax(name, params):
    game = make_game(name, **params)
    for state in positions(game, 12, seed=5):
        for depth in (1, 2, 3):
            policy = make_policy("alphabeta", depth=depth, max_chain=UNBOUNDED, tt_bits=0)
            policy.act(game, state)
            assert policy.last_value == minimax(game, state, depth), (name, depth, state)


def test_alphabeta_time_limit_still_returns_a_legal_move():
    game = make_game("sungka")
    policy = make_policy("alphabeta", depth=50, time_limit=0.05)
    policy.act(game, game.init())  # compiled (if need be) outside the clock
    state = game.init()  # 50 turns of the opening cannot be searched in 0.05 s
    start = time.perf_counter()
    move = policy.act(game, state)
    assert time.perf_counter() - start < 1.0  # the limit plus slack for a loaded machine
    assert game.legal_mask(state)[move]
    assert 1 <= policy.last_depth < 50


# -- the solver -----------------------------------------------------------------------------

def test_solver_values_of_tiny_kalah_boards_solved_by_hand():
    solver = make_policy("solver")
    # Kalah(1, n): one pit each, so every move is forced. Board [pit0, store0, pit1, store1].
    # n=1: the seed goes to the store (extra turn), player_0's side is empty: 1 - 1 = 0.
    # n=2: store, then player_1's pit (3): side empty, 1 - 3 = -2.
    # n=3: store, player_1's pit (4), own emptied pit: capture 4 + 1, store 6: 6 - 0 = +6.
    # n=4: store, pit1 (5), own pit, store (2), extra turn; the last seed: store 3: 3 - 5 = -2.
    for seeds, value in [(1, 0), (2, -2), (3, 6), (4, -2)]:
        game = make_game("kalah", pits=1, seeds=seeds)
        assert solver.value(game, game.init()) == value, seeds
    # Kalah(2, 1): pit 1 ends in the store (extra turn), then pit 0's seed lands in the empty
    # pit 1 and captures the seed opposite: 3, side empty, player_1 keeps 1: +2. Pit 0 instead
    # lets player_1 play pit 1 (store, extra turn) then pit 0 into its empty pit; player_0 must
    # sow its 2 seeds (store 1, one to player_1) and ends 1 - 3: at most -2. So +2 by pit 1.
    game = make_game("kalah", pits=2, seeds=1)
    assert solver.value(game, game.init()) == 2
    assert solver.act(game, game.init()) == 1


def test_solver_refuses_games_that_need_not_end():
    game = make_game("togyz_kumalak", holes=3, balls=3)  # balls can circle the board for ever
    with pytest.raises(ValueError, match="deeper than 512 plies"):
        make_policy("solver").value(game, game.init())


def test_solver_refuses_big_boards():
    game = make_game("kalah")  # 48 seeds
    with pytest.raises(ValueError, match="max_seeds=40"):
        make_policy("solver").act(game, game.init())


# -- registry -------------------------------------------------------------------------------

def test_registry_specs_and_errors():
    assert {"random", "max", "exact", "simple", "greedy", "alphabeta", "solver"} <= set(POLICIES)
    assert parse_policy_spec("alphabeta:depth=4,time_limit=0.5") == ("alphabeta", [], {"depth": 4, "time_limit": 0.5})
    assert parse_policy_spec("model:runs/x.zip") == ("model", ["runs/x.zip"], {})
    policy = make_policy("alphabeta:depth=3")
    assert policy.depth == 3 and policy.name == "alphabeta"
    with pytest.raises(ValueError, match="unknown policy 'nope'"):
        make_policy("nope")
    # Named as the command line spells them, with the ones the policy takes; not as Python's
    # TypeError names them ("_SearchPolicy.__init__() got an unexpected keyword argument").
    with pytest.raises(ValueError, match=r"^unknown parameter 'depth' for policy 'max' \(its parameters: seed\)$"):
        make_policy("max:depth=3")
    with pytest.raises(ValueError, match=r"^unknown parameter 'dep' for policy 'alphabeta' "
                                         r"\(its parameters: depth, time_limit, max_chain, nodes, tt_bits, seed\)$"):
        make_policy("alphabeta:dep=3")
    with pytest.raises(ValueError, match=r"^bad parameters for policy 'greedy': too many positional arguments"):
        make_policy("greedy:1,2,3,4,5")
    with pytest.raises(ValueError, match="depth must be an integer >= 1"):
        make_policy("alphabeta", depth=0)
    # Parameters that take Python objects (a network in memory) are not offered on a command line.
    with pytest.raises(ValueError, match=r"^unknown parameter 'sim' for policy 'alphazero' "
                                         r"\(its parameters: sims, time, path, c_puct, seed\)$"):
        make_policy("alphazero:sim=3")
    with pytest.raises(ValueError, match=r"\(its parameters: path, deterministic, epsilon, seed\)$"):
        make_policy("model:eps=0.1")
    with pytest.raises(ValueError, match=r"^policy 'alphazero' takes net as a Python object, which a spec cannot "
                                         r"give: pass it to make_policy\('alphazero', net=\.\.\.\)$"):
        make_policy("alphazero:net=3")  # an AttributeError at the first move before
    # true/false/none in any case are values for keys, not for a bare argument (a file may be called none)
    assert parse_policy_spec("model:none,deterministic=false") == ("model", ["none"], {"deterministic": False})


def test_a_list_of_specs_keeps_each_spec_s_parameters():
    assert split_policy_specs("random,max") == ["random", "max"]
    assert split_policy_specs("random,alphabeta:depth=6,time_limit=0.5,exact") == \
        ["random", "alphabeta:depth=6,time_limit=0.5", "exact"]
    assert split_policy_specs("alphazero:sims=2,pretrained") == ["alphazero:sims=2", "pretrained"]
    assert split_policy_specs("model:runs/a.zip,deterministic=false,runs/b.zip") == \
        ["model:runs/a.zip,deterministic=false", "runs/b.zip"]
    assert split_policy_specs("greedy") == ["greedy"] and split_policy_specs(" max , ,exact ") == ["max", "exact"]
    # a bare number after a spec with parameters is one of its positional values
    assert split_policy_specs("alphabeta:2,0.5,max") == ["alphabeta:2,0.5", "max"]
    assert make_policy(split_policy_specs("alphabeta:2,0.5")[0]).time_limit == 0.5
    with pytest.raises(ValueError, match=r"^--pool names no policy, got ' , '$"):
        split_policy_specs(" , ", "--pool")
    for spec in split_policy_specs("random,alphabeta:depth=6,time_limit=0.5"):
        make_policy(spec)  # each one a spec make_policy takes


def test_policies_registered_in_other_agents_modules_are_found_by_name(monkeypatch):
    # A module of the package registers its policies when imported; make_policy imports the agents
    # modules the first time it meets an unknown name, and passes the spec's bare value
    # positionally. agents/learned.py ("model") is imported with the package now, so it is
    # forgotten here to be found again.
    import sys

    import mancala_marl.agents.base
    from mancala_marl.agents.learned import pretrained_dir

    monkeypatch.delitem(POLICIES, "model")
    monkeypatch.delitem(sys.modules, "mancala_marl.agents.learned")
    monkeypatch.setattr(mancala_marl.agents.base, "_discovered", False)
    path = str(pretrained_dir() / "kalah.zip")
    policy = make_policy(f"model:{path},epsilon=0.01")
    assert type(policy).__name__ == "ModelPolicy" and policy.path == path and policy.epsilon == 0.01
    # shown as it was asked for, not as the bare name "model"
    assert repr(policy) == f"model:{path},epsilon=0.01"
    assert str(make_policy("alphabeta", depth=3)) == "alphabeta:depth=3" and str(make_policy("max")) == "max"
    with pytest.raises(FileNotFoundError, match="no model file at some/run.zip"):
        make_policy("model:some/run.zip")  # named when the policy is made, not at its first move
    # A bare .zip path is a model everywhere, as the Gymnasium view's opponent has always taken it
    # (arena and make_policy said "unknown policy")
    assert repr(make_policy(path)) == f"model:{path}" and make_policy(path).path == path
    with pytest.raises(FileNotFoundError, match="no model file at some/run.zip"):
        make_policy("some/run.zip")
    with pytest.raises(ValueError, match=r"unknown policy 'net.npz' \(an alphazero network file is alphazero:path=FILE\)"):
        make_policy("net.npz")


@pytest.mark.parametrize("spec", ["alphazero:sims=0", "pretrained"])
def test_a_shipped_network_is_refused_on_rules_it_was_not_trained_for_before_the_first_move(spec):
    # Kalah with 3 seeds has the board of the default rules: alphazero's network used to play it
    # blind. prepare() refuses it before a game starts; act() refuses it too.
    game, policy = make_game("kalah", seeds=3), make_policy(spec)
    with pytest.raises(ValueError, match=r"was trained for kalah \{'pits': 6, 'seeds': 4.*but is used on kalah "
                                         r"\{'pits': 6, 'seeds': 3"):
        policy.prepare(game)
    with pytest.raises(ValueError, match="but is used on kalah"):
        policy.act(game, game.init())
    kalah = make_game("kalah")
    policy.prepare(kalah)  # its own rules
    assert kalah.legal_mask(kalah.init())[policy.act(kalah, kalah.init())]


# -- the "turns" observation's whole-turn feature against plain Python ----------------------

def best_turn_margin(game, state, mover, chain):
    """The mover's best store margin at the end of the turn, following up to ``chain`` more moves."""
    scores = game.scores(state)
    if game.to_move(state) != mover or chain == 0:
        return scores[mover] - scores[1 - mover]
    values = []
    for pit in np.flatnonzero(game.legal_mask(state)):
        child = state.copy()
        game.apply(child, int(pit))
        values.append(best_turn_margin(game, child, mover, chain - 1))
    return max(values)


@pytest.mark.parametrize("name, params", [(name, params) for name, params in GAMES
                                          if make_game(name, **params).actions == make_game(name, **params).pits])
def test_turn_feature_is_the_best_margin_over_the_whole_turn(name, params):
    # (a game whose moves name their way has no per-pit encodings: test_properties checks the refusal)
    from mancala_marl import observations

    game = make_game(name, **params)
    per_pit = observations.MOVE_FEATURES + 1
    for state in positions(game, 25, seed=7):
        mover = game.to_move(state)
        scores = game.scores(state)
        turn = observations.encode(game, state, mover, "turns")[-game.pits * per_pit:].reshape(game.pits, per_pit)
        for pit in range(game.pits):
            expected = 0.0
            if game.legal_mask(state)[pit]:
                child = state.copy()
                game.apply(child, pit)
                best = best_turn_margin(game, child, mover, observations.TURN_CHAIN)
                expected = (best - (scores[mover] - scores[1 - mover])) / observations.MOVE_SCALE
            assert turn[pit, -1] == pytest.approx(expected), (name, state, pit)
        # the best move's value is what a one-turn alpha-beta search finds, chain for chain
        value = make_policy("alphabeta", depth=1, max_chain=observations.TURN_CHAIN, tt_bits=0)
        value.act(game, state)
        assert turn[game.legal_mask(state).astype(bool), -1].max() * observations.MOVE_SCALE == pytest.approx(
            value.last_value - (scores[mover] - scores[1 - mover]))
