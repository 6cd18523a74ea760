"""Matches as a library: two policies in both seats (``arena``), round robins with ratings
(``tournament``), grading against perfect play (``grading``), a trained model against the
baselines (``evaluation``), a person against a policy in the terminal (``play``), the
narration of a move, replayed seed by seed with what it did named (``narration``), and the
interval of a win rate (``stats``).

Needs only the core install; the command line (``mancala_marl.cli``) and the web app
(``mancala_marl.serve``) are built on it.
"""
