"""``mancala-marl alphazero GAME``: train a policy-value network by self-play (:func:`~.trainer.train`; with
``--backend jax``, on the accelerators: :func:`mancala_marl.train.alphazero.jax.train`)."""

from __future__ import annotations

from pathlib import Path

from mancala_marl.agents import alphazero as az_policy  # the policy that plays the trained network
from mancala_marl.errors import BadInput
from mancala_marl.games import make_game, parse_game
from mancala_marl.cli.arguments import (
    add_game_argument,
    command_config,
    layer_sizes,
    param_argument,
    seed_argument,
)

from mancala_marl.train.alphazero.config import POLICY_TARGETS, RANGES, AlphaZeroConfig


# AlphaZeroConfig fields whose option has another name; the others are named as their field
RENAMED = {"steps_per_generation": "steps"}
# options of one backend only: the other refuses them rather than ignore them
TORCH_ONLY = ("margin_weight", "policy_target", "steps", "temperature_moves", "dirichlet", "c_puct")
JAX_ONLY = ("moves", "reuse", "minutes", "replay_every")
# JaxAlphaZeroConfig's defaults where the help names them (importing it needs jax; tests/jax holds them equal)
JAX_DEFAULTS = {"games": 1024, "sims": 32, "obs_type": "counts", "buffer": 1_000_000, "batch_size": 4096,
                "moves": 128, "reuse": 4.0, "minutes": 0.0, "replay_every": 5.0}


def ranged(name: str):
    """The argparse ``type`` of a setting with a declared range (:data:`RANGES`), both backends'."""
    return param_argument(RANGES[name])


def add_parser(subparsers) -> None:
    d, j = AlphaZeroConfig(), JAX_DEFAULTS
    # Options default to None, so that a resumed run can tell a value typed on the command line
    # (even the default's) from one left out; each help names the default.
    p = subparsers.add_parser("alphazero", help="train a policy-value network by self-play with PUCT search",
                              description="AlphaZero-style self-play (no teacher). Writes RUN_DIR/network.npz, "
                                          "usable as the policy 'alphazero:path=RUN_DIR/network.npz'. "
                                          "--resume continues a run with its own settings: it takes a new "
                                          "--generations total, --policy-target (torch) or --minutes (jax), "
                                          "--opening and the --eval-* options, and refuses any other option "
                                          "that differs from the run's.")
    add_game_argument(p, several=True)
    p.add_argument("--backend", choices=("torch", "jax"), default="torch",
                   help="torch: PUCT self-play on the CPU (default); jax: Gumbel MuZero self-play of thousands of "
                        "games at once on every local accelerator (mctx, the [jax] extra), the same network file")
    p.add_argument("--generations", type=ranged("generations"), help=f"self-play generations in all (default {d.generations}; "
                                                   "with --resume, a new total)")
    p.add_argument("--games", type=ranged("games"),
                   help=f"self-play games per generation, played at once (default {d.games}; jax: {j['games']})")
    p.add_argument("--sims", type=ranged("sims"), help=f"simulations per self-play move (default {d.sims}; jax: {j['sims']})")
    p.add_argument("--hidden", help=f"hidden layer sizes (default {','.join(map(str, d.hidden))})")
    p.add_argument("--obs-type", choices=list(az_policy.OBS_TYPES),
                   help=f"the network's input (default {d.obs_type}; jax: {j['obs_type']})")
    p.add_argument("--margin-weight", type=ranged("margin_weight"),
                   help="value target: the result blended with the final margin in half the seeds, this much "
                        f"of it (default {d.margin_weight}: the result alone)")
    p.add_argument("--value-q", type=ranged("value_q"),
                   help="value target: the game's outcome blended with the root search's mean value, this much "
                        f"of it (default {d.value_q}: the outcome alone)")
    p.add_argument("--policy-target", choices=POLICY_TARGETS,
                   help="what the policy head learns: the root's visit shares or the prior improved by its "
                        f"completed Q-values (default {d.policy_target}; with --resume, the run switches to it)")
    p.add_argument("--moves", type=ranged("moves"),
                   help=f"jax: self-play moves of every game per generation (default {j['moves']})")
    p.add_argument("--minutes", type=ranged("minutes"),
                   help=f"jax: stop after this much training, or at --generations if that comes first "
                        f"(default {j['minutes']:g}: no limit; the learning rate decays over it; with --resume, "
                        "a new total)")
    p.add_argument("--reuse", type=ranged("reuse"),
                   help=f"jax: optimiser steps per generation, as times each new position is drawn "
                        f"(default {j['reuse']})")
    p.add_argument("--replay-every", type=ranged("replay_every"), metavar="MINUTES",
                   help=f"jax: minutes between snapshots of the replay buffer, which a run killed outright resumes "
                        f"from (default {j['replay_every']:g}; 0: only at the end and on Ctrl-C, which saves "
                        "everything)")
    p.add_argument("--buffer", type=ranged("buffer"), help=f"positions kept for training (default {d.buffer}; jax: {j['buffer']})")
    p.add_argument("--steps", type=ranged("steps_per_generation"), help=f"optimiser steps per generation (default {d.steps_per_generation})")
    p.add_argument("--batch-size", type=ranged("batch_size"), help=f"default {d.batch_size}; jax: {j['batch_size']}")
    p.add_argument("--learning-rate", type=ranged("learning_rate"), help=f"default {d.learning_rate}, decayed to a tenth (cosine)")
    p.add_argument("--temperature-moves", type=ranged("temperature_moves"),
                   help=f"moves drawn in proportion to the visits at the start of a game (default {d.temperature_moves})")
    p.add_argument("--opening", type=ranged("opening"),
                   metavar="N", help="start each self-play game with 0..N uniformly random moves, drawn per game "
                        f"(default {d.opening}: the standard start; with --resume, the run switches to it)")
    p.add_argument("--dirichlet", type=ranged("dirichlet"), help=f"root noise's Dirichlet alpha (default {d.dirichlet})")
    p.add_argument("--c-puct", type=ranged("c_puct"), help=f"default {d.c_puct}")
    p.add_argument("--eval-every", type=ranged("eval_every"), help=f"generations between evaluations (default {d.eval_every}; 0: none)")
    p.add_argument("--eval-games", type=ranged("eval_games"), help=f"games per seat per opponent (default {d.eval_games})")
    p.add_argument("--eval-sims", type=ranged("eval_sims"), help=f"simulations per move when evaluating (default {d.eval_sims})")
    p.add_argument("--eval-opponents", help=f"default {','.join(d.eval_opponents)}")
    p.add_argument("--seed", type=seed_argument, help=f"default {d.seed}")
    p.add_argument("--run-dir", default=None,
                   help="default runs/GAME-alphazero (jax: runs/GAME-alphazero-jax); rules other than the "
                        "defaults join GAME: runs/kalah-pits=4-alphazero")
    p.add_argument("--resume", action="store_true", help="continue the run in --run-dir from its last generation")
    p.add_argument("--no-progress", action="store_true")
    p.set_defaults(func=run)


