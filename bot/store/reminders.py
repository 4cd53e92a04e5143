"""Repository for turn reminders: which games' reminders are due, claiming one (once across
processes), and where each member wants theirs (/notify). All SQL for reminders."""

from __future__ import annotations

from bot.store.db import Database, WriteConnection
from bot.store.games import GameRow, ShardFilter, game_row, of_shards

THREAD = "thread"
DM = "dm"


# Due, and its game's timer not: a timer that has run out fires first (its change plans the
# next turn's reminder); until it has, the reminder is left alone.
_DUE = (
    "remind_at IS NOT NULL AND remind_at <= ? AND status = 'running'"
    " AND (deadline IS NULL OR deadline > ?)"
)


async def due(db: Database, now: float, limit: int, shards: ShardFilter = None) -> list[int]:
    """The running games whose reminder is due, soonest first; only ``shards``' guilds."""
    where, params = of_shards(shards)
    rows = await db.fetchall(
        f"SELECT id FROM games WHERE {_DUE}{where} ORDER BY remind_at LIMIT ?",
        (now, now, *params, limit),
    )
    return [r["id"] for r in rows]


async def next_reminder(db: Database, shards: ShardFilter = None) -> float | None:
    where, params = of_shards(shards)
    row = await db.fetchone(
        f"SELECT MIN(remind_at) FROM games WHERE remind_at IS NOT NULL{where}", params
    )
    return None if row is None or row[0] is None else float(row[0])


_CLAIM = f"UPDATE games SET remind_at = NULL WHERE id = ? AND {_DUE} RETURNING *"


async def claim(db: Database, game_id: int, now: float) -> GameRow | None:
    """Take the game's due reminder: exactly one claiming process gets the row, as at the claim;
    None when not due, sent, or gone with its turn. No version bump: a reminder changes no button.
    """

    def job(conn: WriteConnection) -> GameRow | None:
        found = conn.execute(_CLAIM, (game_id, now, now)).fetchone()
        return None if found is None else game_row(found)

    return await db.write(job, order=game_id)


async def notify_via(db: Database, guild_id: int, user_id: int) -> str:
    """Where the member wants their reminders: ``THREAD`` (the default) or ``DM``."""
    row = await db.fetchone(
        "SELECT via FROM notify_choices WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
    )
    return THREAD if row is None else str(row[0])


async def set_notify_via(db: Database, guild_id: int, user_id: int, via: str, at: float) -> None:
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO notify_choices (guild_id, user_id, via, updated_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (guild_id, user_id) DO UPDATE SET via = excluded.via,"
            " updated_at = excluded.updated_at",
            (guild_id, user_id, via, at),
        )
