"""The hand-worked rule examples of tests/test_<variant>.py, replayed on the JAX engine: their test
functions are collected here again, with ``Game.apply_fast``, ``Game.legal_mask_fast`` and
``observations.encode`` answered by the JAX rules and environment instead of the numba kernels
(a game's own encodings, such as Togyz Kumalak's ``tesauro``, which the JAX environments do not
offer, stay with numba). Every variant with a JAX rules file and a test module is covered."""

import functools
import importlib
import inspect

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from mancala_marl import observations
from mancala_marl.games import Game, IllegalMoveError
from mancala_marl.jax import JAX_VARIANTS, OBS_TYPES, make


@functools.lru_cache(maxsize=None)
def _engine(name, params, obs_type="counts"):
    env = make(name, obs_type=obs_type, **dict(params))
    return env, jax.jit(env.rules.apply), jax.jit(env.rules.legal), jax.jit(env.encode)


def _jax_engine(game):
    return _engine(game.name, tuple(game.params.items()))


def _legal_mask_fast(self, state):
    return np.asarray(_jax_engine(self)[2](jnp.asarray(state)))


def _apply_fast(self, state, action):
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        action = action.item()
    if isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_)) \
            and 0 <= action < self.pits and _legal_mask_fast(self, state)[action]:
        state[:] = np.asarray(_jax_engine(self)[1](jnp.asarray(state), jnp.int32(action)))
        return state
    raise IllegalMoveError(f"{self.name}: {self.illegal_reason(state, action)}")


_numba_encode = observations.encode


def _encode(game, state, player, obs_type="counts"):
    if obs_type not in OBS_TYPES:
        return _numba_encode(game, state, player, obs_type)
    encode = _engine(game.name, tuple(game.params.items()), obs_type)[3]
    return np.asarray(encode(jnp.asarray(state), jnp.int32(player)))


@pytest.fixture(autouse=True)
def jax_rules(monkeypatch):
    monkeypatch.setattr(Game, "apply_fast", _apply_fast)
    monkeypatch.setattr(Game, "legal_mask_fast", _legal_mask_fast)
    monkeypatch.setattr(observations, "encode", _encode)


# The family's hand-worked examples are for every rule of it, most of which its JAX rules do not
# play yet (they refuse them): tests/jax/test_family_jax.py holds those to numba move for move instead.
REPLAYED = tuple(variant for variant in JAX_VARIANTS if variant != "family")

for _variant in REPLAYED:
    try:
        _module = importlib.import_module(f"tests.test_{_variant}")
    except ModuleNotFoundError:
        continue
    for _name, _test in vars(_module).items():
        if _name.startswith("test_") and inspect.isfunction(_test):
            globals()[f"test_{_variant}__{_name[5:]}"] = _test


def test_the_examples_of_every_variant_are_here():
    collected = {name.split("__")[0][5:] for name in globals() if "__" in name and name.startswith("test_")}
    assert collected == set(REPLAYED)


def test_the_moves_go_through_the_jax_rules():
    from mancala_marl.games import Kalah

    game = Kalah(pits=3, seeds=2)
    hits = _engine.cache_info().hits + _engine.cache_info().misses
    assert game.apply(game.init(), 1).tolist() == [2, 0, 3, 1, 2, 2, 2, 0, 0]
    assert _engine.cache_info().hits + _engine.cache_info().misses > hits  # the JAX engine answered
