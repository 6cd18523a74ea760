"""Masked DQN, the training command (tiny runs), resume, model metadata and learned policies."""

import argparse
import json

import numpy as np
import pytest
import torch as th

from mancala_marl.agents import make_policy, masked_dqn
from mancala_marl.agents.learned import ModelPolicy, load_model, make_metadata, read_metadata, save_model
from mancala_marl.agents.masked_dqn import MaskedDQN, masked_max
from mancala_marl.games import GAMES, make_game
from mancala_marl.single_agent import SingleAgentEnv
from mancala_marl.train.callbacks import kept_checkpoints
from mancala_marl.cli import train as train_command
from mancala_marl.cli import main as cli
from mancala_marl.matches.evaluation import play
from mancala_marl.train.training import TrainConfig, train

th.set_num_threads(1)  # tiny networks: extra threads only fight the other test worker for the CPU


class StrictEnv(SingleAgentEnv):
    """Fails the test on any illegal action instead of forfeiting."""

    def step(self, action):
        assert self.action_masks()[int(action)], f"illegal action {action} chosen"
        return super().step(action)


def test_masked_dqn_never_selects_an_illegal_action():
    env = StrictEnv("kalah", opponent="random", seat="random", reward="score_diff")
    model = MaskedDQN("MlpPolicy", env, learning_starts=50, buffer_size=500, batch_size=16, train_freq=4,
                      exploration_initial_eps=0.5, exploration_final_eps=0.5, seed=0)
    model.learn(400)  # warm-up, exploration and greedy moves all go through StrictEnv
    rng = np.random.default_rng(0)
    obs = rng.integers(0, 10, size=(200, env.observation_space.shape[0])).astype(np.float32)
    masks = rng.random((200, 6)) < 0.3
    masks[np.arange(200), rng.integers(0, 6, 200)] = True
    for deterministic in (True, False):
        model.exploration_rate = 1.0
        actions, _ = model.predict(obs, deterministic=deterministic, action_masks=masks)
        assert masks[np.arange(200), actions].all()


def test_masked_max_ignores_illegal_actions_and_terminal_rows():
    q = th.tensor([[1.0, 100.0, 2.0], [5.0, 6.0, 7.0]])
    masks = th.tensor([[True, False, True], [False, False, False]])
    assert masked_max(q, masks).tolist() == [2.0, 0.0]


# The next state's legal moves are pits 0 and 2: the plain target is the target network's best
# legal value (2, not the illegal pit's 100); Double DQN's is the target network's value (1) of
# the online network's best legal move (pit 0).
@pytest.mark.parametrize("double, expected", [(False, 3.0 + 0.5 * 2.0), (True, 3.0 + 0.5 * 1.0)])
def test_the_dqn_target_uses_only_the_next_states_legal_moves_plain_or_double(double, expected, monkeypatch,
                                                                              tmp_path):
    env = SingleAgentEnv("kalah", pits=3, seeds=1, opponent="random")
    model = MaskedDQN("MlpPolicy", env, learning_starts=0, batch_size=1, gamma=0.5, seed=0, double=double)
    model._setup_learn(10)
    # Online: illegal pit 1 highest, then pit 0; target: pit 2 is the best legal one.
    model.q_net.forward = lambda obs: th.tensor([[5.0, 50.0, 4.0]]).repeat(len(obs), 1).requires_grad_()
    model.q_net_target.forward = lambda obs: th.tensor([[1.0, 100.0, 2.0]]).repeat(len(obs), 1)
    obs = np.zeros((1, 8), dtype=np.float32)
    model.replay_buffer.add(obs, obs, np.array([0]), np.array([3.0]), np.array([False]),
                            [{"action_mask": np.array([1, 0, 1], dtype=np.int8)}])
    seen = {}
    monkeypatch.setattr(masked_dqn.F, "smooth_l1_loss",
                        lambda current, target: (seen.setdefault("target", target), (current - target).abs().sum())[1])
    model.train(gradient_steps=1, batch_size=1)
    assert seen["target"].item() == pytest.approx(expected)
    del model.q_net.forward, model.q_net_target.forward
    model.save(tmp_path / "m.zip")
    assert MaskedDQN.load(tmp_path / "m.zip").double is double


