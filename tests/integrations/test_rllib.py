"""Ray RLlib self-play with masked PPO and one shared policy (examples/rllib_selfplay.py)."""

import pytest

pytestmark = pytest.mark.integration("ray.rllib", make="test-rllib")


def consecutive_turns(episode, agent) -> int:
    """How many times ``agent`` acted on two env steps in a row ('S' marks a step it skipped)."""
    steps = [t for t, agent_t in enumerate(episode.env_t_to_agent_t[agent].data) if agent_t != "S"]
    return sum(b == a + 1 for a, b in zip(steps, steps[1:]))


def test_extra_turns_reach_the_shared_policy():
    from ray.rllib.env.multi_agent_env_runner import MultiAgentEnvRunner
    from rllib_selfplay import SHARED, build_config, make_env

    env = make_env({"game": "kalah"})
    obs, _ = env.reset()
    assert list(obs) == ["player_0"]
    obs, rewards, terminated, _, _ = env.step({"player_0": 2})  # 4 seeds from pit 2 end in the store
    assert list(obs) == ["player_0"] and not terminated["__all__"]
    assert obs["player_0"]["action_mask"].tolist() == [1, 1, 0, 1, 1, 1]

    runner = MultiAgentEnvRunner(config=build_config("kalah", {}, num_env_runners=0, batch=200, seed=0))
    episodes = runner.sample(num_episodes=6)
    repeats = 0
    for episode in episodes:
        assert episode.is_terminated
        for agent in ("player_0", "player_1"):
            assert episode.module_for(agent) == SHARED
        # One agent acts per env step, so the agents' steps add up to the episode's.
        assert sum(len(e) for e in episode.agent_episodes.values()) == episode.env_t
        # reward="result" is zero-sum; an illegal (unmasked) move would end it at -1 / 0.
        assert sum(e.get_return() for e in episode.agent_episodes.values()) == 0
        repeats += consecutive_turns(episode, "player_0") + consecutive_turns(episode, "player_1")
    assert repeats > 0, "random Kalah games always contain extra turns"


def test_selfplay_trains_an_iteration_and_plays_the_baselines():
    import ray
    from rllib_selfplay import train

    try:
        summary = train("kalah", iterations=1, num_env_runners=1, batch=400, eval_games=4,
                        opponents=("random", "max"), verbose=False)
    finally:
        ray.shutdown()
    (row,) = summary["history"]
    assert row["env_steps"] >= 400 and row["episodes"] >= 1
    assert set(summary["vs_baselines"]) == {"random", "max"}
    for parts in summary["vs_baselines"].values():
        assert parts["overall"]["games"] == 8 and parts["first"]["games"] == parts["second"]["games"] == 4


def test_selfplay_runs_on_another_game():
    import ray
    from rllib_selfplay import train

    try:
        summary = train("sungka", iterations=1, env_kwargs={"houses": 4, "stones": 3}, num_env_runners=0,
                        batch=200, eval_games=2, opponents=("random",), verbose=False)
    finally:
        ray.shutdown()
    assert summary["history"][0]["env_steps"] >= 200


def test_bad_opponent_or_env_kwargs_stop_before_ray_starts(capsys, monkeypatch):
    import ray
    import rllib_selfplay

    def too_late(*args, **kwargs):
        raise AssertionError("Ray was started, or PPO built, for a run that could not succeed")

    monkeypatch.setattr(ray, "init", too_late)
    monkeypatch.setattr(rllib_selfplay, "build_config", too_late)
    for argv, named in ((["--opponents", "random", "alphabeta:dpth=4"], "'dpth'"),
                        (["--game", "sungka", "--env-kwargs", '{"pits": 4, "seeds": 3}'], "'pits'"),
                        (["--env-kwargs", '{"reward": "wins"}'], "'wins'")):
        with pytest.raises(SystemExit) as exit_:
            rllib_selfplay.main(argv)
        assert exit_.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and named in err, err
    # The Python API refuses them before Ray too, with the same messages as ValueError.
    with pytest.raises(ValueError, match="dpth"):
        rllib_selfplay.train("kalah", iterations=1, opponents=("alphabeta:dpth=4",), verbose=False)


def test_env_kwargs_help_names_each_games_parameters(capsys):
    from rllib_selfplay import main

    with pytest.raises(SystemExit):
        main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "kalah: pits, seeds" in text and "sungka: houses, stones" in text and "togyz_kumalak: holes, balls" in text
