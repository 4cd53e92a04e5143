"""Seasons: their rows (the SQL side of ``bot.tables.stats``' season methods). Their
statistics are folded by ``bot.store.stats`` beside the all-time ones."""

from __future__ import annotations

from typing import Any

from bot.records import Season
from bot.store.db import Connection, Database

_COLUMNS = "id, guild_id, name, soft_reset, started_at, ends_at, started_by"
MAX_SEASONS_LISTED = 25  # an autocomplete's choices


def _season(row: Any) -> Season:
    return Season(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        name=row["name"],
        soft_reset=bool(row["soft_reset"]),
        started_at=float(row["started_at"]),
        ends_at=None if row["ends_at"] is None else float(row["ends_at"]),
        started_by=int(row["started_by"]),
    )


class SeasonNameTaken(Exception):
    """The server already has a season of that name."""


async def start_season(
    db: Database,
    guild_id: int,
    name: str,
    *,
    ends_at: float | None,
    soft_reset: bool,
    actor_id: int,
    now: float,
) -> tuple[Season, Season | None]:
    """Start a season now; the running one (if any) ends at this moment. Returns the new
    season and the one it ended."""
    async with db.transaction() as conn:
        # Two organisers starting seasons at once: one after the other, so one season runs.
        await conn.serialize_on(f"seasons:{guild_id}")
        cursor = await conn.execute(
            "SELECT 1 FROM seasons WHERE guild_id = ? AND lower(name) = lower(?)", (guild_id, name)
        )
        if await cursor.fetchone() is not None:
            raise SeasonNameTaken(name)
        ended = await _running(conn, guild_id, now)
        if ended is not None:
            await conn.execute("UPDATE seasons SET ends_at = ? WHERE id = ?", (now, ended.id))
            ended = Season(
                ended.id, ended.guild_id, ended.name, ended.soft_reset, ended.started_at,
                now, ended.started_by,
            )  # fmt: skip
        cursor = await conn.execute(
            "INSERT INTO seasons (guild_id, name, soft_reset, started_at, ends_at, started_by)"
            f" VALUES (?, ?, ?, ?, ?, ?) RETURNING {_COLUMNS}",
            (guild_id, name, int(soft_reset), now, ends_at, actor_id),
        )
        row = await cursor.fetchone()
        assert row is not None
        return _season(row), ended


_RUNNING = (
    f"SELECT {_COLUMNS} FROM seasons WHERE guild_id = ? AND started_at <= ?"
    " AND (ends_at IS NULL OR ends_at > ?) ORDER BY started_at DESC, id DESC LIMIT 1"
)


async def _running(conn: Connection, guild_id: int, at: float) -> Season | None:
    cursor = await conn.execute(_RUNNING, (guild_id, at, at))
    row = await cursor.fetchone()
    return None if row is None else _season(row)


async def running_at(conn: Connection, guild_id: int, at: float) -> Season | None:
    """The season a game that finished at ``at`` counts for, if any."""
    return await _running(conn, guild_id, at)


async def current(db: Database, guild_id: int, now: float) -> Season | None:
    """The season running now: one whose end date has passed is over, with no timer."""
    row = await db.fetchone(_RUNNING, (guild_id, now, now))
    return None if row is None else _season(row)


async def by_id(db: Database, guild_id: int, season_id: int) -> Season | None:
    row = await db.fetchone(
        f"SELECT {_COLUMNS} FROM seasons WHERE guild_id = ? AND id = ?", (guild_id, season_id)
    )
    return None if row is None else _season(row)


async def by_name(db: Database, guild_id: int, name: str) -> Season | None:
    row = await db.fetchone(
        f"SELECT {_COLUMNS} FROM seasons WHERE guild_id = ? AND lower(name) = lower(?)",
        (guild_id, name),
    )
    return None if row is None else _season(row)


async def listed(db: Database, guild_id: int, limit: int = MAX_SEASONS_LISTED) -> list[Season]:
    """The server's seasons, newest first."""
    rows = await db.fetchall(
        f"SELECT {_COLUMNS} FROM seasons WHERE guild_id = ?"
        " ORDER BY started_at DESC, id DESC LIMIT ?",
        (guild_id, limit),
    )
    return [_season(row) for row in rows]


async def all_seasons(conn: Connection) -> list[Season]:
    """Every server's seasons, oldest first (for a rebuild)."""
    cursor = await conn.execute(f"SELECT {_COLUMNS} FROM seasons ORDER BY started_at, id")
    return [_season(row) for row in await cursor.fetchall()]
