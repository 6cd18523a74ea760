"""``mancala-marl play``: bad input is refused with a reason, the end of input ends the game cleanly."""

import io
import subprocess
import sys

import numpy as np
import pytest

from mancala_marl.games import make_game
from mancala_marl.train.play import play, what_it_did


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
        proc = subprocess.run([sys.executable, "-m", "mancala_marl.train.cli", "play", "kalah", "--opponent", "random"],
                              input=stdin, capture_output=True, text=True, timeout=120)
        assert "Traceback" not in proc.stderr + proc.stdout, proc.stderr
        assert proc.returncode == 1 and "end of input" in proc.stdout
    proc = subprocess.run([sys.executable, "-m", "mancala_marl.train.cli", "play", "kalah", "--opponent", "nope"],
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
    assert what_it_did(kalah, before, after, 0, "your") == ": 1 into your store, an extra turn"
    assert what_it_did(kalah, after, kalah.apply(after.copy(), 0), 0) == ""  # nothing stored, the turn passes on
    # a Sungka pass and a tuzduk, found in random games
    sungka = make_game("sungka", houses=3, stones=2)
    other_houses = lambda state, p: state[4 * (1 - p):4 * (1 - p) + 3]  # noqa: E731  (3 houses and a store a side)
    before, mover = first_move_where(sungka, lambda b, a, p: sungka.to_move(a) == p and not other_houses(a, p).any())
    assert what_it_did(sungka, before, sungka.apply(before.copy(), mover[1]), mover[0]).endswith(
        f"player_{1 - mover[0]} has no move and passes")
    togyz = make_game("togyz_kumalak")
    before, mover = first_move_where(togyz, lambda b, a, p: togyz.tuzduks(a) != togyz.tuzduks(b))
    after = togyz.apply(before.copy(), mover[1])
    hole = togyz.tuzduks(after)[mover[0]]
    assert f"a tuzduk on hole {hole} of player_{1 - mover[0]}" in what_it_did(togyz, before, after, mover[0])


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
