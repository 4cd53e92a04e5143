"""``/privacy``: what the bot stores about a member, and how to have it deleted."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import SequencesBot
from bot.i18n.speaking import N_, _
from bot.render.common import COLOUR

# TRANSLATORS: /privacy; keep `python -m bot forget %(user_id)s` as it is (a command).
PRIVACY_TEXT = N_(
    "**What this bot stores about you, per server:** your display name as last seen; the "
    "games you sat at (your seat, your moves, the dice and cards you drew, your results); "
    "your chips and every change to them; your statistics and skill rating; where your turn "
    "reminders go (`/notify`).\n"
    "**What it does not store:** your messages, your DMs, or anything outside its games. "
    "Private hands are shown only to you and never logged.\n"
    "**Deletion:** ask the person who runs this bot to run `python -m bot forget %(user_id)s`. "
    "Your id and names are then replaced by *Deleted member* everywhere; the numbers stay so "
    "other players' results and the chip totals still add up."
)


class Privacy(commands.Cog):
    def __init__(self, bot: SequencesBot) -> None:
        self.bot = bot

    @app_commands.command(name="privacy", description="What the bot stores about you")
    async def privacy(self, interaction: discord.Interaction[SequencesBot]) -> None:
        embed = discord.Embed(
            title=_("Privacy"),
            description=_(PRIVACY_TEXT, user_id=interaction.user.id),
            colour=COLOUR,
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: SequencesBot) -> None:
    await bot.add_cog(Privacy(bot))
