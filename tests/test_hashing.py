"""The one position hash (mancala_marl.games.hashing): FNV-1a, worked by hand, and its skips."""

import numpy as np

from mancala_marl.games.hashing import FNV_OFFSET, FNV_PRIME, NONE, fnv1a

MASK = (1 << 64) - 1


def by_hand(values) -> int:
    h = FNV_OFFSET
    for value in values:
        h = ((h ^ (value + 1)) * FNV_PRIME) & MASK
    return h


def test_fnv1a_is_the_published_recurrence_over_each_value_plus_one():
    cells = np.array([4, 0, 7, 0, 2], dtype=np.int32)
    assert int(fnv1a(cells, 5, NONE, NONE)) == by_hand([4, 0, 7, 0, 2])
    assert int(fnv1a(cells, 3, NONE, NONE)) == by_hand([4, 0, 7])  # the first count cells only
    assert int(fnv1a(cells, 0, NONE, NONE)) == FNV_OFFSET
    # an empty cell still changes the hash: [0] and [] differ, as do [0, 5] and [5]
    assert by_hand([0]) != FNV_OFFSET and by_hand([0, 5]) != by_hand([5])


def test_skipped_cells_are_left_out_as_if_absent():
    cells = np.array([3, 9, 1, 6], dtype=np.int32)
    assert int(fnv1a(cells, 4, 1, 3)) == by_hand([3, 1])
    other = cells.copy()
    other[[1, 3]] = [50, 60]  # the stores, say: a search that leaves them out sees one position
    assert fnv1a(cells, 4, 1, 3) == fnv1a(other, 4, 1, 3) and fnv1a(cells, 4, NONE, NONE) != fnv1a(other, 4, NONE, NONE)
