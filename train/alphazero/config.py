"""The settings of an AlphaZero run (``config.json``), checked before anything is written."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from mancala_marl.agents import alphazero as az_policy  # the policy that plays the trained network
from mancala_marl.errors import BadInput
from mancala_marl.games import make_game
from mancala_marl.games.params import Param, check_fields
from mancala_marl.limits import limit


def cosine_decay(learning_rate: float, done: float) -> float:
    """The learning rate ``done`` (0..1) of the way through a run: cosine decay to a tenth, the
    schedule of both trainers (torch and JAX)."""
    return learning_rate * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(max(done, 0.0), 1.0))))


POLICY_TARGETS = ("visits", "completed-q")

# The ranges of a run's counts, shares, rates and minutes, both backends' (each config holds its
# own defaults; a setting of one backend only says which), from :mod:`mancala_marl.limits`.
RANGES = {param.name: param for param in (
    limit("generations", doc="self-play generations in all"),
    limit("envs", "games", doc="self-play games per generation, played at once"),
    limit("sims", low=1, doc="simulations per self-play move"),
    limit("steps", "moves", doc="self-play moves of every game per generation (jax)"),
    limit("positions", "buffer", doc="positions kept for training"),
    limit("batch_size"),
    limit("steps", "steps_per_generation", doc="optimiser steps per generation (torch)"),
    limit("games", "eval_games", doc="games per seat per opponent at each evaluation"),
    limit("every", "eval_every", doc="generations between evaluations (0: none)"),
    limit("sims", "eval_sims", doc="simulations per move when evaluating"),
    limit("opening", "temperature_moves", doc="moves drawn in proportion to the visits (torch)"),
    limit("opening", doc="each game starts with 0..opening uniformly random moves"),
    limit("share", "margin_weight", doc="value target: the share of the final margin in it (torch)"),
    limit("share", "value_q", doc="value target: the share of the root search's value in it"),
    limit("learning_rate", doc="the optimiser's step size, decayed to a tenth (cosine)"),
    Param("weight_decay", float, 1e-4, "the optimiser's weight decay", low=0, high=1),
    Param("reuse", float, 4.0, "optimiser steps per generation, as times each new position is drawn (jax)",
          low=0.001, high=1000),
    limit("interval", "minutes", doc="minutes of training before the run stops (0: no limit) (jax)"),
    limit("interval", "replay_every", doc="minutes between snapshots of the replay buffer (0: only at the end "
                                          "and on Ctrl-C) (jax)"),
    # the search's exploration weight, as the alphazero policy that plays the network declares it
    next(param for param in az_policy.AlphaZeroPolicy.parameters if param.name == "c_puct"),
    Param("dirichlet", float, 1.0, "Dirichlet alpha of the root noise (torch)", low=0.001, high=1000),
)}


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
        check_shared(self, ("generations", "games", "sims", "buffer", "batch_size", "steps_per_generation",
                            "eval_games", "eval_every", "temperature_moves", "eval_sims", "opening",
                            "margin_weight", "c_puct", "dirichlet"))
        if self.policy_target not in POLICY_TARGETS:
            raise BadInput(f"policy_target must be one of {list(POLICY_TARGETS)}, got {self.policy_target!r}")
        check_policies(make_game(self.game, **self.rule_params), self.eval_opponents)  # not at the first evaluation


def check_shared(config, names: tuple) -> None:
    """The checks of the settings both backends have: those ``names`` (of :data:`RANGES`) in their
    ranges, the learning rate, its weight decay and the value target's blend too; the network's
    input and its layers."""
    check_fields(config, [RANGES[name] for name in (*names, "learning_rate", "weight_decay", "value_q")])
    if config.obs_type not in az_policy.OBS_TYPES:
        raise BadInput(f"obs_type must be one of {list(az_policy.OBS_TYPES)}, got {config.obs_type!r}")
    if not (config.hidden and all(isinstance(n, int) and n > 0 for n in config.hidden)):
        raise BadInput(f"hidden must be a list of positive layer sizes, got {config.hidden!r}")
