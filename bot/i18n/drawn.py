"""A class attribute whose words are made each time it is read (``Drawn``), so they are in
the language of the message being drawn: a game's ``rules_pages`` or ``bot_level_texts``,
read by the shell as plain values, translated paragraph by paragraph by the game's own
presentation instead of as one constant.

Pure: no Discord, no storage."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class Drawn(Generic[T]):
    """``rules_pages = Drawn(rules_pages)``: reading ``game.rules_pages`` calls
    ``rules_pages()`` then, inside the reader's ``speaking`` block."""

    def __init__(self, make: Callable[[], T]) -> None:
        self.make = make

    def __get__(self, instance: object, owner: Any = None) -> T:
        return self.make()
