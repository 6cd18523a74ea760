"""Training, evaluation and the ``mancala-marl`` command line.

The command line and the arena need only the core install; training, distillation, plots and
learned policies need the ``[train]`` extra (torch, Stable-Baselines3, sb3-contrib), and say so in
one line when it is missing.
"""
