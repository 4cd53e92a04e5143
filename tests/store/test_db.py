"""The database opens in WAL mode, migrates once, and refuses a newer schema; on PostgreSQL a
newer schema or a server that cannot be reached is one line without the password."""

from __future__ import annotations

import asyncio
from pathlib import Path

import psycopg
import pytest

from bot.store.db import Database, DatabaseTooNew, DatabaseUnusable, migrations
from tests.cli.test_database_url import SECRET, UNREACHABLE, with_password


async def test_migrations_apply_once_and_wal_is_on(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    db = await Database.open(path)
    assert await db.schema_version() == len(migrations())
    row = await db.fetchone("PRAGMA journal_mode")
    assert row is not None and row[0] == "wal"
    await db.close()
    db = await Database.open(path)  # reopening applies nothing new and keeps the data
    assert await db.schema_version() == len(migrations())
    await db.close()


async def test_a_database_from_a_newer_bot_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    db = await Database.open(path)
    await db.conn.execute(f"PRAGMA user_version = {len(migrations()) + 1}")
    await db.close()
    with pytest.raises(DatabaseTooNew, match="newer version"):
        await Database.open(path)


async def test_transaction_rolls_back_on_error(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "bot.sqlite3")
    with pytest.raises(RuntimeError):
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO members (guild_id, user_id, display_name, updated_at) "
                "VALUES (1, 2, 'x', 0)"
            )
            raise RuntimeError("boom")
    assert await db.fetchone("SELECT * FROM members") is None
    await db.close()


async def test_backup_is_a_consistent_copy(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "bot.sqlite3")
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO members (guild_id, user_id, display_name, updated_at) "
            "VALUES (1, 2, 'Ana', 0)"
        )
    await db.backup_to(tmp_path / "copy.sqlite3")
    await db.close()
    copy = await Database.open(tmp_path / "copy.sqlite3")
    row = await copy.fetchone("SELECT display_name FROM members")
    assert row is not None and row[0] == "Ana"
    await copy.close()


async def test_a_postgresql_database_from_a_newer_bot_is_refused(postgres_url: str) -> None:
    await (await Database.open(postgres_url)).close()
    newer = len(migrations("postgresql")) + 1
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("UPDATE schema_version SET version = %s", (newer,))
    with pytest.raises(DatabaseTooNew) as error:
        await Database.open(with_password(postgres_url))
    message = str(error.value)
    assert "\n" not in message and "newer version" in message
    assert f"schema version {newer}" in message and "postgresql://bot:***@" in message
    assert SECRET not in message
    with psycopg.connect(postgres_url) as conn:  # left as it was
        assert conn.execute("SELECT version FROM schema_version").fetchall() == [(newer,)]


@pytest.mark.parametrize("where", ["no server", "no such database"])
async def test_an_unreachable_postgresql_database_is_one_line(
    where: str, postgres_url: str
) -> None:
    url = UNREACHABLE if where == "no server" else postgres_url.replace("/t_", "/none_", 1)
    with pytest.raises(DatabaseUnusable) as error:
        await Database.open(with_password(url))
    message = str(error.value)
    assert not isinstance(error.value, DatabaseTooNew)
    assert "\n" not in message and message.startswith("cannot connect to the database ")
    assert SECRET not in message and "DATABASE_URL" in message
    if where == "no such database":
        assert "does not exist" in message


async def test_the_postgresql_integrity_check_sees_a_disabled_guard(postgres_url: str) -> None:
    async with await Database.open(postgres_url) as db:
        assert await db.check_integrity() == "ok"
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            conn.execute("ALTER TABLE ledger DISABLE TRIGGER ledger_no_update")
        assert await db.check_integrity() == "1 of the ledger and escrow guard triggers missing"


async def test_a_transaction_cancelled_again_while_cancelling_stays_cancelled(
    postgres_url: str,
) -> None:
    """A task cancelled during a PostgreSQL statement, then again while psycopg cancels it
    on the server (a bot closing mid-tick: its timer task is cancelled, then cancelled again
    by the shutdown): psycopg closes the connection. The task ends cancelled, not with the
    error of a ROLLBACK on that closed connection, and the pool replaces the connection."""
    db = await Database.open(postgres_url)
    try:
        inside = asyncio.Event()

        async def sleeper() -> None:
            async with db.transaction() as conn:
                inside.set()
                await conn.execute("SELECT pg_sleep(5)")

        for pause in (0.0, 0.001, 0.01):
            inside.clear()
            task = asyncio.create_task(sleeper())
            await inside.wait()
            await asyncio.sleep(0.05)  # the statement is running on the server
            task.cancel()
            await asyncio.sleep(pause)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            assert await db.fetchone("SELECT 1") == (1,)
    finally:
        await db.close()
