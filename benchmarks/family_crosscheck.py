"""Our two-row family against MancalaGames (StoneShark's engine of 141 traditional games), move
for move, on the game files of its catalogue.

    .venv/bin/python benchmarks/family_crosscheck.py --oracle ../shared/oracles/mancalagames
    .venv/bin/python benchmarks/family_crosscheck.py --oracle ../shared/oracles/mancalagames --games 20 Wari.txt

For each file (default: every GameProps/*.txt of the oracle but _all_params.txt; a FILE is a path,
or a name in the oracle's GameProps/) our importer, mancala_marl.games.load_mancalagames, builds
the game or refuses it in one line (status "refused", with its reason). An accepted game is played
``--games`` times with random legal moves, in lockstep with MancalaGames' engine, South (our
player_0) to start; the moves are drawn by a numpy Generator seeded from ``--seed``, the file's
name and the game's number (Python's ``random``, which MancalaGames uses, is seeded the same way),
so that a run reproduces and any game replays alone. After every move both must agree on the legal
moves, every pit, both stores and who moves next (extra turns, passes); when either ends the game
the other must end it too, with the same board, stores and winner. A game of rounds that the
family plays as a whole match (``rounds="match"``) is played round after round: where MancalaGames
ends a round, ours must have ended it in the same move with the same winner and the same seeds
held by each player, and the next round is compared from its refilled board and closed holes
(MancalaGames' player starts it as its own UI does, ``new_game(new_round=True)``); the other games
of rounds are compared over their first round. ``rounds`` counts a match file's rounds played. A game still going after 1000 moves (MAX_MOVES) on MancalaGames' side counts as agreed,
whether ours goes on too or ends there by the family's own bound (its MOVE_LIMIT, a rule that
MancalaGames lacks: two players can hand a lone seed back and forth for ever). A file's
first difference is reported with the game, the move and our moves from the start (pits 0..H-1 of
the player to move) that reproduce it: ``state = game.init()``, then ``game.apply(state, pit)``
for each. A game whose start is drawn (a random start pattern) starts from MancalaGames' drawn
board, ours set to it (``game.from_board``: our own draw is alike but not the same), and is
compared move by move from there; its first difference names that board. A start pattern that
plays South's first move itself (MOVE_RIGHTMOST) hands the turn on as that move does. Status "error": MancalaGames failed to load or play the file, or our code raised.

MancalaGames is GPL-3 and outside this project: it is loaded here at run time from the folder
that ``--oracle`` names (../shared/oracles/mancalagames beside the clone), never imported by the
package. Its engine's speed, random moves through get_moves, move and test_pass one Python game at
a time, is recorded per file (refused files too, playing the oracle alone) beside ours through
legal_mask and apply.

Writes family_crosscheck.json (per file: status matched, refused, mismatch or error, games, moves,
reason; a summary, the oracle's commit and our git revision) and family_crosscheck.md beside it;
a run of some files keeps the other files' rows.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import re
import subprocess
import sys
import time
import traceback
import zlib
from pathlib import Path

from results_dir import add_results_dir, shipped

ROOT = Path(__file__).resolve().parents[1]
NAME = "family_crosscheck"
SKIPPED = {"_all_params.txt"}  # every parameter of MancalaGames at once: no game
STATUSES = ("matched", "mismatch", "refused", "error")


# --- MancalaGames, loaded at run time ---------------------------------------------------------

def load_oracle(folder: Path):
    """MancalaGames' modules from ``folder``/src, headless: no animation, no game log. Returns
    (man_config, game_info)."""
    src = Path(folder) / "src"
    if not (src / "mancala.py").is_file():
        raise SystemExit(f"--oracle {folder}: no MancalaGames there (no src/mancala.py)")
    if str(src) not in sys.path:
        sys.path.insert(0, str(src))
    animator = importlib.import_module("animator")
    animator.ENABLED = False  # before any game is built: plain lists for the board, no animation
    importlib.import_module("game_logger").game_log.active = False
    return importlib.import_module("man_config"), importlib.import_module("game_info")


def oracle_commit(folder: Path) -> str | None:
    """The MancalaGames commit of the snapshot, as its ORACLE.md names it."""
    try:
        found = re.search(r"\bcommit\s+([0-9a-f]{40})\b", (Path(folder) / "ORACLE.md").read_text())
    except OSError:
        return None
    return found.group(1) if found else None


class Oracle:
    """MancalaGames' engine on one game file, seen in our layout.

    Its board ``board[loc]``: loc 0..H-1 South's holes (turn False, our player_0's pits 0..H-1),
    loc H..2H-1 North's (turn True, our player_1's pits 0..H-1, our cells H+1..2H), both in sowing
    order; ``store[0]`` South's (our cell H), ``store[1]`` North's (our cell 2H+1). A move is a
    position of the mover's: South's pos p is loc p (our pit p), North's pos p is loc 2H-1-p (our
    pit H-1-p). ``seconds`` adds up the time spent in the engine's calls; ``seen`` counts the
    extra turns, the passes and the ends of each kind (WIN, TIE, ROUND_WIN, ...) that its games
    went through, to show which rules the random games exercised."""

    def __init__(self, man_config, gi, path: Path):
        self.gi = gi
        self.game, _player = man_config.make_game(str(path))
        self.holes = self.game.cts.holes
        self.triples = self.game.info.mlength == 3  # moves are (row, pos, direction): territory games
        self.seconds = 0.0
        self.seen = {"extra_turns": 0, "passes": 0}

    def start(self, seed: str) -> None:
        """A new game (the first round), South to move."""
        random.seed(seed)  # start patterns and the like draw from Python's random
        game = self.game
        start = time.perf_counter()
        game.mdata = None  # the last game's last move, which some rules read, as in a game just built
        game.starter = True  # NewGame hands the first move to the player who did not start last
        game.new_game()
        self.seconds += time.perf_counter() - start
        game.starter = False
        if not self.opens_itself:
            game.turn = False

    @property
    def opens_itself(self) -> bool:
        """Whether the start pattern plays South's first move (MOVE_RIGHTMOST, MOVE_RANDOM): then
        whoever that move hands the turn to moves next."""
        return self.game.info.start_pattern in (self.gi.StartPattern.MOVE_RIGHTMOST, self.gi.StartPattern.MOVE_RANDOM)

    @property
    def mover(self) -> int:
        return int(self.game.turn)

    def cells(self) -> list[int]:
        """Pits and stores in our layout: player_0's pits, store, player_1's pits, store."""
        board, store, holes = self.game.board, self.game.store, self.holes
        return [*board[:holes], store[0], *board[holes:], store[1]]

    def raw_moves(self) -> list:
        start = time.perf_counter()
        moves = self.game.get_moves()
        self.seconds += time.perf_counter() - start
        return moves

    def pit(self, pos: int) -> int:
        """Our pit for the mover's position ``pos``."""
        return pos if not self.game.turn else self.holes - 1 - pos

    def moves(self, ours: list[int]) -> tuple[list, str | None]:
        """The mover's legal moves as our actions, sorted ("pass" for MancalaGames' pass token), and
        None; or the moves as MancalaGames gives them and why they have no action of ours. A move
        that names its way (pos, CCW or CW) is our action ``pit`` or ``pit + H``; one of a hole
        whose way is fixed (pos, None) is whichever of the two ``ours`` (our legal actions) holds:
        the boards after it tell whether the way was the same."""
        raw = self.raw_moves()
        pits = []
        for move in raw:
            if isinstance(move, int) and move == self.gi.PASS_TOKEN:
                pits.append("pass")
            elif isinstance(move, int) and not isinstance(move, bool) and 0 <= move < self.holes:
                pits.append(self.pit(move))
            elif not self.triples and isinstance(move, tuple) and len(move) == 2:  # (pos, direction)
                pit, way = self.pit(move[0]), move[1]
                if way is None:
                    pits.append(pit + self.holes if pit not in ours and pit + self.holes in ours else pit)
                else:
                    pits.append(pit + self.holes * (way == self.gi.Direct.CW))
            elif self.triples and len(move) == 3 and move[2] is None:  # (row, pos, no direction): a hole anywhere
                loc = self.game.cts.xlate_pos_loc(move[0], move[1])
                if int(loc >= self.holes) != self.mover:
                    return [repr(m) for m in raw], f"MancalaGames offers a hole of the other side: {move!r}"
                pits.append(loc - self.holes * self.mover)
            else:
                return [repr(m) for m in raw], ("MancalaGames' moves are not positions of a side "
                                                f"(a choice of direction, a hole anywhere, a store): {raw!r}")
        return sorted(pits, key=lambda move: (move == "pass", 0 if move == "pass" else move)), None

    def play(self, move):
        """Play ``move`` (as MancalaGames takes it); then the pass, if the next player has no move
        and the rules pass. Returns move()'s WinCond, or None."""
        start = time.perf_counter()
        cond = self.game.move(move)
        passed = not self.ended(cond) and self.game.test_pass()
        self.seconds += time.perf_counter() - start
        self.seen["passes"] += passed
        if cond is self.gi.WinCond.REPEAT_TURN:
            self.seen["extra_turns"] += 1
        elif cond is not None:
            self.seen[cond.name] = self.seen.get(cond.name, 0) + 1
        return cond

    def play_pit(self, pit: int):
        if self.game.info.mlength == 2:  # moves name their way: our action pit + H is the hole sown clockwise
            hole, way = pit % self.holes, self.gi.Direct.CW if pit >= self.holes else self.gi.Direct.CCW
            pos = hole if not self.game.turn else self.holes - 1 - hole
            raw = self.raw_moves()
            move = self.gi.MoveTpl(pos, way) if self.gi.MoveTpl(pos, way) in raw else self.gi.MoveTpl(pos, None)
            return self.play(move)
        if self.triples:  # a territory game names a hole by (row, pos, direction)
            loc = pit + self.holes * self.mover
            row = int(loc < self.holes)
            return self.play(self.gi.MoveTpl(row, self.game.cts.xlate_pos_loc(row, loc), None))
        return self.play(pit if not self.game.turn else self.holes - 1 - pit)

    def round_over(self, cond) -> bool:
        """Whether move()'s result ends a round of a match that goes on (ROUND_WIN, ROUND_TIE)."""
        return cond is not None and cond in (self.gi.WinCond.ROUND_WIN, self.gi.WinCond.ROUND_TIE)

    def next_round(self) -> None:
        """Set up the next round, as MancalaGames' player does when a round ends."""
        start = time.perf_counter()
        self.game.new_game(new_round=True)
        self.seconds += time.perf_counter() - start
        self.seen["rounds"] = self.seen.get("rounds", 0) + 1

    def closed(self) -> list[int]:
        """The holes blocked for the round, as our cells."""
        holes = self.holes
        return [loc if loc < holes else loc + 1 for loc, blocked in enumerate(self.game.blocked) if blocked]

    def ended(self, cond) -> bool:
        """Whether move()'s result ends the game (WIN, TIE, or the round's ROUND_WIN, ROUND_TIE,
        ENDLESS); REPEAT_TURN and None do not."""
        return cond is not None and cond is not self.gi.WinCond.REPEAT_TURN

    def winner(self, cond) -> int | None:
        """0 or 1 (our player_0, player_1), or None for a draw, once ended."""
        if cond.is_tie():
            return None
        winner = self.game.mdata.winner if self.game.mdata else None
        return None if winner is None else int(winner)


