"""A test-only game, "first to six": each turn the player rolls one die; a 6 wins.

It is written the way docs/architecture.md says to add a game, and registered from the
tests alone (no file under bot/ or cogs/ names it), to prove that a game is a plug-in.
All it does not need (settings, bots, forfeits, results, JSON, the embed) is a default.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.app import SequencesBot
from bot.games.base import Game
from bot.games.registry import GAMES, Games
from bot.games.terms import seat_name
from bot.records import TurnAction
from bot.render.common import dice_emoji
from bot.tables.events import Event
from bot.tables.kind import GameKind
from bot.tables.model import Seat, TableSnapshot
from bot.tables.turns import Turns
from cogs.game_group import GameGroup


@dataclass(frozen=True)
class SixState(Turns):  # whose turn, the turns played, forfeits and the winner
    last: tuple[int, int] | None = None  # (seat, face) of the last roll

    @property
    def throws(self) -> int:
        return self.turns


@dataclass(frozen=True)
class Rolled(Event, tag="six.roll"):  # what the recent events show: a value, worded when drawn
    seat: int
    face: int


class SixKind(GameKind[SixState]):  # the rules half: what the table layer runs
    name, players = "six", (2, 4)

    def start(self, settings: dict[str, Any], seats: list[Seat], rng: random.Random) -> SixState:
        return SixState(len(seats))

    def turn_actions(self, state: SixState) -> list[TurnAction]:
        return [TurnAction("roll", "primary")]

    def apply(
        self, state: SixState, action: Any, rng: random.Random, seats: list[Seat]
    ) -> tuple[SixState, dict[str, Any], Rolled]:
        seat, face = state.turn, rng.randint(1, 6)
        after = state.passed(last=(seat, face), winner=seat if face == 6 else None)
        # The log's action and dice are what the default replay_step plays again.
        return after, {"action": action, "seat": seat, "dice": [face]}, Rolled(seat, face)


class SixGame(Game[SixState]):  # the presentation: words, made with its kind
    display, summary = "First to six", "one die, the first 6 wins"
    rules_text = "Take turns rolling one die. The first 6 wins."
    button_texts = {"roll": ("Roll the die", "🎲")}

    def event_words(self, event: Event, seats: list[Seat]) -> str | None:
        if not isinstance(event, Rolled):
            return None
        six = ": a six!" if event.face == 6 else "."
        return f"{seat_name(seats, event.seat)} rolled {event.face}{six}"

    def turn_text(self, table: TableSnapshot) -> str:
        state: SixState = table.rules
        roll = "" if state.last is None else f"## {dice_emoji([state.last[1]])}\n"
        turn = self.kind.current_seat(state)
        return roll + ("" if turn is None else f"**{table.seats[turn].name}** to roll.")


GAME = SixGame(SixKind())


def games_with_six() -> Games:
    """The bot's games plus this one: how a test registers it."""
    return Games([*GAMES, GAME])


class Six(GameGroup, group_name="six", group_description="First to six, a test game"):
    @app_commands.command(name="start", description="Open a table for First to six")
    @app_commands.guild_only()
    async def start(self, interaction: discord.Interaction[SequencesBot]) -> None:
        await self.bot.shell.router.open_lobby(interaction, kind=GAME.name, settings={})


class SixBot(SequencesBot):
    """The bot with the test cog loaded, as a real cog in cogs/ would be."""

    async def setup_hook(self) -> None:
        await super().setup_hook()
        await self.add_cog(Six(self))
