"""A Gymnasium view of one seat of a game, the other seat played by a fixed opponent policy.

``SingleAgentEnv(game, opponent, seat, reward, obs_type)``; also ``gymnasium.make(
"mancala_marl/Sungka-v0", opponent="max", seat="second")`` (one id per registered game, see
:func:`mancala_marl.gym_id`). The view sits above the policies it plays against
(:mod:`mancala_marl.agents`), so it is not imported by ``import mancala_marl``; Gymnasium loads it
by name when an id is made.

One step is the learner's move followed by every opponent move until the learner is to move
again or the game ends: the opponent's extra turns are played out, and a player with nothing to
sow passes (Sungka), so the learner may move twice in a row when the opponent must pass.

Observation: a float32 vector from the learner's side (:mod:`mancala_marl.observations`).
Action: ``Discrete(P)``, a pit of the learner's row. :meth:`SingleAgentEnv.action_masks` gives the
legal moves (for sb3-contrib's MaskablePPO) and every ``info`` carries the same mask as
``info["action_mask"]`` (int8), which the masked DQN stores for its bootstrap target.

Illegal action (an empty pit, e.g. from an env checker's random actions): not an exception but a
forfeit. The episode terminates as a loss, ``info["illegal_action"] = True``, and the reward is -1
(``reward="result"``) or ``-total_seeds`` (``reward="score_diff"``, the worst possible margin),
times ``reward_scale``.

An episode's last ``info`` holds ``result`` (+1/0/-1 from the learner's side) and ``margin``; an
episode truncated after ``max_moves`` moves has ``result`` 0, as it was decided by neither player.
"""

from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces

from mancala_marl.errors import BadInput
from . import observations, render
from .agents import make_policy
from .games import MAX_MOVES, Game, make_game
from .games.base import check_max_moves
from .limits import check_count

SEATS = ("first", "second", "random")
REWARDS = ("result", "score_diff")


def resolve_policy(spec):
    """A :class:`mancala_marl.agents.Policy` from a policy object, a ``.zip`` model path, or a policy spec
    (``"max"``, ``"alphabeta:depth=2"``, ``"model:run/final.zip"``; see :func:`mancala_marl.agents.make_policy`)."""
    if not isinstance(spec, str):
        if not callable(getattr(spec, "act", None)):
            raise BadInput(f"opponent must be a policy name, a model path or a Policy, got {spec!r}")
        return spec
    return make_policy(spec)


OPENING_TRIES = 100  # openings drawn for one episode before the rules are called degenerate


def opening_tries(opening: int) -> int:
    """Starts an episode may draw before :func:`no_episode`: with no opening each is the same."""
    return OPENING_TRIES if opening > 0 else 1


def no_episode(game: Game, opening: int) -> BadInput:
    """The error when the opponent's replies end the game, from every start drawn, before the
    learner has moved."""
    if opening == 0:
        return BadInput(f"{game!r}: the opponent's first moves end the game; the rules are degenerate")
    return BadInput(f"{game!r}: the opponent's replies ended the game after {OPENING_TRIES} openings in a row; "
                      f"use a shorter opening (or other rules)")


def random_opening(game: Game, rng: np.random.Generator, opening: int, opening_prob: float):
    """The start of an episode: with probability ``opening_prob`` (one draw, made only when
    ``opening`` > 0), ``k`` uniformly random legal plies of either side, ``k`` uniform in
    1..``opening``; else the usual start (drawn from ``rng`` first, where the game's start is
    drawn). Returns (state, plies played). An opening that ends the game is drawn again, from the
    same start."""
    start = game.init(rng)
    if opening <= 0 or rng.random() >= opening_prob:
        return start, 0
    plies = int(rng.integers(1, opening + 1))
    for _ in range(OPENING_TRIES):
        state = start.copy()
        for _ in range(plies):
            game.apply_fast(state, int(rng.choice(np.flatnonzero(game.legal_mask_fast(state)))))
            if game.is_terminal(state):
                break
        if not game.is_terminal(state):
            return state, plies
    raise BadInput(f"{game!r}: {OPENING_TRIES} random openings of {plies} plies all ended the game; use a shorter opening")


