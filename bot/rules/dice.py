"""Where dice come from: injected, so production uses the OS's randomness and tests script it."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Protocol


class DiceSource(Protocol):
    def roll(self, n: int) -> tuple[int, ...]:
        """Throw ``n`` six-sided dice."""
        ...


class RandomDice:
    """Dice from a ``random.Random``: ``SystemRandom()`` in production, a seeded one in tests."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def roll(self, n: int) -> tuple[int, ...]:
        return tuple(self.rng.randint(1, 6) for _ in range(n))


class ScriptedDice:
    """Dice that fall exactly as a test says, throw by throw."""

    def __init__(self, throws: Iterable[Sequence[int]]) -> None:
        self._throws = [tuple(t) for t in throws]
        self.thrown: list[tuple[int, ...]] = []

    def roll(self, n: int) -> tuple[int, ...]:
        if not self._throws:
            raise AssertionError(f"scripted dice ran out (asked for {n} dice)")
        throw = self._throws.pop(0)
        if len(throw) != n:
            raise AssertionError(f"scripted throw {throw} has {len(throw)} dice, asked for {n}")
        if any(not 1 <= face <= 6 for face in throw):
            raise AssertionError(f"scripted throw {throw} has a face outside 1-6")
        self.thrown.append(throw)
        return throw

    @property
    def remaining(self) -> int:
        return len(self._throws)


class NoDice:
    """Dice for a step that throws none (a lock); a throw would be a bug."""

    def roll(self, n: int) -> tuple[int, ...]:
        raise AssertionError("this step throws no dice")
