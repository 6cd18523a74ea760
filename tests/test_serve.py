"""The JSON API of ``mancala-marl serve`` (docs/api.md), through Starlette's TestClient: every
field, every refusal (a 4xx with one line, the server serving on), and games played through it
move for move against the environments."""

from __future__ import annotations

import importlib
import json
import re
import shutil
import time

import numpy as np
import pytest

pytest.importorskip("starlette", reason="needs the [serve] extra")
import warnings  # noqa: E402

warnings.filterwarnings("ignore", "Using `httpx` with `starlette.testclient`")  # Starlette now prefers httpx2
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")  # Starlette: httpx -> httpx2

from starlette.testclient import TestClient  # noqa: E402

from mancala_marl.agents.alphazero import shipped_network  # noqa: E402
from mancala_marl.games import GAMES, NAMED, make_game  # noqa: E402
from mancala_marl.serve import app as serve_app  # noqa: E402
from mancala_marl.serve.games import Table  # noqa: E402
from mancala_marl.serve.policies import web_policy  # noqa: E402
from mancala_marl.matches.narration import events, trace_move  # noqa: E402

STATE_FIELDS = {"board", "to_move", "legal", "scores", "done", "winner", "marks", "moves", "round", "last_round"}


@pytest.fixture(scope="module")
def client():
    return TestClient(serve_app.create_app(Table(move_time=0.05, max_games=64)))


def new(client, **body):
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def check_state(state, game):
    assert set(state) == STATE_FIELDS
    assert len(state["board"]) == game.board_size and all(isinstance(n, int) for n in state["board"])
    assert state["scores"] == [state["board"][game.pits], state["board"][-1]]
    if state["done"]:
        assert state["to_move"] is None and state["legal"] == []
    else:
        assert state["to_move"] in (0, 1) and state["winner"] is None and state["legal"]


def test_the_catalog_lists_every_game_with_its_parameters_and_the_policies(client):
    body = client.get("/api/games").json()
    assert [g["name"] for g in body["games"]] == list(GAMES)
    for entry in body["games"]:
        cls = GAMES[entry["name"]]
        assert [p["name"] for p in entry["parameters"]] == [p.name for p in cls.parameters]
        assert [p["default"] for p in entry["parameters"]] == [p.default for p in cls.parameters]
        assert entry["rules_doc"] and entry["rules_doc"] == cls().rules_text()
        # a player's text for the page's dialog: no reStructuredText roles, code marks or parameters
        assert not re.search(r":[a-z]+:`|``|=", entry["rules_doc"]), entry["name"]
        assert entry["pit_word"] == cls.pit_word
    assert {"random", "alphabeta", "alphazero"} <= set(body["policies"]) and "solver" not in body["policies"]
    assert body["default_opponent"] == "alphazero" and body["engines"] == ["alphabeta", "alphazero"]
    assert body["limits"] == {"pits": [1, 16], "seeds": [1, 64], "move_time": 0.05}  # the page's bounds


def test_the_catalog_lists_the_family_and_the_traditional_games_by_name(client):
    body = client.get("/api/games").json()
    assert "family" in [g["name"] for g in body["games"]]
    named = {entry["name"]: entry for entry in body["named"]}
    assert list(named) == list(NAMED) and {"wari", "dakon", "tihbat", "oware"} <= set(named)
    for name, entry in named.items():
        preset = NAMED[name]
        assert (entry["title"], entry["game"], entry["region"], entry["source"], entry["about"]) == (
            preset.title, preset.game, preset.region, preset.source, preset.about)
        game = make_game(name)  # the preset rules: what differs from the registered game's defaults
        assert make_game(entry["game"], **entry["rules"]).params == game.params
        assert entry["rules_doc"].startswith(preset.title) and entry["rules_doc"].endswith("\n\n" + game.rules_text())
    assert named["wari"]["rules"] == {} and named["dakon"]["rules"]["holes"] == 7
    # no network is shipped for the family's rules: its games' opponent is alphabeta
    assert named["dakon"]["opponent"] == "alphabeta" and named["oware"]["opponent"] == "alphazero"
    assert {g["name"]: g["opponent"] for g in body["games"]}["family"] == "alphabeta"


