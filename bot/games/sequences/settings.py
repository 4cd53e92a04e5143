"""Push-your-luck Sequences' settings: its options, their defaults, and the one check of
them (RULINGS §1). The ranges are the rules' (``PushConfig``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.errors import UserError
from bot.games.options import Option, suggestions
from bot.rules import pushluck as pl

DEFAULT_ROUNDS = 5  # a game of rounds unless a target is chosen (Team plays to a target)
VARIANT: Option[str] = Option(
    "variant",
    "Which push-your-luck rules (default: standard)",
    default="standard",
    choices=(
        ("standard (5 dice, run from 1)", "standard"),
        ("reverse (run down from 6)", "reverse"),
        ("team (2 v 2)", "team"),
        (f"sudden (first to exactly {pl.SUDDEN_TARGET})", "sudden"),
        (f"extended (6 dice, {pl.EXTENDED_FULL_RUN_POINTS} for a full run)", "extended"),
    ),
)
ROUNDS: Option[int | None] = Option(
    "rounds",
    f"Number of rounds (default {DEFAULT_ROUNDS}); leave empty when playing to a target",
    default=None,
    low=1,
    high=pl.MAX_ROUNDS,
)
TARGET: Option[int | None] = Option(
    "target", "Play to a score instead of rounds", default=None, low=5, high=pl.MAX_TARGET
)
SOFT_LAST_DIE: Option[bool] = Option(
    "soft_last_die", "House rule: a bust on a single die keeps half the run", default=False
)
OPTIONS = (VARIANT, ROUNDS, TARGET, SOFT_LAST_DIE)
# What the target picker offers; a typed value in range is offered first.
TARGET_OFFERS = (10, 15, 20, 30, 50, 100)
# /sequences' choice of these rules beside the classic one-roll game.
PUSHLUCK_CHOICE = ("push-your-luck (lock, bank or push)", "pushluck")


def config(settings: Mapping[str, Any]) -> pl.PushConfig:
    return pl.PushConfig(
        variant=settings.get("variant", VARIANT.default),
        rounds=settings.get("rounds"),
        target=settings.get("target"),
        soft_last_die=bool(settings.get("soft_last_die", SOFT_LAST_DIE.default)),
    )


def check(settings: Mapping[str, Any]) -> None:
    """Raise ``UserError`` with what a player reads if a table can't open with these."""
    variant = settings.get("variant", VARIANT.default)
    rounds, target = settings.get("rounds"), settings.get("target")
    if variant not in pl.VARIANTS:
        raise UserError(code="sequences.variant")
    if rounds is not None and target is not None:
        raise UserError(code="sequences.rounds_and_target")
    if variant == "sudden" and (rounds is not None or target is not None):
        raise UserError(code="sequences.sudden_rounds", target=pl.SUDDEN_TARGET)
    config(settings)  # the ranges (a forged request need not respect Discord's)


def from_options(
    variant: str, rounds: int | None, target: int | None, soft_last_die: bool
) -> dict[str, Any]:
    """The settings of a table opened with these options, the defaults filled in, checked."""
    if variant != "sudden" and rounds is None and target is None:
        if variant == "team":
            target = pl.TEAM_DEFAULT_TARGET
        else:
            rounds = DEFAULT_ROUNDS
    settings = {
        "variant": variant,
        "rounds": rounds,
        "target": target,
        "soft_last_die": soft_last_die,
    }
    check(settings)
    return settings


def target_suggestions(variant: str, typed: str) -> list[tuple[str, int]]:
    """What the target picker offers for ``variant``, starting with what was typed (if
    allowed); Sudden has no target."""
    if variant == "sudden":
        return []
    default = pl.TEAM_DEFAULT_TARGET if variant == "team" else None
    return suggestions(TARGET, TARGET_OFFERS, typed, default)
