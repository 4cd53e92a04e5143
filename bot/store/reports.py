"""Repository for table reports (``/play report``, issue 36): a member seated at a table
tells the bot's operator about it. The SQL of them; the rules are in
``bot.tables.reports``. A report is read by the operator only (``python -m bot reports``):
nothing here is ever drawn in Discord."""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.db import Connection, Database


@dataclass(frozen=True, slots=True)
class Place:
    """Where a table is shown: a server's channel and the table's thread in it."""

    guild_id: int
    channel_id: int
    thread_id: int | None


@dataclass(frozen=True, slots=True)
class TableReport:
    id: int
    game_id: int
    user_id: int
    guild_id: int  # the server it was reported from
    channel_id: int
    reason: str
    at: float
    places: tuple[Place, ...]  # every place the table is shown in (one, unless cross-server)


async def places(db: Database | Connection, game_id: int) -> tuple[Place, ...]:
    """The table's places, first the one its games row mirrors; a table of one server has
    no places rows: its own channel and thread."""
    rows = await db.fetchall(
        "SELECT guild_id, channel_id, thread_id FROM table_places WHERE game_id = ?"
        " ORDER BY position",
        (game_id,),
    )
    if not rows:
        rows = await db.fetchall(
            "SELECT guild_id, channel_id, thread_id FROM games WHERE id = ?", (game_id,)
        )
    return tuple(Place(row[0], row[1], row[2]) for row in rows)


async def add(
    db: Database,
    *,
    game_id: int,
    user_id: int,
    guild_id: int,
    channel_id: int,
    reason: str,
    now: float,
) -> int | None:
    """Store a report; its id, or None if this member had reported this table already."""
    async with db.transaction() as conn:
        cursor = await conn.execute(
            "INSERT INTO table_reports (game_id, user_id, guild_id, channel_id, reason, at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, user_id) DO NOTHING RETURNING id",
            (game_id, user_id, guild_id, channel_id, reason, now),
        )
        row = await cursor.fetchone()
    return None if row is None else int(row[0])


async def since(db: Database, at: float) -> list[TableReport]:
    """Every report made at ``at`` or later, oldest first, with its table's places."""
    rows = await db.fetchall(
        "SELECT id, game_id, user_id, guild_id, channel_id, reason, at FROM table_reports"
        " WHERE at >= ? ORDER BY at, id",
        (at,),
    )
    found = []
    shown: dict[int, tuple[Place, ...]] = {}
    for row in rows:
        game_id = int(row["game_id"])
        if game_id not in shown:
            shown[game_id] = await places(db, game_id)
        found.append(
            TableReport(
                id=int(row["id"]), game_id=game_id, user_id=int(row["user_id"]),
                guild_id=int(row["guild_id"]), channel_id=int(row["channel_id"]),
                reason=str(row["reason"]), at=float(row["at"]), places=shown[game_id],
            )
        )  # fmt: skip
    return found
