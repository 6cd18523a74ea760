"""Training, evaluation and the ``mancala-marl`` command line.

The command line and the arena need only the core install; training, distillation, plots and
learned policies need the ``[train]`` extra (torch, Stable-Baselines3, sb3-contrib), and say so in
one line when it is missing.
"""

from mancala_marl._compile import drop_stale_cache

# The vectorized env's kernels call the rules, the encoders and the policies' kernels.
drop_stale_cache(__name__, depends_on=("mancala_marl", "mancala_marl.games", "mancala_marl.agents"))
