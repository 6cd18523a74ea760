"""``togyz_kumalak_v0``: TogyzKumalak as a PettingZoo AEC environment (rules: :mod:`mancala_marl.games.togyz_kumalak`).

``env(**kwargs)`` is the raw environment with PettingZoo's standard classic wrappers;
``raw_env(**kwargs)`` is the bare one. Keyword arguments are the rule parameters below plus
``obs_type``, ``reward``, ``max_moves`` and ``render_mode`` (see :class:`mancala_marl.env.MancalaEnv`).
"""

from .env import MancalaEnv, wrap
from .games import TogyzKumalak


class raw_env(MancalaEnv):
    metadata = {**MancalaEnv.metadata, "name": "togyz_kumalak_v0"}

    def __init__(self, holes=9, balls=9, stop_at_majority=True, **env_kwargs):
        super().__init__(TogyzKumalak(holes=holes, balls=balls, stop_at_majority=stop_at_majority), **env_kwargs)


def env(**kwargs):
    return wrap(raw_env(**kwargs))
