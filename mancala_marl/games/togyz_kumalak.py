"""Togyz Kumalak: 9 holes of 9 balls per side by default; the stores are kazans.

- Take all balls of a non-empty own hole. If there are several, the first goes back into that
  hole and the rest into the following holes (kazans are not on the path); a single ball moves
  to the next hole.
- A ball falling into a tuzduk goes straight to the tuzduk owner's kazan.
- Last ball in an opponent's hole that is not a tuzduk: an even count is captured. A count of
  exactly 3 makes the hole the mover's tuzduk (its balls go to the kazan) unless the mover
  already has one, the hole is the opponent's last (9th), or the opponent's tuzduk stands on
  the mover's hole with the same number. A tuzduk lasts to the end; it is never a legal move.
- The game ends when a kazan holds a majority (82 of 162; ``stop_at_majority=False`` plays on)
  or the player to move has no move; remaining balls go to the kazan of their side.
"""

from __future__ import annotations

from .._compile import kernel
from .base import (
    NO_TUZDUK,
    SPEC_FLAG_A,
    SPEC_PITS,
    SPEC_SEEDS,
    TOGYZ,
    Game,
    check_bool,
    end_move,
    side_is_empty,
    store_of,
)


@kernel(inline="always")
def _cell(holes, ring):
    """Board index of position ``ring`` on the 2*holes ring of holes (kazans left out)."""
    return ring if ring < holes else ring + 1


@kernel
def apply_move(state, hole, spec):
    holes = spec[SPEC_PITS]
    stop_at_majority = spec[SPEC_FLAG_A] != 0
    majority = 2 * holes * spec[SPEC_SEEDS] // 2 + 1
    cells = 2 * holes + 2
    tuzduk = cells + 1  # state[tuzduk + p]: player p's tuzduk on the other side, or -1
    mover = state[cells]
    ring_size = 2 * holes

    ring = mover * holes + hole
    balls = state[_cell(holes, ring)]
    state[_cell(holes, ring)] = 0
    if balls == 1:
        ring += 1
    for _ in range(balls):  # sow; with several balls the first goes back into the hole
        if ring >= ring_size:
            ring -= ring_size
        side, number = ring // holes, ring % holes
        if state[tuzduk + 1 - side] == number:  # a tuzduk: the ball goes to its owner
            state[store_of(holes, 1 - side)] += 1
        else:
            state[_cell(holes, ring)] += 1
        ring += 1
    ring -= 1
    if ring < 0:
        ring += ring_size

    side, number = ring // holes, ring % holes
    pos = _cell(holes, ring)
    if side != mover and state[tuzduk + mover] != number:  # an opponent's hole, not our tuzduk
        count = state[pos]
        own_kazan = store_of(holes, mover)
        if count % 2 == 0:  # capture
            state[own_kazan] += count
            state[pos] = 0
        elif (count == 3 and state[tuzduk + mover] == NO_TUZDUK and number != holes - 1
              and state[tuzduk + 1 - mover] != number):
            state[tuzduk + mover] = number
            state[own_kazan] += count
            state[pos] = 0

    next_player = 1 - mover
    over = side_is_empty(state, holes, next_player)
    if stop_at_majority and (state[holes] >= majority or state[cells - 1] >= majority):
        over = True
    end_move(state, holes, next_player, over)


class TogyzKumalak(Game):
    name = "togyz_kumalak"
    game_id = TOGYZ
    apply_kernel = staticmethod(apply_move)
    pit_word, seed_word = "holes", "balls"

    def __init__(self, holes: int = 9, balls: int = 9, stop_at_majority: bool = True):
        check_bool("stop_at_majority", stop_at_majority)
        params = dict(holes=holes, balls=balls, stop_at_majority=bool(stop_at_majority))
        super().__init__(holes, balls, params, flag_a=int(stop_at_majority))
        if self.pits < 2:
            raise ValueError(f"holes must be >= 2 (the last hole can never become a tuzduk), got {holes}")

    def tuzduks(self, state) -> tuple[int, int]:
        """(player_0's tuzduk, player_1's tuzduk): a hole number 0..holes-1 on the other side, or -1."""
        return int(state[self.board_size + 1]), int(state[self.board_size + 2])
