"""A game's settings as declared options (name, description, default, range or choices): a game's
``settings`` module lists them and is the one place that checks them; the cogs read their slash
options from it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.i18n.speaking import plural
from bot.tables.options import Option

__all__ = ["STAKE", "WITH", "Option", "descriptions", "span", "suggestions"]


# Every start command's stake: the table's chips, not any game's rule.
STAKE: Option[int] = Option(
    "stake",
    "Chips each player puts in the pot (default 0: no stake, bot players allowed)",
    default=0,
    low=0,
    high=1_000_000_000,
)


# Every start command's invitations: members named by mention get a seat held for them.
# Named ``with_`` in Python (``with`` is a keyword); the commands rename it ``with``.
WITH: Option[str | None] = Option(
    "with_",
    "Members to invite by mention (@Ana @Bo): each is pinged and a seat is held for them",
    default=None,
)


def descriptions(options: Iterable[Option[Any]]) -> dict[str, str]:
    """Option name -> its description, for ``app_commands.describe``."""
    return {option.name: option.description for option in options}


def span(*options: Option[Any]) -> tuple[int, int]:
    """The range that holds every one of these number options' ranges."""
    lows = [o.low for o in options if o.low is not None]
    highs = [o.high for o in options if o.high is not None]
    if len(lows) != len(options) or len(highs) != len(options):
        raise ValueError("span needs options with a range")
    return min(lows), max(highs)


def suggestions(
    option: Option[Any], offers: Iterable[int], typed: str, default: int | None
) -> list[tuple[str, int]]:
    """What a number option's picker offers: the offers that start with what was typed,
    led by the typed number itself when the option allows it; (name, value) pairs."""
    shown = [value for value in offers if str(value).startswith(typed)]
    if typed.isdigit() and option.allows(int(typed)) and int(typed) not in shown:
        shown.insert(0, int(typed))
    return [
        (
            plural("%(count)s point (default)", "%(count)s points (default)", value)
            if value == default
            else plural("%(count)s point", "%(count)s points", value),
            value,
        )
        for value in shown
        if option.allows(value)
    ][:25]
