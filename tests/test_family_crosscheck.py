"""benchmarks/family_crosscheck.py, our family against MancalaGames move for move, on a few games:
Kalah.txt agrees, and a game of ours that breaks a rule (another pit, no extra turn, no end, the
wrong winner) is caught, with the moves that reproduce it.

MancalaGames (GPL-3) is not part of the project: it is loaded at run time from
../shared/oracles/mancalagames beside the clone (CI has it there), and these tests are skipped
where that folder is missing. Its modules are dropped from sys.modules and sys.path afterwards."""

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from mancala_marl.errors import BadInput

ROOT = Path(__file__).resolve().parents[1]
ORACLE = next((folder for folder in (ROOT.parent / "shared" / "oracles" / "mancalagames",
                                     Path("/work/shared/oracles/mancalagames"))
               if (folder / "src" / "mancala.py").is_file()), None)

pytestmark = pytest.mark.skipif(ORACLE is None, reason="MancalaGames is not in ../shared/oracles/mancalagames "
                                                       "beside the clone (the cross-check loads it from there)")


@pytest.fixture
def crosscheck(monkeypatch):
    """The script's module; MancalaGames' modules and path gone again after the test."""
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    path, modules = list(sys.path), set(sys.modules)
    import family_crosscheck

    yield family_crosscheck
    sys.path[:] = path
    src = str(ORACLE / "src")
    for name in set(sys.modules) - modules:
        if (getattr(sys.modules[name], "__file__", None) or "").startswith(src):
            del sys.modules[name]


def run(crosscheck, tmp_path, *files, games=3):
    out = tmp_path / "crosscheck.json"
    assert crosscheck.main(["--oracle", str(ORACLE), "--games", str(games), "--json", str(out), *files]) == 0
    return json.loads(out.read_text())


def test_kalah_agrees_with_mancalagames_move_for_move(crosscheck, tmp_path):
    results = run(crosscheck, tmp_path, "Kalah.txt")
    row = results["files"]["Kalah.txt"]
    assert row["status"] == "matched", row["reason"]
    # three whole games of moves by both players (North's moves map to our pits H-1-p), none capped
    assert row["games"] == 3 and row["moves"] > 30 and row["capped_games"] == 0
    seen = row["seen"]  # what MancalaGames went through: extra turns, and three ends
    assert seen["extra_turns"] > 0 and seen.get("WIN", 0) + seen.get("TIE", 0) == 3
    assert row["oracle_moves_per_s"] > 0 and row["ours_moves_per_s"] > 0
    assert results["summary"]["matched"] == 1 and len(results["oracle"]["commit"]) == 40
    assert (tmp_path / "crosscheck.md").read_text().count("| Kalah.txt | matched | 3 |") == 1


def another_pit(game):
    right = game.apply

    def apply(state, pit):
        legal = np.flatnonzero(game.legal_mask(state)).tolist()
        return right(state, legal[(legal.index(pit) + 1) % len(legal)])

    game.apply = apply


def no_extra_turn(game):
    right, to_move = game.apply, game.board_size

    def apply(state, pit):
        mover = int(state[to_move])
        right(state, pit)
        if state[to_move] == mover:
            state[to_move] = 1 - mover

    game.apply = apply


def never_over(game):
    game.is_terminal = lambda state: False


def loser_wins(game):
    right = game.returns
    game.returns = lambda state: -right(state)


@pytest.mark.parametrize("sabotage, aspect", [(another_pit, "board"), (no_extra_turn, "mover"),
                                              (never_over, "end"), (loser_wins, "winner")])
def test_a_game_that_breaks_a_rule_is_reported_with_the_moves_that_reproduce_it(crosscheck, tmp_path, monkeypatch,
                                                                                sabotage, aspect):
    load = crosscheck.our_importer()

    def broken(path):
        game = load(path)
        sabotage(game)
        return game

    monkeypatch.setattr(crosscheck, "our_importer", lambda: broken)
    row = run(crosscheck, tmp_path, "Kalah.txt")["files"]["Kalah.txt"]
    assert row["status"] == "mismatch" and row["mismatched_games"] >= 1
    first = row["first_mismatch"]
    assert first["move"] == len(first["moves_played"]) > 0
    assert row["reason"].startswith(f"game {first['game']}, after move {first['move']}: {aspect}"), row["reason"]
    assert row["reason"].endswith(f"; our moves {first['moves_played']}")
    if sabotage is another_pit:  # six pits to choose from at the start, and ours played the next one
        assert (first["game"], first["move"]) == (0, 1)


