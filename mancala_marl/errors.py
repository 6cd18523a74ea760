"""The errors mancala_marl raises on purpose: a small vocabulary, caught by type, never by message.

- :class:`BadInput`: a value a caller gave is refused (a game parameter, an action, a policy spec,
  a file, a question the asked player cannot answer). The message is one line that names what was
  wrong. It is a ``ValueError``, so code written against ``ValueError`` keeps working.
- :class:`IllegalMoveError`: an action that is not legal now (a kind of bad input).
- :class:`NoExactMargins`: a perfect player that knows results (win, draw, loss) only, asked for
  final margins (a kind of bad input).
- :class:`NotSolved`: a question of perfect play not settled within a limit; ``limit`` says which
  (``"time"`` or the positions searched).
- ``mancala_marl.extras.MissingExtraError`` (an ``ImportError``): a feature needs an optional extra.

Anything else that escapes is a bug: the command line shows its traceback and exits 1, where bad
input is one line and exit 2.
"""

from __future__ import annotations


class BadInput(ValueError):
    """A value a caller gave is refused; the message names it and says what is accepted."""


class IllegalMoveError(BadInput):
    """Raised when a move is not legal in the current state (empty pit, out of range, game over,
    or a rule of the game, such as Oware's duty to feed the opponent)."""


class NoExactMargins(BadInput):
    """A perfect player of results only (Oware's, whose majority rule ends a game early) was asked
    for final margins."""


class NotSolved(TimeoutError):
    """A question of perfect play that was not settled within ``limit``: ``"time"`` (the caller's
    deadline) or a count of positions (the search's own budget)."""

    def __init__(self, limit: str, message: str | None = None):
        super().__init__(message or f"not solved within {limit}")
        self.limit = limit


__all__ = ["BadInput", "IllegalMoveError", "NoExactMargins", "NotSolved"]
