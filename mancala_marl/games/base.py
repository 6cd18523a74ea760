"""The plain state every game shares, the :class:`Game` base class, and the rule helpers the
games have in common.

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
``2P+3 ..``           the game's own slots (``extra_slots`` of them): Togyz Kumalak's
                      tuzduks, Oware's positions since the last capture
====================  ===========================================================

The pit opposite absolute index ``a`` is ``2P - a``. The kernels here and in the game files are
compiled with numba; they mutate the state in place and never allocate, so the batch engine can
run them over millions of rows.

What a game declares, and where it is used (every generic module reads these, never the game's
name):

- ``apply_kernel(state, pit, spec)``: a move (assumed legal).
- ``legal_kernel(state, spec, out) -> count``: the legal moves, the one source of legality for the
  environments, the batch engine, the vectorized env and the search.
- ``exact_kernel(state, spec, scratch) -> pit or -1``: the ``exact`` policy's pit.
- ``extra_features`` and ``extra_obs_kernel(state, player, spec, out)``: features the ``counts``
  observation adds after the board; ``custom_obs`` and ``custom_obs_kernel``: other encodings.
- ``store_free``: whether the rest of a game depends on the board alone (not the stores), so
  that a search may share table entries between positions that differ only in their stores.
- ``key_cells``: how many leading cells of the state decide the rest of the game (a search's
  table key).
- ``captures_opposite``: whether a capture takes the pit opposite the mover's last one (Kalah,
  Sungka), rather than the pits where the sowing ends (Togyz Kumalak, Oware); ``play`` names the
  pits a move captured from it.
- ``parameters``: the rule parameters (:class:`~mancala_marl.games.params.Param`), the pits per
  side first and the seeds per pit second; a game's constructor takes them as keywords, and its
  ``spec`` holds them in that order after ``spec[SPEC_GAME]``, so that a kernel reads its own as
  ``spec[NAME]`` with ``NAME = spec_index(parameters, "name")``.
- ``marked_pits`` (render), ``examples`` and ``param_strategy`` (tests and benchmarks).

The registry (:mod:`mancala_marl.games`) checks that a game class declares all of these.
"""

from __future__ import annotations

import inspect
from enum import IntEnum

import numpy as np

from mancala_marl.errors import BadInput, IllegalMoveError
from .._compile import kernel
from .params import Param, check_values
from .named import NAMED

# The first entries of a game's ``spec`` (an int64 array handed to every kernel): the game's id,
# then its parameters in the order of their declaration, the pits and the seeds first. Its last
# entry is the size of the action space (``action_count``).
SPEC_GAME, SPEC_PITS, SPEC_SEEDS = range(3)

GAME_OVER = -1
# Moves after which the environments truncate a game and the match loops stop one (a draw):
# with no repetition rule, Togyz Kumalak (and Kalah, Sungka) balls can circle for ever between
# two deterministic players.
MAX_MOVES = 1000
NO_TUZDUK = -1
MAX_TOTAL_SEEDS = 2**31 - 1  # states are int32 arrays
# Well past every board of the family (Togyz Kumalak's 9 a side); the search keeps a best move
# in an int8 and a stack of (plies, pits, state) children, which grows with pits squared.
MAX_PITS = 64


def pits_param(name: str, default: int, doc: str, low: int = 1, why_low: str = "") -> Param:
    """The count of pits a side (``spec[SPEC_PITS]``), under the game's word for a pit."""
    return Param(name, int, default, doc, low=low, high=MAX_PITS, why_low=why_low)


def seeds_param(name: str, default: int, doc: str) -> Param:
    """The count of seeds a pit starts with (``spec[SPEC_SEEDS]``), under the game's word for a
    seed: at least one, or no one could move. With one pit a side the upper bound already fills an
    int32 cell; the game checks the board's total (:func:`check_rules`)."""
    return Param(name, int, default, doc, low=1, high=MAX_TOTAL_SEEDS // 2,
                 why_high="the board's total must fit an int32 cell")