def test_a_random_start_is_mancalagames_draw_and_a_broken_one_names_the_board(crosscheck, tmp_path, monkeypatch):
    # Random-Kalah draws its start: ours is set to MancalaGames' board, then every move compared
    row = run(crosscheck, tmp_path, "Random-Kalah.txt")["files"]["Random-Kalah.txt"]
    assert row["status"] == "matched" and row["games"] == 3 and row["moves"] > 30, row["reason"]
    load = crosscheck.our_importer()

    def own_draw(path):  # a crosscheck that kept our own draw would differ before the first move
        game = load(path)
        game.from_board = lambda board: game.init(np.random.default_rng(0))
        return game

    monkeypatch.setattr(crosscheck, "our_importer", lambda: own_draw)
    row = run(crosscheck, tmp_path, "Random-Kalah.txt")["files"]["Random-Kalah.txt"]
    assert row["status"] == "mismatch" and row["first_mismatch"]["move"] == 0
    assert " from the drawn start [" in row["reason"] and len(row["first_mismatch"]["start"]) == 14


def test_a_refused_file_says_why_and_still_times_mancalagames(crosscheck, tmp_path, monkeypatch):
    def refuse(path):
        raise BadInput(f"{Path(path).name}: sow_rule=3 is not played")

    monkeypatch.setattr(crosscheck, "our_importer", lambda: refuse)
    row = run(crosscheck, tmp_path, "Wari.txt", games=2)["files"]["Wari.txt"]
    assert row["status"] == "refused" and row["reason"] == "Wari.txt: sow_rule=3 is not played"
    assert row["games"] == 0 and row["oracle_moves"] > 0 and row["oracle_moves_per_s"] > 0


def test_every_game_file_agrees_or_is_refused_naming_an_option(crosscheck, tmp_path):
    """The whole catalogue, three random games a file: no accepted file plays differently from
    MancalaGames, no file breaks either engine, and a refusal names the option (or the game class)
    that the family does not play."""
    results = run(crosscheck, tmp_path)  # no FILE: every game file of the oracle's GameProps/
    rows = results["files"]
    assert len(rows) == len(list((ORACLE / "GameProps").glob("*.txt"))) - len(crosscheck.SKIPPED)
    broken = {name: row["reason"] for name, row in rows.items() if row["status"] in ("mismatch", "error")}
    assert not broken, broken
    matched = [name for name, row in rows.items() if row["status"] == "matched"]
    assert len(matched) >= 35, f"{len(matched)} files matched: {matched}"
    assert all(rows[name]["games"] == 3 for name in matched)
    vague = {name: row["reason"] for name, row in rows.items()
             if row["status"] == "refused" and not ("=" in row["reason"] or "game_class" in row["reason"])}
    assert not vague, vague


def test_each_catalogue_file_the_family_refuses_is_refused_in_a_players_words():
    from mancala_marl.games import load_mancalagames

    refused = {}
    for path in sorted((ORACLE / "GameProps").glob("*.txt")):
        if path.name.startswith("_"):  # _all_params.txt: every option at once, no game
            continue
        try:
            load_mancalagames(path)
        except BadInput as error:
            refused[path.name] = str(error)
    assert len(refused) >= 10  # (34 at this writing; the cross-check's JSON lists them)
    names = {"SowRule", "AllowRule", "CaptDir", "StartPattern", "BearOff", "ZigZag", "NorthSouthCycle"}
    for name, message in refused.items():
        said, _, option = message.partition(", which is not played here (")
        assert said.startswith(f"{name} asks for ") and option.endswith(")"), message
        what = said[len(f"{name} asks for "):]
        assert not any(ch in what for ch in "=_") and not names & set(what.split()), message
