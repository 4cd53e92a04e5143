"""``/board start`` and ``/board end``: Sequence, the board-and-card game."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.app import SequencesBot
from bot.errors import UserError
from bot.games.board.texts import TITLE
from cogs.game_group import GameGroup


class Board(GameGroup, group_name="board", group_description="Sequence, the board-and-card game"):
    game_keys = ("board",)

    @app_commands.command(name="start", description=f"Open a table for {TITLE}")
    @app_commands.describe(
        seats="Most players at this table (2-12; 5, 7 and 11 can't make equal teams)",
        teams="2 teams (4, 6, 8, 10 or 12 players) or 3 teams (3, 6, 9 or 12)",
        first_sequence_wins="Shorter game: the first sequence wins",
        stake="Chips each player puts in the pot (default 0: no stake, bot players allowed)",
    )
    @app_commands.choices(
        teams=[
            app_commands.Choice(name="2 teams", value=2),
            app_commands.Choice(name="3 teams", value=3),
        ]
    )
    @app_commands.guild_only()
    async def start(
        self,
        interaction: discord.Interaction[SequencesBot],
        seats: app_commands.Range[int, 2, 12] | None = None,
        teams: int | None = None,
        first_sequence_wins: bool = False,
        stake: app_commands.Range[int, 0, 1_000_000_000] = 0,
    ) -> None:
        if seats is not None and not 2 <= seats <= 12:
            raise UserError("The board game takes 2 to 12 players.")
        if seats in (5, 7, 11):
            raise UserError(
                f"{seats} players can't split into equal teams: choose {seats - 1} or {seats + 1}."
            )
        if teams not in (None, 2, 3):
            raise UserError("Play in 2 or 3 teams.")
        settings = {"seats": seats, "teams": teams, "first_sequence_wins": first_sequence_wins}
        await self.bot.shell.router.open_lobby(
            interaction, kind="board", settings=settings, stake=stake
        )


async def setup(bot: SequencesBot) -> None:
    await bot.add_cog(Board(bot))