def test_a_traditional_game_is_played_hot_seat_by_its_name(client):
    body = new(client, game="dakon", players=[None, None])
    game = make_game("dakon")
    state = game.init()
    assert body["game"] == "dakon" and body["rules"] == game.params
    assert body["state"]["board"] == state[: game.board_size].tolist() == [7] * 7 + [0] + [7] * 7 + [0]
    seen = []
    for pit in (2, 0):  # a relay through the own store (sow_store) and a cross capture; a relay to an extra turn
        reply = client.post(f"/api/games/{body['id']}/moves", json={"pit": pit}).json()
        game.apply(state, pit)
        assert reply["played"][0]["pit"] == pit and reply["state"]["board"] == state[: game.board_size].tolist()
        check_state(reply["state"], game)
        seen += reply["played"][0]["events"]
    assert reply["state"]["to_move"] == game.to_move(state) == 1 and {"relay", "capture", "extra turn"} <= set(seen)
    record = client.get(f"/api/games/{body['id']}").json()
    assert record["game"] == "dakon" and record["rules_doc"].startswith("Dakon")
    copy = new(client, game=record["game"], rules=record["rules"], players=record["players"], moves=record["moves"])
    assert copy["state"] == record["state"] and copy["game"] == "dakon"


def test_a_game_whose_moves_name_their_way_is_played_by_action(client):
    # Alemungula's rules: outward sowing, the middle hole's way chosen; action k + 5 sows pit k clockwise
    rules = {"holes": 5, "seeds": 5, "direction": "outward", "choose_direction": "middle"}
    body = new(client, game="family", rules=rules, players=[None, None])
    game = make_game("family", **rules)
    assert body["state"]["legal"] == [2, 3, 4, 5, 6, 7]
    refused = client.post(f"/api/games/{body['id']}/moves", json={"pit": 0})
    assert refused.status_code == 400 and "the rules sow it the other way here" in refused.json()["error"]
    reply = client.post(f"/api/games/{body['id']}/moves", json={"pit": 7}).json()  # pit 2 clockwise
    state = game.apply(game.init(), 7)
    assert reply["played"][0]["pit"] == 7 and reply["state"]["board"] == state[: game.board_size].tolist()
    assert reply["played"][0]["steps"][0] == [2, 0]  # the sowing starts by lifting pit 2
    check_state(reply["state"], game)


def test_a_traditional_game_takes_rules_that_change_its_preset(client):
    body = new(client, game="wari", rules={"seeds": 5}, players=[None, None])
    assert body["game"] == "wari" and body["state"]["board"] == [5] * 6 + [0] + [5] * 6 + [0]
    body = new(client, game="dakon", rules={"holes": 4, "must_pass": False}, players=[None, None])
    game = make_game("dakon", holes=4, must_pass=False)
    assert body["rules"] == game.params and body["state"]["board"] == game.init()[: game.board_size].tolist()
    assert game.params["sow_store"] and game.params["seeds"] == 7  # the rest of the preset stays
    # the server's bounds on pits and seeds hold under the family's names for them
    for rules, words in (({"holes": 17}, "holes must be in 2..16 here, got 17"),
                         ({"seeds": 65}, "seeds must be in 1..64 here, got 65")):
        response = client.post("/api/games", json={"game": "dakon", "rules": rules})
        assert response.status_code == 400 and response.json() == {"error": words}


def test_a_traditional_games_default_opponent_is_one_that_plays_its_rules(client):
    body = new(client, game="tihbat")  # no opponent named: the family's games have no network
    assert body["players"] == [None, "alphabeta"]
    reply = client.post(f"/api/games/{body['id']}/moves", json={"pit": body["state"]["legal"][0]}).json()
    assert reply["played"][0]["by"] == "person" and all(p["by"] == "alphabeta" for p in reply["played"][1:])


@pytest.mark.parametrize("name,holes", [("tihbat", 2), ("bakuk", 3), ("wari", 6), ("ot_tjin", 10), ("dabuda", 10)])
def test_every_board_size_is_drawn_with_every_cell(client, name, holes):
    svg = client.get(f"/api/boards/{name}.svg").text
    assert f'data-pits="{holes}"' in svg and svg.count('class="cell pit"') == 2 * holes
    assert all(f'data-cell="{cell}"' in svg for cell in range(2 * holes + 2))
    svg = client.get("/api/boards/family.svg?holes=16").text  # the server's widest board
    assert svg.count('class="cell pit"') == 32


