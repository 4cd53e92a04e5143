"""The PostgreSQL test server and its fixtures: real servers, real databases."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import psycopg
import pytest

from tests import pgserver
from tests.pg import Databases, database_url

ROOT = Path(__file__).resolve().parents[2]

USER_TABLES = (
    "SELECT count(*) FROM information_schema.tables"
    " WHERE table_schema NOT IN ('pg_catalog', 'information_schema')"
)

seen_databases: dict[int, str] = {}  # run -> database, within this process


@pytest.mark.parametrize("run", [1, 2])
def test_each_test_gets_a_fresh_empty_writable_database(postgres_url: str, run: int) -> None:
    with psycopg.connect(postgres_url) as conn:
        name = conn.execute("SELECT current_database()").fetchone()
        assert name is not None
        assert name[0].startswith("t_")
        assert conn.execute(USER_TABLES).fetchone() == (0,)
        # the same table in both runs: it would clash if they shared a database
        conn.execute("CREATE TABLE marker (run integer PRIMARY KEY, db text NOT NULL)")
        conn.execute("INSERT INTO marker VALUES (%s, current_database())", (run,))
        assert conn.execute("SELECT run FROM marker").fetchall() == [(run,)]
    seen_databases[run] = name[0]
    assert len(set(seen_databases.values())) == len(seen_databases)


def test_databases_are_distinct_and_dropped(postgres_server_url: str) -> None:
    databases = Databases(postgres_server_url)
    try:
        first, second = databases.create(), databases.create()
        assert first != second
        with psycopg.connect(database_url(postgres_server_url, first)) as conn:
            conn.execute("CREATE TABLE only_in_first (x integer)")
        second_url = database_url(postgres_server_url, second)
        with psycopg.connect(second_url, autocommit=True) as conn:
            assert conn.execute(USER_TABLES).fetchone() == (0,)
            # dropped although a connection is still open on it
            databases.drop(first)
            databases.drop(second)
        with psycopg.connect(postgres_server_url) as conn:
            left = conn.execute(
                "SELECT datname FROM pg_database WHERE datname IN (%s, %s)", (first, second)
            ).fetchall()
        assert left == []
    finally:
        databases.close()


def test_server_url_works_with_psycopg(postgres_server_url: str) -> None:
    parts = urlsplit(postgres_server_url)
    assert parts.scheme == "postgresql"
    with psycopg.connect(postgres_server_url, autocommit=True) as conn:
        # a temporary table: the maintenance database is shared by every test of the run
        conn.execute("CREATE TEMPORARY TABLE chips (user_id bigint, balance integer)")
        conn.execute("INSERT INTO chips VALUES (%s, %s), (%s, %s)", (1, 100, 2, 250))
        rows = conn.execute("SELECT user_id, balance FROM chips ORDER BY user_id").fetchall()
        assert rows == [(1, 100), (2, 250)]
        assert conn.execute("SHOW fsync").fetchone() in (("off",), ("on",))


def test_cli_runs_the_command_against_a_server_and_removes_it() -> None:
    probe = (
        "import os, psycopg\n"
        f"url = os.environ[{pgserver.ENV_VAR!r}]\n"
        "print(url)\n"
        "with psycopg.connect(url) as conn:\n"
        "    assert conn.execute('SELECT current_user').fetchone() == ('bot',)\n"
        "raise SystemExit(3)\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "tests.pgserver", "run", "--", sys.executable, "-c", probe],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 3, done.stderr  # the command's own exit code
    url = done.stdout.strip()
    assert re.fullmatch(r"postgresql://bot@/postgres\?host=/(dev/shm|tmp)/bot-pg-\w+&port=\d+", url)
    query = parse_qs(urlsplit(url).query)
    socket_dir = Path(query["host"][0])
    assert int(query["port"][0]) > 0
    assert not socket_dir.exists()  # stopped and removed


def test_cli_durable_server_keeps_the_default_durability_on_the_disk() -> None:
    probe = (
        "import os, psycopg\n"
        f"url = os.environ[{pgserver.ENV_VAR!r}]\n"
        "print(url)\n"
        "with psycopg.connect(url) as conn:\n"
        "    for name in ('fsync', 'synchronous_commit', 'full_page_writes'):\n"
        "        assert conn.execute(f'SHOW {name}').fetchone() == ('on',), name\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "tests.pgserver", "run", "--durable", "--", sys.executable,
         "-c", probe],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "?host=/tmp/bot-pg-" in done.stdout  # the disk, not /dev/shm


def test_cli_refuses_no_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tests.pgserver", "run", "--"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert "usage" in done.stderr


def test_missing_binaries_are_installed_as_root(monkeypatch: pytest.MonkeyPatch) -> None:
    found = iter([None, Path("/usr/lib/postgresql/15/bin")])
    commands: list[list[str]] = []

    def fake_run(command: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
        commands.append(command)
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(pgserver, "find_binaries", lambda: next(found))
    monkeypatch.setattr(pgserver, "_is_root", lambda: True)
    monkeypatch.setattr(subprocess, "run", fake_run)
    assert pgserver.ensure_binaries() == Path("/usr/lib/postgresql/15/bin")
    assert commands == [
        ["apt-get", "update"],
        ["apt-get", "install", "-y", "--no-install-recommends", "postgresql"],
    ]


def test_missing_binaries_are_an_error_not_a_skip(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pgserver, "find_binaries", lambda: None)
    monkeypatch.setattr(pgserver, "_is_root", lambda: False)
    with pytest.raises(pgserver.PostgresServerError, match="apt-get install postgresql"):
        pgserver.ensure_binaries()


def test_binaries_are_found_on_this_machine() -> None:
    bin_dir = pgserver.find_binaries()
    assert bin_dir is not None
    assert (bin_dir / "initdb").is_file()
    assert os.access(bin_dir / "pg_ctl", os.X_OK)
