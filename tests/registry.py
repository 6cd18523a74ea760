"""What the generic tests iterate over, derived from the game registry: every registered game
with its default rules and the example parameters its rules file declares, and a hypothesis
strategy over every game's parameters."""

from hypothesis import strategies as st

from mancala_marl.games import GAMES

NAMES = list(GAMES)
DEFAULTS = [cls() for cls in GAMES.values()]
EXAMPLES = [cls(**params) for cls in GAMES.values() for params in cls.examples]
GAME_STRATEGY = st.one_of(*(cls.param_strategy(st).map(lambda params, cls=cls: cls(**params))
                            for cls in GAMES.values()))
