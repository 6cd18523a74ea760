"""The JAX engine against the numba engine on every step of 5,000 random games per rule set: the
default rules and the two other example rule sets each game's rules file declares
(``Game.examples``), for every variant with a JAX rules file. The second example is played with
``reward="score_diff"``, the others with ``"result"``."""

import jax.numpy as jnp
import pytest

from mancala_marl.games import GAMES
from mancala_marl.jax import JAX_VARIANTS, examples, make
from mancala_marl.jax.crosscheck import Mismatch, crosscheck

GAMES_PER_RULE_SET = 5_000  # benchmarks/jax_crosscheck.py plays a million
# the family's rules read from a traced spec cost its JAX engine 10-100x a game's own on a CPU:
# tests/jax/test_family_jax.py plays it on many more rule sets instead
FAMILY_GAMES = 100
CASES = [(name, params, "score_diff" if i == 1 else "result")
         for name in JAX_VARIANTS for i, params in enumerate(examples(name))]


@pytest.mark.parametrize("name, params, reward", CASES,
                         ids=[f"{name}-{i % 3}-{reward}" for i, (name, _, reward) in enumerate(CASES)])
def test_every_step_matches_numba(name, params, reward):
    games = FAMILY_GAMES if name == "family" else GAMES_PER_RULE_SET
    totals = crosscheck(make(name, reward=reward, **params), games, seed=len(params))
    # every game played to its end (crosscheck stops when each has ended or been truncated)
    assert totals["games"] == games and totals["truncated"] == 0


def test_truncation_matches_the_move_limit():
    totals = crosscheck(make("kalah", max_moves=30), 2_000)
    assert 0 < totals["truncated"] < 2_000 and totals["longest"] == 30


def test_a_difference_is_reported():
    # the check itself: Kalah's JAX rules with one seed fewer sown are caught at once
    env = make("kalah", pits=3, seeds=2)
    apply = env.rules.apply
    env.rules = env.rules._replace(apply=lambda flat, pit: apply(flat, pit).at[0].add(jnp.int32(flat[3] > 100)))
    assert crosscheck(env, 10)["games"] == 10  # a change that never fires goes unseen, rightly
    env = make("kalah", pits=3, seeds=2)
    env.rules = env.rules._replace(apply=lambda flat, pit: apply(flat, pit).at[3].add(-jnp.int32(flat[3] > 1)))
    with pytest.raises(Mismatch, match=r"flat state JAX \["):
        crosscheck(env, 10)
