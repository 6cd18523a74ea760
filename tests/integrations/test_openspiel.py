"""Kalah(6, 4) against OpenSpiel's ``mancala`` and Oware against OpenSpiel's ``oware``, move for
move (examples/openspiel_crosscheck.py)."""

import pytest

from mancala_marl.games import Kalah, Oware

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


@pytest.mark.parametrize("game", [Oware(), Oware(houses=4, seeds=3), Oware(houses=5, seeds=2)], ids=repr)
def test_oware_agrees_with_openspiel_oware_move_for_move(game):
    from openspiel_crosscheck import crosscheck_oware

    counts = crosscheck_oware(games=3000, seed=0, game=game)
    assert counts["games"] == 3000
    # Board, scores, player to move, legal moves and the end are compared after every move; the
    # games must reach every rule: captures, the duty to feed, grand slams and repetitions.
    assert counts["captures"] > 10_000 and counts["must_feed"] > 500
    assert counts["grand_slams"] > 100 and counts["repetitions"] > 30


def test_oware_crosscheck_catches_the_other_grand_slam_rule():
    from openspiel_crosscheck import crosscheck_oware

    with pytest.raises(AssertionError, match="differ"):
        crosscheck_oware(games=500, seed=0, game=Oware(houses=3, seeds=5, grand_slam="illegal"))


@pytest.mark.parametrize("argv", [["--houses", "4"], ["--seeds", "3"],
                                  ["--game", "kalah", "--houses", "5", "--seeds", "5"]])
def test_kalah_refuses_oware_only_sizes(argv, capsys):
    from openspiel_crosscheck import main

    # OpenSpiel's mancala takes no parameters: Kalah(6, 4) checked under --houses 4 was a false pass.
    with pytest.raises(SystemExit) as exit_:
        main([*argv, "--games", "1"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "oware only" in err, err


def test_oware_sizes_are_used(capsys):
    from openspiel_crosscheck import main

    main(["--game", "oware", "--houses", "4", "--seeds", "3", "--games", "2"])
    assert capsys.readouterr().out.startswith("Oware(houses=4, seeds=3,")
