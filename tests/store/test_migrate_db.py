"""``python -m bot migrate-db``: a SQLite database played through the table service arrives
in PostgreSQL row for row, ids kept; the bot goes on there (a live game continues, new rows
get new ids); a target that is not empty, a newer source, or a row PostgreSQL refuses is one
line, and the target stays as it was."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main
from bot.store import copy, wallets
from bot.store.db import Database, migrations
from tests.cli.test_database_url import SECRET, with_password
from tests.store.played import SETTINGS, fill, rows_of, service_on


def migrate(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["migrate-db", *args])
    out, err = capsys.readouterr()
    assert SECRET not in out + err
    return code, out, err


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


async def max_ids(db: Database) -> dict[str, int]:
    return {
        table: int((await db.fetchone(f"SELECT MAX(id) FROM {table}"))[0])
        for table in ("games", "ledger", "escrows")
    }


def test_a_played_database_moves_whole_and_the_bot_goes_on(
    tmp_path: Path,
    postgres_url: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = tmp_path / "bot.sqlite3"
    running = asyncio.run(fill(path, games=10))
    monkeypatch.setattr(copy, "BATCH", 7)  # many pages per table: the keyset paging is used
    code, out, err = migrate(capsys, "--to", with_password(postgres_url), "--database", str(path))
    assert code == 0, err
    assert "chip invariant ok" in out and "postgresql://bot:***@" in out

    async def check() -> None:
        async with await Database.open(path) as lite, await Database.open(postgres_url) as pg:
            before, after = await rows_of(lite), await rows_of(pg)
            assert after == before
            for table, rows in before.items():  # the report's line per table
                assert f"  {table:<16}{len(rows):>12,} rows" in out
            # A realistic history: every kind of row is there, several pages of most.
            assert all(len(before[t]) > 7 for t in ("games", "game_log", "ledger", "escrows"))
            assert before["player_stats"] and before["rating_history"]
            assert before["guild_settings"] and before["members"] and before["game_results"]
            assert (await wallets.check_invariant(pg)).ok
            last = await max_ids(pg)
            assert f"games {last['games'] + 1:,}" in out

            # The live game goes on, to its end: clicks, payout and ratings on PostgreSQL.
            service = service_on(pg, seed=9)
            table = await service.get(running)
            assert table.status == "running"
            for _ in range(400):
                if table.status != "running" or table.rules is None:
                    break
                user = table.seats[table.rules.current].user_id
                action = "throw" if table.rules.phase == "throw" else "bank"
                change = await service.act(running, user, table.version, action)
                assert change.table.version == table.version + 1
                table = await service.get(running)
            assert table.status == "finished"
            assert (await wallets.check_invariant(pg)).ok
            stats = await pg.fetchone("SELECT MAX(last_game_id) FROM player_stats")
            assert stats[0] == running

            # New rows take the next ids: the sequences continue after the copied ones.
            lobby = await service.open_lobby(
                guild_id=1, channel_id=3, host_id=10, host_name="Host", kind="sequences",
                settings=SETTINGS, stake=5,
            )  # fmt: skip
            await service.join(lobby.id, 11, "P11")
            assert lobby.id == last["games"] + 1
            now = await max_ids(pg)
            assert now["escrows"] == last["escrows"] + 2  # host and joiner
            assert now["ledger"] > last["ledger"]

    asyncio.run(check())


def test_a_target_that_is_not_empty_is_refused(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bot.sqlite3"
    asyncio.run(fill(path, games=2))
    assert migrate(capsys, "--to", postgres_url, "--database", str(path))[0] == 0
    before = asyncio.run(dump(postgres_url))
    code, _, err = migrate(capsys, "--to", with_password(postgres_url), "--database", str(path))
    assert code == 2
    assert "is not empty" in one_line(err) and "postgresql://bot:***@" in err
    assert asyncio.run(dump(postgres_url)) == before


def test_a_source_from_a_newer_bot_is_refused(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bot.sqlite3"
    asyncio.run(fill(path, games=1))
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {len(migrations()) + 1}")
    conn.close()
    code, _, err = migrate(capsys, "--to", postgres_url, "--database", str(path))
    assert code == 2 and "newer version" in one_line(err)
    assert asyncio.run(dump(postgres_url)) == {}  # not even migrated


def test_a_row_postgresql_refuses_rolls_the_whole_copy_back(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bot.sqlite3"
    asyncio.run(fill(path, games=2))
    conn = sqlite3.connect(path)
    # SQLite keeps a NUL inside text; PostgreSQL's text cannot hold one.
    conn.execute("UPDATE members SET display_name = ? WHERE user_id = 13", ("Zo\x00ë",))
    conn.commit()
    conn.close()
    code, _, err = migrate(capsys, "--to", postgres_url, "--database", str(path))
    assert code == 2 and "the copy failed in members" in one_line(err) and "nothing copied" in err
    assert all(rows == [] for rows in asyncio.run(dump(postgres_url)).values())


def test_a_source_whose_chips_do_not_add_up_is_refused(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bot.sqlite3"
    asyncio.run(fill(path, games=2))
    conn = sqlite3.connect(path)
    conn.execute("UPDATE wallets SET balance = balance + 1 WHERE user_id = 11")
    conn.commit()
    conn.close()
    code, _, err = migrate(capsys, "--to", postgres_url, "--database", str(path))
    assert code == 2 and "do not add up" in one_line(err)
    assert all(rows == [] for rows in asyncio.run(dump(postgres_url)).values())


def test_wrong_arguments_are_one_line(
    tmp_path: Path,
    postgres_url: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = tmp_path / "bot.sqlite3"
    code, _, err = migrate(capsys, "--to", postgres_url, "--database", str(path))
    assert code == 2 and f"no SQLite database at {path}" in one_line(err)
    sqlite3.connect(path).close()
    code, _, err = migrate(capsys, "--to", str(tmp_path / "other.sqlite3"), "--database", str(path))
    assert code == 2 and "--to must be a postgresql:// URL" in one_line(err)
    monkeypatch.chdir(tmp_path)  # no .env
    monkeypatch.delenv("DATABASE_URL", raising=False)
    code, _, err = migrate(capsys, "--database", str(path))
    assert code == 2 and "DATABASE_URL" in one_line(err)
    # Both from the settings: DATABASE_PATH to DATABASE_URL.
    asyncio.run(fill(tmp_path / "data" / "bot.sqlite3", games=1))
    monkeypatch.setenv("DATABASE_URL", with_password(postgres_url))
    code, out, err = migrate(capsys)
    assert code == 0, err
    assert f"copying {Path('data/bot.sqlite3')} into postgresql://bot:***@" in out


async def dump(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """The rows of a PostgreSQL database without migrating it: {} when it has no tables."""
    import psycopg

    async with await psycopg.AsyncConnection.connect(url) as conn:
        cursor = await conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema ="
            " current_schema() AND table_name <> 'schema_version'"
        )
        out = {}
        for (table,) in await cursor.fetchall():
            rows = await (await conn.execute(f'SELECT * FROM "{table}"')).fetchall()
            out[table] = sorted(rows, key=repr)
        return out
