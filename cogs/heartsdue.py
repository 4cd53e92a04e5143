"""``/heartsdue start`` and ``/heartsdue end``: Hearts Due, the one-roll race to 100."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.app import SequencesBot
from cogs.game_group import GameGroup
from cogs.sequences import oneroll_settings


class HeartsDue(
    GameGroup,
    group_name="heartsdue",
    group_description="Hearts Due, the one-roll dice race",
):
    game_keys = ("heartsdue",)

    @app_commands.command(name="start", description="Open a table for Hearts Due here")
    @app_commands.describe(
        target="Points to reach (default 100)",
        stake="Chips each player puts in the pot (default 0: no stake, bot players allowed)",
    )
    @app_commands.guild_only()
    async def start(
        self,
        interaction: discord.Interaction[SequencesBot],
        target: app_commands.Range[int, 20, 1000] | None = None,
        stake: app_commands.Range[int, 0, 1_000_000_000] = 0,
    ) -> None:
        await self.bot.shell.router.open_lobby(
            interaction,
            kind="oneroll",
            settings=oneroll_settings("heartsdue", target),
            stake=stake,
        )


async def setup(bot: SequencesBot) -> None:
    await bot.add_cog(HeartsDue(bot))
