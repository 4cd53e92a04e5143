"""``/leaderboard``: games played and won per member, per game."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import SequencesBot
from bot.render.common import COLOUR
from bot.store import games

GAME_CHOICES = [
    app_commands.Choice(name="Sequences (all variants)", value="sequences"),
    app_commands.Choice(name="Sequences: standard", value="sequences:standard"),
    app_commands.Choice(name="Sequences: reverse", value="sequences:reverse"),
    app_commands.Choice(name="Sequences: team", value="sequences:team"),
    app_commands.Choice(name="Sequences: sudden", value="sequences:sudden"),
    app_commands.Choice(name="Sequences: extended", value="sequences:extended"),
]


class Leaderboard(commands.Cog):
    def __init__(self, bot: SequencesBot) -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard", description="Who wins most on this server")
    @app_commands.describe(game="Which game (default: Sequences, all variants)")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(
        self, interaction: discord.Interaction[SequencesBot], game: str = "sequences"
    ) -> None:
        assert interaction.guild_id is not None
        rows = await games.simple_leaderboard(self.bot.db, interaction.guild_id, game, limit=10)
        label = next((c.name for c in GAME_CHOICES if c.value == game), game)
        if not rows:
            text = "No finished games yet. Start one with `/sequences start`!"
        else:
            lines = []
            for i, r in enumerate(rows, 1):
                rate = 100 * r.wins / r.games if r.games else 0
                lines.append(
                    f"`{i:>2}.` **{discord.utils.escape_markdown(r.name)}** — "
                    f"{r.wins} won / {r.games} played ({rate:.0f} %) · best turn "
                    f"{r.best_turn}"
                )
            text = "\n".join(lines)
        embed = discord.Embed(title=f"Leaderboard · {label}", description=text, colour=COLOUR)
        await interaction.response.send_message(
            embed=embed, allowed_mentions=discord.AllowedMentions.none()
        )


async def setup(bot: SequencesBot) -> None:
    await bot.add_cog(Leaderboard(bot))
