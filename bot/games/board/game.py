"""Sequence, the board game, as the bot shows it: its kind with the board picture, rules text
and the private hand (every button of the game is answered there)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord

from bot.games.base import ClickContext, Demo, Game, Moments, TurnView
from bot.games.board import animation, coach, picture, story
from bot.games.board.coach_texts import BOT_LEVEL_TEXTS
from bot.games.board.events import Moved
from bot.games.board.hand import BoardHands
from bot.games.board.kind import BoardKind
from bot.games.board.render import board_embed, draw_reason, score_lines
from bot.games.board.texts import LABELS, OPTION_LABELS, TITLE, rules_pages
from bot.games.board.words import move_line
from bot.i18n.drawn import Drawn
from bot.i18n.speaking import N_, _, plural
from bot.records import TurnAction
from bot.rules import board as b
from bot.tables.events import Event
from bot.tables.model import Seat, Table, TableSnapshot

if TYPE_CHECKING:
    from bot.tables.service import TableService


class BoardGame(Game[b.BoardState]):
    kind: BoardKind

    labels = LABELS
    best_turn_text = None  # a move scores no points: /stats shows no best turn
    best_turn_meaning = None
    option_labels = OPTION_LABELS
    demos = (
        Demo(
            "board",
            {"seats": None, "teams": None, "first_sequence_wins": False},
            ("strong", "greedy"),
        ),
    )

    # How a bot player of each level plays, after its level's name (the coach's catalogue).
    bot_level_texts = BOT_LEVEL_TEXTS
    # TRANSLATORS: the board message's button that opens a player's private cards (at most
    # 80 characters; keep it short). The rules and messages name it in bold: **My hand**.
    button_texts = {"hand": (N_("My hand"), "🃏")}
    # Made where the page is drawn (``/rules``, the Rules button): in its reader's language.
    rules_pages = Drawn(rules_pages)

    def button_text(self, state: b.BoardState, action: TurnAction) -> tuple[str, str | None]:
        label, emoji = super().button_text(state, action)
        return _(label), emoji

    reviewable = True

    def title(self, settings: Mapping[str, Any]) -> str:
        return _(TITLE)

    async def review_payload(
        self, tables: TableService, game_id: int, moments: Moments, seats: list[Seat], seat: int
    ) -> dict[str, Any]:
        return await coach.review_payload(tables, game_id, moments, seats, seat)

    def result_note(self, table: TableSnapshot) -> str | None:
        """A drawn game says which of RULINGS §3's guards ended it, beside its result."""
        state: b.BoardState | None = table.rules
        if state is None or state.outcome is None or state.outcome.side is not None:
            return None
        return draw_reason(state.outcome).rstrip(".")

    def describe_settings(self, settings: Mapping[str, Any]) -> str:
        if settings.get("first_sequence_wins"):
            parts = [_("first sequence wins")]
        elif settings.get("teams") == 3:
            parts = [_("1 sequence wins (3 sides)")]
        else:
            parts = [_("2 sequences win (1 with 3 sides)")]
        if settings.get("teams"):
            teams = int(settings["teams"])
            parts.append(plural("%(count)s team", "%(count)s teams", teams))
        if settings.get("seats"):
            seats = int(settings["seats"])
            parts.append(plural("up to %(count)s player", "up to %(count)s players", seats))
        return " · ".join(parts)

    def __init__(self, kind: BoardKind) -> None:
        super().__init__(kind)
        self.hands = BoardHands()

    def prepare(self) -> None:
        picture.prepare()

    def event_words(self, event: Event, seats: list[Seat]) -> str | None:
        return move_line(event, seats) if isinstance(event, Moved) else None

    def turn_view(self, table: TableSnapshot) -> TurnView:
        embed, file = board_embed(table)
        return TurnView(embed, file)

    def closed_lines(self, table: TableSnapshot) -> list[str]:
        return score_lines(table)

    def replay_text(self, moments: Moments, seats: list[Seat]) -> str:
        return story.story(moments, seats)

    def replay_picture(self, moments: Moments, seats: list[Seat]) -> bytes:
        return animation.still(moments, seats)

    def replay_animation(self, moments: Moments, seats: list[Seat], fmt: str) -> bytes:
        return animation.animation(moments, seats, fmt)

    def is_private(self, action: str) -> bool:
        # Every button of the game is answered privately, from the hand (exact, so the router
        # knows a dice game's buttons are not before it reads their table).
        return action in ("hand", "pass", "suggest") or action.startswith(
            ("c_", "r_", "p_", "m_", "t_")
        )

    async def private_click(
        self,
        ctx: ClickContext,
        interaction: discord.Interaction[Any],
        table: Table,
        version: int,
        action: str,
    ) -> None:
        await self.hands.on_click(ctx, interaction, table, version, action)