@kernel(inline="always")
def action_count(spec):
    """The number of actions of the game ``spec`` describes (:attr:`Game.actions`)."""
    return spec[spec.shape[0] - 1]


def spec_index(parameters: tuple[Param, ...], name: str) -> int:
    """Where a kernel finds parameter ``name`` in a game's ``spec``."""
    names = [param.name for param in parameters]
    if name not in names:
        raise BadInput(f"no parameter {name!r} is declared; the declared ones: {', '.join(names)}")
    return SPEC_PITS + names.index(name)


def spec_slots(name: str, parameters: tuple[Param, ...], module: str) -> type[IntEnum]:
    """Where a kernel finds each parameter in ``spec``, as an enum named by the parameters in
    capitals (``spec[Spec.LAPS]``): made from the declarations, so that it cannot fall out of step."""
    return IntEnum(name, {param.name.upper(): spec_index(parameters, param.name) for param in parameters},
                   module=module)


# The environments' ``max_moves``: the moves after which they truncate a game
MAX_MOVES_PARAM = Param("max_moves", int, MAX_MOVES, "moves after which a game is truncated", low=1,
                        high=2**31 - 1, why_high="the JAX state counts moves in an int32")


def check_max_moves(max_moves) -> None:
    MAX_MOVES_PARAM.check(max_moves)


def board_size(pits: int) -> int:
    return 2 * (pits + 1)


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


@kernel(refcounts=False)
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


# -- kernels a game may take as they are ----------------------------------------------------
@kernel(refcounts=False)
def nonempty_pits(state, spec, out):
    """Legality in Kalah, Sungka and Togyz Kumalak: every non-empty pit of the mover (a Togyz
    tuzduk never holds balls). Writes the mask into ``out``; returns the number of legal moves."""
    pits = spec[SPEC_PITS]
    mover = state[2 * pits + 2]
    count = 0
    for p in range(pits):
        out[p] = mover != GAME_OVER and state[mover * (pits + 1) + p] > 0
        count += out[p]
    return count


@kernel(refcounts=False)
def store_exact(state, spec, scratch):
    """Kalah and Sungka's ``exact`` (Dionido & Bautista, III-D): the pit nearest the store whose
    seed count equals its distance to the store, so that the last seed falls in the store; -1 if
    none."""
    pits = spec[SPEC_PITS]
    first = state[2 * pits + 2] * (pits + 1)
    for p in range(pits - 1, -1, -1):
        if state[first + p] == pits - p:
            return p
    return -1


@kernel
def no_features(state, player, spec, out):
    """A game whose ``counts`` observation is the board alone."""


@kernel
def no_custom_obs(state, player, spec, obs_id, out):
    raise ValueError("this game has no encoding of its own")




