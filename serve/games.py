"""The server's live games: each a game of the registry or a traditional game by name (a preset
of one, :data:`~mancala_marl.games.NAMED`), its moves, and a policy or a person in each seat;
bounded in number, in length and in idle time.

Nothing here knows of HTTP: :class:`Table` takes plain values (what a request's JSON decoded to)
and raises :class:`~mancala_marl.errors.BadInput` (or one of the kinds below) with one line for
anything it refuses, which the app answers with a 4xx.

A game's state is read and changed only under its lock. A game with a policy in a seat holds that
lock while the policy searches (seconds), so the app touches such a game from a worker thread
only; a game that two people play never waits on a search, and its moves are played on the event
loop.
"""

from __future__ import annotations

import json
import os
import secrets
import threading
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from mancala_marl.errors import BadInput
from mancala_marl.games import GAMES, MAX_MOVES, NAMED, make_game
from mancala_marl.games.params import Param
from mancala_marl.matches.narration import events, trace_move

from .policies import web_policy

# What a request may ask of the rules: tighter than the games' own ranges (64 pits, 2**30 seeds),
# so that no move of a request's board sows for long and no page is wider than a screen.
WEB_PITS = Param("pits", int, 6, "pits a side", low=1, high=16)
WEB_SEEDS = Param("seeds", int, 4, "seeds in each pit at the start", low=1, high=64)
MAX_POLICIES = 8  # specs held for reuse, each up to SEARCHERS copies: 32 alphabeta tables of 19 MB at most
SEARCHERS = 4  # copies of one spec searching at once: more games than that wait for a copy to be free
SEARCH_THREADS = 8  # searches of the whole server at once (replies, the engines' view)
SEARCH_NICE = 5  # a search thread's priority below the answers' (Linux): see search()
NOT_FOUND = "no live game {!r} (unknown, finished long ago, or expired after being idle)"


class NotFound(BadInput):
    """An unknown game id: answered 404, where other refusals are 400 or 409."""


class Conflict(BadInput):
    """A move the game does not take now (finished, or not the person's turn): 409."""


class Full(BadInput):
    """No room for another live game: 503."""


def game_class(name):
    """The registered game class a request's game name plays: a registry name (``"kalah"``,
    ``"family"``) or a traditional game's (``"wari"``, ``"dakon"``: a preset of a registered game)."""
    if isinstance(name, str) and name in NAMED:
        return GAMES[NAMED[name].game]
    if isinstance(name, str) and name in GAMES:
        return GAMES[name]
    raise BadInput(f"unknown game {str(name)[:40]!r}; known games: {', '.join(GAMES)}; traditional games: "
                   f"{', '.join(n for n in NAMED if n not in GAMES)}")


def check_rules(name, rules) -> dict:
    """A game name and its rules from a request, checked: the game's own checks (which name
    the parameter and its range), and the server's tighter bounds on the pits a side and the
    seeds a pit, whatever the game calls them (Kalah's ``pits``, the family's ``holes``). A
    traditional game's rules change its preset; the preset's own values are in those bounds."""
    cls = game_class(name)
    if not isinstance(rules, dict):
        raise BadInput(f"rules must be an object of rule parameters, e.g. {{\"pits\": 4}}, got {rules!r}"[:200])
    for param, web in zip(cls.parameters[:2], (WEB_PITS, WEB_SEEDS)):
        if param.name in rules and param.type_ok(rules[param.name]) and not web.in_range(rules[param.name]):
            low, high = max(web.low, param.low), min(web.high, param.high)
            raise BadInput(f"{param.name} must be in {low}..{high} here, got {rules[param.name]!r}")
    return rules


def _lower_priority() -> None:
    try:  # Linux gives each thread a priority of its own; elsewhere a search runs as the rest
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), SEARCH_NICE)
    except (AttributeError, OSError):
        pass


_searches = ThreadPoolExecutor(SEARCH_THREADS, thread_name_prefix="search", initializer=_lower_priority)


def search(function, *args):
    """``function(*args)`` in a search thread, waited for: every search of the server (a policy's
    move, the engines' view) runs there. Its threads run at a lower priority than the event loop
    and the other answers, so that on a machine whose cores the searches fill, an answer that
    needs a few milliseconds of CPU gets them when it asks, not after the searches' time slices
    (the compiled kernels let go of the interpreter lock, so only the cores are shared)."""
    return _searches.submit(function, *args).result()


def search_in_background(function, *args) -> None:
    """``function(*args)`` in a search thread, not waited for (a database built on first use)."""
    _searches.submit(function, *args)


