"""TorchRL's PettingZooWrapper(use_mask=True) on every game (examples/torchrl_check.py)."""

import pytest

from mancala_marl import ENV_MODULES

pytestmark = pytest.mark.integration("torchrl", make="test-marl")


@pytest.mark.parametrize("game", list(ENV_MODULES))
def test_check_env_specs_and_random_games(game):
    from torchrl.envs.utils import check_env_specs
    from torchrl_check import make_env, random_episodes

    env = make_env(game)
    check_env_specs(env)
    counts = random_episodes(env, episodes=3, seed=1)
    assert counts["episodes"] == 3 and counts["steps"] > 3 * 10


def test_extra_turn_keeps_the_same_agent_acting():
    import torch
    from torchrl_check import acting_agent, make_env

    env = make_env("kalah")
    td = env.reset()
    assert acting_agent(td) == "player_0"
    # Kalah(6, 4): pit 2 holds 4 seeds, the last lands in player_0's store: extra turn.
    td["player_0", "action"] = torch.tensor([2])
    td = env.step(td)["next"]
    assert acting_agent(td) == "player_0"
    assert td["player_0", "action_mask"].tolist() == [[True, True, False, True, True, True]]
    # Pit 0 (4 seeds) ends in pit 4: an ordinary move, so player_1 is next.
    td["player_0", "action"] = torch.tensor([0])
    td = env.step(td)["next"]
    assert acting_agent(td) == "player_1"
    assert td["player_1", "action_mask"].all()


def test_a_game_ends_with_the_winner_rewarded():
    import torch
    from torchrl_check import make_env

    env = make_env("kalah", pits=2, seeds=1)
    torch.manual_seed(0)
    rollout = env.rollout(max_steps=100)
    last = rollout[-1]["next"]
    assert bool(last["done"]) and bool(last["terminated"])
    rewards = [float(last[agent, "reward"].sum()) for agent in ("player_0", "player_1")]
    # TorchRL reports each agent's step reward; with reward="result" the final step carries +-1/0.
    assert sorted(rewards) in ([-1.0, 1.0], [0.0, 0.0])
