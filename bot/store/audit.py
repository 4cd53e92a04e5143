"""Read-only queries that audit the money and the games (the soak checks them after every
operation). All SQL for those checks."""

from __future__ import annotations

from typing import Any

from bot.store.db import Database


async def game_versions(db: Database) -> dict[int, int]:
    return {int(r[0]): int(r[1]) for r in await db.fetchall("SELECT id, version FROM games")}


async def game_money(db: Database, ids: list[int]) -> list[Any]:
    """Per game: id, status, stake, state_json, paid escrows, payout entries."""
    marks = ", ".join("?" * len(ids))
    return list(
        await db.fetchall(
            "SELECT g.id, g.status, g.stake, g.state_json, "
            " (SELECT COUNT(*) FROM escrows e WHERE e.game_id = g.id AND e.status = 'paid'),"
            " (SELECT COUNT(*) FROM ledger l WHERE l.game_id = g.id AND l.kind = 'payout')"
            f" FROM games g WHERE g.id IN ({marks})",
            ids,
        )
    )


async def held_escrows(db: Database, ids: list[int]) -> list[Any]:
    """game_id, user_id, amount of every stake still held at those games."""
    marks = ", ".join("?" * len(ids))
    return list(
        await db.fetchall(
            "SELECT game_id, user_id, amount FROM escrows WHERE status = 'held'"
            f" AND game_id IN ({marks})",
            ids,
        )
    )


async def status_counts(db: Database) -> dict[str, int]:
    rows = await db.fetchall("SELECT status, COUNT(*) FROM games GROUP BY status")
    return {r[0]: r[1] for r in rows}


async def payouts(db: Database) -> tuple[int, int]:
    """How many games paid a pot, and how many chips in all."""
    row = await db.fetchone(
        "SELECT COUNT(DISTINCT game_id), COALESCE(SUM(delta), 0) FROM ledger WHERE kind = 'payout'"
    )
    assert row is not None
    return int(row[0]), int(row[1])
