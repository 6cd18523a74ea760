"""Kalah(6, 4) against OpenSpiel's ``mancala``, move for move (examples/openspiel_crosscheck.py)."""

import pytest

from mancala_marl.games import Kalah

pytestmark = pytest.mark.integration("pyspiel", make="test-marl")


def test_kalah_agrees_with_openspiel_mancala_move_for_move():
    from openspiel_crosscheck import crosscheck

    counts = crosscheck(games=3000, seed=0)
    assert counts["games"] == 3000
    # The random games must exercise the rules that differ between variants; extra turns are
    # where the same player moves twice, and the player to move is compared after every move.
    assert counts["extra_turns"] > 10_000 and counts["captures"] > 5_000


@pytest.mark.parametrize("game", [Kalah(empty_capture=True), Kalah(end_rule="mover")], ids=repr)
def test_crosscheck_catches_a_different_rule_set(game):
    from openspiel_crosscheck import crosscheck

    with pytest.raises(AssertionError, match="differ"):
        crosscheck(games=200, seed=0, game=game)
