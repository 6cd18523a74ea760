"""Grading policies against perfect play (``mancala_marl.matches.grading``, ``mancala-marl grade``):
perfect play grades perfect, a worse player worse, a blunder is a thrown result, and the same
seed grades the same positions the same way."""

import json
from dataclasses import FrozenInstanceError, replace

import pytest

from mancala_marl.agents import make_policy
from mancala_marl.games import make_game
from mancala_marl import cli
from mancala_marl.matches.grading import draw_positions, grade, seed_bins, solve_position

SMALL = "kalah:pits=4,seeds=3"
DB_SEEDS = 8  # a small database: the search does the rest on 24 seeds


@pytest.fixture(scope="module")
def cache_folder(tmp_path_factory):
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(autouse=True)
def private_cache(cache_folder, monkeypatch):
    """The databases go to a folder of the tests', built once for the module."""
    monkeypatch.setenv("MANCALA_MARL_CACHE", str(cache_folder))


@pytest.fixture(scope="module")
def graded(cache_folder):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MANCALA_MARL_CACHE", str(cache_folder))
        return grade(SMALL, ["perfect", "random"], positions=36, seed=3, db_seeds=DB_SEEDS)


def test_perfect_play_grades_perfect(graded):
    perfect = graded["policies"][0]
    assert perfect["policy"] == "perfect" and perfect["positions"] == graded["positions"] == 36
    assert (perfect["optimal"], perfect["blunders"], perfect["regret"]) == (1.0, 0.0, 0.0)
    for stage in perfect["by_seeds"]:
        assert stage["positions"] == 6 and (stage["optimal"], stage["blunders"], stage["regret"]) == (1.0, 0.0, 0.0)


def test_random_play_grades_worse(graded):
    chance = graded["policies"][1]
    assert chance["policy"] == "random"
    assert chance["optimal"] < 1 and chance["regret"] > 0 and chance["blunders"] > 0
    assert sum(s["positions"] for s in chance["by_seeds"]) == 36
    # the overall figures are the stages' means (equal stages)
    assert chance["regret"] == pytest.approx(sum(s["regret"] for s in chance["by_seeds"]) / 6)
    low, high = chance["optimal_95"]
    assert low < chance["optimal"] < high


def test_positions_are_spread_over_the_stages_and_never_forced():
    game = make_game("kalah", pits=4, seeds=3)
    assert seed_bins(game) == [(1, 4), (5, 8), (9, 12), (13, 16), (17, 20), (21, 24)]
    assert seed_bins(game, 6, max_seeds=10) == [(1, 2), (3, 4), (5, 6), (7, 8), (9, 10)]
    states = draw_positions(game, 30, seed=1)
    assert len(states) == 30 and len({state.tobytes() for state in states}) == 30
    counts = [sum(low <= game.seeds_in_play(s) <= high for s in states) for low, high in seed_bins(game)]
    assert counts == [5] * 6
    assert all(game.legal_mask(state).sum() > 1 and not game.is_terminal(state) for state in states)
    endgames = draw_positions(game, 10, seed=1, max_seeds=6)
    assert all(game.seeds_in_play(state) <= 6 for state in endgames)


def test_a_stage_no_game_reaches_does_not_keep_the_drawing_going(monkeypatch):
    # Oware endgames with one or two seeds and a choice of move hardly occur: the first stage of
    # six over 12 seeds stays empty, and the drawing stops after n + 10 games instead of 20 n + 100
    import mancala_marl.matches.grading as grading

    game, games = make_game("oware"), []
    play_opening = grading.play_opening
    monkeypatch.setattr(grading, "play_opening", lambda *args: (games.append(1), play_opening(*args))[1])
    states = draw_positions(game, 12, seed=0, players=("greedy",), bins=6, max_seeds=12)
    assert len(states) == 12 and len(games) == 12 + 10
    assert not any(game.seeds_in_play(state) <= 2 for state in states)


