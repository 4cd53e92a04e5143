"""What an operator sees on the command line (issue 19, items 21, 22, 29, 30, 31): Discord out
of reach, a DATABASE_URL whose password is not percent-encoded, an absurd SHARD_COUNT and a
damaged or empty source of ``migrate-db`` are each one ``error: ...`` line and a non-zero exit,
no traceback and no ERROR log; the start shows no voice warnings for a bot without voice."""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# python -m bot, with Discord's API at a port where nothing listens: the real client, its real
# HTTP request and the real connection refused, without the network.
OFFLINE = (
    "import sys, discord.http; "
    "discord.http.Route.BASE = 'http://127.0.0.1:1/api/v10'; "
    "from bot.__main__ import main; sys.exit(main(sys.argv[1:]))"
)


def offline_bot(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD", "DATABASE"))}
    clean.update(env, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-c", OFFLINE, *args],
        cwd=cwd, env=clean, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def one_error_line(result: subprocess.CompletedProcess[str], code: int = 2) -> str:
    assert result.returncode == code, (result.returncode, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert lines[0].startswith("error: "), lines[0]
    return lines[0]


def test_sync_without_discord_is_one_line(tmp_path: Path) -> None:
    result = offline_bot(tmp_path, "sync", DISCORD_TOKEN="x")
    line = one_error_line(result)
    assert "cannot reach Discord" in line and "network" in line
    assert result.stdout == ""
    guild = offline_bot(tmp_path, "sync", "--guild", "123", DISCORD_TOKEN="x")
    assert "cannot reach Discord" in one_error_line(guild)


def test_sync_with_a_bad_setting_is_one_line(tmp_path: Path) -> None:
    result = offline_bot(tmp_path, "sync", DISCORD_TOKEN="x", TURN_TIMEOUT_SECONDS="5")
    assert "TURN_TIMEOUT_SECONDS" in one_error_line(result)


def test_the_start_shows_no_voice_warnings(tmp_path: Path) -> None:
    # run: its log has the login line and the one error, and nothing about voice.
    result = offline_bot(tmp_path, "run", DISCORD_TOKEN="x")
    assert result.returncode == 2
    assert "PyNaCl" not in result.stderr and "davey" not in result.stderr, result.stderr
    assert "voice" not in result.stderr
    [error] = [line for line in result.stderr.splitlines() if " ERROR " in line]
    assert "cannot reach Discord" in error
    # sync sets no logging up: Python's last-resort handler would print them.
    sync = offline_bot(tmp_path, "sync", DISCORD_TOKEN="x")
    assert "voice" not in sync.stderr, sync.stderr


def test_only_the_two_voice_warnings_are_dropped(caplog: pytest.LogCaptureFixture) -> None:
    from bot.app import quiet_voice_warnings

    logger = logging.getLogger("discord.client")
    before = list(logger.filters)
    quiet_voice_warnings()
    quiet_voice_warnings()  # idempotent: one filter
    added = [f for f in logger.filters if f not in before]
    assert sum(type(f).__name__ == "_NoVoiceWarnings" for f in logger.filters) == 1
    try:
        with caplog.at_level(logging.INFO, logger="discord.client"):
            logger.warning("PyNaCl is not installed, voice will NOT be supported")
            logger.warning("davey is not installed, voice will NOT be supported")
            logger.warning("Shard ID %s heartbeat blocked for more than %s seconds.", 0, 10)
            logger.warning("PyNaCl is not installed, and something else went wrong")
            logger.info("logging in using static token")
    finally:
        for f in added:  # as it was: no test leaves logging changed
            logger.removeFilter(f)
    assert [r.getMessage() for r in caplog.records] == [
        "Shard ID 0 heartbeat blocked for more than 10 seconds.",
        "PyNaCl is not installed, and something else went wrong",
        "logging in using static token",
    ]


def bot_command(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD", "DATABASE"))}
    clean.update(env, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd, env=clean, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


# An "@" left in the password: libpq reads password "ab" and host "Hunter2-S3cret@host".
UNENCODED = "postgresql://bot:ab@Hunter2-S3cret@127.0.0.1:1/bot"
PIECES = ("Hunter2", "S3cret", "ab@")


@pytest.mark.parametrize(
    "command",
    [[], ["run"], ["health"], ["migrate-db"], ["backup", "copy.dump"], ["verify-log"], ["sync"]],
)
def test_an_unencoded_at_in_the_password_is_refused_unshown(
    tmp_path: Path, command: list[str]
) -> None:
    result = bot_command(tmp_path, *command, DISCORD_TOKEN="x", DATABASE_URL=UNENCODED)
    line = one_error_line(result, 1 if command == ["health"] else 2)  # health: 0 or 1
    assert "DATABASE_URL" in line and "percent-encoded" in line and "%40" in line
    assert not any(piece in result.stderr + result.stdout for piece in PIECES), line
    assert " ERROR " not in result.stderr
    assert not (tmp_path / "data").exists() and not (tmp_path / "copy.dump").exists()


@pytest.mark.parametrize("command", [["health"], ["backup", "copy.dump"], ["replay", "1"]])
def test_an_unencoded_at_in_database_option_is_refused_unshown(
    tmp_path: Path, command: list[str]
) -> None:
    result = bot_command(tmp_path, *command, "--database", UNENCODED)
    assert result.returncode in (1, 2)  # health says 1 for every unusable database
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --database: "), result.stderr
    assert "%40" in lines[0]
    assert not any(piece in result.stderr + result.stdout for piece in PIECES), lines
    migrate = bot_command(tmp_path, "migrate-db", "--to", UNENCODED, "--database", "x.sqlite3")
    line = one_error_line(migrate)
    assert line.startswith("error: --to: ") and "%40" in line
    assert not any(piece in migrate.stderr for piece in PIECES)


def test_a_percent_encoded_password_is_used_and_never_shown(tmp_path: Path) -> None:
    from bot.config import Settings

    encoded = "postgresql://bot:ab%40Hunter2-S3cret@127.0.0.1:1/bot"
    settings = Settings(_env_file=None, database_url=encoded)
    assert settings.database_target() == encoded
    result = bot_command(tmp_path, "health", DATABASE_URL=encoded)
    assert result.returncode == 1
    [line] = result.stderr.strip().splitlines()
    assert "cannot connect to the database postgresql://bot:***@127.0.0.1:1/bot" in line
    assert not any(piece in result.stderr for piece in ("Hunter2", "S3cret", "%40"))


@pytest.mark.parametrize("count", ["99999999999999999999999", "1000000", "50001", "0", "-3"])
def test_an_absurd_shard_count_stops_the_start_before_the_database(
    tmp_path: Path, count: str
) -> None:
    result = bot_command(tmp_path, DISCORD_TOKEN="x", SHARD_COUNT=count)
    line = one_error_line(result)
    assert "SHARD_COUNT" in line and "1 to 50,000" in line, line
    assert " ERROR " not in result.stderr
    assert not (tmp_path / "data").exists()  # not opened, not migrated


def test_the_largest_shard_count_is_accepted() -> None:
    from bot.config import Settings

    settings = Settings(_env_file=None, shard_count=50_000, shard_ids=[0, 49_999])
    assert settings.shards().count == 50_000


def migrate(capsys: pytest.CaptureFixture[str], source: Path, url: str) -> tuple[int, str]:
    from bot.__main__ import main

    code = main(["migrate-db", "--to", url, "--database", str(source)])
    return code, capsys.readouterr().err


def played(path: Path) -> Path:
    from tests.store.played import fill

    asyncio.run(fill(path, games=2))
    return path


@pytest.mark.parametrize("where", ["a member's name", "a game's state", "the schema"])
def test_a_source_with_bytes_that_are_not_utf8_is_one_line(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    from tests.store.test_migrate_db import dump

    path = played(tmp_path / "bot.sqlite3")
    if where == "the schema":  # a flipped byte in a column's name, in the file itself
        data = bytearray(path.read_bytes())
        at = data.find(b"lobby_message_id")
        data[at + 1] = 0xFF
        path.write_bytes(bytes(data))
    else:
        table, column, key = {
            "a member's name": ("members", "display_name", "user_id = 13"),
            "a game's state": ("games", "state_json", "id = (SELECT MIN(id) FROM games)"),
        }[where]
        conn = sqlite3.connect(path)
        # "hand-7" then a byte no UTF-8 text holds: the line must not quote the text.
        conn.execute(f"UPDATE {table} SET {column} = CAST(x'68616e642d37ff' AS TEXT) WHERE {key}")
        conn.commit()
        conn.close()
    code, err = migrate(capsys, path, postgres_url)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert "not valid UTF-8" in lines[0] and "restore a backup" in lines[0], lines[0]
    assert "nothing copied" in lines[0] and "hand-7" not in lines[0]
    assert all(rows == [] for rows in asyncio.run(dump(postgres_url)).values())


@pytest.mark.parametrize("source", ["zero-length", "no bot schema"])
def test_a_source_that_is_no_bot_database_is_refused(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str], source: str
) -> None:
    from tests.store.test_migrate_db import dump

    path = tmp_path / "bot.sqlite3"
    path.touch()
    if source == "no bot schema":
        conn = sqlite3.connect(path)
        conn.execute("CREATE TABLE notes (body TEXT)")
        conn.commit()
        conn.close()
    before = path.read_bytes()
    code, err = migrate(capsys, path, postgres_url)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "not a bot database" in lines[0], err
    assert "nothing copied" in lines[0]
    assert asyncio.run(dump(postgres_url)) == {}  # the target not even migrated
    assert path.read_bytes() == before  # nor the source