# --- our side ---------------------------------------------------------------------------------

def our_importer():
    """mancala_marl.games.load_mancalagames (a function, so that a test may hand in another)."""
    from mancala_marl.games import load_mancalagames

    return load_mancalagames


def our_winner(game, state) -> int | None:
    first = float(game.returns(state)[0])
    return None if first == 0 else (0 if first > 0 else 1)


def shown_winner(winner) -> str:
    return "a draw" if winner is None else f"player_{winner} wins"


def board_text(cells: list[int], holes: int) -> str:
    """``[4 4 4 | 0 | 4 4 4 | 0]``: player_0's pits | store | player_1's pits | store."""
    return (f"[{' '.join(map(str, cells[:holes]))} | {cells[holes]} | "
            f"{' '.join(map(str, cells[holes + 1:2 * holes + 1]))} | {cells[2 * holes + 1]}]")


def cell_name(cell: int, holes: int) -> str:
    player, index = divmod(cell, holes + 1)
    return f"player_{player}'s store" if index == holes else f"player_{player} pit {index}"


class Player:
    """Our game beside the oracle's, timed."""

    def __init__(self, game):
        self.game = game
        self.holes = game.pits
        self.cells = 2 * game.pits + 2
        self.seconds = 0.0
        state = game.init()  # the kernels compiled (or loaded from numba's cache) before any timing
        game.apply(state, self.legal(state)[0])
        self.seconds = 0.0

    def legal(self, state) -> list[int]:
        start = time.perf_counter()
        mask = self.game.legal_mask(state)
        self.seconds += time.perf_counter() - start
        return [int(pit) for pit in mask.nonzero()[0]]

    def apply(self, state, pit: int) -> None:
        start = time.perf_counter()
        self.game.apply(state, pit)
        self.seconds += time.perf_counter() - start


