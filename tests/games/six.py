"""A test-only game, "first to six": each turn the player rolls one die; a 6 wins.

It is written the way docs/architecture.md says to add a game, and registered from the
tests alone (no file under bot/ or cogs/ names it), to prove that a game is a plug-in.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

import discord
from discord import app_commands

from bot.app import SequencesBot
from bot.errors import IllegalAction
from bot.games.base import Demo, Game, RulesPage, TurnView
from bot.games.registry import GAMES, Games
from bot.records import Button, SeatResult
from bot.render.common import COLOUR, COLOUR_DONE, dice_emoji
from bot.tables.kind import ReplayMismatch
from bot.tables.model import Seat, Table
from cogs.game_group import GameGroup
from tests.fakes import ScriptedRandom

# 1. The rules: a frozen state, an action, apply.


@dataclass(frozen=True)
class SixState:
    n_seats: int
    turn: int = 0  # whose turn
    throws: int = 0  # turns played
    last: tuple[int, int] | None = None  # (seat, face) of the last roll
    winner: int | None = None
    out: frozenset[int] = frozenset()  # seats that forfeited


@dataclass(frozen=True)
class Roll:
    pass


def roll(state: SixState, rng: random.Random) -> SixState:
    if state.winner is not None:
        raise IllegalAction("The game is over.")
    face = rng.randint(1, 6)
    return replace(
        state,
        turn=next_seat(state, state.turn),
        throws=state.throws + 1,
        last=(state.turn, face),
        winner=state.turn if face == 6 else None,
    )


def next_seat(state: SixState, seat: int) -> int:
    for step in range(1, state.n_seats + 1):
        candidate = (seat + step) % state.n_seats
        if candidate not in state.out:
            return candidate
    return seat


def forfeit(state: SixState, seat: int) -> SixState:
    if state.winner is not None or seat in state.out or not 0 <= seat < state.n_seats:
        raise IllegalAction("That seat cannot forfeit now.")
    out = state.out | {seat}
    left = [s for s in range(state.n_seats) if s not in out]
    if len(left) == 1:
        return replace(state, out=out, winner=left[0], throws=state.throws + 1)
    if state.turn != seat:
        return replace(state, out=out)
    after = replace(state, out=out)
    return replace(after, turn=next_seat(after, seat), throws=state.throws + 1)


# 2. The game: its table kind and its presentation.


class SixGame(Game[SixState]):
    name = "six"
    bot_levels = {"roller": "rolls the die (there is nothing to decide)"}
    labels = {"six": "First to six"}
    rules_pages = (
        RulesPage("six", "First to six", "Take turns rolling one die. The first 6 wins."),
    )
    demos = (Demo("six", {}, ("roller", "roller")),)

    def seat_limits(self, settings: dict[str, Any]) -> tuple[int, int]:
        return (2, 4)

    def title(self, settings: dict[str, Any]) -> str:
        return "First to six"

    def describe_settings(self, settings: dict[str, Any]) -> str:
        return "one die, the first 6 wins"

    def start(self, settings: dict[str, Any], seats: list[Seat], rng: random.Random) -> SixState:
        return SixState(len(seats))

    def load(self, data: dict[str, Any]) -> SixState:
        last = data["last"]
        return SixState(
            data["n_seats"],
            data["turn"],
            data["throws"],
            None if last is None else (last[0], last[1]),
            data["winner"],
            frozenset(data.get("out", ())),
        )

    def dump(self, state: SixState) -> dict[str, Any]:
        return {
            "n_seats": state.n_seats,
            "turn": state.turn,
            "throws": state.throws,
            "last": None if state.last is None else list(state.last),
            "winner": state.winner,
            "out": sorted(state.out),
        }

    def current_seat(self, state: SixState) -> int | None:
        return None if state.winner is not None else state.turn

    def turn_index(self, state: SixState) -> int:
        return state.throws

    def last_seat(self, state: SixState) -> int:
        return 0 if state.last is None else state.last[0]

    def turn_buttons(self, state: SixState) -> list[Button]:
        return [Button("roll", "Roll the die", "primary", emoji="🎲")]

    def resolve(self, state: SixState, action: str) -> list[Any]:
        if action != "roll":
            raise IllegalAction("That button does not belong to this game.")
        return [Roll()]

    def apply(
        self, state: SixState, action: Any, rng: random.Random, seats: list[Seat]
    ) -> tuple[SixState, dict[str, Any], str | None]:
        after = roll(state, rng)
        assert after.last is not None
        seat, face = after.last
        line = f"{seats[seat].name} rolled {face}" + (": a six!" if face == 6 else ".")
        return after, {"seat": seat, "face": face}, line

    def replay_step(self, state: SixState, detail: dict[str, Any]) -> SixState:
        # The logged face falls again (python -m bot verify-log, issue 15).
        after = roll(state, ScriptedRandom([detail["face"]]))
        assert after.last is not None
        replayed = {"seat": after.last[0], "face": after.last[1]}
        if replayed != detail:
            raise ReplayMismatch.between(detail, replayed)
        return after

    def bot_step(self, state: SixState, level: str, rng: random.Random) -> list[Any]:
        return [Roll()]

    def timeout_step(self, state: SixState, rng: random.Random) -> list[Any]:
        return [Roll()]

    def forfeit(self, state: SixState, seat: int) -> SixState:
        return forfeit(state, seat)

    def forfeited(self, state: SixState) -> frozenset[int]:
        return state.out

    def results(self, state: SixState, seats: list[Seat]) -> list[SeatResult] | None:
        if state.winner is None:
            return None
        return [
            SeatResult(
                seat=i,
                user_id=seat.user_id,
                name=seat.name,
                team=None,
                score=int(i == state.winner),
                place=1 if i == state.winner else 2,
                won=i == state.winner,
                best_turn=0,
            )
            for i, seat in enumerate(seats)
        ]

    def turn_view(self, table: Table) -> TurnView:
        state: SixState = table.rules
        lines = []
        if state.last is not None:
            lines.append(f"## {dice_emoji([state.last[1]])}")
        if state.winner is not None:
            winner = table.seats[state.winner].name
            return TurnView(
                discord.Embed(
                    title=f"🏆 {winner} won First to six!",
                    description="\n".join(lines),
                    colour=COLOUR_DONE,
                )
            )
        lines.append(f"**{table.seats[state.turn].name}** to roll.")
        return TurnView(
            discord.Embed(title="First to six", description="\n".join(lines), colour=COLOUR)
        )


GAME = SixGame()


def games_with_six() -> Games:
    """The bot's games plus this one: how a test registers it."""
    return Games([*GAMES, GAME])


# 3. The thin cog: the start command (``end`` comes from GameGroup).


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
