"""Self-play of masked PPO on any game with Ray RLlib (new API stack), locally or on a cluster.

Both seats map to one shared policy (module ``"shared"``), so every move of either player
trains the same network. The env is the game's PettingZoo AEC env through RLlib's
``PettingZooEnv``, which reports an observation only for the agent to move next: after an
extra turn that is the same agent again, and RLlib records two consecutive steps of that agent.
Masking follows the pattern of RLlib's action-masking RLModule example
(``ray.rllib.examples.rl_modules.classes.action_masking_rlm``): :class:`MaskedPPOModule` builds
PPO's default networks on the ``"observation"`` entry only and gives the illegal moves' logits
``FLOAT_MIN`` before the action distribution is built. Unlike that example, which expects the
keys ``"observations"`` and a float mask, it reads PettingZoo's classic convention
(``"observation"``, int8 ``"action_mask"``) as the envs give it, so no env adapter is needed.

After training, the learned policy plays the arena's baselines (``mancala_marl.agents.make_policy`` specs,
through ``mancala_marl.matches.arena``) in both seats, greedily (arg-max of the masked logits).

    python examples/rllib_selfplay.py --game kalah --iterations 20
    python examples/rllib_selfplay.py --address auto        # an already started Ray cluster

``ray.init(address=None)`` starts Ray on this machine, unless ``RAY_ADDRESS`` is set (as
``ray job submit`` does), in which case it joins that cluster: the same code runs both ways.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np
import ray
import torch
from baselines import check_setup, env_kwargs_help, evaluate, exit_on_bad_setup
from gymnasium import spaces
from ray import cloudpickle
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import (
    DefaultPPOTorchRLModule,
)
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.rllib.utils.torch_utils import FLOAT_MIN
from ray.tune.registry import register_env

from mancala_marl import ENV_MODULES, observations
from mancala_marl.agents import Policy

SHARED = "shared"


class MaskedPPOModule(DefaultPPOTorchRLModule):
    """PPO's default torch RLModule on ``obs["observation"]``, with ``obs["action_mask"]`` applied
    to the action logits in every forward pass (inference, exploration, training)."""

    def __init__(self, *, observation_space=None, **kwargs):
        if not isinstance(observation_space, spaces.Dict) or set(observation_space) != {"observation", "action_mask"}:
            raise ValueError("MaskedPPOModule needs a Dict observation space with keys 'observation' and "
                             f"'action_mask' (PettingZoo's classic convention), got {observation_space!r}")
        self._space_with_mask = observation_space
        super().__init__(observation_space=observation_space["observation"], **kwargs)

    def setup(self):
        super().setup()  # builds the networks for the observation without the mask
        self.observation_space = self._space_with_mask

    @staticmethod
    def _split(batch):
        obs = batch[Columns.OBS]
        return obs["action_mask"], {**batch, Columns.OBS: obs["observation"]}

    @staticmethod
    def _mask(outs, mask):
        logits = outs[Columns.ACTION_DIST_INPUTS]
        outs[Columns.ACTION_DIST_INPUTS] = logits.masked_fill(mask == 0, FLOAT_MIN)
        return outs

    def _forward(self, batch, **kwargs):
        mask, batch = self._split(batch)
        return self._mask(super()._forward(batch, **kwargs), mask)

    def _forward_train(self, batch, **kwargs):
        mask, batch = self._split(batch)
        return self._mask(super()._forward_train(batch, **kwargs), mask)

    def compute_values(self, batch, embeddings=None):
        if embeddings is None:
            _, batch = self._split(batch)
        return super().compute_values(batch, embeddings)


def make_env(config: dict) -> PettingZooEnv:
    """RLlib env creator: ``config`` = {"game": name, **env kwargs of that game's ``env()``}."""
    config = dict(config)
    game = config.pop("game", "kalah")
    if game not in ENV_MODULES:
        raise ValueError(f"unknown game {game!r}; known games: {', '.join(ENV_MODULES)}")
    return PettingZooEnv(ENV_MODULES[game].env(**config))


def map_to_shared(agent_id, episode=None, **kwargs) -> str:
    """Both seats play with, and train, the same policy."""
    return SHARED


def build_config(game: str, env_kwargs: dict, num_env_runners: int, batch: int, seed: int) -> PPOConfig:
    # The env creator and the masked module travel to the remote actors inside the pickled config,
    # so this file need not be importable there (only mancala_marl must be installed).
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    register_env("mancala_marl", make_env)
    return (
        PPOConfig()
        .environment("mancala_marl", env_config={"game": game, **env_kwargs})
        .multi_agent(policies={SHARED}, policy_mapping_fn=map_to_shared)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={
            SHARED: RLModuleSpec(module_class=MaskedPPOModule,
                                 model_config={"fcnet_hiddens": [128, 128], "vf_share_layers": False}),
        }))
        .env_runners(num_env_runners=num_env_runners, num_envs_per_env_runner=1)
        .training(train_batch_size_per_learner=batch, minibatch_size=min(128, batch), num_epochs=4,
                  lr=3e-4, entropy_coeff=0.01)
        .debugging(seed=seed)
    )


