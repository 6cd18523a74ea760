"""Masked DQN for two agents with Tianshou (2.x API) through its PettingZoo wrapper.

``tianshou.env.PettingZooEnv`` turns the AEC env into single-step observations
``{"agent_id", "obs", "mask"}`` for the agent to move; Tianshou's
``MultiAgentOffPolicyAlgorithm`` sends each transition to the DQN of ``obs.agent_id``, and each
DQN masks illegal moves out of its Q-values (``DiscreteQLearningPolicy`` reads ``obs.mask``).
After an extra turn the next observation carries the same ``agent_id``, so the same DQN acts
again. No adapter: the envs' infos keep the same numeric keys at every step, as Tianshou's
replay buffer needs.

Exploration: Tianshou 2.0's trainer marks only the multi-agent policy as being in a training step,
not the seats' DQNs, so each DQN would explore with its inference epsilon (0) and never with
``eps_training``; :class:`SeatPolicies` passes the mark on. The warm-up before training plays
uniformly random *legal* moves (epsilon 1); ``Collector.collect(random=True)`` samples the whole
action space, and every illegal pit it picked forfeited a game.

Rewards: Tianshou credits each transition with the reward of the agent that moved, taken at
that step. With ``reward="result"`` only the agent making the last move would ever see the
outcome, so this example uses ``reward="score_diff"`` (each move's own store gain minus the
opponent's), which every agent sees on its own moves.

    python examples/tianshou_dqn.py --game kalah --epochs 5
"""

from __future__ import annotations

import argparse
import contextlib
import json
import time

import numpy as np
import torch
from baselines import check_setup, env_kwargs_help, evaluate, exit_on_bad_setup
from tianshou.algorithm import DQN
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.multiagent.marl import MultiAgentOffPolicyAlgorithm, MultiAgentPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Batch, Collector, VectorReplayBuffer
from tianshou.env import DummyVectorEnv, PettingZooEnv
from tianshou.trainer import OffPolicyTrainerParams
from tianshou.utils.net.common import Net
from tianshou.utils.torch_utils import policy_within_training_step

from mancala_marl import ENV_MODULES, observations
from mancala_marl.agents import Policy


def make_env(game: str = "kalah", **env_kwargs) -> PettingZooEnv:
    if game not in ENV_MODULES:
        raise ValueError(f"unknown game {game!r}; known games: {', '.join(ENV_MODULES)}")
    env_kwargs.setdefault("reward", "score_diff")
    return PettingZooEnv(ENV_MODULES[game].env(**env_kwargs))


def make_dqn(env: PettingZooEnv, hidden=(128, 128), lr: float = 1e-3, eps: float = 0.1) -> DQN:
    obs_shape = env.observation_space["observation"].shape
    net = Net(state_shape=obs_shape, action_shape=env.action_space.n, hidden_sizes=list(hidden))
    policy = DiscreteQLearningPolicy(model=net, action_space=env.action_space, eps_training=eps,
                                     eps_inference=0.0)
    return DQN(policy=policy, optim=AdamOptimizerFactory(lr=lr), gamma=0.99, n_step_return_horizon=1,
               target_update_freq=200)


class SeatPolicies(MultiAgentPolicy):
    """Tianshou's multi-agent policy, with each seat's DQN told whether it collects for training.

    The trainer sets ``is_within_training_step`` on this policy only; each DQN reads its own flag to
    pick ``eps_training`` or ``eps_inference``, so without this it never explored in training."""

    def add_exploration_noise(self, act, batch):
        with contextlib.ExitStack() as stack:
            for policy in self.policies.values():
                stack.enter_context(policy_within_training_step(policy, self.is_within_training_step))
            return super().add_exploration_noise(act, batch)


def make_algorithm(env: PettingZooEnv, **dqn_kwargs) -> MultiAgentOffPolicyAlgorithm:
    """One masked DQN per seat, each exploring with its ``eps_training`` while the trainer collects."""
    algorithm = MultiAgentOffPolicyAlgorithm(algorithms=[make_dqn(env, **dqn_kwargs) for _ in env.agents], env=env)
    algorithm.policy = SeatPolicies(algorithm.policy.policies)
    return algorithm


def warm_up(collector: Collector, algorithm: MultiAgentOffPolicyAlgorithm, n_step: int):
    """Fill ``collector``'s buffer with ``n_step`` uniformly random legal moves (the DQNs at epsilon
    1, whose exploration is masked), for the first updates. ``collect(random=True)`` would sample
    the unmasked action space, and each illegal pit ends its game as a forfeit."""
    seats = list(algorithm.policy.policies.values())
    epsilons = [seat.eps_training for seat in seats]
    try:
        for seat in seats:
            seat.set_eps_training(1.0)
        with policy_within_training_step(algorithm.policy):
            return collector.collect(n_step=n_step)
    finally:
        for seat, eps in zip(seats, epsilons):
            seat.set_eps_training(eps)


