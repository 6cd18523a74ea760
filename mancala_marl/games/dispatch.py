"""The move of any variant, picked by ``spec[SPEC_GAME]``: what the batch engine and the search
call when one compiled function must serve every game."""


from .._compile import kernel
from . import kalah, sungka, togyz_kumalak
from .base import KALAH, SPEC_GAME, SUNGKA


@kernel
def apply_move(state, pit, spec):
    """Play ``pit`` on ``state`` in place with the game's own kernel (no legality check)."""
    game = spec[SPEC_GAME]
    if game == KALAH:
        kalah.apply_move(state, pit, spec)
    elif game == SUNGKA:
        sungka.apply_move(state, pit, spec)
    else:
        togyz_kumalak.apply_move(state, pit, spec)
