"""Tianshou: masked DQN for two agents through its PettingZoo wrapper (examples/tianshou_dqn.py)."""

import numpy as np
import pytest

pytestmark = pytest.mark.integration("tianshou", make="test-marl")


def fixed_policy(action_space, pick):
    """A Tianshou policy playing ``pick(legal pits)`` and nothing else, to see who acted."""
    from tianshou.algorithm.algorithm_base import Policy
    from tianshou.data import Batch

    class Fixed(Policy):
        def forward(self, batch, state=None, **kwargs):
            return Batch(act=np.array([pick(np.flatnonzero(mask)) for mask in batch.obs.mask]))

    return Fixed(action_space=action_space)


def test_extra_turns_reach_the_same_agents_policy():
    from tianshou.algorithm.multiagent.marl import MultiAgentPolicy
    from tianshou.data import Collector, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv
    from tianshou_dqn import make_env

    env = make_env("kalah")
    obs, _ = env.reset()
    assert obs["agent_id"] == "player_0"
    obs, *_ = env.step(2)  # 4 seeds from pit 2 end in player_0's store
    assert obs["agent_id"] == "player_0" and obs["mask"] == [True, True, False, True, True, True]

    lowest, highest = fixed_policy(env.action_space, min), fixed_policy(env.action_space, max)
    policy = MultiAgentPolicy({"player_0": lowest, "player_1": highest})
    buffer = VectorReplayBuffer(5000, 1)
    collector = Collector(policy, DummyVectorEnv([lambda: make_env("kalah", reward="result")]), buffer)
    collector.reset()
    stats = collector.collect(n_episode=2)
    assert stats.n_collected_episodes == 2
    data = buffer[np.arange(len(buffer))]
    agents = list(data.obs.agent_id)
    for agent, mask, action in zip(agents, data.obs.mask, data.act):
        expected = (min if agent == "player_0" else max)(np.flatnonzero(mask))
        assert action == expected, f"{agent}'s move came from the other agent's policy"
    repeats = sum(a == b and not done for a, b, done in zip(agents, agents[1:], data.done))
    assert repeats > 0, "these games contain extra turns; the same agent must act twice in a row"


def test_masked_dqn_trains_and_plays_the_baselines():
    from tianshou_dqn import train

    summary = train("kalah", epochs=1, steps_per_epoch=300, num_envs=2, eval_games=2,
                    opponents=("random",), verbose=False)
    assert summary["env_steps"] >= 300 and summary["gradient_steps"] > 0
    for seat_results in summary["vs_baselines"].values():
        assert seat_results["random"]["games"] == 2
        assert seat_results["random"]["wins"] + seat_results["random"]["draws"] + seat_results["random"]["losses"] == 2


def test_warm_up_plays_random_legal_moves_only(caplog):
    import torch
    from tianshou.data import Batch, Collector, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv
    from tianshou_dqn import make_algorithm, make_env, warm_up

    torch.manual_seed(0)
    np.random.seed(0)
    algorithm = make_algorithm(make_env("kalah"))
    buffer = VectorReplayBuffer(1000, 2)
    collector = Collector(algorithm, DummyVectorEnv([lambda: make_env("kalah") for _ in range(2)]), buffer,
                          exploration_noise=True)
    collector.reset()
    with caplog.at_level("WARNING", logger="pettingzoo"):
        stats = warm_up(collector, algorithm, n_step=256)
    # Unmasked sampling (collect(random=True)) forfeited dozens of these games by illegal moves.
    assert not [r for r in caplog.records if "Illegal move" in r.getMessage()]
    assert stats.n_collected_steps == 256 and stats.n_collected_episodes > 0
    data = buffer[buffer.sample_indices(0)]  # every stored step, from both envs' parts of the buffer
    assert len(data) == 256
    assert all(mask[act] for mask, act in zip(data.obs.mask, data.act)), "an illegal move reached the buffer"
    # Epsilon 1 must really reach the seats' DQNs: their greedy moves would be one pit per position.
    greedy = algorithm.policy(Batch(obs=data.obs, info=Batch())).act
    assert np.mean(greedy != data.act) > 0.3, "the warm-up played the untrained DQNs' greedy moves"
    for seat in algorithm.policy.policies.values():
        assert seat.eps_training == 0.1 and not seat.is_within_training_step


def test_bad_opponent_or_env_kwargs_stop_before_training(capsys, monkeypatch):
    import tianshou_dqn

    def no_training(*args, **kwargs):
        raise AssertionError("training started")

    monkeypatch.setattr(tianshou_dqn, "make_algorithm", no_training)
    for argv, named in ((["--opponents", "random", "alphabeta:dpth=4"], "'dpth'"),
                        (["--game", "sungka", "--env-kwargs", '{"pits": 4, "seeds": 3}'], "'pits'")):
        with pytest.raises(SystemExit) as exit_:
            tianshou_dqn.main(argv)
        assert exit_.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and named in err, err
