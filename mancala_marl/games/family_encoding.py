"""A fixed-length encoding of a two-row family rule set, for observations that let one network
play any game of the family (``obs_type="rules"``).

Every parameter of the family (:data:`~mancala_marl.games.family_space.PARAMETERS`) in its
declared order: a choice as a one-hot over its choices, a bool as 0 or 1, a number scaled into
[0, 1] by :data:`SCALES` (holes by 16, seeds by 10, the other counts by 8, clipped at 1; -1 for
"never" as 0). Then the game's seeds, scaled by 160, and whether a move names its way. The
length is the same for every rule set (:func:`rules_length`), so rows of different games batch.
"""

from __future__ import annotations

import numpy as np

from .family_space import PARAMETERS

SCALES = {"holes": 16.0, "seeds": 10.0}
COUNT_SCALE = 8.0  # every other number of the family: counts of seeds, holes or turns
TOTAL_SCALE = 160.0  # the seeds of a game: 2 * 8 holes * 10 seeds


def _width(param) -> int:
    return len(param.choices) if param.choices else 1


def rules_length() -> int:
    """The encoding's length, the same for every rule set."""
    return sum(_width(param) for param in PARAMETERS) + 2


def encode_rules(game) -> np.ndarray:
    """The rules of the family game ``game`` (a :class:`~mancala_marl.games.Family`) as float32[rules_length()]."""
    parts = []
    for param in PARAMETERS:
        value = game.params[param.name]
        if param.choices:
            one_hot = np.zeros(len(param.choices), np.float32)
            one_hot[param.choices.index(value)] = 1.0
            parts.append(one_hot)
        elif param.type is bool:
            parts.append(np.float32([value]))
        else:
            scale = SCALES.get(param.name, COUNT_SCALE)
            parts.append(np.float32([min(max(value, 0) / scale, 1.0)]))
    parts.append(np.float32([min(game.total_seeds / TOTAL_SCALE, 1.0), float(game.actions > game.pits)]))
    return np.concatenate(parts)
