"""The exact odds as players read them (``/odds`` and its Full table button): what an
answer holds, and numbers in words. Each dice game's package says what its odds are
(``bot/games/<name>/odds.py``); this module knows no game's rules."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from babel.numbers import format_decimal

from bot.i18n.speaking import _, current, number, plural

# The longest table line: a phone's embed shows about 45-50 characters, and a wrapped table
# cannot be read (prose is left to wrap).
PHONE_LINE = 46


@dataclass(frozen=True)
class PlayerOdds:
    """What ``/odds`` shows: the plain advice and the chance that matters, then (behind a
    button) the full table in words. A line is a heading, a whole sentence (never broken
    by hand: Discord wraps it) or, in the table, a figure within ``PHONE_LINE``."""

    summary: tuple[str, ...]
    table: tuple[str, ...]


def num(x: Fraction, digits: int = 2) -> str:
    """A figure as a player reads it: 1.26, 5, 17.3 (three significant figures or so)."""
    value = float(x)
    if value == int(value):
        return number(int(value))
    return _decimal(value, 1 if value >= 10 else digits)


def _decimal(value: float, digits: int) -> str:
    """``value`` with ``digits`` decimals, written the reader's way (1.26, 1,26)."""
    return format_decimal(value, format="#,##0." + "0" * digits, locale=current().babel)


def percent(x: Fraction) -> str:
    # TRANSLATORS: a percentage; %(value)s is the number, e.g. "17.3 %".
    return _("%(value)s %%", value=_decimal(float(x) * 100, 1))


def dice(count: int) -> str:
    return plural("%(count)s die", "%(count)s dice", count)


def chance(p: Fraction) -> str:
    """A probability too small for one decimal of a percentage reads as "1 in N"."""
    if 0 < p < Fraction(1, 1000):
        # TRANSLATORS: a small chance, e.g. "1 in 7,776".
        return _("1 in %(count)s", count=number(round(1 / p)))
    return percent(p)
