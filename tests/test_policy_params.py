"""Every policy parameter's declared range, checked in one place (the registered constructor), and
a deep search without a time limit that says it will be slow."""

import inspect
import re
import warnings

import pytest
from numba import NumbaWarning

from mancala_marl import make_game
from mancala_marl.agents import POLICIES, alphabeta, make_policy
from mancala_marl.agents.base import _discover


def test_every_registered_policy_declares_each_parameter_it_takes_with_its_default():
    _discover()
    for name, cls in POLICIES.items():
        taken = {key: p.default for key, p in inspect.signature(cls).parameters.items()
                 if key not in cls.python_only and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
        declared = {param.name: param.default for param in cls.parameters}
        assert declared == taken, name


@pytest.mark.parametrize("spec, message", [
    # a numba traceback (int64 overflow) before
    ("alphabeta:depth=" + "9" * 40, "depth must be an integer >= 1 and <= 512 (turns), got " + "9" * 40),
    # wrapped round to a negative depth before, silently
    (f"alphabeta:depth={2**63}", f"depth must be an integer >= 1 and <= 512 (turns), got {2**63}"),
    ("alphabeta:depth=2.5", "depth must be an integer >= 1 and <= 512 (turns), got 2.5"),
    ("alphabeta:time_limit=1e400", "time_limit must be a number >= 0.001 and <= 3600 (seconds per move) or None, "
                                   "got inf"),
    ("greedy:max_chain=-1", "max_chain must be an integer >= 0 and <= 2**30 (free moves per turn; 2**30: no "
                            "bound), got -1"),
    ("solver:tt_bits=31", "tt_bits must be an integer >= 0 and <= 30"),
    ("solver:max_seeds=0", "max_seeds must be an integer >= 1 and <= 2**31 - 1"),
    ("alphazero:sims=10000000000", "sims must be an integer >= 0 and <= 1000000"),
    ("alphazero:time=3600", "time must be a number >= 0.001 and <= 60 (seconds per move, instead of sims) or None"),
    ("alphazero:c_puct=0", "c_puct must be a number >= 0.001 and <= 1000"),
    ("model:runs/x.zip,epsilon=1.5", "epsilon must be a number >= 0 and <= 1 (chance of a random legal move "
                                     "instead), got 1.5"),
    ("pretrained:kind=best", "kind must be one of ['scratch', 'distilled'] (how the network was trained; default: "
                             "scratch where shipped) or None, got 'best'"),
    ("random:seed=-1", "seed must be an integer from 0 to 2**32 - 1, got -1"),
])
def test_a_value_outside_its_range_is_refused_naming_the_parameter_the_value_and_the_range(spec, message):
    with pytest.raises(ValueError, match="^" + re.escape(message)):
        make_policy(spec)


def test_the_range_holds_for_the_classes_themselves_not_only_for_specs():
    with pytest.raises(ValueError, match="depth must be an integer >= 1 and <= 512"):
        alphabeta.AlphaBetaPolicy(depth=10**40)
    with pytest.raises(ValueError, match=r"max_chain must be an integer >= 0 and <= 2\*\*30"):
        alphabeta.GreedyPolicy(max_chain=2**62)
    assert alphabeta.SolverPolicy().depth == alphabeta.UNBOUNDED  # its own unbounded search is no user's value


def test_a_deep_search_without_time_limit_says_it_will_be_slow(monkeypatch):
    monkeypatch.setattr(alphabeta, "SLOW_MOVE", 0.5)  # so that the test need not wait a minute
    game = make_game("sungka")
    policy = make_policy("alphabeta:depth=30,nodes=None")  # a node budget bounds the move: nothing to say
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # stops the search at the warning
        warnings.filterwarnings("ignore", category=NumbaWarning)  # numba's, compiling: not the point here
        with pytest.raises(UserWarning, match=r"^alphabeta:depth=30,nodes=None without time_limit: depth \d+ took .* s and each "
                                              r"turn deeper about \d+ times as long, so this move may take more than "
                                              r"0\.5 s; give time_limit=SECONDS to bound each move$"):
            policy.act(game, game.init())
    monkeypatch.undo()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", category=NumbaWarning)
        make_policy("alphabeta:depth=4").act(game, game.init())  # quick: nothing to say
        make_policy("alphabeta:depth=30").act(game, game.init())  # within its nodes: nothing to say
        make_policy("alphabeta:depth=30,time_limit=0.2").act(game, game.init())  # bounded: nothing to say
