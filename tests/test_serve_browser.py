"""The page of ``mancala-marl serve`` in a real headless Chromium (Selenium), as a person uses it:
a whole game of every registered game played by clicking pits, the board checked against the
API after every move (each cell's ``data-seeds``), the moves' named events, and the end.

Needs the ``[serve]`` extra and Chromium with its driver from the system's packages (Debian:
``apt-get install chromium chromium-driver``); ``make test-serve`` runs it, and ``make test``
runs that. Screenshots of games in progress go to docs/_build/screenshots/.
"""

from __future__ import annotations

import json
import pathlib
import shutil
import socket
import threading
import time
import urllib.request

import numpy as np
import pytest

pytest.importorskip("starlette", reason="needs the [serve] extra")

from mancala_marl.games import GAMES  # noqa: E402

pytestmark = pytest.mark.browser

SCREENSHOTS = pathlib.Path(__file__).resolve().parents[1] / "docs" / "_build" / "screenshots"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")
# What a whole game of each shows at least, whatever the moves (random ones here).
SEEN_IN_EVERY_GAME = {"kalah": {"game over"}, "sungka": {"relay", "game over"},
                      "togyz_kumalak": {"capture", "game over"}, "oware": {"capture", "game over"},
                      "family": {"game over"}}


@pytest.fixture(scope="module")
def server():
    import uvicorn

    from mancala_marl.serve.app import create_app
    from mancala_marl.serve.games import Table

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)  # TCP_NODELAY, as the command
    sock.bind(("127.0.0.1", 0))  # loopback only, any free port
    server = uvicorn.Server(uvicorn.Config(create_app(Table(move_time=0.1)), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    server.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser():
    if not BROWSER or not pathlib.Path(DRIVER).exists():
        pytest.fail("Chromium and its driver are needed: apt-get install -y chromium chromium-driver")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = BROWSER
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()


def settle(browser, timeout: float = 60.0) -> None:
    """Wait until the page has sown every move and answered (``body[data-busy="0"]``)."""
    deadline = time.monotonic() + timeout
    while browser.execute_script("return document.body.dataset.busy") != "0":
        assert time.monotonic() < deadline, "the page stayed busy: " + browser.find_element("id", "error").text
        time.sleep(0.02)


def api_state(server, browser) -> dict:
    game_id = browser.execute_script("return location.hash.slice(1)")
    with urllib.request.urlopen(f"{server}/api/games/{game_id}") as response:
        return json.load(response)


def board_on_page(browser) -> list[int]:
    return browser.execute_script(
        "return Array.from(document.querySelectorAll('g.cell')).sort((a, b) => a.dataset.cell - b.dataset.cell)"
        ".map(g => Number(g.dataset.seeds))")


@pytest.mark.parametrize("name", list(GAMES))
def test_a_whole_game_played_by_clicking(server, browser, name):
    browser.get(f"{server}/?game={name}&mode=people&speed=0")
    settle(browser)
    rng, moves = np.random.default_rng(1), 0
    while browser.execute_script("return document.body.dataset.done") != "1":
        record = api_state(server, browser)
        state = record["state"]
        assert board_on_page(browser) == state["board"]
        clickable = browser.find_elements("css selector", "g.cell.clickable[data-pit]")
        assert sorted(int(g.get_attribute("data-pit")) for g in clickable) == state["legal"]
        # the mover's other pits carry data-pit too, but cannot be clicked
        assert all(g.get_attribute("class").split().count("illegal")
                   for g in browser.find_elements("css selector", "g.cell[data-pit]:not(.clickable)"))
        clickable[int(rng.integers(len(clickable)))].click()
        settle(browser)
        moves += 1
        if moves == 12:
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            browser.save_screenshot(str(SCREENSHOTS / f"serve_{name}.png"))
        assert moves <= 1000
    record = api_state(server, browser)
    assert record["state"]["done"] and board_on_page(browser) == record["state"]["board"]
    named = [li.get_attribute("data-events") for li in browser.find_elements("css selector", "#moves li")]
    assert len(named) == len(record["moves"]) == moves
    assert "game over" in named[-1].split(",")
    seen = {word for events in named for word in events.split(",") if word}
    assert SEEN_IN_EVERY_GAME[name] <= seen, seen
    assert browser.find_element("id", "status").text.startswith("Game over")


def test_the_default_page_plays_kalah_against_alphazero_with_the_engines_view(server, browser):
    browser.get(f"{server}/?speed=40")
    settle(browser)
    record = api_state(server, browser)
    assert record["game"] == "kalah" and record["players"] == [None, "alphazero"]
    browser.find_element("id", "engine-toggle").click()
    settle(browser)
    deadline = time.monotonic() + 30
    while "best pit" not in browser.find_element("id", "analysis").text:
        assert time.monotonic() < deadline, browser.find_element("id", "analysis").text
        time.sleep(0.05)
    rows = browser.find_elements("css selector", "#analysis tr[data-pit]")
    assert sorted(int(r.get_attribute("data-pit")) for r in rows) == record["state"]["legal"]
    browser.find_element("css selector", "g.cell.clickable[data-pit='5']").click()  # 4 seeds: a capture-free move
    settle(browser)
    record = api_state(server, browser)
    assert record["moves"][0] == {"player": 0, "pit": 5} and len(record["moves"]) >= 2
    assert browser.find_elements("css selector", "#moves li")[1].text.startswith("player_1 (alphazero)")
    time.sleep(1)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SCREENSHOTS / "serve_default.png"))
    browser.find_element("id", "undo").click()
    settle(browser)
    assert api_state(server, browser)["moves"] == [] and board_on_page(browser) == record["state"]["board"][:0] + \
        api_state(server, browser)["state"]["board"]
    browser.find_element("id", "rules-button").click()
    assert browser.find_element("id", "rules-text").text == api_state(server, browser)["rules_doc"].strip()
    browser.find_element("css selector", "#rules-dialog button").click()


