"""Counts are bounded where they enter: a slip of the keyboard is one line of error, and a match
holds only the games in flight, however many it plays."""

import tracemalloc

import pytest

from mancala_marl.limits import LIMITS, check_count, check_workers
from mancala_marl.matches.arena import arena, match_records
from mancala_marl.cli import main


def refused(argv, capsys) -> str:
    """The one line of error of a command line that must be refused (argparse exits by itself)."""
    try:
        status = main(argv)
    except SystemExit as exit_:
        status = exit_.code
    err = capsys.readouterr().err
    assert status == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    return err


def test_a_count_past_its_range_is_one_line_naming_it():
    assert check_count("games", 10) == 10 and check_count("minutes", 1) == 1.0
    with pytest.raises(ValueError, match=r"^games must be <= 1000000 \(a million games a seat pin a win rate "
                                         r"to 0.001\), got 99999999999999999999; it takes 1..1000000$"):
        check_count("games", 99999999999999999999)
    with pytest.raises(ValueError, match=r"^-n must be >= 1, got 0"):
        check_count("games", 0, "-n")
    with pytest.raises(ValueError, match="minutes must be a number, got 'soon'"):
        check_count("minutes", "soon")
    for param in LIMITS.values():  # every range keeps a runaway count out
        assert param.high <= 10**12


def test_more_workers_than_games_is_refused():
    assert check_workers(4, 4) == 4
    with pytest.raises(ValueError, match=r"^workers must be <= 4 \(one game each at least; there are 4\), got 8$"):
        check_workers(8, 4, unit="game")
    with pytest.raises(ValueError, match="workers must be <= 256"):
        check_workers(500, 1000)


@pytest.mark.parametrize("argv, message", [
    # built a list of every game up front and grew to gigabytes
    (["-n", "99999999999999999999"], "argument -n/--games: must be an integer >= 1 and <= 1000000 (a million "
                                     "games a seat pin a win rate to 0.001), got '99999999999999999999'"),
    (["-n", "2", "--workers", "500"], "argument --workers: must be an integer >= 1 and <= 256, got '500'"),
    (["-n", "2", "--workers", "8"], "workers (processes) must be <= 4 (one game each at least; there are 4), got 8"),
    (["-n", "2", "--opening", "5000"], "argument --opening: must be an integer >= 0 and <= 1000 (no game is longer)"),
])
def test_arena_refuses_a_count_past_its_range(argv, message, capsys):
    assert message in refused(["arena", "kalah", "random", "max", *argv], capsys)


@pytest.mark.parametrize("spec", ["alphabeta:depth=4,,", "alphabeta:,depth=4", "alphabeta:depth=4,,time_limit=0.5"])
def test_a_policy_spec_with_an_empty_parameter_is_refused(spec, capsys):
    err = refused(["arena", "kalah", spec, "max", "-n", "1"], capsys)
    assert f"{spec!r} has an empty parameter (a comma too many)" in err


def test_training_commands_bound_their_counts(capsys):
    assert "argument --games: must be an integer >= 1 and <= 65536" in refused(
        ["alphazero", "kalah", "--games", "10000000000"], capsys)
    assert "argument --n-envs: must be an integer >= 1 and <= 65536" in refused(
        ["train", "kalah", "--n-envs", "1000000"], capsys)
    assert "argument --states: must be an integer >= 1 and <= 100000000 (more would not fit in memory)" in refused(
        ["distill", "kalah", "--states", "1000000000000"], capsys)


def test_a_match_is_played_as_it_goes_not_listed_up_front():
    records = match_records("kalah:pits=3,seeds=2", "random", "random", n=1_000_000, seed=1)
    first = next(records)  # at once: no million-game list comes first
    assert (first["index"], first["seat"]) == (0, "first")
    records.close()


def peak_bytes(n: int) -> int:
    tracemalloc.start()
    try:
        arena("kalah:pits=3,seeds=2", "random", "random", n=n, seed=2)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_long_match_takes_no_more_memory_than_a_short_one():
    peak_bytes(5)  # compiled and cached first
    short, long = peak_bytes(20), peak_bytes(2000)
    # the 4,000 records of the long match alone would take more than a megabyte
    assert long < short + 200_000, (short, long)


def test_arena_counts_its_games_on_a_progress_bar(monkeypatch, capsys):
    monkeypatch.setenv("TTY_COMPATIBLE", "1")  # rich draws as on a terminal
    assert main(["arena", "kalah:pits=3,seeds=2", "random", "max", "-n", "3"]) == 0
    out, err = capsys.readouterr()
    assert "6/6" in err and "games" in err and "6/6" not in out
    assert main(["arena", "kalah:pits=3,seeds=2", "random", "max", "-n", "3", "--no-progress"]) == 0
    assert "6/6" not in capsys.readouterr().err
