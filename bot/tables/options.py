"""A declared option: its name, what the slash command says of it, its default, its range
or its choices. A pure value, so that the tables layer (a tournament's options) and each
game's ``settings`` module (``bot.games.options``) declare theirs the same way."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Option(Generic[T]):
    """One option of a game's start command. ``low``/``high``: the range Discord enforces
    (and the settings check repeats, as a forged request need not respect it);
    ``choices``: (what players see, the value) pairs."""

    name: str
    description: str
    default: T
    low: int | None = None
    high: int | None = None
    choices: tuple[tuple[str, T], ...] = ()
    # The field's label in the host's settings form (a catalogue message, ``N_``); empty:
    # the option's name as the start command shows it in the host's language.
    label: str = ""

    def allows(self, value: int) -> bool:
        """``value`` is in the option's range (an option without one allows any)."""
        low = self.low if self.low is not None else value
        high = self.high if self.high is not None else value
        return low <= value <= high
