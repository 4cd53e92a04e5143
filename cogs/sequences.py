"""``/sequences start`` and ``/sequences end``: push-your-luck Sequences, its variants, and
the classic one-roll Sequences."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.app import SequencesBot
from bot.errors import UserError
from bot.rules import pushluck as pl
from cogs.game_group import GameGroup

VARIANT_CHOICES = [
    app_commands.Choice(name="standard (5 dice, run from 1)", value="standard"),
    app_commands.Choice(name="reverse (run down from 6)", value="reverse"),
    app_commands.Choice(name="team (2 v 2)", value="team"),
    app_commands.Choice(name="sudden (first to exactly 21)", value="sudden"),
    app_commands.Choice(name="extended (6 dice, 15 for a full run)", value="extended"),
]
RULES_CHOICES = [
    app_commands.Choice(name="push-your-luck (lock, bank or push)", value="pushluck"),
    app_commands.Choice(
        name="classic (one throw of six dice a turn, race to 100)", value="classic"
    ),
]


def push_settings(
    variant: str, rounds: int | None, target: int | None, soft_last_die: bool
) -> dict[str, Any]:
    if variant not in pl.VARIANTS:
        raise UserError("Unknown variant.")
    if rounds is not None and target is not None:
        raise UserError("Choose rounds or a target score, not both.")
    if variant == "sudden":
        if rounds is not None or target is not None:
            raise UserError("Sudden has no rounds or target: the first to exactly 21 wins at once.")
    elif rounds is None and target is None:
        if variant == "team":
            target = pl.TEAM_DEFAULT_TARGET
        else:
            rounds = 5
    settings = {
        "variant": variant,
        "rounds": rounds,
        "target": target,
        "soft_last_die": soft_last_die,
    }
    # Validate now (Discord enforces ranges, but a forged request need not respect them).
    pl.PushConfig(
        variant=variant,
        rounds=rounds,
        target=target,
        soft_last_die=soft_last_die,
    )
    return settings


ONEROLL_TARGETS = (20, 1000)  # a one-roll race: at least a few rounds, at most a long evening
PUSH_TARGETS = (5, pl.MAX_TARGET)
# What the target picker offers, by rules; a typed value in range is offered first.
TARGET_OFFERS = {
    "classic": (50, 100, 150, 200, 300, 500, 1000),
    "pushluck": (10, 15, 20, 30, 50, 100),
}


def oneroll_settings(ruleset: str, target: int | None) -> dict[str, Any]:
    target = 100 if target is None else target
    low, high = ONEROLL_TARGETS
    if not low <= target <= high:
        raise UserError(f"A one-roll race needs a target of {low} to {high:,} points.")
    return {"ruleset": ruleset, "target": target}


def target_choices(rules: str, variant: str, typed: str) -> list[app_commands.Choice[int]]:
    """The targets the chosen rules accept, starting with what was typed (if accepted)."""
    if rules == "pushluck" and variant == "sudden":
        return []  # Sudden has no target: the first to exactly 21 wins
    classic = rules == "classic"
    low, high = ONEROLL_TARGETS if classic else PUSH_TARGETS
    default = 100 if classic else pl.TEAM_DEFAULT_TARGET if variant == "team" else None
    offers = [
        t for t in TARGET_OFFERS["classic" if classic else "pushluck"] if str(t).startswith(typed)
    ]
    if typed.isdigit() and low <= int(typed) <= high and int(typed) not in offers:
        offers.insert(0, int(typed))
    return [
        app_commands.Choice(name=f"{t} points" + (" (default)" if t == default else ""), value=t)
        for t in offers
        if low <= t <= high
    ][:25]


class Sequences(GameGroup, group_name="sequences", group_description="Sequences, the dice game"):
    game_keys = ("sequences:", "classic")  # push-your-luck and classic one-roll

    @app_commands.command(name="start", description="Open a table for Sequences in this channel")
    @app_commands.describe(
        variant="Which push-your-luck rules (default: standard)",
        rounds="Number of rounds (default 5); leave empty when playing to a target",
        target=(
            "Play to a score instead of rounds (push-your-luck 5-500; classic 20-1000, default 100)"
        ),
        soft_last_die="House rule: a bust on a single die keeps half the run",
        rules="push-your-luck (default) or classic one-roll Sequences",
        stake="Chips each player puts in the pot (default 0: no stake, bot players allowed)",
    )
    @app_commands.choices(variant=VARIANT_CHOICES, rules=RULES_CHOICES)
    @app_commands.guild_only()
    async def start(
        self,
        interaction: discord.Interaction[SequencesBot],
        variant: str = "standard",
        rounds: app_commands.Range[int, 1, pl.MAX_ROUNDS] | None = None,
        target: app_commands.Range[int, PUSH_TARGETS[0], ONEROLL_TARGETS[1]] | None = None,
        soft_last_die: bool = False,
        rules: str = "pushluck",
        stake: app_commands.Range[int, 0, 1_000_000_000] = 0,
    ) -> None:
        if rules == "classic":
            if variant != "standard" or rounds is not None or soft_last_die:
                raise UserError(
                    "Classic one-roll Sequences has no variants, rounds or house "
                    "rules: it is a race to the target."
                )
            await self.bot.shell.router.open_lobby(
                interaction,
                kind="oneroll",
                settings=oneroll_settings("classic", target),
                stake=stake,
            )
            return
        if rules != "pushluck":
            raise UserError("Unknown rules.")
        settings = push_settings(variant, rounds, target, soft_last_die)
        await self.bot.shell.router.open_lobby(
            interaction, kind="sequences", settings=settings, stake=stake
        )

    @start.autocomplete("target")
    async def _target(
        self, interaction: discord.Interaction[SequencesBot], current: str
    ) -> list[app_commands.Choice[int]]:
        options = interaction.namespace
        rules = str(getattr(options, "rules", None) or "pushluck")
        variant = str(getattr(options, "variant", None) or "standard")
        return target_choices(rules, variant, str(current).strip())


async def setup(bot: SequencesBot) -> None:
    await bot.add_cog(Sequences(bot))
