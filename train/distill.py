"""Distil a search policy into a network that plays without search (DAgger, Ross et al. 2011).

The student is an ordinary MaskablePPO model, so the result is used like any trained agent
(``model:PATH``, the arena, ``play``, ``pretrained``). Each round plays games against a pool of
baselines in random seats and asks the teacher (e.g. ``alphabeta:depth=2``) for its move in
every position where the student is to move:

* round 0 follows the teacher's own moves;
* later rounds follow the student's moves, so the data covers the positions the student's own
  mistakes lead to, the ones plain imitation never sees;
* ``explore`` of the moves are random legal moves instead, for wider coverage.

The student is then fitted (cross-entropy over legal moves) on every round's data so far.
Only the policy learns; the value head (linear, to keep the model small) stays as initialised,
so PPO would have to fit it before any fine-tuning.

A run directory holds ``config.json``, ``data/round_<k>.npz`` (the labelled positions),
``checkpoints/last.zip`` (the student after the last finished round), ``evaluations.csv`` (what
``mancala-marl plot`` draws, x = labelled positions), ``tb/`` (TensorBoard: the fit's loss and
agreement with the teacher, the evaluations) and ``final.zip``. Every file is written atomically
and ``resume`` continues after the last finished round.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from mancala_marl import observations
from mancala_marl.errors import BadInput
from mancala_marl.games import MAX_MOVES, make_game
from mancala_marl.games.params import Param, check_fields
from mancala_marl.limits import limit
from mancala_marl.matches.arena import process_pool

FEATURES = ("onehot", "plain")

# A run's settings that are choices or numbers, each declared once: DistillConfig's defaults and
# checks, and the options of ``mancala-marl distill`` with their help, come from here (a count's
# range from :mod:`mancala_marl.limits`).
SETTINGS: dict[str, Param] = {param.name: param for param in (
    limit("steps", "rounds", default=4, doc="round 0 follows the teacher, later rounds the student"),
    limit("positions", "states_per_round", default=100_000, doc="labelled positions per round"),
    limit("share", "explore", default=0.1, doc="share of moves played at random while labelling"),
    Param("features", str, "onehot", "student input: onehot: counts plus a one-hot of each count; plain: raw "
                                     "counts", choices=FEATURES),
    limit("steps", "epochs", default=10, doc="passes over all the data after each round"),
    limit("batch_size", default=512),
    limit("learning_rate", default=1e-3),
    limit("workers", default=1, doc="processes playing and labelling games"),
    limit("games", "eval_games", default=100, doc="games per seat per baseline after each round"),
    limit("opening", "eval_opening", default=4,  # max and exact play one game otherwise
          doc="random opening moves of each evaluation game"),
)}


def _default(name: str):
    return SETTINGS[name].default


@dataclass
class DistillConfig:
    game: str = "sungka"
    rule_params: dict = field(default_factory=dict)
    teacher: str = "alphabeta:depth=2"
    pool: list = field(default_factory=lambda: ["random", "max", "exact"])  # one opponent drawn per game
    # the settings declared in SETTINGS take their defaults from there
    rounds: int = _default("rounds")
    states_per_round: int = _default("states_per_round")
    explore: float = _default("explore")
    net_arch: list = field(default_factory=lambda: [256, 256])
    features: str = _default("features")  # onehot: mancala_marl.agents.features.PitCountsOneHot
    epochs: int = _default("epochs")
    batch_size: int = _default("batch_size")
    learning_rate: float = _default("learning_rate")
    obs_type: str = "counts"
    workers: int = _default("workers")
    seed: int = 0
    eval_games: int = _default("eval_games")
    eval_opening: int = _default("eval_opening")
    eval_opponents: list = field(default_factory=lambda: ["random", "max", "exact"])
    progress_bar: bool = True

    def check(self) -> None:
        from mancala_marl.agents import check_policies, check_seed
        check_seed(self.seed)
        check_fields(self, SETTINGS.values())  # each in its declared range, or one line naming it
        trained = self.states_per_round - held_out(self.states_per_round)
        if self.batch_size > trained:
            raise BadInput(f"batch_size {self.batch_size} is larger than the {trained} positions the first round "
                             f"trains on ({self.states_per_round} states, 5% held out): lower it or raise the states")
        if self.features == "onehot" and self.obs_type not in observations.COUNTS_FIRST:
            raise BadInput(f"features='onehot' reads seed counts: it needs an obs_type in "
                             f"{list(observations.COUNTS_FIRST)}, not {self.obs_type!r}")
        if not (self.net_arch and all(isinstance(n, int) and not isinstance(n, bool) and n > 0 for n in self.net_arch)):
            raise BadInput(f"net_arch must be a list of positive layer sizes, got {self.net_arch!r}")
        if not self.pool:
            raise BadInput("pool needs at least one opponent")
        game = make_game(self.game, **self.rule_params)
        check_policies(game, [self.teacher, *self.pool, *self.eval_opponents])  # before any game
        observations.check_obs_type(game, self.obs_type)


def collect(config: DistillConfig, states: int, seed, student_path: str | None = None):
    """Labelled positions from games against the pool: (observations, legal masks, teacher moves).

    ``seed`` is an int or a tuple of ints (entropy for numpy's SeedSequence).

    The student (a model zip) chooses the moves played when given, the teacher otherwise.
    """
    from mancala_marl.agents import make_policy

    game = make_game(config.game, **config.rule_params)
    # Independent streams for the choices made here and for each opponent, also across chunks.
    streams = np.random.SeedSequence(seed).spawn(1 + len(config.pool))
    rng = np.random.default_rng(streams[0])
    teacher = make_policy(config.teacher)
    pool = [make_policy(spec, seed=int(stream.generate_state(1)[0]))
            for spec, stream in zip(config.pool, streams[1:])]
    student = None
    if student_path is not None:
        import torch

        from mancala_marl.agents.learned import ModelPolicy
        torch.set_num_threads(1)
        student = ModelPolicy(path=student_path)
    obs, masks, labels = [], [], []
    while len(labels) < states:
        learner, opponent = int(rng.integers(2)), pool[rng.integers(len(pool))]
        teacher.reset()
        state = game.init()
        moves = 0
        while not game.is_terminal(state) and moves < MAX_MOVES:
            moves += 1
            if game.to_move(state) != learner:
                game.apply(state, opponent.act(game, state.copy()))
                continue
            mask = game.legal_mask(state)
            label = teacher.act(game, state.copy())
            obs.append(observations.encode(game, state, learner, config.obs_type))
            masks.append(mask)
            labels.append(label)
            if rng.random() < config.explore:
                move = int(rng.choice(np.flatnonzero(mask)))
            else:
                move = label if student is None else student.act(game, state.copy())
            game.apply(state, move)
    return np.array(obs, np.float32), np.array(masks, bool), np.array(labels, np.int64)


def _collect_job(args):
    return collect(*args)


def collect_parallel(config: DistillConfig, states: int, seed, student_path=None, progress=None):
    """:func:`collect` split over ``config.workers`` processes, in chunks so the progress bar moves:
    ``progress(k)``, where given, is called with the positions each chunk adds, ``states`` in all."""
    chunk = 2_000
    jobs = [(config, min(chunk, states - start), (seed, i), student_path)
            for i, start in enumerate(range(0, states, chunk))]
    parts, counted = [], 0
    in_process = contextlib.nullcontext(SimpleNamespace(imap=map))
    with process_pool(config.workers) if config.workers > 1 else in_process as pool:
        for part in pool.imap(_collect_job, jobs):
            parts.append(part)
            if progress is not None:  # a chunk ends its last game, so it holds a few more than asked
                added = min(len(part[2]), states - counted)
                counted += added
                progress(added)
    return tuple(np.concatenate(column) for column in zip(*parts))


def new_student(config: DistillConfig):
    """An untrained MaskablePPO whose spaces are the single-agent view's."""
    from sb3_contrib import MaskablePPO

    from mancala_marl.single_agent import SingleAgentEnv
    env = SingleAgentEnv(make_game(config.game, **config.rule_params), obs_type=config.obs_type)
    # Only the policy is fitted: a linear value head keeps the saved model small.
    policy_kwargs = {"net_arch": {"pi": list(config.net_arch), "vf": []}}
    if config.features == "onehot":
        from mancala_marl.agents.features import onehot_kwargs
        policy_kwargs.update(onehot_kwargs(make_game(config.game, **config.rule_params), config.obs_type))
    return MaskablePPO("MlpPolicy", env, policy_kwargs=policy_kwargs, seed=config.seed, device="cpu")


def fit(model, obs, masks, labels, epochs: int, batch_size: int, learning_rate: float, seed: int = 0,
        progress=None) -> dict:
    """Fit the policy's logits to ``labels`` by cross-entropy over the legal moves.

    Holds out 5% of the positions and returns the final training loss and the agreement with the
    teacher there (``val_accuracy``). Positions recur (every game starts alike), so across DAgger
    rounds this is optimistic; :func:`distill` also reports agreement on each round's new positions
    before fitting on them. ``progress()``, where given, is called after each epoch.
    """
    import torch
    import torch.nn.functional as F

    policy = model.policy
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(labels))
    held = held_out(len(labels))
    val, train = order[:held], order[held:]
    if epochs and len(train) < batch_size:
        raise BadInput(f"batch_size {batch_size} is larger than the {len(train)} training positions")
    obs_t, masks_t, labels_t = torch.as_tensor(obs), torch.as_tensor(masks), torch.as_tensor(labels)
    steps = epochs * max(1, len(train) // batch_size)
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, steps)

    def logits(index):
        latent_pi, _ = policy.mlp_extractor(policy.extract_features(obs_t[index]))
        return policy.action_net(latent_pi).masked_fill(~masks_t[index], -1e8)

    policy.set_training_mode(True)
    loss = torch.tensor(float("nan"))
    for _ in range(epochs):
        rng.shuffle(train)
        for start in range(0, len(train) - batch_size + 1, batch_size):
            batch = torch.as_tensor(train[start:start + batch_size])
            loss = F.cross_entropy(logits(batch), labels_t[batch])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            schedule.step()
        if progress is not None:
            progress()
    policy.set_training_mode(False)
    return {"loss": loss.item(), "val_accuracy": accuracy(model, obs[val], masks[val], labels[val])}


