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