def test_the_rules_dialog_shows_the_game_on_the_board_in_its_own_words_from_the_top(server, browser):
    browser.set_window_size(420, 640)  # a phone: the rules run past the dialog's height
    try:
        browser.get(f"{server}/?game=dakon&mode=people&speed=0")
        settle(browser)
        browser.find_element("id", "rules-button").click()
        text = browser.find_element("id", "rules-text").text
        assert text == api_state(server, browser)["rules_doc"].strip() and text.startswith("Dakon, Southeast Asia")
        scrolled = browser.execute_script("const d = document.getElementById('rules-dialog');"
                                          "return [d.scrollTop, d.scrollHeight, d.clientHeight];")
        assert scrolled[1] > scrolled[2] and scrolled[0] == 0, scrolled  # it overflows, and opens at its top
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(SCREENSHOTS / "serve_rules_dialog.png"))
        browser.find_element("css selector", "#rules-dialog button").click()
    finally:
        browser.set_window_size(1280, 900)


@pytest.mark.parametrize("game", ["kalah", "anywoli"])  # 6 and 12 holes a side
def test_the_counts_stay_readable_on_a_phone_and_a_wide_board_scrolls(server, browser, game):
    browser.set_window_size(420, 800)
    try:
        browser.get(f"{server}/?game={game}&mode=people&speed=0")
        settle(browser)
        heights = browser.execute_script(
            "return Array.from(document.querySelectorAll('text.count')).map(t => t.getBoundingClientRect().height);")
        assert len(heights) > 2 and min(heights) >= 10, heights  # 14 px in the drawing, at 0.8 of its size or more
        wrap = browser.execute_script("const w = document.getElementById('board-wrap');"
                                      "return [w.scrollWidth, w.clientWidth, document.documentElement.scrollWidth,"
                                      " window.innerWidth];")
        assert wrap[0] > wrap[1] and wrap[2] <= wrap[3], wrap  # the board scrolls sideways, the page does not
    finally:
        browser.set_window_size(1280, 900)


