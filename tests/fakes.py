"""Small fakes shared by tests: a clock that moves only when told."""

from __future__ import annotations

import random


class FakeClock:
    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class ScriptedRandom:
    """A ``random.Random`` whose dice fall as scripted: ``randint`` (what dice use) returns
    the scripted faces in order, then falls back to the seeded generator. Everything else
    (shuffles, bot choices) comes from the seeded generator."""

    def __new__(cls, faces: list[int] | tuple[int, ...], seed: int = 0) -> random.Random:
        script = list(faces)

        class _Scripted(random.Random):
            def randint(self, a: int, b: int) -> int:
                if script and (a, b) == (1, 6):
                    return script.pop(0)
                return super().randint(a, b)

        rng = _Scripted(seed)
        rng.script = script  # type: ignore[attr-defined]
        return rng
