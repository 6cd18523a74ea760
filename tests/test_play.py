"""``mancala-marl play``: bad input is refused with a reason, the end of input ends the game cleanly."""

import io
import subprocess
import sys

import numpy as np
import pytest

from mancala_marl.games import make_game
from mancala_marl.matches.play import play, what_it_did


def run(lines, game="kalah:pits=3,seeds=2", seat=0, opponent="simple"):
    out = io.StringIO()
    code = play(game, opponent, seat, stdin=io.StringIO(lines), stdout=out)
    return code, out.getvalue()


def test_bad_input_is_refused_with_a_reason_then_end_of_input_stops():
    # At the start every pit of Kalah(3, 2) holds 2 seeds. Pit 2 sows one into the store and one
    # to player_1; simple answers with its pit 2 (store, then our pit 0), so our pit 2 stays empty.
    code, out = run("abc\n7\n-1\n\n2\n2\nq\n")
    assert "'abc' is not a pit number" in out
    assert "pit 7 is out of range: pits are 0..2" in out
    assert "pit -1 is out of range" in out
    assert "'' is not a pit number" in out
    # The second "2", after the extra turn, with the game's own reason: tuzduks are Togyz Kumalak's only.
    assert "player_0's pit 2 is empty, it cannot be played; legal pits are [0, 1]" in out and "tuzduk" not in out
    assert "you resigned" in out and code == 0  # a deliberate quit is not a failure


def test_end_of_input_abandons_the_game():
    code, out = run("x\n")
    assert "end of input: game abandoned" in out and code == 1


def test_ctrl_c_abandons_the_game_with_the_status_of_an_interrupt():
    class CtrlC(io.StringIO):
        def readline(self, *args):
            raise KeyboardInterrupt

    out = io.StringIO()
    code = play("kalah:pits=3,seeds=2", "simple", 0, stdin=CtrlC(), stdout=out)
    assert code == 130 and "interrupted: game abandoned" in out.getvalue()  # 130 as every other command


def test_an_opponent_trained_for_other_rules_is_refused_before_the_game_starts():
    out = io.StringIO()
    with pytest.raises(ValueError, match="alphazero_kalah.npz was trained for kalah .* but is used on kalah"):
        play("kalah:pits=4", "alphazero:sims=0", 0, stdin=io.StringIO("0\n"), stdout=out)
    assert out.getvalue() == ""  # refused before the board is shown and a move asked for


def test_a_whole_game_is_played_to_the_end():
    # The person always tries pits 0, 1, 2 in turn; illegal tries are re-asked, so the game ends.
    code, out = run("0\n1\n2\n" * 200, seat=1)
    assert code == 0
    assert "final score: you" in out
    assert "simple (player_0) sows pit" in out


