"""What every game's command group shares: the ``end`` and ``resign`` subcommands."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import SequencesBot
from bot.ui.router import CommandGroup


class GameGroup(commands.GroupCog, group_name="game"):
    """Base of ``/sequences``, ``/heartsdue`` and ``/board``: each adds its own ``start``.
    ``game_keys``: the games its ``end`` and ``resign`` reach (``CommandGroup``); empty,
    every game."""

    game_keys: tuple[str, ...] = ()

    def __init__(self, bot: SequencesBot) -> None:
        self.bot = bot
        super().__init__()
        name = self.__cog_group_name__
        self.games = CommandGroup(str(name), self.game_keys) if self.game_keys else None

    @app_commands.command(
        name="end",
        description="End a game early: host (staked games: once the others agree) or Manage Server",
    )
    @app_commands.describe(game="The game number, if several run in this channel")
    @app_commands.guild_only()
    async def end(
        self,
        interaction: discord.Interaction[SequencesBot],
        game: app_commands.Range[int, 1] | None = None,
    ) -> None:
        await self.bot.shell.router.end_game(interaction, game, self.games)

    @app_commands.command(name="resign", description="Leave a game you play in for good")
    @app_commands.describe(game="The game number, if you play in several in this channel")
    @app_commands.guild_only()
    async def resign(
        self,
        interaction: discord.Interaction[SequencesBot],
        game: app_commands.Range[int, 1] | None = None,
    ) -> None:
        await self.bot.shell.router.resign_command(interaction, game, self.games)
