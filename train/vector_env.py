"""A Stable-Baselines3 ``VecEnv`` that steps N single-agent games in one compiled call.

``MancalaVecEnv(num_envs, game, opponent, seat, reward, obs_type, ...)`` is a drop-in for
``DummyVecEnv([lambda: SingleAgentEnv(...)] * N)`` when the opponent is one of the rule-based
policies ``"random"``, ``"max"``, ``"exact"`` or ``"greedy"``: same observations, rewards, dones
and infos (``terminal_observation`` and ``TimeLimit.truncated`` included), move for move under the
same seeds (``tests/test_vector.py``). The learner's move and every opponent reply run in numba;
only episode resets (seat and opponent seed draws) and the info dicts are built in Python.

``restart_prob > 0`` adds a curriculum that ``SingleAgentEnv`` does not have (so the move-for-move
match holds only without it): an episode against a deterministic opponent (max, exact, greedy)
starts, with that probability, from a position where the learner was to move in a game it did
not win against that same opponent (:class:`RestartPool`). Those games replay exactly as long as
the learner plays as before, so these are the positions where another move can change the
result. The pool lives in the env, not in checkpoints: a resumed run fills it again from its new
games.

``env_method("action_masks")`` returns the N learner masks, so sb3-contrib's ``MaskablePPO``
uses the env as it is::

    from sb3_contrib import MaskablePPO
    from mancala_marl.train.vector_env import MancalaVecEnv
    env = MancalaVecEnv(64, "sungka", opponent="max", seat="random", reward="score_diff")
    MaskablePPO("MlpPolicy", env, n_steps=64).learn(100_000)

Needs ``stable-baselines3`` (the ``train`` extra). An illegal action is a forfeit, as in
:class:`mancala_marl.single_agent.SingleAgentEnv`. The opponents are the compiled kernels of the
policies themselves (:mod:`mancala_marl.agents.rules`, :func:`mancala_marl.agents.alphabeta.greedy_pit`).
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding

from mancala_marl import batch, observations
from mancala_marl._compile import kernel
from mancala_marl.agents.alphabeta import greedy_pit
from mancala_marl.agents.pcg64 import pcg64_row
from mancala_marl.agents.rules import exact_pit, max_pit, random_pit
from mancala_marl.errors import BadInput
from mancala_marl.extras import require
from mancala_marl.games import MAX_MOVES, Game, make_game
from mancala_marl.games.base import GAME_OVER, SPEC_PITS, SPEC_SEEDS, action_count, check_max_moves, margin
from mancala_marl.games.dispatch import apply_move, legal_moves
from mancala_marl.limits import check_count
from mancala_marl.search_core import MAX_PLY, new_counters
from mancala_marl.single_agent import check_opening, no_episode, opening_tries, random_opening

try:  # SB3 is all this module needs of the [train] extra
    from stable_baselines3.common.vec_env.base_vec_env import VecEnv
except ImportError:  # one line naming the extra, not a bare ModuleNotFoundError
    require("train", "mancala_marl.train.vector_env (an SB3 VecEnv)")
    raise

OPPONENTS = {"random": 0, "max": 1, "exact": 2, "greedy": 3}
SEATS = ("first", "second", "random")
REWARDS = ("result", "score_diff")
DETERMINISTIC = frozenset({OPPONENTS["max"], OPPONENTS["exact"], OPPONENTS["greedy"]})
TRAIL = 256  # learner positions recorded per game for the restart pool (the rest of a longer game is not)


def check_restarts(restart_prob, opponents: list[str]) -> None:
    """ValueError unless ``restart_prob`` is a probability that ``opponents`` (known names) can use."""
    restart_prob = check_count("share", restart_prob, "restart_prob")
    if restart_prob > 0 and not DETERMINISTIC & {OPPONENTS[name] for name in opponents}:
        raise BadInput(f"restart_prob restarts games against max, exact or greedy only; the opponents are {opponents}")


class RestartPool:
    """A ring of ``capacity`` learner positions (state, seat, moves played) per opponent, taken
    from games the learner did not win; the oldest go first, so the pool follows the learner."""

    def __init__(self, capacity: int, state_size: int):
        self.capacity, self.state_size = check_count("positions", capacity, "restart_capacity"), state_size
        self._rings: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self._size: dict[int, int] = {}
        self._head: dict[int, int] = {}

    def __len__(self) -> int:
        return sum(self._size.values())

    def size(self, opponent: int) -> int:
        return self._size.get(opponent, 0)

    def add(self, opponent: int, states: np.ndarray, seat: int, moves: np.ndarray) -> None:
        if opponent not in self._rings:
            self._rings[opponent] = (np.zeros((self.capacity, self.state_size), dtype=np.int32),
                                     np.zeros(self.capacity, dtype=np.int64), np.zeros(self.capacity, dtype=np.int64))
            self._size[opponent], self._head[opponent] = 0, 0
        ring_states, ring_seats, ring_moves = self._rings[opponent]
        states, moves = states[-self.capacity:], moves[-self.capacity:]  # one write per slot
        slots = (self._head[opponent] + np.arange(len(states))) % self.capacity
        ring_states[slots], ring_seats[slots], ring_moves[slots] = states, seat, moves
        self._head[opponent] = int((self._head[opponent] + len(states)) % self.capacity)
        self._size[opponent] = min(self.capacity, self._size[opponent] + len(states))

    def sample(self, opponent: int, rng: np.random.Generator) -> tuple[np.ndarray, int, int]:
        """(state copy, seat, moves played) of one stored position, uniformly."""
        k = int(rng.integers(self._size[opponent]))
        ring_states, ring_seats, ring_moves = self._rings[opponent]
        return ring_states[k].copy(), int(ring_seats[k]), int(ring_moves[k])


@kernel
def _opponent_pit(opponent, state, spec, rng, scratch, mask, stack, counters):
    if opponent == 0:
        return random_pit(state, spec, rng, mask)
    if opponent == 1:
        return max_pit(state, spec, mask)
    if opponent == 2:
        return exact_pit(state, spec, scratch, mask)
    return greedy_pit(state, spec, stack, counters)


@kernel
def _play_opponent(i, states, players, num_moves, opponents, spec, rngs, scratch, mask, stack, counters):
    """Opponent moves in row ``i`` until the learner is to move or the game ends (the opponent
    finishes its turn even past ``max_moves``, as in SingleAgentEnv)."""
    cells = 2 * spec[SPEC_PITS] + 2
    state = states[i]
    while state[cells] == 1 - players[i]:
        pit = _opponent_pit(opponents[i], state, spec, rngs[i], scratch, mask, stack, counters)
        apply_move(state, pit, spec)
        num_moves[i] += 1


@kernel
def _step(states, actions, players, num_moves, pending, max_moves, opponents, score_diff, spec, rngs,
          scratch, mask, stack, counters, rewards, terminated, truncated, illegal):
    """One learner move and the opponent's replies in every row; rewards in seeds or +-1, unscaled."""
    pits = spec[SPEC_PITS]
    cells = 2 * pits + 2
    total = 2 * pits * spec[SPEC_SEEDS]
    for i in range(states.shape[0]):
        state, me, pit = states[i], players[i], actions[i]
        illegal[i] = not (0 <= pit < action_count(spec) and state[cells] == me and legal_moves(state, spec, mask) > 0
                          and mask[pit])
        if illegal[i]:  # forfeit, as in SingleAgentEnv
            rewards[i] = -1.0 if not score_diff else -float(total)
            terminated[i], truncated[i] = True, False
            continue
        before = margin(state, pits, me) - pending[i]
        pending[i] = 0
        apply_move(state, pit, spec)
        num_moves[i] += 1
        _play_opponent(i, states, players, num_moves, opponents, spec, rngs, scratch, mask, stack, counters)
        terminated[i] = state[cells] == GAME_OVER
        truncated[i] = not terminated[i] and num_moves[i] >= max_moves
        final = margin(state, pits, me)
        if score_diff:
            rewards[i] = final - before
        elif terminated[i]:
            rewards[i] = np.sign(final)
        else:
            rewards[i] = 0.0


