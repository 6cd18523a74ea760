"""Train MaskablePPO or masked DQN on one seat of a game: the engine behind ``mancala-marl train``.

A run directory holds everything, so a run can be resumed, plotted and played:

======================================  ==================================================
``config.json``                         the arguments of the run (what ``--resume`` reuses)
``checkpoints/last.zip``                latest model (written atomically), with
``checkpoints/last_replay_buffer.pkl``  the DQN replay buffer
``snapshots/snapshot_<steps>.zip``      self-play opponents
``evaluations.csv``                     win rates vs baselines, both seats, over training
``tb/``                                 TensorBoard logs
``final.zip``                           the final model with its metadata
======================================  ==================================================
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from mancala_marl.errors import BadInput
from mancala_marl.games import make_game
from mancala_marl.games.params import Param, check_fields
from mancala_marl.limits import LIMITS, limit

ALGO_NAMES = {"maskable-ppo": "MaskablePPO", "dqn": "masked DQN"}  # for titles and messages
ALGOS = tuple(ALGO_NAMES)
VECS = ("dummy", "subproc", "fast")
FEATURES = ("plain", "onehot", "afterstate")

# A run's settings that are choices or numbers, each declared once, as the rules' parameters are:
# TrainConfig's defaults and checks, and the options of ``mancala-marl train`` with their help,
# come from here. A count takes its range from :mod:`mancala_marl.limits`.
SETTINGS: dict[str, Param] = {param.name: param for param in (
    Param("algo", str, "maskable-ppo", "the learning algorithm", choices=ALGOS),
    Param("vec", str, "dummy", "how the envs are stepped: fast: all in one compiled call (opponents "
                               "random/max/exact/greedy only)", choices=VECS),
    Param("features", str, "plain", "the network's input: onehot: each count also one-hot; afterstate "
                                    "(dqn, obs_type afterstates): one network scores the position each move leaves",
          choices=FEATURES),
    Param("reward_scale", float, None, "rewards times it", low=1e-6, high=1e6, optional=True),
    limit("opening", default=0, doc="episodes start after 1..K random plies"),
    limit("share", "opening_prob", default=1.0, doc="... with this probability"),
    limit("share", "restart_prob", default=0.0,
          doc="vec fast: chance an episode against max/exact/greedy starts from a position of a game the "
              "learner did not win against it"),
    limit("timesteps", default=100_000, doc="learner moves in total"),
    Param("learning_rate_end", float, None, "decay the learning rate linearly to this over the run",
          low=0, high=1, optional=True),
    limit("envs", "n_envs", default=8, doc="games played at once"),
    limit("every", "eval_freq", default=20_000, low=1, doc="moves between two evaluations"),
    limit("games", "eval_games", default=20, doc="games per seat per baseline at each evaluation"),
    limit("opening", "eval_opening", default=4,  # deterministic players would play one game again and again
          doc="random opening moves of each evaluation game"),
    limit("every", "checkpoint_freq", default=20_000, low=1, doc="moves between two checkpoints"),
    limit("every", "snapshot_freq", default=20_000, low=1, doc="selfplay: moves between two snapshots"),
    limit("share", "snapshot_prob", default=0.5, doc="selfplay: chance an episode's opponent is a snapshot"),
    limit("generations", "max_snapshots", default=10, doc="selfplay: newest snapshots kept in the pool"),
    limit("workers", "torch_threads", default=None, optional=True,
          doc="threads of the network's steps; default: the cores free at the start, up to 4, with "
              "environments in this process (vec fast or dummy), else 1"),
)}
MAX_AUTO_THREADS = 4  # the recipes' networks (MLPs of 128-256 units) gain little past a few threads


def auto_torch_threads(vec: str) -> int:
    """The torch threads of a run that names none. Environments in worker processes (``subproc``)
    take the cores, so 1. In this process they take turns with the network's steps, which can then
    have every core that is free: the cores this process may use less the load already on them
    (Unix's 1-minute load average: torch's threads wait for each other, and on a core another
    busy process holds they stall), at least 1, at most :data:`MAX_AUTO_THREADS`. Measured on
    Sungka's scratch recipe, a 300,000-move run on an idle 2-core CPU: 43.1 s with 1 thread,
    33.4 s with 2 (the gradient steps are three quarters of it)."""
    if vec == "subproc":
        return 1
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    busy = round(os.getloadavg()[0]) if hasattr(os, "getloadavg") else 0
    return max(1, min(cores - busy, MAX_AUTO_THREADS))


def _default(name: str):
    return SETTINGS[name].default


@dataclass
class TrainConfig:
    game: str = "sungka"
    rule_params: dict = field(default_factory=dict)
    # the settings declared in SETTINGS take their defaults from there
    algo: str = _default("algo")
    opponent: str = "random"          # a policy spec, "selfplay", or comma-separated specs (a pool)
    seat: str = "random"
    reward: str = "score_diff"
    reward_scale: float | None = _default("reward_scale")  # None: 1/total_seeds for score_diff, else 1
    obs_type: str = "counts"
    features: str = _default("features")  # onehot: agents.features.PitCountsOneHot; afterstate: agents.afterstate
    opening: int = _default("opening")
    opening_prob: float = _default("opening_prob")  # (SingleAgentEnv)
    restart_prob: float = _default("restart_prob")
    timesteps: int = _default("timesteps")
    learning_rate_end: float | None = _default("learning_rate_end")
    n_envs: int = _default("n_envs")
    vec: str = _default("vec")         # "dummy", "subproc", or "fast" (mancala_marl.train.vector_env)
    seed: int = 0
    eval_freq: int = _default("eval_freq")
    eval_games: int = _default("eval_games")
    eval_opponents: list = field(default_factory=lambda: ["random", "max", "exact"])
    eval_opening: int = _default("eval_opening")
    checkpoint_freq: int = _default("checkpoint_freq")
    keep_checkpoints: bool = False     # also keep each checkpoint's model (checkpoints/model_STEPS_steps.zip)
    save_replay_buffer: bool = True    # DQN: checkpoints also save the buffer that --resume continues with (GBs)
    pool_baselines: list = field(default_factory=lambda: ["random", "max", "exact", "greedy"])
    snapshot_freq: int = _default("snapshot_freq")
    snapshot_prob: float = _default("snapshot_prob")
    max_snapshots: int = _default("max_snapshots")
    hyperparams: dict = field(default_factory=dict)  # passed to the algorithm's constructor
    target_update_episodes: int | None = None       # DQN: sync the target net every N episodes
    progress_bar: bool = True
    torch_threads: int | None = _default("torch_threads")  # None: auto_torch_threads(vec)
    verbose: int = 1

    def check(self) -> None:
        from mancala_marl.agents import check_policies, check_seed
        check_fields(self, SETTINGS.values())  # each in its declared range, or one line naming it
        check_seed(self.seed)
        if self.features == "afterstate" and (self.algo, self.obs_type) != ("dqn", "afterstates"):
            raise BadInput(f"features 'afterstate' needs algo 'dqn' and obs_type 'afterstates' (--algo dqn "
                             f"--obs-type afterstates), got {self.algo!r} and {self.obs_type!r} (with another algo "
                             f"or obs_type, pass --features onehot or plain)")
        if self.restart_prob and self.vec != "fast":
            raise BadInput(f"restart_prob needs vec='fast' (--vec fast), got vec={self.vec!r}")
        if self.vec == "fast":
            from mancala_marl.train.vector_env import OPPONENTS, check_restarts
            names = opponent_specs(self.opponent)
            if any(name not in OPPONENTS for name in names):
                raise BadInput(f"vec='fast' plays compiled opponents only ({', '.join(OPPONENTS)}, or a "
                                 f"comma-separated mix), not {self.opponent!r}; use vec='dummy' or 'subproc'")
            check_restarts(self.restart_prob, names)  # before the run's folder is made
        opponents = self.pool_baselines if self.opponent == "selfplay" else opponent_specs(self.opponent)
        # before the run's folder is written, and not at the first evaluation hours in
        check_policies(make_game(self.game, **self.rule_params), [*opponents, *self.eval_opponents])


# Named recipes: TrainConfig values that ``mancala-marl train GAME --recipe NAME`` starts from
# (``recipe(name, game, algo)``: the recipe, its values for that game, then those of its algorithm).
# "scratch" learns with no teacher. DQN, because the test plays the argmax and DQN's argmax is the
# policy it learns (PPO improves the sampled one); random openings, because max and exact are
# deterministic and would show the learner a handful of games. Each value's measurements: the
# research note "Why the scratch recipe is set as it is" (docs/research/from_code.md).
RECIPES = {
    "scratch": dict(algo="dqn", opponent="random,max,exact,exact", seat="random", reward="score_diff",
                    obs_type="moves", features="onehot", opening=6, opening_prob=0.75, vec="fast", n_envs=256,
                    timesteps=4_000_000, eval_freq=500_000, eval_games=50, eval_opening=4, checkpoint_freq=500_000),
}
# Each recipe's settings per algorithm (``--algo`` picks the other one).
RECIPE_ALGOS = {
    "scratch": {
        "maskable-ppo": dict(learning_rate_end=3e-5,
                             hyperparams=dict(n_steps=64, batch_size=2048, n_epochs=4, learning_rate=3e-4,
                                              ent_coef=0.01, gamma=1.0, gae_lambda=0.95, clip_range=0.2,
                                              policy_kwargs={"net_arch": [256, 256]})),
        "dqn": dict(learning_rate_end=1e-5,
                    hyperparams=dict(buffer_size=1_000_000, batch_size=512, learning_starts=50_000,
                                     learning_rate=1e-4, gamma=1.0, exploration_fraction=0.2,
                                     exploration_initial_eps=1.0, exploration_final_eps=0.02,
                                     target_update_interval=80_000, train_freq=1, gradient_steps=2,
                                     policy_kwargs={"net_arch": [256, 256]})),
    },
}
# Each recipe's settings per game and algorithm, over the two above ("hyperparams" merged key by key).
# Sowing is arithmetic that a flat network learns slowly and the rules' kernels do exactly, so DQN
# scores the position each move leaves (agents/afterstate.py), with a smaller MLP as it is applied
# once per pit; Oware keeps the flat network, which already wins every test game there.
AFTERSTATE_DQN = dict(obs_type="afterstates", features="afterstate",
                      hyperparams=dict(policy_kwargs={"net_arch": [128, 128]}))
RECIPES_PER_GAME = {
    "scratch": {
        "sungka": {
            "maskable-ppo": dict(obs_type="turns"),  # a turn runs to many moves: PPO sees what each move earns over it
            "dqn": {**AFTERSTATE_DQN, "timesteps": 2_500_000},
        },
        "kalah": {"dqn": {**AFTERSTATE_DQN, "timesteps": 8_000_000}},  # at 4M only level with the flat net
        "togyz_kumalak": {"dqn": AFTERSTATE_DQN},
    },
}


def recipe(name: str, game: str, algo: str | None = None) -> dict:
    """The TrainConfig values of recipe ``name`` for ``game``, with ``algo`` (default: the
    recipe's choice) and that algorithm's settings, general then the game's own."""
    if name not in RECIPES:
        raise BadInput(f"unknown recipe {name!r}; recipes: {sorted(RECIPES)}")
    algo = algo or RECIPES[name]["algo"]
    if algo not in RECIPE_ALGOS[name]:
        raise BadInput(f"recipe {name!r} has no settings for algo {algo!r}; it has {sorted(RECIPE_ALGOS[name])}")
    general, own = RECIPE_ALGOS[name][algo], RECIPES_PER_GAME.get(name, {}).get(game, {}).get(algo, {})
    return {**RECIPES[name], **general, **own, "algo": algo,
            "hyperparams": {**general.get("hyperparams", {}), **own.get("hyperparams", {})}}


DEFAULTS = {
    "maskable-ppo": dict(n_steps=256, batch_size=256, learning_rate=3e-4, ent_coef=0.01, gamma=0.99,
                         policy_kwargs={"net_arch": [128, 128]}),
    "dqn": dict(buffer_size=50_000, batch_size=128, learning_starts=1_000, learning_rate=1e-3, gamma=0.99,
                exploration_fraction=0.2, exploration_final_eps=0.05, target_update_interval=1_000,
                train_freq=1, gradient_steps=1, policy_kwargs={"net_arch": [128, 128]}),
}


def make_env_fn(config: TrainConfig, run_dir: Path, rank: int):
    def build():
        from stable_baselines3.common.monitor import Monitor

        from mancala_marl.single_agent import SingleAgentEnv
        if config.vec == "subproc":
            import torch
            torch.set_num_threads(config.torch_threads or 1)  # model opponents in this worker
        env = SingleAgentEnv(make_game(config.game, **config.rule_params), opponent=_opponent(config, run_dir),
                             seat=config.seat, reward=config.reward, obs_type=config.obs_type,
                             reward_scale=_reward_scale(config), opening=config.opening,
                             opening_prob=config.opening_prob)
        env.reset(seed=config.seed * 1000 + rank)
        return Monitor(env, info_keywords=("result",))
    return build


def _opponent(config: TrainConfig, run_dir: Path):
    if config.opponent == "selfplay":
        from mancala_marl.train.selfplay import OpponentPool
        return OpponentPool(config.pool_baselines, run_dir / "snapshots", config.snapshot_prob, config.max_snapshots)
    specs = opponent_specs(config.opponent)
    return specs if len(specs) > 1 else specs[0]


def opponent_specs(opponent: str) -> list[str]:
    """The policy specs of ``--opponent``: one, or a comma-separated pool
    (:func:`mancala_marl.agents.split_policy_specs`)."""
    from mancala_marl.agents import split_policy_specs
    return split_policy_specs(opponent, "opponent")


def _reward_scale(config: TrainConfig) -> float:
    if config.reward_scale is not None:
        return float(config.reward_scale)
    if config.reward == "score_diff":
        return 1.0 / make_game(config.game, **config.rule_params).total_seeds
    return 1.0


def make_vec_env(config: TrainConfig, run_dir: Path):
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor
    if config.vec == "fast":
        # All n_envs games in one compiled call; env i plays opponent i % len (a fixed mix).
        from mancala_marl.train.vector_env import MancalaVecEnv
        venv = MancalaVecEnv(config.n_envs, make_game(config.game, **config.rule_params),
                             opponent=opponent_specs(config.opponent), seat=config.seat, reward=config.reward,
                             obs_type=config.obs_type, reward_scale=_reward_scale(config), opening=config.opening,
                             opening_prob=config.opening_prob, restart_prob=config.restart_prob)
        venv.seed(config.seed * 1000)
        return VecMonitor(venv, info_keywords=("result",))
    fns = [make_env_fn(config, run_dir, rank) for rank in range(config.n_envs)]
    return SubprocVecEnv(fns) if config.vec == "subproc" else DummyVecEnv(fns)


def rounded_up(moves: int, step: int) -> int:
    """``moves`` rounded up to a whole number of ``step``: what SB3 plays when it collects that many at once."""
    return -(-moves // step) * step


def replay_moves(config: TrainConfig, n_envs: int) -> int:
    """The DQN replay buffer's size in moves: as configured, but no more than the run plays (one
    vectorized step spare, so it never wraps): a 40k-move run has no use for the recipe's 1M slots,
    which each checkpoint would pickle whole (about a GB). A longer ``--resume`` grows it."""
    configured = {**DEFAULTS["dqn"], **config.hyperparams}["buffer_size"]
    if isinstance(configured, bool) or not isinstance(configured, (int, float)):
        return configured  # SB3 says what is wrong with it
    return min(int(configured), rounded_up(config.timesteps, n_envs) + n_envs)


def rollout_moves(model, algo: str, n_envs: int) -> int | None:
    """The moves SB3 collects before it checks the run's length again: MaskablePPO's n_steps in
    every env; DQN's train_freq vector steps (None where train_freq counts episodes)."""
    if algo == "maskable-ppo":
        return model.n_steps * n_envs
    frequency, unit = model.train_freq
    return frequency * n_envs if unit.value == "step" else None


def check_hyperparams(cls, hyperparams: dict) -> None:
    """Refuse a ``--hyper`` name that ``cls`` (an SB3 algorithm) does not take, before the run starts."""
    import inspect

    taken = set()
    for klass in cls.__mro__:  # a subclass's **kwargs go on to its parent's __init__
        params = inspect.signature(klass.__init__).parameters.values()
        taken |= {p.name for p in params if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)}
        if not any(p.kind == p.VAR_KEYWORD for p in params):
            break
    taken -= {"self", "policy", "env", "_init_setup_model", "seed", "verbose", "tensorboard_log"}  # ours to set
    unknown = sorted(set(hyperparams) - taken)
    if unknown:
        raise BadInput(f"--hyper: {cls.__name__} has no argument {', '.join(map(repr, unknown))} "
                         f"(it takes {', '.join(sorted(taken))})")
    # counts SB3 takes as they come: batch_size=0 ended in a reshape error inside the first update
    for name, value in hyperparams.items():
        if name in COUNT_HYPERPARAMS:
            try:
                COUNT_HYPERPARAMS[name].check(value)
            except ValueError as error:
                raise BadInput(f"--hyper: {error}") from None


# SB3's arguments that are counts, with their ranges (:mod:`mancala_marl.limits`'s where one fits).
COUNT_HYPERPARAMS: dict[str, Param] = {param.name: param for param in (
    limit("batch_size", doc="positions per optimiser step"),
    limit("steps", "n_steps", doc="moves each env plays between two updates (PPO)"),
    limit("steps", "n_epochs", doc="passes over each rollout (PPO)"),
    limit("positions", "buffer_size", doc="moves the replay buffer holds (DQN)"),
    Param("gradient_steps", int, 1, "optimiser steps after each rollout (DQN; -1: as many as it played moves)",
          low=-1, high=LIMITS["steps"].high),
    limit("every", "target_update_interval", default=1_000, low=1, doc="moves between two syncs of the target net (DQN)"),
    limit("every", "learning_starts", default=1_000, doc="moves played before the first update (DQN)"),
)}


def linear_schedule(start: float, end: float):
    """SB3 schedule: ``start`` at the beginning of training, ``end`` at its last step."""
    def rate(progress_remaining: float) -> float:
        return end + (start - end) * progress_remaining
    return rate


def metadata(config: TrainConfig, **extra) -> dict:
    from mancala_marl.agents.learned import make_metadata
    return make_metadata(make_game(config.game, **config.rule_params), config.obs_type, config.algo,
                         opponent=config.opponent, seat=config.seat, reward=config.reward, **extra)


# Settings that --resume may change: how the run is evaluated and checkpointed, not what it learns.
RESUMABLE = {"save_replay_buffer", "eval_freq", "eval_games", "eval_opponents", "eval_opening", "checkpoint_freq",
             "keep_checkpoints"}


def train(config: TrainConfig, run_dir, resume: bool = False, timesteps: int | None = None,
          save_replay_buffer: bool | None = None, given=None):
    """Train (or, with ``resume``, continue the run in ``run_dir`` from its last checkpoint, with
    its own config.json and, if given, a new total ``timesteps`` and ``save_replay_buffer``; of
    ``config`` only the settings in :data:`RESUMABLE` may differ from the run's then, see
    :mod:`mancala_marl.train.runs`, where ``given`` names the settings the caller set); returns
    the final model path."""
    import torch
    from stable_baselines3.common.callbacks import CallbackList

    from mancala_marl.agents.learned import algo_class, load_model, read_metadata, save_model
    from mancala_marl.train.callbacks import (
        AtomicCheckpointCallback,
        BaselineEvalCallback,
        Progress,
        TargetUpdateEveryEpisodes,
        copy_atomically,
    )
    from mancala_marl.train.runs import Run, load_checkpoint
    from mancala_marl.train.selfplay import SnapshotCallback

    run = Run(run_dir, "train", "checkpoints/last.zip", resumable=RESUMABLE)
    run_dir, ckpt = run.folder, run.checkpoint
    buffer_path = run_dir / "checkpoints" / "last_replay_buffer.pkl"
    config = run.start(config, resume, given, separate=frozenset({"timesteps"}))
    if resume:
        if timesteps is not None:
            config.timesteps = timesteps
        done = read_metadata(ckpt).get("timesteps", 0)
        if config.timesteps <= done:  # before config.json is rewritten with the shorter length
            final = run_dir / "final.zip"
            if not final.is_file():  # stopped after its last checkpoint
                copy_atomically(ckpt, final)
                print(f"the run had trained {done} moves; {final} written from its last checkpoint")
                return final
            raise run.finished(f"trained {done} moves", config.timesteps, "--timesteps", timesteps is not None)
        if save_replay_buffer is not None:
            config.save_replay_buffer = bool(save_replay_buffer)
    config.check()
    cls = algo_class(config.algo)
    check_hyperparams(cls, config.hyperparams)
    torch.set_num_threads(config.torch_threads or auto_torch_threads(config.vec))
    game = make_game(config.game, **config.rule_params)
    env = make_vec_env(config, run_dir)
    if resume:
        model, _ = load_model(ckpt, game, config.obs_type)
        model.set_env(env)
        model.tensorboard_log = str(run_dir / "tb")
        if config.algo == "dqn" and buffer_path.is_file():
            load_checkpoint(model.load_replay_buffer, buffer_path, "replay buffer")
            if not config.save_replay_buffer:
                buffer_path.unlink()  # the checkpoints from here on would not match it
        elif config.algo == "dqn":
            # SB3 learns once num_timesteps passes learning_starts: wait for the empty buffer to refill
            waiting = {**DEFAULTS["dqn"], **config.hyperparams}.get("learning_starts", 0)
            model.learning_starts = model.num_timesteps + waiting
            print(f"resuming without a replay buffer: learning waits for {waiting} new moves to fill it")
        if config.algo == "dqn" and replay_moves(config, env.num_envs) > model.buffer_size:
            model.buffer_size = replay_moves(config, env.num_envs)
            model.replay_buffer.grow(model.buffer_size)
    else:
        params = {**DEFAULTS[config.algo], **config.hyperparams}
        if config.algo == "dqn":
            params["buffer_size"] = replay_moves(config, env.num_envs)
        if config.learning_rate_end is not None:
            params["learning_rate"] = linear_schedule(params["learning_rate"], config.learning_rate_end)
        policy = "MlpPolicy"
        if config.features == "onehot":
            from mancala_marl.agents.features import onehot_kwargs
            params["policy_kwargs"] = {**params.get("policy_kwargs", {}), **onehot_kwargs(game, config.obs_type)}
        elif config.features == "afterstate":
            from mancala_marl.agents.afterstate import afterstate_kwargs
            policy, params["policy_kwargs"] = "AfterstatePolicy", {**params.get("policy_kwargs", {}),
                                                                   **afterstate_kwargs(game)}
        if config.target_update_episodes:
            params["target_update_interval"] = 10**12  # the callback below does it per episode
        try:
            model = cls(policy, env, seed=config.seed, verbose=0, tensorboard_log=str(run_dir / "tb"), **params)
        except (TypeError, ValueError, AssertionError) as error:  # SB3 asserts on some bad values
            env.close()
            raise BadInput(f"{cls.__name__} refused its settings ({', '.join(map(str, params))}; "
                             f"--hyper gave {config.hyperparams or 'none'}): {error}") from None
    # once SB3 has taken the settings: a run it refused leaves no folder, and no config.json to
    # look like a run (nothing before this writes in the folder: SB3 makes tb/ when it learns)
    run.write_config(config)
    meta = metadata(config)
    callbacks = [AtomicCheckpointCallback(ckpt, config.checkpoint_freq, meta, buffer_path if config.algo == "dqn" and config.save_replay_buffer else None,
                                          keep=config.keep_checkpoints),
                 BaselineEvalCallback(game, config.obs_type, config.eval_opponents, config.eval_freq,
                                      config.eval_games, run.evaluations, verbose=config.verbose,
                                      opening=config.eval_opening)]
    if config.opponent == "selfplay":
        callbacks.append(SnapshotCallback(run_dir / "snapshots", config.snapshot_freq, meta))
    if config.algo == "dqn" and config.target_update_episodes:
        callbacks.append(TargetUpdateEveryEpisodes(config.target_update_episodes))
    progress = Progress() if config.progress_bar else None
    remaining = config.timesteps - model.num_timesteps
    # a vectorized step moves every env: SB3 learns once it has more than learning_starts moves
    if config.algo == "dqn" and rounded_up(config.timesteps, env.num_envs) <= model.learning_starts:
        print(f"note: {cls.__name__} starts learning after {model.learning_starts} moves (learning_starts), so "
              f"this run of {config.timesteps} never updates the network", file=sys.stderr)
    rollout = rollout_moves(model, config.algo, env.num_envs)
    trains = rounded_up(remaining, rollout) if rollout else remaining
    if remaining > 0 and trains > 1.1 * remaining:
        print(f"note: {cls.__name__} collects {rollout} moves between updates here, so this run trains "
              f"{trains} moves, not {remaining}", file=sys.stderr)
    start = time.time()
    try:
        if remaining > 0:
            model.learn(remaining, callback=CallbackList(callbacks + [progress] * bool(progress)),
                        reset_num_timesteps=not resume, tb_log_name="run")
    except KeyboardInterrupt:
        if progress is not None:
            progress.close()  # before the message, which a live bar would draw over
        callbacks[0].save()
        print(f"interrupted at {model.num_timesteps} steps; checkpoint saved, to go on: {run.resume_command()}")
        raise
    finally:
        if progress is not None:
            progress.close()
        env.close()
    seconds = time.time() - start
    final = run_dir / "final.zip"
    save_model(model, final, metadata(config, timesteps=model.num_timesteps, train_seconds=round(seconds, 1)))
    callbacks[0].save()
    if config.verbose:
        print(f"saved {final} after {model.num_timesteps} steps ({seconds:.0f} s this session)")
    return final
