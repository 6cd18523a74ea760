"""Mancala-family board games (Kalah, Sungka, Togyz Kumalak) for multi-agent reinforcement learning.

Environments: ``mancala_marl.kalah_v0.env()``, ``sungka_v0.env()``, ``togyz_kumalak_v0.env()``
(PettingZoo AEC). Rules without any RL framework: :mod:`mancala_marl.games`. Policies:
:mod:`mancala_marl.agents`; training and the command line: :mod:`mancala_marl.train`
(``pip install 'mancala-marl[train]'`` for the learning parts).
"""

from importlib.metadata import PackageNotFoundError, version

from ._compile import drop_stale_cache

try:
    __version__ = version("mancala-marl")
except PackageNotFoundError:  # a source tree on sys.path that was never installed
    __version__ = "0+unknown"

drop_stale_cache(__name__, depends_on=("mancala_marl.games",))  # before batch/vector kernels load

# ruff: noqa: E402
from . import kalah_v0, sungka_v0, togyz_kumalak_v0
from .games import GAMES, Game, IllegalMoveError, make_game

# Environment modules by game name, for code that picks a game from a string.
ENV_MODULES = {"kalah": kalah_v0, "sungka": sungka_v0, "togyz_kumalak": togyz_kumalak_v0}


def _register_with_pettingzoo() -> None:
    try:
        from pettingzoo import register
    except ImportError:  # PettingZoo before 1.26 has no registry
        return
    for module in ENV_MODULES.values():
        register("aec", f"mancala_marl/{module.__name__.rsplit('.', 1)[1]}", entry_point=f"{module.__name__}:env")


_register_with_pettingzoo()

from .single_agent import register_envs as _register_gymnasium_envs

_register_gymnasium_envs()  # gymnasium.make("mancala_marl/Sungka-v0", opponent="max", seat="second")

__all__ = ["ENV_MODULES", "GAMES", "Game", "IllegalMoveError", "kalah_v0", "make_game", "sungka_v0",
           "togyz_kumalak_v0", "__version__"]
