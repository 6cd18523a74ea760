"""Arena, tournament and paper-table: counts add up, seeds reproduce, JSON/CSV outputs are well formed."""

import csv
import json

import pytest

from mancala_marl.agents import make_policy
from mancala_marl.games import MAX_MOVES, make_game
from mancala_marl.games import parse_game
from mancala_marl.matches.arena import arena, check_writable, play_game, play_match
from mancala_marl.matches.stats import wilson
from mancala_marl.cli import main
from mancala_marl.matches.tournament import elo_ratings, paper_table, round_robin


def test_counts_add_up_per_seat_and_overall():
    result = arena("kalah:pits=4,seeds=3", "random", "max", n=15, seed=3)
    assert result["games"] == 15 and result["total_games"] == 30
    for seat in ("first", "second"):
        s = result["seats"][seat]
        assert s["games"] == 15 and s["wins"] + s["draws"] + s["losses"] == 15
        assert s["win_rate"] == s["wins"] / 15
        assert s["ci95"][0] <= s["win_rate"] <= s["ci95"][1]
    o = result["overall"]
    assert o["wins"] == result["seats"]["first"]["wins"] + result["seats"]["second"]["wins"]
    assert o["mean_length"] == pytest.approx((result["seats"]["first"]["mean_length"]
                                              + result["seats"]["second"]["mean_length"]) / 2)


def test_records_match_the_summary_and_the_seeds_reproduce():
    records = []
    a = arena("sungka:houses=4,stones=4", "random", "greedy", n=10, seed=11, records=records)
    assert len(records) == 20
    first = [r for r in records if r["seat"] == "first"]
    assert sum(r["score_a"] > r["score_b"] for r in first) == a["seats"]["first"]["wins"]
    assert all(r["score_a"] + r["score_b"] == 32 for r in records)  # every seed ends in a store
    again = arena("sungka:houses=4,stones=4", "random", "greedy", n=10, seed=11)
    assert again == a
    other = arena("sungka:houses=4,stones=4", "random", "greedy", n=10, seed=12)
    assert other["seats"] != a["seats"]  # random play with another seed gives other games


def test_parallel_workers_give_the_same_result():
    one = arena("kalah:pits=4,seeds=3", "random", "alphabeta:depth=2", n=6, seed=5, opening=2)
    two = arena("kalah:pits=4,seeds=3", "random", "alphabeta:depth=2", n=6, seed=5, opening=2, workers=2)
    assert one == two


def test_opening_moves_make_deterministic_policies_play_different_games():
    records = []
    arena("kalah", "max", "exact", n=10, seed=0, records=records)
    assert len({(r["score_a"], r["length"]) for r in records if r["seat"] == "first"}) == 1
    records = []
    arena("kalah", "max", "exact", n=10, seed=0, opening=4, records=records)
    assert len({(r["score_a"], r["length"]) for r in records if r["seat"] == "first"}) > 1


def test_wilson_interval_known_values():
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(0, 10)[1] == pytest.approx(0.2775, abs=1e-4)


def test_elo_orders_the_policies_and_is_symmetric_for_equal_results():
    def pair(a, b, w, d, l):
        return {"a": a, "b": b, "overall": {"wins": w, "draws": d, "losses": l, "games": w + d + l}}
    even = elo_ratings(["x", "y"], [pair("x", "y", 10, 0, 10)])
    assert even["x"] == pytest.approx(even["y"])
    r = elo_ratings(["x", "y", "z"], [pair("x", "y", 15, 0, 5), pair("y", "z", 15, 0, 5), pair("x", "z", 20, 0, 0)])
    assert r["x"] > r["y"] > r["z"]
    assert sum(r.values()) / 3 == pytest.approx(1500)
    # x beats y 15:5; with the virtual draw 15.5:5.5, so the gap is 400 log10(15.5 / 5.5) = 180.0
    two = elo_ratings(["x", "y"], [pair("x", "y", 15, 0, 5)])
    assert two["x"] - two["y"] == pytest.approx(400 * __import__("math").log10(15.5 / 5.5), abs=0.1)


