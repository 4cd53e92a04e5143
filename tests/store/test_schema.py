"""The two engines' migrations make the same schema: the same tables, each with the same
columns in the same order, the same primary key and the same foreign keys. What differs is
spelled out here: PostgreSQL records its migrations in a table, SQLite in a pragma."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import psycopg

from bot.store.db import Database, migrations

# Tables one engine has that are not the bot's data, and that Database.tables() leaves out:
# PostgreSQL's migration record (SQLite keeps it in PRAGMA user_version), and SQLite's own
# AUTOINCREMENT counters (PostgreSQL's are sequences, not tables).
ONLY_POSTGRESQL = {"schema_version"}
ONLY_SQLITE = {"sqlite_sequence"}


async def shape(db: Database) -> dict[str, tuple[list[str], list[str], list[str]]]:
    return {
        table: (
            await db.columns(table),
            await db.primary_key(table),
            await db.references(table),
        )
        for table in await db.tables()
    }


async def test_sqlite_and_postgresql_schemas_match(tmp_path: Path, postgres_url: str) -> None:
    assert len(migrations("sqlite")) == len(migrations("postgresql"))
    assert [name for _, name, _ in migrations("sqlite")] == [
        name for _, name, _ in migrations("postgresql")
    ]
    async with (
        await Database.open(tmp_path / "bot.sqlite3") as sqlite,
        await Database.open(postgres_url) as postgresql,
    ):
        assert await sqlite.schema_version() == await postgresql.schema_version()
        lite, pg = await shape(sqlite), await shape(postgresql)
        assert sorted(lite) == sorted(pg)
        for table in lite:
            assert lite[table] == pg[table], table
        # Every table has a primary key (migrate-db copies in its order).
        assert all(key for _, key, _ in lite.values())
        assert lite["game_log"][2] == ["games"]

    with psycopg.connect(postgres_url) as conn:
        every = {
            row[0]
            for row in conn.execute(
                "SELECT table_name FROM information_schema.tables"
                " WHERE table_schema = current_schema()"
            )
        }
    assert every - set(pg) == ONLY_POSTGRESQL
    conn = sqlite3.connect(tmp_path / "bot.sqlite3")
    try:
        every = {
            row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
    finally:
        conn.close()
    assert every - set(lite) == ONLY_SQLITE
