"""``mancala-marl distill GAME --teacher alphabeta:depth=2 --rounds 4 --states 100000``."""

from __future__ import annotations

from mancala_marl import observations
from mancala_marl.extras import require
from mancala_marl.games import GAMES

from .train_command import key_values, layer_sizes


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "distill", help="train a network to play like a search policy (DAgger imitation)",
        description="Distil a teacher policy (usually alpha-beta) into a MaskablePPO network that plays "
                    "without search. Data, checkpoints, evaluations and final.zip go to --run-dir "
                    "(default runs/GAME-distill).")
    p.add_argument("game", choices=sorted(GAMES))
    p.add_argument("--teacher", default="alphabeta:depth=2", help="policy spec whose moves are imitated")
    p.add_argument("--pool", default="random,max,exact", help="opponents, one drawn per game (seats random)")
    p.add_argument("--rounds", type=int, default=4, help="round 0 follows the teacher, later rounds the student")
    p.add_argument("--states", type=int, default=100_000, help="labelled positions per round")
    p.add_argument("--explore", type=float, default=0.1, help="share of moves played at random while labelling")
    p.add_argument("--net", default="256,256", help="hidden layer sizes of the student")
    p.add_argument("--features", choices=["onehot", "plain"], default="onehot",
                   help="student input: counts plus a one-hot of each count (default), or raw counts")
    p.add_argument("--epochs", type=int, default=10, help="passes over all the data after each round")
    p.add_argument("--batch-size", type=int, default=512)
    p.add_argument("--learning-rate", type=float, default=1e-3)
    p.add_argument("--obs-type", default="counts", choices=observations.all_obs_types())
    p.add_argument("--rule", action="append", metavar="PARAM=VALUE", help="rule parameter, e.g. --rule pits=4")
    p.add_argument("--workers", type=int, default=1, help="processes playing and labelling games")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--eval-games", type=int, default=100, help="games per seat per baseline after each round")
    p.add_argument("--eval-opponents", default="random,max,exact")
    p.add_argument("--run-dir", default=None)
    p.add_argument("--resume", action="store_true", help="continue the run in --run-dir after its last round with "
                                                          "its own settings (--rounds may raise the total; "
                                                          "--workers and --no-progress apply)")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    p.set_defaults(func=run)


def run(args) -> int:
    require("train", "this command")
    from mancala_marl.train.distill import DistillConfig, distill
    from mancala_marl.train.runs import check_game

    net = layer_sizes(args.net, "--net")
    config = DistillConfig(
        game=args.game, rule_params=key_values(args.rule, "--rule"), teacher=args.teacher,
        pool=args.pool.split(","), rounds=args.rounds, states_per_round=args.states, explore=args.explore,
        net_arch=net, features=args.features, epochs=args.epochs, batch_size=args.batch_size, learning_rate=args.learning_rate,
        obs_type=args.obs_type, workers=args.workers, seed=args.seed, eval_games=args.eval_games,
        eval_opponents=args.eval_opponents.split(","), progress_bar=not args.no_progress)
    run_dir = args.run_dir or f"runs/{args.game}-distill"
    if args.resume:
        check_game(run_dir, config.game, config.rule_params)
    distill(config, run_dir, resume=args.resume)
    return 0
