"""Training: Stable-Baselines3 runs against fixed opponents and in self-play (``training``,
``vector_env``, ``selfplay``, ``callbacks``), distillation (``distill``), AlphaZero (``alphazero``)
and the run lifecycle they share (``runs``).

Needs the ``[train]`` extra (torch, Stable-Baselines3, sb3-contrib), and says so in one line when
it is missing; matches and the command line (``mancala_marl.matches``, ``mancala_marl.cli``) need
only the core install.
"""

from mancala_marl._compile import drop_stale_cache

# The vectorized env's kernels call the rules, the encoders and the policies' kernels.
drop_stale_cache(__name__, depends_on=("mancala_marl", "mancala_marl.games", "mancala_marl.agents"))