def run(args) -> int:
    from mancala_marl.extras import require
    from mancala_marl.train.runs import default_run_dir, play_hint

    from mancala_marl.train.alphazero.trainer import train

    only = JAX_ONLY if args.backend == "torch" else TORCH_ONLY
    typed = [name for name in only if getattr(args, name) is not None]
    if typed:
        names = ", ".join("--" + name.replace("_", "-") for name in typed)
        raise BadInput(f"{names}: not an option of --backend {args.backend}")
    if args.resume and args.run_dir:
        check_backend(Path(args.run_dir), args.backend)
    args.game, args.mix = (args.game[0], None) if len(args.game) == 1 else ("family", args.game)
    if args.mix and args.backend == "torch":
        raise BadInput(f"{' '.join(args.mix)}: one network on several games trains with --backend jax only")
    if args.backend == "jax":
        return run_jax(args)
    require("train", "this command")
    config, given = command_config(args, AlphaZeroConfig, RENAMED, {"hidden": layer_sizes})
    run_dir = args.run_dir or default_run_dir(args.game, config.rule_params, "alphazero")
    path = train(config, run_dir, resume=args.resume, given=given)
    game = make_game(args.game, **az_policy.Network.load(path).meta["rule_params"])  # also when resumed without rules
    print(f"network: {path}   {play_hint(game, f'alphazero:path={path}')}")
    return 0


def check_backend(run_dir: Path, backend: str) -> None:
    """Refuse to resume a run of the other backend: its checkpoint is another file, whose absence
    would read as a run stopped before its first one."""
    other = {"torch": ("jax", "last.npz"), "jax": ("torch", "last.pt")}[backend]
    if (run_dir / "checkpoints" / other[1]).is_file():
        raise BadInput(f"--resume: {run_dir} is a run of --backend {other[0]}; resume it with --backend {other[0]}")


def run_jax(args) -> int:
    from mancala_marl.extras import require
    from mancala_marl.train.runs import mix_run_dir, play_hint

    require("jax", "--backend jax")
    from mancala_marl.train.alphazero.jax import JaxAlphaZeroConfig, train

    if args.mix and args.obs_type is None:
        args.obs_type = "rules"  # the one input that tells the games apart
    config, given = command_config(args, JaxAlphaZeroConfig, None, {"hidden": layer_sizes})
    run_dir = args.run_dir or mix_run_dir(config.played(), "alphazero-jax")  # runs/wari+dakon-alphazero-jax
    path = train(config, run_dir, resume=args.resume, given=given)
    meta = az_policy.Network.load(path).meta
    game = parse_game(meta["mix"][0]) if meta.get("mix") else make_game(args.game, **meta["rule_params"])
    print(f"network: {path}   {play_hint(game, f'alphazero:path={path}')}")
    return 0
