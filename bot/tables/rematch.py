"""Rematch (issue 22): a finished game's players sit down again in a new lobby, same seats, settings
and stake, the others' seats held; one a game, by a compare-and-set (docs/reliability.md, "What
fires once")."""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from bot.errors import UserError
from bot.store import games
from bot.store.db import Connection
from bot.tables.kernel import TableKernel
from bot.tables.model import Table
from bot.tables.names import clean_name
from bot.tables.seat import Seat


class RematchRefused(UserError):
    """A Rematch press that cannot open a lobby; the presentation words it."""


class NotFinished(RematchRefused):
    """The game has no result (yet, or it was closed without one)."""


class NotAPlayer(RematchRefused):
    """The presser had no seat in the game."""


class _Taken(Exception):
    """Another press claimed the game's rematch first: roll this one back."""


@dataclass(frozen=True)
class Rematch:
    table: Table  # the rematch lobby (or the game it has become since)
    opened: bool  # False: an earlier press opened it (here or in another process)


def _copy(seat: Seat) -> Seat:
    return Seat(seat.user_id, seat.name, seat.bot_level, seat.team)


class OpenLobby(Protocol):
    """``TableService.open_lobby``: how a rematch opens its lobby, with every limit a new
    table meets."""

    def __call__(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        kind: str,
        settings: dict[str, Any],
        stake: int = ...,
        turn_timeout: int | None = ...,
        seat_host: bool = ...,
        then: Callable[[Connection, Table], Awaitable[None]] | None = ...,
    ) -> Awaitable[Table]: ...


class Rematches:
    """A peer of the table kernel; opens through ``open_lobby`` (the table service's), so a
    rematch lobby meets every limit a new table does."""

    def __init__(self, kernel: TableKernel, open_lobby: OpenLobby) -> None:
        self.kernel = kernel
        self.open_lobby = open_lobby

    @staticmethod
    def check(game: Table, user_id: int) -> None:
        """Whether ``user_id`` may ask for this game's rematch (a typed refusal if not)."""
        if game.status != "finished":
            raise NotFinished()
        if not any(s.user_id == user_id for s in game.seats):
            raise NotAPlayer()

    async def open(self, game_id: int, user_id: int, name: str) -> Rematch:
        """The rematch lobby of a finished game: opened now, or the one a press before
        opened. A presser short of chips for the stake gets the wallet's refusal and nothing
        is opened."""
        kernel = self.kernel
        game = await kernel.get(game_id)
        self.check(game, user_id)
        if game.row.rematch_id is not None:
            return Rematch(await kernel.get(game.row.rematch_id), opened=False)
        presser = Seat(user_id, clean_name(name))

        async def seat_them(conn: Connection, lobby: Table) -> None:
            for seat in game.seats:
                if seat.user_id == user_id:
                    lobby.seats.append(dataclasses.replace(presser, team=seat.team))
                elif seat.is_bot:
                    lobby.seats.append(_copy(seat))
                else:
                    lobby.held.append(_copy(seat))
            lobby.rematch = {"of": game.id, "order": [s.key for s in game.seats]}
            now = kernel.clock()
            expected = lobby.row.version
            lobby.row.version = expected + 1
            lobby.row.state = lobby.to_state()
            lobby.row.updated_at = now
            await games.save(
                lobby.row,
                expected,
                now,
                user_id,
                "rematch",
                {
                    "of": game.id,
                    "seats": [s.dump() for s in lobby.seats],
                    "held": [s.user_id for s in lobby.held],
                },
            ).run(conn)
            await kernel.hooks.on_join(conn, lobby, presser)  # short of chips: all rolled back
            if not await games.claim_rematch(conn, game.id, lobby.id):
                raise _Taken()

        settings = {k: v for k, v in game.settings.items() if k != "turn_timeout"}
        try:
            lobby = await self.open_lobby(
                guild_id=game.row.guild_id,
                channel_id=game.row.channel_id,  # the channel, never the finished game's thread
                host_id=user_id,
                host_name=name,
                kind=game.kind,
                settings=settings,
                stake=game.row.stake,
                turn_timeout=game.settings.get("turn_timeout"),
                seat_host=False,
                then=seat_them,
            )
        except _Taken:
            fresh = await kernel.get(game_id)
            assert fresh.row.rematch_id is not None
            return Rematch(await kernel.get(fresh.row.rematch_id), opened=False)
        return Rematch(lobby, opened=True)
