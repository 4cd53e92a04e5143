"""A class attribute whose words are made each time it is read (``Drawn``), so they are in the
language of the message being drawn. Pure."""

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
