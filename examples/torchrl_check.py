"""Every game through TorchRL's ``PettingZooWrapper(use_mask=True)``, checked with ``check_env_specs``.

TorchRL wraps a PettingZoo AEC environment with one group per agent (``"player_0"``,
``"player_1"``); at each step ``(group, "mask")`` says which agent acts, and the action spec's
mask follows the env's ``action_mask``, so ``env.rand_step()`` and ``env.rollout()`` without a
policy play legal moves only. After an extra turn (Kalah, Sungka) the same group stays masked in.
The envs' infos keep the same numeric keys at every step, which TorchRL's info spec needs.

    python examples/torchrl_check.py            # all games
    python examples/torchrl_check.py --games kalah --episodes 20
"""

from __future__ import annotations

import argparse
import time

import torch
from torchrl.envs.libs.pettingzoo import PettingZooWrapper
from torchrl.envs.utils import check_env_specs

from mancala_marl import ENV_MODULES

AGENTS = ("player_0", "player_1")


def make_env(game: str, **env_kwargs) -> PettingZooWrapper:
    """``game``'s PettingZoo env (with the standard wrappers) as a TorchRL env."""
    if game not in ENV_MODULES:
        raise ValueError(f"unknown game {game!r}; known games: {', '.join(ENV_MODULES)}")
    return PettingZooWrapper(env=ENV_MODULES[game].env(**env_kwargs), use_mask=True)


def acting_agent(td) -> str:
    """The agent whose group mask is set in a (root or "next") tensordict."""
    acting = [agent for agent in AGENTS if bool(td[agent, "mask"].any())]
    assert len(acting) == 1, f"exactly one agent should act, got {acting}"
    return acting[0]


def random_episodes(env: PettingZooWrapper, episodes: int, seed: int = 0) -> dict:
    """Play ``episodes`` games to the end with random legal moves from TorchRL's masked action
    spec; returns counts of steps and of extra turns (same agent acting on consecutive steps)."""
    torch.manual_seed(seed)
    counts = {"episodes": 0, "steps": 0, "extra_turns": 0}
    for _ in range(episodes):
        td = env.reset()
        while True:
            agent = acting_agent(td)
            mask = td[agent, "action_mask"].reshape(-1)
            td = env.rand_step(td)
            action = int(td[agent, "action"].reshape(-1)[0])
            assert mask[action], f"{agent} played {action}, which its action mask forbids"
            counts["steps"] += 1
            if bool(td["next", "done"].any()):
                break
            td = td["next"]
            counts["extra_turns"] += acting_agent(td) == agent
        counts["episodes"] += 1
    return counts


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=list(ENV_MODULES), choices=list(ENV_MODULES))
    parser.add_argument("--episodes", type=int, default=10)
    args = parser.parse_args(argv)
    for game in args.games:
        start = time.perf_counter()
        env = make_env(game)
        check_env_specs(env)
        counts = random_episodes(env, args.episodes)
        print(f"{game}: check_env_specs passed; {counts['episodes']} random games, {counts['steps']} steps, "
              f"{counts['extra_turns']} extra turns ({time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    main()
