"""The ``rules`` observation of the two-row family: the board and a fixed-length encoding of the
rule set, so that one network can play any game of the family.

The board as the observer sees it, padded to :data:`RULES_HOLES` holes a row: its own holes (from
its left end), its store, the opponent's holes, the opponent's store, each row's holes past its
own left 0. Then every parameter of the family (:data:`~mancala_marl.games.family_space.PARAMETERS`)
in its declared order: a choice as a one-hot over its choices, a bool as 0 or 1, a number scaled
into [0, 1] (holes by 16, seeds by 10, the other counts by 8, clipped at 1; -1, "never", as 0);
then the game's seeds scaled by 160, and 1 where a move names its way. The same length for every
rule set of at most 16 holes a side, so rows of different games batch; the kernel reads the rules
from ``spec`` as every kernel does, and the JAX mixed environment writes the same numbers.
"""

from __future__ import annotations

import numpy as np

from .._compile import kernel
from .base import SPEC_PITS, SPEC_SEEDS, action_count, spec_index
from .family_space import PARAMETERS, Spec
from .family_start import start_total

RULES_HOLES = 16  # holes a row in the encoding: every named game fits
SCALES = {"holes": 16.0, "seeds": 10.0}
COUNT_SCALE = 8.0  # every other number of the family: counts of seeds, holes or turns
TOTAL_SCALE = 160.0  # the seeds of a game: 2 * 8 holes * 10 seeds
CHOICE, SWITCH, NUMBER = 0, 1, 2
# each parameter: where the spec holds it, how it is encoded, its width and its scale
SPEC_AT = np.array([spec_index(PARAMETERS, param.name) for param in PARAMETERS], np.int64)
KINDS = np.array([CHOICE if param.choices else SWITCH if param.type is bool else NUMBER for param in PARAMETERS],
                 np.int64)
WIDTHS = np.array([len(param.choices) if param.choices else 1 for param in PARAMETERS], np.int64)
SCALE = np.array([SCALES.get(param.name, COUNT_SCALE) for param in PARAMETERS], np.float64)
RULES_LENGTH = int(WIDTHS.sum()) + 2
BOARD_LENGTH = 2 * RULES_HOLES + 2


def rules_length() -> int:
    """The rules' encoding's length (after the board's :data:`BOARD_LENGTH`), the same for every rule set."""
    return RULES_LENGTH


@kernel
def rules_features(spec, out):
    """The rule set of ``spec`` encoded into ``out`` (float32[RULES_LENGTH])."""
    o = 0
    for k in range(SPEC_AT.shape[0]):
        code = spec[SPEC_AT[k]]
        if KINDS[k] == CHOICE:
            for j in range(WIDTHS[k]):
                out[o + j] = 1.0 if j == code else 0.0
        elif KINDS[k] == SWITCH:
            out[o] = 1.0 if code != 0 else 0.0
        else:
            out[o] = min(max(code, 0) / SCALE[k], 1.0)
        o += WIDTHS[k]
    out[o] = min(start_total(spec[Spec.START], spec[SPEC_PITS], spec[SPEC_SEEDS]) / TOTAL_SCALE, 1.0)
    out[o + 1] = 1.0 if action_count(spec) > spec[SPEC_PITS] else 0.0


@kernel
def rules_observation(state, player, spec, obs_id, out):
    """The family's ``rules`` observation of ``state`` for ``player`` (its only encoding of its own)."""
    holes = spec[SPEC_PITS]
    for side in range(2):
        row = (player + side) % 2
        first, at = row * (holes + 1), side * (RULES_HOLES + 1)
        for h in range(RULES_HOLES):
            out[at + h] = state[first + h] if h < holes else 0.0
        out[at + RULES_HOLES] = state[first + holes]
    rules_features(spec, out[BOARD_LENGTH:])


def encode_rules(game) -> np.ndarray:
    """The rules of the family game ``game`` as float32[rules_length()]: the observation's tail."""
    out = np.zeros(RULES_LENGTH, np.float32)
    rules_features(game.spec, out)
    return out
