"""Reproduce "Mastering the Game of Sungka from Random Play" (Dionido & Bautista): masked DQN
trained against a random opponent, then tested like its Table II and plotted like its Fig. 5.

The paper's recipe: 10,000 training episodes vs Random, replay buffer 2,000, batch 128, one
gradient step per agent move, fixed epsilon 0.05, target network copied every 100 episodes,
reward r_t = r_agent - r_opponent per (agent move + opponent replies) (our ``score_diff``),
observation the 14 house counts (our ``obs_type="paper"``, own side first), testing 1,000 games
per opponent with epsilon 0.01. Not stated in the paper, so chosen here: gamma 0.99, Adam lr 1e-3,
an MLP of two 64-unit layers, Huber loss (SB3's), and our DQN masks illegal moves (the paper's
agent could pick an empty house; it needed test-time epsilon to get unstuck).

    .venv/bin/python benchmarks/sungka_paper.py                 # the paper's Table II agent
    .venv/bin/python benchmarks/sungka_paper.py --seat second   # the paper's Table III agent

(The runs in benchmarks/results/sungka_paper/ took 68 min and 7.5 min on 2 cores shared with other jobs: a
first-seat game lasts longer, and each of its agent moves takes a gradient step.) Writes
``<seat>.json``, ``.md``, ``.png`` and the trained agent ``.zip`` (``first`` or ``second``) to
``--results-dir`` (default ``benchmarks/results/sungka_paper/``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from stable_baselines3.common.callbacks import (
    BaseCallback,
    CallbackList,
    StopTrainingOnMaxEpisodes,
)

from mancala_marl.agents import make_policy
from mancala_marl.agents.learned import ModelPolicy, make_metadata, save_model
from mancala_marl.agents.masked_dqn import MaskedDQN
from mancala_marl.games import make_game
from mancala_marl.single_agent import SingleAgentEnv
from mancala_marl.train.callbacks import TargetUpdateEveryEpisodes
from mancala_marl.matches.evaluation import play
from results_dir import add_results_dir, results_dir

OPPONENTS = ("random", "max", "exact", "self")
# Table II (agent trained first) and Table III (agent trained second): (average reward, win %).
PAPER = {
    "first": {"first": {"random": (77.6, 99.4), "max": (74.122, 99.5), "exact": (70.943, 97.9), "self": (68.5, 98.6)},
              "second": {"random": (55.9, 73.5), "max": (37.0, 0.0), "exact": (29.995, 0.0), "self": (29.5, 1.1)}},
    "second": {"second": {"random": (None, 94.5), "max": (40.871, 0.2), "exact": (30.986, 0.0), "self": (None, 4.3)},
               "first": {"random": (None, None), "max": (49.237, 5.6), "exact": (51.838, 96.3), "self": (None, None)}},
}


def opponent_for(name, model, epsilon, game):
    if name == "self":
        return ModelPolicy(model=model, metadata=make_metadata(game, "paper", "dqn"), epsilon=epsilon)
    return make_policy(name)


class Curve(BaseCallback):
    """Fig. 5: win rate vs each opponent every ``every`` training episodes (``games`` test games)."""

    def __init__(self, game, seat, every, games, epsilon):
        super().__init__()
        self.game, self.seat, self.every, self.games, self.epsilon = game, seat, every, games, epsilon
        self.episodes, self.points = 0, []

    def _on_step(self):
        done = int(self.locals["dones"].sum())
        if done and (self.episodes + done) // self.every > self.episodes // self.every:
            agent = ModelPolicy(model=self.model, metadata=make_metadata(self.game, "paper", "dqn"), epsilon=self.epsilon)
            row = {"episodes": self.episodes + done, "timesteps": self.num_timesteps}
            for name in OPPONENTS:
                row[name] = play(self.game, agent, opponent_for(name, self.model, self.epsilon, self.game),
                                 self.seat, self.games, seed=self.episodes)["win_rate"]
            self.points.append(row)
            print(f"episode {row['episodes']:>6}: " + "  ".join(f"{n} {100 * row[n]:.0f}%" for n in OPPONENTS), flush=True)
        self.episodes += done
        return True


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seat", choices=["first", "second"], default="first", help="the seat the agent trains in")
    parser.add_argument("--episodes", type=int, default=10_000, help="training episodes (default 10000, the paper's)")
    parser.add_argument("--test-games", type=int, default=1000, help="test games per opponent and seat (default 1000)")
    parser.add_argument("--curve-every", type=int, default=250,
                        help="training episodes between curve points (default 250)")
    parser.add_argument("--curve-games", type=int, default=100, help="games per curve point (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="default 0")
    add_results_dir(parser)
    args = parser.parse_args(argv)

    import torch
    torch.set_num_threads(1)
    game = make_game("sungka")
    seat = ("first", "second").index(args.seat)
    env = SingleAgentEnv(game, opponent="random", seat=args.seat, reward="score_diff", obs_type="paper")
    model = MaskedDQN("MlpPolicy", env, buffer_size=2000, batch_size=128, learning_starts=128, train_freq=1,
                      gradient_steps=1, exploration_initial_eps=0.05, exploration_final_eps=0.05,
                      target_update_interval=10**12, learning_rate=1e-3, gamma=0.99,
                      policy_kwargs={"net_arch": [64, 64]}, seed=args.seed, verbose=0)
    curve = Curve(game, seat, args.curve_every, args.curve_games, epsilon=0.01)
    callbacks = CallbackList([StopTrainingOnMaxEpisodes(args.episodes), TargetUpdateEveryEpisodes(100), curve])
    start = time.time()
    model.learn(10**9, callback=callbacks)
    train_seconds = time.time() - start
    stem = args.seat
    folder = results_dir(args)
    save_model(model, folder / f"{stem}.zip", make_metadata(game, "paper", "dqn", recipe="sungka_paper"))

    agent = ModelPolicy(model=model, metadata=make_metadata(game, "paper", "dqn"), epsilon=0.01)
    table = {}
    for test_seat, seat_name in enumerate(("first", "second")):
        for name in OPPONENTS:
            r = play(game, agent, opponent_for(name, model, 0.01, game), test_seat, args.test_games, seed=10**6)
            table.setdefault(seat_name, {})[name] = r
    report = render(table, args.seat, model.num_timesteps, curve.episodes, train_seconds, args.test_games)
    print(report)
    (folder / f"{stem}.md").write_text(report)
    (folder / f"{stem}.json").write_text(json.dumps(
        {"seat_trained": args.seat, "episodes": curve.episodes, "timesteps": model.num_timesteps,
         "train_seconds": round(train_seconds, 1), "table": table, "curve": curve.points, "paper": PAPER[args.seat]},
        indent=2))
    plot(curve.points, folder / f"{stem}.png", args.seat)
    return 0


def render(table, trained, timesteps, episodes, seconds, games) -> str:
    lines = [f"Sungka paper recipe, agent trained as {trained} player: {episodes} episodes, {timesteps} agent moves, "
             f"{seconds / 60:.1f} min wall clock (2 shared cores). "
             f"Test: {games} games per row, epsilon 0.01.", ""]
    for seat in ("first", "second"):
        lines += [f"As {seat} turn | ours: mean score | ours: mean margin | ours: win % | paper: avg reward | paper: win %",
                  "---|---|---|---|---|---"]
        for name in OPPONENTS:
            r = table[seat][name]
            paper = PAPER[trained].get(seat, {}).get(name, (None, None))
            fmt = lambda v: "n/a" if v is None else f"{v:g}"  # noqa: E731
            lines.append(f"vs {name} | {r['mean_score']:.1f} | {r['mean_margin']:+.1f} | {100 * r['win_rate']:.1f} | "
                         f"{fmt(paper[0])} | {fmt(paper[1])}")
        lines.append("")
    return "\n".join(lines)


def plot(points, path, seat) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4))
    for name in OPPONENTS:
        ax.plot([p["episodes"] for p in points], [100 * p[name] for p in points], label=f"vs {name}")
    ax.set_xlabel("training episodes")
    ax.set_ylabel(f"win rate as {seat} player (%)")
    ax.set_title("Masked DQN on Sungka vs random (paper recipe), cf. paper Fig. 5")
    ax.set_ylim(-3, 103)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


if __name__ == "__main__":
    sys.exit(main())