def differences(ours: Player, state, legal: list[int], oracle: Oracle, cond) -> list[str]:
    """What differs between the two positions now, one entry per aspect (empty when they agree):
    the end, the pits and stores, then the winner (both ended) or the mover and its legal moves
    (ours: ``legal``)."""
    game, holes = ours.game, ours.holes
    found = []
    our_cells = [int(v) for v in state[:ours.cells]]
    if game.params["close_at"]:  # MancalaGames keeps the seeds closing takes out of play in South's store
        from mancala_marl.games.family_space import OUT_OF_PLAY
        our_cells[holes] += int(state[ours.cells + OUT_OF_PLAY])
    their_cells = oracle.cells()
    if game.params["close_at"] and getattr(oracle.game.mdata, "ended", None) is oracle.gi.WinCond.ENDLESS:
        # an endless sowing's seeds in hand leave play in both, but MancalaGames drops them rather than
        # putting them with the closed holes' in South's store: that store is not compared then
        their_cells[holes] = our_cells[holes]
    ours_over, theirs_over = bool(game.is_terminal(state)), oracle.ended(cond)
    if ours_over != theirs_over:
        if theirs_over:
            found.append(f"end: MancalaGames ended the game ({cond.name}, "
                         f"{shown_winner(oracle.winner(cond))}), ours goes on with player_{int(state[ours.cells])} "
                         "to move")
        else:
            found.append(f"end: ours ended the game ({shown_winner(our_winner(game, state))}), MancalaGames goes on "
                         f"with player_{oracle.mover} to move")
    if game.closed_cells(state) != oracle.closed():
        found.append(f"closed holes, ours vs MancalaGames: {game.closed_cells(state)} vs {oracle.closed()} (cells)")
    if our_cells != their_cells:
        cells = [cell for cell in range(ours.cells) if our_cells[cell] != their_cells[cell]]
        named = ", ".join(f"{cell_name(cell, holes)} {our_cells[cell]} vs {their_cells[cell]}" for cell in cells[:4])
        more = f" and {len(cells) - 4} more" if len(cells) > 4 else ""
        found.append(f"board, ours vs MancalaGames: {named}{more}; ours {board_text(our_cells, holes)}, "
                     f"MancalaGames {board_text(their_cells, holes)}")
    if ours_over and theirs_over:
        if our_winner(game, state) != oracle.winner(cond):
            found.append(f"winner: ours {shown_winner(our_winner(game, state))}, MancalaGames "
                         f"{shown_winner(oracle.winner(cond))} ({cond.name})")
    elif not ours_over and not theirs_over:
        if int(state[ours.cells]) != oracle.mover:
            found.append(f"mover: ours player_{int(state[ours.cells])}, MancalaGames player_{oracle.mover}")
        else:
            their_moves, why = oracle.moves(legal)
            if why:
                found.append(f"legal moves: {why}")
            elif legal != their_moves:
                found.append(f"legal moves of player_{oracle.mover}: ours {legal}, MancalaGames {their_moves}")
    return found


