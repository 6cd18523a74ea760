"""Policies behind one small interface (:class:`Policy`), looked up by name with :func:`make_policy`.

Built in: ``random``, ``max``, ``exact``, ``simple`` (:mod:`mancala_marl.agents.rules`), ``greedy``,
``alphabeta``, ``solver`` (:mod:`mancala_marl.agents.alphabeta`), ``perfect``
(:mod:`mancala_marl.agents.perfect`), ``alphazero``
(:mod:`mancala_marl.agents.alphazero`), ``model`` and ``pretrained`` (:mod:`mancala_marl.agents.learned`,
which imports torch only when a network is loaded). Other modules of this package, and packages
declaring a ``mancala_marl.policies`` entry point, may register more: :func:`make_policy` imports
them the first time it meets a name it does not know.
"""

from mancala_marl._compile import drop_stale_cache

drop_stale_cache(__name__, depends_on=("mancala_marl", "mancala_marl.games"))  # before the search kernels load

# ruff: noqa: E402
# Registers the built-in policies. None of these imports torch (learned.py only when a model is
# loaded), so make_policy("alphazero") need not look through the modules that do.
from . import alphabeta, alphazero, learned, perfect, rules  # noqa: F401
from .base import (
           POLICIES,
           Policy,
           RandomPolicy,
           check_policies,
           check_seed,
           make_policy,
           parse_policy_spec,
           register_policy,
           split_policy_specs,
)
from .rules import ExactPolicy, MaxPolicy, SimplePolicy
from .alphabeta import AlphaBetaPolicy, GreedyPolicy, SolverPolicy

__all__ = ["POLICIES", "AlphaBetaPolicy", "ExactPolicy", "GreedyPolicy", "MaxPolicy", "Policy", "RandomPolicy",
           "SimplePolicy", "SolverPolicy", "check_policies", "check_seed", "make_policy", "parse_policy_spec", "register_policy",
           "split_policy_specs"]
