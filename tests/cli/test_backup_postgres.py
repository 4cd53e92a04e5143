"""``python -m bot backup`` on PostgreSQL: a pg_dump archive that pg_restore turns back into the
same database; a missing or failing pg_dump is one line and leaves no file."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.cli import backup
from bot.store.db import Database, migrations
from bot.store.postgres import client_connection
from tests.cli.test_database_url import SECRET, with_password
from tests.pg import Databases, database_url
from tests.store.played import fill, rows_of


def test_a_dump_restores_to_the_same_database(
    postgres_url: str,
    postgres_databases: Databases,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    asyncio.run(fill(postgres_url, games=4))
    target = tmp_path / "copies" / "bot.dump"
    assert main(["backup", str(target), "--database", with_password(postgres_url)]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and "ok" in out and "pg_restore" in out and SECRET not in out
    assert [p.name for p in target.parent.iterdir()] == ["bot.dump"]

    restored = postgres_databases.create()
    try:
        url = database_url(postgres_databases.server_url, restored)
        result = subprocess.run(
            [backup.client_program("pg_restore"), "--no-owner", f"--dbname={url}", str(target)],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert result.returncode == 0, result.stderr

        async def compare() -> None:
            async with (
                await Database.open(postgres_url) as original,
                await Database.open(url) as copy,
            ):
                assert await copy.schema_version() == len(migrations("postgresql"))
                assert await copy.check_integrity() == "ok"
                assert await rows_of(copy) == await rows_of(original)

        asyncio.run(compare())
    finally:
        postgres_databases.drop(restored)

    assert main(["backup", str(target), "--database", postgres_url]) == 2
    assert "already exists" in capsys.readouterr().err


def test_without_pg_dump_one_line_and_no_file(
    postgres_url: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.setattr(backup, "DEBIAN_BINARIES", str(tmp_path / "none" / "*" / "bin"))
    folder = tmp_path / "copies"
    assert main(["backup", str(folder / "bot.dump"), "--database", postgres_url]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "pg_dump not found" in lines[0], lines
    assert not folder.exists() or list(folder.iterdir()) == []


def test_a_failing_pg_dump_is_one_line_and_leaves_no_file(
    postgres_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = with_password(postgres_url.replace("/t_", "/no_such_", 1))
    folder = tmp_path / "copies"
    assert main(["backup", str(folder / "bot.dump"), "--database", missing]) == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: pg_dump failed: "), lines
    assert "does not exist" in lines[0] and SECRET not in err
    assert list(folder.iterdir()) == []


def test_the_password_goes_to_pg_dump_by_environment_not_argument() -> None:
    conninfo, env = client_connection(f"postgresql://bot:{SECRET}@db.example:5433/bot")
    assert SECRET not in conninfo and "host=db.example" in conninfo and "port=5433" in conninfo
    assert env == {"PGPASSWORD": SECRET}
    assert client_connection("postgresql://bot@/bot?host=/run/pg")[1] == {}