def round_result(game, state, oracle: Oracle, cond, played_round: int) -> str:
    """Where the round just ended in both engines differs (its number, winner, the seeds each held),
    or ''."""
    ours = game.last_round(state)
    board, store = oracle.game.board, oracle.game.store
    held = [store[0] + sum(board[:oracle.holes]), store[1] + sum(board[oracle.holes:])]
    theirs = {"round": played_round, "winner": oracle.winner(cond), "seeds": held}
    return "" if ours == theirs else f"round's end, ours vs MancalaGames: {ours} vs {theirs}"


def game_seed(seed: int, name: str, number: int) -> list[int]:
    """The seed of one game: the run's, the file's name and the game's number."""
    return [seed, zlib.crc32(name.encode()), number]


def play_lockstep(ours: Player, oracle: Oracle, seed: int, name: str, number: int, max_moves: int,
                  played: list[int]) -> dict:
    """One random game, both engines in lockstep, its moves (our pits) appended to ``played``.
    Returns moves (compared), capped (still going after ``max_moves``), and on the first
    difference: move, moves_played, differences."""
    import numpy as np

    rng = np.random.default_rng(game_seed(seed, name, number))
    game = ours.game
    oracle.start(f"{seed}:{name}:{number}")
    # a drawn start is MancalaGames' draw (ours draws alike, not the same): its board, then every move
    state = game.from_board(np.array(oracle.cells())) if game.random_start else game.init()
    start = {"start": oracle.cells()} if game.random_start else {}
    cond = None
    for move in range(max_moves + 1):
        over = game.is_terminal(state)
        legal = [] if over else ours.legal(state)
        found = differences(ours, state, legal, oracle, cond)
        rounds = {"rounds": game.round_of(state)}
        if found and move == max_moves and over and not oracle.ended(cond):
            # the family's own bound (MOVE_LIMIT, as MAX_MOVES) ends it here, board swept; MancalaGames
            # has none and plays on: agreed up to the bound, as a game both play on past it
            return {"moves": move, "capped": True, **rounds}
        if found:
            return {"moves": move, "capped": False, "move": move, "moves_played": played, "differences": found,
                    **start, **rounds}
        if over or move == max_moves:
            return {"moves": move, "capped": not over, **rounds}
        if not legal:  # and MancalaGames has none either (compared above), yet neither ended the game
            return {"moves": move, "capped": False, "move": move, "moves_played": played,
                    "differences": [f"stuck: player_{oracle.mover} is to move and has no legal move on either "
                                    "side, yet neither ended the game"], **rounds}
        pit = legal[int(rng.integers(len(legal)))]
        played.append(pit)
        before = game.round_of(state)
        ours.apply(state, pit)
        cond = oracle.play_pit(pit)
        if game.is_match and oracle.round_over(cond):  # ours set up the next round within the same move
            ended = round_result(game, state, oracle, cond, before)
            if ended:
                return {"moves": move + 1, "capped": False, "move": move + 1, "moves_played": played,
                        "differences": [ended], **start, **rounds}
            oracle.next_round()
            cond = None
    raise AssertionError("unreachable")