class Shared:
    """A policy shared by every game that names the same spec on the same rules: a network or a
    search table is held a few times (19 MB for alphabeta's), not once per game. Each copy plays
    one move at a time; up to :data:`SEARCHERS` copies are made as games ask for them at once, so
    that one game's search does not wait for another's to end."""

    def __init__(self, make):
        self.make, first = make, make()
        self.label, self.idle, self.lock = first.label, [first], threading.Lock()
        self.free = threading.BoundedSemaphore(SEARCHERS)

    def act(self, game, state) -> int:
        with self.free:
            with self.lock:
                policy = self.idle.pop() if self.idle else None
            policy = policy or self.make()  # made outside the lock: loading a network takes time
            try:
                return search(policy.act, game, state)
            finally:
                with self.lock:
                    self.idle.append(policy)


class Match:
    """One live game: rules, state, the moves played and the states before each (for undo), and
    each seat's policy (None: moves come through the API)."""

    def __init__(self, game, players, labels):
        self.game, self.players, self.labels = game, players, labels
        # Whether people play both seats: then no move of this game waits on a search (asked on every move)
        self.people_only = all(player is None for player in players)
        self.state = game.init()
        self.history: list[np.ndarray] = []
        self.moves: list[dict] = []
        self.lock = threading.Lock()
        self.touched = time.monotonic()

    @property
    def over(self) -> bool:
        return bool(self.game.is_terminal(self.state)) or len(self.moves) >= MAX_MOVES

    def play(self, pit: int, by: str) -> dict:
        game, before = self.game, self.state.copy()
        mover = game.to_move(before)
        game.apply_fast(self.state, pit)  # a state of the server's own (the move is still checked)
        steps, calls = trace_move(game, before, pit, self.state)
        self.history.append(before)
        played = {"player": mover, "pit": int(pit), "by": by,
                  "events": events(game, before, self.state, pit, steps, calls),
                  "steps": steps, "board": self.state[: game.board_size].tolist()}
        self.moves.append({"player": mover, "pit": int(pit)})
        return played

    def replies(self) -> list[dict]:
        """The policies' moves until a person is to move or the game ends; none where no person
        plays (two policies are watched move by move: POST .../step)."""
        played = []
        if self.people_only:
            return played
        while None in self.players and not self.over and self.players[self.game.to_move(self.state)] is not None:
            seat = self.game.to_move(self.state)
            pit = self.players[seat].act(self.game, self.state.copy())
            played.append(self.play(pit, self.labels[seat]))
        return played

    def undo(self) -> None:
        """Back to the last position where a person was to move before their last move."""
        if not any(self.players[m["player"]] is None for m in self.moves):
            raise Conflict("nothing to undo: no move of a person has been played")
        while self.moves:
            self.moves.pop()
            self.state = self.history.pop()
            if self.players[self.game.to_move(self.state)] is None:
                break

    def state_json(self) -> dict:
        game, state = self.game, self.state
        terminal = bool(game.is_terminal(state))
        done = terminal or len(self.moves) >= MAX_MOVES  # self.over, the rules asked once
        scores = [int(s) for s in game.scores(state)]
        winner = None
        if terminal and scores[0] != scores[1]:
            winner = int(scores[1] > scores[0])
        return {"board": state[: game.board_size].tolist(),
                "to_move": None if done else game.to_move(state),
                "legal": [] if done else game.legal_mask_fast(state).nonzero()[0].tolist(),  # flatnonzero: +0.7 us
                "scores": scores, "done": done, "winner": winner,
                "marks": [list(mark) for mark in game.marked_pits(state)[0]],
                "moves": len(self.moves),
                # a match of rounds: the round being played and the last one's result (else None)
                "round": game.round_of(state) if getattr(game, "is_match", False) else None,
                "last_round": game.last_round(state) if getattr(game, "is_match", False) else None}

    def record(self) -> dict:
        """The game record: game (a traditional game's name for one made by it), rules (every
        parameter), players and moves (what POST /api/games takes back)."""
        preset = self.game.preset
        return {"game": self.game.name if preset is None else preset.name, "rules": self.game.params,
                "players": [None if p is None else self.labels[i] for i, p in enumerate(self.players)],
                "moves": list(self.moves)}


