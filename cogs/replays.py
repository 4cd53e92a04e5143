"""``/replay`` (a finished game step by step, persistent buttons) and ``/history`` (the
server's finished games, paginated)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import SequencesBot
from bot.errors import UserError
from bot.i18n.speaking import _
from bot.render.common import NO_PINGS
from bot.tables.names import clean_name
from bot.ui.history import HistoryButton, render_history
from bot.ui.i18n import publicly
from bot.ui.replay import ReplayButton, replay_message
from bot.ui.review import ReviewButton
from bot.ui.weblinks import add_link, web_address


class Replays(commands.Cog):
    def __init__(self, bot: SequencesBot) -> None:
        self.bot = bot

    @app_commands.command(name="replay", description="Step through a finished game of this server")
    @app_commands.describe(game="The game's id (see /history)", step="Start at this step")
    @app_commands.guild_only()
    async def replay(
        self,
        interaction: discord.Interaction[SequencesBot],
        game: app_commands.Range[int, 1, 10**12],
        step: app_commands.Range[int, 0, 100_000] | None = None,
    ) -> None:
        if interaction.guild_id is None:
            raise UserError(_("Replays belong to a server: use this in a server channel."))
        shell = self.bot.shell
        found = await shell.replays.load(game, interaction.guild_id)
        async with publicly(interaction):  # one shared message: the server's words
            payload = replay_message(shell, found, step or 0)  # the start: no spoiler
        path = f"/g/{found.game_id}?step={found.clamp(step or 0)}"
        payload["view"] = add_link(
            payload["view"], await web_address(shell, interaction.guild_id, path)
        )
        await interaction.response.send_message(**payload, allowed_mentions=NO_PINGS)

    @replay.autocomplete("game")
    async def _replay_game(
        self, interaction: discord.Interaction[SequencesBot], current: str
    ) -> list[app_commands.Choice[int]]:
        if interaction.guild_id is None:
            return []
        games = self.bot.games
        text = current.strip().lstrip("#").casefold()
        choices = []
        for row in await self.bot.shell.replays.recent(interaction.guild_id, limit=100):
            name = f"#{row.id} {games.label(row.game_key)}: {', '.join(row.players)}"
            if text and text not in name.casefold():
                continue
            choices.append(app_commands.Choice(name=name[:100], value=row.id))
        return choices[:25]

    @app_commands.command(name="history", description="Recent finished games of this server")
    @app_commands.describe(member="Only games this member played", game="Only this game")
    @app_commands.guild_only()
    async def history(
        self,
        interaction: discord.Interaction[SequencesBot],
        member: discord.Member | None = None,
        game: str | None = None,
    ) -> None:
        if interaction.guild_id is None:
            raise UserError(_("Game history belongs to a server: use this in a server channel."))
        key = None
        if game is not None:
            key = self.bot.games.find_key(game)
            if key is None:
                raise UserError(_("There is no such game here: pick one from the list."))
        async with publicly(interaction):  # a public page: the server's words
            embed, view = await render_history(
                self.bot.shell, interaction.guild_id, interaction.user.id, 1,
                None if member is None else member.id, key,
                None if member is None else clean_name(member.display_name),
            )  # fmt: skip
        view = add_link(view, await web_address(self.bot.shell, interaction.guild_id))
        await interaction.response.send_message(embed=embed, view=view, allowed_mentions=NO_PINGS)

    @history.autocomplete("game")
    async def _history_game(
        self, interaction: discord.Interaction[SequencesBot], current: str
    ) -> list[app_commands.Choice[str]]:
        text = current.casefold()
        return [
            app_commands.Choice(name=_(label), value=key)
            for key, label in self.bot.games.labels.items()
            if text in key or text in label.casefold() or text in _(label).casefold()
        ][:25]


async def setup(bot: SequencesBot) -> None:
    bot.add_dynamic_items(ReplayButton, HistoryButton, ReviewButton)
    await bot.add_cog(Replays(bot))