def test_a_thrown_win_is_a_blunder():
    """Worked by hand: player_0 to move, pits (0, 1, 1, 0) and store 10; player_1 has 1 seed in
    the pit facing player_0's pit 3, and 11 in store. Pit 2 ends in the empty pit 3, captures the
    seed facing it (12), empties player_1's side and sweeps pit 1 home: 13-11, +2. Pit 1 leaves
    two seeds in pit 2; player_1's seed ends in its own empty pit facing them and captures all
    three: 10-14, -4. So pit 1 throws a win away: a blunder, 6 seeds of regret."""
    game = make_game("kalah", pits=4, seeds=3)
    state = game.from_board([0, 1, 1, 0, 10, 1, 0, 0, 0, 11], to_move=0)
    solved = solve_position(game, state, make_policy("perfect", db_seeds=DB_SEEDS))
    assert solved.values == {1: -4, 2: 2} and solved.results == {1: -1, 2: 1} and solved.seeds == 3
    assert solved.verdict(2) == {"optimal": True, "blunder": False, "regret": 0}
    assert solved.verdict(1) == {"optimal": False, "blunder": True, "regret": 6}
    with pytest.raises(ValueError, match="pit 0 is not a legal move"):
        solved.verdict(0)


def test_a_worse_move_that_keeps_the_result_is_no_blunder():
    game = make_game("kalah", pits=4, seeds=3)
    state = game.from_board([0, 1, 1, 0, 10, 1, 0, 0, 0, 11], to_move=0)
    solved = solve_position(game, state, make_policy("perfect", db_seeds=DB_SEEDS))
    # other worths of the same position, in copies: the solved position is cached for later tests
    smaller_win = replace(solved, values={1: 2, 2: 6}, results={1: 1, 2: 1})  # regret, no blunder
    assert smaller_win.verdict(1) == {"optimal": False, "blunder": False, "regret": 4}
    assert replace(solved, values={1: 0, 2: 6}, results={1: 0, 2: 1}).verdict(1)["blunder"]  # a win thrown to a draw
    assert replace(solved, values={1: -1, 2: 0}, results={1: -1, 2: 0}).verdict(1)["blunder"]  # a draw to a loss
    results_only = replace(solved, values=None, results={1: 0, 2: 0})  # results only (Oware): no regret
    assert results_only.verdict(1) == {"optimal": True, "blunder": False, "regret": None}
    with pytest.raises(FrozenInstanceError):  # the cached position cannot be changed in place
        solved.values = {1: 2, 2: 6}
    assert solve_position(game, state, make_policy("perfect", db_seeds=DB_SEEDS)).values == {1: -4, 2: 2}


def test_the_same_seed_grades_alike_and_another_draws_other_positions():
    kwargs = {"positions": 12, "db_seeds": DB_SEEDS}
    first = grade(SMALL, ["random", "greedy"], seed=5, **kwargs)
    again = grade(SMALL, ["random", "greedy"], seed=5, **kwargs)
    alone = grade(SMALL, ["random"], seed=5, **kwargs)  # a policy's grade does not depend on the others
    for result in (first, again, alone):
        result.pop("seconds")
        for row in result["policies"]:
            row.pop("seconds_per_move")
    assert first == again and alone["policies"][0] == first["policies"][0]
    game = make_game("kalah", pits=4, seeds=3)
    assert ([s.tobytes() for s in draw_positions(game, 12, seed=5)]
            != [s.tobytes() for s in draw_positions(game, 12, seed=6)])


def test_oware_endgames_are_graded_on_results():
    """Oware's perfect play gives results, not margins: optimal means keeping the best result, a
    blunder losing it, and there is no regret; the positions are endgames its database covers."""
    result = grade("oware:houses=4,seeds=2", ["perfect", "random"], positions=8, seed=1, bins=2, max_seeds=6,
                   db_seeds=6)
    assert result["bins"] == [[1, 3], [4, 6]]
    assert result["positions"] + result["skipped"] == 8 and result["positions"] >= 6
    assert sum(result["skipped_by_seeds"]) == result["skipped"]
    perfect, chance = result["policies"]
    assert (perfect["optimal"], perfect["blunders"], perfect["regret"]) == (1.0, 0.0, None)
    assert chance["regret"] is None and chance["optimal"] + chance["blunders"] == pytest.approx(1.0)
    game = make_game("oware", houses=4, seeds=2)
    assert all(game.seeds_in_play(state) <= 6 for state in draw_positions(game, 8, seed=1, bins=2, max_seeds=6))


def test_oware_endgames_past_the_database_are_refused_in_one_line():
    with pytest.raises(ValueError, match="at most 6 seeds in play") as error:
        grade("oware:houses=4,seeds=2", ["random"], positions=2, max_seeds=8, db_seeds=6)
    assert "\n" not in str(error.value)


