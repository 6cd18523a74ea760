"""Children: holes of the two-row family that a player comes to own (the rules of
``children``, :mod:`mancala_marl.games.family` says where they fit in a move).

A child is a hole marked as one player's (the state's MARKS slots, present only in a game of
children). It stays on the board and keeps its seeds: seeds sown into it stay there and count for
its owner at the end, beside the owner's store (``Family.scores``). A child is never played, never
captured (but a weg's seeds, below), and a relay sowing stops in it. It lasts to the end of the game.

**Making one.** When a move's last seed falls in a hole (never a store) that is nobody's child,
before any capture there, the hole becomes the mover's child if the kind of child allows it; the
move then captures nothing, and it is not a capture (no extra turn for it). A relay sowing whose
lap ends where a child is to be made stops there to make it.

- ``normal``: the hole now holds ``child_count`` seeds. ``one``: the same, while the mover has
  no child yet. ``weg``: as normal; and a last seed in one of the opponent's wegs takes two of its
  seeds (one, if it holds one) to the mover: a capture.
- ``bull``: as normal, or the hole and the one sown just before it (on the way back along the
  sowing) hold ``child_count - 1`` and ``child_count`` seeds, in either order, and that hole is
  nobody's child: both become the mover's.
- ``qur``: the last seed fell into an empty hole (it now holds one) across from a hole of
  ``child_count`` seeds: both become the mover's (whoever's child the one across was).

Where: ``child_side`` keeps children to the opponent's row or the mover's own; ``child_holes``
to a pattern of holes, each hole of a row allowed to its owner, its owner's opponent, both or
neither by its place in the row (counted from the row owner's left; on a row of two holes its
ends, of three its ends and middle, of four its ends and their neighbours): ``ends`` (only the end
holes), ``no_ends``, ``inner_own`` (the inner holes to their row's owner, the ends to the
opponent), ``ends_next_opponent`` (the ends to both, their neighbours to the opponent only, none of
the middle), ``ends_inner_opponent`` (the ends to both, the inner holes to the opponent), and
three that keep one end hole to its own row's owner: ``no_own_right`` (the row's rightmost to the
opponent only), ``no_opponent_right`` (a row's leftmost hole, which faces the opponent's right
hand, to its owner only) and ``no_opponent_left`` (a row's rightmost to its owner only).
``not_symmetric`` is no_opponent_left, and no child in the hole of the same number in the other
row as one that is a child already; ``not_facing`` is no_opponent_right, and no child across from
one. ``fixed_right``: each player's rightmost hole is its child from the start, and no other is
ever made.

**Sowing.** ``child_sowing``: the seeds go into every child (``into``), or pass over the
opponent's children (``skip_opponent``), or pass over them but for the last seed
(``skip_opponent_but_last``).

**Without stores** (``child_stores``; MancalaGames' games with children and no stores): a
capture goes into the capturer's first child (the first in the order of the cells); a player
without a child captures nothing. At the end, what the leftover rule would put in the stores goes
into each player's first child instead: all of it into the only player's first child where one
player has a child, and into player_0's hole 0 and player_1's last hole where neither has. An
endless sowing's seeds (``endless_leftover="divided"``) are shared between each player's last
child (the odd one to player_0 where player_1 has more seeds in children, else to player_1),
all to the only player with a child, or leave play where neither has one.

**The end.** The rules that look at the seeds on the board (no hole to play, too few seeds to
change the outcome, an empty row, at most ``end_seeds_left`` left) count no child's seeds, and the
rule of too few seeds (``end_below``) does not end a game that has a child; an outright win
(``early_win``) counts each player's store and children. The seeds left at the end go by
``leftover`` but for the children's, which stay in them.
"""

from __future__ import annotations

import numpy as np

from .._compile import kernel
from .base import SPEC_PITS
from .family_space import ChildHoles, ChildSide, Children, Leftover, MARKS, OUT_OF_PLAY, Spec, share_out, side_of, step