@kernel
def _reset_rows(rows, states, starts, plies, players, num_moves, pending, opponents, spec, rngs, scratch, mask,
                stack, counters):
    """New games in ``rows`` from ``starts`` (after ``plies`` opening plies): the opponent moves
    first when it is to move. Returns, per row, whether its moves ended the game (the row then
    needs another opening)."""
    pits = spec[SPEC_PITS]
    ended = np.zeros(rows.shape[0], dtype=np.bool_)
    for k in range(rows.shape[0]):
        i = rows[k]
        states[i] = starts[k]
        num_moves[i] = plies[k]
        before = margin(states[i], pits, players[i])
        _play_opponent(i, states, players, num_moves, opponents, spec, rngs, scratch, mask, stack, counters)
        ended[k] = states[i, 2 * pits + 2] == GAME_OVER
        pending[i] = margin(states[i], pits, players[i]) - before
    return ended


class MancalaVecEnv(VecEnv):
    """N copies of :class:`~mancala_marl.single_agent.SingleAgentEnv` stepped together.

    Args:
        num_envs: N, the number of games.
        game: a :class:`Game` or a game name with ``**rule_params``.
        opponent: ``"random"``, ``"max"``, ``"exact"`` or ``"greedy"`` (the ``agents`` policies),
            or a list of those names (or a comma-separated string, the command line's
            ``"random,max,exact"``): env ``i`` plays ``opponent[i % len(opponent)]`` in every
            episode (a fixed mixed pool, e.g. ``["random", "random", "max", "exact"]``).
        seat, reward, reward_scale, obs_type, max_moves, opening, opening_prob: as in ``SingleAgentEnv``.
        restart_prob: chance that an episode against max, exact or greedy starts from a position of
            a game the learner did not win against it (once there is one); 0 (the default) never.
        restart_capacity: positions kept per opponent for those restarts (newest first out).

    Shapes: observations ``(N, obs_dim)`` float32, rewards ``(N,)`` float32, dones ``(N,)`` bool,
    ``action_masks()`` ``(N, P)`` bool. Env ``i`` is seeded with ``seed + i`` by :meth:`seed`
    (SB3's convention), like the i-th env of a ``DummyVecEnv``.
    """

    def __init__(self, num_envs: int, game: Game | str = "sungka", opponent: str | list = "random",
                 seat: str = "first", reward: str = "result", obs_type: str = "counts",
                 reward_scale: float = 1.0, max_moves: int = MAX_MOVES, opening: int = 0, opening_prob: float = 1.0,
                 restart_prob: float = 0.0, restart_capacity: int = 100_000, **rule_params):
        num_envs = check_count("envs", num_envs, "num_envs")
        if rule_params and not isinstance(game, str):
            raise BadInput(f"rule parameters {sorted(rule_params)} given with a Game object; pass them to the game")
        self.game = make_game(game, **rule_params) if isinstance(game, str) else game
        observations.check_obs_type(self.game, obs_type)
        names = opponent.split(",") if isinstance(opponent, str) else list(opponent)  # "random,max": the CLI's form
        unknown = [name for name in names if name not in OPPONENTS]
        if not names or unknown:
            raise BadInput(f"opponent must be one of {list(OPPONENTS)} or a non-empty list of them for the "
                             f"vectorized env (use SingleAgentEnv in a DummyVecEnv for others), got {opponent!r}")
        if seat not in SEATS:
            raise BadInput(f"seat must be one of {list(SEATS)}, got {seat!r}")
        if reward not in REWARDS:
            raise BadInput(f"reward must be one of {list(REWARDS)}, got {reward!r}")
        check_max_moves(max_moves)
        check_opening(opening, opening_prob)
        check_restarts(restart_prob, names)
        self.opening, self.opening_prob = int(opening), float(opening_prob)
        self.restart_prob = float(restart_prob)
        n, g = int(num_envs), self.game
        self.render_mode = None  # read by VecEnv.__init__; this env does not render
        super().__init__(n, observations.observation_space(g, obs_type), spaces.Discrete(g.actions))
        self.opponent, self.seat_mode, self.reward_type, self.obs_type = opponent, seat, reward, obs_type
        self.reward_scale, self.max_moves = float(reward_scale), int(max_moves)
        self._opponent_names = [names[i % len(names)] for i in range(n)]
        self._opponent_ids = np.array([OPPONENTS[name] for name in self._opponent_names], dtype=np.int64)
        self._start = g.init()
        self.states = np.tile(self._start, (n, 1))
        self.players = np.zeros(n, dtype=np.int64)
        self.num_moves = np.zeros(n, dtype=np.int64)
        self._pending = np.zeros(n, dtype=np.int64)
        self._rngs = np.zeros((n, 6), dtype=np.uint64)  # opponents' PCG64 streams
        self._np_randoms: list[np.random.Generator | None] = [None] * n
        self._actions = np.zeros(n, dtype=np.int64)
        self._obs = np.zeros((n, self.observation_space.shape[0]), dtype=np.float32)
        self._rewards = np.zeros(n, dtype=np.float64)
        self._terminated = np.zeros(n, dtype=np.bool_)
        self._truncated = np.zeros(n, dtype=np.bool_)
        self._illegal = np.zeros(n, dtype=np.bool_)
        self._forfeited = np.zeros(n, dtype=np.bool_)
        self._work = (np.zeros(g.state_size, dtype=np.int32),  # scratch row
                      np.zeros(g.actions, dtype=np.bool_),  # scratch mask
                      np.zeros((MAX_PLY, g.actions, g.state_size), dtype=np.int32),  # greedy's stack
                      new_counters(extra=1))  # greedy's counters
        self._obs_id = observations.obs_id(g, obs_type)
        self.restarts = RestartPool(restart_capacity, g.state_size)
        trail = TRAIL if self.restart_prob > 0 else 0  # Oware's states are long: no trail unless it serves
        self._trail = np.zeros((n, trail, g.state_size), dtype=np.int32)  # this game's learner positions
        self._trail_moves = np.zeros((n, trail), dtype=np.int64)
        self._trail_len = np.zeros(n, dtype=np.int64)

    # -- VecEnv API ---------------------------------------------------------------------------
    def reset(self) -> np.ndarray:
        rows = np.arange(self.num_envs)
        self._new_episodes(rows, seeds=self._seeds)
        self._reset_seeds()
        self._reset_options()
        self._forfeited[:] = False
        observations.encode_rows(self.states, self.players, self.game.spec, self._obs_id, self._obs)
        self._reset_infos_for(rows, self.action_masks())
        return self._obs.copy()

    def step_async(self, actions: np.ndarray) -> None:
        actions = np.asarray(actions).reshape(self.num_envs)
        if actions.dtype.kind not in "iu" or ((actions < 0) | (actions >= self.game.actions)).any():
            raise BadInput(f"actions must be {self.game.action_word} indices 0..{self.game.actions - 1}, got {actions!r}")
        self._actions[:] = actions

    def step_wait(self):
        self._step_compiled()
        done = self._terminated | self._truncated
        observations.encode_rows(self.states, self.players, self.game.spec, self._obs_id, self._obs)
        masks = self.action_masks()
        infos = self._infos(masks, done)
        rows = np.flatnonzero(done)
        if self.restart_prob > 0:
            self._remember(np.flatnonzero(~done))
            self._keep_unwon(rows, infos)
        if rows.size:
            for i in rows:
                infos[i]["terminal_observation"] = self._obs[i].copy()
            self._new_episodes(rows, seeds=[None] * self.num_envs)
            self._forfeited[rows] = False
            obs_rows = np.empty((rows.size, self._obs.shape[1]), dtype=np.float32)
            observations.encode_rows(self.states[rows], self.players[rows], self.game.spec, self._obs_id, obs_rows)
            self._obs[rows] = obs_rows
            self._reset_infos_for(rows, self.action_masks())
        rewards = (self._rewards * self.reward_scale).astype(np.float32)
        return self._obs.copy(), rewards, done, infos

    def action_masks(self) -> np.ndarray:
        """``(N, P)`` bool: the learner's legal pits in each game (all False once it is over)."""
        masks = batch.legal_masks(self.game, self.states)  # the game's own legality
        masks[(self.states[:, self.game.to_move_index] != self.players) | self._forfeited] = False
        return masks

    def close(self) -> None:
        pass

    def get_attr(self, attr_name, indices=None):
        return [getattr(self, attr_name)] * len(list(self._get_indices(indices)))

    def set_attr(self, attr_name, value, indices=None):
        raise AttributeError(f"MancalaVecEnv cannot set per-env attributes (asked for {attr_name!r})")

    def env_method(self, method_name, *method_args, indices=None, **method_kwargs):
        rows = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in rows]
        raise AttributeError(f"MancalaVecEnv supports env_method('action_masks') only, not {method_name!r}")

    def env_is_wrapped(self, wrapper_class, indices=None):
        return [False] * len(list(self._get_indices(indices)))

    # -- internals ----------------------------------------------------------------------------
    def _step_compiled(self) -> None:
        _step(self.states, self._actions, self.players, self.num_moves, self._pending, self.max_moves,
              self._opponent_ids, self.reward_type == "score_diff", self.game.spec, self._rngs, *self._work,
              self._rewards, self._terminated, self._truncated, self._illegal)
        self._forfeited |= self._illegal

    def _new_episodes(self, rows, seeds) -> None:
        """Seat, opponent seed and opening drawn per row exactly as SingleAgentEnv.reset draws them."""
        starts = np.empty((len(rows), self.game.state_size), dtype=np.int32)
        plies = np.zeros(len(rows), dtype=np.int64)
        for k, i in enumerate(rows):
            if seeds[i] is not None or self._np_randoms[i] is None:
                self._np_randoms[i] = seeding.np_random(seeds[i])[0]
            rng = self._np_randoms[i]
            self.players[i] = int(rng.integers(2)) if self.seat_mode == "random" else SEATS.index(self.seat_mode)
            rng.integers(1)  # SingleAgentEnv picks one opponent from a list of one (draws nothing)
            opponent_seed = int(rng.integers(2**31))
            if self._opponent_ids[i] == 0:  # RandomPolicy's np.random.default_rng(seed), i.e. PCG64(seed)
                self._rngs[i] = pcg64_row(np.random.PCG64(opponent_seed))
            # the pool holds positions against deterministic opponents only (_keep_unwon)
            if self.restarts.size(self._opponent_ids[i]) and rng.random() < self.restart_prob:
                starts[k], self.players[i], plies[k] = self.restarts.sample(self._opponent_ids[i], rng)
            else:
                starts[k], plies[k] = random_opening(self.game, rng, self.opening, self.opening_prob)
        rows = retry = np.asarray(rows, dtype=np.int64)
        ended = self._reset(retry, starts, plies)
        for _ in range(opening_tries(self.opening) - 1):  # as SingleAgentEnv.reset: another opening for those rows
            if not ended.any():
                break
            retry = retry[ended]
            again = [random_opening(self.game, self._np_randoms[i], self.opening, self.opening_prob) for i in retry]
            ended = self._reset(retry, np.array([start for start, _ in again]),
                                np.array([count for _, count in again], dtype=np.int64))
        if ended.any():
            raise no_episode(self.game, self.opening)
        if self.restart_prob > 0:
            self._trail_len[rows] = 0
            self._remember(rows)

    def _reset(self, rows, starts, plies) -> np.ndarray:
        return _reset_rows(rows, self.states, starts, plies, self.players, self.num_moves, self._pending,
                           self._opponent_ids, self.game.spec, self._rngs, *self._work)

    def _remember(self, rows: np.ndarray) -> None:
        """Record the learner's position in each of ``rows`` (it is to move there) for the restart pool."""
        rows = rows[self._trail_len[rows] < TRAIL]
        self._trail[rows, self._trail_len[rows]] = self.states[rows]
        self._trail_moves[rows, self._trail_len[rows]] = self.num_moves[rows]
        self._trail_len[rows] += 1

    def _keep_unwon(self, rows: np.ndarray, infos: list[dict]) -> None:
        """Positions of the games in ``rows`` (just ended) that the learner did not win, into the pool."""
        for i in rows:
            opponent = int(self._opponent_ids[i])
            if opponent in DETERMINISTIC and infos[i]["result"] <= 0 and not infos[i]["illegal_action"]:
                length = self._trail_len[i]
                self.restarts.add(opponent, self._trail[i, :length], int(self.players[i]), self._trail_moves[i, :length])

    def _scores(self):
        """(learner's store, opponent's store) per row, as ``(N,)`` arrays."""
        pits = self.game.pits
        store0, store1 = self.states[:, pits], self.states[:, 2 * pits + 1]
        own = np.where(self.players == 0, store0, store1)
        return own, store0 + store1 - own

    def _infos(self, masks, done) -> list[dict]:
        own, other = self._scores()
        masks8 = masks.astype(np.int8)  # one fresh array; each info holds a row of it
        seats, own_l, other_l = self.players.tolist(), own.tolist(), other.tolist()
        illegal, truncated = self._illegal.tolist(), (self._truncated & ~self._terminated).tolist()
        infos = [{"action_mask": mask, "seat": seat, "score": mine, "opponent_score": theirs, "opponent": opponent,
                  "illegal_action": bad, "TimeLimit.truncated": cut}
                 for mask, seat, mine, theirs, bad, cut, opponent
                 in zip(masks8, seats, own_l, other_l, illegal, truncated, self._opponent_names)]
        for i in np.flatnonzero(done | self._terminated).tolist():
            lead = own_l[i] - other_l[i]
            if illegal[i]:
                infos[i]["result"], infos[i]["margin"] = -1, lead
            elif self._terminated[i]:
                infos[i]["result"], infos[i]["margin"] = (lead > 0) - (lead < 0), lead
            else:  # truncated after max_moves: decided by neither player, as in SingleAgentEnv
                infos[i]["result"], infos[i]["margin"] = 0, lead
        return infos

    def _reset_infos_for(self, rows, masks) -> None:
        own, other = self._scores()
        masks8 = masks.astype(np.int8)
        for i in rows:
            self.reset_infos[i] = {"action_mask": masks8[i], "seat": int(self.players[i]), "score": int(own[i]),
                                   "opponent_score": int(other[i]), "opponent": self._opponent_names[i],
                                   "illegal_action": False}
