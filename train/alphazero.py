"""AlphaZero by self-play: ``mancala-marl alphazero GAME`` and :func:`train`.

No teacher and no human data: each generation plays ``games`` games of the current network
against itself (from the standard start, or with ``opening`` > 0 after 0..opening random moves),
all at once (one batch of network evaluations per simulation step, across games), with PUCT
search (:mod:`mancala_marl.agents.mcts`), Dirichlet noise at the roots and moves drawn in
proportion to the visits for the first ``temperature_moves`` moves of a game.
Every position is stored with the search's visit distribution and the game's result from the
side of its player to move (with ``margin_weight`` > 0, the result blended with the final score
margin: :func:`mancala_marl.agents.mcts.utility`; with ``value_q`` > 0, blended with the root
search's mean value there, a target with less of one game's luck in it); the network (an MLP,
torch) is then fitted on the newest ``buffer`` positions: cross-entropy to the visit
distribution (or, with ``policy_target="completed-q"``, to the prior improved by the root's
Q-values: :func:`completed_q_target`) plus squared error to that value.

A run directory holds ``config.json``, ``checkpoints/last.pt`` (network, optimiser, generation,
random state) and ``checkpoints/buffer.npz`` (the replay buffer), both written atomically after
every generation, so ``--resume`` continues with nothing lost; ``network.npz`` (the newest
network, for the ``alphazero`` policy), ``evaluations.csv`` (what ``mancala-marl plot`` draws),
and ``tb/`` (TensorBoard).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import numpy as np

from mancala_marl.agents import alphazero, mcts
from mancala_marl.games import MAX_MOVES, make_game
from mancala_marl.train.cli import seed_argument


POLICY_TARGETS = ("visits", "completed-q")


@dataclass
class AlphaZeroConfig:
    game: str = "kalah"
    rule_params: dict = field(default_factory=dict)
    generations: int = 100
    games: int = 256                   # self-play games per generation, played at once
    sims: int = 64                     # simulations per self-play move
    c_puct: float = 1.5
    dirichlet: float = 1.0             # Dirichlet alpha of the root noise (25% of the prior)
    temperature_moves: int = 12        # moves drawn in proportion to the visits, then the most visited
    opening: int = 0                   # each game starts with 0..opening uniformly random moves (not recorded)
    hidden: list = field(default_factory=lambda: [256, 256])
    obs_type: str = "moves"            # the network's input: "moves" (what each move does), "turns", "counts"
    margin_weight: float = 0.0         # value: (1 - w) * result + w * margin / (half of all seeds)
    value_q: float = 0.0               # value target: (1 - q) * the game's outcome + q * the root search's value
    policy_target: str = "visits"      # or "completed-q": the prior improved by the root's Q-values
    buffer: int = 300_000              # positions kept for training
    batch_size: int = 512
    steps_per_generation: int = 300    # optimiser steps after each generation
    learning_rate: float = 1e-3        # cosine decay to a tenth of it over the generations
    weight_decay: float = 1e-4
    eval_every: int = 5                # generations between evaluations (0: none)
    eval_games: int = 20               # per seat and opponent, 4 random opening moves
    eval_sims: int = 50
    eval_opponents: list = field(default_factory=lambda: ["random", "greedy", "alphabeta:depth=2"])
    seed: int = 0
    threads: int = 1                   # torch threads for fitting
    progress_bar: bool = True

    def check(self) -> None:
        from mancala_marl.agents import check_policies, check_seed

        check_seed(self.seed)
        counts = ((1, "a positive integer", ("generations", "games", "sims", "buffer", "batch_size",
                                             "steps_per_generation", "eval_games")),
                  (0, "an integer >= 0", ("eval_every", "temperature_moves", "eval_sims", "opening")))
        for low, kind, names in counts:
            for name in names:
                value = getattr(self, name)
                if isinstance(value, bool) or not isinstance(value, int) or value < low:
                    raise ValueError(f"{name} must be {kind}, got {value!r}")
        if self.obs_type not in alphazero.OBS_TYPES:
            raise ValueError(f"obs_type must be one of {list(alphazero.OBS_TYPES)}, got {self.obs_type!r}")
        if not (self.hidden and all(isinstance(n, int) and n > 0 for n in self.hidden)):
            raise ValueError(f"hidden must be a list of positive layer sizes, got {self.hidden!r}")
        if self.policy_target not in POLICY_TARGETS:
            raise ValueError(f"policy_target must be one of {list(POLICY_TARGETS)}, got {self.policy_target!r}")
        for name in ("margin_weight", "value_q"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name} must be between 0 and 1, got {getattr(self, name)!r}")
        for name in ("c_puct", "dirichlet", "learning_rate"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be > 0, got {getattr(self, name)!r}")
        check_policies(make_game(self.game, **self.rule_params), self.eval_opponents)  # not at the first evaluation


# -- the network in torch --------------------------------------------------------------------
def torch_network(config: AlphaZeroConfig, game):
    """The MLP of :class:`mancala_marl.agents.alphazero.Network`, in torch, with the same names."""
    import torch

    class PolicyValueNet(torch.nn.Module):
        def __init__(self, inputs, hidden, pits):
            super().__init__()
            sizes = [inputs, *hidden]
            for k in range(len(hidden)):
                self.add_module(f"hidden_{k}", torch.nn.Linear(sizes[k], sizes[k + 1]))
            self.policy = torch.nn.Linear(sizes[-1], pits)
            self.value = torch.nn.Linear(sizes[-1], 1)
            self.depth = len(hidden)

        def forward(self, x):
            for k in range(self.depth):
                x = torch.relu(getattr(self, f"hidden_{k}")(x))
            return self.policy(x), torch.tanh(self.value(x)).squeeze(-1)

    return PolicyValueNet(alphazero.feature_layout(game, config.obs_type)[1], config.hidden, game.pits)


def torch_evaluator(model):
    """``features -> (logits, values)`` with the torch model itself: for the large batches of
    self-play, torch's matrix products are several times faster than numpy's here."""
    import torch

    def evaluate(x: np.ndarray):
        with torch.no_grad():
            logits, values = model(torch.from_numpy(x))
        return logits.numpy(), values.numpy()
    return evaluate


def to_numpy_network(model, config: AlphaZeroConfig, game, **extra) -> tuple[alphazero.Network, dict]:
    weights = {k: v.detach().cpu().numpy() for k, v in model.state_dict().items()}
    meta = {"game": game.name, "rule_params": dict(game.params), "obs_type": config.obs_type,
            "margin_weight": config.margin_weight, "value_q": config.value_q, "policy_target": config.policy_target,
            "opening": config.opening,
            "features": alphazero.feature_layout(game, config.obs_type)[1], "hidden": list(config.hidden),
            "trained_by": "mancala-marl alphazero (self-play)", **extra}
    return alphazero.Network(weights, meta), weights


# -- replay buffer ---------------------------------------------------------------------------
class ReplayBuffer:
    """The newest ``capacity`` positions: observations, legal masks, visit distributions and results."""

    def __init__(self, capacity: int, obs_size: int, pits: int):
        self.obs = np.zeros((capacity, obs_size), dtype=np.float32)
        self.masks = np.zeros((capacity, pits), dtype=np.bool_)
        self.policies = np.zeros((capacity, pits), dtype=np.float32)
        self.results = np.zeros(capacity, dtype=np.float32)
        self.size, self.next, self.added = 0, 0, 0

    def add(self, obs, masks, policies, results) -> None:
        for k in range(len(results)):
            i = self.next
            self.obs[i], self.masks[i], self.policies[i], self.results[i] = obs[k], masks[k], policies[k], results[k]
            self.next = (i + 1) % len(self.results)
        self.size = min(self.size + len(results), len(self.results))
        self.added += len(results)

    def sample(self, rng, n: int):
        rows = rng.integers(self.size, size=n)
        return self.obs[rows], self.masks[rows], self.policies[rows], self.results[rows]

    def save(self, path) -> None:
        tmp = Path(path).with_name(f".{Path(path).name}.tmp.npz")
        np.savez(tmp, obs=self.obs[: self.size], masks=self.masks[: self.size], policies=self.policies[: self.size],
                 results=self.results[: self.size], next=self.next, added=self.added)
        os.replace(tmp, path)

    def load(self, path) -> None:
        with np.load(path) as data:
            n = len(data["results"])
            self.obs[:n], self.masks[:n], self.policies[:n], self.results[:n] = (
                data["obs"], data["masks"], data["policies"], data["results"])
            self.size, self.next, self.added = n, int(data["next"]), int(data["added"])


# -- self-play -------------------------------------------------------------------------------
def completed_q_target(logits, value, visits, value_sum, mask, visit_init: float = 50.0, scale: float = 0.1):
    """The policy target of Gumbel AlphaZero (Danihelka et al., 2022, "Policy improvement by
    planning with Gumbel"): ``softmax(logits + sigma(completed Q))`` over the legal moves.

    With few simulations a move's share of the visits is a coarse, noisy target (root noise
    included); the Q-values the search found say how good each tried move is. A visited move's Q
    is its mean value; an unvisited one gets a mix of the network's value and the prior-weighted
    Q of the visited moves. The completed Qs are rescaled to [0, 1] over the legal moves and
    weighted by ``(visit_init + most visits) * scale``: the more the search looked, the more its
    findings count. ``logits``, ``visits``, ``value_sum``, ``mask``: (P,) at the root, values from
    the side of its player to move; ``value``: the network's value there."""
    prior = _softmax(logits, mask)
    seen = (visits > 0) & mask
    q = np.where(seen, value_sum / np.maximum(visits, 1), 0.0)
    total = visits[seen].sum()
    mixed = value
    if total > 0:
        mixed = (value + total * (prior[seen] * q[seen]).sum() / prior[seen].sum()) / (1.0 + total)
    completed = np.where(seen, q, mixed)
    low, high = completed[mask].min(), completed[mask].max()
    completed = (completed - low) / max(high - low, 1e-8)
    return _softmax(logits + (visit_init + visits.max()) * scale * completed, mask)