# child_holes (family_space.ChildHoles, in code order) -> for each of the five places of a hole in
# its row (the left end, its neighbour, the inner holes, the right end's neighbour, the right end,
# as the row's owner sees them), who may make a child there: 1 the row's owner, 2 its opponent
_BOTH, _OWN, _OPP = 3, 1, 2
HOLE_PATTERNS = np.array([
    [_BOTH, _BOTH, _BOTH, _BOTH, _BOTH],  # anywhere
    [_BOTH, 0, 0, 0, _BOTH],  # ends
    [0, _BOTH, _BOTH, _BOTH, 0],  # no_ends
    [_OPP, _OWN, _OWN, _OWN, _OPP],  # inner_own
    [_BOTH, _OPP, 0, _OPP, _BOTH],  # ends_next_opponent
    [_BOTH, _BOTH, _BOTH, _BOTH, _OPP],  # no_own_right
    [_OWN, _BOTH, _BOTH, _BOTH, _BOTH],  # no_opponent_right
    [_BOTH, _BOTH, _BOTH, _BOTH, _OWN],  # no_opponent_left
    [_BOTH, _BOTH, _BOTH, _BOTH, _OWN],  # not_symmetric (no_opponent_left, and its own test)
    [_OWN, _BOTH, _BOTH, _BOTH, _BOTH],  # not_facing (no_opponent_right, and its own test)
    [_BOTH, _OPP, _OPP, _OPP, _BOTH],  # ends_inner_opponent
    [0, 0, 0, 0, 0],  # fixed_right: none made
], dtype=np.int64)


@kernel(inline="always")
def mark_of(state, holes, cell):
    """0 for a hole of nobody's (or a store), 1 + p for player p's child."""
    return state[2 * holes + 2 + MARKS + cell]


@kernel(inline="always")
def hole_place(hole, holes):
    """The place (0..4, HOLE_PATTERNS' columns) of hole ``hole`` of a row of ``holes``."""
    if holes == 3:
        return 2 * hole
    if hole == 0:
        return 0
    if hole == holes - 1:
        return 4
    if hole == 1:
        return 1
    return 3 if hole == holes - 2 else 2


@kernel(inline="always")
def place_allowed(state, spec, cell, holes, mover):
    """Whether ``mover`` may make a child in the hole ``cell`` (child_side, child_holes)."""
    side = side_of(cell, holes)
    rule = spec[Spec.CHILD_SIDE]
    if (rule == ChildSide.OPPONENT and side != 1 - mover) or (rule == ChildSide.OWN and side != mover):
        return False
    pattern = spec[Spec.CHILD_HOLES]
    if pattern == ChildHoles.ANYWHERE:
        return True
    hole = cell - side * (holes + 1)
    if not HOLE_PATTERNS[pattern, hole_place(hole, holes)] & (1 if side == mover else 2):
        return False
    if pattern == ChildHoles.NOT_SYMMETRIC:
        return mark_of(state, holes, cell + holes + 1 if side == 0 else cell - holes - 1) == 0
    if pattern == ChildHoles.NOT_FACING:
        return mark_of(state, holes, 2 * holes - cell) == 0
    return True


@kernel(inline="always")
def bull_pair(a, b, count):
    return (a == count - 1 and b == count) or (a == count and b == count - 1)


@kernel(refcounts=False)
def has_child(state, holes, player):
    for cell in range(2 * holes + 1):
        if mark_of(state, holes, cell) == 1 + player:
            return True
    return False


@kernel(refcounts=False)
def child_due(state, spec, cell, mover, backward, own_store):
    """Whether the last seed of ``mover``'s move, in ``cell``, makes a child there."""
    holes = spec[SPEC_PITS]
    if side_of(cell, holes) < 0 or mark_of(state, holes, cell) != 0:
        return False
    if not place_allowed(state, spec, cell, holes, mover):
        return False
    kind = spec[Spec.CHILDREN]
    count = spec[Spec.CHILD_COUNT]
    if kind == Children.QUR:
        return state[cell] == 1 and state[2 * holes - cell] == count
    if kind == Children.BULL:
        before = step(cell, holes, not backward, own_store)
        if side_of(before, holes) >= 0 and mark_of(state, holes, before) == 0 and \
                bull_pair(state[before], state[cell], count):
            return True
    if kind == Children.ONE and has_child(state, holes, mover):
        return False
    return state[cell] == count


@kernel(refcounts=False)
def make_child(state, spec, cell, mover, backward, own_store):
    """Mark ``cell`` (and a bull's or a qur's second hole) as ``mover``'s child; child_due said so."""
    holes = spec[SPEC_PITS]
    marks = 2 * holes + 2 + MARKS
    state[marks + cell] = 1 + mover
    kind = spec[Spec.CHILDREN]
    if kind == Children.BULL:
        before = step(cell, holes, not backward, own_store)
        if side_of(before, holes) >= 0 and state[marks + before] == 0 and \
                bull_pair(state[before], state[cell], spec[Spec.CHILD_COUNT]):
            state[marks + before] = 1 + mover
    elif kind == Children.QUR:
        state[marks + 2 * holes - cell] = 1 + mover


