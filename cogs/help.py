"""``/rules`` and ``/help``: what the bot plays and how."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import SequencesBot
from bot.render.common import COLOUR
from bot.render.rules_text import RULES, rules_text


def _choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=title, value=key) for key, (title, _) in RULES.items()]


class Help(commands.Cog):
    def __init__(self, bot: SequencesBot) -> None:
        self.bot = bot

    @app_commands.command(name="rules", description="The rules of a game, as this bot plays them")
    @app_commands.describe(game="Which game or variant")
    @app_commands.choices(game=_choices())
    async def rules(
        self, interaction: discord.Interaction[SequencesBot], game: str = "sequences"
    ) -> None:
        title, text = rules_text(game)
        await interaction.response.send_message(
            embed=discord.Embed(title=f"Rules · {title}", description=text, colour=COLOUR),
            ephemeral=True,
        )

    @app_commands.command(name="help", description="What this bot does and its commands")
    async def help(self, interaction: discord.Interaction[SequencesBot]) -> None:
        lines = []
        for command in sorted(self.bot.tree.walk_commands(), key=lambda c: c.qualified_name):
            if isinstance(command, app_commands.Command):
                lines.append(f"`/{command.qualified_name}` — {command.description}")
        embed = discord.Embed(
            title="Sequences bot",
            description="Dice and board sequence games at the table. Open a game with "
            "`/sequences start`, press **Join**, and the host presses **Start**: the game runs "
            "in a thread, with buttons.\n\n" + "\n".join(lines),
            colour=COLOUR,
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: SequencesBot) -> None:
    await bot.add_cog(Help(bot))
