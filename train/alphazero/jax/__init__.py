"""AlphaZero over the JAX engines (the ``[jax]`` extra): ``mancala-marl alphazero GAME --backend jax``.

The same run as the torch backend's (:mod:`mancala_marl.train.alphazero`), on an accelerator:
thousands of self-play games at once with mctx's Gumbel MuZero search over
:class:`mancala_marl.jax.MancalaEnv` (:mod:`.selfplay`), the network and the replay buffer on the
device, spread over every local device (:mod:`.learner`), the loop, checkpoints and evaluations
(:mod:`.trainer`). The network reads exactly what the CPU ``alphazero`` policy reads and is written
as its ``.npz`` (:mod:`.network`): train on a GPU, play anywhere, with no jax at play time.
"""

from .config import JaxAlphaZeroConfig
from .network import export, feature_fn, forward, init_params
from .trainer import RESUMABLE, train

__all__ = ["RESUMABLE", "JaxAlphaZeroConfig", "export", "feature_fn", "forward", "init_params", "train"]