class Game:
    """Parameters of one variant and the operations on its states.

    A subclass sets ``name``, ``parameters``, its kernels (see the module docstring) and whatever
    of the declarations differs from the defaults here; the registry (:mod:`mancala_marl.games`)
    gives it its ``game_id``. Its constructor takes the declared parameters (``Kalah(pits=4)``)
    and keeps their checked values in ``params``, in the order of the declaration.
    """

    name: str
    game_id = -1  # set by the registry
    parameters: tuple[Param, ...] = ()
    pit_word, seed_word = "pits", "seeds"  # the names of parameters[0] and [1], set from them
    # rules_text(), family_rules(): each game's own (mancala_marl.games.family_text.rules_text, the
    # game's rules as the two-row family's parameters); terms: its own names for its parts, a
    # sentence that ends its rules_text
    terms = ""
    apply_kernel = None
    legal_kernel = staticmethod(nonempty_pits)
    exact_kernel = staticmethod(store_exact)
    extra_slots = 0  # state slots after TO_MOVE
    extra_features = 0  # per pit, added to the ``counts`` observation by ``extra_obs_kernel``
    extra_obs_kernel = staticmethod(no_features)
    custom_obs: tuple[str, ...] = ()  # encodings of the game's own, by ``custom_obs_kernel``
    custom_obs_kernel = staticmethod(no_custom_obs)
    store_free = False  # the safe default: a table key that covers the stores
    captures_opposite = False
    # What the game calls a capture and a marked pit (Sungka's *sunog*, Togyz Kumalak's tuzduk),
    # for the moves the web page names.
    capture_word, mark_word = "capture", "mark"
    examples: tuple[dict, ...] = ({},)  # rule parameters the generic tests and benchmarks use
    preset = None  # the NamedGame a game was made as, by make_game (mancala_marl.games.named)
    # The MancalaGames file a game was read from, and the name the file gives it (load_mancalagames).
    source_file: str | None = None
    title: str | None = None
    # Whether a finished game has every seed in a store: the four games sweep the board at their
    # end; a family game may end with seeds on the board, or with seeds out of play.
    sweeps_at_end = True
    # Whether the start is drawn (a family game's ``start="random"``): ``init`` then draws from the
    # numpy Generator it is handed, which the environments seed with ``reset(seed=...)``.
    random_start = False
    # Whether a move can take seeds out of the mover's own store (a family game's lap sown on from
    # the store, or a capture that hands the store over): the observations' bounds allow for it.
    stores_can_shrink = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if len(cls.parameters) >= 2:  # the registry names what a class without them lacks
            cls.pit_word, cls.seed_word = cls.parameters[0].name, cls.parameters[1].name
        # what inspect.signature, editors' call tips and the env modules' signatures show
        cls.__signature__ = inspect.Signature([
            inspect.Parameter(param.name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=param.default,
                              annotation=param.type.__name__) for param in cls.parameters])

    def __init__(self, *args, **values):
        names = [param.name for param in self.parameters]
        if len(args) > len(names):
            raise TypeError(f"{type(self).__name__}() takes at most {len(names)} rule parameters, got {len(args)}")
        for name, value in zip(names, args):
            if name in values:
                raise TypeError(f"{type(self).__name__}() got {name} twice")
            values[name] = value
        self.params = check_rules(self, values)
        self.pits = self.params[self.pit_word]
        self.seeds = self.params[self.seed_word]
        self.actions = self.count_actions()
        self.spec = np.array([self.game_id, *(param.code(self.params[param.name]) for param in self.parameters),
                              self.actions], dtype=np.int64)
        self.board_size = board_size(self.pits)
        self.to_move_index = self.board_size
        self.state_size = self.board_size + 1 + self.count_slots()
        self.key_cells = self.state_size
        self._state_shape = (self.state_size,)
        self.total_seeds = 2 * self.pits * self.seeds

    def count_actions(self) -> int:
        """The size of the action space: a pit of the mover's row (``pits``), unless a game's moves
        say more (the family's choice of direction)."""
        return self.pits

    def count_slots(self) -> int:
        """The state's slots after TO_MOVE: ``extra_slots``, unless a game's rules say more (the
        family's marks on holes, for the rules that own or close holes)."""
        return self.extra_slots

    @classmethod
    def param_strategy(cls, st):
        """A hypothesis strategy of rule-parameter dicts (``st`` is ``hypothesis.strategies``,
        passed in so that the rules never import hypothesis)."""
        return st.just({})

    # -- states -------------------------------------------------------------------------------
    def init(self, rng: np.random.Generator | None = None) -> np.ndarray:
        """The starting state: every pit full, stores empty, player_0 to move. A game whose start
        is drawn (``random_start``) draws it from ``rng`` (None: a fresh Generator, unseeded);
        the others ignore ``rng``."""
        board = np.zeros(self.board_size, dtype=np.int32)
        for player in range(2):
            first = player * (self.pits + 1)
            board[first:first + self.pits] = self.seeds
        return self.from_board(board)

    def init_rows(self, n: int, rng: np.random.Generator | None = None) -> np.ndarray:
        """``n`` starting states, ``(n, state_size)``: ``init``'s, each drawn where the start is."""
        return np.tile(self.init(), (n, 1))

    def from_board(self, board, to_move: int = 0) -> np.ndarray:
        """A state built from a canonical board (for worked examples, puzzles and tests)."""
        board = np.asarray(board)
        if board.shape != (self.board_size,):
            raise BadInput(f"board must have {self.board_size} cells for {self.pits} pits, got shape {board.shape}")
        if (board < 0).any():
            raise BadInput("board counts must be non-negative")
        if to_move not in (0, 1):
            raise BadInput(f"to_move must be 0 or 1, got {to_move!r}")
        state = np.zeros(self.state_size, dtype=np.int32)
        state[: self.board_size] = board
        state[self.board_size] = to_move
        return state

    def state_from(self, values) -> np.ndarray:
        """A new state of this game holding ``values`` (a state taken earlier, or written by hand):
        the environments' ``set_state``. Refused, naming what is wrong, where no game could be in it
        (:meth:`state_fault`)."""
        given = np.asarray(values)
        if given.shape != self._state_shape:
            raise BadInput(f"state must have shape {self._state_shape} for {self!r}, got {given.shape}")
        if given.dtype.kind not in "iuf":
            raise BadInput(f"state must hold whole numbers, got an array of {given.dtype}")
        with np.errstate(invalid="ignore", over="ignore"):
            state = given.astype(np.int32)
            wrong = np.flatnonzero(state != given)  # fractions, and numbers past int32 that would wrap round
        if len(wrong):
            raise BadInput(f"state must hold whole numbers of 32 bits, got {given[wrong[0]].item()!r} in state[{wrong[0]}]")
        fault = self.state_fault(state)
        if fault:
            raise BadInput(fault)
        return state

    def state_fault(self, state: np.ndarray) -> str | None:
        """Why no play of this game reaches ``state`` (an int32 state of the right shape), or None:
        the invariants every move keeps (tests/test_properties.py), which the mask, the kernels and
        the observation bounds take for granted."""
        board, to_move = state[: self.board_size], self.to_move(state)
        if (board < 0).any():
            return f"state's board must hold no negative counts, got {board.tolist()}"
        # Fewer seeds than the game's are allowed (an endgame set up by hand, as from_board makes);
        # more are not: the observation spaces are bounded by the game's seeds.
        if board.sum() + self.out_of_play(state) > self.total_seeds:
            return f"state's board holds {board.sum()} seeds, more than the {self.total_seeds} of {self!r}: {board.tolist()}"
        if to_move not in (0, 1, GAME_OVER):
            return (f"state[{self.board_size}] (the player to move) must be 0, 1 or {GAME_OVER} (game over), "
                    f"got {to_move}")
        low, high = self.state_bounds()
        slots = slice(self.board_size + 1, None)
        outside = self.board_size + 1 + np.flatnonzero((state[slots] < low[slots]) | (state[slots] > high[slots]))
        if len(outside):  # the kernels index with some of these slots
            i = outside[0]
            return (f"state[{i}], one of {self.name}'s own slots after the player to move, must be in "
                    f"{low[i]}..{high[i]}, got {state[i]}")
        fault = self.slots_fault(state)
        if fault:
            return fault
        if self.sweeps_at_end and to_move == GAME_OVER and sum(self.scores(state)) != board.sum():
            return (f"a finished game (state[{self.board_size}] = {GAME_OVER}) must have every seed in a store, "
                    f"got {board.tolist()}")
        if to_move != GAME_OVER and not self.legal_mask_fast(state).any():
            return (f"player_{to_move} is to move in {board.tolist()} but has no legal move: no play of "
                    f"{self!r} leads there (the turn passes, or the game ends)")
        return None

    def slots_fault(self, state: np.ndarray) -> str | None:
        """What no play leaves in the game's own slots (``extra_slots``) within their bounds, or
        None; games with such slots say (Togyz Kumalak: where a tuzduk can stand)."""
        return None

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

    def out_of_play(self, state: np.ndarray) -> int:
        """Seeds no longer on the board nor in a store (a family game's, see ``sweeps_at_end``)."""
        return 0

    def seeds_in_play(self, state: np.ndarray) -> int:
        """The seeds still in the pits (the board less the two stores): the stage of a game."""
        return int(state[: self.board_size].sum()) - sum(self.scores(state))

    def returns(self, state: np.ndarray) -> np.ndarray:
        """+1/-1/0 per player once the game is over (more seeds wins), zeros before."""
        if not self.is_terminal(state):
            return np.zeros(2, dtype=np.float32)
        s0, s1 = self.scores(state)
        sign = float(np.sign(s0 - s1))
        return np.array([sign, -sign], dtype=np.float32)

    def check_state(self, state) -> None:
        """Refuse what is not a state of this game (a list, a board without its turn cell), with a
        message naming it, before a compiled kernel fails on it with a typing error or reads past
        its end."""
        # per move on the hot paths: the cheapest tests that tell (np.issubdtype costs 0.4 us)
        if type(state) is not np.ndarray or state.dtype.kind not in "iu" or state.shape != self._state_shape:
            got = (f"an array of dtype {state.dtype} and shape {state.shape}" if isinstance(state, np.ndarray)
                   else type(state).__name__)
            raise BadInput(f"state must be a 1-D integer numpy array of {self.state_size} cells for "
                             f"{self!r} (as init() returns), got {got}")

    def legal_mask(self, state: np.ndarray) -> np.ndarray:
        """Boolean mask over the actions (the mover's pits); all False once the game is over."""
        self.check_state(state)
        return self.legal_mask_fast(state)

    def legal_mask_fast(self, state: np.ndarray) -> np.ndarray:
        """:meth:`legal_mask` without :meth:`check_state`, for states the library made itself (the
        environments', the arena's): the check costs an environment step about 5%."""
        out = np.empty(self.actions, dtype=np.bool_)
        type(self).legal_kernel(state, self.spec, out)
        return out

    def apply(self, state: np.ndarray, action: int) -> np.ndarray:
        """Play ``action`` (a pit 0..P-1 of the mover) on ``state`` in place; returns ``state``.

        Raises :class:`IllegalMoveError` naming the problem if the move is not legal.
        """
        self.check_state(state)
        return self.apply_fast(state, action)

    def apply_fast(self, state: np.ndarray, action: int) -> np.ndarray:
        """:meth:`apply` without :meth:`check_state`, for states the library made itself; the move
        is still checked (IllegalMoveError)."""
        cls = type(self)
        # a fresh mask each move, never one kept on the game: threads share a game (a set's solving
        # workers, the server's searches), and a kept one let a thread read another's legal moves
        mask = np.empty(self.actions, dtype=np.bool_)
        if isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_)) \
                and 0 <= action < self.actions and cls.legal_kernel(state, self.spec, mask) \
                and mask[action]:
            cls.apply_kernel(state, int(action), self.spec)
            return state
        if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
            # what SB3's predict() returns for one observation, and what Discrete.contains accepts
            return self.apply_fast(state, action.item())
        raise IllegalMoveError(f"{self.name}: {self.illegal_reason(state, action)}")

    def illegal_reason(self, state: np.ndarray, action) -> str:
        """Why ``action`` cannot be played now; games with rules beyond "a non-empty own pit"
        extend this to name their rule."""
        player = self.to_move(state)
        if player == GAME_OVER:
            return "the game is over, no move can be played"
        if not isinstance(action, (int, np.integer)) or isinstance(action, (bool, np.bool_)):
            return f"action must be an integer pit index, got {action!r}"
        if not 0 <= action < self.actions:
            return f"action {action!r} is out of range, {self.action_words} are 0..{self.actions - 1}"
        if action < self.pits and state[player * (self.pits + 1) + action] == 0:
            return f"player_{player}'s pit {action} is empty, it cannot be played"
        return f"player_{player}'s pit {action} is not a legal move here"

    @property
    def action_word(self) -> str:
        """What an action is, for messages: a "pit", or an "action" where there are more."""
        return "pit" if self.actions == self.pits else "action"

    @property
    def action_words(self) -> str:
        return self.action_word + "s"

    def state_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """(low, high) of every state cell, for the environments' ``state_space``."""
        low = np.full(self.state_size, -1, dtype=np.int32)
        high = np.full(self.state_size, max(self.total_seeds, self.pits), dtype=np.int32)
        low[: self.board_size] = 0
        high[self.to_move_index] = 1
        return low, high

    def custom_obs_high(self, obs_type: str) -> np.ndarray:
        """Upper bounds of one of the game's own encodings (``custom_obs``)."""
        raise BadInput(f"{self.name} has no encoding {obs_type!r}")

    def marked_pits(self, state: np.ndarray) -> tuple[list[tuple[int, int]], str]:
        """Pits a picture of the board marks, as (side, pit) pairs, and the legend that explains
        the mark (Togyz Kumalak's tuzduks); none by default."""
        return [], ""

    @property
    def known_as(self) -> str:
        """The name its players know the game by: a named game's title (``Dakon``), the name a
        MancalaGames file gives it (``Ayo``), else its registry name; with ``(variant)`` where its
        rules differ from the ones that name stands for. For headers and titles; :meth:`cli_spec`
        is the name that rebuilds it."""
        if self.title:
            return self.title
        preset = self.preset or NAMED.get(self.name)  # Kalah as kalah_v0 builds it is Kalah too
        if preset is not None:
            return preset.title + " (variant)" * (self.cli_spec() != preset.name)
        return self.name

    @property
    def labelled(self) -> str:
        """:attr:`known_as` with the name to type for it, for a message: ``Dakon (variant)
        (dakon:seeds=3)``, ``Ayo (GameProps/Ayo.txt)``, or the spec alone where the name would repeat it
        (``kalah:pits=4``); a spec past 40 characters as :attr:`spec_name`."""
        spec = self.cli_spec()
        spec = spec if len(spec) <= 40 else self.spec_name
        return spec if self.known_as in (spec, self.spec_name) else f"{self.known_as} ({spec})"

    @property
    def spec_name(self) -> str:
        """The name of :meth:`cli_spec` without its parameters: a named game's (``dakon``), a
        MancalaGames file's path, or the registry name; ``--json`` writes it as ``"game"``, beside
        the game's ``params``, and :func:`mancala_marl.games.make_game` builds the game again from both."""
        if self.preset is not None:
            return self.preset.name
        return self.source_file or self.name

    def cli_spec(self) -> str:
        """The game as the command line names it: its name (a traditional game's, for one made by
        that name; the path of the MancalaGames file it was read from) and the rule parameters that
        differ from its defaults, e.g. ``kalah:pits=4,seeds=3``."""
        if self.source_file is not None:  # a file's game is the file's rules, all of them
            return self.source_file
        defaults = {param.name: param.default for param in self.parameters}
        name = self.name
        if self.preset is not None:
            defaults.update(self.preset.params)
            name = self.preset.name
        changed = [f"{key}={value}" for key, value in self.params.items() if defaults.get(key) != value]
        return name + (":" + ",".join(changed) if changed else "")

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{type(self).__name__}({args})"


def check_rules(game: Game, values: dict) -> dict:
    """``values`` checked against ``game``'s declared parameters, with the defaults for the rest:
    each within its range, and the seeds of the whole board within what an int32 cell counts."""
    pit_param, seed_param = game.parameters[:2]
    pits, seeds = (values.get(param.name, param.default) for param in (pit_param, seed_param))
    # Before the seeds' own range, which says less: "balls=2**31 make ... in all" names the board.
    if pit_param.type_ok(pits) and pit_param.in_range(pits) and seed_param.type_ok(seeds) and seeds >= 1:
        total = 2 * int(pits) * int(seeds)
        if total > MAX_TOTAL_SEEDS:  # a count past it wraps round to a negative one
            raise BadInput(f"{game.pit_word}={pits} and {game.seed_word}={seeds} make {total} in all, "
                             f"more than the {MAX_TOTAL_SEEDS} a board cell can count")
    return check_values(game.parameters, values, game.name)
