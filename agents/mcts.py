"""PUCT Monte-Carlo tree search over the compiled rules kernels, for many games at once.

:class:`Forest` holds one search tree per game; a simulation step is three calls:

1. :func:`select` walks every tree from its root by PUCT to a leaf, replaying the moves on a copy
   of the root state (trees keep no states, only moves); a leaf that ends the game is backed up
   at once, any other is left for the network, its state in ``leaf_states``;
2. the caller evaluates the pending leaves in one batch (:mod:`mancala_marl.agents.alphazero`);
3. :func:`expand_and_backup` turns the network's logits into the leaves' priors (over legal
   moves only) and backs its values up the paths.

Values are from the side of the player to move at a node. A move that keeps the same player to
move (an extra turn, or the opponent passing) keeps the value's sign on the way up; a move that
hands the turn over flips it. A finished game is worth +1, -1 or 0 to the player who moved into
it, from the final scores; with ``margin_weight`` w > 0 it is worth ``(1 - w) * result + w *
margin / margin_unit`` instead (clipped to [-1, 1]), the utility a network trained on that blend
predicts (:func:`utility`).

PUCT (AlphaZero): pick ``argmax Q(a) + c_puct * P(a) * sqrt(N + 1) / (1 + N(a))`` over the
legal moves, where an unvisited move's Q is the node's mean value so far (first-play urgency).
"""

from __future__ import annotations

import numpy as np

from mancala_marl._compile import kernel
from mancala_marl.games.base import GAME_OVER, SPEC_PITS, action_count
from mancala_marl.games.base import margin as _margin  # ``margin`` is utility()'s argument
from mancala_marl.games.dispatch import apply_move, legal_moves

MAX_DEPTH = 1024  # moves from the root to a leaf; more means a broken tree


class Forest:
    """The arrays of ``n_trees`` search trees of up to ``capacity`` nodes each (one node per
    simulation, plus the root). Shapes: G trees, C nodes, P pits, S state cells."""

    def __init__(self, game, n_trees: int, capacity: int):
        g, c, p, s = int(n_trees), int(capacity), game.actions, game.state_size
        self.game, self.capacity = game, c
        self.roots = np.zeros((g, s), dtype=np.int32)
        self.n_nodes = np.zeros(g, dtype=np.int64)
        self.to_move = np.zeros((g, c), dtype=np.int8)
        self.expanded = np.zeros((g, c), dtype=np.bool_)
        self.prior = np.zeros((g, c, p), dtype=np.float32)
        self.child = np.full((g, c, p), -1, dtype=np.int32)
        self.visits = np.zeros((g, c, p), dtype=np.int32)
        self.value_sum = np.zeros((g, c, p), dtype=np.float32)
        self.path_nodes = np.zeros((g, MAX_DEPTH), dtype=np.int32)
        self.path_moves = np.zeros((g, MAX_DEPTH), dtype=np.int32)
        self.path_len = np.zeros(g, dtype=np.int64)
        self.pending = np.zeros(g, dtype=np.bool_)  # a leaf waits for the network
        self.leaf_states = np.zeros((g, s), dtype=np.int32)
        self.scratch = np.zeros((g, p), dtype=np.bool_)

    def arrays(self):
        """The tree arrays in the order the kernels take them."""
        return (self.n_nodes, self.to_move, self.expanded, self.prior, self.child, self.visits, self.value_sum,
                self.path_nodes, self.path_moves, self.path_len, self.pending, self.leaf_states, self.scratch)

    def reset(self, states: np.ndarray, rows=None) -> None:
        """New roots: ``states[i]`` becomes the root of tree ``rows[i]`` (all trees by default)."""
        rows = np.arange(len(self.roots)) if rows is None else np.asarray(rows, dtype=np.int64)
        reset_trees(self.roots, np.ascontiguousarray(states, dtype=np.int32), rows, self.game.to_move_index,
                    *self.arrays())

    def root_visits(self) -> np.ndarray:
        """(G, P) visit counts of the root's moves: what the search recommends."""
        return self.visits[:, 0, :]


@kernel(inline="always")
def _new_node(g, to_move_value, n_nodes, to_move, expanded, prior, child, visits, value_sum):
    node = n_nodes[g]
    n_nodes[g] = node + 1
    to_move[g, node] = to_move_value
    expanded[g, node] = False
    prior[g, node, :] = 0.0
    child[g, node, :] = -1
    visits[g, node, :] = 0
    value_sum[g, node, :] = 0.0
    return node


@kernel
def reset_trees(roots, states, rows, to_move_index, n_nodes, to_move, expanded, prior, child, visits, value_sum,
                path_nodes, path_moves, path_len, pending, leaf_states, scratch):
    for k in range(rows.shape[0]):
        g = rows[k]
        roots[g] = states[k]
        n_nodes[g] = 0
        _new_node(g, roots[g, to_move_index], n_nodes, to_move, expanded, prior, child, visits, value_sum)
        pending[g] = False
        path_len[g] = 0


