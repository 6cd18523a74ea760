"""AlphaZero by self-play: :func:`train`, and the command ``mancala-marl alphazero GAME`` (:mod:`.command`).

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

The parts, each a module: :mod:`.config` (the settings), :mod:`.network` (the torch network and
its numpy copy for the ``alphazero`` policy, :mod:`mancala_marl.agents.alphazero`), :mod:`.replay`
(the buffer), :mod:`.selfplay` (the games and their targets), :mod:`.trainer` (the fit, the
evaluations and the loop). Torch is imported inside the functions that need it, so importing this
package (as the command line does for its help) loads no torch.

``--backend jax`` trains the same network on the accelerators, with mctx: :mod:`.jax` (the
``[jax]`` extra), which this package does not import.
"""

from .config import POLICY_TARGETS, AlphaZeroConfig
from .network import to_numpy_network, torch_evaluator, torch_network
from .replay import ReplayBuffer
from .selfplay import completed_q_target, random_opening, self_play
from .trainer import RESUMABLE, evaluate, fit, train

__all__ = ["POLICY_TARGETS", "RESUMABLE", "AlphaZeroConfig", "ReplayBuffer", "completed_q_target", "evaluate", "fit",
           "random_opening", "self_play", "to_numpy_network", "torch_evaluator", "torch_network", "train"]