def play_oracle_alone(oracle: Oracle, seed: int, name: str, number: int, max_moves: int) -> int:
    """One random game of MancalaGames alone (a file we refuse, for its speed); returns its moves."""
    import numpy as np

    rng = np.random.default_rng(game_seed(seed, name, number))
    oracle.start(f"{seed}:{name}:{number}")
    for move in range(max_moves):
        moves = oracle.raw_moves()
        if not moves:  # no move and no pass token: nothing more to play
            return move
        if oracle.ended(oracle.play(moves[int(rng.integers(len(moves)))])):
            return move + 1
    return max_moves


def last_line(error: BaseException) -> str:
    text = f"{type(error).__name__}: {error}".strip().splitlines()
    return text[0] if text else type(error).__name__


def where(error: BaseException) -> str:
    """The innermost frame of a traceback, as file:line."""
    frames = traceback.extract_tb(error.__traceback__)
    return f" (at {Path(frames[-1].filename).name}:{frames[-1].lineno})" if frames else ""


def check_file(path: Path, oracle_modules, games: int, seed: int, max_moves: int, advance) -> dict:
    """The row of one game file."""
    from mancala_marl.errors import BadInput

    name = path.name
    row = {"status": None, "games": 0, "moves": 0, "rounds": 0, "reason": ""}
    try:
        game = our_importer()(path)
        refusal = None
    except BadInput as error:
        game, refusal = None, str(error)
    except Exception as error:  # noqa: BLE001  (a bug of ours, reported as such)
        advance(games)
        return {**row, "status": "error", "reason": f"our importer raised {last_line(error)}{where(error)}"}
    try:
        oracle = Oracle(*oracle_modules, path)
    except Exception as error:  # noqa: BLE001
        advance(games)
        return {**row, "status": "refused" if refusal else "error",
                "reason": refusal or f"MancalaGames cannot load it: {last_line(error)}{where(error)}",
                "oracle_error": f"{last_line(error)}{where(error)}"}

    if refusal is not None:
        row.update(status="refused", reason=refusal)
        moves = played = 0
        try:
            for number in range(games):
                moves += play_oracle_alone(oracle, seed, name, number, max_moves)
                played += 1
                advance(1)
        except Exception as error:  # noqa: BLE001
            row["oracle_error"] = f"game {number}: {last_line(error)}{where(error)}"
            advance(games - number)
        row.update(oracle_games=played, oracle_moves=moves, oracle_seen=oracle.seen,
                   oracle_seconds=round(oracle.seconds, 4),
                   oracle_moves_per_s=round(moves / oracle.seconds) if oracle.seconds else None)
        return row

    ours = Player(game)
    first, mismatched, capped, longest = None, 0, 0, 0
    for number in range(games):
        played: list[int] = []
        try:
            result = play_lockstep(ours, oracle, seed, name, number, max_moves, played)
        except Exception as error:  # noqa: BLE001  (either engine's, named by the frame)
            row["games"] += 1
            row.update(status="error", reason=f"game {number}, move {len(played)}: {last_line(error)}{where(error)}; "
                                              f"our moves {played}")
            advance(games - number)
            break
        row["games"] += 1
        row["moves"] += result["moves"]
        row["rounds"] += result["rounds"]
        longest = max(longest, result["moves"])
        capped += result["capped"]
        if "differences" in result:
            mismatched += 1
            if first is None:
                first = {"game": number, "move": result["move"], "differences": result["differences"],
                         "moves_played": result["moves_played"], "seed": game_seed(seed, name, number),
                         **({"start": result["start"]} if "start" in result else {})}
        advance(1)
    if row["status"] is None:
        row["status"] = "mismatch" if first else "matched"
    if first is not None:
        row["reason"] = (f"game {first['game']}, after move {first['move']}: " + "; ".join(first["differences"])
                         + f"; our moves {first['moves_played']}"
                         + (f" from the drawn start {board_text(first['start'], game.pits)}" if "start" in first else ""))
        row["first_mismatch"] = first
    played_moves = row["moves"]
    row.update(match=bool(game.is_match), mismatched_games=mismatched, capped_games=capped, longest=longest,
               seen=oracle.seen,
               game_spec=repr(game), oracle_seconds=round(oracle.seconds, 4),
               oracle_moves_per_s=round(played_moves / oracle.seconds) if oracle.seconds else None,
               ours_moves_per_s=round(played_moves / ours.seconds) if ours.seconds else None)
    return row


