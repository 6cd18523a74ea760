"""The plain state every game shares, and the few rule helpers the games have in common.

A state is one 1-D ``int32`` array, so that copying it is a single ``ndarray.copy()`` and a
batch of games is a 2-D array with one state per row (see :mod:`mancala_marl.batch`):

====================  ===========================================================
index                 meaning
====================  ===========================================================
``0 .. P-1``          player_0's pits, in sowing order
``P``                 player_0's store (Kalah "store", Sungka "head", Togyz "kazan")
``P+1 .. 2P``         player_1's pits, in sowing order
``2P+1``              player_1's store
``2P+2`` (TO_MOVE)    0 or 1: the player to move; -1 once the game is over
``2P+3`` (TUZDUK)     Togyz only: the hole (0..P-1) on player_1's side that is
                      player_0's tuzduk, or -1
``2P+4``              likewise player_1's tuzduk on player_0's side, or -1
====================  ===========================================================

The pit opposite absolute index ``a`` is ``2P - a``. The kernels here and in the game files are
compiled with numba; they mutate the state in place and never allocate, so the batch engine can
run them over millions of rows.
"""

from __future__ import annotations

import numpy as np

from .._compile import kernel

# Entries of a game's ``spec`` (an int64 array handed to every kernel).
SPEC_GAME, SPEC_PITS, SPEC_SEEDS, SPEC_FLAG_A, SPEC_FLAG_B = range(5)
KALAH, SUNGKA, TOGYZ = 0, 1, 2

EXTRA_SLOTS = 3  # TO_MOVE and the two tuzduk slots
GAME_OVER = -1
NO_TUZDUK = -1


def board_size(pits: int) -> int:
    return 2 * (pits + 1)


def state_size(pits: int) -> int:
    return board_size(pits) + EXTRA_SLOTS


@kernel(inline="always")
def store_of(pits, player):
    return player * (pits + 1) + pits


@kernel(inline="always")
def margin(state, pits, player):
    """``player``'s store minus the other player's: the score margin, in seeds."""
    return state[store_of(pits, player)] - state[store_of(pits, 1 - player)]


@kernel(inline="always")
def side_is_empty(state, pits, player):
    first = player * (pits + 1)
    for i in range(first, first + pits):
        if state[i] != 0:
            return False
    return True


@kernel
def sweep_to_stores(state, pits):
    """End of game: every seed still in a pit goes to the store of the side it lies on."""
    for player in range(2):
        first = player * (pits + 1)
        store = first + pits
        for i in range(first, first + pits):
            state[store] += state[i]
            state[i] = 0


@kernel(inline="always")
def sow(state, pos, seeds, skip, cells):
    """Drop ``seeds`` one per cell after ``pos`` by increasing index, wrapping around and passing
    over cell ``skip`` (the opponent's store); returns the cell of the last drop."""
    while seeds > 0:
        pos += 1
        if pos == cells:
            pos = 0
        if pos == skip:
            continue
        state[pos] += 1
        seeds -= 1
    return pos


@kernel(inline="always")
def end_move(state, pits, next_player, over):
    """Hand the turn to ``next_player``, or end the game: seeds left go to their side's store."""
    if over:
        sweep_to_stores(state, pits)
        state[2 * pits + 2] = GAME_OVER
    else:
        state[2 * pits + 2] = next_player


class IllegalMoveError(ValueError):
    """Raised when a move is not legal in the current state (empty pit, out of range, game over)."""


