"""A move replayed write by write, so that the page can sow it seed by seed and name what it did.

Both the web page (:mod:`mancala_marl.serve`) and ``mancala-marl play`` (:mod:`.play`) tell a
move this way. The rules exist once, as compiled kernels (:mod:`mancala_marl.games`). Each kernel keeps its
Python source (``py_func``); here it runs as Python on a board that records every write, with the
kernels it calls swapped for their own Python versions the same way. So the steps shown are the
rules' own, in their order (a relay's pick-up, a capture, a tuzduk's ball, the final sweep), for
every registered game, and nothing here asks which game it is. The compiled move stays the one
that counts: a replay that does not end on its board is dropped (the page then shows the result).
"""

from __future__ import annotations

import threading
import types

import numpy as np

from mancala_marl.games.base import side_is_empty

MAX_STEPS = 5000  # a longer relay chain is shown as its result
# The kernels whose entry (step index) and result the narration reads, by a part of their name:
# where the end of the game sweeps, whether a grand slam forfeited a capture. Only these are noted.
NOTED = ("sweep", "grand_slam", "next_round")


class _Board(np.ndarray):
    """An int array that records ``[cell, new count]`` for every write to a board cell."""

    def __setitem__(self, index, value):
        np.ndarray.__setitem__(self, index, value)
        steps = self.steps
        if len(steps) >= MAX_STEPS:
            return
        if type(index) is int or isinstance(index, np.integer):
            index = int(index)  # compared and stored as a Python int: cheaper than numpy's scalar
            if 0 <= index < self.board_cells:
                steps.append([index, self.item(index)])
        else:  # a write to a slice or a mask: the whole board, cell by cell
            plain = np.asarray(self)
            steps += [[i, int(plain[i])] for i in range(self.board_cells)]


_replaying = threading.local()  # the board of the replay this thread runs now
_replays: dict = {}  # a move kernel -> its Python replay, made once and shared by every thread


def _python(function, seen: dict):
    """``function`` (a numba dispatcher) as Python whose calls to other kernels also run as Python,
    noting on the board this thread replays on where each :data:`NOTED` kernel was entered (step
    index, name) and what it returned."""
    if function in seen:
        return seen[function]
    py = getattr(function, "py_func", None)
    if not isinstance(py, types.FunctionType):
        return function
    namespace = dict(py.__globals__)
    clone = types.FunctionType(py.__code__, namespace, py.__name__, py.__defaults__, py.__closure__)
    name = py.__name__

    def entered(*args):
        board = _replaying.board
        call = [len(board.steps), name, None]
        board.calls.append(call)
        call[2] = clone(*args)
        return call[2]

    replay = seen[function] = entered if any(part in name for part in NOTED) else clone
    for global_name in py.__code__.co_names:
        if hasattr(namespace.get(global_name), "py_func"):
            namespace[global_name] = _python(namespace[global_name], seen)
    return replay


def _replay(kernel):
    """The Python replay of ``kernel``: built on its first move (a copy of each kernel's globals),
    not on every move."""
    replay = _replays.get(kernel)
    if replay is None:
        replay = _replays.setdefault(kernel, _python(kernel, {}))
    return replay


def trace_move(game, state: np.ndarray, pit: int, after: np.ndarray) -> tuple[list, list]:
    """(steps, calls) of ``pit`` played on ``state``: steps are ``[cell, count]`` in the order the
    rules write them, calls ``[step index, kernel name, result]``; both empty when the replay did
    not reach ``after`` (the compiled move's state) or ran past :data:`MAX_STEPS`."""
    board = np.array(state, dtype=np.int64).view(_Board)
    board.board_cells, board.steps, board.calls = game.board_size, [], []
    replay = _replay(type(game).apply_kernel)
    outer, _replaying.board = getattr(_replaying, "board", None), board
    try:
        with np.errstate(all="ignore"):  # Oware's position hashes wrap round in uint64 on purpose
            replay(board, int(pit), game.spec)
    except Exception:  # only a picture: the compiled move has been played already
        return [], []
    finally:
        _replaying.board = outer
    if len(board.steps) >= MAX_STEPS or np.asarray(board).tolist() != after.tolist():  # 0.2 us; array_equal 1.3
        return [], []
    return board.steps, board.calls


