"""Cross-check Kalah(6, 4) against OpenSpiel's ``mancala`` move for move on random games.

OpenSpiel's ``mancala`` implements the standard Kalah rules with 6 pits and 4 seeds, as
``Kalah()`` does here. The boards are laid out differently:

=====================  ===========================  ==============================
cell                   mancala_marl (canonical)     OpenSpiel ``board_``
=====================  ===========================  ==============================
player_0's pits 0..5   0..5                         1..6
player_0's store       6                            7
player_1's pits 0..5   7..12                        8..13
player_1's store       13                           0
=====================  ===========================  ==============================

so OpenSpiel's board is ours rolled right by one cell, and our action ``a`` (a pit of the
mover, 0..5) is OpenSpiel's action ``mover * 7 + a + 1``. OpenSpiel does not sweep the pits
into the stores at the end (its ``Returns()`` counts pits and store per side), so at the end we
compare each side's total instead of the cells.

    python examples/openspiel_crosscheck.py --games 5000 --seed 0
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel

from mancala_marl.games import Kalah

PITS = 6


def to_openspiel_board(board: np.ndarray) -> np.ndarray:
    """Our canonical 14-cell board as OpenSpiel's ``board_`` (see the table above)."""
    return np.roll(board, 1)


def to_openspiel_action(mover: int, pit: int) -> int:
    return mover * (PITS + 1) + pit + 1


def openspiel_board(os_state) -> np.ndarray:
    """OpenSpiel's board cells; the observation tensor is ``board_`` + [player, move number]."""
    return np.asarray(os_state.observation_tensor(0)[: 2 * PITS + 2], dtype=np.int64)


def side_totals(os_board: np.ndarray) -> tuple[int, int]:
    """Seeds per side (pits + store), which is what both implementations score at the end."""
    return int(os_board[1:PITS + 2].sum()), int(os_board[PITS + 2:].sum() + os_board[0])


def crosscheck(games: int = 1000, seed: int = 0, game: Kalah | None = None) -> dict:
    """Play ``games`` uniformly random games in both engines in lockstep; raise AssertionError
    at the first difference (legal moves, board, player to move, end of game or returns).

    Returns counts: games, moves, extra turns (same player moving twice in a row) and captures
    (the mover's store grew by more than the one seed sowing can put there), so a caller can
    check the random games did reach the rules that matter. ``game`` (default ``Kalah(6, 4)``)
    lets a test show that a different rule set is caught.
    """
    game = Kalah(pits=PITS, seeds=4) if game is None else game
    os_game = pyspiel.load_game("mancala")
    rng = np.random.default_rng(seed)
    counts = {"games": 0, "moves": 0, "extra_turns": 0, "captures": 0}
    for number in range(games):
        state, os_state = game.init(), os_game.new_initial_state()
        history = []
        while not game.is_terminal(state):
            where = f"game {number} (seed {seed}) after moves {history}"
            mover = game.to_move(state)
            assert os_state.current_player() == mover, f"player to move differs {where}"
            legal = np.flatnonzero(game.legal_mask(state))
            os_legal = [to_openspiel_action(mover, int(a)) for a in legal]
            assert os_state.legal_actions() == os_legal, \
                f"legal moves differ {where}: ours {os_legal}, OpenSpiel {os_state.legal_actions()}"
            assert (openspiel_board(os_state) == to_openspiel_board(game.board(state))).all(), \
                f"boards differ {where}:\nours (as OpenSpiel) {to_openspiel_board(game.board(state))}\n" \
                f"OpenSpiel {openspiel_board(os_state)}"
            pit = int(rng.choice(legal))
            store_before = game.scores(state)[mover]
            game.apply(state, pit)
            os_state.apply_action(to_openspiel_action(mover, pit))
            history.append(pit)
            counts["moves"] += 1
            if not game.is_terminal(state):
                counts["extra_turns"] += game.to_move(state) == mover
                counts["captures"] += game.scores(state)[mover] - store_before > 1
        where = f"game {number} (seed {seed}) after moves {history}"
        assert os_state.is_terminal(), f"we ended the game, OpenSpiel did not, {where}"
        assert side_totals(openspiel_board(os_state)) == game.scores(state), \
            f"final scores differ {where}: ours {game.scores(state)}, OpenSpiel {side_totals(openspiel_board(os_state))}"
        assert list(os_state.returns()) == list(game.returns(state)), f"returns differ {where}"
        counts["games"] += 1
    return counts


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    counts = crosscheck(args.games, args.seed)
    print(f"Kalah(6, 4) and OpenSpiel 'mancala' agree on {counts['games']} random games, "
          f"{counts['moves']} moves ({counts['extra_turns']} extra turns, {counts['captures']} captures) "
          f"in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