class Game:
    """Parameters of one variant and the operations on its states.

    Subclasses set ``name``, ``spec`` (int64 array read by the compiled kernel), ``apply_kernel`` (the
    compiled ``apply(state, action, spec)``) and ``params`` (the keyword arguments that rebuild
    the game), and fill in :meth:`init`'s extra slots if they need to.
    """

    name: str
    apply_kernel = None

    def __init__(self, pits: int, seeds: int, params: dict, flag_a: int = 0, flag_b: int = 0):
        _check_count(self.pit_word, pits, low=1)
        _check_count(self.seed_word, seeds, low=1)  # with none, no one could move
        self.pits = int(pits)
        self.seeds = int(seeds)
        self.params = params
        self.spec = np.array([self.game_id, pits, seeds, flag_a, flag_b], dtype=np.int64)
        self.board_size = board_size(self.pits)
        self.state_size = state_size(self.pits)
        self.total_seeds = 2 * self.pits * self.seeds
        self.to_move_index = self.board_size

    game_id = -1
    pit_word, seed_word = "pits", "seeds"  # the parameter names this variant uses

    # -- states -------------------------------------------------------------------------------
    def init(self) -> np.ndarray:
        """The starting state: every pit full, stores empty, player_0 to move, no tuzduk."""
        state = np.zeros(self.state_size, dtype=np.int32)
        for player in range(2):
            first = player * (self.pits + 1)
            state[first:first + self.pits] = self.seeds
        state[self.board_size + 1:] = NO_TUZDUK
        return state

    def from_board(self, board, to_move: int = 0, tuzduk=(NO_TUZDUK, NO_TUZDUK)) -> np.ndarray:
        """A state built from a canonical board (for worked examples, puzzles and tests)."""
        board = np.asarray(board)
        if board.shape != (self.board_size,):
            raise ValueError(f"board must have {self.board_size} cells for {self.pits} pits, got shape {board.shape}")
        if (board < 0).any():
            raise ValueError("board counts must be non-negative")
        if to_move not in (0, 1):
            raise ValueError(f"to_move must be 0 or 1, got {to_move!r}")
        state = np.empty(self.state_size, dtype=np.int32)
        state[: self.board_size] = board
        state[self.board_size] = to_move
        state[self.board_size + 1:] = tuzduk
        return state

    @staticmethod
    def copy(state: np.ndarray) -> np.ndarray:
        return state.copy()

    def board(self, state: np.ndarray) -> np.ndarray:
        return state[: self.board_size].copy()

    def to_move(self, state: np.ndarray) -> int:
        """0 or 1, or -1 once the game is over."""
        return int(state[self.board_size])

    def is_terminal(self, state: np.ndarray) -> bool:
        return state[self.board_size] == GAME_OVER

    def scores(self, state: np.ndarray) -> tuple[int, int]:
        """The two stores (player_0's, player_1's)."""
        return int(state[self.pits]), int(state[2 * self.pits + 1])

    def returns(self, state: np.ndarray) -> np.ndarray:
        """+1/-1/0 per player once the game is over (more seeds wins), zeros before."""
        if not self.is_terminal(state):
            return np.zeros(2, dtype=np.float32)
        s0, s1 = self.scores(state)
        sign = float(np.sign(s0 - s1))
        return np.array([sign, -sign], dtype=np.float32)

    def legal_mask(self, state: np.ndarray) -> np.ndarray:
        """Boolean mask over the mover's pits; all False once the game is over.

        In every variant a move is legal exactly when the pit is non-empty: a Togyz tuzduk
        never holds balls (they go straight to its owner's kazan).
        """
        player = state[self.board_size]
        if player == GAME_OVER:
            return np.zeros(self.pits, dtype=bool)
        first = player * (self.pits + 1)
        return state[first:first + self.pits] > 0

    def apply(self, state: np.ndarray, action: int) -> np.ndarray:
        """Play ``action`` (a pit 0..P-1 of the mover) on ``state`` in place; returns ``state``.

        Raises :class:`IllegalMoveError` naming the problem if the move is not legal.
        """
        player = state[self.board_size]
        # The common case first and cheap (environments call this on every step); anything
        # else goes through the checks below, which name what is wrong.
        if (isinstance(action, (int, np.integer)) and 0 <= action < self.pits and player >= 0
                and state[player * (self.pits + 1) + action] > 0):
            type(self).apply_kernel(state, int(action), self.spec)
            return state
        player = int(player)
        if player == GAME_OVER:
            raise IllegalMoveError(f"{self.name}: the game is over, no move can be played")
        try:
            pit = int(action)
        except (TypeError, ValueError):
            raise IllegalMoveError(f"{self.name}: action must be an integer pit index, got {action!r}") from None
        if pit != action or not 0 <= pit < self.pits:
            raise IllegalMoveError(f"{self.name}: action {action!r} is out of range, pits are 0..{self.pits - 1}")
        if state[player * (self.pits + 1) + pit] == 0:
            raise IllegalMoveError(f"{self.name}: player_{player}'s pit {pit} is empty, it cannot be played")
        type(self).apply_kernel(state, pit, self.spec)
        return state

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{type(self).__name__}({args})"


def _check_count(name: str, value, low: int) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if value < low:
        raise ValueError(f"{name} must be >= {low}, got {value}")


def check_choice(name: str, value, choices) -> None:
    if value not in choices:
        raise ValueError(f"{name} must be one of {sorted(choices)!r}, got {value!r}")


def check_bool(name: str, value) -> None:
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {value!r}")