# Five moves of one env with rewards 1, 2, 4, 8, 16; the episode ends after the second. With
# gamma 0.5 and 3-step returns each sample sums rewards up to the episode's end or the newest
# move, and bootstraps from there with the next state's own mask.
def test_n_step_returns_stop_at_the_episodes_end_and_at_the_newest_move():
    env = SingleAgentEnv("kalah", pits=3, seeds=1, opponent="random")
    model = MaskedDQN("MlpPolicy", env, n_steps=3, gamma=0.5, buffer_size=10, seed=0)
    buffer = model.replay_buffer
    assert (buffer.n_steps, buffer.gamma) == (3, 0.5)
    for i, reward in enumerate([1.0, 2.0, 4.0, 8.0, 16.0]):
        obs = np.full((1, 8), i, dtype=np.float32)
        mask = np.array([i % 2, 1, 1], dtype=np.int8)
        buffer.add(obs, obs + 0.5, np.array([0]), np.array([reward]), np.array([i == 1]), [{"action_mask": mask}])
    data = buffer._get_samples(np.array([0, 1, 2, 3, 4]))
    assert data.rewards.flatten().tolist() == [1 + 0.5 * 2, 2, 4 + 0.5 * 8 + 0.25 * 16, 8 + 0.5 * 16, 16]
    assert data.dones.flatten().tolist() == [1, 1, 0, 0, 0]
    assert data.discounts.flatten().tolist() == [0.25, 0.5, 0.125, 0.25, 0.5]
    assert data.next_observations[:, 0].tolist() == [1.5, 1.5, 4.5, 4.5, 4.5]  # bootstrap states
    assert data.next_action_masks[:, 0].tolist() == [True, True, False, False, False]
    assert MaskedDQN("MlpPolicy", env, buffer_size=10).replay_buffer._get_samples(np.array([0])).discounts is None


# A buffer that has wrapped (full, newest at pos - 1) grows with its moves kept oldest first,
# each with its own next-state mask, and goes on filling after them.
def test_a_grown_replay_buffer_keeps_its_moves_oldest_first():
    env = SingleAgentEnv("kalah", pits=3, seeds=1, opponent="random")
    buffer = MaskedDQN("MlpPolicy", env, buffer_size=3, seed=0).replay_buffer
    for i in range(5):  # rows hold moves 3, 4, 2; pos 2
        obs = np.full((1, 8), i, dtype=np.float32)
        buffer.add(obs, obs + 0.5, np.array([i % 3]), np.array([float(i)]), np.array([i == 4]),
                   [{"action_mask": np.array([1, i % 2, 1], dtype=np.int8)}])
    assert buffer.full and buffer.pos == 2
    buffer.grow(6)
    assert (buffer.buffer_size, buffer.pos, buffer.full, buffer.size()) == (6, 3, False, 3)
    assert buffer.observations[:, 0, 0].tolist() == [2, 3, 4, 0, 0, 0]
    assert buffer.next_observations[:3, 0, 0].tolist() == [2.5, 3.5, 4.5]
    assert buffer.rewards[:, 0].tolist() == [2, 3, 4, 0, 0, 0] and buffer.dones[:3, 0].tolist() == [0, 0, 1]
    assert buffer.actions[:3, 0, 0].tolist() == [2, 0, 1]
    assert buffer.next_action_masks[:, 0, 1].tolist() == [False, True, False, True, True, True]
    buffer.grow(4)  # never shrinks
    assert buffer.buffer_size == 6
    buffer.add(np.full((1, 8), 9, dtype=np.float32), np.zeros((1, 8), dtype=np.float32), np.array([0]),
               np.array([9.0]), np.array([False]), [{}])
    assert buffer.observations[3, 0, 0] == 9 and buffer.pos == 4


