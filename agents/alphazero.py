"""AlphaZero-style play: a policy-value network guiding PUCT search (:mod:`mancala_marl.agents.mcts`).

The ``alphazero`` policy needs only numpy and numba: the network (an MLP; trained with torch by
``mancala-marl alphazero``, :mod:`mancala_marl.train.alphazero`) is stored as plain arrays in an
``.npz`` file and evaluated with numpy, in batches when many games search at once.

- ``alphazero`` plays the network shipped for the game (``pretrained/alphazero_<game>.npz``,
  trained on its default rules: other rules are refused); ``alphazero:path=run/final.npz`` another one.
- ``sims=N`` simulations per move (default 200); ``time=T`` seconds per move instead (as many
  simulations as fit); ``sims=0`` plays the network alone: its most likely legal move.
- The move is the root's most visited move (ties: the higher prior).

Network input (:func:`features`): an observation of the player to move (``moves`` by default:
the counts and what each move does now; ``turns`` adds what each move can earn over its whole
turn; see :mod:`mancala_marl.observations`), each count also
one-hot (0..31, the last meaning 31 or more), as :class:`~mancala_marl.agents.features.PitCountsOneHot`
does for SB3 models: where the last seed lands depends on exact counts.
"""

from __future__ import annotations

import functools
import json
import time
import zipfile
from importlib import resources
from pathlib import Path

import numba
import numpy as np

from mancala_marl import observations
from mancala_marl._compile import kernel
from mancala_marl.atomic import write_atomically
from mancala_marl.errors import BadInput
from mancala_marl.games import Game, Param
from mancala_marl.games.base import SPEC_PITS
from mancala_marl.games.family_encoding import BOARD_LENGTH, RULES_HOLES, RULES_LENGTH, TOTAL_SCALE

from . import mcts
from .base import SEED, Policy, check_game_on, register_policy

MAX_COUNT = 31
FORMAT = "mancala_marl.alphazero/1"


# -- network input ---------------------------------------------------------------------------
# the layout below scales and one-hots their leading counts; "rules" (the two-row family's) too,
# with one layout for every game of the family, so that one network reads them all
OBS_TYPES = observations.COUNTS_FIRST + ("rules",)


@functools.lru_cache(maxsize=64)
def _layout(game_type: type, params: tuple, obs_type: str) -> tuple[np.ndarray, int]:
    game = game_type(**dict(params))
    if obs_type == "rules":
        observations.check_obs_type(game, obs_type)  # a game of the family, of at most RULES_HOLES a row
        scale = np.zeros(BOARD_LENGTH + RULES_LENGTH, np.float32)
        scale[:BOARD_LENGTH] = TOTAL_SCALE  # not the game's own seeds: the same input for every game
        return scale, scale.size + BOARD_LENGTH * (MAX_COUNT + 1)
    high = observations.observation_space(game, obs_type).high.astype(np.float32)
    counts = observations.observation_space(game, "counts").shape[0]  # the move features come after
    scale = np.where((high > 1) & (np.arange(high.size) < counts), high, 0).astype(np.float32)
    return scale, high.size + int((scale > 0).sum()) * (MAX_COUNT + 1)


def feature_layout(game: Game, obs_type: str = "counts") -> tuple[np.ndarray, int]:
    """(scale of each observation entry that is a count, 0 for the others; the feature length D)."""
    if obs_type not in OBS_TYPES:
        raise BadInput(f"obs_type must be one of {list(OBS_TYPES)}, got {obs_type!r}")
    return _layout(type(game), tuple(game.params.items()), obs_type)


@kernel
def _observe(states, spec, obs_id, out):
    cells = 2 * spec[SPEC_PITS] + 2
    for i in range(states.shape[0]):
        observations.encode_row(states[i], states[i, cells], spec, obs_id, out[i])


