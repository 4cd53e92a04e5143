"""``/odds``: the best play of a dice game and the chances that matter; the full table
behind a button."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import SequencesBot
from bot.errors import UserError
from bot.ui.odds import GAME_KEYS, OddsButton, odds_answer

CHOICES = [
    app_commands.Choice(name="Sequences: standard (also Team)", value="standard"),
    app_commands.Choice(name="Sequences: reverse", value="reverse"),
    app_commands.Choice(name="Sequences: extended (6 dice)", value="extended"),
    app_commands.Choice(name="Sequences: sudden (exactly 21)", value="sudden"),
    app_commands.Choice(name="Sequences: classic one-roll", value="classic"),
    app_commands.Choice(name="Hearts Due", value="heartsdue"),
]


class Odds(commands.Cog):
    def __init__(self, bot: SequencesBot) -> None:
        self.bot = bot

    @app_commands.command(name="odds", description="Exact odds and best play of a dice game")
    @app_commands.describe(ruleset="Which game or variant")
    @app_commands.choices(ruleset=CHOICES)
    async def odds(
        self, interaction: discord.Interaction[SequencesBot], ruleset: str = "standard"
    ) -> None:
        if ruleset not in GAME_KEYS:
            raise UserError("Pick a game from the list.")
        embed, view = odds_answer(self.bot.shell, ruleset)
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


async def setup(bot: SequencesBot) -> None:
    bot.add_dynamic_items(OddsButton)
    await bot.add_cog(Odds(bot))
