"""The exact odds as players read them (``/odds`` and its Full table button): what an
answer holds, and numbers in words. Each dice game's package says what its odds are
(``bot/games/<name>/odds.py``); this module knows no game's rules."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

# The longest line a player's answer may hold: an embed on a phone shows about 45-50
# characters a line, and a table whose lines wrap cannot be read as a table.
PHONE_LINE = 46


@dataclass(frozen=True)
class PlayerOdds:
    """What ``/odds`` shows: the plain advice and the chance that matters, then (behind a
    button) the full table in words. Every line fits ``PHONE_LINE``."""

    summary: tuple[str, ...]
    table: tuple[str, ...]


def num(x: Fraction, digits: int = 2) -> str:
    """A figure as a player reads it: 1.26, 5, 17.3 (three significant figures or so)."""
    value = float(x)
    if value == int(value):
        return str(int(value))
    return f"{value:.1f}" if value >= 10 else f"{value:.{digits}f}"


def percent(x: Fraction) -> str:
    return f"{float(x) * 100:.1f} %"


def dice(count: int) -> str:
    return f"{count} {'die' if count == 1 else 'dice'}"


def chance(p: Fraction) -> str:
    """A probability too small for one decimal of a percentage reads as "1 in N"."""
    if 0 < p < Fraction(1, 1000):
        return f"1 in {round(1 / p):,}"
    return percent(p)