# --- the run ----------------------------------------------------------------------------------

def game_files(oracle: Path, names: list[str]) -> list[Path]:
    props = oracle / "GameProps"
    if not names:
        return sorted(path for path in props.glob("*.txt") if path.name not in SKIPPED)
    files = []
    for name in names:
        path = Path(name)
        if not path.is_file():
            path = props / name
        if not path.is_file():
            raise SystemExit(f"no game file {name!r} (neither a path nor a file in {props})")
        files.append(path)
    return files


def git_revision() -> dict:
    def git(*args):
        done = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True)
        return done.stdout.strip() if done.returncode == 0 else None

    status = git("status", "--porcelain", "--untracked-files=no")
    return {"commit": git("rev-parse", "HEAD"), "dirty": bool(status) if status is not None else None}


def summary(rows: dict) -> dict:
    counts = {status: sum(row["status"] == status for row in rows.values()) for status in STATUSES}
    played = [row for row in rows.values() if row["status"] in ("matched", "mismatch")]
    timed = [row for row in rows.values() if row.get("oracle_seconds")]
    oracle_moves = sum(row.get("oracle_moves", row["moves"]) for row in timed)
    oracle_seconds = sum(row["oracle_seconds"] for row in timed)
    matches = [row for row in played if row.get("match")]
    return {"files": len(rows), **counts, "games": sum(row["games"] for row in played),
            "moves": sum(row["moves"] for row in played),
            "matches": len(matches), "rounds": sum(row["rounds"] for row in matches),
            "oracle_moves_per_s": round(oracle_moves / oracle_seconds) if oracle_seconds else None}


def table_rows(rows: dict) -> list[tuple[str, ...]]:
    return [(name, row["status"], f"{row['games']:,}", f"{row['rounds']:,}" if row.get("match") else "",
             f"{row['moves']:,}", f"{row['oracle_moves_per_s']:,}" if row.get("oracle_moves_per_s") else "",
             row["reason"]) for name, row in rows.items()]


# rounds: in a file played as a whole match, the rounds its matches played (compared round by round)
HEADERS = ("file", "status", "games", "rounds", "moves", "MancalaGames moves/s", "reason or first mismatch")


