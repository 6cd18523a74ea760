"""``mancala-marl train GAME --algo {dqn,maskable-ppo} --opponent NAME|selfplay --seat ... --timesteps N``."""

from __future__ import annotations

from mancala_marl import observations
from mancala_marl.agents.base import split_policy_specs
from mancala_marl.extras import require
from mancala_marl.cli.arguments import (
    add_game_argument,
    add_param_argument,
    config_and_given,
    fold_game_rules,
    key_values,
    seed_argument,
    typed_settings,
)

# TrainConfig fields whose option has another name; the others are named as their
# field (--hyper is merged into the recipe's hyperparams apart)
RENAMED = {"pool_baselines": "pool"}


def add_parser(subparsers) -> None:
    from mancala_marl.train.training import RECIPES, SETTINGS, TrainConfig

    d, setting = TrainConfig(), SETTINGS  # a declared setting's option: its type, range, default and help
    p = subparsers.add_parser("train", help="train MaskablePPO or masked DQN on one seat of a game",
                              description="Train an agent; checkpoints, evaluations, TensorBoard logs and "
                                          "final.zip go to --run-dir (default runs/GAME-ALGO-OPPONENT, or runs/GAME-RECIPE with --recipe; rules other than the defaults join GAME: runs/kalah-pits=4-dqn-max). "
                                          "--recipe sets every option to a tested recipe; options given "
                                          "as well override it.")
    add_game_argument(p)
    p.add_argument("--recipe", choices=sorted(RECIPES), default=None,
                   help="scratch: reinforcement learning from scratch, no teacher: masked DQN "
                        "(--algo maskable-ppo: the earlier PPO recipe)")
    add_param_argument(p, setting["algo"], note="or the recipe's")
    p.add_argument("--opponent", default=None,
                   help="policy spec (random, max, exact, greedy, alphabeta:depth=2, model:PATH.zip), "
                        "comma-separated specs for a pool (random,alphabeta:depth=2,tt_bits=16: a key=value after a "
                        f"comma belongs to the spec before), or 'selfplay' (default: {d.opponent})")
    p.add_argument("--seat", choices=["first", "second", "random"], default=None, help=f"default {d.seat}")
    add_param_argument(p, setting["timesteps"], note="with --resume, a new total for the run")
    p.add_argument("--run-dir", default=None)
    p.add_argument("--resume", action="store_true", help="continue the run in --run-dir from its last checkpoint")
    p.add_argument("--reward", choices=["result", "score_diff"], default=None, help=f"default {d.reward}")
    add_param_argument(p, setting["reward_scale"], note="default: 1/total seeds for score_diff, else 1")
    p.add_argument("--obs-type", default=None, choices=observations.all_obs_types(),
                   help=f"default {d.obs_type}")
    add_param_argument(p, setting["features"])
    add_param_argument(p, setting["opening"], metavar="K")
    add_param_argument(p, setting["opening_prob"])
    add_param_argument(p, setting["restart_prob"])
    p.add_argument("--hyper", action="append", metavar="KEY=VALUE", help="algorithm argument, e.g. --hyper learning_rate=1e-4")
    add_param_argument(p, setting["n_envs"])
    add_param_argument(p, setting["vec"])
    add_param_argument(p, setting["torch_threads"], metavar="N",
                       note="1 on a CPU other busy processes share: more threads then wait on each other")
    p.add_argument("--seed", type=seed_argument, default=None)
    add_param_argument(p, setting["eval_freq"])
    add_param_argument(p, setting["eval_games"])
    p.add_argument("--eval-opponents", default=None, help=f"default {','.join(d.eval_opponents)}")
    add_param_argument(p, setting["eval_opening"], metavar="K")
    add_param_argument(p, setting["learning_rate_end"], note="PPO: --hyper learning_rate=... is the start")
    add_param_argument(p, setting["checkpoint_freq"])
    p.add_argument("--keep-checkpoints", action="store_true", default=None,
                   help="also keep each checkpoint's model as checkpoints/model_STEPS_steps.zip "
                        "(for benchmarks/checkpoint_curve.py)")
    p.add_argument("--no-replay-buffer", dest="save_replay_buffer", action="store_false", default=None,
                   help="DQN: checkpoints keep the model only, not the replay buffer (1.4 GB on Sungka's recipe); "
                        "a later --resume starts with an empty buffer and waits for learning_starts new moves. "
                        "With --resume: from now on (the run keeps it)")
    p.add_argument("--pool", default=None, help=f"self-play baselines in the pool (default {','.join(d.pool_baselines)})")
    add_param_argument(p, setting["snapshot_freq"])
    add_param_argument(p, setting["snapshot_prob"])
    add_param_argument(p, setting["max_snapshots"])
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def settings_from(args) -> dict:
    """The TrainConfig fields a command line sets, with their values: the recipe's, then the
    options given (--resume refuses those that differ from the run's, except the few it may change)."""
    from mancala_marl.train.training import RESUMABLE, TrainConfig, recipe

    values = recipe(args.recipe, args.game, args.algo) if args.recipe else {}
    if args.resume:  # a run keeps its own evaluations and checkpoints unless they are typed again
        values = {field: value for field, value in values.items() if field not in RESUMABLE}
    values.update(typed_settings(args, TrainConfig, RENAMED, {"pool_baselines": split_policy_specs}))
    if args.recipe and args.timesteps is not None and not args.resume:
        # A run shorter than the recipe's still evaluates and checkpoints as it goes: five of
        # each at least.
        for option in ("eval_freq", "checkpoint_freq"):
            if getattr(args, option) is None:
                values[option] = min(values[option], max(1, args.timesteps // 5))
    if args.hyper is not None:  # merged into the recipe's, key by key
        values["hyperparams"] = {**values.get("hyperparams", {}), **key_values(args.hyper, "--hyper")}
    return values


def config_from(args):
    """The TrainConfig of a command line: TrainConfig's defaults, then the recipe's, then the
    options given."""
    from mancala_marl.train.training import TrainConfig

    return config_and_given(args, TrainConfig, settings_from(args))[0]


def run(args) -> int:
    require("train", "this command")
    from mancala_marl.agents.learned import read_metadata
    from mancala_marl.games import make_game
    from mancala_marl.train.runs import default_run_dir, play_hint
    from mancala_marl.train.training import TrainConfig, train

    fold_game_rules(args)
    settings = settings_from(args)
    config, given = config_and_given(args, TrainConfig, settings)
    parts = [args.recipe] if args.recipe else [config.algo, config.opponent.replace(":", "_").replace(",", "+")]
    run_dir = args.run_dir or default_run_dir(args.game, settings.get("rule_params"), *parts)
    final = train(config, run_dir, resume=args.resume, timesteps=args.timesteps,
                  save_replay_buffer=args.save_replay_buffer, given=given)
    print(play_hint(make_game(args.game, **read_metadata(final)["rule_params"]), f"model:{final}"))
    return 0