@kernel
def _expand(obs, scale, out):
    for i in range(obs.shape[0]):
        out[i, :] = 0.0
        j = obs.shape[1]
        for k in range(obs.shape[1]):
            if scale[k] > 0:
                out[i, k] = obs[i, k] / scale[k]
                out[i, j + min(int(obs[i, k]), MAX_COUNT)] = 1.0
                j += MAX_COUNT + 1
            else:
                out[i, k] = obs[i, k]


def observe(game: Game, states: np.ndarray, obs_type: str = "counts") -> np.ndarray:
    """(n, obs) float32 observations of live states, each from its player to move's side: what a
    replay buffer keeps (small), :func:`expand` makes it the network input."""
    states = np.ascontiguousarray(states, dtype=np.int32).reshape(-1, game.state_size)
    out = np.empty((states.shape[0], feature_layout(game, obs_type)[0].size), dtype=np.float32)
    _observe(states, game.spec, observations.obs_id(game, obs_type), out)
    return out


def expand(game: Game, obs: np.ndarray, obs_type: str = "counts", out: np.ndarray | None = None) -> np.ndarray:
    """(n, D) float32 network input from observations (see :func:`features`)."""
    scale, size = feature_layout(game, obs_type)
    obs = np.ascontiguousarray(obs, dtype=np.float32)
    if out is None:
        out = np.empty((obs.shape[0], size), dtype=np.float32)
    _expand(obs, scale, out)
    return out


def features(game: Game, states: np.ndarray, obs_type: str = "counts", out: np.ndarray | None = None) -> np.ndarray:
    """(n, D) float32 network input of live states, from each one's player to move's side."""
    return expand(game, observe(game, states, obs_type), obs_type, out)


def margin_unit(game: Game) -> float:
    """Seeds worth a value of 1 in a margin-blended value (:func:`mancala_marl.agents.mcts.utility`):
    half of all the seeds: a win by that many seeds or more gets the whole margin part."""
    return game.total_seeds / 2.0


