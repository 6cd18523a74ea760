"""Each game's kernels behind one compiled function per kernel, picked by ``spec[SPEC_GAME]``:
what the batch engine, the vectorized env, the encoders and the search call when one compiled
function must serve every game.

The dispatchers are written from the registry (:data:`mancala_marl.games.GAMES`), so that a new
game needs no line here, and an id that no game has is an error, never another game's rules.
Numba compiles them into the (cached) functions that call them; a registry change changes the
sources of ``games/``, which clears those caches (:mod:`mancala_marl._compile`).
"""

from __future__ import annotations

import numba

from . import GAMES
from .base import SPEC_GAME

# dispatcher name: (the Game attribute holding each game's kernel, its arguments)
KERNELS = {
    "apply_move": ("apply_kernel", "state, pit, spec"),
    "legal_moves": ("legal_kernel", "state, spec, out"),
    "exact_move": ("exact_kernel", "state, spec, scratch"),
    "encode_extra": ("extra_obs_kernel", "state, player, spec, out"),
    "encode_custom": ("custom_obs_kernel", "state, player, spec, obs_id, out"),
}


def _dispatcher(name: str, attribute: str, args: str):
    lines = [f"def {name}({args}):", "    game = spec[SPEC_GAME]"]
    namespace = {"SPEC_GAME": SPEC_GAME}
    for cls in GAMES.values():
        namespace[f"_{cls.name}"] = getattr(cls, attribute)
        lines.append(f"    if game == {cls.game_id}:\n        return _{cls.name}({args})")
    lines.append("    raise ValueError('spec[SPEC_GAME] is the id of no registered game')")
    exec(compile("\n".join(lines), f"<mancala_marl.games.dispatch.{name}>", "exec"), namespace)
    function = namespace[name]
    function.__doc__ = f"The game's ``{attribute}`` for ``spec[SPEC_GAME]``, over every registered game."
    return numba.njit(function)


apply_move = _dispatcher("apply_move", *KERNELS["apply_move"])
legal_moves = _dispatcher("legal_moves", *KERNELS["legal_moves"])
exact_move = _dispatcher("exact_move", *KERNELS["exact_move"])
encode_extra = _dispatcher("encode_extra", *KERNELS["encode_extra"])
encode_custom = _dispatcher("encode_custom", *KERNELS["encode_custom"])