def held_out(positions: int) -> int:
    """How many of ``positions`` :func:`fit` keeps out of training to measure agreement: 5%."""
    return max(1, positions // 20)


def accuracy(model, obs, masks, labels) -> float:
    """Share of positions where the model's greedy legal move is the teacher's."""
    actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
    return float((actions == labels).mean())


def _load_npz(path: Path) -> dict:
    with np.load(path) as saved:
        return {key: saved[key] for key in saved.files}


def _save_npz(path: Path, **arrays) -> None:
    from mancala_marl.atomic import write_atomically

    write_atomically(path, lambda tmp: np.savez_compressed(tmp, **arrays))


# Settings that --resume may change besides the rounds: how the student is evaluated.
RESUMABLE = {"eval_games", "eval_opponents", "eval_opening"}


def distill(config: DistillConfig, run_dir, resume: bool = False, given=None):
    """Run (or, with ``resume``, continue) the DAgger rounds in ``run_dir``; returns final.zip's
    path. On resume the run keeps its settings, except a higher ``rounds`` and those of
    :data:`RESUMABLE` (:mod:`mancala_marl.train.runs`; ``given`` names the settings the caller
    set, by default those that differ from the defaults)."""
    import torch

    from mancala_marl.agents.learned import (
        load_model,
        make_metadata,
        read_metadata,
        save_model,
    )
    from mancala_marl.matches.evaluation import evaluate, model_policy
    from mancala_marl.progress import progress_bar
    from mancala_marl.train.runs import Run, read_config

    run = Run(run_dir, "distill", "checkpoints/last.zip", "round", RESUMABLE, resumes_before_checkpoint=True)
    ckpt, data_dir = run.checkpoint, run.folder / "data"
    # The recipe is the run's own; this call may raise the rounds (when it names them) and sets how
    # it runs. Its labelled data are saved round by round, so a run goes on from before its first
    # checkpoint too.
    rounds = config.rounds if given is None or "rounds" in given else 0
    config = run.start(config, resume, given, separate=frozenset({"rounds"}))
    if resume:
        config.rounds = max(rounds, config.rounds)
        if "eval_opening" not in read_config(run_dir) and "eval_opening" not in (given or ()):
            config.eval_opening = 0  # a run from before the option evaluated without an opening: its curve goes on so
        done = read_metadata(ckpt)["rounds"] if ckpt.is_file() else 0
        if config.rounds <= done and (run.folder / "final.zip").is_file():  # as train and alphazero: nothing to do
            raise BadInput(f"--resume: the run in {run.folder} has run all its {done} rounds already: give --rounds "
                             f"above {done} to train on")
    config.check()
    torch.set_num_threads(1)
    game = make_game(config.game, **config.rule_params)
    run.write_config(config)
    data_dir.mkdir(exist_ok=True)

    done, seconds = 0, 0.0
    if resume and ckpt.is_file():
        model, meta = load_model(ckpt, game, config.obs_type)
        done, seconds = meta["rounds"], meta["train_seconds"]
    else:
        model = new_student(config)

    def metadata(rounds, positions, train_seconds):
        return make_metadata(game, config.obs_type, "maskable-ppo", trained_by="distill", teacher=config.teacher,
                             pool=config.pool, rounds=rounds, positions=positions, train_seconds=round(train_seconds, 1))

    rounds_data = [_load_npz(data_dir / f"round_{i}.npz") for i in range(done)]  # read from disk once
    writer = run.tensorboard()  # x axis: labelled positions, as evaluations.csv's
    with run.interruptible():
        for k in range(done, config.rounds):
            start = time.time()
            path = data_dir / f"round_{k}.npz"
            if path.is_file():  # a run stopped between writing this round's data and its model
                new = _load_npz(path)
            else:
                with progress_bar(not config.progress_bar) as bar:
                    task = bar.add_task(f"round {k}: labelling", total=config.states_per_round)
                    obs, masks, labels = collect_parallel(config, config.states_per_round, (config.seed, k),
                                                          str(ckpt) if k > 0 else None,
                                                          lambda added: bar.advance(task, added))
                new = {"obs": obs, "masks": masks, "labels": labels}
                _save_npz(path, **new)
            rounds_data.append(new)
            # The student has not been fitted on this round's positions yet (those of its own games
            # from round 1 on): its agreement with the teacher there is a fair held-out measure.
            agreement = accuracy(model, new["obs"], new["masks"], new["labels"]) if k > 0 else None
            obs, masks, labels = (np.concatenate([d[key] for d in rounds_data]) for key in ("obs", "masks", "labels"))
            torch.set_num_threads(config.workers)  # the labelling processes are done: fitting gets their cores
            with progress_bar(not config.progress_bar) as bar:
                task = bar.add_task(f"round {k}: fitting", total=config.epochs)
                stats = fit(model, obs, masks, labels, config.epochs, config.batch_size, config.learning_rate,
                            seed=config.seed + k, progress=lambda: bar.advance(task))
            torch.set_num_threads(1)
            seconds += time.time() - start
            save_model(model, ckpt, metadata(k + 1, len(labels), seconds))
            rows = evaluate(game, model_policy(model, game, config.obs_type), config.eval_opponents,
                            config.eval_games, seed=len(labels), opening=config.eval_opening)
            cells = run.evaluated(rows, len(labels), seconds, writer)
            for key, value in (("fit/loss", stats["loss"]), ("fit/held_out_agreement", stats["val_accuracy"]),
                               ("fit/new_positions_agreement", agreement)):
                if value is not None:
                    writer.add_scalar(key, value, len(labels))
            writer.flush()
            before = "" if agreement is None else f"{100 * agreement:.1f}% on its new positions before fitting, "
            print(f"[round {k}] {len(labels)} positions; teacher agreement: {before}"
                  f"{100 * stats['val_accuracy']:.1f}% on 5% held out after; "
                  f"{seconds:.0f} s; win rate: {cells}", flush=True)
    writer.close()
    final = run.folder / "final.zip"
    meta = read_metadata(ckpt)
    save_model(model, final, meta)
    print(f"saved {final} ({meta['positions']} positions, {meta['train_seconds']:.0f} s)")
    return final
