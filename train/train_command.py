"""``mancala-marl train GAME --algo {dqn,maskable-ppo} --opponent NAME|selfplay --seat ... --timesteps N``."""

from __future__ import annotations

import ast

from mancala_marl.extras import require
from mancala_marl.games import GAMES


def key_values(items, what: str) -> dict:
    out = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.isidentifier():
            raise ValueError(f"{what} must look like KEY=VALUE, got {item!r}")
        try:
            out[key] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            out[key] = value
    return out


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("train", help="train MaskablePPO or masked DQN on one seat of a game",
                              description="Train an agent; checkpoints, evaluations, TensorBoard logs and "
                                          "final.zip go to --run-dir (default runs/GAME-ALGO-OPPONENT).")
    p.add_argument("game", choices=sorted(GAMES))
    p.add_argument("--algo", choices=["maskable-ppo", "dqn"], default="maskable-ppo")
    p.add_argument("--opponent", default="random",
                   help="policy spec (random, max, exact, greedy, alphabeta:depth=2, model:PATH.zip), "
                        "comma-separated specs for a pool, or 'selfplay' (default: random)")
    p.add_argument("--seat", choices=["first", "second", "random"], default="random")
    p.add_argument("--timesteps", type=int, default=None,
                   help="learner moves in total (default 100000; with --resume, a new total for the run)")
    p.add_argument("--run-dir", default=None)
    p.add_argument("--resume", action="store_true", help="continue the run in --run-dir from its last checkpoint")
    p.add_argument("--reward", choices=["result", "score_diff"], default="score_diff")
    p.add_argument("--reward-scale", type=float, default=None)
    p.add_argument("--obs-type", default="counts", choices=["counts", "paper", "tesauro"])
    p.add_argument("--rule", action="append", metavar="PARAM=VALUE", help="rule parameter, e.g. --rule pits=4")
    p.add_argument("--hyper", action="append", metavar="KEY=VALUE", help="algorithm argument, e.g. --hyper learning_rate=1e-4")
    p.add_argument("--n-envs", type=int, default=8)
    p.add_argument("--vec", choices=["dummy", "subproc", "fast"], default="dummy",
                   help="fast: all envs in one compiled call (opponents random/max/exact/greedy only)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--eval-freq", type=int, default=20_000)
    p.add_argument("--eval-games", type=int, default=20, help="games per seat per baseline at each evaluation")
    p.add_argument("--eval-opponents", default="random,max,exact")
    p.add_argument("--checkpoint-freq", type=int, default=20_000)
    p.add_argument("--pool", default="random,max,exact,greedy", help="self-play baselines in the pool")
    p.add_argument("--snapshot-freq", type=int, default=20_000)
    p.add_argument("--snapshot-prob", type=float, default=0.5, help="chance an episode's opponent is a snapshot")
    p.add_argument("--max-snapshots", type=int, default=10, help="newest snapshots kept in the pool")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def run(args) -> int:
    require("train", "this command")
    from mancala_marl.train.training import TrainConfig, train

    run_dir = args.run_dir or f"runs/{args.game}-{args.algo}-{args.opponent.replace(':', '_').replace(',', '+')}"
    config = TrainConfig(
        game=args.game, rule_params=key_values(args.rule, "--rule"), algo=args.algo, opponent=args.opponent,
        seat=args.seat, reward=args.reward, reward_scale=args.reward_scale, obs_type=args.obs_type,
        timesteps=args.timesteps or 100_000, n_envs=args.n_envs, vec=args.vec, seed=args.seed, eval_freq=args.eval_freq,
        eval_games=args.eval_games, eval_opponents=args.eval_opponents.split(","), checkpoint_freq=args.checkpoint_freq,
        pool_baselines=args.pool.split(","), snapshot_freq=args.snapshot_freq, snapshot_prob=args.snapshot_prob,
        max_snapshots=args.max_snapshots, hyperparams=key_values(args.hyper, "--hyper"),
        progress_bar=not args.no_progress)
    train(config, run_dir, resume=args.resume, timesteps=args.timesteps)
    return 0