class TianshouPolicy(Policy):
    """One trained Tianshou DQN policy as an arena :class:`mancala_marl.agents.Policy` (greedy, masked)."""

    name = "tianshou_dqn"

    def __init__(self, policy: DiscreteQLearningPolicy, obs_type: str = "counts"):
        super().__init__()
        self.policy = policy
        self.obs_type = obs_type

    def act(self, game, state):
        obs = observations.encode(game, state, game.to_move(state), self.obs_type)
        batch = Batch(obs=Batch(obs=obs[None], mask=game.legal_mask(state)[None]), info=Batch())
        self.policy.eval()
        with torch.no_grad():
            return int(self.policy(batch).act[0])


def train(game: str = "kalah", epochs: int = 5, steps_per_epoch: int = 2000, env_kwargs: dict | None = None,
          num_envs: int = 2, eval_games: int = 20, opponents=("random", "max"), seed: int = 0,
          verbose: bool = True) -> dict:
    """Train one masked DQN per seat; returns the training stats and, for each seat's DQN, its
    results in that seat against the baselines (``eval_games`` games per opponent)."""
    env_kwargs = dict(env_kwargs or {})
    rules = check_setup(game, env_kwargs, opponents)  # a bad opponent would only fail after training
    torch.manual_seed(seed)
    np.random.seed(seed)
    probe = make_env(game, **env_kwargs)
    algorithm = make_algorithm(probe)
    train_envs = DummyVectorEnv([lambda: make_env(game, **env_kwargs) for _ in range(num_envs)])
    test_envs = DummyVectorEnv([lambda: make_env(game, **env_kwargs) for _ in range(num_envs)])
    train_envs.seed(seed)
    test_envs.seed(seed + 1)
    train_collector = Collector(algorithm, train_envs, VectorReplayBuffer(20_000, num_envs), exploration_noise=True)
    test_collector = Collector(algorithm, test_envs, exploration_noise=False)
    train_collector.reset()
    warm_up(train_collector, algorithm, n_step=256)
    start = time.perf_counter()
    stats = algorithm.run_training(OffPolicyTrainerParams(
        training_collector=train_collector, test_collector=test_collector, max_epochs=epochs,
        epoch_num_steps=steps_per_epoch, collection_step_num_env_steps=64, test_step_num_episodes=num_envs,
        batch_size=64, update_step_num_gradient_steps_per_sample=0.25,
        multi_agent_return_reduction=lambda returns: returns[:, 0],  # player_0's return
        verbose=verbose, show_progress=verbose))
    obs_type = env_kwargs.get("obs_type", "counts")
    # Each DQN learned one seat, so each is scored in its own seat.
    scores = {}
    for agent, seat in zip(probe.agents, ("first", "second")):
        policy = TianshouPolicy(algorithm.get_algorithm(agent).policy, obs_type)
        results = evaluate(policy, rules, list(opponents), eval_games, seed)
        scores[agent] = {name: parts[seat] for name, parts in results.items()}
    summary = {"game": game, "epochs": epochs, "env_steps": int(stats.train_step), "episodes": int(stats.train_episode),
               "gradient_steps": int(stats.update_step),
               "seconds": round(time.perf_counter() - start, 1), "vs_baselines": scores}
    if verbose:
        print(json.dumps(summary))
    return summary


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="kalah", choices=list(ENV_MODULES))
    parser.add_argument("--env-kwargs", type=json.loads, default={},
                        help=env_kwargs_help('\'{"pits": 4, "seeds": 3}\' for kalah, '
                                             '\'{"houses": 4, "stones": 3}\' for sungka'))
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--steps-per-epoch", type=int, default=2000)
    parser.add_argument("--eval-games", type=int, default=20, help="evaluation games per seat and opponent")
    parser.add_argument("--opponents", nargs="+", default=["random", "max"],
                        help="mancala_marl.agents.make_policy specs, e.g. random greedy alphabeta:depth=4")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    exit_on_bad_setup(parser, args.game, args.env_kwargs, args.opponents)
    train(args.game, args.epochs, args.steps_per_epoch, args.env_kwargs, eval_games=args.eval_games,
          opponents=args.opponents, seed=args.seed)


if __name__ == "__main__":
    main()