def test_a_new_game_against_the_default_opponent_starts_with_you_to_move(client):
    body = new(client, game="kalah")
    game = make_game("kalah")
    assert body["state"] == {"board": game.init()[: game.board_size].tolist(), "to_move": 0, "legal": list(range(6)),
                             "scores": [0, 0], "done": False, "winner": None, "marks": [], "moves": 0,
                             "round": None, "last_round": None}
    assert body["played"] == [] and body["players"] == [None, "alphazero"] and body["game"] == "kalah"
    assert body["rules"] == game.params and body["moves"] == [] and isinstance(body["id"], str)


def test_a_move_returns_the_state_and_the_opponents_replies(client):
    body = new(client, game="kalah", opponent="alphabeta:depth=2")
    reply = client.post(f"/api/games/{body['id']}/moves", json={"pit": 0}).json()
    played = reply["played"]
    assert played[0]["player"] == 0 and played[0]["pit"] == 0 and played[0]["by"] == "person"
    assert all(p["player"] == 1 and p["by"] == "alphabeta:depth=2" for p in played[1:]) and len(played) >= 2
    game, state = make_game("kalah"), make_game("kalah").init()
    for p in played:
        before = state.copy()
        game.apply(state, p["pit"])
        assert p["board"] == state[: game.board_size].tolist()
        assert p["steps"] and p["steps"][0] == [p["player"] * 7 + p["pit"], 0]  # the pick-up comes first
        assert before[p["steps"][-1][0]] != state[p["steps"][-1][0]] or len(p["steps"]) > 1
    check_state(reply["state"], game)
    assert reply["state"]["board"] == state[: game.board_size].tolist() and reply["state"]["to_move"] == 0


def test_playing_second_the_opponent_opens(client):
    body = new(client, game="oware", opponent="max", seat=1)
    assert body["players"] == ["max", None] and body["played"] and body["state"]["to_move"] == 1


@pytest.mark.parametrize("name", list(GAMES))
def test_a_game_through_the_api_agrees_move_for_move_with_the_environment(client, name):
    env = importlib.import_module(f"mancala_marl.{name}_v0").env()
    env.reset()
    game = make_game(name)
    body = new(client, game=name, players=[None, None])
    state, rng = body["state"], np.random.default_rng(7)
    while True:
        agent = env.agent_selection
        obs, _, terminated, truncated, info = env.last()
        assert state["board"] == env.unwrapped.board.tolist()
        assert state["done"] == (terminated or truncated)
        if state["done"]:
            break
        assert state["to_move"] == int(agent[-1]) and state["legal"] == np.flatnonzero(obs["action_mask"]).tolist()
        assert state["scores"] == info["scores"].tolist()
        pit = int(rng.choice(state["legal"]))
        reply = client.post(f"/api/games/{body['id']}/moves", json={"pit": pit}).json()
        assert [p["pit"] for p in reply["played"]] == [pit]
        state = reply["state"]
        check_state(state, game)
        env.step(pit)
    winner = info["winner"]
    assert state["winner"] == (None if winner == -1 else winner) and state["scores"] == info["scores"].tolist()
    record = client.get(f"/api/games/{body['id']}").json()
    assert len(record["moves"]) == state["moves"] and record["state"] == state


# Each game's named events, seen in random games: the replay of every move ends on its board.
EXPECTED = {"kalah": {"capture", "extra turn", "sweep", "game over"},
            "sungka": {"relay", "sunog", "extra turn", "pass", "game over"},
            "togyz_kumalak": {"capture", "tuzduk", "sweep", "game over"},
            "oware": {"capture", "grand slam", "sweep", "game over"}}