def run(capsys, *argv):
    status = cli.main(["grade", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_json_output_is_one_object_with_every_field(capsys):
    status, out, err = run(capsys, SMALL, "perfect", "max", "--positions", "6", "--seed", "2", "--db-seeds", "8",
                           "--json")
    assert status == 0 and err == ""
    result = json.loads(out)  # one object, nothing else on stdout
    assert set(result) == {"game", "source", "seed", "opening", "players", "bins", "positions", "skipped", "skipped_by_seeds",
                           "seconds", "policies"}
    assert (result["game"], result["seed"], result["opening"], result["positions"]) == (SMALL, 2, 4, 6)
    assert [row["policy"] for row in result["policies"]] == ["perfect", "max"]
    for row in result["policies"]:
        assert set(row) == {"policy", "positions", "optimal", "optimal_95", "blunders", "regret",
                            "seconds_per_move", "by_seeds"}
        assert [stage["seeds"] for stage in row["by_seeds"]] == result["bins"]
        assert all(set(stage) == {"seeds", "positions", "optimal", "optimal_95", "blunders", "regret"}
                   for stage in row["by_seeds"])


def test_the_table_names_each_policy_and_stage(capsys):
    status, out, _ = run(capsys, SMALL, "perfect", "random", "--positions", "6", "--bins", "3", "--db-seeds", "8")
    assert status == 0
    assert "perfect" in out and "random" in out and "100.0%" in out
    assert "1-8 (2)" in out and "17-24 (2)" in out
    # to a pipe as on a terminal: each title on one line, and thinking time in ms as the docs give it
    assert any(line.strip() == f"{SMALL}: 6 positions graded against perfect play (drawn fresh, seed 0, opening 4)"
               for line in out.splitlines())
    assert "ms/move" in out and "s/move" not in out.replace("ms/move", "")


@pytest.mark.parametrize("argv, why", [
    (["nonesuch", "random"], "unknown game 'nonesuch'"),
    (["sungka", "random"], "no endgame database or solver for Sungka (sungka)"),
    (["togyz_kumalak", "random"], "no endgame database or solver for Togyz Kumalak (togyz_kumalak)"),
    ([SMALL, "nonesuch"], "unknown policy 'nonesuch'"),
    ([SMALL, "alphabeta:depth=0"], "depth must be"),
    ([SMALL, "alphazero"], "was trained for kalah"),  # the shipped network fits Kalah(6,4) only
    ([SMALL, "random", "--positions", "0"], "argument --positions: must be an integer >= 1"),
    ([SMALL, "random", "--positions", "10000000"], "<= 100000 (one can take a minute to solve)"),
    ([SMALL, "random", "--seed", "-1"], "argument --seed"),
    ([SMALL, "random", "--opening", "x"], "argument --opening"),
    ([SMALL, "random", "--bins", "0"], "argument --bins: must be an integer >= 1 and <= 20"),
    ([SMALL], "the following arguments are required: POLICY"),
    (["oware:houses=4,seeds=2", "random", "--db-seeds", "6", "--max-seeds", "7"], "at most 6 seeds in play"),
])
def test_bad_input_is_one_line_and_status_2(argv, why, capsys):
    try:
        status, out, err = run(capsys, *argv)
    except SystemExit as exit_:  # argparse's own errors
        status, (out, err) = exit_.code, capsys.readouterr()
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err and why in err, err


def test_the_bar_says_which_position_and_policy_it_is_on(monkeypatch):
    """A position can take a minute to solve: the bar's text names the one being solved, and the
    policy being asked, before the count moves on."""
    import mancala_marl.matches.grading as grading

    class Recorder:
        def __init__(self, disable=False):
            self.seen = []

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def add_task(self, description, total):
            self.seen.append(("add", description))
            return len(self.seen)

        def update(self, task, description):
            self.seen.append(("now", description))

        def advance(self, task):
            self.seen.append(("done", None))

    bars = []
    monkeypatch.setattr(grading, "progress_bar", lambda disable=False: bars.append(Recorder(disable)) or bars[-1])
    grade(SMALL, ["random", "greedy"], positions=4, seed=5, db_seeds=DB_SEEDS, progress=True)
    seen = bars[0].seen
    solving = [text for kind, text in seen if kind == "now" and text.startswith("solving")]
    asking = [text for kind, text in seen if kind == "now" and text.startswith("grading")]
    assert len(solving) == 4 and all(text.endswith(" seeds in play)") for text in solving)
    assert asking == ["grading moves (now random)", "grading moves (now greedy)"] * 4
    first_done = seen.index(("done", None))
    assert seen[first_done - 1][0] == "now"  # named before its work, not after
