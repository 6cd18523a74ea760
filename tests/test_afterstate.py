"""The afterstate Q-network: one evaluation shared by every pit, trained, saved and played."""

import numpy as np
import pytest
import torch as th

from mancala_marl import observations
from mancala_marl.agents import make_policy
from mancala_marl.agents.afterstate import AfterstatePolicy, afterstate_kwargs
from mancala_marl.agents.learned import load_model
from mancala_marl.agents.masked_dqn import MaskedDQN
from mancala_marl.games import make_game
from mancala_marl.single_agent import SingleAgentEnv
from mancala_marl.matches.evaluation import play
from mancala_marl.train.training import TrainConfig, train

th.set_num_threads(1)


def positions(game, n, seed=0):
    """``n`` positions of random play with the player to move, and their afterstates observations."""
    rng = np.random.default_rng(seed)
    states, obs = [], []
    while len(states) < n:
        state = game.init()
        for _ in range(int(rng.integers(0, 30))):
            if game.is_terminal(state):
                break
            game.apply(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
        if not game.is_terminal(state):
            states.append(state)
            obs.append(observations.encode(game, state, game.to_move(state), "afterstates"))
    return states, th.as_tensor(np.array(obs))


def q_network(game, seed=0):
    env = SingleAgentEnv(game, opponent="random", obs_type="afterstates")
    model = MaskedDQN("AfterstatePolicy", env, policy_kwargs={"net_arch": [32, 16], **afterstate_kwargs(game)},
                      learning_starts=10, buffer_size=500, seed=seed)
    return model.q_net


@pytest.mark.parametrize("name", ["kalah", "sungka", "togyz_kumalak"])
def test_a_moves_value_depends_on_its_own_afterstate_and_not_on_its_pit(name):
    game = make_game(name)
    net = q_network(game)
    _, obs = positions(game, 8)
    pits, per_pit = game.pits, observations.PER_PIT["afterstates"]
    counts = observations.observation_space(game, "counts").shape[0]
    moves = obs[:, counts:counts + pits * per_pit].reshape(-1, pits, per_pit)
    after = obs[:, counts + pits * per_pit:].reshape(-1, pits, counts)
    order = th.as_tensor(np.random.default_rng(1).permutation(pits))
    shuffled = th.cat([obs[:, :counts], moves[:, order].flatten(1), after[:, order].flatten(1)], dim=1)
    with th.no_grad():
        q, q_shuffled = net(obs), net(shuffled)
        # another pit's afterstate changed: this pit's value stays
        changed = obs.clone()
        changed[:, counts + pits * per_pit + counts:] += 1.0
        q_changed = net(changed)
    assert q.shape == (8, pits)
    assert th.allclose(q_shuffled, q[:, order], atol=1e-6)
    assert th.allclose(q_changed[:, 0], q[:, 0], atol=1e-6) and not th.allclose(q_changed[:, 1:], q[:, 1:])


def test_the_policy_refuses_another_observation_layout():
    game = make_game("kalah")
    env = SingleAgentEnv(game, opponent="random", obs_type="turns")
    with pytest.raises(ValueError, match="reads the 'afterstates' observation"):
        MaskedDQN("AfterstatePolicy", env, policy_kwargs=afterstate_kwargs(game))
    with pytest.raises(ValueError, match="needs policy_kwargs layout"):
        MaskedDQN(AfterstatePolicy, SingleAgentEnv(game, obs_type="afterstates"))


@pytest.mark.parametrize("change, message", [
    (dict(obs_type="turns"), "needs algo 'dqn' and obs_type 'afterstates'"),
    (dict(algo="maskable-ppo"), "needs algo 'dqn' and obs_type 'afterstates'"),
    (dict(features="pixels"), "features must be one of"),
])
def test_config_refuses_afterstate_features_without_their_observation(change, message):
    config = TrainConfig(**{**dict(algo="dqn", obs_type="afterstates", features="afterstate"), **change})
    with pytest.raises(ValueError, match=message):
        config.check()


def test_tiny_afterstate_run_trains_saves_reloads_and_plays(tmp_path):
    game = make_game("kalah", pits=4, seeds=3)
    config = TrainConfig(game="kalah", rule_params={"pits": 4, "seeds": 3}, algo="dqn", obs_type="afterstates",
                         features="afterstate", opponent="random,max", vec="fast", n_envs=4, timesteps=1200,
                         eval_freq=600, eval_games=2, eval_opponents=["random"], checkpoint_freq=600,
                         hyperparams={"learning_starts": 100, "buffer_size": 2000,
                                      "policy_kwargs": {"net_arch": [32, 16]}},
                         progress_bar=False, verbose=0)
    final = train(config, tmp_path)
    model, meta = load_model(final, game, "afterstates")
    assert isinstance(model.policy, AfterstatePolicy) and meta["obs_type"] == "afterstates"
    assert model.policy.q_net.net_arch == [32, 16]
    _, obs = positions(game, 4)
    again = MaskedDQN.load(tmp_path / "checkpoints" / "last.zip")
    with th.no_grad():
        assert th.allclose(model.q_net(obs), again.q_net(obs))
    # the policy plays the legal move of highest Q on the position's own afterstates observation
    states, obs = positions(game, 20, seed=3)
    policy = make_policy(f"model:{final}")
    with th.no_grad():
        q = model.q_net(obs).numpy()
    for state, values in zip(states, q):
        values[~game.legal_mask(state)] = -np.inf
        assert policy.act(game, state) == int(np.argmax(values))
    result = play(game, policy, make_policy("random"), seat=1, games=3)
    assert result["wins"] + result["draws"] + result["losses"] == 3