@pytest.mark.parametrize("name", list(GAMES))
def test_every_move_is_replayed_seed_by_seed_and_its_events_named(name):
    seen = set()
    for rules in GAMES[name].examples:
        game, rng = make_game(name, **rules), np.random.default_rng(0)
        for _ in range(20):
            state = game.init()
            while not game.is_terminal(state):
                pit = int(rng.choice(np.flatnonzero(game.legal_mask(state))))
                before = state.copy()
                game.apply(state, pit)
                steps, calls = trace_move(game, before, pit, state)
                assert steps, f"{game!r}: no replay of pit {pit} in {before.tolist()}"
                board = before[: game.board_size].copy()
                for cell, count in steps:
                    board[cell] = count
                assert board.tolist() == state[: game.board_size].tolist()
                seen.update(events(game, before, state, pit, steps, calls))
    assert EXPECTED.get(name, {"game over"}) <= seen


def test_a_kalah_capture_and_an_extra_turn_are_named():
    game = make_game("kalah")
    state = game.init()
    after = game.apply(state.copy(), 2)  # 4 seeds from pit 2: the last into the store
    assert events(game, state, after, 2, *trace_move(game, state, 2, after)) == ["extra turn"]
    board = game.from_board([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0])
    after = game.apply(board.copy(), 0)  # the seed ends in the empty pit 1, facing player_1's 5
    assert events(game, board, after, 0, *trace_move(game, board, 0, after)) == ["capture", "game over"]


def test_undo_takes_back_the_persons_move_and_the_replies(client):
    body = new(client, game="kalah", opponent="max")
    client.post(f"/api/games/{body['id']}/moves", json={"pit": 0})
    reply = client.post(f"/api/games/{body['id']}/undo").json()
    assert reply["state"] == body["state"] and reply["moves"] == []


def test_a_record_exports_and_imports_as_the_same_game(client):
    body = new(client, game="sungka", players=[None, None])
    for _ in range(6):
        state = client.get(f"/api/games/{body['id']}").json()["state"]
        client.post(f"/api/games/{body['id']}/moves", json={"pit": state["legal"][-1]})
    record = client.get(f"/api/games/{body['id']}").json()
    copy = new(client, game=record["game"], rules=record["rules"], players=record["players"], moves=record["moves"])
    assert copy["state"] == record["state"] and copy["moves"] == record["moves"]


def test_two_policies_play_one_step_at_a_time(client):
    body = new(client, game="togyz_kumalak", players=["max", "random:seed=1"])
    for k in range(3):
        reply = client.post(f"/api/games/{body['id']}/step").json()
        assert len(reply["played"]) == 1 and reply["state"]["moves"] == k + 1


def test_the_engines_view_weighs_every_legal_move():
    client = TestClient(serve_app.create_app(Table(move_time=0.5)))
    body = new(client, game="kalah", players=[None, None])
    view = client.get(f"/api/games/{body['id']}/analysis?engine=alphabeta").json()
    assert [m["pit"] for m in view["moves"]] == body["state"]["legal"] and view["best"] in body["state"]["legal"]
    assert view["value"] == max(m["value"] for m in view["moves"]) and view["unit"] == "seeds"
    client.get(f"/api/games/{body['id']}/analysis?engine=alphazero")  # compiled once, outside the time cap
    view = client.get(f"/api/games/{body['id']}/analysis?engine=alphazero").json()
    assert view["unit"] == "visit share" and view["sims"] > 1 and -1 <= view["value"] <= 1
    assert abs(sum(m["share"] for m in view["moves"]) - 1) < 0.01 and view["best"] in body["state"]["legal"]


def test_the_engines_view_marks_perfect_play_where_the_databases_cover_the_position():
    pytest.importorskip("mancala_marl.agents.perfect", reason="no perfect-play policy installed")
    client = TestClient(serve_app.create_app(Table(move_time=0.5)))
    body = new(client, game="kalah", rules={"pits": 3, "seeds": 2}, players=[None, None])
    deadline = time.monotonic() + 120  # the database is built in the background on first use
    while (view := client.get(f"/api/games/{body['id']}/analysis?engine=alphabeta").json())["perfect"] is None:
        assert time.monotonic() < deadline
        time.sleep(0.5)
    perfect = view["perfect"]
    assert [m["pit"] for m in perfect["moves"]] == body["state"]["legal"]
    assert min(m["gives_away"] for m in perfect["moves"]) == 0
    assert all(m["value"] == perfect["best"] - m["gives_away"] for m in perfect["moves"])
    # alphabeta searches this small board to its end: its values are the exact ones
    assert [m["value"] for m in view["moves"]] == [m["value"] for m in perfect["moves"]]


