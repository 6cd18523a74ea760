"""How the family's board is filled at the start: the ``start`` parameter.

Both rows are written by pit, 0 .. H-1 from the owner's left end (the ring's order), and the
stores start empty. Where a start is not ``equal`` it is MancalaGames' pattern of that game,
with player_0 as the player who starts:

- ``equal``: every hole holds ``seeds``.
- ``two_empty``: each row's last two holes are empty, the others hold ``seeds`` (H >= 4).
- ``triples``: each row in threes from its left end, an empty hole and two full ones; a part of a
  three left at the right end stays empty (H >= 3).
- ``plus_one``: every hole holds ``seeds``, each row's last hole one more.
- ``alternate_one``: every other hole round the ring holds ``seeds``, player_0's hole 0 empty
  (with an odd H, player_1's row then starts full); player_1's hole 3 (hole 2 with an odd H)
  holds a single seed instead, and with an even H player_0's hole H-3 is emptied (H >= 3).
- ``alternate_split``: every other hole of each row holds ``seeds``, hole 0 empty; then a quarter
  (rounded down) of the seeds of player_1's last hole move across the board to player_0's hole 0
  (an even H).
- ``gamacha``: every other hole round the ring holds ``seeds``, from player_0's hole 2 on (its
  holes 0 and 1 empty); then the seeds of the hole across from player_0's hole
  ``d = 1 + 2 * ((H - 1) // 4)`` move into it (H >= 3).
- ``rightmost_first``: every hole holds ``seeds`` and player_0 has played its last hole, a move
  forced on the starter (then whoever the move gives the turn to plays); not where a move names
  its way.
- ``random``: every hole holds two seeds and the other ``2 * H * (seeds - 2)`` seeds are shared out
  at random, each way of sharing them equally likely (seeds >= 2); with a ``move_rule``, a start
  where it lets player_0 play no hole is drawn again (each start that leaves a move equally likely). The start is drawn from the
  numpy Generator handed to ``init`` (the environments hand theirs, seeded by ``reset(seed=...)``).

The game's seeds are the start's (``start_total``): fewer than ``2 * H * seeds`` for the patterns
with empty holes, two more for ``plus_one``; the winning count is half of them.
"""

from __future__ import annotations

import numpy as np

from mancala_marl.errors import BadInput
from .._compile import kernel
TWO_EMPTY, TRIPLES, PLUS_ONE, ALTERNATE_ONE, ALTERNATE_SPLIT, GAMACHA = range(1, 7)
# the least holes a side each pattern needs; alternate_split needs an even count besides
FEWEST_HOLES = {"two_empty": 4, "triples": 3, "alternate_one": 3, "gamacha": 3}
RANDOM_FLOOR = 2  # seeds every hole keeps in a random start


@kernel(inline="always")
def start_total(start, holes, seeds):
    """The seeds of a game: those its start (a family_space.Start) puts on the board."""
    if start == TWO_EMPTY:
        return 2 * (holes - 2) * seeds
    if start == TRIPLES:
        return 4 * (holes // 3) * seeds
    if start == PLUS_ONE:
        return 2 * holes * seeds + 2
    if start == ALTERNATE_ONE:  # H full holes, one cut to a single seed, one more emptied when H is even
        return (holes - 2 + holes % 2) * seeds + 1
    if start in (ALTERNATE_SPLIT, GAMACHA):  # every other hole; gamacha's first two are empty
        return (holes - (start == GAMACHA)) * seeds
    return 2 * holes * seeds


def start_rows(start: str, holes: int, seeds: int) -> tuple[np.ndarray, np.ndarray]:
    """player_0's and player_1's rows at the start (``random``: the floor every hole keeps;
    ``rightmost_first``: before the forced move)."""
    pits = np.arange(holes)
    full = np.full(holes, seeds)
    if start == "two_empty":
        own = np.where(pits < holes - 2, seeds, 0)
        return own, own.copy()
    if start == "triples":
        own = np.where((pits % 3 != 0) & (pits < holes - holes % 3), seeds, 0)
        return own, own.copy()
    if start == "plus_one":
        full[-1] += 1
        return full, full.copy()
    if start == "random":
        return np.full(holes, RANDOM_FLOOR), np.full(holes, RANDOM_FLOOR)
    # the alternating patterns, by cell round the ring: player_1's hole p is ring hole H + p
    if start == "alternate_one":
        row0, row1 = np.where(pits % 2 == 1, seeds, 0), np.where((holes + pits) % 2 == 1, seeds, 0)
        row1[3 - holes % 2] = 1  # a full hole of player_1's (odd H: the row's full holes are the even ones)
        if holes % 2 == 0:
            row0[holes - 3] = 0
        return row0, row1
    if start == "alternate_split":
        row0, row1 = np.where(pits % 2 == 1, seeds, 0), np.where(pits % 2 == 1, seeds, 0)
        row0[0], row1[-1] = seeds // 4, seeds - seeds // 4  # player_1's last hole is across from player_0's hole 0
        return row0, row1
    if start == "gamacha":
        row0, row1 = np.where((pits % 2 == 0) & (pits >= 2), seeds, 0), np.where((holes + pits) % 2 == 0, seeds, 0)
        across = 1 + 2 * ((holes - 1) // 4)  # odd: empty in player_0's row, full across (player_1's H-1-d)
        row0[across], row1[holes - 1 - across] = row1[holes - 1 - across], 0
        return row0, row1
    return full, full.copy()


def draw_rows(rows: int, holes: int, seeds: int, rng: np.random.Generator) -> np.ndarray:
    """``rows`` random starts' holes, ``(rows, 2 * holes)``: player_0's then player_1's. The seeds
    above the floor go by a multinomial of Dirichlet(1, ..., 1) weights, which makes every way of
    sharing them out equally likely."""
    cells = 2 * holes
    weights = rng.dirichlet(np.ones(cells), size=rows)
    return RANDOM_FLOOR + rng.multinomial(cells * (seeds - RANDOM_FLOOR), weights)


def start_state(game) -> np.ndarray:
    """The start of a Family ``game`` (a random start: each hole's floor), or BadInput where the
    forced first move of ``rightmost_first`` cannot be played (family_rules refuses the starts that
    the parameters alone rule out)."""
    params = game.params
    row0, row1 = start_rows(params["start"], game.pits, game.seeds)
    state = game.from_board(np.concatenate([row0, [0], row1, [0]]))
    if params["start"] == "rightmost_first":  # the starter's forced move from its last hole
        if not game.legal_mask_fast(state)[game.pits - 1]:
            raise BadInput(f"start='rightmost_first' is not played where player_0's last hole may not open the game "
                           f"(min_seeds={params['min_seeds']}, move_rule={params['move_rule']!r})")
        game.apply_fast(state, game.pits - 1)
        if game.is_terminal(state):
            raise BadInput("start='rightmost_first' is not played where its forced move ends the game")
    return state
