"""Matches between two policies, in both seats: :func:`arena` (the command is ``mancala_marl.cli.arena``).

Convention: ``n`` games **in each seat**, so ``2 n`` games in all; ``seats.first`` are the games
where A moves first. Game ``i`` of either seat starts from the same opening (``opening`` random
moves, then the policies play), so the two seats are compared on the same positions; with
deterministic policies and no opening every game of a seat would be the same game.

Every game is seeded from ``(seed, i, seat)``, so results do not depend on ``workers``.
"""

from __future__ import annotations

import csv
import functools
import itertools
import multiprocessing
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

from mancala_marl.errors import BadInput
from mancala_marl.games import MAX_MOVES, Game, IllegalMoveError, make_game, parse_game
from mancala_marl.limits import check_count, check_workers
from mancala_marl.progress import console, titled_table

from .stats import wilson

SEATS = ("first", "second")
RECORD_FIELDS = ("index", "seat", "score_a", "score_b", "length")


def _policy(spec):
    from mancala_marl.agents import Policy, make_policy

    return spec if isinstance(spec, Policy) else make_policy(spec)


def play_game(game: Game, first, second, seeds=(None, None), opening_rng=None, opening: int = 0,
              max_moves: int = MAX_MOVES):
    """Play one game; returns (store of player_0, store of player_1, number of moves).

    ``first``/``second`` are policies for player_0/player_1, reset with ``seeds`` before the game;
    a drawn start (``game.random_start``) is drawn from ``opening_rng``, then the first
    ``opening`` moves are uniformly random from it and count in the length.
    A game still on after ``max_moves`` moves (the environments' truncation) is stopped and
    scored a draw: both get the mean of the two stores, which keeps the margin at 0.
    """
    first.reset(seeds[0])
    second.reset(seeds[1])
    players = (first, second)
    state = game.init(opening_rng)  # a drawn start is drawn from it too: the same in both seats
    moves = play_opening(game, state, opening_rng, min(opening, max_moves))
    while not game.is_terminal(state):
        if moves >= max_moves:
            s0, s1 = game.scores(state)
            return (s0 + s1) / 2, (s0 + s1) / 2, moves
        player = game.to_move(state)
        move = players[player].act(game, state.copy())
        try:
            game.apply_fast(state, move)
        except IllegalMoveError as error:  # a policy misbehaved: say which
            raise IllegalMoveError(f"{players[player]!r} (player_{player}) played an illegal move: {error}") from None
        moves += 1
    s0, s1 = game.scores(state)
    return s0, s1, moves


def play_opening(game: Game, state: np.ndarray, rng, opening: int) -> int:
    """Play up to ``opening`` uniformly random moves from ``rng`` on ``state`` (in place; fewer
    if the game ends); returns the number played."""
    moves = 0
    while moves < opening and not game.is_terminal(state):
        game.apply_fast(state, int(rng.choice(np.flatnonzero(game.legal_mask_fast(state)))))
        moves += 1
    return moves


def _game_seeds(seed: int, index: int, seat: int):
    """(opening rng, seed of A, seed of B) for game ``index`` of ``seat``; the opening ignores the seat."""
    opening = np.random.default_rng([seed, index])
    a, b = np.random.SeedSequence([seed, index, seat]).generate_state(2)
    return opening, int(a), int(b)


def opening_position(game: Game, seed: int, index: int, opening: int) -> np.ndarray:
    """The position game ``index`` of a match seeded ``seed`` starts from once its ``opening``
    random moves are played (the same in both seats)."""
    rng = _game_seeds(seed, index, 0)[0]
    state = game.init(rng)
    play_opening(game, state, rng, opening)
    return state


def _play_jobs(game, a, b, jobs, seed, opening):
    """Yield the record of each game of ``jobs`` (``(index, seat)`` pairs) as it ends."""
    for index, seat in jobs:
        rng, seed_a, seed_b = _game_seeds(seed, index, seat)
        if seat == 0:
            s_a, s_b, length = play_game(game, a, b, (seed_a, seed_b), rng, opening)
        else:
            s_b, s_a, length = play_game(game, b, a, (seed_b, seed_a), rng, opening)
        yield {"index": index, "seat": SEATS[seat], "score_a": s_a, "score_b": s_b, "length": length}


@functools.lru_cache(maxsize=1)
def _players(game_spec: str, a: str, b: str):
    """The game and both policies in a worker, built once for all the chunks it plays."""
    return parse_game(game_spec), _policy(a), _policy(b)


def _play_chunk(game_spec, a, b, jobs, seed, opening) -> list[dict]:
    game, a, b = _players(game_spec, a, b)
    return list(_play_jobs(game, a, b, jobs, seed, opening))


def _chunks(jobs, size: int):
    while chunk := list(itertools.islice(jobs, size)):
        yield chunk