def test_command_line_never_shows_a_traceback():
    for stdin in ("abc\n99\n", "", "0\n"):
        proc = subprocess.run([sys.executable, "-m", "mancala_marl.cli", "play", "kalah", "--opponent", "random"],
                              input=stdin, capture_output=True, text=True, timeout=120)
        assert "Traceback" not in proc.stderr + proc.stdout, proc.stderr
        assert proc.returncode == 1 and "end of input" in proc.stdout
    proc = subprocess.run([sys.executable, "-m", "mancala_marl.cli", "play", "kalah", "--opponent", "nope"],
                          input="", capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "unknown policy 'nope'" in proc.stderr and "Traceback" not in proc.stderr


def test_the_default_opponent_plays_rules_no_shipped_network_was_trained_on():
    # alphazero's networks are for the default rules: the game was refused ("was trained for kalah ...")
    out = io.StringIO()
    assert play("kalah:pits=3,seeds=2", None, 0, stdin=io.StringIO("q\n"), stdout=out) == 0
    assert "no shipped AlphaZero network plays kalah:pits=3,seeds=2: your opponent is " \
           "alphabeta:depth=64,time_limit=0.5" in out.getvalue()
    out = io.StringIO()
    play("kalah", None, 0, stdin=io.StringIO("q\n"), stdout=out)
    assert "against alphazero" in out.getvalue() and "no shipped" not in out.getvalue()


def test_each_move_says_what_it_did():
    # Every move was "sows pit N" alone: an extra turn, the other's pass and a tuzduk looked alike.
    kalah = make_game("kalah")
    before = kalah.init()
    after = kalah.apply(before.copy(), 2)  # 4 seeds from pit 2: the last one in the store
    assert what_it_did(kalah, before, 2, "your") == ": 1 into your store, an extra turn"
    assert what_it_did(kalah, after, 0) == ""  # nothing stored, the turn passes on
    # a Sungka pass and a tuzduk, found in random games
    sungka = make_game("sungka", houses=3, stones=2)
    other_houses = lambda state, p: state[4 * (1 - p):4 * (1 - p) + 3]  # noqa: E731  (3 houses and a store a side)
    before, mover = first_move_where(sungka, lambda b, a, p: sungka.to_move(a) == p and not other_houses(a, p).any())
    assert what_it_did(sungka, before, mover[1]).endswith(
        f"player_{1 - mover[0]} has no move and passes")
    togyz = make_game("togyz_kumalak")
    before, mover = first_move_where(togyz, lambda b, a, p: togyz.tuzduks(a) != togyz.tuzduks(b))
    after = togyz.apply(before.copy(), mover[1])
    hole = togyz.tuzduks(after)[mover[0]]
    assert f"a tuzduk on hole {hole} of player_{1 - mover[0]}" in what_it_did(togyz, before, mover[1])


def first_move_where(game, found, games=500):
    """The first position of random games (seed 0) and its (mover, pit) for which found(before, after, mover)."""
    rng = np.random.default_rng(0)
    for _ in range(games):
        state = game.init()
        while not game.is_terminal(state):
            before, mover = state.copy(), game.to_move(state)
            pit = int(rng.choice(np.flatnonzero(game.legal_mask(state))))
            game.apply(state, pit)
            if found(before, state, mover):
                return before, (mover, pit)
    pytest.fail(f"no such move in {games} random games of {game!r}")


def test_captures_and_the_final_sweep_are_named():
    # "N into its store" alone hid a capture and the end of the game.
    kalah = make_game("kalah")
    # player_1's pit 1 holds 1 seed: it lands in its empty pit 2, opposite player_0's pit 3 (3 seeds)
    before = kalah.from_board([8, 0, 4, 3, 3, 0, 6, 3, 1, 0, 10, 4, 0, 6], to_move=1)
    assert what_it_did(kalah, before, 1) == ": 4 into its store, capturing player_0's pit 3"
    oware = make_game("oware")
    # player_1's house 5 holds 1 seed: it makes player_0's house 0 hold 2, which is captured
    before = oware.from_board([1, 8, 2, 7, 0, 8, 0, 1, 6, 6, 2, 6, 1, 0], to_move=1)
    assert what_it_did(oware, before, 5) == ": 2 into its store, capturing player_0's house 0"
    togyz = make_game("togyz_kumalak")
    before = togyz.init()  # hole 4's 9 balls: the last lands in player_1's hole 3, making 10
    assert what_it_did(togyz, before, 4) == \
        ": 10 into its store, capturing player_1's hole 3"
    # the last seed empties player_0's side: the game ends and player_1's seeds are swept
    before = kalah.from_board([0, 0, 0, 0, 0, 1, 20, 1, 0, 0, 0, 0, 2, 24])
    said = what_it_did(kalah, before, 5, "your")
    assert said == ": 1 into your store, the game ends and the seeds left go to the store of their side"
    assert "captur" not in what_it_did(kalah, kalah.init(), 0)


def test_question_mark_prints_the_rules_and_the_numbering_then_asks_again():
    code, out = run("?\nq\n")
    assert make_game("kalah", pits=3, seeds=2).rules_text() in out  # Kalah's rules, in a player's words
    assert "A last seed in their own store gives the player another turn." in out
    assert "\nkalah:pits=3,seeds=2\n" in out and "numbered 0..2 left to right" in out
    assert out.count("your move, legal pits") == 2 and code == 0
    code, out = run("help\nq\n", seat=1)
    assert "on the bottom row, numbered 0..2 left to right" in out


@pytest.mark.parametrize("game", ["oware", "togyz_kumalak", "sungka"])
def test_the_rules_are_printed_in_the_games_own_words(game):
    code, out = run("?\nq\n", game=game, opponent="random")
    assert "``" not in out and ":data:`" not in out and "=" not in out.split("legal pits")[0], out
    assert make_game(game).rules_text() in out
    said = {"oware": "(a grand slam) may be played but captures nothing", "sungka": "is sunog",
            "togyz_kumalak": "an owned hole is a tuzduk"}
    assert said[game] in out


def test_playing_second_your_row_is_at_the_bottom_numbered_from_your_left():
    code, out = run("q\n", game="kalah:pits=3,seeds=2", seat=1, opponent="max")
    board = out[out.index("kalah: player_1 to move"):].splitlines()
    assert board[1].split() == ["2", "1", "0", "<-", "player_0's", "pits"]
    assert board[5].split()[:4] == ["0", "1", "2", "<-"]
    assert "player_1's pits" in board[5] and "stores (player_0 left, player_1 right)" in board[3]


def test_a_slow_first_move_of_the_opponent_is_announced_before_the_game(monkeypatch):
    # The default opponent's search compiled for ~20 s after the person's first move, in silence.
    import time

    import mancala_marl.matches.play as play_module
    from mancala_marl.agents import make_policy

    class Slow:
        name = "slow"

        def __init__(self):
            self.inner = make_policy("simple")

        def prepare(self, game):
            self.inner.prepare(game)

        def reset(self, seed=None):
            self.inner.reset(seed)

        def act(self, game, state):
            time.sleep(0.3)
            return self.inner.act(game, state)

    monkeypatch.setattr(play_module, "PREPARING_NOTICE_S", 0.05)
    out = io.StringIO()
    play("kalah:pits=3,seeds=2", Slow(), 0, stdin=io.StringIO("q\n"), stdout=out)
    text = out.getvalue()
    assert "preparing slow: compiling its search, on the first run only" in text
    assert text.index("ready") < text.index("your move")
    _, quick = run("q\n")
    assert "preparing" not in quick


def test_no_capture_is_named_that_did_not_happen():
    # Kalah's captures are known from the seeds: a store gains more than its sown seeds only by one.
    # In Sungka a relay empties houses too; a sunog takes one house, so at most one is named.
    kalah, sungka = make_game("kalah", pits=4, seeds=3), make_game("sungka", houses=4, stones=3)
    rng = np.random.default_rng(3)
    named = {"kalah": 0, "sungka": 0}
    for game in (kalah, sungka):
        for _ in range(300):
            state = game.init()
            while not game.is_terminal(state):
                before, mover = state.copy(), game.to_move(state)
                pit = int(rng.choice(np.flatnonzero(game.legal_mask(state))))
                said = what_it_did(game, before, pit)
                game.apply(state, pit)
                if "capturing" not in said:
                    continue
                named[game.name] += 1
                assert " and " not in said.split("capturing")[1].split(",")[0], said
                if game is kalah:
                    seeds, distance = int(before[mover * 5 + pit]), 4 - pit
                    sown_into_store = 0 if seeds < distance else 1 + (seeds - distance) // 9
                    assert game.scores(state)[mover] - game.scores(before)[mover] > sown_into_store, said
    assert min(named.values()) > 50


def test_every_capture_is_named_with_its_pit():
    """Told from the rules' own replay, no capture goes unnamed (told from the stores and boards
    around a move, about 6% did: a pit emptied before the move and refilled by its own lap)."""
    kalah = make_game("kalah")
    rng = np.random.default_rng(5)
    captures = 0
    for _ in range(150):
        state = kalah.init()
        while not kalah.is_terminal(state):
            before, mover = state.copy(), kalah.to_move(state)
            pit = int(rng.choice(np.flatnonzero(kalah.legal_mask(state))))
            kalah.apply(state, pit)
            seeds, distance = int(before[mover * 7 + pit]), 6 - pit
            sown_into_store = 0 if seeds < distance else 1 + (seeds - distance) // 13
            if kalah.is_terminal(state) or kalah.scores(state)[mover] - kalah.scores(before)[mover] <= sown_into_store:
                continue
            captures += 1
            said = what_it_did(kalah, before, pit)
            opposite = 5 - (pit + seeds) % 13 if (pit + seeds) % 13 < 6 else None
            assert f"capturing player_{1 - mover}'s pit {opposite}" in said, (before.tolist(), pit, said)
    assert captures > 300
