"""Small helpers shared by the tests."""

import numpy as np


def play(game, moves, state=None):
    """Apply ``moves`` one after the other from ``state`` (default: the start); returns the state."""
    state = game.init() if state is None else state
    for move in moves:
        game.apply(state, move)
    return state


def split(game, state):
    """(player_0's pits, store_0, player_1's pits, store_1, to_move) as plain lists and ints."""
    p = game.pits
    return (list(state[:p]), int(state[p]), list(state[p + 1:2 * p + 1]), int(state[2 * p + 1]),
            game.to_move(state))


def random_game(game, rng, max_moves=100_000):
    """Play one uniformly random game; returns the list of (state before, move) and the end state."""
    state = game.init()
    history = []
    while not game.is_terminal(state):
        legal = np.flatnonzero(game.legal_mask(state))
        assert legal.size > 0, f"no legal move in a live state {state}"
        move = int(rng.choice(legal))
        history.append((state.copy(), move))
        game.apply(state, move)
        assert len(history) < max_moves, "game did not end"
    return history, state


def random_positions(game, n: int, seed: int) -> np.ndarray:
    """``n`` live positions reached by random play (numba engine), from the start to late in a game."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        state = game.init()
        for _ in range(int(rng.integers(0, 120))):
            after = state.copy()
            game.apply(after, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
            if game.is_terminal(after):
                break
            state = after
        out.append(state)
    return np.stack(out)