def match_records(game, a, b, n: int, seed: int = 0, workers: int = 1, opening: int = 0) -> Iterator[dict]:
    """The ``2 n`` game records of A against B (``n`` per seat), yielded as they are played, by
    seat then index. Only the games in flight are held: a match of any length takes the same
    memory.

    ``a``/``b`` are policy specs (``"alphabeta:depth=4"``) or, with ``workers=1``, Policy objects.
    Each record: index, seat ("first" = A moved first), score_a, score_b, length (moves). The
    counts are checked here, before any game (:func:`mancala_marl.limits.check_count`): at most a
    million games a seat, no more workers than games.
    """
    from mancala_marl.agents import check_seed

    n = check_count("games", n, "n (games per seat)")
    workers = check_workers(workers, 2 * n, "workers (processes)", "game")
    check_seed(seed)
    opening = check_count("opening", opening, "opening (random moves at the start of each game)")
    game = parse_game(game)
    jobs = ((i, seat) for seat in (0, 1) for i in range(n))
    if workers == 1:
        return _play_jobs(game, _policy(a), _policy(b), jobs, seed, opening)
    if not all(isinstance(p, str) for p in (a, b)):
        raise BadInput("with workers > 1, give the policies as spec strings (they are rebuilt in each process)")
    return _in_pool(game, a, b, jobs, seed, opening, workers, n)


