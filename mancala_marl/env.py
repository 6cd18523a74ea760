"""One PettingZoo AEC environment for every variant; the rules come from a :class:`Game`.

Turn order is the game's: after a move ``agent_selection`` is whoever the rules say moves next,
which is the same agent after an extra turn, and skips an agent that must pass (Sungka).

:func:`entry_points` makes the ``env()`` and ``raw_env`` of each registered game's PettingZoo entry
module (``mancala_marl/kalah_v0.py`` and so on, three lines each); :func:`make_env` the environment
of any game by its name, its spec or its rules file.
"""

from __future__ import annotations

import inspect
import operator

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from mancala_marl.errors import BadInput
from . import observations, render
from .games import GAMES
from .games.base import GAME_OVER, MAX_MOVES, Game, check_max_moves

REWARDS = ("result", "score_diff")
AGENTS = ("player_0", "player_1")


_SET_BY_RESET = frozenset({"agents", "agent_selection", "rewards", "terminations", "truncations", "infos",
                           "_cumulative_rewards"})


class MancalaEnv(AECEnv):
    """AEC environment over any Mancala :class:`Game`.

    Args:
        game: the rules and their parameters (e.g. ``Kalah(pits=6, seeds=4)``).
        obs_type: ``"counts"``, ``"paper"``, ``"moves"``, ``"turns"`` or a game's own (``"tesauro"``);
            see :mod:`mancala_marl.observations`.
        reward: ``"result"``: +1/-1/0 at the end only. ``"score_diff"``: after every move the
            mover gets (its store gain - the opponent's store gain) and the opponent the
            negative, the end-of-game sweep included, so an agent's rewards sum to its final
            margin.
        max_moves: moves (sowings) after which the game is truncated.
        render_mode: ``"human"`` (prints the text board), ``"ansi"`` or ``"rgb_array"``.

    A family game of ``rounds="match"`` is played whole: ``agent_selection`` runs on across the
    rounds, the reward comes when the match ends (``score_diff``: a move that ends a round counts
    the seeds each player then holds, its row's too), and ``infos`` add ``round`` (the round being
    played), ``rounds_won`` (per player) and ``last_round_winner`` (0, 1, or -1 before any round has
    ended and after a drawn one); ``round_results`` lists every round ended so far (its number,
    winner and the seeds each held).
    """

    metadata = {
        "render_modes": ["human", "ansi", "rgb_array"],
        "name": "mancala_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(self, game: Game, obs_type: str = "counts", reward: str = "result",
                 max_moves: int = MAX_MOVES, render_mode: str | None = None):
        super().__init__()
        # PettingZoo's CaptureStdoutWrapper appends "ansi" to the env's render modes: each env
        # gets its own copy, so that wrapping one changes no other.
        self.metadata = {**self.metadata, "render_modes": list(self.metadata["render_modes"])}
        observations.check_obs_type(game, obs_type)
        if reward not in REWARDS:
            raise BadInput(f"reward must be one of {list(REWARDS)}, got {reward!r}")
        check_max_moves(max_moves)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise BadInput(f"render_mode must be None or one of {self.metadata['render_modes']}, got {render_mode!r}")
        self.game = game
        self.obs_type = obs_type
        self.reward_type = reward
        self.max_moves = int(max_moves)
        self.render_mode = render_mode

        self.possible_agents = list(AGENTS)
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": observations.observation_space(game, obs_type),
                "action_mask": spaces.Box(0, 1, shape=(game.actions,), dtype=np.int8),
            })
            for agent in AGENTS
        }
        self.action_spaces = {agent: spaces.Discrete(game.actions) for agent in AGENTS}
        self.state_space = spaces.Box(*game.state_bounds(), dtype=np.int32)
        self._obs_id = observations.obs_id(game, obs_type)
        self._obs_size = self.observation_spaces[AGENTS[0]]["observation"].shape[0]
        self._state = game.init()
        self._start_rng = None  # made by the first reset
        self.num_moves = 0
        # Per-step lookups computed once (profiling showed them among the step's costs).
        self._player_index = {agent: i for i, agent in enumerate(AGENTS)}
        self._to_move_index = game.to_move_index
        self._stores = (game.pits, 2 * game.pits + 1)
        self._match = bool(getattr(game, "is_match", False))
        self.round_results: list[dict] = []

    def __getattr__(self, name):
        # Reached only for attributes not set, so it costs the step nothing: before reset() the
        # game's turn state is missing, and a bare "no attribute 'agent_selection'" says not why.
        if name in _SET_BY_RESET:
            raise AttributeError(f"{type(self).__name__}.{name} is not set before reset(): call reset() first")
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    # -- spaces -------------------------------------------------------------------------------
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # -- state access for search agents and tests --------------------------------------------
    @property
    def board(self) -> np.ndarray:
        """A copy of the canonical board (see :mod:`mancala_marl.games.base` for the layout)."""
        return self.game.board(self._state)

    def state(self) -> np.ndarray:
        """A copy of the full engine state: board, player to move (-1 at the end), tuzduk slots."""
        return self._state.copy()

    def set_state(self, state: np.ndarray, num_moves: int = 0) -> None:
        """Put the game in ``state`` (e.g. one taken with :meth:`state`); resets the episode flags."""
        state = self.game.state_from(state)
        self.reset()
        self._state = state
        self.num_moves = int(num_moves)
        self._after_move(mover=None)

    # -- AEC API ------------------------------------------------------------------------------
    def reset(self, seed=None, options=None):
        # ``seed`` seeds the draw of a drawn start (a family game's start="random"); the other rules
        # have no chance element. A reset without one goes on drawing from the last seeded Generator.
        if seed is not None or self._start_rng is None:
            self._start_rng = np.random.default_rng(seed)
        self._state = self.game.init(self._start_rng)
        self.num_moves = 0
        self.round_results = []
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos = {agent: self._info() for agent in AGENTS}
        self.agent_selection = AGENTS[0]

    def observe(self, agent):
        player = self._player_index[agent]
        state = self._state
        if state[self._to_move_index] == player:
            mask = self.game.legal_mask_fast(state).view(np.int8)  # a fresh array: safe to view
        else:
            mask = np.zeros(self.game.actions, dtype=np.int8)
        obs = np.empty(self._obs_size, dtype=np.float32)
        observations.encode_row(state, player, self.game.spec, self._obs_id, obs)
        return {"observation": obs, "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        state, game = self._state, self.game
        mover = self._player_index[agent]
        store0, store1 = self._stores
        before0, before1 = int(state[store0]), int(state[store1])
        game.apply_fast(state, action)  # raises IllegalMoveError with the reason
        self.num_moves += 1
        self._cumulative_rewards[agent] = 0.0
        after0, after1 = int(state[store0]), int(state[store1])
        if self._match:
            ended = game.last_round(state)
            if ended and ended["round"] > len(self.round_results):
                self.round_results.append(ended)
                if state[self._to_move_index] != GAME_OVER:  # the stores now hold the next round's remainders
                    after0, after1 = ended["seeds"]
        if self.reward_type == "score_diff":
            gain = (after0 - before0) - (after1 - before1)
            gain = gain if mover == 0 else -gain
            self.rewards = {agent: float(gain), AGENTS[1 - mover]: float(-gain)}
        elif state[self._to_move_index] == GAME_OVER:
            result = game.returns(state)
            self.rewards = {AGENTS[0]: float(result[0]), AGENTS[1]: float(result[1])}
        else:
            self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._after_move(mover)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _after_move(self, mover):
        to_move = int(self._state[self.game.to_move_index])
        over = to_move == GAME_OVER
        if over:
            self.terminations = dict.fromkeys(AGENTS, True)
        elif self.num_moves >= self.max_moves:
            self.truncations = dict.fromkeys(AGENTS, True)
        info = self._info()
        self.infos = {AGENTS[0]: info, AGENTS[1]: {**info, "scores": info["scores"].copy()}}  # two, not one shared
        if over:
            # Every agent still gets its last observation and reward through agent_iter().
            to_move = 1 - mover if mover is not None else 0
        self.agent_selection = AGENTS[to_move]

    def _info(self) -> dict:
        # The same keys and types at every step: TorchRL and Tianshou build their info specs and
        # buffers from the first infos they see, and refuse nested dicts and keys that come late.
        state = self._state
        s0, s1 = int(state[self._stores[0]]), int(state[self._stores[1]])
        over = bool(state[self._to_move_index] == GAME_OVER)
        result = self.game.returns(state)[0] if over else 0.0  # a goal's or a tally's winner, not always the stores'
        winner = (0 if result > 0 else 1 if result < 0 else -1) if over else -1
        info = {"scores": np.array([s0, s1], dtype=np.int64), "num_moves": self.num_moves,
                "game_over": over, "winner": winner}
        if self._match:
            won = [sum(result["winner"] == player for result in self.round_results) for player in (0, 1)]
            last = self.round_results[-1]["winner"] if self.round_results else None
            info.update({"round": self.game.round_of(state), "rounds_won": np.array(won, dtype=np.int64),
                         "last_round_winner": -1 if last is None else last})
        return info

    def render(self):
        return render.show(self.game, self._state, self.render_mode, self.num_moves)

    def close(self):
        pass

    def __str__(self):
        return self.metadata["name"]


def wrap(raw: MancalaEnv) -> AECEnv:
    """The standard PettingZoo classic wrappers: an illegal move ends the game with -1 for the
    culprit, an out-of-range action is an assertion error, and the API order is enforced.

    These are PettingZoo's own wrapper classes with one change that keeps their behaviour: the
    attributes every step reads (``agent_selection``, ``terminations``, ...) come straight from
    the raw env instead of through one ``__getattr__`` per layer, which profiling showed to be
    half the time of a wrapped step.
    """
    env = _TerminateIllegal(raw, illegal_reward=-1)
    env = _AssertOutOfBounds(env)
    return _OrderEnforcing(env)


_HOT_ATTRIBUTES = ("agents", "agent_selection", "rewards", "terminations", "truncations", "infos",
                   "_cumulative_rewards")


def _direct(name: str, before_reset_error: bool = False) -> property:
    # attrgetter runs in C: no Python frame per attribute read. Before reset, the order-enforcing
    # layer reads them from a stand-in that refuses every attribute, as PettingZoo's wrapper does.
    source = "_source" if before_reset_error else "_raw"
    return property(operator.attrgetter(f"{source}.{name}"), doc=f"``{name}`` of the raw environment.")


class _NotReset:
    def __getattr__(self, name):
        raise AttributeError(f"{name} cannot be accessed before reset")


class _DirectAttributes:
    def __init__(self, env, *args, **kwargs):
        self._raw = env.unwrapped
        super().__init__(env, *args, **kwargs)


class _TerminateIllegal(_DirectAttributes, wrappers.TerminateIllegalWrapper):
    def step(self, action):
        culprit, ended_before = self._raw.agent_selection, self._terminated
        super().step(action)
        if self._terminated and not ended_before:
            # PettingZoo's wrapper ends the game on an illegal move but leaves the infos of the
            # position before it, which said the game was on and nobody had won. New dicts: the
            # old ones may be held by a collector that read them with last().
            winner = 1 - AGENTS.index(culprit)
            self._raw.infos = {agent: {**info, "game_over": True, "winner": winner}
                               for agent, info in self._raw.infos.items()}


class _AssertOutOfBounds(_DirectAttributes, wrappers.AssertOutOfBoundsWrapper):
    def step(self, action):
        raw = self._raw
        agent = raw.agent_selection
        # The same test as the parent's, with Discrete.contains's answer for plain integers
        # computed directly (it costs several microseconds); anything else goes to contains().
        if isinstance(action, (bool, np.bool_)):  # an int to Python, but no pit
            ok = False
        elif isinstance(action, (int, np.integer)):
            ok = 0 <= action < raw.game.actions
        elif action is None:
            ok = raw.terminations[agent] or raw.truncations[agent]
        else:
            ok = raw.action_space(agent).contains(action)
        if not ok:  # raised, not asserted: python -O skipped the check and failed in numpy
            raise AssertionError(f"action {action!r} is not in action space: {raw.game.name}'s "
                                 f"{raw.game.action_words} are 0..{raw.game.actions - 1}" + ("; None is for an agent whose game has ended"
                                                             if action is None else ""))
        self.env.step(action)


class _OrderEnforcing(_DirectAttributes, wrappers.OrderEnforcingWrapper):
    # PettingZoo's wrapper sets _has_reset in __init__ and reset(); the hot attributes follow it
    # (a Python check on each of their reads was 7% of a step).
    @property
    def _has_reset(self) -> bool:
        return self._source is self._raw

    @_has_reset.setter
    def _has_reset(self, value: bool) -> None:
        self._source = self._raw if value else _NotReset()

    def __str__(self):
        return str(self.env)


for _name in _HOT_ATTRIBUTES:
    setattr(_DirectAttributes, _name, _direct(_name))
    setattr(_OrderEnforcing, _name, _direct(_name, before_reset_error=True))


ENV_PARAMETERS = tuple(p for p in inspect.signature(MancalaEnv).parameters.values() if p.name != "game")
ENV_NAMES = frozenset(p.name for p in ENV_PARAMETERS)


def make_env(game, **kwargs) -> AECEnv:
    """The PettingZoo AEC environment of ``game``, with the classic wrappers (as ``kalah_v0.env()``):
    a registered game (``"kalah"``), a traditional game by name (``"dakon"``,
    :data:`mancala_marl.games.NAMED`), a command-line spec (``"wari:seeds=5"``), the path of a
    MancalaGames rules file (``"GameProps/Ayo.txt"``, a ``Path``) or a :class:`Game`. ``kwargs``: :class:`MancalaEnv`'s
    (``obs_type``, ``reward``, ``max_moves``, ``render_mode``) and rule parameters
    (``make_env("dakon", seeds=5)``, or a variant of a file's rules)."""
    from .games import Game, parse_game

    settings = {key: kwargs.pop(key) for key in list(kwargs) if key in ENV_NAMES}
    try:
        built = parse_game(game, **kwargs)
    except BadInput:
        # a word that is neither a rule of the named game nor the environment's is named with both
        # lists (a built game takes no rules: parse_game says so)
        if kwargs and not isinstance(game, Game):
            rules = parse_game(game).params
            unknown = [key for key in kwargs if key not in rules]
            if unknown:
                raise BadInput(f"make_env({str(game)!r}) has no parameter {', '.join(map(repr, unknown))}; its "
                               f"rules: {', '.join(rules) or 'none'}; the environment's: "
                               f"{', '.join(sorted(ENV_NAMES))}") from None
        raise
    return wrap(MancalaEnv(built, **settings))


def entry_points(name: str):
    """``(env, raw_env)`` of ``mancala_marl.<name>_v0``, the PettingZoo entry module of registered
    game ``name``: ``raw_env(**kwargs)`` (rule parameters and :class:`MancalaEnv`'s) and
    ``env(**kwargs)`` (with the classic wrappers)."""
    game_type = GAMES[name]
    module = f"{name}_v0"
    qualified = f"{__package__}.{module}"
    rules = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in inspect.signature(game_type).parameters.values()]
    signature = inspect.Signature([*rules, *(p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in ENV_PARAMETERS)])
    rule_names = [p.name for p in rules]

    def __init__(self, **kwargs):
        unknown = [key for key in kwargs if key not in signature.parameters]
        if unknown:
            raise BadInput(f"{module} has no parameter {', '.join(map(repr, unknown))}; "
                             f"its parameters: {', '.join(signature.parameters)}")
        game = game_type(**{key: kwargs.pop(key) for key in rule_names if key in kwargs})
        MancalaEnv.__init__(self, game, **kwargs)

    __init__.__signature__ = signature.replace(parameters=[inspect.Parameter("self", inspect.Parameter.POSITIONAL_ONLY),
                                                           *signature.parameters.values()])
    doc = (f"``{module}``: {game_type.__name__} as a PettingZoo AEC environment (rules: "
           f":mod:`{game_type.__module__}`).\n\n``env(**kwargs)`` is the raw environment with PettingZoo's "
           f"classic wrappers; ``raw_env(**kwargs)`` is the bare one. Keyword arguments: the rule parameters "
           f"({', '.join(rule_names)}) and ``obs_type``, ``reward``, ``max_moves``, ``render_mode`` "
           f"(see :class:`mancala_marl.env.MancalaEnv`).")
    raw_env = type("raw_env", (MancalaEnv,), {"__init__": __init__, "__module__": qualified, "__doc__": doc,
                                              "metadata": {**MancalaEnv.metadata, "name": module}})

    def env(**kwargs) -> AECEnv:
        return wrap(raw_env(**kwargs))

    env.__module__, env.__qualname__, env.__doc__ = qualified, "env", doc
    env.__signature__ = signature
    return env, raw_env