# Prioritized replay: a move is drawn in proportion to its priority (new moves at the highest seen),
# weighted back by (N * P) ** -beta scaled to a largest weight of 1; TD errors set the priorities.
def test_prioritized_replay_draws_by_priority_and_weights_the_draws_back():
    env = SingleAgentEnv("kalah", pits=3, seeds=1, opponent="random")
    model = MaskedDQN("MlpPolicy", env, buffer_size=4, prioritized=1.0, seed=0)
    buffer = model.replay_buffer
    for i in range(3):
        obs = np.full((1, 8), i, dtype=np.float32)
        buffer.add(obs, obs, np.array([0]), np.array([float(i)]), np.array([False]), [{}])
    assert buffer.priorities[:, 0].tolist() == [1, 1, 1, 0]  # the newest at the highest priority
    buffer.update_priorities((np.array([0, 1, 2]), np.array([0, 0, 0])), np.array([0.0, -3.0, 1.0]))
    assert buffer.max_priority == pytest.approx(3.0) and buffer.priorities[0, 0] == pytest.approx(1e-6)
    np.random.seed(0)
    data = buffer.sample(4000)
    drawn = data.observations[:, 0].numpy()
    assert (drawn == 0).sum() == 0 and abs((drawn == 1).mean() - 0.75) < 0.03  # priorities 3 : 1
    assert data.indices[0].tolist() == drawn.astype(int).tolist()
    buffer.beta = 1.0  # full correction: weight = 1 / (N P), scaled so the largest is 1
    weights = buffer.sample(200).weights.numpy().ravel()
    assert np.allclose(sorted(set(np.round(weights, 4).tolist())), [1 / 3, 1.0], atol=1e-3)
    buffer.grow(6)
    assert buffer.priorities.shape == (6, 1) and buffer.priorities[1, 0] == pytest.approx(3.0)
    # training with it runs, and the priorities of what it replayed change
    model.learning_starts, before = 0, buffer.priorities.copy()
    model._setup_learn(10)
    model.train(gradient_steps=2, batch_size=8)
    assert not np.array_equal(buffer.priorities, before)


def tiny_config(algo, **overrides):
    hyper = {"n_steps": 64, "batch_size": 64} if algo == "maskable-ppo" else {"learning_starts": 100, "buffer_size": 2000}
    base = dict(game="kalah", rule_params={"pits": 4, "seeds": 3}, algo=algo, opponent="random", seat="random",
                timesteps=800, n_envs=2, eval_freq=400, eval_games=2, eval_opponents=["random", "max"],
                checkpoint_freq=500, hyperparams=hyper, progress_bar=False, verbose=0)
    return TrainConfig(**{**base, **overrides})


def test_the_progress_bar_ends_at_its_total_and_is_closed_however_training_stops(tmp_path, monkeypatch):
    from mancala_marl.train import callbacks

    bars = []
    monkeypatch.setattr(callbacks.Progress, "_on_training_start",
                        lambda self: (callbacks.ProgressBarCallback._on_training_start(self), bars.append(self.pbar)))
    # 3 envs step 3 moves at a time: 402 moves for the 400 asked (the bar showed 402/400)
    train(tiny_config("dqn", timesteps=400, n_envs=3, progress_bar=True), tmp_path / "done")
    assert bars[0].n == bars[0].total == 400 and bars[0].disable  # closed

    steps, on_step = [], callbacks.Progress._on_step

    def interrupted(self):  # Ctrl-C at the fifth vectorized step
        steps.append(1)
        if len(steps) == 5:
            raise KeyboardInterrupt
        return on_step(self)
    monkeypatch.setattr(callbacks.Progress, "_on_step", interrupted)
    with pytest.raises(KeyboardInterrupt):
        train(tiny_config("dqn", timesteps=400, n_envs=3, progress_bar=True), tmp_path / "stopped")
    assert bars[1].n == 12 and bars[1].disable  # SB3's own bar stayed drawn after an error
    assert (tmp_path / "stopped" / "checkpoints").is_dir()


@pytest.mark.parametrize("algo", ["maskable-ppo", "dqn"])
def test_tiny_run_trains_saves_reloads_and_plays(algo, tmp_path):
    final = train(tiny_config(algo, keep_checkpoints=algo == "maskable-ppo"), tmp_path)
    meta = read_metadata(final)
    assert meta["game"] == "kalah" and meta["rule_params"]["pits"] == 4 and meta["algo"] == algo
    assert meta["obs_type"] == "counts" and "stable_baselines3" in meta["library_versions"]
    assert meta["timesteps"] >= 800
    game = make_game("kalah", pits=4, seeds=3)
    result = play(game, make_policy(f"model:{final}"), make_policy("random"), seat=1, games=3)
    assert result["wins"] + result["draws"] + result["losses"] == 3
    rows = (tmp_path / "evaluations.csv").read_text().splitlines()
    assert rows[0].startswith("timesteps,opponent,seat") and len(rows) == 1 + 2 * 2 * 2  # 2 evals x 2 opps x 2 seats
    assert (tmp_path / "checkpoints" / "last.zip").is_file() and any((tmp_path / "tb").iterdir())
    kept = [steps for steps, _ in kept_checkpoints(tmp_path / "checkpoints")]
    if algo == "maskable-ppo":  # every 500 steps, and the last one at the end
        assert kept == [500, meta["timesteps"]] and read_metadata(tmp_path / "checkpoints" / "model_500_steps.zip")
    else:
        assert kept == []