def test_round_robin_and_paper_table_shapes():
    result = round_robin("kalah:pits=3,seeds=3", ["random", "max", "greedy"], n=4, seed=1)
    assert len(result["pairs"]) == 3 and set(result["ratings"]) == {"random", "max", "greedy"}
    table = paper_table("kalah:pits=3,seeds=3", "greedy", n=4)
    assert [row["row"] for row in table["rows"]] == ["vs. Random Policy", "vs. Max Policy", "vs. Exact Policy",
                                                     "vs. Self"]
    for row in table["rows"]:
        for seat in ("first", "second"):
            assert 0 <= row[seat]["average_reward"] <= 18 and 0 <= row[seat]["win_percentage"] <= 100


def test_arena_command_json_is_one_object_and_csv_has_a_row_per_game(tmp_path, capsys):
    path = tmp_path / "games.csv"
    assert main(["arena", "kalah:pits=4,seeds=3", "greedy", "random", "-n", "5", "--json", "--csv", str(path)]) == 0
    out = capsys.readouterr().out
    result = json.loads(out)  # the whole of stdout is one JSON object
    assert {"game", "a", "b", "games", "seats"} <= set(result) and result["games"] == 5
    for seat in ("first", "second"):
        assert {"wins", "draws", "losses", "win_rate", "ci95", "mean_score", "mean_margin",
                "mean_length"} <= set(result["seats"][seat])
    with open(path) as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 10 and {r["seat"] for r in rows} == {"first", "second"}


