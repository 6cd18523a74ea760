"""Grading policies against perfect play: :func:`grade` (the command is ``mancala_marl.cli.grade``).

How the positions are drawn (:func:`draw_positions`), all from ``seed``: game ``i`` opens with
``opening`` uniformly random moves (from ``numpy.random.default_rng([seed, i])``), then strong
players (``alphabeta:depth=4`` in both seats by default) play it to the end. Its positions are
sorted into ``bins`` stages by the seeds left in play (in the pits, not in the stores), and each
stage still short of its share takes one of them at random, so every stage of the game is
graded alike however long it lasts. A position with one legal move (nothing to choose) is never
drawn, nor one drawn before. When the games run out before a stage is full (no game reaches it),
the other stages' spare positions make up the number.

Each position's moves are valued exactly by the ``perfect`` policy (``move_values``: the final
margin in seeds for the mover after each legal pit; ``move_results``, where a game's perfect play
gives it, the result: +1 win, 0 draw, -1 loss; else the margin's sign), once for every policy
graded (and kept in memory for the next :func:`grade` of the same game). Each graded policy is
reset with a seed of ``(seed, position)``, as the arena seeds a game, and asked for its move on
a copy of the position. Its move is

- optimal when its value is the best move's;
- a blunder when it changes the game-theoretic result: a won position thrown to a draw or a
  loss, a drawn one to a loss;
- and its regret is the best value minus its value, in seeds (0 for an optimal move).

Where the perfect player knows results but no margins (no ``move_values``), optimal means the
best result and there is no regret (None).

Every figure is a mean over the positions drawn, with equal shares of each stage: a game's
early positions count as much as its endgame, unlike in a game played out.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from mancala_marl.errors import BadInput, NotSolved
from mancala_marl.games import Game, parse_game
from mancala_marl.games.params import Param
from mancala_marl.limits import check_count
from mancala_marl.progress import progress_bar

from .arena import play_opening
from .stats import wilson

PLAYERS = ("alphabeta:depth=4",)
BINS = 6
# The settings of a grading that are not counts of mancala_marl.limits: their ranges, defaults and
# help (``mancala-marl grade --bins --max-seeds``)
BINS_PARAM = Param("bins", int, BINS, "stages, by seeds in play, that share the positions and the report", low=1, high=20)
MAX_SEEDS_PARAM = Param("max_seeds", int, None, "only positions with at most N seeds in play (endgames)",
                        low=1, high=1000, optional=True)
CACHE_SIZE = 100_000  # solved positions kept between calls, a few hundred bytes each


@dataclass(frozen=True)
class Solved:
    """A position and the exact worth of each of its legal moves, for the player to move."""

    state: np.ndarray
    seeds: int  # seeds in play (in the pits)
    values: dict[int, int] | None  # pit: the mover's final margin after it; None where only results are known
    results: dict[int, int]  # pit: +1 win, 0 draw, -1 loss for the mover after it

    def verdict(self, move: int) -> dict:
        """``{"optimal", "blunder", "regret"}`` of playing ``move`` here (regret None, and optimal
        meaning the best result, where the perfect player gives results only)."""
        if move not in self.results:
            raise BadInput(f"pit {move} is not a legal move here (legal: {sorted(self.results)})")
        blunder = self.results[move] < max(self.results.values())
        if self.values is None:
            return {"optimal": not blunder, "blunder": blunder, "regret": None}
        best, value = max(self.values.values()), self.values[move]
        return {"optimal": value == best, "blunder": blunder, "regret": best - value}


def seed_bins(game: Game, bins: int = BINS, max_seeds: int | None = None) -> list[tuple[int, int]]:
    """``bins`` ranges ``(low, high)`` of seeds in play, of equal width (the last may be narrower),
    covering 1..``max_seeds`` (default: every seed of the game)."""
    top = game.total_seeds if max_seeds is None else min(max_seeds, game.total_seeds)
    bins = max(1, min(bins, top))
    width = -(-top // bins)
    return [(low, min(low + width - 1, top)) for low in range(1, top + 1, width)]


def _bin_of(seeds: int, edges: list[tuple[int, int]]) -> int | None:
    for i, (low, high) in enumerate(edges):
        if low <= seeds <= high:
            return i
    return None


def _shares(n: int, bins: int) -> list[int]:
    """``n`` split over ``bins`` as evenly as can be, the odd ones to the stages with fewest seeds
    (the cheapest to solve)."""
    return [n // bins + (i < n % bins) for i in range(bins)]


def draw_positions(game, n: int, seed: int = 0, opening: int = 4, players: Sequence[str] = PLAYERS,
                   bins: int = BINS, max_seeds: int | None = None, max_games: int | None = None) -> list[np.ndarray]:
    """``n`` positions from games of ``players`` after ``opening`` random moves, spread evenly over
    ``bins`` stages by seeds in play (see the module's docstring), at most ``max_seeds`` seeds in
    play; fewer only if ``max_games`` games (default ``20 n + 100``) hold fewer."""
    from mancala_marl.agents import make_policy

    game = parse_game(game)
    n = check_count("graded", n, "positions")
    opening = check_count("opening", opening)
    bins, max_seeds = BINS_PARAM.check(bins), MAX_SEEDS_PARAM.check(max_seeds)
    edges = seed_bins(game, bins, max_seeds)
    need = _shares(n, len(edges))
    policies = [make_policy(spec) for spec in players]
    for policy in policies:
        policy.prepare(game)
    max_games = 20 * n + 100 if max_games is None else max_games
    taken, spare, seen = [[] for _ in edges], [], set()
    reached = [False] * len(edges)
    for i in range(max_games):
        # a stage that no game has reached after the first n + 10 is taken to be out of reach (an
        # Oware endgame with one or two seeds and a choice of move), rather than played for to
        # max_games
        if all(len(got) >= want or (i >= n + 10 and not hit) for got, want, hit in zip(taken, need, reached)):
            break
        rng = np.random.default_rng([seed, i])
        seats = (policies[i % len(policies)], policies[(i + 1) % len(policies)])
        for seat, policy in enumerate(seats):
            policy.reset(int(np.random.SeedSequence([seed, i, seat]).generate_state(1)[0]))
        state = game.init()
        play_opening(game, state, rng, opening)
        found = [[] for _ in edges]
        while not game.is_terminal(state):
            key = state.tobytes()
            where = _bin_of(game.seeds_in_play(state), edges)
            if where is not None and key not in seen and game.legal_mask(state).sum() > 1:
                found[where].append(state.copy())
                seen.add(key)
            game.apply_fast(state, seats[game.to_move(state)].act(game, state.copy()))
        for where, candidates in enumerate(found):
            if not candidates:
                continue
            reached[where] = True
            pick = int(rng.integers(len(candidates)))
            if len(taken[where]) < need[where]:
                taken[where].append(candidates.pop(pick))
            spare.extend(candidates)
    positions = [state for got in taken for state in got]
    if len(positions) < n and spare:  # a stage no game reached: the others make up the number
        order = np.random.default_rng([seed, max_games]).permutation(len(spare))
        positions += [spare[j] for j in order[: n - len(positions)]]
    return positions


_SOLVED: OrderedDict = OrderedDict()
_PERFECT: dict = {}


def perfect_player(db_seeds: int | None = None, time_limit: float | None = None):
    """The ``perfect`` policy, one per setting for the process (its database and table are kept)."""
    from mancala_marl.agents import make_policy

    key = (db_seeds, time_limit)
    if key not in _PERFECT:
        _PERFECT[key] = make_policy("perfect", db_seeds=db_seeds, time_limit=time_limit)
    return _PERFECT[key]


def solve_position(game: Game, state: np.ndarray, perfect) -> Solved:
    """The exact worth of every legal move of ``state`` (kept for later calls on the same game)."""
    key = (game.cli_spec(), state.tobytes())
    if key in _SOLVED:
        _SOLVED.move_to_end(key)
        return _SOLVED[key]
    if perfect.exact_margins(game):
        values = {int(pit): int(v) for pit, v in perfect.move_values(game, state).items()}
        results = {pit: int(np.sign(v)) for pit, v in values.items()}
    else:  # Oware: exact results, no exact margins
        values = None
        results = {int(pit): int(r) for pit, r in perfect.move_results(game, state).items()}
    solved = Solved(state.copy(), game.seeds_in_play(state), values, results)
    _SOLVED[key] = solved
    if len(_SOLVED) > CACHE_SIZE:
        _SOLVED.popitem(last=False)
    return solved


def _summary(verdicts: list[dict]) -> dict:
    n = len(verdicts)
    optimal = sum(v["optimal"] for v in verdicts)
    blunders = sum(v["blunder"] for v in verdicts)
    regrets = [v["regret"] for v in verdicts if v["regret"] is not None]
    return {"positions": n,
            "optimal": optimal / n if n else None,
            "optimal_95": list(wilson(optimal, n)) if n else None,
            "blunders": blunders / n if n else None,
            "regret": sum(regrets) / len(regrets) if regrets else None}


def _grade_solved(game, graded, solved: list[Solved], edges, seed: int, bar) -> list[dict]:
    """Each policy of ``graded`` asked for its move on each position of ``solved``: its report."""
    task = bar.add_task("grading moves", total=len(solved) * len(graded))
    verdicts, thinking = [[] for _ in graded], [0.0] * len(graded)
    for index, position in enumerate(solved):
        policy_seed = int(np.random.SeedSequence([seed, index]).generate_state(1)[0])
        for k, (policy, out) in enumerate(zip(graded, verdicts)):
            bar.update(task, description=f"grading moves (now {policy})")
            policy.reset(policy_seed)
            asked = time.perf_counter()
            move = int(policy.act(game, position.state.copy()))
            thinking[k] += time.perf_counter() - asked
            out.append({**position.verdict(move), "bin": _bin_of(position.seeds, edges)})
            bar.advance(task)
    return [_report(policy, out, spent / len(out) if out else None, edges)
            for policy, out, spent in zip(graded, verdicts, thinking)]


def _report(policy, verdicts: list[dict], seconds_per_move: float | None, edges) -> dict:
    by_seeds = [{"seeds": [low, high], **_summary([v for v in verdicts if v["bin"] == i])}
                for i, (low, high) in enumerate(edges)]
    return {"policy": str(policy), **_summary(verdicts),
            "seconds_per_move": None if seconds_per_move is None else round(seconds_per_move, 6),
            "by_seeds": by_seeds}


def grade(game, policy_specs: Sequence, positions: int = 60, seed: int = 0, opening: int = 4,
          players: Sequence[str] = PLAYERS, bins: int = BINS, max_seeds: int | None = None,
          db_seeds: int | None = None, time_limit: float | None = None, progress: bool = False) -> dict:
    """Grade each policy of ``policy_specs`` (specs or :class:`~mancala_marl.agents.Policy` objects)
    against perfect play on ``positions`` positions of ``game`` (see the module's docstring).

    ``time_limit``: seconds the perfect player may spend on one position; a position past it (or
    past the budget of its search, as on Oware) is left out, counted in ``"skipped"`` (and by stage
    in ``"skipped_by_seeds"``). ``max_seeds``: positions with at most that many seeds in play (on
    Oware, where perfect play covers endgames only, by default and at most ``db_seeds``).
    ``db_seeds``: the endgame database's size. ``progress``: a bar on stderr. Raises ValueError, in
    one line, for a game without perfect play, a policy that does not exist or does not fit the
    game, or endgames past what perfect play covers.

    Returns ``{"game", "seed", "opening", "players", "bins", "positions", "skipped",
    "skipped_by_seeds", "seconds", "policies": [{"policy", "positions", "optimal", "optimal_95", "blunders", "regret",
    "seconds_per_move", "by_seeds": [{"seeds": [low, high], ...the same figures}]}]}``: shares in
    0..1, regret in seeds per move, ``optimal_95`` the 95% Wilson interval of the share of optimal
    moves, ``seconds`` the time of the whole grading.
    """
    from mancala_marl.agents import Policy, check_seed, make_policy

    game = parse_game(game)
    seed = check_seed(seed)
    bins, max_seeds = BINS_PARAM.check(bins), MAX_SEEDS_PARAM.check(max_seeds)
    if not policy_specs:
        raise BadInput("grade: name at least one policy")
    perfect = perfect_player(db_seeds, time_limit)
    perfect.prepare(game)  # a game without perfect play: its one line, before any work
    covered = perfect.max_seeds(game)
    if covered is not None:  # perfect play of endgames only (Oware): those its database covers
        if max_seeds is not None and max_seeds > covered:
            raise BadInput(f"grade: perfect play on {game.name} covers positions with at most {covered} seeds in "
                             f"play (db_seeds); max_seeds={max_seeds} asks for more")
        max_seeds = covered if max_seeds is None else max_seeds
    graded = [spec if isinstance(spec, Policy) else make_policy(spec) for spec in policy_specs]
    for policy in graded:
        policy.prepare(game)
    start = time.perf_counter()
    states = draw_positions(game, positions, seed, opening, players, bins, max_seeds)
    for policy in graded if states else ():
        policy.act(game, states[0].copy())  # compiled before its moves are timed, on an endgame where those are graded
    edges = seed_bins(game, bins, max_seeds)
    solved, skipped = [], [0] * len(edges)
    with progress_bar(disable=not progress) as bar:
        task = bar.add_task("solving positions", total=len(states))
        for state in states:
            # one position can take a minute: say which is being solved (the spinner shows it is)
            bar.update(task, description=f"solving positions (now one of {game.seeds_in_play(state)} seeds in play)")
            try:
                solved.append(solve_position(game, state, perfect))
            except NotSolved:
                skipped[_bin_of(game.seeds_in_play(state), edges)] += 1  # past the time limit or the search's budget
            bar.advance(task)
        reports = _grade_solved(game, graded, solved, edges, seed, bar)
    return {"game": game.cli_spec(), "source": "fresh", "seed": seed, "opening": opening,
            "players": [str(p) for p in players],
            "bins": [list(edge) for edge in edges], "positions": len(solved), "skipped": sum(skipped),
            "skipped_by_seeds": skipped,
            "seconds": round(time.perf_counter() - start, 3), "policies": reports}


def _set_positions(game, labelled, positions: int | None, seed: int) -> tuple[list[Solved], list]:
    """The set's positions as :class:`Solved` (all, or ``positions`` of them drawn from ``seed`` with
    each stage its share), and the set's stages."""
    from mancala_marl.endgame.labelled import ILLEGAL

    edges = [tuple(edge) for edge in labelled.header["bins"]]
    states = labelled.states(game)
    seeds = labelled.seeds_in_play(game.pits)
    margins = labelled.value == "margin"
    chosen = range(len(labelled))
    if positions is not None and positions < len(labelled):
        order = np.random.default_rng([seed, len(labelled)]).permutation(len(labelled))
        stage = [_bin_of(int(seeds[i]), edges) for i in order]
        shares = _shares(positions, len(edges))
        chosen = sorted(i for k in range(len(edges))
                        for i in [j for j, b in zip(order, stage) if b == k][: shares[k]])
    solved = []
    for i in chosen:
        legal = {int(pit): int(v) for pit, v in enumerate(labelled.values[i]) if v != ILLEGAL}
        solved.append(Solved(states[i], int(seeds[i]), legal if margins else None,
                             {pit: int(np.sign(v)) for pit, v in legal.items()}))
    return solved, edges


def _set_for(game, labelled):
    from mancala_marl.endgame.labelled import LabelledSet, load_set, shipped_set

    if labelled is None:
        return shipped_set(game)
    return labelled if isinstance(labelled, LabelledSet) else load_set(labelled, game)


def _set_report(game, labelled, solved, edges, seed, start, reports) -> dict:
    return {"game": game.cli_spec(), "source": "set", "set": {"sha256": labelled.header["sha256"],
                                                              "count": len(labelled)},
            "seed": seed, "bins": [list(edge) for edge in edges], "positions": len(solved), "skipped": 0,
            "skipped_by_seeds": [0] * len(edges), "seconds": round(time.perf_counter() - start, 3),
            "policies": reports}


def grade_on_set(game, policy_specs: Sequence, labelled=None, positions: int | None = None, seed: int = 0,
                 progress: bool = False) -> dict:
    """Grade each policy of ``policy_specs`` on a labelled set (:mod:`mancala_marl.endgame.labelled`):
    the one shipped for ``game``'s rules, or ``labelled`` (a set, or the path of a set file). No
    solver runs: the set holds every move's value. ``positions``: grade that many of the set's, each
    stage its share, drawn from ``seed`` (default: all). Each policy is reset with a seed of
    ``(seed, position)``. The report is :func:`grade`'s, its ``"source"`` ``"set"`` and ``"set"`` the
    set's checksum and size."""
    from mancala_marl.agents import Policy, check_seed, make_policy

    game = parse_game(game)
    seed = check_seed(seed)
    if not policy_specs:
        raise BadInput("grade: name at least one policy")
    labelled = _set_for(game, labelled)
    if positions is not None:
        positions = check_count("graded", positions, "positions")
    graded = [spec if isinstance(spec, Policy) else make_policy(spec) for spec in policy_specs]
    for policy in graded:
        policy.prepare(game)
    start = time.perf_counter()
    solved, edges = _set_positions(game, labelled, positions, seed)
    for policy in graded if solved else ():
        policy.act(game, solved[0].state.copy())  # compiled before its moves are timed
    with progress_bar(disable=not progress) as bar:
        reports = _grade_solved(game, graded, solved, edges, seed, bar)
    return _set_report(game, labelled, solved, edges, seed, start, reports)


def grade_agent(act, game="kalah", batch: bool = False, obs_type: str = "counts", labelled=None,
                positions: int | None = None, seed: int = 0, chunk: int = 4096, name: str = "agent") -> dict:
    """Grade any agent on a labelled set, from PettingZoo's observations: an agent of any library.

    ``act(observation) -> action`` takes the dict a ``mancala_marl`` AEC environment's ``observe``
    gives the player to move (``"observation"``: float32 of ``obs_type``; ``"action_mask"``: int8).
    With ``batch=True``, ``act`` takes the same dict of stacked arrays, ``(n, obs)`` and
    ``(n, actions)``, and returns ``n`` actions (a JAX or torch agent's batched forward pass), asked
    ``chunk`` positions at a time. The set, ``positions`` and ``seed`` are :func:`grade_on_set`'s,
    as is the report (one policy, named ``name``; ``seconds_per_move`` the agent's own time).
    """
    from mancala_marl.agents.observed import ObservationPolicy
    from mancala_marl.observations import check_obs_type

    game = parse_game(game)
    check_obs_type(game, obs_type)
    if not batch:
        return grade_on_set(game, [ObservationPolicy(act, obs_type, name)], labelled, positions, seed)
    labelled = _set_for(game, labelled)
    if positions is not None:
        positions = check_count("graded", positions, "positions")
    chunk = check_count("batch_size", chunk, "chunk")
    start = time.perf_counter()
    solved, edges = _set_positions(game, labelled, positions, seed)
    policy = ObservationPolicy(act, obs_type, name, batch=True)
    moves, spent = [], 0.0
    for first in range(0, len(solved), chunk):
        states = np.stack([position.state for position in solved[first:first + chunk]])
        asked = time.perf_counter()
        moves.extend(policy.act_batch(game, states))
        spent += time.perf_counter() - asked
    verdicts = [{**position.verdict(move), "bin": _bin_of(position.seeds, edges)}
                for position, move in zip(solved, moves)]
    report = _report(policy, verdicts, spent / len(solved) if solved else None, edges)
    return _set_report(game, labelled, solved, edges, seed, start, [report])
