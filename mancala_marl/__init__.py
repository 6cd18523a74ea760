"""Mancala-family board games (Kalah, Sungka, Togyz Kumalak, Oware) for multi-agent reinforcement learning.

Environments: ``mancala_marl.kalah_v0.env()``, ``sungka_v0.env()``, ``togyz_kumalak_v0.env()``,
``oware_v0.env()``, one ``<game>_v0`` module per registered game (PettingZoo AEC), each a file of
three lines that :func:`mancala_marl.env.entry_points` fills in; ``make_env("dakon")`` for any game
by its name, its spec or its MancalaGames file; ``gymnasium.make("mancala_marl/Dakon-v0")`` for a
game's single-agent view. Rules without any RL framework:
:mod:`mancala_marl.games`. Policies: :mod:`mancala_marl.agents`; training and the command line:
:mod:`mancala_marl.train` (``pip install 'mancala-marl[train]'`` for the learning parts).
"""

import importlib as _importlib
from importlib import metadata as _metadata

from mancala_marl.errors import BadInput
from ._compile import drop_stale_cache

try:
    __version__ = _metadata.version("mancala-marl")
except _metadata.PackageNotFoundError:  # a source tree on sys.path that was never installed
    __version__ = "0+unknown"

drop_stale_cache(__name__, depends_on=("mancala_marl.games",))  # before batch/observation kernels load

# ruff: noqa: E402
from .games import GAMES, NAMED, VARIANTS, Game, IllegalMoveError, make_game, unknown_game
from .env import make_env


def _env_module(name: str):
    try:
        return _importlib.import_module(f".{name}_v0", __name__)
    except ModuleNotFoundError as error:
        if error.name != f"{__name__}.{name}_v0":
            raise
        raise ImportError(f"registered game {name!r} has no entry module: add mancala_marl/{name}_v0.py, "
                          f"the three lines of kalah_v0.py with {name!r} in place of 'kalah'") from None


# One PettingZoo entry module per registered game: mancala_marl.kalah_v0, ... (also as attributes).
ENV_MODULES = {name: _env_module(name) for name in GAMES}


def gym_id(name: str) -> str:
    """The Gymnasium id of a game's single-agent view, ``name`` as :func:`make_game` takes it: a
    registered game's (``"togyz_kumalak"``: ``mancala_marl/TogyzKumalak-v0``) or a traditional
    game's (``"dakon"``: ``mancala_marl/Dakon-v0``, ``"sadeqa_iii"``: ``mancala_marl/SadeqaIII-v0``)."""
    if name in GAMES:
        return f"mancala_marl/{GAMES[name].__name__}-v0"
    if name in NAMED:  # its words capitalised, a roman numeral in capitals
        words = (word.upper() if set(word) <= set("ivx") else word.capitalize() for word in name.split("_"))
        return f"mancala_marl/{''.join(words)}-v0"
    raise BadInput(unknown_game(name))


def _register() -> None:
    import gymnasium

    for name in {**GAMES, **NAMED}:  # gymnasium.make("mancala_marl/Sungka-v0", opponent="max")
        if gym_id(name) not in gymnasium.registry:
            gymnasium.register(id=gym_id(name), entry_point="mancala_marl.single_agent:SingleAgentEnv",
                               kwargs={"game": name})
    try:
        from pettingzoo import register
    except ImportError:  # PettingZoo before 1.26 has no registry
        return
    for module in ENV_MODULES.values():  # pettingzoo.make("aec", "mancala_marl/kalah_v0")
        register("aec", module.__name__.replace(".", "/"), entry_point=f"{module.__name__}:env")


_register()

__all__ = ["ENV_MODULES", "GAMES", "NAMED", "VARIANTS", "Game", "IllegalMoveError", "gym_id", "make_env", "make_game",
           "__version__",
           *(module.__name__.rsplit(".", 1)[1] for module in ENV_MODULES.values())]