def sweep_start(game, before: np.ndarray, steps: list, calls: list) -> int | None:
    """The step where the end of the game starts sweeping seeds left in pits to the stores, if it
    does (the sweep writes every pit, seeds left or not)."""
    for index, name, _ in calls:
        if "sweep" in name:  # one of NOTED
            board = np.array(before[: game.board_size], dtype=np.int64)
            for cell, count in steps[:index]:
                board[cell] = count
            return index if board.sum() > board[game.pits] + board[-1] else None
    return None


def events(game, before: np.ndarray, after: np.ndarray, pit: int, steps: list, calls: list) -> list[str]:
    """What a move did, in the game's words and the order it happened: ``relay``, ``capture``
    (Sungka's ``sunog``), ``grand slam``, ``tuzduk``, ``extra turn``, ``pass``, ``sweep``,
    ``round over`` (a round of a match: the next is set up), ``game over``. Read from the replay's steps: a pit emptied and sown on from is a relay, a
    store gaining more than one seed at a time is a capture."""
    return narrate(game, before, after, pit, steps, calls)[0]


def narrate(game, before: np.ndarray, after: np.ndarray, pit: int, steps: list,
            calls: list) -> tuple[list[str], list[int]]:
    """(:func:`events`, the opponent's pits the move captured, in the order the rules took them):
    a pit of the opponent's that the rules empty is captured, unless it is picked up to sow on (a
    relay), becomes a tuzduk, or is swept at the end of the game."""
    mover = game.to_move(before)
    pits = game.pits
    stores = (pits, 2 * pits + 1)
    own_store, origin = stores[mover], mover * (pits + 1) + pit % pits  # (pit + pits: the pit sown clockwise)
    theirs = range((1 - mover) * (pits + 1), (1 - mover) * (pits + 1) + pits)
    new_round = getattr(game, "round_of", None) is not None and game.round_of(after) != game.round_of(before)
    # a round's refill (family_rounds.next_round) closes holes and rewrites every row: no capture, no mark
    made = set() if new_round else \
        {side * (pits + 1) + hole for side, hole in set(game.marked_pits(after)[0]) - set(game.marked_pits(before)[0])}
    swept = sweep_start(game, before, steps, calls)
    end = len(steps) if swept is None else swept
    refill = next((index for index, name, _ in calls if "next_round" in name), None)
    end = end if refill is None else min(end, refill)
    counts = before[: game.board_size].tolist()  # Python ints: cheaper to read and write than numpy's
    named, captured = [], []
    for k, (cell, count) in enumerate(steps[:end]):
        delta, counts[cell] = count - counts[cell], count
        if cell == own_store and delta > 0 and (delta > 1 or _empties_a_pit(steps, k + 1, end, stores)):
            named.append(game.capture_word)
        elif cell not in stores and cell != origin and count == 0 and delta < 0:
            following = steps[k + 1] if k + 1 < end else None
            if following is not None and following[0] not in stores and following[1] == counts[following[0]] + 1:
                named.append("relay")  # sowing goes on from here
            elif cell in theirs and cell not in made:
                captured.append(cell - theirs.start)
    named += ["grand slam" for _, name, result in calls if "grand_slam" in name and result]
    if made:
        named.append(game.mark_word)
    if new_round:
        named.append("round over")
    if game.is_terminal(after):
        named += ["sweep"] * (swept is not None) + ["game over"]
    elif game.to_move(after) == mover:
        named.append("pass" if side_is_empty(after, pits, 1 - mover) else "extra turn")
    return list(dict.fromkeys(named)), list(dict.fromkeys(captured))  # each once, in the order first seen


def _empties_a_pit(steps: list, k: int, end: int, stores) -> bool:
    """Whether step ``k`` empties a pit: after a store's gain of one, a capture of a lone seed
    (Kalah's ``empty_capture``, a *sunog* facing an empty house), not a seed sown into the store."""
    return k < end and steps[k][0] not in stores and steps[k][1] == 0
