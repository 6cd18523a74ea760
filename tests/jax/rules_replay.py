"""Helpers that hold a JAX rules file (``make_rules(game) -> Rules``) to the numba game it mirrors:
a numba game class whose moves and legal masks come from the JAX rules, so that the hand-worked
examples of tests/test_<game>.py replay on them unchanged, and a move-by-move differential run."""

import functools

import jax
import jax.numpy as jnp
import numpy as np

from mancala_marl import batch
from mancala_marl.games import IllegalMoveError


@functools.lru_cache(maxsize=None)
def _jitted(make_rules, game_cls, params):
    rules = make_rules(game_cls(**dict(params)))
    return jax.jit(rules.apply), jax.jit(rules.legal)


def jax_backed(game_cls, make_rules):
    """A subclass of ``game_cls`` that plays and checks legality with the JAX rules (the numba
    class keeps everything else: from_board, illegal_reason, scores). ``moves`` counts the moves
    and masks the JAX rules gave, so that a test can tell that they ran."""

    class JaxBacked(game_cls):
        moves = 0

        def _rules(self):
            return _jitted(make_rules, game_cls, tuple(sorted(self.params.items())))

        def legal_mask_fast(self, state):
            JaxBacked.moves += 1
            return np.asarray(self._rules()[1](state))

        def apply_fast(self, state, action):
            # Game.apply_fast's checks, with the JAX legal mask
            if isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_)) \
                    and 0 <= action < self.pits and self.legal_mask_fast(state)[action]:
                state[:] = np.asarray(self._rules()[0](jnp.asarray(state), jnp.int32(action)))
                return state
            raise IllegalMoveError(f"{self.name}: {self.illegal_reason(state, action)}")

    JaxBacked.__name__ = game_cls.__name__
    return JaxBacked


def random_games_match(game, rules, games: int, seed: int, max_moves: int = 5000) -> dict:
    """Play ``games`` random games at once on the numba batch engine and on the vmapped JAX
    ``rules``; after every move, the whole flat states, the legal masks and (if the game has them)
    the extra observation features of both players must be equal. Returns how many moves were
    compared and how the games ended, for the caller to check that the run met its rules."""
    to_move = game.board_size
    apply = jax.jit(jax.vmap(lambda flat, pit: jnp.where(flat[to_move] >= 0, rules.apply(flat, pit), flat)))
    legal = jax.jit(jax.vmap(rules.legal))
    extra = jax.jit(jax.vmap(rules.extra_obs, in_axes=(0, None))) if rules.extra_obs else None
    features = np.empty(game.pits * game.extra_features, dtype=np.float32)
    states = batch.init_states(game, games)
    rng = np.random.default_rng(seed)
    compared = 0
    for move in range(max_moves):
        mask = batch.legal_masks(game, states)
        np.testing.assert_array_equal(np.asarray(legal(states)), mask, err_msg=f"legal masks after move {move}")
        live = states[:, to_move] >= 0
        if extra is not None:
            for player in (0, 1):
                jax_features = np.asarray(extra(states, jnp.int32(player)))
                for row in np.flatnonzero(live)[:64]:
                    game.extra_obs_kernel(states[row], player, game.spec, features)
                    np.testing.assert_array_equal(jax_features[row], features)
        if not live.any():
            return {"moves": compared, "states": states}
        actions = (rng.random(mask.shape) * mask).argmax(1)
        after = np.asarray(apply(states, jnp.asarray(actions, dtype=jnp.int32)))
        batch.apply_moves(game, states, actions)
        wrong = np.flatnonzero((after != states).any(1))
        assert not len(wrong), (f"{game!r}, move {move}: JAX state {after[wrong[0]].tolist()} where numba has "
                                f"{states[wrong[0]].tolist()}")
        compared += int(live.sum())
    raise AssertionError(f"{game!r}: games still running after {max_moves} moves")
