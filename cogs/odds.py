"""``/odds``: the best play of a dice game and the chances that matter; the full table
behind a button."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import SequencesBot
from bot.errors import UserError
from bot.games.registry import Games
from bot.i18n.speaking import _
from bot.ui.anywhere import anywhere
from bot.ui.odds import OddsButton, odds_answer

# The entries each dice game declares (its package's odds.py), in the registry's order.
CHOICES = [
    app_commands.Choice(name=page.choice, value=page.key) for page in Games().odds_pages.values()
]
DEFAULT = CHOICES[0].value


class Odds(commands.Cog):
    def __init__(self, bot: SequencesBot) -> None:
        self.bot = bot

    @app_commands.command(name="odds", description="Exact odds and best play of a dice game")
    @anywhere
    @app_commands.describe(ruleset="Which game or variant")
    @app_commands.choices(ruleset=CHOICES)
    async def odds(
        self, interaction: discord.Interaction[SequencesBot], ruleset: str = DEFAULT
    ) -> None:
        if ruleset not in self.bot.shell.games.odds_pages:
            raise UserError(_("Pick a game from the list."))
        embed, view = odds_answer(self.bot.shell, ruleset)
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


async def setup(bot: SequencesBot) -> None:
    bot.add_dynamic_items(OddsButton)
    await bot.add_cog(Odds(bot))