class Table:
    """The live games of one server, keyed by a random id."""

    def __init__(self, move_time: float = 0.5, max_games: int = 256, idle_s: float = 1800.0,
                 networks: Path | None = None):
        self.move_time, self.max_games, self.idle_s, self.networks = move_time, max_games, idle_s, networks
        # in the order of their last use, the idlest first: a new game expires the idle ones from the
        # front (see _expire), never walks them all (a server of the load benchmark holds 100,000)
        self.matches: OrderedDict[str, Match] = OrderedDict()
        self.policies: dict[tuple[str, str], Shared] = {}  # (spec, rules) -> the shared policy, oldest first
        self.lock = threading.Lock()

    def policy(self, spec, game) -> Shared:
        """The shared policy of ``spec`` on ``game``'s rules, made (and checked) the first time;
        the :data:`MAX_POLICIES` used longest ago are let go (live games keep theirs)."""
        key = (str(spec).strip(), game.cli_spec())
        with self.lock:
            shared = self.policies.pop(key, None)
            if shared is not None:
                self.policies[key] = shared  # the most recently used last
                return shared
        def make():
            policy = web_policy(spec, self.move_time, self.networks)
            policy.prepare(game)  # a network for other rules is refused now, with the first copy
            return policy

        made = Shared(make)
        with self.lock:
            shared = self.policies.setdefault(key, made)
            while len(self.policies) > MAX_POLICIES:
                self.policies.pop(next(iter(self.policies)))
            return shared

    def new(self, name, rules=None, players=(None, None), moves=()) -> tuple[str, Match, list]:
        """A new game; the policies' opening moves are played, and ``moves`` replayed (an import)."""
        rules = check_rules(name, {} if rules is None else rules)
        game = make_game(name, **rules)
        if not isinstance(moves, (list, tuple)) or len(moves) > MAX_MOVES:
            raise BadInput(f"moves must be a list of at most {MAX_MOVES} pits")
        policies, labels = [], []
        for spec in players:
            policy = None if spec is None else self.policy(spec, game)
            policies.append(policy)
            labels.append("person" if spec is None else policy.label)
        match = Match(game, policies, labels)
        for k, move in enumerate(moves):
            pit = move.get("pit") if isinstance(move, dict) else move
            if match.over:
                raise BadInput(f"moves[{k}]: the game is already over")
            match.play(check_pit(game, match.state, pit, f"moves[{k}]"), labels[game.to_move(match.state)])
        played = match.replies()
        with self.lock:
            self._expire()
            if len(self.matches) >= self.max_games:
                raise Full(f"{self.max_games} games are live, the most this server holds; try again when one "
                           f"has been idle {self.idle_s:g} s")
            game_id = secrets.token_urlsafe(9)
            match.touched = time.monotonic()  # its last use: put last, and its replies may have taken seconds
            self.matches[game_id] = match
        return game_id, match, played

    def get(self, game_id) -> Match:
        with self.lock:
            match = self.matches.get(game_id)
            if match is None or time.monotonic() - match.touched > self.idle_s:
                self.matches.pop(game_id, None)
                raise NotFound(NOT_FOUND.format(str(game_id)[:40]))
            match.touched = time.monotonic()
            self.matches.move_to_end(game_id)  # the most recently used last
            return match

    def move(self, game, pit) -> tuple[dict, list]:
        """A person's move on ``game`` (a game id, or its :class:`Match`) and the policies' replies:
        (the state then, as JSON, the moves played)."""
        match = game if isinstance(game, Match) else self.get(game)
        with match.lock:
            if match.over:
                raise Conflict("the game is over: no move can be played")
            mover = match.game.to_move(match.state)
            if match.players[mover] is not None:
                raise Conflict(f"player_{mover} is {match.labels[mover]}, not a person: POST .../step for its move")
            played = [match.play(check_pit(match.game, match.state, pit, "pit"), "person")]
            played += match.replies()
            return match.state_json(), played

    def step(self, game_id) -> tuple[dict, list]:
        """One move of the policy to move (watching two policies play, at the page's pace): (the
        state then, as JSON, the move played)."""
        match = self.get(game_id)
        with match.lock:
            if match.over:
                raise Conflict("the game is over: no move can be played")
            seat = match.game.to_move(match.state)
            if match.players[seat] is None:
                raise Conflict(f"player_{seat} is a person: POST .../moves with their pit")
            pit = match.players[seat].act(match.game, match.state.copy())
            played = [match.play(pit, match.labels[seat])]
            return match.state_json(), played

    def _expire(self) -> None:
        """Drop the games idle past ``idle_s``: the first ones, as ``matches`` is in the order of use."""
        now = time.monotonic()
        while self.matches:
            game_id, match = next(iter(self.matches.items()))
            if now - match.touched <= self.idle_s:
                break
            del self.matches[game_id]


def check_pit(game, state, pit, where: str) -> int:
    """A pit from a request: an integer, in range, and legal now (the game's own reason if not)."""
    if isinstance(pit, bool) or not isinstance(pit, int):  # JSON's words in the answer: true, "2", null
        raise BadInput(f"{where} must be an integer {game.action_word} 0..{game.actions - 1}, got {json.dumps(pit)[:40]}")
    if not (0 <= pit < game.actions and game.legal_mask_fast(state)[pit]):
        raise BadInput(f"{where}: {game.illegal_reason(state, pit)}")
    return pit