class RLModulePolicy(Policy):
    """An RLlib RLModule as an arena :class:`mancala_marl.agents.Policy`: greedy over the masked logits."""

    name = "rllib"

    def __init__(self, module, obs_type: str = "counts"):
        super().__init__()
        self.module = module
        self.obs_type = obs_type

    def act(self, game, state):
        player = game.to_move(state)
        obs = observations.encode(game, state, player, self.obs_type)
        mask = game.legal_mask(state).astype(np.float32)
        with torch.no_grad():
            out = self.module.forward_inference({"obs": {
                "observation": torch.from_numpy(obs)[None], "action_mask": torch.from_numpy(mask)[None]}})
        logits = out["action_dist_inputs"][0].numpy()
        return int(np.argmax(np.where(mask > 0, logits, -np.inf)))


def train(game: str = "kalah", iterations: int = 10, env_kwargs: dict | None = None, num_env_runners: int = 1,
          batch: int = 2000, eval_games: int = 20, opponents=("random", "greedy"), address: str | None = None,
          seed: int = 0, verbose: bool = True) -> dict:
    """Train for ``iterations`` PPO iterations and evaluate; returns a summary dict.

    ``address=None`` runs on this machine unless ``RAY_ADDRESS`` is set; ``"auto"`` or
    ``"HOST:6379"`` joins a running cluster.
    """
    env_kwargs = dict(env_kwargs or {})
    # Before Ray starts: a bad env keyword would fail in every env runner, a bad opponent after training.
    rules = check_setup(game, env_kwargs, opponents)
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=verbose)
    algo = build_config(game, env_kwargs, num_env_runners, batch, seed).build_algo()
    history = []
    start = time.perf_counter()
    try:
        for iteration in range(1, iterations + 1):
            result = algo.train()
            runners = result.get("env_runners", {})
            row = {
                "iteration": iteration,
                "env_steps": int(result.get("num_env_steps_sampled_lifetime", runners.get("num_env_steps_sampled_lifetime", 0))),
                "episodes": int(runners.get("num_episodes_lifetime", 0)),
                "episode_len_mean": float(runners.get("episode_len_mean", float("nan"))),
                "seconds": round(time.perf_counter() - start, 1),
            }
            history.append(row)
            if verbose:
                print(json.dumps(row), flush=True)
        module = algo.get_module(SHARED)
        obs_type = env_kwargs.get("obs_type", "counts")
        results = evaluate(RLModulePolicy(module, obs_type), rules, list(opponents), eval_games, seed)
    finally:
        algo.stop()
    summary = {"game": game, "iterations": iterations, "history": history,
               "vs_baselines": results, "cluster_resources": ray.cluster_resources()}
    if verbose:
        for name, parts in results.items():
            print(f"vs {name}: {json.dumps(parts['overall'])}", flush=True)
    return summary


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="kalah", choices=list(ENV_MODULES))
    parser.add_argument("--env-kwargs", type=json.loads, default={},
                        help=env_kwargs_help('\'{"pits": 4, "seeds": 3}\' for kalah, '
                                             '\'{"houses": 4, "stones": 3}\' for sungka'))
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--num-env-runners", type=int, default=1, help="sampling actors (spread over the cluster)")
    parser.add_argument("--batch", type=int, default=2000, help="env steps per training iteration")
    parser.add_argument("--eval-games", type=int, default=20, help="evaluation games per seat and opponent")
    parser.add_argument("--opponents", nargs="+", default=["random", "greedy"],
                        help="mancala_marl.agents.make_policy specs, e.g. random greedy alphabeta:depth=4")
    parser.add_argument("--address", default=None,
                        help="Ray cluster to join ('auto', 'HOST:6379'); default: RAY_ADDRESS, else this machine")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    exit_on_bad_setup(parser, args.game, args.env_kwargs, args.opponents)
    train(args.game, args.iterations, args.env_kwargs, args.num_env_runners, args.batch, args.eval_games,
          args.opponents, args.address, args.seed)


if __name__ == "__main__":
    main()
