"""The one error path: every error a user can cause is a ``UserError``.

Anything raised as a ``UserError`` (or a subclass) is shown to the user who caused it as a
short private reply; every other exception is logged with context and answered with an
apology. Pure module: the rules core imports it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

# The words of error codes: code -> a template of named fields ("{seats}"), or a function of
# the error's values. A game's logic half raises codes and values; its presentation gives
# the words (``add_texts``), so that the words of every game live in one place.
ErrorText = str | Callable[..., str]
_TEXTS: dict[str, ErrorText] = {}


def add_texts(texts: Mapping[str, ErrorText]) -> None:
    """Give the words of these error codes (a presentation module, once, at import)."""
    _TEXTS.update(texts)


class UserError(Exception):
    """An error caused by what a user did; ``str(error)`` is shown to them privately.

    Raised with its words (``UserError("Join the table first.")``), or, from a game's logic
    half, with a ``code`` and values only (``UserError(code="board.teams", teams=4)``):
    ``str`` then words it from the texts its presentation added."""

    def __init__(self, *args: object, code: str | None = None, **values: Any) -> None:
        super().__init__(*args)
        self.code = code
        self.values = values

    def __str__(self) -> str:
        if self.code is None:
            return super().__str__()
        text = _TEXTS.get(self.code)
        if text is None:  # no presentation loaded: the code and values, never nothing
            return f"{self.code} {self.values}"
        return text(**self.values) if callable(text) else text.format(**self.values)


class IllegalAction(UserError):
    """A game action the rules do not allow in the current state."""


class StaleAction(UserError):
    """A click on a button from a turn, throw or game that has moved on."""


class NotYourTurn(UserError):
    """A turn button pressed by someone other than the seat to move."""


class Forbidden(UserError):
    """The user lacks the role or permission the action needs."""


class DatabaseUnavailable(Exception):
    """The database server could not be reached, or dropped the connection, for longer than
    an operation waits (a restart, a failover, a proxy's idle timeout). The operation did not
    go through, or (its COMMIT's answer lost) went through whole: never half of it, so
    trying again is safe. Not a ``UserError``: the user is asked to try again, and the
    operator sees one warning line."""
