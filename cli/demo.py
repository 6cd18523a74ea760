"""``mancala-marl demo``: train an agent from scratch, then measure it in the arena (``make demo``).

Masked DQN learns the game with the ``scratch`` recipe (no teacher; random seats; random, max and
exact as opponents) for ``--timesteps`` moves, then plays
``--games`` games in each seat against random from the usual start and against max and exact
from 4 random opening moves; the table shows the win rates with 95% Wilson intervals (300k moves:
82-100% against each opponent in each seat). The demo took 53 s on a 2-core AMD EPYC (AVX-512), idle,
the kernels already compiled; the training, most of it, scales with the CPU's speed (torch's
gradient steps and the afterstate network's forwards), so a machine 3x slower takes under 3 min.
The first run of the package on a machine also compiles its numba kernels, once (2 to 3 min on that
machine; numba caches them). ``--watch``
instead plays and prints one game between two policies, board by board.

Each demo starts afresh in ``--run-dir``: it replaces a folder that an earlier demo wrote (marked
by :data:`MARKER`) or an empty one, and refuses any other, so a folder given by mistake is kept.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

from mancala_marl import ENV_MODULES
from mancala_marl.errors import BadInput
from mancala_marl.extras import require
from mancala_marl.cli.arguments import count_argument, seed_argument

# Written into the run folder before training: a folder holding it is a demo's, which the next
# demo may replace. Whatever else a demo leaves there is listed in DEMO_FILES.
MARKER = "demo_run.txt"
DEMO_FILES = {MARKER, "config.json", "checkpoints", "snapshots", "evaluations.csv", "tb", "final.zip",
              ".final.tmp.zip",  # final.zip half-written when the demo was stopped
              "learning_curves.png"}  # `mancala-marl plot` of the run


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "demo", help="train a small agent and evaluate it in the arena (make demo)",
        description="Train GAME from scratch with the 'scratch' recipe (masked DQN, no teacher) for --timesteps moves (about a "
                    "minute on Sungka on a 2-core CPU, the arena included; the first run also compiles the kernels, once), then play it against random, max and exact in both seats and show the win rates. "
                    "--watch instead prints one game between two policies.")
    parser.add_argument("game", nargs="?", default="sungka", choices=sorted(ENV_MODULES),
                        help="the game (default sungka)")
    parser.add_argument("--timesteps", type=count_argument("timesteps"), default=300_000,
                        help="training moves (default 300000, under a minute on a 2-core CPU, the arena included)")
    parser.add_argument("--games", type=count_argument("games"), default=200, help="arena games per seat per opponent (default 200)")
    parser.add_argument("--run-dir", default="runs/demo",
                        help="where the run goes; replaced only if an earlier demo wrote it (default runs/demo)")
    parser.add_argument("--seed", type=seed_argument, default=0, help="default 0")
    parser.add_argument("--watch", action="store_true", help="only print one game between --first and --second")
    parser.add_argument("--first", default="random", help="--watch: policy of player_0")
    parser.add_argument("--second", default="max", help="--watch: policy of player_1")
    parser.set_defaults(func=run)


def run(args) -> int:
    if args.watch:
        return watch(args)
    require("train", "the demo (it trains an agent)")

    from mancala_marl.agents import make_policy
    from mancala_marl.games import make_game
    from mancala_marl.matches.arena import arena
    from mancala_marl.progress import console, titled_table
    from mancala_marl.train.runs import play_hint, program
    from mancala_marl.train.training import ALGO_NAMES, TrainConfig, recipe, train

    # The scratch recipe (no teacher), shortened: its learning-rate decay then ends with the demo.
    values = {**recipe("scratch", args.game), "timesteps": args.timesteps, "eval_freq": max(args.timesteps // 4, 1),
              "eval_games": 20, "checkpoint_freq": args.timesteps,
              "save_replay_buffer": False}  # a demo is never resumed: no GB-sized buffer on disk
    config = TrainConfig(game=args.game, seed=args.seed, **values)
    config.check()  # bad settings are refused before anything in --run-dir is touched
    fresh_run_dir(Path(args.run_dir))
    print(f"Training {ALGO_NAMES[config.algo]} from scratch on {args.game} (recipe 'scratch', against random, max and exact) "
          f"for {args.timesteps} moves ...")
    start = time.time()
    final = train(config, args.run_dir)
    seconds = time.time() - start
    agent = make_policy("model", path=str(final))
    table = titled_table(f"{args.game}: trained agent ({args.timesteps} moves, {seconds:.0f} s) in the arena, "
                         f"{args.games} games per seat")
    for column in ("opponent", "agent moves", "win rate", "95% CI", "W/D/L", "mean margin"):
        table.add_column(column, justify="right")
    for opponent, opening in (("random", 0), ("max", 4), ("exact", 4)):
        # 4 random opening moves give a deterministic agent and opponent different games to play.
        result = arena(args.game, agent, opponent, n=args.games, seed=args.seed, opening=opening)
        for seat, s in result["seats"].items():
            table.add_row(opponent, seat, f"{100 * s['win_rate']:.1f}%",
                          f"{100 * s['ci95'][0]:.0f}-{100 * s['ci95'][1]:.0f}%",
                          f"{s['wins']}/{s['draws']}/{s['losses']}", f"{s['mean_margin']:+.1f}")
    console().print(table)
    print(f"Model: {final}   learning curves: {program()} plot {args.run_dir}   "
          f"{play_hint(make_game(args.game), f'model:{final}')}")
    return 0


def fresh_run_dir(run_dir: Path) -> None:
    """Make ``run_dir`` an empty folder marked as a demo's: an earlier demo's folder is replaced,
    any other folder that is not empty is refused (ValueError naming it), never deleted."""
    if run_dir.exists() and not run_dir.is_dir():
        raise BadInput(f"--run-dir {run_dir} is a file, not a folder")
    if run_dir.is_dir() and any(run_dir.iterdir()):
        others = sorted(entry.name for entry in run_dir.iterdir() if entry.name not in DEMO_FILES)
        why = None
        if not (run_dir / MARKER).is_file():
            why = f"not marked as a demo's (no {MARKER})"
        elif others:
            why = f"it holds {', '.join(others[:3])}{' ...' if len(others) > 3 else ''}, which a demo does not write"
        if why:
            raise BadInput(f"--run-dir {run_dir} is not empty and {why}: the demo replaces only its own runs; "
                             f"choose another --run-dir, or remove the folder yourself")
        shutil.rmtree(run_dir)  # an earlier demo's: a demo starts afresh each time
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / MARKER).write_text("Written by `mancala-marl demo`: the next demo with this --run-dir replaces this "
                                  "folder.\n")


def watch(args) -> int:
    from mancala_marl.agents import make_policy

    env = ENV_MODULES[args.game].env(render_mode="ansi")
    env.reset(seed=args.seed)
    raw = env.unwrapped
    policies = {"player_0": make_policy(args.first, seed=args.seed),
                "player_1": make_policy(args.second, seed=(args.seed + 1) % 2**32)}
    print(env.render())
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        move = policies[agent].act(raw.game, raw.state())
        env.step(move)
        print(f"{agent} ({policies[agent].name}) sows pit {move}")
        print(env.render())
    s0, s1 = raw.game.scores(raw.state())
    print(f"final score {s0}-{s1}: " + ("draw" if s0 == s1 else f"player_{int(s1 > s0)} wins"))
    return 0
