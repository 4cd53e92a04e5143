"""DATABASE_URL: the bot and every offline tool of the database work on a PostgreSQL URL as
on a SQLite file (``--database`` takes either), a wrong scheme or an unreachable server is one
line, and no line ever shows the password."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.__main__ import main
from bot.cli.health import check
from bot.config import Settings
from bot.store.db import Database, migrations

ROOT = Path(__file__).resolve().parents[2]
SECRET = "hunter2-s3cret"
# Nothing listens on port 1: the connection is refused at once.
UNREACHABLE = f"postgresql://bot:{SECRET}@127.0.0.1:1/bot"


def with_password(url: str) -> str:
    """The test server trusts every local connection: a password in the URL is never asked
    for, so it only shows whether a message would print it."""
    return url.replace("://bot@", f"://bot:{SECRET}@", 1)


def bot_command(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD", "DATABASE"))}
    clean.update(env, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd, env=clean, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def test_the_target_is_the_url_else_the_path() -> None:
    path = Path("x/bot.sqlite3")
    assert Settings(_env_file=None, database_path=path).database_target() == path
    assert Settings(_env_file=None, database_path=path, database_url="").database_target() == path
    url = "postgresql://bot:pw@db.example:5432/bot"
    settings = Settings(_env_file=None, database_url=url)
    assert settings.database_target() == url
    assert "pw" not in repr(settings)


@pytest.mark.parametrize("url", [f"mysql://bot:{SECRET}@db/bot", f"bot:{SECRET}@db/bot"])
def test_another_scheme_is_refused_without_the_password(url: str) -> None:
    with pytest.raises(ValidationError) as error:
        Settings(_env_file=None, database_url=url)
    [problem] = error.value.errors()
    assert "postgresql://" in problem["msg"] and SECRET not in problem["msg"]


def test_a_wrong_scheme_stops_the_start_with_one_line(tmp_path: Path) -> None:
    result = bot_command(tmp_path, DISCORD_TOKEN="x", DATABASE_URL=f"mysql://bot:{SECRET}@db/b")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "DATABASE_URL" in lines[0] and "mysql://" in lines[0], lines
    assert SECRET not in result.stderr + result.stdout


def test_an_unreachable_server_stops_the_start_with_one_line(tmp_path: Path) -> None:
    result = bot_command(tmp_path, DISCORD_TOKEN="x", DATABASE_URL=UNREACHABLE)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert "cannot connect to the database postgresql://bot:***@127.0.0.1:1/bot" in lines[0]
    assert SECRET not in result.stderr + result.stdout


@pytest.mark.parametrize(
    "command", [["health"], ["rebuild-ratings"], ["verify-log"], ["forget", "5"], ["replay", "1"]]
)
def test_every_tool_says_an_unreachable_server_in_one_line(
    tmp_path: Path, command: list[str]
) -> None:
    result = bot_command(tmp_path, *command, "--database", UNREACHABLE)
    assert result.returncode in (1, 2)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot connect" in lines[0], result.stderr
    assert SECRET not in result.stderr + result.stdout
    # From DATABASE_URL, without --database: the same.
    from_settings = bot_command(tmp_path, *command, DATABASE_URL=UNREACHABLE)
    assert from_settings.stderr == result.stderr


def test_the_tools_work_on_a_url(
    postgres_url: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = with_password(postgres_url)
    healthy, line = check(url)
    assert healthy and line.endswith("ok: schema 0") and SECRET not in line  # not migrated
    assert main(["rebuild-ratings", "--database", url]) == 0  # opening migrates
    assert "from 0 games" in capsys.readouterr().out
    healthy, line = check(url)
    assert healthy and line.endswith(f"ok: schema {len(migrations('postgresql'))}")
    # Without --database: DATABASE_URL from the environment, not DATABASE_PATH.
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "unused.sqlite3"))
    assert main(["verify-log"]) == 0
    assert "0 finished games checked" in capsys.readouterr().out
    assert main(["forget", "5"]) == 0
    assert "forgot member 5" in capsys.readouterr().out
    assert main(["replay", "1"]) == 2
    assert "no game 1" in capsys.readouterr().err
    assert main(["health"]) == 0
    assert not (tmp_path / "unused.sqlite3").exists()


def test_health_of_a_server_database(postgres_url: str) -> None:
    async def newer() -> None:
        async with await Database.open(postgres_url) as db, db.transaction() as conn:
            await conn.execute("UPDATE schema_version SET version = version + 1")

    asyncio.run(newer())
    healthy, line = check(with_password(postgres_url))
    assert not healthy and f"has schema {len(migrations('postgresql')) + 1}" in line
    assert SECRET not in line
    healthy, line = check(UNREACHABLE)
    assert not healthy and "cannot connect" in line and SECRET not in line


def test_a_server_database_from_a_newer_bot_stops_the_start_with_one_line(
    tmp_path: Path, postgres_url: str
) -> None:
    async def newer() -> None:
        async with await Database.open(postgres_url) as db, db.transaction() as conn:
            await conn.execute("UPDATE schema_version SET version = version + 1")

    asyncio.run(newer())
    result = bot_command(tmp_path, DISCORD_TOKEN="x", DATABASE_URL=with_password(postgres_url))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "newer version" in lines[0], result.stderr
    assert SECRET not in result.stderr + result.stdout