def _in_pool(game, a, b, jobs, seed, opening, workers, n):
    # Compile the policies' kernels once here: forked workers inherit them.
    next(_play_jobs(game, _policy(a), _policy(b), [(0, 0)], seed, opening))
    # Small chunks, a few per worker in flight: the workers stay busy to the end, and the records
    # come back in order, without the match's jobs queued up front (the pool's map would queue them all).
    size, in_flight = max(1, min(64, 2 * n // (workers * 4))), deque()
    spec = game.cli_spec()
    with process_pool(workers) as pool:
        for chunk in _chunks(jobs, size):
            in_flight.append(pool.apply_async(_play_chunk, (spec, a, b, chunk, seed, opening)))
            if len(in_flight) >= workers * 4:
                yield from in_flight.popleft().get()
        while in_flight:
            yield from in_flight.popleft().get()


def play_match(game, a, b, n: int, seed: int = 0, workers: int = 1, opening: int = 0) -> list[dict]:
    """The ``2 n`` game records of A against B as a list, sorted by seat then index (:func:`match_records`)."""
    return list(match_records(game, a, b, n, seed, workers, opening))


def _ignore_interrupt() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def process_pool(workers: int):
    """A ``multiprocessing`` pool whose workers leave Ctrl-C to the parent: the command stops
    with one message, and leaving the ``with`` block terminates the workers at once (a
    ``ProcessPoolExecutor`` would first finish every queued job)."""
    return multiprocessing.Pool(workers, initializer=_ignore_interrupt)


class Tally:
    """A seat's results, added up game by game (:meth:`add`), summed up by :meth:`summary`."""

    def __init__(self):
        self.games = self.wins = self.draws = 0
        self.score = self.margin = self.length = 0.0

    def add(self, record: dict) -> None:
        margin = record["score_a"] - record["score_b"]
        self.games += 1
        self.wins += int(margin > 0)
        self.draws += int(margin == 0)
        self.score += float(record["score_a"])
        self.margin += float(margin)
        self.length += float(record["length"])

    def summary(self) -> dict:
        """wins/draws/losses (A's), win_rate with ci95, mean_score (A's store), mean_margin (A - B), mean_length."""
        n = self.games
        low, high = wilson(self.wins, n)
        mean = (lambda total: total / n if n else 0.0)
        return {"games": n, "wins": self.wins, "draws": self.draws, "losses": n - self.wins - self.draws,
                "win_rate": self.wins / n if n else 0.0, "ci95": [round(low, 4), round(high, 4)],
                "mean_score": mean(self.score), "mean_margin": mean(self.margin), "mean_length": mean(self.length)}


def seat_summary(records) -> dict:
    """:meth:`Tally.summary` of ``records``."""
    tally = Tally()
    for record in records:
        tally.add(record)
    return tally.summary()


def arena(game, a, b, n: int = 100, seed: int = 0, workers: int = 1, opening: int = 0,
          records: list | None = None, on_game: Callable[[dict], None] | None = None) -> dict:
    """Play A against B, ``n`` games in each seat; returns the JSON-ready summary.

    ``{"game", "title", "params", "a", "b", "games" (per seat), "total_games", "seed", "opening",
    "ended_in_opening", "seats": {"first": {...}, "second": {...}}, "overall": {...}}``:
    ``game`` the name that builds it again with ``params``, its rule parameters (a named game's
    name, ``"dakon"``; a MancalaGames file's path; else the registry's), ``title`` the name its
    players know it by, ``ended_in_opening`` the number of games that ended
    within the random opening, before either policy moved; each seat as in :func:`seat_summary`.
    The games are added up as they end, so a long match holds no list of them: pass a list as
    ``records`` to receive the per-game records too, or a function as ``on_game`` to be called
    with each record as its game ends (a progress bar, a CSV file written as it goes).
    """
    game = parse_game(game)
    tallies = {seat: Tally() for seat in SEATS}
    overall, random_only = Tally(), 0
    for record in match_records(game, a, b, n, seed, workers, opening):
        tallies[record["seat"]].add(record)
        overall.add(record)
        # a game over before the opening's last random move had no move by either policy
        random_only += opening > 0 and record["length"] <= opening
        if records is not None:
            records.append(record)
        if on_game is not None:
            on_game(record)
    return {"game": game.spec_name, "title": game.known_as, "params": game.params, "a": str(a), "b": str(b), "games": n, "total_games": 2 * n,
            "seed": seed, "opening": opening, "ended_in_opening": int(random_only),
            "seats": {seat: tally.summary() for seat, tally in tallies.items()},
            "overall": overall.summary()}


def game_label(result: dict) -> str:
    """The game of a result by the name its players know it, and the spec that names its rules
    (``Dakon (dakon:seeds=5)``: :attr:`~mancala_marl.games.base.Game.labelled`)."""
    return make_game(result["game"], **result["params"]).labelled


def opening_label(result: dict) -> str:
    """", K random opening moves" for a title, where the games began at random; else nothing."""
    k = result["opening"]
    return f", {k} random opening move{'s' if k != 1 else ''}" if k else ""


def print_summary(result: dict, file=None) -> None:
    """The summary as a rich table (A's results per seat)."""
    from rich import box

    table = titled_table(f"{result['a']} (A) vs {result['b']} (B) on {game_label(result)}, "
                         f"{result['games']} games per seat, seed {result['seed']}{opening_label(result)}",
                  caption="A's wins, draws, losses; score, margin (A - B) and length (moves): means per game",
                  box=box.SIMPLE_HEAD)
    for column in ("A moves", "W", "D", "L", "win rate", "95% CI", "score", "margin", "length"):
        table.add_column(column, justify="right", no_wrap=True)
    rows = [(seat, result["seats"][seat]) for seat in SEATS] + [("both", result["overall"])]
    for label, s in rows:
        table.add_row(label, str(s["wins"]), str(s["draws"]), str(s["losses"]), f"{s['win_rate']:.3f}",
                      f"[{s['ci95'][0]:.3f}, {s['ci95'][1]:.3f}]", f"{s['mean_score']:.2f}",
                      f"{s['mean_margin']:+.2f}", f"{s['mean_length']:.1f}")
    console(file).print(table)


def csv_writer(file) -> csv.DictWriter:
    """A writer of game records to an open ``file``, one row each, its header written."""
    writer = csv.DictWriter(file, fieldnames=RECORD_FIELDS)
    writer.writeheader()
    return writer


def check_writable(path, option: str) -> None:
    """Refuse an output file that could not be written, before the games rather than after. A new
    file is created to see, and removed again (os.access says yes to root everywhere, /proc
    included); an existing one is opened for appending, which leaves it as it is. Where a path is
    a link, its target is the file; a pipe or device (/dev/null) is taken as it is."""
    path = Path(path)
    target = path.resolve()
    if path.is_dir() or not target.parent.is_dir():
        raise BadInput(f"{option}: cannot write {path}" + ("" if target.parent.is_dir() else
                                                             f" (no folder {target.parent})"))
    if target.exists() and not target.is_file():
        return
    existed = target.exists()
    try:
        with open(target, "a"):
            pass
    except OSError as error:
        raise BadInput(f"{option}: cannot write {path} ({error.strerror})") from None
    if not existed:
        target.unlink()


def warn_random_games(result: dict, where: str = "") -> None:
    if result["ended_in_opening"]:
        print(f"warning: {where}{result['ended_in_opening']} of {result['total_games']} games ended within the "
              f"{result['opening']} random opening moves, before either policy moved; they are counted all the "
              f"same (use a shorter --opening)", file=sys.stderr)


def note_repeated_games(pairs, opening: int) -> None:
    """Say which pairs play one game again and again: two deterministic policies from the start."""
    repeated = [f"{a} vs {b}" for a, b in pairs if not opening and _policy(a).deterministic and _policy(b).deterministic]
    if repeated:
        print(f"note: {', '.join(repeated)}: both play deterministically, so each seat's games are one game "
              f"played again (and its interval means little); --opening K starts each game from K random moves",
              file=sys.stderr)
