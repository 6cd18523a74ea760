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
  A step on a truncated game, as on a terminated one, changes nothing and rewards nothing.
- ``id`` is the registry name (``"kalah"``): not one of Pgx's ``EnvId`` literals, which name only
  Pgx's own games.
"""

from __future__ import annotations

import functools
import itertools

import jax
import jax.numpy as jnp
import numpy as np
import pgx.core as core
from pgx._src.struct import dataclass, field

from mancala_marl.errors import BadInput
from ..games.base import GAME_OVER, MAX_MOVES, Game, check_max_moves
from ..observations import MOVE_FEATURES, MOVE_SCALE, PER_PIT, TURN_CHAIN, _size, check_obs_type
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
            raise BadInput(f"obs_type must be one of {list(OBS_TYPES)} for the JAX environments, got {obs_type!r}")
        if reward not in REWARDS:
            raise BadInput(f"reward must be one of {list(REWARDS)}, got {reward!r}")
        check_obs_type(game, obs_type)  # each pit's move features: not where a move also names its way
        check_max_moves(max_moves)
        self.game, self.rules = game, rules
        self.obs_type, self.reward_type, self.max_moves = obs_type, reward, int(max_moves)
        # actions: the pits, or (a game whose move names its way) twice as many
        self._pits, self._actions, self._cells, self._to = game.pits, game.actions, game.board_size, game.to_move_index
        self._stores = jnp.array([game.pits, 2 * game.pits + 1])
        start = game.init()  # (one draw of a random start: the board thrown-away moves are played on)
        self._init_board = jnp.asarray(start)
        # the numba kernel itself, not game.legal_mask: tests/jax reroutes that method to this class
        self._init_legal = np.empty(game.actions, np.bool_)
        type(game).legal_kernel(start, game.spec, self._init_legal)
        self._obs_size = _size(game, obs_type)
        self._sequences = jnp.asarray(list(itertools.product(range(game.actions), repeat=TURN_CHAIN)), jnp.int32)

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

    @property
    def num_actions(self) -> int:
        return self._actions  # Pgx's default plays init() to find out

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (self._obs_size,)

    def _init(self, key=None) -> State:
        # player_0 always moves first, as in the rules and the CPU engines; the key draws a random start
        board = self._init_board if self.rules.init is None else self.rules.init(key)
        return self._state(board, jnp.int32(0))

    def step(self, state: State, action, key=None) -> State:
        """Pgx's ``Env.step``: one move, or nothing in a finished game, or the mover's loss for an
        illegal action, an out-of-range one included (see the module docstring). Written out
        rather than through Pgx's nested ``lax.cond``, which under ``vmap`` computes and selects
        every field of every branch."""
        del key  # the rules have no chance element
        action = jnp.asarray(action, jnp.int32)
        pit = jnp.clip(action, 0, self._actions - 1)
        done = state.terminated | state.truncated
        illegal = ~done & ((action != pit) | ~state.legal_action_mask[pit])
        moves = ~done & ~illegal
        # Rules.apply assumes a legal move; the rows that do not move play one anyway under vmap,
        # so they play a legal one, thrown away: a finished game's mask is all True and pit 0 is
        # legal at the start.
        if self.rules.apply_if is not None:
            board = self.rules.apply_if(state._board, pit, moves)
        else:
            base = jnp.where(state.terminated, self._init_board, state._board)
            after = self.rules.apply(base, jnp.where(moves, pit, jnp.argmax(state.legal_action_mask)))
            board = jnp.where(moves, after, state._board)
        over = board[self._to] == GAME_OVER
        terminated = state.terminated | illegal | (moves & over)
        count = state._step_count + ~done
        if self.reward_type == "score_diff":
            gain = board[self._stores] - state._board[self._stores]
            rewards = (jnp.array([1, -1]) * (gain[0] - gain[1])).astype(jnp.float32)
        else:
            rewards = self.returns(board)
        loss = self._step_with_illegal_action(state, state.current_player).rewards  # Pgx's penalty
        state = state.replace(
            current_player=jnp.where(moves, jnp.where(over, 1 - state.current_player, board[self._to]),
                                     state.current_player),
            rewards=jnp.where(moves, rewards, jnp.where(illegal, loss, 0.0)).astype(jnp.float32),
            terminated=terminated,
            truncated=state.truncated | (moves & ~over & (count >= self.max_moves)),
            # Pgx: every action is legal in a finished game (it changes nothing), so that a policy's
            # probabilities normalised over the mask never divide by zero
            legal_action_mask=self.rules.legal(board) | terminated,
            _step_count=count, _board=board)
        return state.replace(observation=self.observe(state))

    def _step(self, state: State, action, key=None) -> State:
        """Pgx's hook for the move itself; :meth:`step` does all of it."""
        return self.step(state, action, key)

    def _observe(self, state: State, player_id) -> jax.Array:
        return self.encode(state._board, jnp.asarray(player_id, jnp.int32))

    @functools.cached_property
    def from_boards(self):
        """A jitted (boards int32[n, state_size], num_moves int32[]) -> State batch: the states
        holding numba flat states (checked by the caller), ``num_moves`` moves into the game."""
        def one(board, num_moves):
            state = self._state(board, jnp.maximum(board[self._to], 0))
            state = state.replace(_step_count=num_moves, truncated=~state.terminated & (num_moves >= self.max_moves))
            return state.replace(observation=self.observe(state))

        return jax.jit(jax.vmap(one, (0, None)))

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
        """Every action played from ``board``: (legal mask, (actions, state_size) boards)."""
        legal = self.rules.legal(board)
        return legal, jax.vmap(self.play, (None, 0, None))(board, jnp.arange(self._actions), legal)

    def returns(self, board):
        """+1/-1/0 per player (more seeds in the store wins, or the rules' own returns) once the
        game is over, zeros before."""
        if self.rules.returns is not None:
            return self.rules.returns(board)
        sign = jnp.sign(board[self._stores[0]] - board[self._stores[1]]).astype(jnp.float32)
        return jnp.where(board[self._to] == GAME_OVER, jnp.array([1.0, -1.0]) * sign, jnp.zeros(2, jnp.float32))

    def _margin(self, board, player):
        return board[self._stores[player]] - board[self._stores[1 - player]]

    # -- observations, as mancala_marl.observations.encode_row writes them ------------------------------
    def encode(self, board, player):
        """``player``'s ``obs_type`` observation of the flat state ``board`` (float32)."""
        if self.obs_type == "paper":
            pits = self._pits
            own, theirs = board[:pits], board[pits + 1:2 * pits + 1]
            return jnp.where(player == 0, jnp.concatenate([own, theirs]),
                             jnp.concatenate([theirs, own])).astype(jnp.float32)
        counts = self._counts(board, player)
        if self.obs_type == "counts":
            return counts
        return jnp.concatenate([counts, *self._move_features(board, player)])

    def _counts(self, board, player):
        half = self._pits + 1  # static slices and a select: XLA's CPU gathers cost more
        out = jnp.where(player == 0, board[:self._cells],
                        jnp.concatenate([board[half:self._cells], board[:half]])).astype(jnp.float32)
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
                    tenths(afters[:, own_store] - board[own_store]),
                    afters[:, to] == player,
                    afters[:, to] == GAME_OVER,
                    tenths(afters[:, their_pits].sum(1) - board[their_pits].sum()),
                    tenths(jax.vmap(replies_best)(afters))]
        if per_pit > MOVE_FEATURES:
            gain = jax.vmap(self._margin, (0, None))(afters, player) - self._margin(board, player)
            features.append(tenths(gain + jax.vmap(self._turn_gain, (0, None))(afters, player)))
        features = jnp.stack([jnp.asarray(f, jnp.float32) for f in features], axis=1)
        parts = [jnp.where(legal[:, None], features, 0.0).reshape(-1)]
        if self.obs_type == "afterstates":
            boards = jax.vmap(self._counts, (0, None))(afters, player)
            parts.append(jnp.where(legal[:, None], boards, 0.0).reshape(-1))
        return parts

    def _turn_gain(self, after, player):
        """observations.turn_gain: the most ``player``'s margin grows from ``after`` to the end of
        the turn, following up to TURN_CHAIN further moves of ``player``. Every sequence of
        TURN_CHAIN pits is played along (a scan, so the rules are compiled once, not once per
        depth); a sequence stops where the turn does, and one with an illegal pit before it stops
        counts for nothing. Costs pits ** TURN_CHAIN * TURN_CHAIN moves, with no pruning."""
        to = self._to

        def follow(pits):
            def move(carry, pit):
                board, going, valid = carry
                legal = self.rules.legal(board)
                child = self.play(board, pit, legal)
                valid = valid & (~going | legal[pit])
                board = jnp.where(going, child, board)
                going = going & (child[to] == player) & self.rules.legal(child).any()
                return (board, going, valid), None

            (leaf, _, valid), _ = jax.lax.scan(move, (after, jnp.bool_(True), jnp.bool_(True)), pits)
            return jnp.where(valid, self._margin(leaf, player), _LOW)

        best = jax.vmap(follow)(self._sequences).max() - self._margin(after, player)
        return jnp.where((after[to] == player) & self.rules.legal(after).any(), best, 0)


def tenths(x):
    """``x / MOVE_SCALE`` as float32, rounded as numpy rounds ``(x / 10.0).astype(float32)``, which
    the numba encoder writes: XLA's float32 division on CPU is off by an ulp for some integers.
    A table below ``_SMALL``; above, an exact integer part plus a fraction from a table, whose sum
    rounds once, as the exact quotient would."""
    x = jnp.asarray(x, jnp.int32)
    small = _SMALL_TENTHS[jnp.clip(x + _SMALL, 0, 2 * _SMALL)]
    large = (x // _SCALE).astype(jnp.float32) + _FRACTIONS[x % _SCALE]
    return jnp.where(jnp.abs(x) <= _SMALL, small, large)


_SCALE = int(MOVE_SCALE)
assert _SCALE == MOVE_SCALE, "tenths() needs a whole MOVE_SCALE"
_SMALL = 1024
_SMALL_TENTHS = jnp.asarray((np.arange(-_SMALL, _SMALL + 1) / MOVE_SCALE).astype(np.float32))
_FRACTIONS = jnp.asarray((np.arange(_SCALE) / MOVE_SCALE).astype(np.float32))
