"""Sequence, the board game, as the bot runs it: the kind plus the board picture, rules text
and the private hand (every button of the game is answered there)."""

from __future__ import annotations

from typing import Any

import discord

from bot.games.base import ClickContext, Demo, Game, TurnView
from bot.games.board import picture
from bot.games.board.hand import BoardHands
from bot.games.board.kind import BoardKind
from bot.games.board.render import board_embed
from bot.games.board.texts import LABELS, RULES_PAGES
from bot.rules import board as b
from bot.tables.model import Table


class BoardGame(BoardKind, Game[b.BoardState]):
    rules_pages = RULES_PAGES
    labels = LABELS
    demos = (
        Demo(
            "board",
            {"seats": None, "teams": None, "first_sequence_wins": False},
            ("strong", "greedy"),
        ),
    )

    def __init__(self) -> None:
        self.hands = BoardHands()

    def prepare(self) -> None:
        picture.prepare()

    def turn_view(self, table: Table) -> TurnView:
        embed, file = board_embed(table)
        return TurnView(embed, file)

    def is_private(self, action: str) -> bool:
        return True  # cards are chosen in the private hand, and moves are made from there

    async def private_click(
        self,
        ctx: ClickContext,
        interaction: discord.Interaction[Any],
        table: Table,
        version: int,
        action: str,
    ) -> None:
        await self.hands.on_click(ctx, interaction, table, version, action)
