"""``mancala-marl distill GAME --teacher alphabeta:depth=2 --rounds 4 --states 100000``."""

from __future__ import annotations

from mancala_marl import observations
from mancala_marl.agents.base import split_policy_specs
from mancala_marl.extras import require
from mancala_marl.cli.arguments import add_game_argument, add_param_argument, command_config, layer_sizes, seed_argument

# DistillConfig fields whose option has another name; the others are named as their field
RENAMED = {"states_per_round": "states", "net_arch": "net"}


def add_parser(subparsers) -> None:
    from mancala_marl.train.distill import SETTINGS, DistillConfig

    d, setting = DistillConfig(), SETTINGS  # a declared setting's option: its type, range, default and help
    # Options default to None, so that --resume can tell a value typed (even the default's) from
    # one left out; each help names the default.
    p = subparsers.add_parser(
        "distill", help="train a network to play like a search policy (DAgger imitation)",
        description="Distil a teacher policy (usually alpha-beta) into a MaskablePPO network that plays "
                    "without search. Data, checkpoints, evaluations and final.zip go to --run-dir "
                    "(default runs/GAME-distill; rules other than the defaults join GAME: runs/kalah-pits=4-distill).")
    add_game_argument(p)
    p.add_argument("--teacher", help=f"policy spec whose moves are imitated (default {d.teacher})")
    p.add_argument("--pool", help=f"opponents, one drawn per game, seats random (default {','.join(d.pool)})")
    add_param_argument(p, setting["rounds"])
    add_param_argument(p, setting["states_per_round"], "--states")
    add_param_argument(p, setting["explore"])
    p.add_argument("--net", help=f"hidden layer sizes of the student (default {','.join(map(str, d.net_arch))})")
    add_param_argument(p, setting["features"])
    add_param_argument(p, setting["epochs"])
    add_param_argument(p, setting["batch_size"])
    add_param_argument(p, setting["learning_rate"])
    p.add_argument("--obs-type", choices=observations.all_obs_types(), help=f"default {d.obs_type}")
    add_param_argument(p, setting["workers"])
    p.add_argument("--seed", type=seed_argument, help=f"default {d.seed}")
    add_param_argument(p, setting["eval_games"])
    p.add_argument("--eval-opponents", help=f"default {','.join(d.eval_opponents)}")
    add_param_argument(p, setting["eval_opening"], metavar="K")
    p.add_argument("--run-dir", default=None)
    p.add_argument("--resume", action="store_true", help="continue the run in --run-dir after its last round with "
                                                          "its own settings (--rounds may raise the total; "
                                                          "--workers, --eval-* and --no-progress apply)")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    p.set_defaults(func=run)


def run(args) -> int:
    require("train", "this command")
    from mancala_marl.agents.learned import read_metadata
    from mancala_marl.games import make_game
    from mancala_marl.train.distill import DistillConfig, distill
    from mancala_marl.train.runs import default_run_dir, play_hint

    config, given = command_config(args, DistillConfig, RENAMED, {"pool": split_policy_specs, "net_arch": layer_sizes})
    run_dir = args.run_dir or default_run_dir(args.game, config.rule_params, "distill")
    final = distill(config, run_dir, resume=args.resume, given=given)
    print(play_hint(make_game(args.game, **read_metadata(final)["rule_params"]), f"model:{final}"))
    return 0
