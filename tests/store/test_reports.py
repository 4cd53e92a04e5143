"""Table reports in the store (issue 36): one per member and table, the table's places
(every server's for a cross-server table). Both engines."""

from __future__ import annotations

import pytest

from bot.records import EVERYWHERE
from bot.store import reports
from bot.store.db import Database
from bot.store.reports import Place
from tests.store.helpers import GUILD, OTHER_GUILD, T0, new_game


async def add(
    db: Database, game: int, user: int, reason: str = "rude", at: float = T0
) -> int | None:
    return await reports.add(
        db, game_id=game, user_id=user, guild_id=GUILD, channel_id=5, reason=reason, now=at
    )


async def test_one_report_per_member_and_table(db: Database) -> None:
    one, two = await new_game(db), await new_game(db)
    first = await add(db, one, 7, "<@8> @everyone\nwas rude")
    assert first is not None
    assert await add(db, one, 7, "again") is None
    assert await add(db, one, 8) is not None and await add(db, two, 7) is not None
    kept = await reports.since(db, 0)
    assert [(r.game_id, r.user_id) for r in kept] == [(one, 7), (one, 8), (two, 7)]
    assert kept[0].reason == "<@8> @everyone\nwas rude"  # verbatim
    assert kept[0].places == (Place(GUILD, 1, None),)  # a server's table: its channel


async def test_since_keeps_the_recent_ones(db: Database) -> None:
    game = await new_game(db)
    await add(db, game, 1, at=T0)
    await add(db, game, 2, at=T0 + 100)
    assert [r.user_id for r in await reports.since(db, T0 + 50)] == [2]


async def test_the_schema_refuses_an_empty_or_overlong_reason(db: Database) -> None:
    game = await new_game(db)
    for reason in ("", "x" * 301):
        with pytest.raises(Exception):  # noqa: B017 - either engine's integrity error
            await add(db, game, 1, reason)
    assert await add(db, game, 1, "é" * 300) is not None  # characters, not bytes


async def test_a_cross_server_table_lists_each_place(
    db: Database,
) -> None:
    game = await new_game(db, guild_id=EVERYWHERE)
    async with db.transaction() as conn:
        await conn.execute("UPDATE games SET thread_id = 41 WHERE id = ?", (game,))
        for position, (guild, channel, thread) in enumerate(
            ((GUILD, 40, 41), (OTHER_GUILD, 50, 51))
        ):
            await conn.execute(
                "INSERT INTO table_places (game_id, guild_id, position, channel_id, thread_id,"
                " user_ids) VALUES (?, ?, ?, ?, ?, '[]')",
                (game, guild, position, channel, thread),
            )
    assert await reports.places(db, game) == (Place(GUILD, 40, 41), Place(OTHER_GUILD, 50, 51))
    await add(db, game, 3)
    [kept] = await reports.since(db, 0)
    assert kept.places == (Place(GUILD, 40, 41), Place(OTHER_GUILD, 50, 51))