@pytest.mark.parametrize("algo", ["maskable-ppo", "dqn"])
def test_resume_continues_the_step_counter(algo, tmp_path):
    train(tiny_config(algo, timesteps=600), tmp_path)
    with pytest.raises(ValueError, match="already holds a run"):
        train(tiny_config(algo, timesteps=600), tmp_path)
    if algo == "dqn":  # the replay buffer comes back with the checkpoint
        model, _ = load_model(tmp_path / "checkpoints" / "last.zip")
        model.load_replay_buffer(tmp_path / "checkpoints" / "last_replay_buffer.pkl")
        assert model.replay_buffer.size() * 2 >= 600 - 2
    final = train(TrainConfig(progress_bar=False), tmp_path, resume=True, timesteps=1200)  # the run's own config.json is used
    model, meta = load_model(final)
    assert json.loads((tmp_path / "config.json").read_text())["rule_params"] == {"pits": 4, "seeds": 3}
    assert 1200 <= model.num_timesteps < 1200 + 128 and meta["timesteps"] == model.num_timesteps
    steps = [int(line.split(",")[0]) for line in (tmp_path / "evaluations.csv").read_text().splitlines()[1:]]
    assert max(steps) >= 800 and steps == sorted(steps)  # evaluations continued past the first session
    # A finished run resumed as it is, or to a total it has passed, is refused with the run left
    # as it was (a traceback came, after config.json had been rewritten with the smaller total)
    saved = (tmp_path / "config.json").read_text()
    # (with no --timesteps, the message named a --timesteps that was never given)
    for total, said in ((None, r"its total \(no --timesteps given\) is 1200"), (700, "--timesteps is 700")):
        with pytest.raises(ValueError, match=rf"has trained {model.num_timesteps} moves already, and {said}: "
                                             rf"give a larger --timesteps"):
            train(TrainConfig(progress_bar=False), tmp_path, resume=True, timesteps=total)
    assert (tmp_path / "config.json").read_text() == saved
    # killed after its last checkpoint, before final.zip: the resume writes final.zip from it
    (tmp_path / "final.zip").unlink()
    assert train(TrainConfig(progress_bar=False), tmp_path, resume=True) == tmp_path / "final.zip"
    assert read_metadata(tmp_path / "final.zip")["timesteps"] == model.num_timesteps


# The recipe's 1M-move buffer on a 600-move run: the run gets what it can fill (a checkpoint
# pickles the whole buffer: about a GB before), and a longer --resume grows it, keeping its moves.
def test_the_replay_buffer_is_sized_to_the_run_and_grows_on_a_longer_resume(tmp_path):
    hyper = {"learning_starts": 100, "buffer_size": 1_000_000}
    train(tiny_config("dqn", timesteps=600, hyperparams=hyper), tmp_path)
    buffer_path = tmp_path / "checkpoints" / "last_replay_buffer.pkl"
    model, _ = load_model(tmp_path / "checkpoints" / "last.zip")
    model.load_replay_buffer(buffer_path)
    assert model.buffer_size == 602 and model.replay_buffer.buffer_size == 301  # 2 envs, one step spare
    assert not model.replay_buffer.full and model.replay_buffer.size() == 300
    assert buffer_path.stat().st_size < 200_000
    first_moves = model.replay_buffer.observations[:300].copy()
    train(TrainConfig(progress_bar=False), tmp_path, resume=True, timesteps=1000)
    model, _ = load_model(tmp_path / "checkpoints" / "last.zip")
    model.load_replay_buffer(buffer_path)
    assert model.buffer_size == 1002 and model.replay_buffer.size() == 500 and not model.replay_buffer.full
    assert np.array_equal(model.replay_buffer.observations[:300], first_moves)
    assert json.loads((tmp_path / "config.json").read_text())["hyperparams"]["buffer_size"] == 1_000_000