def print_table(rows: dict, total: dict) -> None:
    line = (f"{total['files']} files: {total['matched']} matched, {total['mismatch']} mismatch, "
            f"{total['refused']} refused, {total['error']} error; {total['games']:,} games, "
            f"{total['moves']:,} moves compared; {total['matches']} files played as whole matches, "
            f"{total['rounds']:,} rounds")
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        for cells in [HEADERS, *table_rows(rows)]:
            print(" | ".join(cells))
        print(line)
        return
    from rich.text import Text

    colours = {"matched": "green", "mismatch": "red", "refused": "yellow", "error": "magenta"}
    table = Table(*HEADERS, title="Our family against MancalaGames, move for move", caption=line)
    for cells in table_rows(rows):  # as Text: a board [4 4 | 0 | ...] is no markup
        table.add_row(Text(cells[0]), Text(cells[1], style=colours[cells[1]]), *map(Text, cells[2:]))
    Console().print(table)


def markdown(rows: dict, total: dict, command: str, commit: str | None) -> str:
    lines = [f"Made with `{command}` (MancalaGames at {commit or 'an unknown commit'}): random games in lockstep, "
             "compared after every move.", "",
             f"{total['matched']} matched, {total['mismatch']} mismatch, {total['refused']} refused, "
             f"{total['error']} error of {total['files']} files; {total['games']:,} games, {total['moves']:,} "
             f"moves compared; MancalaGames plays {total['oracle_moves_per_s'] or 0:,} moves/s. "
             f"{total['matches']} files are played as whole matches of rounds, compared round by round: "
             f"{total['rounds']:,} rounds (the rounds column).", "",
             "| " + " | ".join(HEADERS) + " |", "|---|---|---:|---:|---:|---:|---|"]
    for cells in table_rows(rows):
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return "\n".join(lines) + "\n"


def seed_argument(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be an integer >= 0, got {text!r}")
    return value


def main(argv=None) -> int:
    from mancala_marl.cli.arguments import param_argument
    from mancala_marl.limits import limit

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="*", metavar="FILE",
                        help="game files, paths or names in the oracle's GameProps/ (default: all of them but "
                             "_all_params.txt)")
    parser.add_argument("--oracle", type=Path, required=True, metavar="DIR",
                        help="the MancalaGames folder, with src/ and GameProps/ (../shared/oracles/mancalagames "
                             "beside the clone)")
    parser.add_argument("--games", type=param_argument(limit("games", why_high="")), default=200,
                        help="random games per file (default 200)")
    parser.add_argument("--seed", type=seed_argument, default=0, help="seed of the random moves (default 0)")
    add_results_dir(parser)
    parser.add_argument("--json", type=Path, metavar="PATH",
                        help=f"the JSON file (default: {NAME}.json in --results-dir); the .md goes beside it")
    args = parser.parse_args(argv)

    from mancala_marl.games import MAX_MOVES
    from mancala_marl.progress import progress_bar

    oracle_modules = load_oracle(args.oracle)
    files = game_files(args.oracle, args.files)
    out = args.json or (args.results_dir or shipped(__file__)) / f"{NAME}.json"
    command = "python benchmarks/family_crosscheck.py " + " ".join(argv if argv is not None else sys.argv[1:])
    revision = git_revision()
    rows = {}
    with progress_bar() as progress:
        task = progress.add_task("files", total=len(files) * args.games)
        for path in files:
            progress.update(task, description=path.name)
            row = check_file(path, oracle_modules, args.games, args.seed, MAX_MOVES,
                             lambda n: progress.advance(task, n))
            rows[path.name] = {**row, "command": command.strip(), "revision": revision["commit"]}

    print_table(rows, summary(rows))
    out.parent.mkdir(parents=True, exist_ok=True)
    kept = {}
    if out.exists():
        try:
            kept = json.loads(out.read_text()).get("files", {})
        except (ValueError, AttributeError):
            kept = {}
    every = dict(sorted({**kept, **rows}.items()))
    total = summary(every)
    commit = oracle_commit(args.oracle)
    out.write_text(json.dumps({"summary": total, "oracle": {"name": "MancalaGames", "commit": commit,
                                                            "folder": str(args.oracle)},
                               "revision": revision, "seed": args.seed, "games": args.games,
                               "max_moves": MAX_MOVES, "files": every}, indent=2) + "\n")
    out.with_suffix(".md").write_text(markdown(every, total, command.strip(), commit))
    print(f"wrote {out} and {out.with_suffix('.md').name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
