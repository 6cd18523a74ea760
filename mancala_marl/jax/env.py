"""One Pgx environment for every variant with a JAX rules file: :class:`MancalaEnv`.

The board is the numba engine's flat int32 state (:mod:`mancala_marl.games.base`), kept whole in
``State._board``, so a position converts to and from the CPU engines by a copy. Conventions, where
Pgx's own games would differ or the rules leave a choice:

- ``current_player`` is the player the rules say moves next (the same one after an extra turn,
  the other one after a pass), player_0 first: the key of ``init`` is not used (Pgx's two-player
  games draw the first seat). Once the game is over it is the player who did not make the last
  move, as the PettingZoo environments' ``agent_selection``.
- An illegal action, an out-of-range one included, ends the game with -1 for the mover and +1 for
  the other (Pgx's ``_step_with_illegal_action``); the board is left as it was. Pgx's own
  ``Env.step`` reads the mask at a clamped index, which would play a pit for an out-of-range action.
- ``rewards``: ``"result"`` +1/-1/0 at the end; ``"score_diff"`` after every move each player's
  store gain minus the other's, the end-of-game sweep included (as the AEC environments).
- ``truncated`` once ``max_moves`` moves are played without an end (the AEC environments' limit).
- ``id`` is the registry name (``"kalah"``): not one of Pgx's ``EnvId`` literals, which name only
  Pgx's own games.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pgx.core as core
from pgx._src.struct import dataclass, field

from ..games.base import GAME_OVER, MAX_MOVES, Game, check_max_moves
from ..observations import MOVE_FEATURES, MOVE_SCALE, PER_PIT, TURN_CHAIN, _size
from .rules import Rules

OBS_TYPES = ("counts", "paper", "moves", "turns", "afterstates")
REWARDS = ("result", "score_diff")
_LOW = -(1 << 30)  # below any margin a move can make: the empty max of turn_gain


@dataclass
class State(core.State):
    current_player: jax.Array
    observation: jax.Array
    rewards: jax.Array
    terminated: jax.Array
    truncated: jax.Array
    legal_action_mask: jax.Array
    _step_count: jax.Array
    _board: jax.Array  # the numba engine's flat int32 state: board, TO_MOVE, the game's own slots
    _env_id: str = field(pytree_node=False, default="")

    @property
    def env_id(self) -> str:
        return self._env_id


class MancalaEnv(core.Env):
    """A Mancala game with Pgx's ``Env`` API (``init``, ``step``, ``observe``).

    Args:
        game: the numba :class:`Game` whose rules ``rules`` computes (its parameters, sizes).
        rules: the game's JAX rules (``mancala_marl.jax.<variant>.make_rules(game)``).
        obs_type: ``"counts"``, ``"paper"``, ``"moves"``, ``"turns"`` or ``"afterstates"``, laid out
            as :mod:`mancala_marl.observations` lays them out, from the observer's side.
        reward: ``"result"`` or ``"score_diff"`` (see the module docstring).
        max_moves: moves after which a game is truncated.
    """

    def __init__(self, game: Game, rules: Rules, obs_type: str = "counts", reward: str = "result",
                 max_moves: int = MAX_MOVES):
        super().__init__()
        if obs_type not in OBS_TYPES:
            raise ValueError(f"obs_type must be one of {list(OBS_TYPES)} for the JAX environments, got {obs_type!r}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {list(REWARDS)}, got {reward!r}")
        check_max_moves(max_moves)
        self.game, self.rules = game, rules
        self.obs_type, self.reward_type, self.max_moves = obs_type, reward, int(max_moves)
        self._pits, self._cells, self._to = game.pits, game.board_size, game.to_move_index
        self._stores = jnp.array([game.pits, 2 * game.pits + 1])
        self._init_board = jnp.asarray(game.init())
        self._init_legal = jnp.asarray(game.legal_mask(game.init()))
        self._obs_size = _size(game, obs_type)

    # -- Pgx's Env -------------------------------------------------------------------------------
    @property
    def id(self) -> str:
        return self.game.name

    @property
    def version(self) -> str:
        return "v0"

    @property
    def num_players(self) -> int:
        return 2

    def _init(self, key=None) -> State:
        del key  # player_0 always moves first, as in the rules and the CPU engines
        return self._state(self._init_board, jnp.int32(0))

    def step(self, state: State, action, key=None) -> State:
        """Pgx's ``Env.step``, with an out-of-range action counted as illegal (see the module docstring)."""
        action = jnp.asarray(action, jnp.int32)
        pit = jnp.clip(action, 0, self._pits - 1)
        done = state.terminated | state.truncated
        illegal = ~done & ((action != pit) | ~state.legal_action_mask[pit])
        counted = state.replace(_step_count=state._step_count + 1)
        state = jax.lax.cond(
            done,
            lambda: state.replace(rewards=jnp.zeros_like(state.rewards)),
            lambda: jax.lax.cond(illegal,
                                 lambda: self._step_with_illegal_action(counted, state.current_player),
                                 lambda: self._step(counted, pit, key)))
        # Pgx: every action is legal in a finished game (it changes nothing), so that a policy's
        # probabilities normalised over the mask never divide by zero.
        state = state.replace(legal_action_mask=state.legal_action_mask | state.terminated)
        return state.replace(observation=self.observe(state))

    def _step(self, state: State, pit, key=None) -> State:
        del key  # the rules have no chance element
        board = state._board
        after = self.play(board, pit, state.legal_action_mask)
        terminated = after[self._to] == GAME_OVER
        mover = board[self._to]
        if self.reward_type == "score_diff":
            gain = after[self._stores] - board[self._stores]
            rewards = (jnp.array([1, -1]) * (gain[0] - gain[1])).astype(jnp.float32)
        else:
            rewards = self.returns(after)
        new = self._state(after, jnp.where(terminated, 1 - mover, after[self._to]))
        return new.replace(rewards=rewards, _step_count=state._step_count,
                           truncated=~terminated & (state._step_count >= self.max_moves))

    def _observe(self, state: State, player_id) -> jax.Array:
        return self.encode(state._board, jnp.asarray(player_id, jnp.int32))

    def _state(self, board, current_player) -> State:
        terminated = board[self._to] == GAME_OVER
        legal = self.rules.legal(board)
        return State(current_player=jnp.int32(current_player),
                     observation=jnp.zeros(self._obs_size, jnp.float32),
                     rewards=jnp.zeros(2, jnp.float32), terminated=terminated, truncated=jnp.bool_(False),
                     legal_action_mask=legal | terminated, _step_count=jnp.int32(0),
                     _board=jnp.asarray(board, jnp.int32), _env_id=self.game.name)

    # -- the rules, made total -----------------------------------------------------------------------
    def play(self, board, pit, legal):
        """``board`` after ``pit`` where ``legal[pit]`` (``legal``: ``rules.legal(board)``), else
        ``board`` unchanged. Rules.apply assumes a legal move, and under ``vmap`` every branch runs:
        an illegal pit or a finished game is replaced by a legal move of a live position, whose
        result is then thrown away, so that no rules file sows from an empty pit or a finished board."""
        live = legal.any()
        base = jnp.where(live, board, self._init_board)
        ok = legal[pit]
        move = jnp.where(ok, pit, jnp.argmax(jnp.where(live, legal, self._init_legal)))
        return jnp.where(ok, self.rules.apply(base, move), board)

    def _children(self, board):
        """Every pit played from ``board``: (legal mask, (pits, state_size) boards)."""
        legal = self.rules.legal(board)
        return legal, jax.vmap(self.play, (None, 0, None))(board, jnp.arange(self._pits), legal)

    def returns(self, board):
        """+1/-1/0 per player (more seeds in the store wins) once the game is over, zeros before."""
        sign = jnp.sign(board[self._stores[0]] - board[self._stores[1]]).astype(jnp.float32)
        return jnp.where(board[self._to] == GAME_OVER, jnp.array([1.0, -1.0]) * sign, jnp.zeros(2, jnp.float32))

    def _margin(self, board, player):
        return board[self._stores[player]] - board[self._stores[1 - player]]

    # -- observations, as mancala_marl.observations.encode_row writes them ------------------------------
    def encode(self, board, player):
        """``player``'s ``obs_type`` observation of the flat state ``board`` (float32)."""
        if self.obs_type == "paper":
            shift = player * (self._pits + 1)
            k = jnp.arange(self._pits)
            return jnp.concatenate([board[(shift + k) % self._cells],
                                    board[(shift + self._pits + 1 + k) % self._cells]]).astype(jnp.float32)
        counts = self._counts(board, player)
        if self.obs_type == "counts":
            return counts
        return jnp.concatenate([counts, *self._move_features(board, player)])

    def _counts(self, board, player):
        shift = player * (self._pits + 1)
        out = board[(shift + jnp.arange(self._cells)) % self._cells].astype(jnp.float32)
        if self.game.extra_features:
            out = jnp.concatenate([out, self.rules.extra_obs(board, player).astype(jnp.float32)])
        return out

    def _move_features(self, board, player):
        """What each of ``player``'s pits does (observations' ``_move_features``): the features,
        flat, and for ``afterstates`` the counts encoding each pit leaves."""
        per_pit = PER_PIT[self.obs_type]
        to, pits = self._to, self._pits
        own_store, their_store = self._stores[player], self._stores[1 - player]
        their_pits = (1 - player) * (pits + 1) + jnp.arange(pits)
        legal, afters = self._children(board)
        legal = legal & (board[to] == player)

        def replies_best(after):
            reply_legal, replies = self._children(after)
            gains = jnp.where(reply_legal, replies[:, their_store] - after[their_store], 0)
            return jnp.where(after[to] == 1 - player, jnp.maximum(0, gains.max()), 0)

        features = [jnp.ones(pits),
                    (afters[:, own_store] - board[own_store]) / MOVE_SCALE,
                    afters[:, to] == player,
                    afters[:, to] == GAME_OVER,
                    (afters[:, their_pits].sum(1) - board[their_pits].sum()) / MOVE_SCALE,
                    jax.vmap(replies_best)(afters) / MOVE_SCALE]
        if per_pit > MOVE_FEATURES:
            gain = jax.vmap(self._margin, (0, None))(afters, player) - self._margin(board, player)
            features.append((gain + jax.vmap(self._turn_gain, (0, None))(afters, player)) / MOVE_SCALE)
        features = jnp.stack([jnp.asarray(f, jnp.float32) for f in features], axis=1)
        parts = [jnp.where(legal[:, None], features, 0.0).reshape(-1)]
        if self.obs_type == "afterstates":
            boards = jax.vmap(self._counts, (0, None))(afters, player)
            parts.append(jnp.where(legal[:, None], boards, 0.0).reshape(-1))
        return parts

    def _turn_gain(self, after, player):
        """observations.turn_gain: the most ``player``'s margin grows from ``after`` to the end of
        the turn, following up to TURN_CHAIN further moves of ``player``; every branch is played
        (no pruning under vmap), so this costs pits ** TURN_CHAIN moves."""
        base = self._margin(after, player)

        def best(board, depth):
            legal, kids = self._children(board)
            value = jax.vmap(self._margin, (0, None))(kids, player) - base
            if depth + 1 < TURN_CHAIN:
                goes_on = (kids[:, self._to] == player) & jax.vmap(self.rules.legal)(kids).any(1)
                value = jnp.where(goes_on, jax.vmap(best, (0, None))(kids, depth + 1), value)
            return jnp.where(legal, value, _LOW).max()

        starts = (after[self._to] == player) & self.rules.legal(after).any()
        return jnp.where(starts, best(after, 0), 0)


def board_array(state: State) -> np.ndarray:
    """The flat state(s) of ``state`` as a numpy int32 array (a batch keeps its leading axes)."""
    return np.asarray(state._board, dtype=np.int32)
