"""``/leaderboard`` (paginated, persistent buttons) and ``/stats`` (with a rating chart)."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import SequencesBot
from bot.errors import UserError
from bot.i18n.speaking import _
from bot.render.chart import rating_chart
from bot.render.common import NO_PINGS
from bot.render.standings import stats_embed
from bot.tables import stats
from bot.tables.names import clean_name
from bot.ui.i18n import publicly
from bot.ui.leaderboard import LeaderboardButton, render_board
from bot.ui.members import remember
from bot.ui.seasons import chosen_season, season_choices
from bot.ui.weblinks import add_link, player_path, web_address

CHART_GAMES = 30
CHART_MIN_GAMES = 3  # fewer rated games draw a dot or a line, not a story: no chart


class Stats(commands.Cog):
    def __init__(self, bot: SequencesBot) -> None:
        self.bot = bot

    async def _game_key(self, guild_id: int, text: str) -> str:
        """The leaderboard key a ``game`` option names: a key or a name the autocomplete
        shows (a registered game, or one this server has statistics for), any case."""
        games = self.bot.games
        key = games.find_key(text)
        if key is not None:
            return key
        wanted = text.strip().casefold()
        for key in await self.bot.shell.stats.game_keys(guild_id):
            if wanted in (
                key.casefold(),
                games.source_label(key).casefold(),
                games.label(key).casefold(),
            ):
                return key
        examples = ", ".join(
            _(next(iter(g.labels.values()))) for g in games.presentations() if g.labels
        )
        raise UserError(
            _(
                "There is no such game here: pick one from the list (e.g. %(examples)s).",
                examples=examples,
            )
        )

    async def _game_choices(
        self, interaction: discord.Interaction[SequencesBot], current: str
    ) -> list[app_commands.Choice[str]]:
        games = self.bot.games
        keys = set(games.labels)
        if interaction.guild_id is not None:
            keys |= set(await self.bot.shell.stats.game_keys(interaction.guild_id))
        text = current.lower()
        found = [
            app_commands.Choice(name=games.label(key), value=key)
            for key in sorted(keys)
            if text in key
            or text in games.source_label(key).lower()
            or text in games.label(key).lower()
        ]
        return found[:25]

    @app_commands.command(name="leaderboard", description="The best players of a game")
    @app_commands.describe(
        game="Which game (default: Sequences)",
        scope="This server, all servers, or quick play across servers",
        sort="Rank by rating, wins, win rate or chips won",
        season="This server's season (default: the running one) or all-time",
    )
    @app_commands.choices(
        scope=[
            app_commands.Choice(name="this server", value="server"),
            app_commands.Choice(name="all servers", value="global"),
            app_commands.Choice(name="quick play across servers", value="everywhere"),
        ],
        sort=[
            app_commands.Choice(name="rating", value="rating"),
            app_commands.Choice(name="wins", value="wins"),
            app_commands.Choice(name="win rate", value="win_rate"),
            app_commands.Choice(name="chips won", value="chips"),
        ],
    )
    @app_commands.guild_only()
    async def leaderboard(
        self,
        interaction: discord.Interaction[SequencesBot],
        game: str | None = None,
        scope: str = "server",
        sort: str = "rating",
        season: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        if interaction.guild_id is None:
            raise UserError(_("Leaderboards belong to a server: use this in a server channel."))
        if scope not in stats.SCOPES or sort not in stats.SORTS:
            raise UserError(_("Pick a scope and a sort from the list."))
        if scope == "everywhere" and season is not None:
            raise UserError(
                _(
                    "The leaderboard of quick play across servers has no seasons: leave the "
                    "season option out."
                )
            )
        chosen = await chosen_season(self.bot.shell, interaction.guild_id, season, scope)
        key = (
            await self._game_key(interaction.guild_id, game)
            if game is not None
            else next(iter(self.bot.games.labels))
        )
        await remember(self.bot.shell, interaction.guild_id, interaction.user)
        async with publicly(interaction):  # a public page: the server's words
            embed, view = await render_board(
                self.bot.shell,
                interaction.guild_id,
                key,
                scope,
                sort,
                1,
                interaction.user.id,
                chosen,
            )
        season = "" if chosen is None else f"&season={chosen.id}"
        url = await web_address(self.bot.shell, interaction.guild_id, f"?game={key}{season}")
        view = add_link(view, url if scope == "server" else None)
        await interaction.response.send_message(embed=embed, view=view, allowed_mentions=NO_PINGS)

    @leaderboard.autocomplete("game")
    async def _leaderboard_game(
        self, interaction: discord.Interaction[SequencesBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._game_choices(interaction, current)

    @leaderboard.autocomplete("season")
    async def _leaderboard_season(
        self, interaction: discord.Interaction[SequencesBot], current: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        return await season_choices(self.bot.shell, interaction.guild_id, current)

    @app_commands.command(name="stats", description="A member's games, wins, rating and chips")
    @app_commands.describe(member="Whose statistics (default: yours)", game="Only this game")
    @app_commands.guild_only()
    async def stats(
        self,
        interaction: discord.Interaction[SequencesBot],
        member: discord.Member | None = None,
        game: str | None = None,
    ) -> None:
        if interaction.guild_id is None:
            raise UserError(_("Statistics belong to a server: use this in a server channel."))
        who = member or interaction.user
        if who.bot:
            raise UserError(_("Bots don't keep statistics here."))
        key = None if game is None else await self._game_key(interaction.guild_id, game)
        await remember(self.bot.shell, interaction.guild_id, who)
        service = self.bot.shell.stats
        lines = await service.player_stats(interaction.guild_id, who.id, key)
        pooled = {
            line.game_key: line for line in await service.player_stats(stats.GLOBAL_SCOPE, who.id)
        }
        ladder = await service.player_stats(stats.EVERYWHERE, who.id, key)
        chart_game = key or (lines[0].game_key if lines else None)
        points = (
            await service.rating_points(interaction.guild_id, chart_game, who.id, CHART_GAMES)
            if chart_game is not None
            else []
        )
        if len(points) < CHART_MIN_GAMES:
            points = []
        embed = stats_embed(
            clean_name(who.display_name),
            lines,
            pooled,
            chart_game if points else None,
            self.bot.games.label,
            self._stat_words,
            ladder=ladder,
        )
        # A private answer (README: who reads what), in the asking member's words.
        shell = self.bot.shell
        url = await web_address(shell, interaction.guild_id)
        if url is not None and lines:
            url += await player_path(shell, interaction.guild_id, who.id)
        view = add_link(None, url)
        links: dict[str, Any] = {} if view is None else {"view": view}
        if points:
            # Drawing the chart can take longer than Discord's 3 seconds on a busy host:
            # answer first ("thinking"), then the chart replaces it.
            await interaction.response.defer(thinking=True, ephemeral=True)
            png = await asyncio.to_thread(rating_chart, points)
            await interaction.followup.send(
                embed=embed,
                file=discord.File(io.BytesIO(png), filename="rating.png"),
                allowed_mentions=NO_PINGS,
                ephemeral=True,
                **links,
            )
        else:
            await interaction.response.send_message(
                embed=embed, allowed_mentions=NO_PINGS, ephemeral=True, **links
            )

    def _stat_words(self, game_key: str) -> tuple[str | None, str | None]:
        """A game's words for a best turn and their meaning (none for the board game)."""
        game = self.bot.games.of_key(game_key)
        if game is None:
            return None, None
        return game.best_turn_text, game.best_turn_meaning

    @stats.autocomplete("game")
    async def _stats_game(
        self, interaction: discord.Interaction[SequencesBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._game_choices(interaction, current)


async def setup(bot: SequencesBot) -> None:
    bot.add_dynamic_items(LeaderboardButton)
    await bot.add_cog(Stats(bot))
