"""The one-roll games' settings (classic one-roll Sequences and Hearts Due): the target,
and the one check of it (RULINGS §2)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.errors import UserError
from bot.games.options import Option, suggestions
from bot.rules import oneroll as one

DEFAULT_TARGET = 100
# A one-roll race: at least a few rounds, at most a long evening.
TARGET: Option[int | None] = Option(
    "target",
    f"Points to reach (default {DEFAULT_TARGET})",
    default=None,
    low=20,
    high=one.MAX_TARGET,
)
OPTIONS = (TARGET,)
# What the target picker offers; a typed value in range is offered first.
TARGET_OFFERS = (50, 100, 150, 200, 300, 500, 1000)
# /sequences' choice of these rules beside push-your-luck.
CLASSIC_CHOICE = (f"classic (one throw of six dice a turn, race to {DEFAULT_TARGET})", "classic")


def ruleset(settings: Mapping[str, Any]) -> one.Ruleset:
    name = settings.get("ruleset")
    if name not in one.RULESETS:
        raise UserError(code="oneroll.ruleset")
    return name  # type: ignore[no-any-return]


def target(settings: Mapping[str, Any]) -> int:
    return int(settings.get("target", DEFAULT_TARGET))


def check(settings: Mapping[str, Any]) -> None:
    """Raise ``UserError`` with what a player reads if a table can't open with these."""
    ruleset(settings)
    if not TARGET.allows(target(settings)):
        raise UserError(code="oneroll.target", low=TARGET.low, high=TARGET.high)


def from_options(name: str, target: int | None) -> dict[str, Any]:
    """The settings of a table of ruleset ``name`` opened with these options, checked."""
    settings = {"ruleset": name, "target": DEFAULT_TARGET if target is None else target}
    check(settings)
    return settings


def target_suggestions(typed: str) -> list[tuple[str, int]]:
    """What the target picker offers, starting with what was typed (if allowed)."""
    return suggestions(TARGET, TARGET_OFFERS, typed, DEFAULT_TARGET)