def test_arena_command_rejects_unknown_names(capsys):
    assert main(["arena", "kalah", "nope", "random", "-n", "2"]) == 2
    assert "unknown policy 'nope'" in capsys.readouterr().err
    assert main(["arena", "chess", "max", "random", "-n", "2"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err


@pytest.mark.parametrize("command", [["arena", "kalah", "max", "random"], ["tournament", "kalah", "max", "random"]])
def test_a_negative_opening_is_refused(command, capsys):
    # It used to be taken as no opening: deterministic policies then play one game n times.
    with pytest.raises(SystemExit) as exit_:  # argparse exits by itself
        main([*command, "-n", "2", "--opening", "-2"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "argument --opening: must be an integer >= 0 and <= 1000" in err
    assert len(err.strip().splitlines()) == 1


def test_games_that_end_in_the_random_opening_are_counted_and_reported(capsys):
    assert main(["arena", "kalah:pits=3,seeds=2", "max", "exact", "-n", "4", "--opening", "500", "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["ended_in_opening"] == 8  # nothing but random moves in every game
    assert "warning: 8 of 8 games ended within the 500 random opening moves" in err
    assert main(["arena", "kalah:pits=3,seeds=2", "max", "exact", "-n", "4", "--opening", "2", "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["ended_in_opening"] == 0 and err == ""


@pytest.mark.parametrize("command", [["arena", "kalah", "max", "random", "--csv"],
                                     ["tournament", "kalah", "max", "random", "--markdown"]])
def test_an_output_file_that_cannot_be_written_is_refused_before_the_games(command, tmp_path, capsys):
    target = tmp_path / "no such folder" / "out.txt"
    assert main([*command, str(target), "-n", "2"]) == 2
    out, err = capsys.readouterr()
    assert f"cannot write {target} (no folder {target.parent})" in err and out == ""  # no game was played


def test_an_output_file_is_opened_to_see_if_it_can_be_written(tmp_path, capsys):
    # os.access answered yes for root everywhere: /proc/x.md was found out after every game
    assert main(["tournament", "kalah", "max", "random", "-n", "2", "--markdown", "/proc/x.md"]) == 2
    out, err = capsys.readouterr()
    assert "--markdown: cannot write /proc/x.md (" in err and out == ""
    fresh = tmp_path / "fresh.csv"
    check_writable(fresh, "--csv")
    assert not fresh.exists()  # looked at, not left behind
    kept = tmp_path / "kept.csv"
    kept.write_text("a user's rows\n")
    check_writable(kept, "--csv")
    assert kept.read_text() == "a user's rows\n"  # opened, not truncated or removed
    link = tmp_path / "link.csv"
    link.symlink_to(tmp_path / "target.csv")  # dangling until written
    check_writable(link, "--csv")
    assert link.is_symlink() and not (tmp_path / "target.csv").exists()  # the link kept, no stray target
    check_writable("/dev/null", "--csv")  # a device is taken as it is


def test_tournament_and_paper_table_commands(tmp_path, capsys):
    assert main(["tournament", "kalah:pits=3,seeds=3", "random", "max", "greedy", "-n", "3", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert set(result["ratings"]) == {"random", "max", "greedy"} and len(result["pairs"]) == 3
    markdown = tmp_path / "table.md"
    assert main(["tournament", "kalah:pits=3,seeds=3", "random", "greedy", "-n", "3", "--markdown", str(markdown)]) == 0
    out, err = capsys.readouterr()
    assert any(line.strip().startswith("kalah:pits=3,seeds=3: 3 games per") for line in out.splitlines())  # the rules
    assert "random's wins-draws-losses" in err
    assert markdown.read_text().startswith("kalah:pits=3,seeds=3, 3 games per seat and pair\n\n| policy |")
    assert main(["paper-table", "kalah:pits=3,seeds=3", "greedy", "-n", "3"]) == 0
    out = capsys.readouterr().out
    assert "As First Turn" in out and "As Second Turn" in out and "vs. Self" in out
    assert "greedy on kalah:pits=3,seeds=3" in out


@pytest.mark.parametrize("command", [["tournament", "kalah:pits=3,seeds=2", "max", "exact"],
                                     ["paper-table", "kalah:pits=3,seeds=2", "max"]])
def test_tournament_and_paper_table_warn_of_games_that_end_in_the_opening(command, capsys):
    assert main([*command, "-n", "2", "--opening", "500", "--json"]) == 0
    out, err = capsys.readouterr()
    assert "games ended within the 500 random opening moves" in err
    if command[0] == "paper-table":
        result = json.loads(out)
        assert result["ended_in_opening"] == result["total_games"] == 16  # 4 rows, 2 seats, 2 games


@pytest.mark.parametrize("bad, message", [
    ("alphabeta:depth=0", "depth must be an integer >= 1"),
    ("alphabeta:deep=2", "unknown parameter 'deep' for policy 'alphabeta'"),
    ("solver", "has 48 seeds, more than max_seeds=40"),  # the default 6x4 Kalah
])
def test_a_tournament_refuses_a_bad_policy_before_any_pair_plays(bad, message, capsys):
    # it was found when its pair came up, after the pairs before it had played
    assert main(["tournament", "kalah", "random", "max", bad, "-n", "2"]) == 2
    out, err = capsys.readouterr()
    assert message in err and "random vs max" not in err and out == ""


def test_rule_values_read_as_shells_write_them_and_each_is_given_once(tmp_path, capsys):
    assert parse_game("kalah:empty_capture=true").params["empty_capture"] is True
    assert parse_game("kalah:empty_capture=FALSE").params["empty_capture"] is False
    with pytest.raises(ValueError, match=r"^'kalah:pits=4,pits=5' gives pits twice$"):
        parse_game("kalah:pits=4,pits=5")
    run = ["--timesteps", "10", "--run-dir", str(tmp_path / "run")]  # nowhere near runs/ if it were not refused
    assert main(["train", "kalah:pits=3,pits=4", *run]) == 2
    assert "'kalah:pits=3,pits=4' gives pits twice" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


def test_a_game_that_never_ends_is_stopped_at_max_moves_and_scored_a_draw():
    # Togyz Kumalak has no repetition rule: on a 3-hole board with one ball a hole, two max
    # players send the balls round the ring for ever (no capture, no majority).
    game = make_game("togyz_kumalak", holes=3, balls=1)
    s0, s1, moves = play_game(game, make_policy("max"), make_policy("max"))
    assert (s0, s1, moves) == (2.0, 2.0, MAX_MOVES)  # both stores hold 2: the mean of 2 and 2
    s0, s1, moves = play_game(game, make_policy("max"), make_policy("max"), max_moves=50)
    assert moves == 50 and s0 == s1
    result = arena("togyz_kumalak:holes=3,balls=1", "max", "simple", 2)
    assert result["overall"]["draws"] == 4


@pytest.mark.parametrize("play", [arena, play_match])
@pytest.mark.parametrize("option, value, message", [
    ("workers", "2", "workers (processes) must be an integer >= 1 and <= 256, got '2'"),
    ("workers", 2.5, "workers (processes) must be an integer >= 1 and <= 256, got 2.5"),
    ("workers", 0, "workers (processes) must be >= 1, got 0; it takes 1..256"),
    ("seed", "x", "seed must be an integer from 0 to 2**32 - 1, got 'x'"),
    ("seed", -1, "seed must be an integer from 0 to 2**32 - 1, got -1"),
    ("seed", 1.5, "seed must be an integer from 0 to 2**32 - 1, got 1.5"),
    ("seed", 2**32, "seed must be an integer from 0 to 2**32 - 1, got 4294967296"),
])
def test_bad_workers_or_seed_is_refused_naming_it(play, option, value, message):
    with pytest.raises(ValueError) as error:
        play("kalah", "random", "random", n=1, **{option: value})
    assert str(error.value) == message


def test_a_policy_that_plays_an_illegal_move_is_named():
    from mancala_marl.agents import Policy
    from mancala_marl.games import IllegalMoveError

    class Stubborn(Policy):  # always its first pit, empty after one move
        name = "stubborn"

        def act(self, game, state):
            return 0

    with pytest.raises(IllegalMoveError, match=r"stubborn \(player_0\) played an illegal move: .*pit 0 is empty"):
        arena("kalah", Stubborn(), "max", n=1)


def test_deterministic_pairs_with_no_opening_are_said_to_repeat_one_game(capsys):
    assert main(["arena", "kalah:pits=3,seeds=2", "max", "exact", "-n", "3"]) == 0
    assert "note: max vs exact: both play deterministically, so each seat's games are one game played again" \
        in capsys.readouterr().err
    for quiet in (["arena", "kalah:pits=3,seeds=2", "max", "random", "-n", "3"],
                  ["arena", "kalah:pits=3,seeds=2", "max", "exact", "-n", "3", "--opening", "2"]):
        assert main(quiet) == 0
        assert "note:" not in capsys.readouterr().err
    assert main(["tournament", "kalah:pits=3,seeds=2", "random", "max", "exact", "greedy", "-n", "2"]) == 0
    err = capsys.readouterr().err
    assert "note: max vs exact, max vs greedy, exact vs greedy: both play" in err and "random vs" not in err.split("note:")[1]
    assert main(["paper-table", "kalah:pits=3,seeds=2", "greedy", "-n", "2"]) == 0
    assert "note: greedy vs max, greedy vs exact, greedy vs greedy: both play" in capsys.readouterr().err
    # a model that plays a random move now and then is not deterministic
    assert make_policy("pretrained").deterministic and not make_policy("pretrained:epsilon=0.1").deterministic


@pytest.mark.parametrize("names, message", [
    (["greedy", "greedy", "random"], "policy 'greedy' is given twice: each policy takes part in a tournament once"),
    (["max", "greedy", "max", "max"], "policy 'max' is given 3 times"),
    (["max", "random", "max", "random"], "policies 'max', 'random' are each given more than once"),
    (["greedy", "greedy"], "a tournament needs at least two different policies, got ['greedy', 'greedy']"),
    (["greedy"], "a tournament needs at least two different policies, got ['greedy']"),
])
def test_a_tournament_names_a_repeated_policy(names, message):
    # "greedy greedy random" was told it needed two different policies, which it had; results
    # and ratings are keyed by the spec, so a repeat cannot play as a policy of its own
    with pytest.raises(ValueError) as error:
        round_robin("kalah:pits=3,seeds=2", names, n=1)
    assert message in str(error.value)


def test_titles_say_how_many_random_opening_moves_began_each_game(tmp_path, capsys):
    # a pasted table did not say whether its games began at random
    def title_words(argv):
        assert main(argv) == 0
        return " ".join(capsys.readouterr().out.split())  # rich wraps titles to the table's width

    game = "kalah:pits=3,seeds=2"
    arena_ = ["arena", game, "greedy", "random", "-n", "1"]
    assert "seed 0, 4 random opening moves" in title_words([*arena_, "--opening", "4"])
    assert "seed 0, 1 random opening move " in title_words([*arena_, "--opening", "1"])
    assert "opening" not in title_words(arena_)  # none: the title as it was
    markdown = tmp_path / "table.md"
    tournament = ["tournament", game, "greedy", "random", "-n", "1", "--opening", "4", "--markdown", str(markdown)]
    assert "games per seat and pair, 4 random opening moves" in title_words(tournament)
    assert markdown.read_text().startswith(f"{game}, 1 games per seat and pair, 4 random opening moves\n\n| policy |")
    assert "greedy on kalah:pits=3,seeds=2, 1 games, 4 random opening moves" in title_words(
        ["paper-table", game, "greedy", "-n", "1", "--opening", "4"])
