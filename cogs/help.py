"""``/rules`` and ``/help``: what the bot plays and how."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import SequencesBot
from bot.errors import UserError
from bot.games.base import Game, RulesPage
from bot.render.common import COLOUR

# What every game shares (RULINGS §4), after the games' own pages in /rules.
TABLE_RULES = RulesPage(
    "tables",
    "Turns, timers, forfeits and ending early",
    "• Only the player to move can press the turn buttons. Every turn has a timer (3 minutes "
    "unless the server changes it); when it runs out the bot plays that turn for you.\n"
    "• **Forfeit**: three missed turns in a row, or **Resign** (the button on the turn "
    "message, or `/<game> resign`, both asking to confirm), and your seat plays no more and "
    "ranks last. The game goes on among the others; when one side is left it wins at once "
    "and takes the pot. A forfeited seat's stake stays in the pot.\n"
    "• With no player left (or every one away), the game is abandoned: no result, no rating "
    "change, every stake refunded.\n"
    "• **Ending early** (`/<game> end`): Manage Server can end any game (stakes refunded). The "
    "host can end an unstaked game; a staked one only when everyone else still playing "
    "presses **Agree to end** within 2 minutes.\n"
    "• Games with bot players count for games and wins but do not move ratings.",
)


class Help(commands.Cog):
    def __init__(self, bot: SequencesBot) -> None:
        self.bot = bot

    @app_commands.command(name="rules", description="The rules of a game, as this bot plays them")
    @app_commands.describe(game="Which game or variant")
    async def rules(
        self, interaction: discord.Interaction[SequencesBot], game: str | None = None
    ) -> None:
        pages: list[tuple[Game[Any] | None, RulesPage]] = [
            (g, p) for g in self.bot.games.values() for p in g.rules_pages
        ]
        pages.append((None, TABLE_RULES))
        wanted = (game or pages[0][1].key).strip().casefold()
        found = next(
            ((g, p) for g, p in pages if wanted in (p.key.casefold(), p.title.casefold())), None
        )
        if found is None:
            raise UserError("Pick a game from the list.")
        owner, page = found
        embed = discord.Embed(title=f"Rules · {page.title}", description=page.text, colour=COLOUR)
        if owner is not None and owner.bot_levels:  # the lobby lists them; here is how each plays
            embed.add_field(
                name="Bot players",
                value="\n".join(f"**{lv}**: {text}" for lv, text in owner.bot_levels.items()),
                inline=False,
            )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @rules.autocomplete("game")
    async def _rules_game(
        self, interaction: discord.Interaction[SequencesBot], current: str
    ) -> list[app_commands.Choice[str]]:
        text = current.casefold()
        return [
            app_commands.Choice(name=page.title, value=page.key)
            for page in [*self.bot.games.rules_pages, TABLE_RULES]
            if text in page.key.casefold() or text in page.title.casefold()
        ][:25]

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