# -- the network -----------------------------------------------------------------------------
class Network:
    """An MLP with a policy head (one logit per pit) and a value head (tanh), as numpy arrays.

    ``weights``: ``hidden_<k>.weight`` (out, in) and ``.bias`` per hidden layer (ReLU), then
    ``policy.weight/bias`` and ``value.weight/bias``, as torch's ``state_dict`` names them.
    ``meta``: game, rule params, feature length, hidden sizes, and how it was trained.
    """

    def __init__(self, weights: dict, meta: dict):
        self.meta = meta
        self.obs_type = meta.get("obs_type", "counts")  # networks of the first runs read counts
        self.margin_weight = float(meta.get("margin_weight", 0.0))  # and learned the result alone
        layers = sorted({k.split(".")[0] for k in weights if k.startswith("hidden_")}, key=lambda k: int(k[7:]))
        self.hidden = [(np.ascontiguousarray(weights[f"{k}.weight"].T, dtype=np.float32),
                        weights[f"{k}.bias"].astype(np.float32)) for k in layers]
        self.policy = (np.ascontiguousarray(weights["policy.weight"].T, dtype=np.float32),
                       weights["policy.bias"].astype(np.float32))
        self.value = (np.ascontiguousarray(weights["value.weight"].T, dtype=np.float32),
                      weights["value.bias"].astype(np.float32))

        layers = [*self.hidden, self.policy, self.value]
        self._weights, self._biases = numba.typed.List([w for w, _ in layers]), numba.typed.List([b for _, b in layers])

    def __call__(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(logits (n, P), values (n,)) for features ``x`` (n, D)."""
        x = np.ascontiguousarray(x, dtype=np.float32)
        logits = np.empty((x.shape[0], self.policy[1].size), dtype=np.float32)
        values = np.empty(x.shape[0], dtype=np.float32)
        _forward(x, self._weights, self._biases, logits, values)
        return logits, values

    @property
    def actions(self) -> int:
        return self.policy[1].size

    def plays(self, game: Game) -> bool:
        """Whether this network reads ``game``: its own rules, or, for a network of the family's
        ``rules`` observation (trained on several games at once), any game of the family that fits
        that observation and its policy head."""
        if self.obs_type == "rules":
            return "rules" in observations.obs_types(game) and game.actions <= self.actions
        return (self.meta["game"], self.meta["rule_params"]) == (game.name, dict(game.params))

    def check(self, game: Game, where: str) -> None:
        if self.plays(game):
            return
        if self.obs_type == "rules":
            raise BadInput(f"{where} reads the two-row family's rules: it plays a game of the family of at most "
                           f"{RULES_HOLES} holes a row and {self.actions} actions, not {game.cli_spec()}")
        ours, theirs = (self.meta["game"], self.meta["rule_params"]), (game.name, dict(game.params))
        raise BadInput(f"{where} was trained for {ours[0]} {ours[1]} but is used on {theirs[0]} {theirs[1]}")

    def save(self, path, weights: dict) -> None:
        """Write ``weights`` (numpy arrays) and the metadata to ``path`` atomically."""
        meta = np.array(json.dumps({"format": FORMAT, **self.meta}))
        write_atomically(Path(path), lambda temporary: np.savez(temporary, __meta__=meta, **weights))

    @classmethod
    def load(cls, path) -> Network:
        """A network written by :meth:`save`; a missing, corrupt or foreign file is a clear error."""
        path = Path(path)
        if not path.is_file():
            raise FileNotFoundError(f"no network file at {path}")
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["__meta__"]))
                weights = {k: data[k] for k in data.files if k != "__meta__"}
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as error:  # BadZipFile: cut short
            raise BadInput(f"{path} is not an alphazero network file ({type(error).__name__})") from None
        if meta.get("format") != FORMAT:
            raise BadInput(f"{path} is not an alphazero network file of format {FORMAT}")
        return cls(weights, meta)


@kernel
def _forward(x, weights, biases, logits, values):
    """The MLP row by row: hidden layers (ReLU), then the policy and value (tanh) heads. The input
    is mostly one-hot zeros, so the first layer adds only the rows of its nonzero inputs; a
    search's one-position calls then cost a few microseconds, not numpy's call overheads."""
    depth = len(weights) - 2
    width = 0
    for k in range(depth + 2):
        width = max(width, biases[k].shape[0])
    h, nxt = np.empty(width, np.float32), np.empty(width, np.float32)
    for r in range(x.shape[0]):
        n_in = x.shape[1]
        for k in range(depth + 2):
            w, b = weights[k], biases[k]
            n_out = b.shape[0]
            for j in range(n_out):
                nxt[j] = b[j]
            for i in range(n_in):
                v = x[r, i] if k == 0 else h[i]
                if v != 0.0:
                    for j in range(n_out):
                        nxt[j] += v * w[i, j]
            if k < depth:
                for j in range(n_out):
                    h[j] = max(nxt[j], 0.0)
                n_in = n_out
            elif k == depth:
                for j in range(n_out):
                    logits[r, j] = nxt[j]
            else:
                values[r] = np.tanh(nxt[0])


def shipped_network(game: Game) -> Path:
    entry = resources.files("mancala_marl.agents") / "pretrained" / f"alphazero_{game.name}.npz"
    if not entry.is_file():
        raise BadInput(f"no alphazero network is shipped for {game.name}")
    with resources.as_file(entry) as path:  # installs are plain folders: the path stays valid
        return Path(path)


# -- search ----------------------------------------------------------------------------------
def search(game: Game, net, forest: mcts.Forest, sims: int, c_puct: float = 1.5,
           active: np.ndarray | None = None, deadline: float | None = None, noise=None,
           obs_type: str | None = None, margin_weight: float | None = None) -> int:
    """Run ``sims`` simulations (or until ``deadline``, a ``time.perf_counter()`` value) in every
    active tree of ``forest`` (its roots already set), evaluating the leaves of all trees in one
    call of ``net`` (``features (n, D) -> (logits (n, P), values (n,))``, e.g. a torch model's).
    A :class:`Network` runs the simulations in compiled chunks instead (:func:`_simulate`), the
    same steps without Python in between. ``noise(rows) -> (len(rows), P)`` mixes exploration
    noise into the roots once they are expanded. ``obs_type``: the network's input (a Network
    knows its own), and ``margin_weight`` the value a finished game has in the tree
    (:func:`mancala_marl.agents.mcts.utility`; a Network knows its own, else 0: the result alone).
    Returns the simulations run."""
    active = np.ones(len(forest.roots), dtype=np.bool_) if active is None else active
    obs_type = obs_type or (net.obs_type if isinstance(net, Network) else "counts")
    if margin_weight is None:
        margin_weight = net.margin_weight if isinstance(net, Network) else 0.0
    terminal = (float(margin_weight), margin_unit(game))
    arrays = forest.arrays()
    scale, size = feature_layout(game, obs_type)
    batch = np.empty((len(forest.roots), size), dtype=np.float32)
    # a network of several games has as many logits as the one with the most actions
    width = net.actions if isinstance(net, Network) else game.actions
    logits = np.zeros((len(forest.roots), width), dtype=np.float32)
    values = np.zeros(len(forest.roots), dtype=np.float32)
    done = 0
    while done < sims and (deadline is None or done == 0 or time.perf_counter() < deadline):
        if isinstance(net, Network) and done > 0:
            chunk = min(sims - done, 64 if deadline is not None else sims)
            _simulate(chunk, forest.roots, active, game.spec, c_puct, *terminal, observations.obs_id(game, obs_type),
                      scale, np.empty(scale.size, np.float32), batch, net._weights, net._biases, logits, values,
                      *arrays)
            done += chunk
            continue
        if mcts.select(forest.roots, active, game.spec, c_puct, *terminal, *arrays):
            rows = np.flatnonzero(forest.pending)
            logits[rows], values[rows] = net(features(game, forest.leaf_states[rows], obs_type, batch[: rows.size]))
            mcts.expand_and_backup(game.spec, logits, values, *arrays)
        done += 1
        if done == 1 and noise is not None:  # the roots were just expanded
            rows = np.flatnonzero(active)
            mcts.add_root_noise(forest.prior, rows, noise(rows), 0.25)
    return done


@kernel
def _simulate(sims, roots, active, spec, c_puct, margin_weight, margin_unit, obs_id, scale, obs, batch, weights,
              biases, logits, values, n_nodes, to_move, expanded, prior, child, visits, value_sum, path_nodes,
              path_moves, path_len, pending, leaf_states, scratch):
    """``sims`` simulations of :func:`search` with a :class:`Network`, all compiled."""
    cells = 2 * spec[SPEC_PITS] + 2
    for _ in range(sims):
        if mcts.select(roots, active, spec, c_puct, margin_weight, margin_unit, n_nodes, to_move, expanded, prior,
                       child, visits, value_sum, path_nodes, path_moves, path_len, pending, leaf_states,
                       scratch) == 0:
            continue
        for g in range(roots.shape[0]):
            if pending[g]:
                observations.encode_row(leaf_states[g], leaf_states[g, cells], spec, obs_id, obs)
                _expand(obs.reshape((1, obs.shape[0])), scale, batch[g:g + 1])
                _forward(batch[g:g + 1], weights, biases, logits[g:g + 1], values[g:g + 1])
        mcts.expand_and_backup(spec, logits, values, n_nodes, to_move, expanded, prior, child, visits, value_sum,
                               path_nodes, path_moves, path_len, pending, leaf_states, scratch)


def _rules_key(game: str, rule_params: dict) -> tuple[str, str]:
    return game, json.dumps(rule_params, sort_keys=True)


@register_policy("alphazero")
class AlphaZeroPolicy(Policy):
    """PUCT search guided by a self-play network (``sims``, or ``time`` seconds, per move)."""

    python_only = ("net",)
    # A move's tree holds a node per simulation: sims, and the 200,000 a second that ``time``
    # makes room for, are bounded by memory.
    parameters = (Param("sims", int, 200, "simulations per move; 0: the network alone", low=0, high=1_000_000),
                  Param("time", float, None, "seconds per move, instead of sims", low=0.001, high=60, optional=True),
                  Param("path", str, None, "a network file; default: the one shipped for the game", optional=True),
                  Param("c_puct", float, 1.5, "exploration weight of the search", low=0.001, high=1000),
                  SEED)

    def __init__(self, sims: int = 200, time: float | None = None, path: str | None = None,
                 c_puct: float = 1.5, seed: int | None = None, net: Network | None = None):
        super().__init__(seed)
        self.sims, self.time_limit, self.c_puct = int(sims), time, float(c_puct)
        self.path = path
        self._nets = {} if net is None else {_rules_key(net.meta["game"], net.meta["rule_params"]): net}
        if path is not None:
            loaded = Network.load(path)  # a bad file is named now, not at the first move
            self._nets[_rules_key(loaded.meta["game"], loaded.meta["rule_params"])] = loaded
        self._forest = None
        self._root = None
        self.last_sims = 0

    def network(self, game: Game) -> Network:
        key = _rules_key(game.name, game.params)
        if key not in self._nets:
            if self._nets:  # a network given by path= or net= plays its own game (a rules network, its family)
                given = next(iter(self._nets.values()))
                given.check(game, f"alphazero network {self.path or ''}".strip())
                self._nets[key] = given
                return given
            path = shipped_network(game)
            net = Network.load(path)
            # The shipped network is trained on the default rules: on others its input has another
            # length (a numpy error at the first move) or, worse, the same one (it plays blind).
            net.check(game, f"alphazero network {path}")
            self._nets[key] = net
        return self._nets[key]

    def prepare(self, game: Game) -> None:
        self.network(game)

    def root_statistics(self) -> dict[str, np.ndarray] | None:
        """The root of the last move's search, per action (arrays of ``game.actions``): ``visits``,
        ``value_sum`` (the mover's values, -1..1 a visit, summed) and the network's ``prior``;
        None where that move was not searched (a forced move, or the network alone)."""
        return self._root

    def act(self, game, state):
        check_game_on(game, state)
        self._root = None
        net = self.network(game)
        legal = game.legal_mask(state)
        if legal.sum() == 1:  # a forced move: searching it would only spend the clock
            self.last_sims = 0
            return int(np.flatnonzero(legal)[0])
        if self.sims == 0 and self.time_limit is None:
            logits, _ = net(features(game, state, net.obs_type))
            return int(np.flatnonzero(legal)[np.argmax(logits[0, :game.actions][legal])])
        sims = self.sims if self.time_limit is None else 1 << 30
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        # With a time limit, room for more simulations than fit in it (~10-40 us each).
        capacity = sims + 2 if self.time_limit is None else max(20_000, int(self.time_limit * 200_000))
        if self._forest is None or self._forest.game is not game or self._forest.capacity < capacity:
            self._forest = mcts.Forest(game, 1, capacity)
        forest = self._forest
        forest.reset(state[None])
        limit = min(sims, capacity - 2)
        self.last_sims = search(game, net, forest, limit, self.c_puct, deadline=deadline)
        self._root = {"visits": forest.visits[0, 0].copy(), "value_sum": forest.value_sum[0, 0].copy(),
                      "prior": forest.prior[0, 0].copy()}
        visits = forest.root_visits()[0].astype(np.float64)
        visits += forest.prior[0, 0] * 1e-3  # ties to the higher prior
        visits[~legal] = -1.0
        return int(np.argmax(visits))
