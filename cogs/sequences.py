"""``/sequences start`` and ``/sequences end``: push-your-luck Sequences and its variants."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import SequencesBot
from bot.errors import UserError
from bot.rules import pushluck as pl

VARIANT_CHOICES = [
    app_commands.Choice(name="standard (5 dice, run from 1)", value="standard"),
    app_commands.Choice(name="reverse (run down from 6)", value="reverse"),
    app_commands.Choice(name="team (2 v 2)", value="team"),
    app_commands.Choice(name="sudden (first to exactly 21)", value="sudden"),
    app_commands.Choice(name="extended (6 dice, 15 for a full run)", value="extended"),
]


def push_settings(
    variant: str, rounds: int | None, target: int | None, soft_last_die: bool
) -> dict[str, Any]:
    if variant not in pl.VARIANTS:
        raise UserError("Unknown variant.")
    if rounds is not None and target is not None:
        raise UserError("Choose rounds or a target score, not both.")
    if variant == "sudden":
        rounds = target = None
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
    pl.PushConfig(
        variant=variant,
        rounds=rounds,
        target=target,
        soft_last_die=soft_last_die,
    )
    return settings


class Sequences(
    commands.GroupCog,
    group_name="sequences",
    group_description="Sequences, the push-your-luck dice game",
):
    def __init__(self, bot: SequencesBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="start", description="Open a table for Sequences in this channel")
    @app_commands.describe(
        variant="Which rules (default: standard)",
        rounds="Number of rounds (default 5); leave empty when playing to a target",
        target="Play to a target score instead of rounds",
        soft_last_die="House rule: a bust on a single die keeps half the run",
        stake="Chips each player puts in the pot (default 0: no stake, bot players allowed)",
    )
    @app_commands.choices(variant=VARIANT_CHOICES)
    @app_commands.guild_only()
    async def start(
        self,
        interaction: discord.Interaction[SequencesBot],
        variant: str = "standard",
        rounds: app_commands.Range[int, 1, pl.MAX_ROUNDS] | None = None,
        target: app_commands.Range[int, 5, pl.MAX_TARGET] | None = None,
        soft_last_die: bool = False,
        stake: app_commands.Range[int, 0, 1_000_000_000] = 0,
    ) -> None:
        settings = push_settings(variant, rounds, target, soft_last_die)
        await self.bot.presenter.open_lobby(
            interaction, kind="sequences", settings=settings, stake=stake
        )

    @app_commands.command(name="end", description="End a running game (host or Manage Server)")
    @app_commands.describe(game="The game number, if several run in this channel")
    @app_commands.guild_only()
    async def end(
        self,
        interaction: discord.Interaction[SequencesBot],
        game: app_commands.Range[int, 1] | None = None,
    ) -> None:
        await self.bot.presenter.end_game(interaction, game)


async def setup(bot: SequencesBot) -> None:
    await bot.add_cog(Sequences(bot))
