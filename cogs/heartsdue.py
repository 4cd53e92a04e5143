"""``/heartsdue start`` and ``/heartsdue end``: Hearts Due, the one-roll race to 100. Its
options and their check are the one-roll games' (``bot.games.oneroll.settings``)."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.app import SequencesBot
from bot.games.oneroll import settings as options
from bot.games.oneroll.settings import TARGET
from bot.games.options import STAKE, WITH
from bot.ui.anywhere import anywhere
from bot.ui.options import describe
from cogs.game_group import GameGroup


@anywhere  # a one-roll race fits a DM or a group chat (bot.ui.anywhere)
class HeartsDue(
    GameGroup, group_name="heartsdue", group_description="Hearts Due, the one-roll dice race"
):
    game_keys = ("heartsdue",)

    @app_commands.command(name="start", description="Open a table for Hearts Due here")
    @describe(*options.OPTIONS, STAKE, WITH)
    @app_commands.rename(with_="with")
    async def start(
        self,
        interaction: discord.Interaction[SequencesBot],
        target: app_commands.Range[int, TARGET.low, TARGET.high] | None = TARGET.default,
        stake: app_commands.Range[int, STAKE.low, STAKE.high] = STAKE.default,
        with_: str | None = WITH.default,
    ) -> None:
        await self.bot.shell.router.open_lobby(
            interaction,
            kind="oneroll",
            settings=options.from_options("heartsdue", target),
            stake=stake,
            invite=with_,
        )


async def setup(bot: SequencesBot) -> None:
    await bot.add_cog(HeartsDue(bot))
