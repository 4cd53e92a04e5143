"""``/odds``: the exact odds and best play of a dice ruleset, as tables."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import SequencesBot
from bot.errors import UserError
from bot.render import odds_text
from bot.render.common import COLOUR

CHOICES = [
    app_commands.Choice(name="Sequences: standard (also Team)", value="standard"),
    app_commands.Choice(name="Sequences: reverse", value="reverse"),
    app_commands.Choice(name="Sequences: extended (6 dice)", value="extended"),
    app_commands.Choice(name="Sequences: sudden (exactly 21)", value="sudden"),
    app_commands.Choice(name="Sequences: classic one-roll", value="classic"),
    app_commands.Choice(name="Hearts Due", value="heartsdue"),
]
INTRO = {
    "standard": "Push a lone 1, bank anything from 2 up, never take the bonus throw.",
    "reverse": "The same numbers as standard, with the faces mirrored.",
    "extended": "Push 1 and 1-2, bank from 3 up.",
    "sudden": "Expected turns to reach exactly 21 from each total, and the best play.",
    "classic": "An average throw scores 4.51; 58 % of throws score nothing.",
    "heartsdue": "An average throw scores 9.33; 34 % of throws score nothing.",
}


class Odds(commands.Cog):
    def __init__(self, bot: SequencesBot) -> None:
        self.bot = bot

    @app_commands.command(name="odds", description="Exact odds and best play of a dice game")
    @app_commands.describe(ruleset="Which game or variant")
    @app_commands.choices(ruleset=CHOICES)
    async def odds(
        self, interaction: discord.Interaction[SequencesBot], ruleset: str = "standard"
    ) -> None:
        if ruleset in ("standard", "reverse", "extended"):
            text = odds_text.push_text(ruleset)  # type: ignore[arg-type]
        elif ruleset == "sudden":
            text = odds_text.sudden_text()
        elif ruleset in ("classic", "heartsdue"):
            text = odds_text.oneroll_text(ruleset)  # type: ignore[arg-type]
        else:
            raise UserError("Unknown ruleset.")
        embed = discord.Embed(
            title=f"Odds · {ruleset}",
            description=f"{INTRO[ruleset]}\n```\n{text[:3900]}\n```",
            colour=COLOUR,
        )
        embed.set_footer(text="Exact figures (fractions, not simulation). docs/odds.md explains.")
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: SequencesBot) -> None:
    await bot.add_cog(Odds(bot))
