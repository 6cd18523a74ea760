"""``mancala-marl play``: bad input is refused with a reason, the end of input ends the game cleanly."""

import io
import subprocess
import sys

import pytest

from mancala_marl.train.play import play


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
