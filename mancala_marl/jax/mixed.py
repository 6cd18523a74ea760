"""Many games of the two-row family as one Pgx environment: :func:`make_mixed`.

Each row of a batch plays a game of ``games``, drawn at ``init``; its ``State.game`` is the index
of that game. One compiled step serves every row, the rules read from the row's spec
(:mod:`mancala_marl.jax.family`), so Pgx-style code (``auto_reset``, an ``mctx`` search, a
self-play loop) trains across the games unchanged. Conventions, beside
:class:`~mancala_marl.jax.env.MancalaEnv`'s (the same for rewards, illegal actions, truncation
and a finished game's mask):

- The flat state (``_board``) is the numba engine's, padded with zeros to the largest game's;
  ``num_actions`` is the most actions of any game, and a row's legal mask is False past its own.
- ``obs_type="counts"``: the observer's holes (padded to the largest row, from its left end),
  its store, the opponent's holes (padded the same), the opponent's store: ``2 * holes + 2``
  for the largest ``holes``. ``"rules"``: the family's own ``rules`` observation, as the numba
  environments write it (:mod:`mancala_marl.games.family_encoding`): the same counts padded to 16
  holes a row, then the row's rules encoded, so that one network can tell the games apart and
  play them in any environment.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pgx.core as core
from pgx._src.struct import dataclass

from mancala_marl.errors import BadInput
from ..games import Game, parse_game
from ..games.base import GAME_OVER, MAX_MOVES, check_max_moves
from ..games.family_encoding import RULES_HOLES, encode_rules
from ..games.family_start import start_state
from . import family
from .env import REWARDS, State

MIXED_OBS_TYPES = ("counts", "rules")


@dataclass
class MixedState(State):
    game: jax.Array = jnp.int32(0)  # the index in make_mixed's games of the game this row plays


def make_mixed(games, weights=None, obs_type: str = "rules", reward: str = "result",
               max_moves: int = MAX_MOVES) -> "MixedEnv":
    """One environment over ``games``: names (``"wari"``), command-line specs (``"wari:seeds=5"``)
    or :class:`Game` objects of the two-row family that its JAX rules play; ``init(key)`` draws
    one for each row, by ``weights`` (default: alike). ``obs_type``: ``"rules"`` or ``"counts"``
    (module doc); ``reward`` and ``max_moves`` as :func:`mancala_marl.jax.make` takes them.

    Raises ValueError naming a game that is not of the family or whose rules are not played yet,
    or bad weights."""
    return MixedEnv(games, weights, obs_type=obs_type, reward=reward, max_moves=max_moves)


class MixedEnv(core.Env):
    """Games of the two-row family in one Pgx ``Env`` (see the module doc and :func:`make_mixed`)."""

    def __init__(self, games, weights=None, obs_type: str = "rules", reward: str = "result",
                 max_moves: int = MAX_MOVES):
        super().__init__()
        if isinstance(games, (str, Game)) or not len(games):
            raise BadInput("make_mixed takes a list of games, e.g. ['wari', 'dakon', 'family:holes=5']")
        self.games = tuple(game if isinstance(game, Game) else parse_game(game) for game in games)
        for game in self.games:
            why = family.refusal(game)
            if why:
                raise BadInput(f"make_mixed: {why}")
        self.weights = self._weights(weights)
        if obs_type not in MIXED_OBS_TYPES:
            raise BadInput(f"obs_type must be one of {list(MIXED_OBS_TYPES)} for a mixed environment, got {obs_type!r}")
        if reward not in REWARDS:
            raise BadInput(f"reward must be one of {list(REWARDS)}, got {reward!r}")
        check_max_moves(max_moves)
        self.obs_type, self.reward_type, self.max_moves = obs_type, reward, int(max_moves)
        self._holes = max(game.pits for game in self.games)
        if obs_type == "rules" and self._holes > RULES_HOLES:
            raise BadInput(f"obs_type='rules' pads rows to {RULES_HOLES} holes; {self._holes} is too many: use 'counts'")
        self._padded = RULES_HOLES if obs_type == "rules" else self._holes
        self._actions = max(game.actions for game in self.games)
        self._size = max(game.state_size for game in self.games)
        self._head = family.head_size(self.games)
        self._specs = jnp.stack([family.spec_of(game) for game in self.games])
        starts = np.zeros((len(self.games), self._size), np.int32)
        for i, game in enumerate(self.games):
            starts[i, :game.state_size] = start_state(game)  # (a random start: each hole's floor, filled by _init)
        self._starts = jnp.asarray(starts)
        self._first_moves = jnp.asarray([int(np.argmax(game.legal_mask(start[:game.state_size])))
                                         for game, start in zip(self.games, starts)], jnp.int32)
        self._random_seeds = max(family.random_seeds(game) for game in self.games)  # 0: no random start
        self._rules = jnp.asarray(np.stack([encode_rules(game) for game in self.games]))

    def _weights(self, weights):
        if weights is None:
            return jnp.full(len(self.games), 1.0 / len(self.games))
        weights = np.asarray(weights, np.float64)
        if weights.shape != (len(self.games),) or (weights < 0).any() or not weights.sum() > 0:
            raise BadInput(f"weights must be {len(self.games)} numbers >= 0, not all 0, one a game; got "
                           f"{np.asarray(weights).tolist()}")
        return jnp.asarray(weights / weights.sum(), jnp.float32)

    # -- Pgx's Env ---------------------------------------------------------------------------------
    @property
    def id(self) -> str:
        return "family-mixed"

    @property
    def version(self) -> str:
        return "v0"

    @property
    def num_players(self) -> int:
        return 2

    @property
    def num_actions(self) -> int:
        return self._actions

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (2 * self._padded + 2 + (self._rules.shape[1] if self.obs_type == "rules" else 0),)

    def _init(self, key=None) -> MixedState:
        game = jax.random.choice(key, len(self.games), p=self.weights).astype(jnp.int32)
        board = self._starts[game]
        spec = self._specs[game]
        if self._random_seeds:  # a game of random starts draws its own
            board = family.random_start(jax.random.fold_in(key, 1), board, spec, self._random_seeds, self._actions)
        to_move = board[2 * spec[1] + 2]
        terminated = to_move == GAME_OVER
        return MixedState(current_player=jnp.maximum(to_move, 0), observation=jnp.zeros(self.observation_shape, jnp.float32),
                          rewards=jnp.zeros(2, jnp.float32), terminated=terminated, truncated=jnp.bool_(False),
                          legal_action_mask=family.legal(board, spec, self._actions, self._head) | terminated,
                          _step_count=jnp.int32(0), _board=board, _env_id=self.id, game=game)

    def step(self, state: MixedState, action, key=None) -> MixedState:
        """One move, or nothing in a finished game, or the mover's loss for an illegal action
        (as :meth:`MancalaEnv.step <mancala_marl.jax.env.MancalaEnv.step>`)."""
        del key
        spec = self._specs[state.game]
        holes = spec[1]
        to, stores = 2 * holes + 2, jnp.stack([holes, 2 * holes + 1])
        action = jnp.asarray(action, jnp.int32)
        pit = jnp.clip(action, 0, self._actions - 1)
        done = state.terminated | state.truncated
        illegal = ~done & ((action != pit) | ~state.legal_action_mask[pit])
        moves = ~done & ~illegal
        # a row that does not move plays its game's first move from its start, thrown away: no step
        # sows from a finished board (and no second legal mask is computed to find a move)
        base = jnp.where(moves, state._board, self._starts[state.game])
        after = family.apply(base, jnp.where(moves, pit, self._first_moves[state.game]), spec, self._actions,
                             self._head)
        board = jnp.where(moves, after, state._board)
        over = board[to] == GAME_OVER
        terminated = state.terminated | illegal | (moves & over)
        count = state._step_count + ~done
        if self.reward_type == "score_diff":
            gain = board[stores] - state._board[stores]
            rewards = (jnp.array([1, -1]) * (gain[0] - gain[1])).astype(jnp.float32)
        else:
            rewards = family.returns(board, spec)
        loss = self._step_with_illegal_action(state, state.current_player).rewards  # Pgx's penalty
        state = state.replace(
            current_player=jnp.where(moves, jnp.where(over, 1 - state.current_player, board[to]), state.current_player),
            rewards=jnp.where(moves, rewards, jnp.where(illegal, loss, 0.0)).astype(jnp.float32),
            terminated=terminated,
            truncated=state.truncated | (moves & ~over & (count >= self.max_moves)),
            legal_action_mask=family.legal(board, spec, self._actions, self._head) | terminated,
            _step_count=count, _board=board)
        return state.replace(observation=self.observe(state))

    def _step(self, state, action, key=None):
        return self.step(state, action, key)

    def _observe(self, state: MixedState, player_id) -> jax.Array:
        holes = self._specs[state.game][1]
        player = jnp.asarray(player_id, jnp.int32)
        hole = jnp.arange(self._padded)

        def row(side):
            cells = side * (holes + 1) + hole
            return jnp.where(hole < holes, state._board[jnp.clip(cells, 0, self._size - 1)], 0)

        counts = jnp.concatenate([row(player), state._board[player * (holes + 1) + holes][None],
                                  row(1 - player), state._board[(1 - player) * (holes + 1) + holes][None]])
        counts = counts.astype(jnp.float32)
        if self.obs_type == "rules":
            return jnp.concatenate([counts, self._rules[state.game]])
        return counts
