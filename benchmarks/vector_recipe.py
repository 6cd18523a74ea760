"""MaskablePPO on the vectorized env (mancala_marl.train.vector_env): one agent, random seats, a fixed mixed
pool of compiled opponents; prints the win rate against random in both seats every chunk.

    .venv/bin/python benchmarks/vector_recipe.py sungka --steps 3000000 --out benchmarks/runs/vector_sungka.zip

Measured on the 2-core machine (one core busy with it): Sungka, 3M steps in 11 min; greedy play
won 100% of 200 games against random as first player and 83-86% as second player at 2.5-3M steps.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch
from sb3_contrib import MaskablePPO

from mancala_marl.agents.learned import make_metadata, save_model
from mancala_marl.games import GAMES, make_game
from mancala_marl.train.vector_env import MancalaVecEnv


def win_rate(model, game: str, seat: str, games: int, seed: int) -> float:
    """Share of ``games`` won by the greedy ``model`` against random in ``seat``."""
    env = MancalaVecEnv(games, game, opponent="random", seat=seat, reward="result")
    env.seed(seed)
    obs = env.reset()
    won = np.zeros(games, dtype=bool)
    finished = np.zeros(games, dtype=bool)
    while not finished.all():
        actions, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
        obs, _, dones, infos = env.step(actions)
        for i in np.flatnonzero(dones & ~finished):  # the first game of each row only
            finished[i], won[i] = True, infos[i].get("result", 0) == 1
    return float(won.mean())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", nargs="?", default="sungka", choices=list(GAMES), help="default sungka")
    parser.add_argument("--steps", type=int, default=3_000_000, help="learner moves (default 3000000)")
    parser.add_argument("--chunk", type=int, default=500_000, help="moves between evaluations (default 500000)")
    parser.add_argument("--envs", type=int, default=128, help="games played at once (default 128)")
    parser.add_argument("--pool", default="random,random,max,exact",
                        help="opponent of env i: pool[i %% len] (default random,random,max,exact)")
    parser.add_argument("--eval-games", type=int, default=200, help="games per seat against random (default 200)")
    parser.add_argument("--out", default=None,
                        help="where to save the model after each chunk, as model:PATH plays it (default: not saved)")
    args = parser.parse_args()
    torch.set_num_threads(1)  # small MLPs: more threads only contend on 2 cores
    game = make_game(args.game)
    env = MancalaVecEnv(args.envs, game, opponent=args.pool.split(","), seat="random", obs_type="counts",
                        reward="score_diff", reward_scale=1 / game.total_seeds)  # margins in units of all the seeds
    env.seed(0)
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=1024, n_epochs=4, learning_rate=3e-4,
                        ent_coef=0.01, gamma=0.99, policy_kwargs=dict(net_arch=[256, 256]), seed=0)
    start, done = time.time(), 0
    while done < args.steps:
        model.learn(args.chunk, reset_num_timesteps=False)
        done += args.chunk
        if args.out:
            save_model(model, args.out, make_metadata(game, "counts", "maskable-ppo", recipe="vector_recipe"))
        rates = {seat: win_rate(model, args.game, seat, args.eval_games, 1000 + done) for seat in ("first", "second")}
        print(f"{done:>9} steps  {time.time() - start:6.0f} s  win vs random: first {rates['first']:.3f}, "
              f"second {rates['second']:.3f}", flush=True)


if __name__ == "__main__":
    main()