def test_without_the_replay_buffer_checkpoints_hold_the_model_only_and_a_resume_waits_to_refill_it(tmp_path):
    parser = argparse.ArgumentParser()
    train_command.add_parser(parser.add_subparsers())
    assert train_command.config_from(parser.parse_args(["train", "kalah"])).save_replay_buffer
    assert not train_command.config_from(parser.parse_args(["train", "kalah", "--no-replay-buffer"])).save_replay_buffer
    checkpoints = tmp_path / "checkpoints"
    train(tiny_config("dqn", timesteps=600), tmp_path)
    assert (checkpoints / "last_replay_buffer.pkl").is_file()
    # turned off on --resume: the run's config says so from then on, and the stale buffer goes
    assert cli(["train", "kalah", "--run-dir", str(tmp_path), "--resume", "--no-replay-buffer",
                "--timesteps", "1000", "--no-progress"]) == 0
    assert json.loads((tmp_path / "config.json").read_text())["save_replay_buffer"] is False
    assert sorted(path.name for path in checkpoints.iterdir()) == ["last.zip"]
    # resumed with no buffer: SB3 would learn at once from a handful of moves; it waits for learning_starts
    resumed_from = load_model(checkpoints / "last.zip")[0].num_timesteps
    final = train(TrainConfig(progress_bar=False), tmp_path, resume=True, timesteps=1400)
    model, _ = load_model(final)
    assert model.learning_starts == resumed_from + 100 and model.num_timesteps >= 1400


def test_a_model_for_another_game_or_layout_is_refused(tmp_path):
    final = train(tiny_config("dqn", timesteps=300), tmp_path)
    with pytest.raises(ValueError, match="trained for kalah .* used on sungka"):
        load_model(final, make_game("sungka"))
    with pytest.raises(ValueError, match="trained for kalah"):
        load_model(final, make_game("kalah"))  # default rules: 6 pits, not 4
    with pytest.raises(ValueError, match="obs_type 'counts'"):
        load_model(final, make_game("kalah", pits=4, seeds=3), obs_type="paper")
    game = make_game("sungka")
    with pytest.raises(ValueError, match="trained for kalah"):
        ModelPolicy(path=str(final)).act(game, game.init())
    # A model handed over in memory: refused without its metadata (it once failed at the first
    # move with a TypeError), played with it, and still refused on other rules.
    model, metadata = load_model(final)
    for missing in (None, {"game": "kalah"}):
        with pytest.raises(ValueError, match=r"^the model policy given model=\.\.\. needs metadata: a dict with"):
            ModelPolicy(model=model, metadata=missing)
    kalah = make_game("kalah", pits=4, seeds=3)
    # Metadata that does not describe the network is refused when saving, not when the model plays
    # (SB3's "unexpected observation shape"), and at loading and in memory too.
    for wrong, named in ((make_metadata(kalah, "moves", "dqn"), r"reads observations of shape \(10,\).*'moves'"),
                         (make_metadata(game, "counts", "dqn"), "chooses among 4 moves.*Sungka"),
                         (make_metadata(kalah, "counts", "maskable-ppo"), "is a MaskedDQN, but its metadata says algo")):
        with pytest.raises(ValueError, match=named):
            save_model(model, tmp_path / "mislabelled.zip", wrong)
        with pytest.raises(ValueError, match=named):
            ModelPolicy(model=model, metadata=wrong)
    assert not (tmp_path / "mislabelled.zip").exists()
    # SB3's own DQN knows no masks: the refusal names the class to train instead
    from stable_baselines3 import DQN

    plain = DQN("MlpPolicy", SingleAgentEnv(kalah), learning_starts=0)
    with pytest.raises(ValueError, match=r"is a DQN, but its metadata says algo 'dqn' \(MaskedDQN\): SB3's DQN cannot be "
                                         r"restricted to legal moves; train "
                                         r"mancala_marl\.agents\.masked_dqn\.MaskedDQN instead"):
        save_model(plain, tmp_path / "plain.zip", make_metadata(kalah, "counts", "dqn"))
    for algo, obs_type, named in (("ppo", "counts", "algo must be 'maskable-ppo' or 'dqn'"),
                                  ("dqn", "bogus", "obs_type")):
        with pytest.raises(ValueError, match=named):
            make_metadata(kalah, obs_type, algo)
    # As SB3's save and load: "noext" is written as noext.zip, and found again by its first name
    assert save_model(model, tmp_path / "noext", metadata) == tmp_path / "noext.zip"
    assert not (tmp_path / "noext").exists() and ModelPolicy(path=str(tmp_path / "noext")).act(kalah, kalah.init()) >= 0
    in_memory = ModelPolicy(model=model, metadata=metadata)
    assert kalah.legal_mask(kalah.init())[in_memory.act(kalah, kalah.init())]
    with pytest.raises(ValueError, match="trained for kalah"):
        in_memory.act(game, game.init())


