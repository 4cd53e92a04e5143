"""``/board start`` and ``/board end``: Sequence, the board-and-card game. Its options,
their ranges and their check are the game's (``bot.games.board.settings``)."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.app import SequencesBot
from bot.games.board import settings as options
from bot.games.board.settings import FIRST_SEQUENCE_WINS, SEATS, TEAMS
from bot.games.board.texts import TITLE
from bot.games.options import STAKE, WITH
from bot.ui.options import choices, describe
from cogs.game_group import GameGroup


@app_commands.guild_only()  # a board game needs its thread: servers only
class Board(GameGroup, group_name="board", group_description="Sequence, the board-and-card game"):
    game_keys = ("board",)

    @app_commands.command(name="start", description=f"Open a table for {TITLE}")
    @describe(*options.OPTIONS, STAKE, WITH)
    @app_commands.choices(teams=choices(TEAMS))
    @app_commands.rename(with_="with")
    @app_commands.guild_only()
    async def start(
        self,
        interaction: discord.Interaction[SequencesBot],
        seats: app_commands.Range[int, SEATS.low, SEATS.high] | None = SEATS.default,
        teams: int | None = TEAMS.default,
        first_sequence_wins: bool = FIRST_SEQUENCE_WINS.default,
        stake: app_commands.Range[int, STAKE.low, STAKE.high] = STAKE.default,
        with_: str | None = WITH.default,
    ) -> None:
        settings = options.from_options(seats, teams, first_sequence_wins)
        await self.bot.shell.router.open_lobby(
            interaction, kind="board", settings=settings, stake=stake, invite=with_
        )


async def setup(bot: SequencesBot) -> None:
    await bot.add_cog(Board(bot))