class SingleAgentEnv(gymnasium.Env):
    """One seat of ``game`` against ``opponent``.

    Args:
        game: a :class:`Game` or a game name; ``**rule_params`` build it by name
            (e.g. ``game="kalah", pits=4, seeds=3``).
        opponent: a policy (name, ``"name:key=value"``, model ``.zip`` path, or Policy object),
            a list of those (one sampled uniformly per episode), or a pool object with
            ``sample(rng) -> Policy`` (see :class:`mancala_marl.train.selfplay.OpponentPool`).
        seat: ``"first"`` (player_0), ``"second"`` (player_1) or ``"random"`` (drawn per episode).
        reward: ``"result"``: +1/0/-1 at the end. ``"score_diff"``: the Sungka paper's eq. 1,
            per step (own store gain - opponent's store gain) over the learner's move and the
            opponent's replies; the opponent's opening moves before the learner's first move count
            in the first step, so an episode's rewards sum to the final margin (seeds).
        reward_scale: multiplies every reward (e.g. ``1/total_seeds`` for score_diff with PPO).
        obs_type: see :mod:`mancala_marl.observations`.
        max_moves: moves of both players after which the episode is truncated (checked after the
            learner's move once the opponent has finished its turn).
        opening, opening_prob: with probability ``opening_prob`` an episode starts after 1 to
            ``opening`` uniformly random plies (:func:`random_opening`), so that the learner
            meets positions its opponents alone would never lead to (a deterministic
            opponent otherwise plays the same game every time). Its return counts from there.
    """

    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "render_fps": 2}

    def __init__(self, game: Game | str = "sungka", opponent="random", seat: str = "first",
                 reward: str = "result", obs_type: str = "counts", reward_scale: float = 1.0,
                 max_moves: int = MAX_MOVES, render_mode: str | None = None, opening: int = 0,
                 opening_prob: float = 1.0, **rule_params):
        self.game = make_game(game, **rule_params) if isinstance(game, str) else game
        if rule_params and not isinstance(game, str):
            raise BadInput(f"rule parameters {sorted(rule_params)} given with a Game object; pass them to the game")
        observations.check_obs_type(self.game, obs_type)
        if seat not in SEATS:
            raise BadInput(f"seat must be one of {list(SEATS)}, got {seat!r}")
        if reward not in REWARDS:
            raise BadInput(f"reward must be one of {list(REWARDS)}, got {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise BadInput(f"render_mode must be None or one of {self.metadata['render_modes']}, got {render_mode!r}")
        check_max_moves(max_moves)
        check_opening(opening, opening_prob)
        self.opening, self.opening_prob = int(opening), float(opening_prob)
        if isinstance(opponent, (list, tuple)):
            if not opponent:
                raise BadInput("opponent list is empty")
            self._opponents = [resolve_policy(o) for o in opponent]
        elif callable(getattr(opponent, "sample", None)):
            self._opponents = opponent
        else:
            self._opponents = [resolve_policy(opponent)]
        for policy in self._opponents if isinstance(self._opponents, list) else ():
            # a network for other rules: refused here, not at its first move (hours into training)
            getattr(policy, "prepare", lambda game: None)(self.game)
        self.seat_mode, self.reward_type, self.obs_type = seat, reward, obs_type
        self.reward_scale, self.max_moves, self.render_mode = float(reward_scale), int(max_moves), render_mode
        self.observation_space = observations.observation_space(self.game, obs_type)
        self.action_space = spaces.Discrete(self.game.actions)
        self._state = self.game.init()
        self.player = 0
        self.opponent = None
        self.num_moves = 0
        self._pending = 0  # opening margin owed to the first step (score_diff)
        self._forfeit = False

    # -- Gymnasium API ------------------------------------------------------------------------
    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        rng = self.np_random
        if self.seat_mode == "random":
            self.player = int(rng.integers(2))
        else:
            self.player = SEATS.index(self.seat_mode)
        if isinstance(self._opponents, list):
            self.opponent = self._opponents[int(rng.integers(len(self._opponents)))]
        else:
            self.opponent = self._opponents.sample(rng)
        self.opponent.reset(seed=int(rng.integers(2**31)))
        self._forfeit = False
        # On a small board the opponent's replies to an opening can end the game before the
        # learner moves: that is no episode, so another opening is drawn.
        for _ in range(opening_tries(self.opening)):
            self._state, self.num_moves = random_opening(self.game, rng, self.opening, self.opening_prob)
            before = self._margin()
            self._play_opponent()
            if not self.game.is_terminal(self._state):
                break
        else:
            raise no_episode(self.game, self.opening)
        self._pending = self._margin() - before
        if self.render_mode == "human":  # Gymnasium's convention: the first position is shown too
            self.render()
        return self._obs(), self._info()

    def step(self, action):
        if self._forfeit or self.game.to_move(self._state) != self.player:
            raise RuntimeError("step() called after the episode ended; call reset()")
        if not self.action_space.contains(action):
            raise BadInput(f"action must be an index of the {self.game.action_words} 0..{self.game.actions - 1}, got {action!r}")
        if not self.game.legal_mask_fast(self._state)[int(action)]:
            forfeit = -1.0 if self.reward_type == "result" else -float(self.game.total_seeds)
            self._forfeit = True
            info = self._info(illegal_action=True)
            return self._obs(), forfeit * self.reward_scale, True, False, info
        before = self._margin() - self._pending
        self._pending = 0
        self.game.apply_fast(self._state, int(action))
        self.num_moves += 1
        self._play_opponent()
        terminated = bool(self.game.is_terminal(self._state))
        truncated = not terminated and self.num_moves >= self.max_moves
        if self.reward_type == "score_diff":
            reward = float(self._margin() - before)
        else:
            reward = float(self.game.returns(self._state)[self.player]) if terminated else 0.0
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward * self.reward_scale, terminated, truncated, self._info(truncated=truncated)

    def action_masks(self) -> np.ndarray:
        """Boolean mask (P,) of the learner's legal pits; all False once the game is over."""
        if self._forfeit or self.game.to_move(self._state) != self.player:
            return np.zeros(self.game.actions, dtype=bool)
        return self.game.legal_mask_fast(self._state)

    def render(self):
        return render.show(self.game, self._state, self.render_mode, self.num_moves)

    # -- state access for tests and search ---------------------------------------------------
    def state(self) -> np.ndarray:
        """A copy of the engine state (see :mod:`mancala_marl.games.base`)."""
        return self._state.copy()

    def set_state(self, state) -> np.ndarray:
        """Continue the current episode (after :meth:`reset`) from ``state``, e.g. a worked
        position; if the opponent is to move it plays first. Returns the learner's observation."""
        self._state, self._forfeit, self._pending = self.game.state_from(state), False, 0
        self._play_opponent()
        return self._obs()

    # -- internals ----------------------------------------------------------------------------
    def _play_opponent(self) -> None:
        """Opponent moves (extra turns included) until the learner is to move or the game ends.

        The opponent always finishes its turn, even past ``max_moves``: truncation is decided at
        the learner's turn, so a truncated episode still ends in a state where the learner has a
        move and a mask (the bootstrap of a time-limit transition needs one)."""
        game, state = self.game, self._state
        while game.to_move(state) == 1 - self.player:
            game.apply_fast(state, self.opponent.act(game, state.copy()))
            self.num_moves += 1

    def _margin(self) -> int:
        scores = self.game.scores(self._state)
        return scores[self.player] - scores[1 - self.player]

    def _obs(self) -> np.ndarray:
        return observations.encode(self.game, self._state, self.player, self.obs_type)

    def _info(self, illegal_action: bool = False, truncated: bool = False) -> dict:
        scores = self.game.scores(self._state)
        info = {"action_mask": self.action_masks().astype(np.int8), "seat": self.player,
                "score": scores[self.player], "opponent_score": scores[1 - self.player],
                "opponent": getattr(self.opponent, "name", repr(self.opponent)),
                "illegal_action": illegal_action}
        if getattr(self.game, "is_match", False):  # a match of rounds: the round being played (the last, at its end)
            info["round"] = self.game.round_of(self._state)
        if illegal_action:
            info["result"], info["margin"] = -1, self._margin()
        elif self.game.is_terminal(self._state):
            info["result"] = int(self.game.returns(self._state)[self.player])  # a goal game's, not the stores'
            info["margin"] = self._margin()
        elif truncated:  # cut off: neither player won (Monitor's info_keywords still find a result)
            info["result"], info["margin"] = 0, self._margin()
        return info


def check_opening(opening, opening_prob) -> None:
    """``opening`` (random plies at most) and ``opening_prob`` in their ranges (:mod:`mancala_marl.limits`)."""
    check_count("opening", opening)
    check_count("share", opening_prob, "opening_prob")