def _softmax(logits, mask):
    """Probabilities over the legal moves (0 on the others)."""
    p = np.exp(np.where(mask, logits - logits[mask].max(), -np.inf))
    return p / p.sum()


def random_opening(game, state, rng, moves: int) -> int:
    """Play up to ``moves`` uniformly random moves on ``state`` (in place), stopping before one that
    would end the game; returns the number played. (The Gymnasium views draw theirs with
    :func:`mancala_marl.single_agent.random_opening`, whose draws differ; the shipped Sungka
    network was trained with this one, so its command reproduces it only with this one.)"""
    for played in range(moves):
        after = state.copy()
        game.apply(after, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
        if game.is_terminal(after):
            return played
        state[:] = after
    return moves


def self_play(game, net, config: AlphaZeroConfig, rng, forest: mcts.Forest, progress=None):
    """``config.games`` games of ``net`` (``features -> (logits, values)``) against itself, all at
    once. Returns the positions
    (observations, masks, visit distributions, results from the mover's side) and statistics.

    With ``config.opening`` > 0 each game first plays 0..opening random moves, drawn per game:
    self-play from the one standard start visits few of the positions that other openings lead
    to, and a network alone plays there without a search to correct it."""
    n = config.games
    states = np.tile(game.init(), (n, 1))
    records = [[] for _ in range(n)]  # per game: (obs, mask, policy, mover, the root search's value)
    plies = np.zeros(n, dtype=np.int64)
    if config.opening:
        for g in range(n):
            plies[g] = random_opening(game, states[g], rng, int(rng.integers(config.opening + 1)))
    live = np.ones(n, dtype=np.bool_)
    unit = alphazero.margin_unit(game)
    w = config.value_q  # each position's value: (1 - w) * the game's outcome + w * its root search's value
    out, outcomes, lengths = [], [], []

    def noise(rows):
        masks = np.array([game.legal_mask(forest.roots[g]) for g in rows])
        draws = rng.dirichlet([config.dirichlet] * game.pits, size=len(rows)) * masks
        return (draws / draws.sum(axis=1, keepdims=True)).astype(np.float32)

    while live.any():
        rows = np.flatnonzero(live)
        forest.reset(states[rows], rows)
        alphazero.search(game, net, forest, config.sims, config.c_puct, active=live, noise=noise,
                         obs_type=config.obs_type, margin_weight=config.margin_weight)
        visits = forest.root_visits()[rows].astype(np.float64)
        # the root's mean value from its mover's side (the first visit only expanded it)
        root_q = forest.value_sum[rows, 0, :].sum(axis=1) / np.maximum(visits.sum(axis=1), 1)
        obs = alphazero.observe(game, states[rows], config.obs_type)
        if config.policy_target == "completed-q":  # the network's own prior, before the root noise
            root_logits, root_values = net(alphazero.expand(game, obs, config.obs_type))
            value_sums = forest.value_sum[rows, 0, :].astype(np.float64)
        for k, g in enumerate(rows):
            mask = game.legal_mask(states[g])
            policy = visits[k] / visits[k].sum()
            target = policy if config.policy_target == "visits" else completed_q_target(
                root_logits[k].astype(np.float64), float(root_values[k]), visits[k], value_sums[k], mask)
            records[g].append((obs[k], mask, target.astype(np.float32), game.to_move(states[g]), root_q[k]))
            if plies[g] < config.temperature_moves:
                move = int(rng.choice(game.pits, p=policy))
            else:
                move = int(np.argmax(np.where(mask, visits[k], -1)))
            game.apply(states[g], move)
            plies[g] += 1
            finished = game.is_terminal(states[g])
            if finished or plies[g] >= MAX_MOVES:
                live[g] = False
                # A game stopped at MAX_MOVES (balls circling for ever) teaches a draw.
                result = game.returns(states[g]) if finished else np.zeros(2)
                first_margin = float(np.subtract(*game.scores(states[g]))) if finished else 0.0
                value = [mcts.utility(side * first_margin, config.margin_weight, unit) for side in (1.0, -1.0)]
                outcomes.append(result[0])
                lengths.append(plies[g])
                out.extend((o, m, p, (1 - w) * value[mover] + w * q) for o, m, p, mover, q in records[g])
                if progress is not None:
                    progress()
    obs, masks, policies, results = (np.array(column) for column in zip(*out))
    stats = {"first_player_score": float(np.mean(outcomes)) * 0.5 + 0.5, "mean_length": float(np.mean(lengths)),
             "positions": len(results)}
    return (obs, masks, policies, results), stats


# -- fitting ---------------------------------------------------------------------------------
def fit(model, optimizer, buffer: ReplayBuffer, game, config: AlphaZeroConfig, rng) -> dict:
    """``steps_per_generation`` minibatches; returns the mean policy and value losses."""
    import torch

    model.train()
    policy_losses, value_losses = [], []
    for _ in range(config.steps_per_generation):
        obs, masks, policies, results = buffer.sample(rng, config.batch_size)
        x = torch.from_numpy(alphazero.expand(game, obs, config.obs_type))
        logits, values = model(x)
        logits = logits.masked_fill(~torch.from_numpy(masks), -1e9)
        policy_loss = -(torch.from_numpy(policies) * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
        value_loss = ((values - torch.from_numpy(results)) ** 2).mean()
        optimizer.zero_grad()
        (policy_loss + value_loss).backward()
        optimizer.step()
        policy_losses.append(policy_loss.item())
        value_losses.append(value_loss.item())
    model.eval()
    return {"policy_loss": float(np.mean(policy_losses)), "value_loss": float(np.mean(value_losses))}


def evaluate(game, net, config: AlphaZeroConfig, generation: int) -> list[dict]:
    """The network with ``eval_sims`` simulations against each baseline, both seats, from
    random 4-move openings; one row per (opponent, seat), as :mod:`mancala_marl.train.evaluation` writes them."""
    from mancala_marl.train.arena import arena

    agent = alphazero.AlphaZeroPolicy(sims=config.eval_sims, net=net)
    rows = []
    for spec in config.eval_opponents:
        result = arena(game, agent, spec, n=config.eval_games, seed=generation, opening=4)
        for seat, s in result["seats"].items():
            rows.append({"opponent": spec, "seat": seat, "games": s["games"], "wins": s["wins"], "draws": s["draws"],
                         "losses": s["losses"], "win_rate": s["win_rate"], "mean_score": s["mean_score"],
                         "mean_margin": s["mean_margin"]})
    return rows


# -- the run ---------------------------------------------------------------------------------
def _atomic_torch_save(obj, path: Path) -> None:
    import torch

    tmp = path.with_name(f".{path.name}.tmp")
    torch.save(obj, tmp)
    os.replace(tmp, path)


# Settings that --resume may change: what the network learns from next, and how it is evaluated.
RESUMABLE = {"policy_target", "opening", "eval_every", "eval_games", "eval_sims", "eval_opponents"}


def train(config: AlphaZeroConfig, run_dir, resume: bool = False, generations: int | None = None,
          policy_target: str | None = None, opening: int | None = None, given=None) -> Path:
    """Run (or with ``resume`` continue) the self-play loop in ``run_dir``; returns the path of the
    newest network (``network.npz``). On resume, ``generations`` is a new total, and
    ``policy_target`` and ``opening``, where given (as arguments or in ``config``), change the run
    from the next generation on, as may the settings of :data:`RESUMABLE`; any other setting of
    ``config`` must be the run's (:mod:`mancala_marl.train.runs`; ``given`` names the settings
    the caller set, by default those that differ from the defaults)."""
    import torch
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )
    from torch.utils.tensorboard import SummaryWriter

    from mancala_marl.train.evaluation import append_evaluations, win_rate_cells
    from mancala_marl.train.runs import check_fresh, load_checkpoint, no_checkpoint, resumed_config

    run_dir = Path(run_dir)
    checkpoint, buffer_path = run_dir / "checkpoints" / "last.pt", run_dir / "checkpoints" / "buffer.npz"
    if resume:
        if not checkpoint.is_file():
            raise no_checkpoint(run_dir, checkpoint)
        config = resumed_config(config, run_dir, RESUMABLE | {"generations"}, given=given)
        changed = {key: value for key, value in (("policy_target", policy_target), ("opening", opening),
                                                 ("generations", generations)) if value is not None}
        config = replace(config, **changed)
        saved = load_checkpoint(lambda path: torch.load(path, weights_only=False), checkpoint)
        done = saved["generation"]  # where the loop goes on from
        if config.generations <= done:  # before config.json is rewritten with the smaller total
            typed = generations is not None or "generations" in (given or ())  # as an argument, or on the command line
            total = "--generations is" if typed else "its total (no --generations given) is"
            raise ValueError(f"--resume: the run in {run_dir} has played {done} generations already, and "
                             f"{total} {config.generations}: give a larger --generations to train on")
    else:
        check_fresh(run_dir, checkpoint)
    config.check()
    torch.set_num_threads(config.threads)
    torch.manual_seed(config.seed)
    game = make_game(config.game, **config.rule_params)
    run_dir.mkdir(parents=True, exist_ok=True)
    checkpoint.parent.mkdir(exist_ok=True)
    (run_dir / "config.json").write_text(json.dumps(asdict(config), indent=2))
    model = torch_network(config, game)
    optimizer = torch.optim.Adam(model.parameters(), lr=config.learning_rate, weight_decay=config.weight_decay)
    buffer = ReplayBuffer(config.buffer, alphazero.feature_layout(game, config.obs_type)[0].size, game.pits)
    rng = np.random.default_rng(config.seed)
    generation, seconds = 0, 0.0
    if resume:
        model.load_state_dict(saved["model"])
        optimizer.load_state_dict(saved["optimizer"])
        generation, seconds = saved["generation"], saved["seconds"]
        rng.bit_generator.state = saved["rng"]
        load_checkpoint(buffer.load, buffer_path, "replay buffer")
    model.eval()
    forest = mcts.Forest(game, config.games, config.sims + 2)
    writer = SummaryWriter(str(run_dir / "tb"))
    columns = (TextColumn("[bold]generation {task.fields[generation]}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("games"), TimeElapsedColumn(), TextColumn("{task.fields[status]}"))
    with Progress(*columns, disable=not config.progress_bar) as progress:
        status = ""
        task = progress.add_task("self-play", total=config.games, generation=generation, status=status)
        while generation < config.generations:
            start = time.time()
            # reset() replaces a task's fields, so every field the columns show is passed again
            progress.reset(task, total=config.games, generation=generation + 1, status=status)
            data, stats = self_play(game, torch_evaluator(model), config, rng, forest,
                                    progress=lambda: progress.advance(task))
            buffer.add(*data)
            decay = 0.1 + 0.9 * 0.5 * (1 + np.cos(np.pi * generation / config.generations))
            for group in optimizer.param_groups:
                group["lr"] = config.learning_rate * decay
            losses = fit(model, optimizer, buffer, game, config, rng) if buffer.size >= config.batch_size else {}
            generation += 1
            seconds += time.time() - start
            net, weights = to_numpy_network(model, config, game, generation=generation,
                                            positions=buffer.added, train_seconds=round(seconds, 1))
            net.save(run_dir / "network.npz", weights)
            buffer.save(buffer_path)
            _atomic_torch_save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                                "generation": generation, "seconds": seconds, "rng": rng.bit_generator.state},
                               checkpoint)
            for key, value in {**stats, **losses}.items():
                writer.add_scalar(f"selfplay/{key}" if key in stats else f"loss/{key}", value, generation)
            fitted = (f"losses {losses['policy_loss']:.3f}/{losses['value_loss']:.3f}" if losses else
                      f"not fitted yet ({buffer.size} positions kept, a batch is {config.batch_size})")
            status = f"{stats['positions']} positions, {fitted}, {seconds / 60:.1f} min"
            evaluated = config.eval_every and generation % config.eval_every == 0
            if evaluated:
                rows = evaluate(game, net, config, generation)
                append_evaluations(run_dir / "evaluations.csv", rows, buffer.added, seconds)
                for row in rows:
                    writer.add_scalar(f"eval/win_rate/{row['opponent']}/{row['seat']}", row["win_rate"], generation)
                status += f" | {win_rate_cells(rows)}"
            if evaluated or not config.progress_bar:  # with no bar, a line per generation says it goes on
                progress.console.print(f"[generation {generation}] {status}", markup=False)
            progress.update(task, status=status)
    writer.close()
    return run_dir / "network.npz"


# -- command line ----------------------------------------------------------------------------
# command-line option -> AlphaZeroConfig field, for the options given as plain values
OPTIONS = {"generations": "generations", "games": "games", "sims": "sims", "obs_type": "obs_type",
           "margin_weight": "margin_weight", "value_q": "value_q", "policy_target": "policy_target",
           "buffer": "buffer", "steps": "steps_per_generation", "batch_size": "batch_size",
           "learning_rate": "learning_rate", "temperature_moves": "temperature_moves", "opening": "opening",
           "dirichlet": "dirichlet", "c_puct": "c_puct", "eval_every": "eval_every", "eval_games": "eval_games",
           "eval_sims": "eval_sims", "seed": "seed"}


def add_parser(subparsers) -> None:
    from mancala_marl.train.train_command import add_game_argument

    d = AlphaZeroConfig()
    # Options default to None, so that a resumed run can tell a value typed on the command line
    # (even the default's) from one left out; each help names the default.
    p = subparsers.add_parser("alphazero", help="train a policy-value network by self-play with PUCT search",
                              description="AlphaZero-style self-play (no teacher). Writes RUN_DIR/network.npz, "
                                          "usable as the policy 'alphazero:path=RUN_DIR/network.npz'. "
                                          "--resume continues a run with its own settings: it takes a new "
                                          "--generations total, --policy-target, --opening and the --eval-* "
                                          "options, and refuses any other option that differs from the run's.")
    add_game_argument(p)
    p.add_argument("--generations", type=int, help=f"self-play generations in all (default {d.generations}; "
                                                   "with --resume, a new total)")
    p.add_argument("--games", type=int, help=f"self-play games per generation, played at once (default {d.games})")
    p.add_argument("--sims", type=int, help=f"simulations per self-play move (default {d.sims})")
    p.add_argument("--hidden", help=f"hidden layer sizes (default {','.join(map(str, d.hidden))})")
    p.add_argument("--obs-type", choices=list(alphazero.OBS_TYPES), help=f"the network's input (default {d.obs_type})")
    p.add_argument("--margin-weight", type=float,
                   help="value target: the result blended with the final margin in half the seeds, this much "
                        f"of it (default {d.margin_weight}: the result alone)")
    p.add_argument("--value-q", type=float,
                   help="value target: the game's outcome blended with the root search's mean value, this much "
                        f"of it (default {d.value_q}: the outcome alone)")
    p.add_argument("--policy-target", choices=POLICY_TARGETS,
                   help="what the policy head learns: the root's visit shares or the prior improved by its "
                        f"completed Q-values (default {d.policy_target}; with --resume, the run switches to it)")
    p.add_argument("--buffer", type=int, help=f"positions kept for training (default {d.buffer})")
    p.add_argument("--steps", type=int, help=f"optimiser steps per generation (default {d.steps_per_generation})")
    p.add_argument("--batch-size", type=int, help=f"default {d.batch_size}")
    p.add_argument("--learning-rate", type=float, help=f"default {d.learning_rate}, decayed to a tenth (cosine)")
    p.add_argument("--temperature-moves", type=int,
                   help=f"moves drawn in proportion to the visits at the start of a game (default {d.temperature_moves})")
    p.add_argument("--opening", type=int,
                   metavar="N", help="start each self-play game with 0..N uniformly random moves, drawn per game "
                        f"(default {d.opening}: the standard start; with --resume, the run switches to it)")
    p.add_argument("--dirichlet", type=float, help=f"root noise's Dirichlet alpha (default {d.dirichlet})")
    p.add_argument("--c-puct", type=float, help=f"default {d.c_puct}")
    p.add_argument("--eval-every", type=int, help=f"generations between evaluations (default {d.eval_every}; 0: none)")
    p.add_argument("--eval-games", type=int, help=f"games per seat per opponent (default {d.eval_games})")
    p.add_argument("--eval-sims", type=int, help=f"simulations per move when evaluating (default {d.eval_sims})")
    p.add_argument("--eval-opponents", help=f"default {','.join(d.eval_opponents)}")
    p.add_argument("--rule", action="append", metavar="PARAM=VALUE", help="rule parameter, e.g. --rule houses=4")
    p.add_argument("--seed", type=seed_argument, help=f"default {d.seed}")
    p.add_argument("--run-dir", default=None, help="default runs/GAME-alphazero; rules other than the defaults join GAME: runs/kalah-pits=4-alphazero")
    p.add_argument("--resume", action="store_true", help="continue the run in --run-dir from its last generation")
    p.add_argument("--no-progress", action="store_true")
    p.set_defaults(func=run)


def run(args) -> int:
    from mancala_marl.agents.base import split_policy_specs
    from mancala_marl.extras import require
    from mancala_marl.train.runs import default_run_dir, play_hint, resume_hint_on_interrupt
    from mancala_marl.train.train_command import fold_game_rules, key_values, layer_sizes, typed

    require("train", "this command")
    fold_game_rules(args)
    values = typed(args, OPTIONS)
    if args.hidden is not None:
        values["hidden"] = layer_sizes(args.hidden, "--hidden")
    if args.eval_opponents is not None:
        values["eval_opponents"] = split_policy_specs(args.eval_opponents, "--eval-opponents")
    if args.rule is not None:
        values["rule_params"] = key_values(args.rule, "--rule")
    config = AlphaZeroConfig(game=args.game, progress_bar=not args.no_progress, **values)
    run_dir = args.run_dir or default_run_dir(args.game, values.get("rule_params"), "alphazero")
    with resume_hint_on_interrupt("alphazero", args.game, run_dir, "checkpoints/last.pt", "generation"):
        path = train(config, run_dir, resume=args.resume, given={"game", "progress_bar", *values})
    game = make_game(args.game, **alphazero.Network.load(path).meta["rule_params"])  # also when resumed without --rule
    print(f"network: {path}   {play_hint(game, f'alphazero:path={path}')}")
    return 0
