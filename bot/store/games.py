"""Repository for tables: live state, the action log and finished results. All SQL for games."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import aiosqlite

from bot.records import SeatResult
from bot.store.db import Database

LIVE = ("lobby", "running")


class VersionConflict(RuntimeError):
    """The row was changed since it was read (by another click, timer or process)."""


@dataclass
class GameRow:
    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    lobby_message_id: int | None
    message_id: int | None
    game_key: str
    status: str
    host_id: int
    stake: int
    state: dict[str, Any]
    version: int
    deadline: float | None
    created_at: float
    updated_at: float
    finished_at: float | None


def _row(row: aiosqlite.Row) -> GameRow:
    return GameRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        thread_id=row["thread_id"],
        lobby_message_id=row["lobby_message_id"],
        message_id=row["message_id"],
        game_key=row["game_key"],
        status=row["status"],
        host_id=row["host_id"],
        stake=row["stake"],
        state=json.loads(row["state_json"]),
        version=row["version"],
        deadline=row["deadline"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        finished_at=row["finished_at"],
    )


async def insert(conn: aiosqlite.Connection, row: GameRow) -> int:
    cursor = await conn.execute(
        "INSERT INTO games (guild_id, channel_id, thread_id, lobby_message_id, message_id, "
        "game_key, status, host_id, stake, state_json, version, deadline, created_at, "
        "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            row.guild_id,
            row.channel_id,
            row.thread_id,
            row.lobby_message_id,
            row.message_id,
            row.game_key,
            row.status,
            row.host_id,
            row.stake,
            json.dumps(row.state),
            row.version,
            row.deadline,
            row.created_at,
            row.updated_at,
        ),
    )
    assert cursor.lastrowid is not None
    return cursor.lastrowid


async def update(conn: aiosqlite.Connection, row: GameRow, expected_version: int) -> None:
    """Write the row back; the version check makes a lost update impossible. Where the game
    is shown (thread and message) is not written here: ``set_location`` owns it."""
    cursor = await conn.execute(
        "UPDATE games SET lobby_message_id = ?, game_key = ?, "
        "status = ?, stake = ?, state_json = ?, version = ?, deadline = ?, updated_at = ?, "
        "finished_at = ? WHERE id = ? AND version = ?",
        (
            row.lobby_message_id,
            row.game_key,
            row.status,
            row.stake,
            json.dumps(row.state),
            row.version,
            row.deadline,
            row.updated_at,
            row.finished_at,
            row.id,
            expected_version,
        ),
    )
    if cursor.rowcount != 1:
        raise VersionConflict(f"game {row.id} changed underneath (expected v{expected_version})")


async def set_location(
    conn: aiosqlite.Connection, game_id: int, thread_id: int | None, message_id: int | None
) -> None:
    """Where the game is shown: its thread (kept when None) and its live message."""
    await conn.execute(
        "UPDATE games SET thread_id = COALESCE(?, thread_id), message_id = ? WHERE id = ?",
        (thread_id, message_id, game_id),
    )


async def get(db: Database | aiosqlite.Connection, game_id: int) -> GameRow | None:
    conn = db.conn if isinstance(db, Database) else db
    async with conn.execute("SELECT * FROM games WHERE id = ?", (game_id,)) as cursor:
        row = await cursor.fetchone()
    return None if row is None else _row(row)


async def live(db: Database) -> list[GameRow]:
    rows = await db.fetchall("SELECT * FROM games WHERE status IN ('lobby', 'running') ORDER BY id")
    return [_row(r) for r in rows]


async def due(db: Database, now: float) -> list[int]:
    rows = await db.fetchall(
        "SELECT id FROM games WHERE status IN ('lobby', 'running') AND deadline IS NOT NULL "
        "AND deadline <= ? ORDER BY deadline",
        (now,),
    )
    return [r["id"] for r in rows]


async def next_deadline(db: Database) -> float | None:
    row = await db.fetchone("SELECT MIN(deadline) FROM games WHERE status IN ('lobby', 'running')")
    return None if row is None or row[0] is None else float(row[0])


async def count_live(
    db: Database,
    *,
    channel_id: int | None = None,
    guild_id: int | None = None,
    status: str | None = None,
) -> int:
    sql = "SELECT COUNT(*) FROM games WHERE status IN ('lobby', 'running')"
    params: list[Any] = []
    if channel_id is not None:
        sql += " AND channel_id = ?"
        params.append(channel_id)
    if guild_id is not None:
        sql += " AND guild_id = ?"
        params.append(guild_id)
    if status is not None:
        sql += " AND status = ?"
        params.append(status)
    row = await db.fetchone(sql, params)
    return int(row[0]) if row else 0


async def last_opened(db: Database, guild_id: int, host_id: int) -> float | None:
    """When ``host_id`` last opened a table on this server (for the start cooldown)."""
    row = await db.fetchone(
        "SELECT MAX(created_at) FROM games WHERE guild_id = ? AND host_id = ?",
        (guild_id, host_id),
    )
    return None if row is None or row[0] is None else float(row[0])


async def live_in_channel(db: Database, channel_id: int) -> list[GameRow]:
    rows = await db.fetchall(
        "SELECT * FROM games WHERE status IN ('lobby', 'running') "
        "AND (channel_id = ? OR thread_id = ?) ORDER BY id",
        (channel_id, channel_id),
    )
    return [_row(r) for r in rows]


async def in_thread(db: Database, thread_id: int) -> GameRow | None:
    """The game whose thread ``thread_id`` is (the latest, whatever its status), if any."""
    row = await db.fetchone(
        "SELECT * FROM games WHERE thread_id = ? ORDER BY id DESC LIMIT 1", (thread_id,)
    )
    return None if row is None else _row(row)


async def append_log(
    conn: aiosqlite.Connection,
    game_id: int,
    at: float,
    actor_id: int | None,
    kind: str,
    detail: dict[str, Any],
) -> None:
    await conn.execute(
        "INSERT INTO game_log (game_id, seq, at, actor_id, kind, detail_json) "
        "VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM game_log WHERE game_id = ?), "
        "?, ?, ?, ?)",
        (game_id, game_id, at, actor_id, kind, json.dumps(detail)),
    )


async def log_entries(db: Database, game_id: int) -> list[dict[str, Any]]:
    rows = await db.fetchall(
        "SELECT seq, at, actor_id, kind, detail_json FROM game_log WHERE game_id = ? ORDER BY seq",
        (game_id,),
    )
    return [
        {
            "seq": r["seq"],
            "at": r["at"],
            "actor_id": r["actor_id"],
            "kind": r["kind"],
            "detail": json.loads(r["detail_json"]),
        }
        for r in rows
    ]


async def insert_results(
    conn: aiosqlite.Connection,
    game_id: int,
    guild_id: int,
    game_key: str,
    results: list[SeatResult],
    at: float,
) -> None:
    await conn.executemany(
        "INSERT INTO game_results (game_id, seat, guild_id, game_key, user_id, name, team, "
        "score, place, won, best_turn, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                game_id,
                r.seat,
                guild_id,
                game_key,
                r.user_id,
                r.name,
                r.team,
                r.score,
                r.place,
                int(r.won),
                r.best_turn,
                at,
            )
            for r in results
        ],
    )


async def upsert_member(
    conn: aiosqlite.Connection, guild_id: int, user_id: int, display_name: str, at: float
) -> None:
    await conn.execute(
        "INSERT INTO members (guild_id, user_id, display_name, updated_at) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (guild_id, user_id) DO UPDATE SET display_name = excluded.display_name, "
        "updated_at = excluded.updated_at",
        (guild_id, user_id, display_name, at),
    )


async def guild_turn_timeout(db: Database, guild_id: int) -> int | None:
    row = await db.fetchone(
        "SELECT turn_timeout_seconds FROM guild_settings WHERE guild_id = ?", (guild_id,)
    )
    return None if row is None or row[0] is None else int(row[0])


async def set_guild_turn_timeout(
    db: Database, guild_id: int, seconds: int, actor_id: int, at: float
) -> None:
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO guild_settings (guild_id, turn_timeout_seconds, updated_by, updated_at) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
            "turn_timeout_seconds = excluded.turn_timeout_seconds, "
            "updated_by = excluded.updated_by, updated_at = excluded.updated_at",
            (guild_id, seconds, actor_id, at),
        )


async def guild_max_stake(db: Database, guild_id: int) -> int | None:
    row = await db.fetchone("SELECT max_stake FROM guild_settings WHERE guild_id = ?", (guild_id,))
    return None if row is None or row[0] is None else int(row[0])


async def set_guild_max_stake(
    db: Database, guild_id: int, amount: int, actor_id: int, at: float
) -> None:
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO guild_settings (guild_id, max_stake, updated_by, updated_at) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
            "max_stake = excluded.max_stake, "
            "updated_by = excluded.updated_by, updated_at = excluded.updated_at",
            (guild_id, amount, actor_id, at),
        )