def test_the_board_svg_carries_every_cell_and_its_seeds(client):
    body = new(client, game="togyz_kumalak", players=[None, None])
    svg = client.get(f"/api/games/{body['id']}/board.svg").text
    for cell, seeds in enumerate(body["state"]["board"]):
        assert f'data-cell="{cell}"' in svg and f'data-cell="{cell}" data-side' in svg
    assert svg.count('data-seeds="9"') == 18 and svg.startswith("<svg")


def test_the_page_and_its_assets_are_served_from_the_package(client):
    page = client.get("/")
    assert page.status_code == 200 and "/static/app.js" in page.text and "http" not in page.text.replace(
        "http-equiv", "")
    for asset in ("app.js", "style.css", "favicon.svg"):
        text = client.get(f"/static/{asset}").text
        assert "https://" not in text and "cdn" not in text.lower()
    assert '<link rel="icon" href="/static/favicon.svg"' in page.text
    assert client.get("/static/favicon.svg").headers["content-type"].startswith("image/svg+xml")


# -- refusals ------------------------------------------------------------------------------
BAD_NEW_GAMES = [
    ({"game": "chess"}, 400, "unknown game 'chess'"),
    ({"game": "warri"}, 400, "unknown game 'warri'; known games: kalah, sungka, togyz_kumalak, oware, family; "
                             "traditional games: "),
    ({"game": ["wari"]}, 400, "unknown game"),
    ({"game": "wari", "rules": {"colour": 1}}, 400, "no parameter 'colour'"),
    ({"game": "adji_kui_i", "rules": {"seeds": 1}}, 400, "min_seeds"),
    ({"game": "kalah", "rules": {"pits": 99}}, 400, "pits must be in 1..16"),
    ({"game": "kalah", "rules": {"pits": "six"}}, 400, "pits must be an integer"),
    ({"game": "kalah", "rules": {"seeds": 10**30}}, 400, "seeds"),
    ({"game": "kalah", "rules": {"colour": 1}}, 400, "no parameter 'colour'"),
    ({"game": "kalah", "rules": [1]}, 400, "rules must be an object"),
    ({"game": "kalah", "seat": 2}, 400, "seat must be 0 or 1"),
    ({"game": "kalah", "colour": 1}, 400, 'unknown field "colour"'),
    ({"game": "kalah", "players": [None]}, 400, "players must be a list of two"),
    ({"game": "kalah", "opponent": "wizard"}, 400, "policy 'wizard' cannot be played here"),
    ({"game": "kalah", "opponent": "solver"}, 400, "'solver' cannot be played here"),
    ({"game": "kalah", "opponent": "model:/etc/passwd"}, 400, "network files cannot be named from the web"),
    ({"game": "kalah", "opponent": "alphazero:path=/tmp/x.npz"}, 400, "network files cannot be named"),
    ({"game": "kalah", "opponent": "alphabeta:depth=999999"}, 400, "depth must be"),
    ({"game": "kalah", "opponent": "alphabeta:tt_bits=30"}, 400, "tt_bits must be <= 20"),
    ({"game": "kalah", "opponent": "alphazero:sims=1000000"}, 400, "sims must be <= 5000"),
    ({"game": "kalah", "opponent": "greedy:max_chain=1000"}, 400, "max_chain must be <= 12"),
    ({"game": "kalah", "opponent": 5}, 400, "a policy is a spec string"),
    ({"game": "kalah", "rules": {"pits": 4}, "opponent": "alphazero"}, 400, "trained for"),
    ({"game": "kalah", "moves": [0, 9]}, 400, "moves[1]"),
    ({"game": "kalah", "moves": "0,1"}, 400, "moves must be a list"),
]


@pytest.mark.parametrize("body,status,words", BAD_NEW_GAMES, ids=[str(b)[:50] for b, _, _ in BAD_NEW_GAMES])
def test_a_bad_new_game_is_refused_in_one_line(client, body, status, words):
    response = client.post("/api/games", json=body)
    assert response.status_code == status and words in response.json()["error"], response.text
    assert list(response.json()) == ["error"] and "\n" not in response.json()["error"]
    assert client.get("/api/games").status_code == 200  # and the server serves on