@kernel(inline="always")
def utility(margin, margin_weight, margin_unit):
    """A finished game's value for a player who won by ``margin`` seeds (negative: lost): the
    result (+1, -1, 0), blended with the margin in units of ``margin_unit`` seeds. A blend gives
    self-play a denser signal than the result alone (how well a game went, not only its sign)."""
    result = 1.0 if margin > 0 else (-1.0 if margin < 0 else 0.0)
    if margin_weight == 0.0:
        return result
    return (1.0 - margin_weight) * result + margin_weight * min(1.0, max(-1.0, margin / margin_unit))


@kernel(inline="always")
def _outcome(state, pits, player, margin_weight, margin_unit):
    """The finished game's :func:`utility` from ``player``'s side."""
    return utility(float(_margin(state, pits, player)), margin_weight, margin_unit)


@kernel
def _backup(g, leaf_value, leaf_mover, to_move, visits, value_sum, path_nodes, path_moves, path_len):
    """Add ``leaf_value`` (from ``leaf_mover``'s side) to every edge of tree ``g``'s path."""
    value, mover = leaf_value, leaf_mover
    for k in range(path_len[g] - 1, -1, -1):
        node, move = path_nodes[g, k], path_moves[g, k]
        if to_move[g, node] != mover:
            value, mover = -value, to_move[g, node]
        visits[g, node, move] += 1
        value_sum[g, node, move] += value


@kernel
def select(roots, active, spec, c_puct, margin_weight, margin_unit, n_nodes, to_move, expanded, prior, child, visits,
           value_sum, path_nodes, path_moves, path_len, pending, leaf_states, scratch):
    """One simulation's descent in every active tree (see the module docstring); a finished game's
    value is its :func:`utility`. Returns the number of leaves left for the network."""
    pits = spec[SPEC_PITS]
    actions = action_count(spec)
    cells = 2 * pits + 2
    waiting = 0
    for g in range(roots.shape[0]):
        pending[g] = False
        if not active[g]:
            continue
        state = leaf_states[g]
        state[:] = roots[g]
        node, depth = 0, 0
        while expanded[g, node]:
            n_total, w_total = 0, 0.0
            for a in range(actions):
                n_total += visits[g, node, a]
                w_total += value_sum[g, node, a]
            fpu = w_total / n_total if n_total > 0 else 0.0
            scale = c_puct * np.sqrt(n_total + 1.0)
            legal = scratch[g]
            legal_moves(state, spec, legal)
            best, best_score = -1, -np.inf
            for a in range(actions):
                if not legal[a]:
                    continue
                n = visits[g, node, a]
                q = value_sum[g, node, a] / n if n > 0 else fpu
                score = q + scale * prior[g, node, a] / (1.0 + n)
                if score > best_score:
                    best, best_score = a, score
            path_nodes[g, depth], path_moves[g, depth] = node, best
            depth += 1
            apply_move(state, best, spec)
            nxt = child[g, node, best]
            if nxt < 0:
                if n_nodes[g] >= to_move.shape[1] or depth >= MAX_DEPTH:
                    raise ValueError("search tree full: more simulations than the forest's capacity")
                nxt = _new_node(g, state[cells], n_nodes, to_move, expanded, prior, child, visits, value_sum)
                child[g, node, best] = nxt
            node = nxt
            if state[cells] == GAME_OVER:
                break
        path_len[g] = depth
        if state[cells] == GAME_OVER:
            # The value for the player who moved into the end: the last node on the path.
            mover = to_move[g, path_nodes[g, depth - 1]]
            _backup(g, _outcome(state, pits, mover, margin_weight, margin_unit), mover, to_move, visits, value_sum,
                    path_nodes, path_moves, path_len)
        else:
            pending[g] = True
            waiting += 1
    return waiting


@kernel
def expand_and_backup(spec, logits, values, n_nodes, to_move, expanded, prior, child, visits, value_sum,
                      path_nodes, path_moves, path_len, pending, leaf_states, scratch):
    """The pending leaves get the network's answer: ``logits`` (G, P) become priors by a softmax
    over the legal moves, ``values`` (G,) (from the leaf's player to move) go up the paths."""
    actions = action_count(spec)
    for g in range(pending.shape[0]):
        if not pending[g]:
            continue
        node = child[g, path_nodes[g, path_len[g] - 1], path_moves[g, path_len[g] - 1]] if path_len[g] > 0 else 0
        legal = scratch[g]
        legal_moves(leaf_states[g], spec, legal)
        top = -np.inf
        for a in range(actions):
            if legal[a] and logits[g, a] > top:
                top = logits[g, a]
        total = 0.0
        for a in range(actions):
            p = np.exp(logits[g, a] - top) if legal[a] else 0.0
            prior[g, node, a] = p
            total += p
        for a in range(actions):
            prior[g, node, a] /= total
        expanded[g, node] = True
        _backup(g, values[g], to_move[g, node], to_move, visits, value_sum, path_nodes, path_moves, path_len)
        pending[g] = False


@kernel
def add_root_noise(prior, rows, noise, epsilon):
    """Mix Dirichlet ``noise`` (rows of G, P; zero off the legal moves) into the roots' priors."""
    for k in range(rows.shape[0]):
        g = rows[k]
        for a in range(prior.shape[2]):
            prior[g, 0, a] = (1.0 - epsilon) * prior[g, 0, a] + epsilon * noise[k, a]
