"""Counts are bounded where they enter: a slip of the keyboard is one line of error, and a match
holds only the games in flight, however many it plays."""

import re
import tracemalloc

import pytest

from mancala_marl.endgame import check_request
from mancala_marl.games import make_game
from mancala_marl.limits import LIMITS, check_count, check_workers, limit
from mancala_marl.train.alphazero.config import AlphaZeroConfig
from mancala_marl.train.distill import DistillConfig
from mancala_marl.train.training import TrainConfig
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
    with pytest.raises(ValueError, match="minutes must be a number >= 0.001 and <= 525600, got 'soon'"):
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


# A run's settings are declared once (train.training.SETTINGS and the like): the command line's
# option and the Python API refuse a value out of range alike, in one line naming it and its range.
@pytest.mark.parametrize("argv, message", [
    (["train", "kalah", "--eval-freq", "0"], "argument --eval-freq: must be an integer >= 1 and <= 100000000000, "
                                             "got '0'"),
    (["train", "kalah", "--snapshot-prob", "1.5"], "argument --snapshot-prob: must be a number >= 0 and <= 1, "
                                                   "got '1.5'"),
    (["train", "kalah", "--max-snapshots", "0"], "argument --max-snapshots: must be an integer >= 1 and <= 1000000"),
    (["train", "kalah", "--restart-prob", "nan"], "argument --restart-prob: must be a number >= 0 and <= 1, got 'nan'"),
    (["distill", "kalah", "--explore", "2"], "argument --explore: must be a number >= 0 and <= 1, got '2'"),
    (["distill", "kalah", "--learning-rate", "0"], "argument --learning-rate: must be a number >= 1e-08 and <= 1"),
    (["alphazero", "kalah", "--sims", "0"], "argument --sims: must be an integer >= 1 and <= 1000000, got '0'"),
    (["alphazero", "kalah", "--margin-weight", "2"], "argument --margin-weight: must be a number >= 0 and <= 1"),
    # the jax backend's own settings: argparse refuses them before jax is needed
    (["alphazero", "kalah", "--backend", "jax", "--reuse", "0"],
     "argument --reuse: must be a number >= 0.001 and <= 1000, got '0'"),
    (["alphazero", "kalah", "--backend", "jax", "--minutes", "-1"],
     "argument --minutes: must be a number >= 0.0 and <= 525600, got '-1'"),
    (["alphazero", "kalah", "--backend", "jax", "--replay-every", "soon"],
     "argument --replay-every: must be a number >= 0.0 and <= 525600, got 'soon'"),
    (["grade", "kalah", "greedy", "--bins", "0"], "argument --bins: must be an integer >= 1 and <= 20, got '0'"),
    (["grade", "kalah", "greedy", "--max-seeds", "x"], "argument --max-seeds: must be an integer >= 1 and <= 1000"),
    (["serve", "--idle", "0.5"], "argument --idle: must be a number >= 1 and <= 604800, got '0.5'"),
])
def test_a_run_setting_out_of_range_is_refused_on_the_command_line(argv, message, capsys):
    assert message in refused(argv, capsys)  # argparse's error: before any run folder or game


@pytest.mark.parametrize("make, message", [
    (lambda: TrainConfig(eval_freq=0), "eval_freq must be >= 1, got 0; it takes 1..100000000000"),
    (lambda: TrainConfig(n_envs=100_000), "n_envs must be <= 65536, got 100000; it takes 1..65536"),
    (lambda: TrainConfig(opening_prob=2), "opening_prob must be <= 1, got 2; it takes 0..1"),
    (lambda: TrainConfig(reward_scale=0), "reward_scale must be >= 1e-06, got 0; it takes 1e-06..1000000.0"),
    (lambda: TrainConfig(max_snapshots=0), "max_snapshots must be >= 1, got 0; it takes 1..1000000"),
    (lambda: TrainConfig(timesteps=1.5), "timesteps must be an integer >= 1 and <= 100000000000, got 1.5"),
    (lambda: TrainConfig(vec="threads"), "vec must be one of ['dummy', 'subproc', 'fast'], got 'threads'"),
    (lambda: DistillConfig(explore=1.5), "explore must be <= 1, got 1.5; it takes 0..1"),
    (lambda: DistillConfig(learning_rate=0), "learning_rate must be >= 1e-08, got 0; it takes 1e-08..1"),
    (lambda: DistillConfig(workers=0), "workers must be >= 1, got 0; it takes 1..256"),
    (lambda: AlphaZeroConfig(sims=0), "sims must be >= 1, got 0; it takes 1..1000000"),
    (lambda: AlphaZeroConfig(value_q=-0.5), "value_q must be >= 0, got -0.5; it takes 0..1"),
    (lambda: AlphaZeroConfig(eval_every=-1), "eval_every must be >= 0, got -1; it takes 0..100000000000"),
    (lambda: AlphaZeroConfig(weight_decay=-1e-4), "weight_decay must be >= 0, got -0.0001; it takes 0..1"),
    # the range the alphazero policy declares for its search, the one its training takes
    (lambda: AlphaZeroConfig(c_puct=0), "c_puct must be >= 0.001, got 0; it takes 0.001..1000"),
])
def test_a_run_setting_out_of_range_is_refused_by_its_config(make, message):
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        make().check()


def vector_env():
    from mancala_marl.train import vector_env  # needs SB3 (the [train] extra)

    return vector_env


