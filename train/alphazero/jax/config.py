"""The settings of a JAX AlphaZero run (``config.json``), checked before anything is written."""

from __future__ import annotations

from dataclasses import dataclass, field

from mancala_marl.errors import BadInput
from mancala_marl.games import Game, make_game, parse_game

from ..config import check_shared


@dataclass
class JaxAlphaZeroConfig:
    game: str = "kalah"
    rule_params: dict = field(default_factory=dict)
    mix: list = field(default_factory=list)  # games of the two-row family trained on at once (then game is "family")
    generations: int = 100
    minutes: float = 0.0               # stop after this much training time (0: none); the learning rate decays over it
    games: int = 1024                  # self-play games at once, over all devices
    moves: int = 128                   # self-play moves of every game per generation (games go on into the next)
    sims: int = 32                     # simulations per self-play move (Gumbel MuZero)
    opening: int = 0                   # each game starts with 0..opening uniformly random moves (not learned from)
    hidden: list = field(default_factory=lambda: [256, 256])
    obs_type: str = "counts"           # the network's input, as the alphazero policy reads it ("moves": pits^2 rule calls a node)
    value_q: float = 0.0               # value target: (1 - q) * the game's outcome + q * the root search's value
    buffer: int = 1_000_000            # positions kept for training, over all devices
    batch_size: int = 4096             # positions per optimiser step, over all devices
    reuse: float = 4.0                 # optimiser steps per generation: reuse * new positions / batch_size
    learning_rate: float = 1e-3        # cosine decay to a tenth of it over the generations
    weight_decay: float = 1e-4
    eval_every: int = 5                # generations between evaluations (0: none)
    eval_games: int = 20               # per seat and opponent, 4 random opening moves, on CPU
    eval_sims: int = 50
    eval_opponents: list = field(default_factory=lambda: ["random", "greedy", "alphabeta:depth=2"])
    replay_every: float = 5.0          # minutes between snapshots of the replay buffer (0: at the end and on Ctrl-C only)
    seed: int = 0
    progress_bar: bool = True

    def check(self, devices: int = 1) -> None:
        """Refuse a setting out of range, naming it; ``games``, ``batch_size`` and ``buffer`` are
        split evenly over ``devices``."""
        from mancala_marl.agents import check_policies, check_seed

        check_seed(self.seed)
        check_shared(self, ("generations", "games", "moves", "sims", "buffer", "batch_size", "eval_games",
                            "eval_every", "eval_sims", "opening", "reuse", "minutes", "replay_every"))
        for name in ("games", "batch_size", "buffer"):
            if getattr(self, name) % devices:
                raise BadInput(f"{name} ({getattr(self, name)}) must be a multiple of the {devices} devices")
        if self.buffer < self.games * self.moves:  # a generation's positions must fit in the ring at once
            raise BadInput(f"buffer ({self.buffer}) must hold a generation's positions: at least games * moves "
                             f"= {self.games * self.moves}")
        games = self.played()
        if self.mix:
            from mancala_marl.jax.family import refusal

            if self.obs_type != "rules":
                raise BadInput(f"a run over several games reads obs_type 'rules' (the family's rules beside the "
                               f"board), not {self.obs_type!r}")
            for game in games:
                why = refusal(game)
                if why:
                    raise BadInput(why)
        for game in games:
            check_policies(game, self.eval_opponents)

    def played(self) -> list[Game]:
        """The games of the run: those of ``mix``, or ``game`` with its ``rule_params``."""
        if self.mix:
            return [parse_game(spec) for spec in self.mix]
        return [make_game(self.game, **self.rule_params)]
