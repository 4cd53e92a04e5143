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


def oneroll_settings(ruleset: str, target: int | None) -> dict[str, Any]:
    target = 100 if target is None else target
    if not 20 <= target <= 1000:
        raise UserError("The target must be between 20 and 1000.")
    return {"ruleset": ruleset, "target": target}


class Sequences(GameGroup, group_name="sequences", group_description="Sequences, the dice game"):
    @app_commands.command(name="start", description="Open a table for Sequences in this channel")
    @app_commands.describe(
        variant="Which push-your-luck rules (default: standard)",
        rounds="Number of rounds (default 5); leave empty when playing to a target",
        target="Play to a target score instead of rounds (classic: default 100)",
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
        target: app_commands.Range[int, 5, 1000] | None = None,
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


async def setup(bot: SequencesBot) -> None:
    await bot.add_cog(Sequences(bot))
