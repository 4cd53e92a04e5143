"""Forgetting a member: what ``python -m bot forget USER_ID`` does.

A member's Discord id and names are replaced everywhere by a tombstone: a negative id (no
Discord id is negative) and the name "Deleted member". Rows are kept, so other players'
results, the leaderboards and the chip ledger still add up; only who it was is gone. All of
it happens in one transaction.
"""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass
from typing import Any

import aiosqlite

from bot.errors import UserError
from bot.store.db import Database

DELETED = "Deleted member"

# Every column that holds a member's id, by table. tests/reliability/test_operator.py checks
# the schema against this list, so a migration adding such a column cannot be forgotten here.
ID_COLUMNS: dict[str, tuple[str, ...]] = {
    "guild_settings": ("updated_by",),
    "members": ("user_id",),
    "games": ("host_id",),
    "game_log": ("actor_id",),
    "game_results": ("user_id",),
    "wallets": ("user_id",),
    "ledger": ("user_id", "actor_id"),
    "escrows": ("user_id",),
    "player_stats": ("user_id",),
    "rating_history": ("user_id",),
}
# Append-only guards that would refuse the id change; re-created unchanged afterwards.
GUARD_TRIGGERS = ("ledger_no_update", "escrows_settle_once")

_UPDATES = {
    (table, column): f"UPDATE {table} SET {column} = ? WHERE {column} = ?"  # names from above
    for table, columns in ID_COLUMNS.items()
    for column in columns
}


@dataclass(frozen=True)
class ForgetReport:
    tombstone: int
    rows: int
    names: tuple[str, ...]


def _scrub(value: Any, user_id: int, tombstone: int, names: set[str]) -> Any:
    """The JSON value with the member's seats renamed and ids replaced, names in text too."""
    if isinstance(value, dict):
        out = {k: _scrub(v, user_id, tombstone, names) for k, v in value.items()}
        if value.get("user_id") == user_id:
            out["user_id"] = tombstone
            if "name" in out:
                out["name"] = DELETED
        return out
    if isinstance(value, list):
        return [_scrub(v, user_id, tombstone, names) for v in value]
    if isinstance(value, str):
        for name in sorted(names, key=len, reverse=True):  # whole words only
            value = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", DELETED, value)
        return value.replace(f"<@{user_id}>", DELETED).replace(str(user_id), str(tombstone))
    if value == user_id and isinstance(value, int) and not isinstance(value, bool):
        return tombstone
    return value


async def _names(conn: aiosqlite.Connection, user_id: int) -> set[str]:
    names: set[str] = set()
    for sql in (
        "SELECT display_name FROM members WHERE user_id = ?",
        "SELECT DISTINCT name FROM game_results WHERE user_id = ?",
    ):
        async with conn.execute(sql, (user_id,)) as cursor:
            names.update(str(r[0]) for r in await cursor.fetchall())
    # Names of bot players or common words must not be blanked in other people's text.
    return {n for n in names if len(n) >= 3 and n != DELETED}


async def forget_member(db: Database, user_id: int) -> ForgetReport:
    if user_id <= 0:
        raise UserError("A Discord user id is a positive number.")
    async with db.transaction() as conn:
        async with conn.execute(
            "SELECT id, state_json FROM games WHERE status IN ('lobby', 'running')"
        ) as cursor:
            live = [
                row["id"]
                for row in await cursor.fetchall()
                if any(s.get("user_id") == user_id for s in json.loads(row[1]).get("seats", []))
            ]
        if live:
            ids = ", ".join(f"#{g}" for g in live)
            raise UserError(f"Member {user_id} is seated in live games ({ids}); end them first.")
        names = await _names(conn, user_id)
        tombstone = -(secrets.randbits(52) + 1)
        triggers = []
        for name in GUARD_TRIGGERS:
            async with conn.execute(
                "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?", (name,)
            ) as cursor:
                row = await cursor.fetchone()
            if row is not None:
                triggers.append(str(row[0]))
                await conn.execute(f"DROP TRIGGER {name}")  # name from GUARD_TRIGGERS
        rows = 0
        for sql in _UPDATES.values():
            cursor = await conn.execute(sql, (tombstone, user_id))
            rows += max(cursor.rowcount, 0)
        await conn.execute(
            "UPDATE members SET display_name = ? WHERE user_id = ?", (DELETED, tombstone)
        )
        await conn.execute(
            "UPDATE game_results SET name = ? WHERE user_id = ?", (DELETED, tombstone)
        )
        rows += await _scrub_json(conn, user_id, tombstone, names)
        if names:
            async with conn.execute(
                "SELECT id, reason FROM ledger WHERE reason IS NOT NULL"
                " AND (user_id = ? OR actor_id = ?)",
                (tombstone, tombstone),
            ) as c:
                reasons = [(r[0], r[1]) for r in await c.fetchall()]
            for ledger_id, reason in reasons:
                cleaned = _scrub(reason, user_id, tombstone, names)
                if cleaned != reason:
                    await conn.execute(
                        "UPDATE ledger SET reason = ? WHERE id = ?", (cleaned, ledger_id)
                    )
                    rows += 1
        for trigger_sql in triggers:
            await conn.execute(trigger_sql)  # the guard exactly as the migration made it
    return ForgetReport(tombstone, rows, tuple(sorted(names)))


async def _scrub_json(
    conn: aiosqlite.Connection, user_id: int, tombstone: int, names: set[str]
) -> int:
    """Seats, events and log details of the games the member took part in (seated, hosted,
    acted, or had a result): other games are left alone, so a name that is also a common
    word or another player's name is not blanked elsewhere."""
    async with conn.execute(
        "SELECT id FROM games WHERE host_id = ? OR instr(state_json, ?) > 0"
        " UNION SELECT game_id FROM game_log WHERE actor_id = ?"
        " UNION SELECT game_id FROM game_results WHERE user_id = ?",
        (tombstone, str(user_id), tombstone, tombstone),
    ) as cursor:
        game_ids = [int(r[0]) for r in await cursor.fetchall()]
    changed = 0
    for game_id in game_ids:
        for select, update in (
            (
                "SELECT id, state_json FROM games WHERE id = ?",
                "UPDATE games SET state_json = ? WHERE id = ?",
            ),
            (
                "SELECT rowid, detail_json FROM game_log WHERE game_id = ?",
                "UPDATE game_log SET detail_json = ? WHERE rowid = ?",
            ),
        ):
            async with conn.execute(select, (game_id,)) as cursor:
                rows = [(r[0], r[1]) for r in await cursor.fetchall()]
            for key, text in rows:
                scrubbed = json.dumps(_scrub(json.loads(text), user_id, tombstone, names))
                if scrubbed != json.dumps(json.loads(text)):
                    await conn.execute(update, (scrubbed, key))
                    changed += 1
    return changed