def test_two_policies_are_watched_to_the_end(server, browser):
    browser.get(f"{server}/?game=kalah&mode=watch&speed=0&player0=max&player1=alphabeta:depth=2")
    deadline = time.monotonic() + 120
    while browser.execute_script("return document.body.dataset.done") != "1":
        assert time.monotonic() < deadline
        time.sleep(0.2)
    settle(browser)
    record = api_state(server, browser)
    assert record["players"] == ["max", "alphabeta:depth=2"] and record["state"]["done"]
    assert len(browser.find_elements("css selector", "#moves li")) == len(record["moves"])


def test_a_pit_whose_way_is_chosen_is_sown_clockwise_on_a_shift_click(server, browser):
    # Alemungula's rules: the left pits sow clockwise only (a click plays pit k's action k + 5), the
    # middle pit either way (a click counter-clockwise, a shift-click clockwise)
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    browser.get(f"{server}/?game=family&mode=people&speed=0")
    settle(browser)
    browser.execute_script("""
        const set = (name, value) => { document.querySelector(`[data-param="${name}"]`).value = value; };
        set("holes", 5); set("seeds", 5); set("direction", "outward"); set("choose_direction", "middle");
        document.getElementById("setup").requestSubmit();""")
    settle(browser)
    assert api_state(server, browser)["state"]["legal"] == [2, 3, 4, 5, 6, 7]
    clickable = browser.find_elements("css selector", "g.cell.clickable[data-pit]")
    assert sorted(int(g.get_attribute("data-pit")) for g in clickable) == [0, 1, 2, 3, 4]
    browser.find_element("css selector", 'g.cell.clickable[data-pit="0"]').click()
    settle(browser)
    assert api_state(server, browser)["moves"][-1] == {"player": 0, "pit": 5}
    assert "shift-click" in browser.find_element("id", "status").text
    middle = browser.find_element("css selector", 'g.cell.clickable[data-pit="2"]')
    ActionChains(browser).key_down(Keys.SHIFT).click(middle).key_up(Keys.SHIFT).perform()
    settle(browser)
    assert api_state(server, browser)["moves"][-1] == {"player": 1, "pit": 7}
    assert browser.find_elements("css selector", "#moves li")[-1].text.endswith("pit 2 clockwise")


def moves_to_a_round_with_closed_holes(name: str) -> list[int]:
    """Random moves of ``name`` (a match) up to the first move of a round with closed holes."""
    from mancala_marl.games import make_game

    game, rng = make_game(name), np.random.default_rng(0)
    state, moves = game.init(), []
    while not game.closed_cells(state):
        assert not game.is_terminal(state)
        moves.append(int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
        game.apply(state, moves[-1])
    return moves


def test_a_match_shows_its_round_and_the_closed_holes(server, browser):
    moves = moves_to_a_round_with_closed_holes("dakon")
    browser.get(f"{server}/?game=dakon&mode=people&speed=0")
    settle(browser)
    browser.execute_script("newGame({game: 'dakon', rules: {}, players: [null, null], moves: arguments[0]})", moves)
    settle(browser)
    state = api_state(server, browser)["state"]
    assert state["round"] >= 2 and state["marks"] and state["last_round"]["round"] == state["round"] - 1
    crossed = browser.execute_script(
        "return Array.from(document.querySelectorAll('g.cell[data-marked]')).map(g => [Number(g.dataset.side), "
        "Number(g.dataset.index)])")
    assert sorted(crossed) == sorted(state["marks"])  # each closed hole drawn crossed, and no other
    status = browser.find_element("id", "status").text
    assert status.startswith(f"Round {state['round']} (round {state['round'] - 1}: "), status
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SCREENSHOTS / "serve_match_closed_holes.png"))