@pytest.mark.parametrize("pit,words", [(99, "out of range"), (-1, "out of range"), ("2", 'must be an integer pit 0..5, got "2"'),
                                       (True, "got true"), (1.5, "got 1.5"), (None, "got null")])
def test_a_bad_pit_is_refused_in_jsons_words(client, pit, words):
    body = new(client, game="kalah", players=[None, None])
    response = client.post(f"/api/games/{body['id']}/moves", json={"pit": pit})
    assert response.status_code == 400 and words in response.json()["error"], response.text


def test_a_move_with_an_unknown_field_is_refused_and_not_played(client):
    body = new(client, game="kalah", players=[None, None])
    response = client.post(f"/api/games/{body['id']}/moves", json={"pit": 0, "x": 1})
    assert response.status_code == 400 and 'unknown field "x"; this request takes pit' in response.json()["error"]
    assert client.get(f"/api/games/{body['id']}").json()["state"] == body["state"]


def test_an_empty_pit_is_refused_with_the_games_reason(client):
    body = new(client, game="kalah", players=[None, None], moves=[2])  # an extra turn: pit 2 is empty
    response = client.post(f"/api/games/{body['id']}/moves", json={"pit": 2})
    assert response.status_code == 400 and "pit 2 is empty" in response.json()["error"]


def test_moves_out_of_turn_or_on_a_finished_game_conflict(client):
    body = new(client, game="kalah", rules={"pits": 1, "seeds": 1}, players=[None, None])
    assert client.post(f"/api/games/{body['id']}/moves", json={"pit": 0}).json()["state"]["done"]
    response = client.post(f"/api/games/{body['id']}/moves", json={"pit": 0})
    assert response.status_code == 409 and "the game is over" in response.json()["error"]
    watched = new(client, game="kalah", players=["max", "max"])
    assert client.post(f"/api/games/{watched['id']}/moves", json={"pit": 0}).status_code == 409
    assert client.post(f"/api/games/{body['id']}/step").status_code == 409
    assert client.post(f"/api/games/{new(client, game='kalah')['id']}/undo").status_code == 409


@pytest.mark.parametrize("raw,status,words", [(b"{not json", 400, "not JSON"), (b"[1, 2]", 400, "JSON object"),
                                              (b'{"pat": 1}', 400, 'unknown field "pat"'), (b"{}", 400, "a move is"),
                                              (b"\xff\xfe", 400, "not JSON"),
                                              (b'{"pit": ' + b"1" * 70000 + b"}", 413, "at most")])
def test_a_malformed_body_is_refused(client, raw, status, words):
    body = new(client, game="kalah", players=[None, None])
    response = client.post(f"/api/games/{body['id']}/moves", content=raw, headers={"content-type": "application/json"})
    assert response.status_code == status and words in response.json()["error"]


def test_unknown_ids_and_paths_are_404_in_one_line(client):
    for method, path in (("post", "/api/games/nope/moves"), ("get", "/api/games/nope"),
                         ("post", "/api/games/nope/undo"), ("get", "/api/games/nope/analysis"),
                         ("get", "/api/nothing")):
        response = getattr(client, method)(path, **({"json": {"pit": 0}} if method == "post" else {}))
        assert response.status_code == 404 and list(response.json()) == ["error"]


def test_a_bad_engine_is_refused(client):
    body = new(client, game="kalah", players=[None, None])
    response = client.get(f"/api/games/{body['id']}/analysis?engine=stockfish")
    assert response.status_code == 400 and "engine must be one of" in response.json()["error"]


def test_live_games_are_bounded_and_idle_ones_expire():
    table = Table(max_games=2, idle_s=60)
    client = TestClient(serve_app.create_app(table))
    first = new(client, game="kalah", players=[None, None])
    new(client, game="kalah", players=[None, None])
    response = client.post("/api/games", json={"game": "kalah", "players": [None, None]})
    assert response.status_code == 503 and "2 games are live" in response.json()["error"]
    table.matches[first["id"]].touched -= 61  # an hour passes for one of them
    assert client.get(f"/api/games/{first['id']}").status_code == 404
    new(client, game="kalah", players=[None, None])


