"""The self-play loop of a run: generations of self-play, the fit, checkpoints and evaluations."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from mancala_marl.agents import alphazero as az_policy  # the policy that plays the trained network
from mancala_marl.agents import mcts
from mancala_marl.games import make_game

from .config import AlphaZeroConfig, cosine_decay
from .network import to_numpy_network, torch_evaluator, torch_network
from .replay import ReplayBuffer
from .selfplay import self_play


def fit(model, optimizer, buffer: ReplayBuffer, game, config: AlphaZeroConfig, rng) -> dict:
    """``steps_per_generation`` minibatches; returns the mean policy and value losses."""
    import torch

    model.train()
    policy_losses, value_losses = [], []
    for _ in range(config.steps_per_generation):
        obs, masks, policies, results = buffer.sample(rng, config.batch_size)
        x = torch.from_numpy(az_policy.expand(game, obs, config.obs_type))
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
    random 4-move openings; one row per (opponent, seat), as :mod:`mancala_marl.matches.evaluation` writes them."""
    from mancala_marl.matches.arena import arena

    agent = az_policy.AlphaZeroPolicy(sims=config.eval_sims, net=net)
    rows = []
    for spec in config.eval_opponents:
        result = arena(game, agent, spec, n=config.eval_games, seed=generation, opening=4)
        for seat, s in result["seats"].items():
            rows.append({"opponent": spec, "seat": seat, "games": s["games"], "wins": s["wins"], "draws": s["draws"],
                         "losses": s["losses"], "win_rate": s["win_rate"], "mean_score": s["mean_score"],
                         "mean_margin": s["mean_margin"]})
    return rows


def described(generation: int) -> str:
    """The progress bar's description of a generation's self-play, counted in games."""
    return f"[bold]generation {generation}[/]: games"


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

    from mancala_marl.atomic import write_atomically
    from mancala_marl.progress import progress_bar
    from mancala_marl.train.runs import Run, load_checkpoint

    run = Run(run_dir, "alphazero", "checkpoints/last.pt", "generation", RESUMABLE | {"generations"})
    buffer_path = run.folder / "checkpoints" / "buffer.npz"
    config = run.start(config, resume, given)
    if resume:
        changed = {key: value for key, value in (("policy_target", policy_target), ("opening", opening),
                                                 ("generations", generations)) if value is not None}
        config = replace(config, **changed)
        saved = load_checkpoint(lambda path: torch.load(path, weights_only=False), run.checkpoint)
        done = saved["generation"]  # where the loop goes on from
        if config.generations <= done:  # before config.json is rewritten with the smaller total
            typed = generations is not None or "generations" in (given or ())  # as an argument, or on the command line
            raise run.finished(f"played {done} generations", config.generations, "--generations", typed)
    config.check()
    torch.set_num_threads(config.threads)
    torch.manual_seed(config.seed)
    game = make_game(config.game, **config.rule_params)
    run.write_config(config)
    buffer_path.parent.mkdir(exist_ok=True)
    model = torch_network(config, game)
    optimizer = torch.optim.Adam(model.parameters(), lr=config.learning_rate, weight_decay=config.weight_decay)
    buffer = ReplayBuffer(config.buffer, az_policy.feature_layout(game, config.obs_type)[0].size, game.actions)
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
    writer = run.tensorboard()
    with run.interruptible(), progress_bar(not config.progress_bar, status=True, record=True) as progress:
        status = ""
        task = progress.add_task(described(generation), total=config.games, status=status)
        while generation < config.generations:
            start = time.time()
            # reset() replaces a task's fields, so the status the bar shows is passed again
            progress.reset(task, total=config.games, description=described(generation + 1), status=status)
            data, stats = self_play(game, torch_evaluator(model), config, rng, forest,
                                    progress=lambda: progress.advance(task))
            buffer.add(*data)
            for group in optimizer.param_groups:
                group["lr"] = cosine_decay(config.learning_rate, generation / config.generations)
            losses = fit(model, optimizer, buffer, game, config, rng) if buffer.size >= config.batch_size else {}
            generation += 1
            seconds += time.time() - start
            net, weights = to_numpy_network(model, config, game, generation=generation,
                                            positions=buffer.added, train_seconds=round(seconds, 1))
            net.save(run.folder / "network.npz", weights)
            buffer.save(buffer_path)
            state = {"model": model.state_dict(), "optimizer": optimizer.state_dict(), "generation": generation,
                     "seconds": seconds, "rng": rng.bit_generator.state}
            write_atomically(run.checkpoint, lambda tmp: torch.save(state, tmp))
            for key, value in {**stats, **losses}.items():
                writer.add_scalar(f"selfplay/{key}" if key in stats else f"loss/{key}", value, generation)
            fitted = (f"losses {losses['policy_loss']:.3f}/{losses['value_loss']:.3f}" if losses else
                      f"not fitted yet ({buffer.size} positions kept, a batch is {config.batch_size})")
            status = f"{stats['positions']} positions, {fitted}, {seconds / 60:.1f} min"
            evaluated = config.eval_every and generation % config.eval_every == 0
            if evaluated:
                rows = evaluate(game, net, config, generation)
                status += f" | {run.evaluated(rows, buffer.added, seconds, writer, step=generation)}"
            if evaluated or not config.progress_bar:  # with no bar, a line per generation says it goes on
                progress.console.print(f"[generation {generation}] {status}", markup=False)
            progress.update(task, status=status)
    writer.close()
    return run.folder / "network.npz"