@kernel(refcounts=False)
def first_child(state, holes, player):
    """``player``'s first child in the order of the cells, or -1."""
    for cell in range(2 * holes + 1):
        if mark_of(state, holes, cell) == 1 + player:
            return cell
    return -1


@kernel(refcounts=False)
def child_seeds(state, holes, player):
    """The seeds in ``player``'s children."""
    total = 0
    for cell in range(2 * holes + 1):
        if mark_of(state, holes, cell) == 1 + player:
            total += state[cell]
    return total


@kernel(refcounts=False)
def bank_children(state, holes):
    """children_bank: every child's seeds into its owner's store."""
    for cell in range(2 * holes + 1):
        mark = mark_of(state, holes, cell)
        if mark != 0 and state[cell]:
            state[(mark - 1) * (holes + 1) + holes] += state[cell]
            state[cell] = 0


@kernel(refcounts=False)
def free_row_seeds(state, holes, player):
    """The seeds in ``player``'s row outside children."""
    total = 0
    first = player * (holes + 1)
    for cell in range(first, first + holes):
        if mark_of(state, holes, cell) == 0:
            total += state[cell]
    return total


@kernel(refcounts=False)
def stores_to_children(state, holes):
    """Without stores: what the stores hold goes into the players' first children (both into the
    only player's first child; into player_0's hole 0 and player_1's last hole where none)."""
    stores = (holes, 2 * holes + 1)
    homes = (first_child(state, holes, 0), first_child(state, holes, 1))
    for player in range(2):
        seeds = state[stores[player]]
        state[stores[player]] = 0
        home = homes[player] if homes[player] >= 0 else homes[1 - player]
        if home < 0:
            home = 0 if player == 0 else 2 * holes
        state[home] += seeds


@kernel(refcounts=False)
def claim_children_leftover(state, spec, mover, rule):
    """The end of a game of children: the seeds of the holes that are nobody's child go by ``rule``
    (a Leftover; Leftover.MOVER: to ``mover``); the children keep theirs."""
    holes = spec[SPEC_PITS]
    stores = (holes, 2 * holes + 1)
    left = 0
    for player in range(2):
        first = player * (holes + 1)
        for cell in range(first, first + holes):
            if mark_of(state, holes, cell) == 0:
                if rule == Leftover.OWNER:
                    state[stores[player]] += state[cell]
                else:
                    left += state[cell]
                state[cell] = 0
    share_out(state, holes, mover, rule, left)
    if spec[Spec.CHILD_STORES]:
        stores_to_children(state, holes)


@kernel(refcounts=True)
def divide_into_children(state, spec):
    """An endless sowing without stores: the seeds of the holes of nobody's shared between each
    player's last child, all to the only player with a child, out of play where none has."""
    holes = spec[SPEC_PITS]
    cells = 2 * holes + 2
    left = 0
    homes = np.full(2, -1, dtype=np.int64)
    owned = np.zeros(2, dtype=np.int64)
    for cell in range(2 * holes + 1):
        if side_of(cell, holes) < 0:
            continue
        mark = mark_of(state, holes, cell)
        if mark == 0:
            left += state[cell]
            state[cell] = 0
        else:
            homes[mark - 1] = cell
            owned[mark - 1] += state[cell]
    if homes[0] >= 0 and homes[1] >= 0:
        state[homes[0]] += left // 2
        state[homes[1]] += left // 2
        if left % 2:
            state[homes[0] if owned[1] > owned[0] else homes[1]] += 1
    elif homes[0] >= 0 or homes[1] >= 0:
        state[homes[0] if homes[0] >= 0 else homes[1]] += left
    else:
        state[cells + OUT_OF_PLAY] += left


# the parameters of children, which do nothing without them, and the rules a game of children
# leaves at these values (no game of MancalaGames' has both; their interplay is not played): rows
# of the family's table of refusals (family_rules)
CHILD_PARAMS = ("child_count", "child_side", "child_holes", "child_sowing", "child_stores", "children_bank")
KEPT = {"lap_capture": False, "must_share": False, "unfed_takes": False, "capture_gap": False, "take_last": 0,
        "take_across": False, "goal": "most_seeds", "grand_slam": "legal", "passing": "none",
        "pre_capture": "none", "capture_kind": "standard", "opponent_store": "passed", "take_final": False,
        "last_seeds_to_opponent": 0}
