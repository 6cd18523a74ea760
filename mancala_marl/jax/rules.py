"""The record each JAX rules file fills in: pure functions over one unbatched flat state.

The flat state is the numba engine's own int32 array (mancala_marl/games/base.py): pits, stores,
TO_MOVE at index 2P+2 (-1 once the game is over), then the game's own slots. The environment
vmaps these functions; none may branch in Python on a traced value.
"""
from __future__ import annotations

from typing import Callable, NamedTuple, Optional


class Rules(NamedTuple):
    apply: Callable
    """(flat int32[state_size], pit int32[]) -> flat: the move, assumed legal. Sets TO_MOVE to the
    next player (the same one on an extra turn or a pass) or -1 at the end, with the board swept
    exactly as the numba kernel does."""
    legal: Callable
    """flat -> bool[pits]; all False once the game is over (the same as legal_kernel)."""
    extra_obs: Optional[Callable]
    """(flat, player int32[]) -> float32[pits * game.extra_features]: what the numba
    extra_obs_kernel writes (Togyz Kumalak's tuzduk flags), or None for games without extras."""
