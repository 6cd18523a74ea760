"""``kalah_v0``: Kalah as a PettingZoo AEC environment (rules: :mod:`mancala_marl.games.kalah`).

``env(**kwargs)`` is the raw environment with PettingZoo's standard classic wrappers;
``raw_env(**kwargs)`` is the bare one. Keyword arguments are the rule parameters below plus
``obs_type``, ``reward``, ``max_moves`` and ``render_mode`` (see :class:`mancala_marl.env.MancalaEnv`).
"""

from .env import MancalaEnv, wrap
from .games import Kalah


class raw_env(MancalaEnv):
    metadata = {**MancalaEnv.metadata, "name": "kalah_v0"}

    def __init__(self, pits=6, seeds=4, empty_capture=False, end_rule="either", **env_kwargs):
        super().__init__(Kalah(pits=pits, seeds=seeds, empty_capture=empty_capture, end_rule=end_rule), **env_kwargs)


def env(**kwargs):
    return wrap(raw_env(**kwargs))