def test_every_search_gets_the_servers_time_cap():
    assert web_policy("alphabeta:depth=30,time_limit=100", 0.2).time_limit == 0.2
    assert web_policy("alphabeta", 0.2).time_limit == 0.2
    assert web_policy("alphazero:time=30", 0.2).time_limit == 0.2


def test_the_servers_caps_on_a_policys_parameters_name_the_range_taken_here():
    # the policy's own declaration, with the server's bound: the message says what is taken here
    with pytest.raises(ValueError, match=r"^tt_bits must be <= 20 \(this server's cap: .*\), got 30; it takes 0\.\.20$"):
        web_policy("alphabeta:tt_bits=30", 0.2)
    with pytest.raises(ValueError, match=r"^tt_bits must be an integer >= 0 and <= 20 or None, got 'x'$"):
        web_policy("alphabeta:tt_bits=x", 0.2)
    with pytest.raises(ValueError, match=r"^sims must be <= 5000 \(.*give time=SECONDS, up to 0.2\), got 5001; "
                                         r"it takes 0\.\.5000$"):
        web_policy("alphazero:sims=5001", 0.2)
    with pytest.raises(ValueError, match=r"^max_chain must be <= 12 \(this server's cap: .*\), got 13; it takes 0\.\.12$"):
        web_policy("greedy:max_chain=13", 0.2)
    assert web_policy("alphabeta:tt_bits=20", 0.2).label == "alphabeta:tt_bits=20"
    assert web_policy("greedy:max_chain=12", 0.2).label == "greedy:max_chain=12"
    assert web_policy("alphazero:sims=1000000,time=1", 0.2).label  # a time caps the search instead


def test_networks_are_named_only_inside_the_allowed_folder(tmp_path):
    shutil.copy(shipped_network(make_game("kalah")), tmp_path / "mine.npz")
    client = TestClient(serve_app.create_app(Table(move_time=0.05, networks=tmp_path)))
    assert new(client, game="kalah", opponent="alphazero:path=mine.npz")["players"][1] == "alphazero:path=mine.npz"
    for name in ("../mine.npz", str(tmp_path / "mine.npz"), ".hidden", "other.npz"):
        response = client.post("/api/games", json={"game": "kalah", "opponent": f"alphazero:path={name}"})
        assert response.status_code == 400, name
    assert "no network file 'other.npz'" in response.json()["error"]


def test_the_command_binds_loopback_and_warns_loudly_otherwise(monkeypatch, capsys):
    import uvicorn

    from mancala_marl import cli
    from mancala_marl.cli import serve as command

    served = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets: served.append(sockets[0].getsockname()))
    monkeypatch.setattr(serve_app, "warm_up", lambda: None)
    assert cli.main(["serve", "--port", "0"]) == 0
    out = capsys.readouterr()
    assert served[0][0] == "127.0.0.1" and f"http://127.0.0.1:{served[0][1]}/" in out.out and not out.err
    monkeypatch.setattr(command, "LOOPBACK", "127.0.0.2")  # any other address: here, one that stays local
    assert cli.main(["serve", "--host", "127.0.0.1", "--port", "0"]) == 0
    assert "WARNING: listening on 127.0.0.1" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stopped:
        cli.main(["serve", "--port", "70000"])
    assert stopped.value.code == 2
    assert "argument --port: must be an integer >= 0 and <= 65535, got '70000'" in capsys.readouterr().err
    assert cli.main(["serve", "--networks", "/no/such/folder"]) == 2


def test_a_missing_extra_is_one_line(monkeypatch, capsys):
    from mancala_marl import extras
    from mancala_marl import cli

    monkeypatch.setattr(extras, "missing", lambda extra: ["starlette"] if extra == "serve" else [])
    assert cli.main(["serve"]) == 2
    assert "pip install 'mancala-marl[serve]'" in capsys.readouterr().err


def test_a_network_file_holding_a_pickle_is_refused_unread(tmp_path):
    from mancala_marl.agents.alphazero import Network

    shipped = Network.load(shipped_network(make_game("kalah")))
    path = tmp_path / "pickled.npz"
    arrays = {name: value for name, value in np.load(shipped_network(make_game("kalah"))).items()}
    np.savez(path, **arrays, trap=np.array([Exploding()], dtype=object))  # an object array: a pickle
    with pytest.raises(ValueError, match="is not an alphazero network file"):
        Network.load(path)
    assert not Exploding.unpickled and shipped.meta["game"] == "kalah"
    assert json.dumps(web_policy("alphazero", 0.1).label) == '"alphazero"'