def test_train_and_plot_commands(tmp_path, capsys):
    run_dir = tmp_path / "run"
    # the rules written as arena writes them
    assert cli(["train", "kalah:pits=4,seeds=3", "--algo", "maskable-ppo",
                "--opponent", "max,random", "--timesteps", "600", "--n-envs", "2", "--hyper", "n_steps=64",
                "--eval-freq", "300", "--eval-games", "1", "--run-dir", str(run_dir), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "[eval @" in out and f"play it: mancala-marl play kalah:pits=4,seeds=3 --opponent model:{run_dir}" in out
    assert json.loads((run_dir / "config.json").read_text())["rule_params"] == {"pits": 4, "seeds": 3}
    assert cli(["plot", str(run_dir)]) == 0
    png = run_dir / "learning_curves.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert cli(["plot", str(tmp_path)]) == 2
    assert "no evaluations.csv in" in capsys.readouterr().err


def test_selfplay_pool_samples_snapshots_and_baselines(tmp_path):
    from mancala_marl.train.selfplay import OpponentPool

    final = train(tiny_config("maskable-ppo", opponent="selfplay", timesteps=600, snapshot_freq=200,
                              pool_baselines=["max"]), tmp_path)
    snapshots = sorted((tmp_path / "snapshots").glob("snapshot_*.zip"))
    assert len(snapshots) >= 2 and final.is_file()
    pool = OpponentPool(["max"], tmp_path / "snapshots", snapshot_prob=0.5, max_snapshots=2, rescan_every=1)
    rng = np.random.default_rng(0)
    names = {pool.sample(rng).name for _ in range(40)}
    assert "max" in names and {f"snapshot:{p.stem}" for p in snapshots[-2:]} <= names
    assert not any(p.stem in n for p in snapshots[:-2] for n in names)


# the four games ship an agent each; the family is a space of rule sets, with none of its own
@pytest.mark.parametrize("game_name,kind", [(name, "scratch") for name in GAMES if name != "family"]
                         + [(name, "distilled") for name in ("kalah", "sungka", "togyz_kumalak")])
def test_shipped_pretrained_agents_play_and_beat_random(game_name, kind):
    game = make_game(game_name)
    result = play(game, make_policy(f"pretrained:kind={kind}"), make_policy("random"), seat=1, games=20)
    assert result["wins"] >= 17  # measured 98.5-99.8% as second player over 1000 games (benchmarks/results)


def test_pretrained_agent_refuses_other_rules():
    game = make_game("kalah", pits=4, seeds=3)
    with pytest.raises(ValueError, match="trained for kalah"):
        make_policy("pretrained").act(game, game.init())


def test_one_pretrained_policy_plays_every_game():
    # The same policy object loads each game's shipped model the first time it meets that game.
    policy = make_policy("pretrained")
    for name in ("kalah", "sungka", "kalah", "togyz_kumalak"):
        game = make_game(name)
        state = game.init()
        assert game.legal_mask(state)[policy.act(game, state)]
    assert policy.metadata["game"] == "togyz_kumalak"


@pytest.mark.parametrize("algo", ["maskable-ppo", "dqn"])
def test_fast_vec_env_trains_against_a_compiled_mix(algo, tmp_path):
    final = train(tiny_config(algo, vec="fast", opponent="random,max", n_envs=4), tmp_path)
    assert read_metadata(final)["timesteps"] >= 800
    game = make_game("kalah", pits=4, seeds=3)
    result = play(game, make_policy(f"model:{final}"), make_policy("random"), seat=0, games=3)
    assert result["wins"] + result["draws"] + result["losses"] == 3
    with pytest.raises(ValueError, match="compiled opponents"):
        tiny_config("maskable-ppo", vec="fast", opponent="alphabeta:depth=2").check()
    with pytest.raises(ValueError, match="vec must be one of"):
        tiny_config("maskable-ppo", vec="threads").check()


def test_score_margins_are_scaled_to_the_seeds_in_play_for_both_algorithms():
    from mancala_marl.train.training import _reward_scale

    for algo in ("maskable-ppo", "dqn"):
        assert _reward_scale(tiny_config(algo, reward="score_diff")) == pytest.approx(1 / 24)  # 4 pits x 3 x 2
        assert _reward_scale(tiny_config(algo, reward="result")) == 1.0
        assert _reward_scale(tiny_config(algo, reward="score_diff", reward_scale=0.5)) == 0.5


def test_the_scratch_recipe_is_dqn_scoring_afterstates_except_on_oware_and_options_override_it():
    from mancala_marl.train.training import RECIPE_ALGOS, RECIPES, TrainConfig, recipe

    dqn, ppo = RECIPE_ALGOS["scratch"]["dqn"], RECIPE_ALGOS["scratch"]["maskable-ppo"]
    assert RECIPES["scratch"]["algo"] == "dqn" and RECIPES["scratch"]["obs_type"] == "moves"
    assert recipe("scratch", "oware") == {**RECIPES["scratch"], **dqn}
    sungka = recipe("scratch", "sungka")
    assert (sungka["obs_type"], sungka["features"], sungka["timesteps"]) == ("afterstates", "afterstate", 2_500_000)
    # the game's own hyperparameters are merged into the algorithm's, not put in their place
    assert sungka["hyperparams"] == {**dqn["hyperparams"], "policy_kwargs": {"net_arch": [128, 128]}}
    assert dqn["hyperparams"]["policy_kwargs"] == {"net_arch": [256, 256]}  # the shared dict is untouched
    assert recipe("scratch", "sungka", "maskable-ppo") == {**RECIPES["scratch"], "obs_type": "turns",
                                                           "algo": "maskable-ppo", **ppo}
    TrainConfig(game="sungka", **sungka).check()
    for game, moves in (("kalah", 8_000_000), ("togyz_kumalak", 4_000_000)):
        own = recipe("scratch", game)
        assert (own["obs_type"], own["features"], own["timesteps"]) == ("afterstates", "afterstate", moves)
        assert own["hyperparams"] == sungka["hyperparams"]
        TrainConfig(game=game, **own).check()
        assert recipe("scratch", game, "maskable-ppo") == recipe("scratch", "oware", "maskable-ppo")
    TrainConfig(game="sungka", **recipe("scratch", "sungka", "maskable-ppo")).check()
    with pytest.raises(ValueError, match="unknown recipe 'fast'"):
        recipe("fast", "kalah")
    with pytest.raises(ValueError, match="no settings for algo 'a2c'"):
        recipe("scratch", "oware", "a2c")
    parser = argparse.ArgumentParser()
    train_command.add_parser(parser.add_subparsers())
    config = train_command.config_from(parser.parse_args(["train", "sungka", "--recipe", "scratch"]))
    assert config.obs_type == "afterstates" and config.features == "afterstate" and config.timesteps == 2_500_000
    assert config.algo == "dqn" and config.hyperparams["gradient_steps"] == 2
    config = train_command.config_from(parser.parse_args(["train", "sungka", "--recipe", "scratch",
                                                          "--algo", "maskable-ppo", "--hyper", "n_epochs=10"]))
    assert config.algo == "maskable-ppo" and config.hyperparams["n_epochs"] == 10 and config.obs_type == "turns"
    assert config.hyperparams["n_steps"] == 64 and "gradient_steps" not in config.hyperparams
    config = train_command.config_from(parser.parse_args(["train", "sungka", "--recipe", "scratch",
                                                          "--obs-type", "turns", "--features", "onehot"]))
    assert (config.obs_type, config.features) == ("turns", "onehot")
    with pytest.raises(ValueError, match="features 'afterstate' needs .* obs_type 'afterstates'"):
        train_command.config_from(parser.parse_args(["train", "sungka", "--recipe", "scratch",
                                                     "--obs-type", "moves"])).check()


@pytest.mark.parametrize("algo", ["maskable-ppo", "dqn"])
def test_a_shipped_copy_drops_the_optimiser_state_and_loads_without_warnings(algo, tmp_path):
    import warnings

    from mancala_marl.agents.learned import save_for_shipping

    final = train(tiny_config(algo, timesteps=300), tmp_path)
    shipped = tmp_path / "shipped.zip"
    save_for_shipping(final, shipped)
    assert shipped.stat().st_size < final.stat().st_size
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # e.g. SB3's "optimizer state truncated" on a mismatched optimiser
        model, meta = load_model(shipped)
    assert load_model(final)[0]._last_obs is not None and model._last_obs is None
    original, _ = load_model(final)
    obs = np.random.default_rng(0).random((5, *original.observation_space.shape)).astype(np.float32)
    masks = np.ones((5, original.action_space.n), dtype=bool)
    assert np.array_equal(model.predict(obs, action_masks=masks, deterministic=True)[0],
                          original.predict(obs, action_masks=masks, deterministic=True)[0])
    assert meta == read_metadata(final)


def test_a_run_shorter_than_one_rollout_says_how_many_moves_it_trains(tmp_path, capsys):
    # MaskablePPO collects n_steps x n_envs moves before each update: 64 asked, 128 trained, in silence
    assert cli(["train", "kalah:pits=3,seeds=2", "--timesteps", "64", "--n-envs", "2", "--hyper", "n_steps=64",
                "--hyper", "batch_size=64", "--eval-freq", "100000", "--run-dir", str(tmp_path), "--no-progress"]) == 0
    assert "note: MaskablePPO collects 128 moves between updates here, so this run trains 128 moves, not 64" \
        in capsys.readouterr().err
    assert read_metadata(tmp_path / "final.zip")["timesteps"] == 128


def test_a_recipe_run_shorter_than_the_recipe_still_evaluates_and_a_run_that_cannot_learn_says_so(tmp_path, capsys):
    from mancala_marl.cli import build_parser
    from mancala_marl.cli.train import settings_from

    def settings(*argv):
        return settings_from(build_parser().parse_args(["train", "kalah", "--recipe", "scratch", *argv]))
    assert settings()["eval_freq"] == 500_000  # the recipe's own length: its own period
    short = settings("--timesteps", "200000")  # it wrote no evaluation and no checkpoint before its end
    assert short["eval_freq"] == short["checkpoint_freq"] == 40_000
    # On --resume the run's own periods stay: they were computed from its first length, and a
    # longer one recomputed them (a run of 60k then 120k lost its evaluations at 84k and 108k)
    assert "eval_freq" not in settings("--timesteps", "400000", "--resume")
    assert settings("--timesteps", "400000", "--resume", "--eval-freq", "1000")["eval_freq"] == 1000  # as typed
    run = ["train", "kalah:pits=3,seeds=2", "--recipe", "scratch", "--run-dir", str(tmp_path / "r"), "--no-progress",
           "--no-replay-buffer", "--eval-games", "2"]
    assert cli([*run, "--timesteps", "2560"]) == 0 and cli([*run, "--timesteps", "5120", "--resume"]) == 0
    config = json.loads((tmp_path / "r" / "config.json").read_text())
    assert (config["timesteps"], config["eval_freq"], config["checkpoint_freq"]) == (5120, 512, 512)
    capsys.readouterr()
    assert settings("--timesteps", "200000", "--eval-freq", "300000")["eval_freq"] == 300_000  # as typed
    # DQN learns once learning_starts moves are in the buffer: a shorter run never updates the network
    assert cli(["train", "kalah:pits=3,seeds=2", "--algo", "dqn", "--timesteps", "80", "--n-envs", "2",
                "--hyper", "learning_starts=100", "--run-dir", str(tmp_path), "--no-progress"]) == 0
    assert "note: MaskedDQN starts learning after 100 moves (learning_starts), so this run of 80 never updates" \
        in capsys.readouterr().err


# The Python API's seeds are checked as the command line's are: a negative one failed in
# gymnasium's reset as the env's seed (-1000), after the run's folder was written.
@pytest.mark.parametrize("seed", [-1, 2**32, 1.5])
def test_a_seed_numpy_or_sb3_would_refuse_is_named_before_the_run_starts(seed, tmp_path):
    with pytest.raises(ValueError, match=r"seed must be an integer from 0 to 2\*\*32 - 1"):
        train(tiny_config("dqn", seed=seed), tmp_path / "run")
    assert not (tmp_path / "run").exists()


def test_torch_threads_default_to_the_free_cores_with_environments_in_the_process(monkeypatch):
    """The gradient steps and the environments of one process take turns: the steps get the cores
    that nothing else is busy on (up to 4); environments in worker processes keep the cores."""
    from mancala_marl.train import training

    monkeypatch.setattr(training.os, "sched_getaffinity", lambda pid: set(range(8)), raising=False)
    monkeypatch.setattr(training.os, "getloadavg", lambda: (0.3, 0.0, 0.0), raising=False)
    assert training.auto_torch_threads("fast") == 4 and training.auto_torch_threads("dummy") == 4
    assert training.auto_torch_threads("subproc") == 1
    monkeypatch.setattr(training.os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    assert training.auto_torch_threads("fast") == 2
    monkeypatch.setattr(training.os, "getloadavg", lambda: (1.6, 0.0, 0.0), raising=False)
    assert training.auto_torch_threads("fast") == 1  # another busy process on each core: one thread
    parser = argparse.ArgumentParser()
    train_command.add_parser(parser.add_subparsers(dest="command"))
    assert train_command.config_from(parser.parse_args(["train", "kalah"])).torch_threads is None
    assert train_command.config_from(parser.parse_args(["train", "kalah", "--torch-threads", "3"])).torch_threads == 3
    with pytest.raises(SystemExit):
        parser.parse_args(["train", "kalah", "--torch-threads", "0"])
