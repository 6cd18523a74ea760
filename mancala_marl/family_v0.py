"""Family as a PettingZoo AEC environment: ``env()`` and ``raw_env`` (:func:`mancala_marl.env.entry_points`)."""
from .env import entry_points

env, raw_env = entry_points("family")
