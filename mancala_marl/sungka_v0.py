"""``sungka_v0``: Sungka as a PettingZoo AEC environment (rules: :mod:`mancala_marl.games.sungka`).

``env(**kwargs)`` is the raw environment with PettingZoo's standard classic wrappers;
``raw_env(**kwargs)`` is the bare one. Keyword arguments are the rule parameters below plus
``obs_type``, ``reward``, ``max_moves`` and ``render_mode`` (see :class:`mancala_marl.env.MancalaEnv`).
"""

from .env import MancalaEnv, wrap
from .games import Sungka


class raw_env(MancalaEnv):
    metadata = {**MancalaEnv.metadata, "name": "sungka_v0"}

    def __init__(self, houses=7, stones=7, sunog_needs_opposite=False, **env_kwargs):
        super().__init__(Sungka(houses=houses, stones=stones, sunog_needs_opposite=sunog_needs_opposite), **env_kwargs)


def env(**kwargs):
    return wrap(raw_env(**kwargs))
