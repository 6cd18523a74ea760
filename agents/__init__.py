"""Policies behind one small interface (:class:`Policy`), looked up by name with :func:`make_policy`."""

from .base import POLICIES, Policy, RandomPolicy, make_policy, register_policy

__all__ = ["POLICIES", "Policy", "RandomPolicy", "make_policy", "register_policy"]