class Exploding:
    """An object whose unpickling is seen: a network file must never get that far."""

    unpickled = False

    def __reduce__(self):
        return (_explode, ())


def _explode():
    Exploding.unpickled = True
    return None


def test_one_games_search_holds_up_no_other_game():
    """A reply that searches for the whole move time (alpha-beta, 2 s) and an undo sent to that
    game while it searches: neither holds up a move of another game, which is answered within
    a fraction of a second. (With a search that kept the interpreter lock, the move waited 2 s.)"""
    import socket
    import threading

    import httpx
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))  # loopback only, any free port
    server = uvicorn.Server(uvicorn.Config(serve_app.create_app(Table(move_time=2.0)), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    api = f"http://127.0.0.1:{sock.getsockname()[1]}/api/games"
    try:
        with httpx.Client(timeout=30) as client:
            hot_seat = client.post(api, json={"game": "kalah", "players": [None, None]}).json()["id"]
            warm = client.post(api, json={"game": "kalah", "players": ["alphabeta:depth=2", None]})
            assert warm.status_code == 201  # the search compiled before the clock below starts
            searched = client.post(api, json={"game": "kalah", "players": [None, "alphabeta:depth=64"]}).json()["id"]
            searching, answers = {}, []

            def search():  # pit 0 ends in pit 4: no extra turn, the reply searches for the move time
                started = time.monotonic()
                searching["reply"] = client.post(f"{api}/{searched}/moves", json={"pit": 0})
                searching["seconds"] = time.monotonic() - started

            def undo_while_searching():  # waits for that game's search, and for nothing else
                time.sleep(0.3)
                with httpx.Client(timeout=30) as other:
                    answers.append(other.post(f"{api}/{searched}/undo").status_code)

            searcher = threading.Thread(target=search)
            undoer = threading.Thread(target=undo_while_searching)
            searcher.start()
            undoer.start()
            time.sleep(0.2)  # the search is under way
            waits = []
            with httpx.Client(timeout=30) as other:
                while searcher.is_alive() and len(waits) < 200:
                    state = other.get(f"{api}/{hot_seat}").json()["state"]
                    if state["done"]:
                        break
                    asked = time.monotonic()
                    assert other.post(f"{api}/{hot_seat}/moves", json={"pit": state["legal"][0]}).status_code == 200
                    waits.append(time.monotonic() - asked)
                    time.sleep(0.02)
            searcher.join()
            undoer.join()
    finally:
        server.should_exit = True
        thread.join(10)
    assert searching["reply"].status_code == 200 and searching["seconds"] > 1.5  # it searched the whole time
    assert len(waits) >= 5 and max(waits) < 0.5, waits
    assert answers == [200]


def test_two_games_against_one_policy_search_at_once():
    """The policy of one spec is shared between games, a copy a search: two games' replies, each
    a search of the whole move time, take that time side by side, not one after the other (one
    shared copy made each game wait for the other's searches)."""
    import threading

    table = Table(move_time=2.0)
    warm, _, _ = table.new("kalah", {}, [None, "alphabeta:depth=2"])
    table.move(warm, 0)  # the search compiled
    # no node budget: the clock alone ends each search (2**22 positions can take less than 2 s)
    games = [table.new("kalah", {}, [None, "alphabeta:depth=64,nodes=1000000000"])[0] for _ in range(2)]
    searches = {}

    def reply(game_id):  # pit 0 ends in pit 4: the policy replies, once or more (extra turns)
        searches[game_id] = sum(move["by"] != "person" for move in table.move(game_id, 0)[1])

    threads = [threading.Thread(target=reply, args=(game_id,)) for game_id in games]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seconds = time.monotonic() - started
    # one after the other, about the sum of their move times; side by side, the most of one game's
    assert 2.0 * max(searches.values()) * 0.9 < seconds < 2.0 * sum(searches.values()) * 0.8, (seconds, searches)
