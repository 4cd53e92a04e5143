"""Sequence, the board game, as the bot runs it: the kind plus the board picture, rules text
and the private hand (every button of the game is answered there)."""

from __future__ import annotations

from typing import Any

import discord

from bot.games.base import ClickContext, Demo, Game, Moments, TurnView
from bot.games.board import animation, picture, story
from bot.games.board.events import Moved
from bot.games.board.hand import BoardHands
from bot.games.board.kind import BoardKind
from bot.games.board.render import board_embed
from bot.games.board.texts import LABELS, RULES_PAGES
from bot.games.board.words import move_line
from bot.rules import board as b
from bot.tables.events import Event
from bot.tables.model import Seat, Table


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

    def event_words(self, event: Event, seats: list[Seat]) -> str | None:
        return move_line(event, seats) if isinstance(event, Moved) else None

    def turn_view(self, table: Table) -> TurnView:
        embed, file = board_embed(table)
        return TurnView(embed, file)

    def replay_text(self, moments: Moments, seats: list[Seat]) -> str:
        return story.story(moments, seats)

    def replay_picture(self, moments: Moments, seats: list[Seat]) -> bytes:
        return animation.still(moments, seats)

    def replay_animation(self, moments: Moments, seats: list[Seat], fmt: str) -> bytes:
        return animation.animation(moments, seats, fmt)

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
