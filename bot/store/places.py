"""Repository for the places of a cross-server table (issue 36, ``where: everywhere``): one
per server its players come from, each with its channel, its thread and its live table
message. The games row mirrors the first place (position 0), so every lookup by the row's
channel, thread or message still finds the table (``bot.store.games`` looks in every
place's too)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.store import jsontext
from bot.store.db import Connection, Database, Row

_COLUMNS = "game_id, guild_id, position, channel_id, thread_id, message_id, user_ids"


@dataclass(frozen=True, slots=True)
class TablePlace:
    game_id: int
    guild_id: int
    position: int  # 0: the place the games row mirrors
    channel_id: int
    thread_id: int | None
    message_id: int | None
    user_ids: tuple[int, ...] = ()  # the members who play from this place

    @property
    def game_channel_id(self) -> int:
        """Where the game is played in this place: its thread, else its channel."""
        return self.thread_id or self.channel_id


def _place(r: Row) -> TablePlace:
    return TablePlace(
        game_id=int(r["game_id"]),
        guild_id=int(r["guild_id"]),
        position=int(r["position"]),
        channel_id=int(r["channel_id"]),
        thread_id=None if r["thread_id"] is None else int(r["thread_id"]),
        message_id=None if r["message_id"] is None else int(r["message_id"]),
        user_ids=tuple(int(u) for u in jsontext.loads(r["user_ids"])),
    )


async def add(
    conn: Connection, game_id: int, places: Sequence[tuple[int, int, Sequence[int]]]
) -> None:
    """The table's places, (guild id, channel id, the members who play from it) each, the
    first mirrored by the row."""
    await conn.executemany(
        "INSERT INTO table_places (game_id, guild_id, position, channel_id, thread_id,"
        " message_id, user_ids) VALUES (?, ?, ?, ?, NULL, NULL, ?)",
        [
            (game_id, guild, i, channel, jsontext.dumps([int(u) for u in users]))
            for i, (guild, channel, users) in enumerate(places)
        ],
    )


async def of_game(db: Database | Connection, game_id: int) -> list[TablePlace]:
    """The table's places, the first one first (none: a table of one server)."""
    rows = await db.fetchall(
        f"SELECT {_COLUMNS} FROM table_places WHERE game_id = ? ORDER BY position", (game_id,)
    )
    return [_place(r) for r in rows]


async def set_message(
    db: Database, game_id: int, guild_id: int, thread_id: int | None, message_id: int | None
) -> None:
    """Where the table is shown in that server's place now: its thread (kept when None)
    and its live table message. The games row's revision moves with it, as with the row's
    own place (``games.set_location``): a change made on a copy of the table read before,
    with its places, is refused and read again."""
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE table_places SET thread_id = COALESCE(?, thread_id), message_id = ?"
            " WHERE game_id = ? AND guild_id = ?",
            (thread_id, message_id, game_id, guild_id),
        )
        await conn.execute("UPDATE games SET revision = revision + 1 WHERE id = ?", (game_id,))