def replay_buffer(n_steps):
    from gymnasium import spaces

    from mancala_marl.agents.masked_dqn import MaskedReplayBuffer

    return MaskedReplayBuffer(10, spaces.Box(0, 1, (3,)), spaces.Discrete(3), n_steps=n_steps)


def single_agent_env(**settings):
    from mancala_marl.single_agent import SingleAgentEnv

    return SingleAgentEnv("kalah", opponent="random", **settings)


def batch():
    from mancala_marl import batch

    return batch


def best_response(table_bits):
    from mancala_marl.agents.best_response import BestResponse

    return BestResponse(make_game("kalah"), "max", table_bits=table_bits)


# The library's own counts (an env's games, openings and restarts, a batch's rows, a search's table,
# a database's size) are checked by declarations too: one line naming the count, the value, the range.
@pytest.mark.parametrize("make, message", [
    (lambda: vector_env().MancalaVecEnv(0, "kalah"), "num_envs must be >= 1, got 0; it takes 1..65536"),
    (lambda: vector_env().MancalaVecEnv(100_000, "kalah"), "num_envs must be <= 65536, got 100000; it takes 1..65536"),
    (lambda: vector_env().MancalaVecEnv(2.0, "kalah"), "num_envs must be an integer >= 1 and <= 65536, got 2.0"),
    (lambda: vector_env().MancalaVecEnv(2, "kalah", opponent="max", restart_prob=1.5),
     "restart_prob must be <= 1, got 1.5; it takes 0..1"),
    (lambda: vector_env().RestartPool(0, 15), "restart_capacity must be >= 1, got 0; it takes 1..100000000"),
    (lambda: single_agent_env(opening=-1), "opening must be >= 0, got -1; it takes 0..1000"),
    (lambda: single_agent_env(opening=5000), "opening must be <= 1000 (no game is longer), got 5000; it takes 0..1000"),
    (lambda: single_agent_env(opening=2, opening_prob=True), "opening_prob must be a number >= 0 and <= 1, got True"),
    (lambda: single_agent_env(max_moves=0), "max_moves must be >= 1, got 0; it takes 1..2**31 - 1"),
    (lambda: batch().init_states(make_game("kalah"), -1), "n must be >= 0, got -1; it takes 0..100000000"),
    (lambda: best_response(table_bits=40), "table_bits must be <= 32, got 40; it takes 10..32"),
    (lambda: best_response(table_bits=24.5), "table_bits must be an integer >= 10 and <= 32, got 24.5"),
    (lambda: replay_buffer(n_steps=0), "n_steps must be >= 1, got 0; it takes 1..1000000000"),
    (lambda: check_request(make_game("kalah", pits=3, seeds=2), 128),  # database()'s check, before any build
     "max_seeds must be <= 127 (a value of -n..n fits a signed byte), got 128; it takes 0..127"),
])
def test_the_librarys_own_counts_are_refused_by_their_declarations(make, message):
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        make()


def test_the_library_refuses_a_setting_out_of_range_as_its_config_does():
    from mancala_marl.matches.grading import draw_positions, grade
    from mancala_marl.train.selfplay import OpponentPool
    from mancala_marl.train.training import check_hyperparams

    with pytest.raises(ValueError, match=r"^snapshot_prob must be <= 1, got 1.5; it takes 0..1$"):
        OpponentPool(snapshot_prob=1.5)
    with pytest.raises(ValueError, match=r"^bins must be >= 1, got 0; it takes 1..20$"):
        grade("kalah", ["greedy"], bins=0)
    with pytest.raises(ValueError, match=r"^max_seeds must be <= 1000, got 5000; it takes 1..1000$"):
        draw_positions("kalah", 5, max_seeds=5000)

    class Algorithm:  # takes the counts SB3's algorithms take
        def __init__(self, batch_size=64, gradient_steps=1):
            pass

    with pytest.raises(ValueError, match=r"^--hyper: gradient_steps must be >= -1, got -2; it takes -1..1000000000$"):
        check_hyperparams(Algorithm, {"gradient_steps": -2})
    check_hyperparams(Algorithm, {"gradient_steps": -1, "batch_size": 8})


def test_each_option_of_a_declared_setting_is_built_from_its_declaration():
    from mancala_marl.cli import build_parser
    from mancala_marl.train import distill, training

    parser = build_parser()
    commands = next(action for action in parser._actions if action.dest == "command").choices
    for command, settings, config in (("train", training.SETTINGS, TrainConfig()),
                                      ("distill", distill.SETTINGS, DistillConfig())):
        options = {action.dest: action for action in commands[command]._actions}
        for name, param in settings.items():
            assert getattr(config, name) == param.default  # the config's default is the declaration's
            option = options["states" if name == "states_per_round" else name]
            assert option.default is None  # --resume tells the settings typed from those left out
            if param.choices:
                assert tuple(option.choices) == param.choices
            else:
                assert option.type.__name__ == name and param.range_text in option.help, (name, option.help)


def test_a_setting_takes_its_counts_range_and_no_wider_one():
    assert limit("envs", "n_envs", default=8).bounds == LIMITS["envs"].bounds
    assert limit("every", "eval_freq", low=1).range_text == "1..100000000000"
    with pytest.raises(TypeError, match="eval_games: games takes an integer >= 1 and <= 1000000, not an integer "
                                        ">= 0 and <= 1000000"):
        limit("games", "eval_games", low=0)
