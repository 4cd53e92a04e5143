"""The one error path: a ``UserError`` is shown to the user who caused it as a short private reply;
any other exception is logged and answered with an apology. Pure: the rules core imports it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

# The words of error codes (a template of named fields, or a function of the values): a
# game's logic half raises codes, its presentation adds the words (``add_texts``).
ErrorText = str | Callable[..., str]
_TEXTS: dict[str, ErrorText] = {}


def add_texts(texts: Mapping[str, ErrorText]) -> None:
    """Give the words of these error codes (a presentation module, once, at import)."""
    _TEXTS.update(texts)


class UserError(Exception):
    """An error caused by what a user did, shown to them privately: raised with its words, or from a
    game's logic half with a ``code`` and values that its presentation's texts word."""

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
    """The database could not be reached for longer than an operation waits; the operation went
    through whole or not at all, so trying again is safe. Not a ``UserError``: the user is asked to
    retry."""
