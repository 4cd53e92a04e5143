"""Starting the bot: a missing or wrong token is one clear line, never a traceback."""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path

import discord
import pytest

from bot import app
from bot.config import Settings

ROOT = Path(__file__).resolve().parents[2]


def run_bot(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD")}
    clean.update(env)
    clean["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_no_token_is_one_clear_line(tmp_path: Path) -> None:
    result = run_bot(tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "DISCORD_TOKEN" in lines[0] and ".env" in lines[0]
    assert "Traceback" not in result.stderr


def test_bad_setting_is_one_clear_line(tmp_path: Path) -> None:
    result = run_bot(tmp_path, DISCORD_TOKEN="x", TURN_TIMEOUT_SECONDS="5")
    assert result.returncode == 2
    assert "TURN_TIMEOUT_SECONDS" in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_shard_ids_without_a_shard_count_is_one_clear_line(tmp_path: Path) -> None:
    result = run_bot(tmp_path, DISCORD_TOKEN="x", SHARD_IDS="0,1")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "SHARD_IDS needs SHARD_COUNT" in lines[0], result.stderr


def test_token_read_from_dotenv(tmp_path: Path) -> None:
    # SHARD_IDS as one writes it in .env; OWNER_IDS, a setting of older versions that
    # nothing read, is ignored rather than stopping the start.
    (tmp_path / ".env").write_text(
        "DISCORD_TOKEN=abc\nSHARD_COUNT=4\nSHARD_IDS=1, 2\nOWNER_IDS=1\n"
    )
    os.chdir(tmp_path)
    try:
        settings = Settings()
    finally:
        os.chdir(ROOT)
    assert settings.discord_token is not None
    assert settings.discord_token.get_secret_value() == "abc"
    assert settings.shard_ids == [1, 2]
    assert "abc" not in repr(settings)  # the token never shows in logs or errors


def test_wrong_token_is_one_clear_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def refuse(self: object, token: str) -> None:
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(discord.http.HTTPClient, "static_login", refuse)
    settings = Settings(
        _env_file=None, discord_token="wrong", database_path=tmp_path / "bot.sqlite3"
    )
    assert app.run_bot(settings) == 2
    errors = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert any("refused the token" in e for e in errors)
    assert all("wrong" not in e for e in errors)


def test_unknown_log_level_is_one_clear_line(tmp_path: Path) -> None:
    result = run_bot(tmp_path, DISCORD_TOKEN="x", LOG_LEVEL="verbose")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert "LOG_LEVEL" in lines[0] and "DEBUG" in lines[0] and "'verbose'" in lines[0]


def as_unprivileged_root(command: list[str]) -> list[str]:
    """Tests run as root, who may write anywhere; without its capabilities root obeys the
    permission bits, like the image's user on a root-owned bind mount."""
    if os.geteuid() != 0:
        return command
    setpriv = shutil.which("setpriv")
    assert setpriv, "setpriv (util-linux) is needed to drop root's capabilities"
    return [setpriv, "--inh-caps=-all", "--bounding-set=-all", "--", *command]


@pytest.mark.parametrize("problem", ["directory", "proc", "parent is a file", "read-only folder"])
def test_unopenable_database_is_one_clear_line(tmp_path: Path, problem: str) -> None:
    wrapper = None
    if problem == "directory":
        path = tmp_path / "data"
        path.mkdir()
    elif problem == "proc":
        path = Path("/proc/x.db")
    elif problem == "parent is a file":
        (tmp_path / "data").write_text("not a folder")
        path = tmp_path / "data" / "bot.sqlite3"
    else:
        folder = tmp_path / "data"
        folder.mkdir()
        folder.chmod(0o555)
        path = folder / "bot.sqlite3"
        wrapper = as_unprivileged_root
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD", "DATABASE"))}
    clean.update(PYTHONPATH=str(ROOT), DISCORD_TOKEN="x", DATABASE_PATH=str(path))
    command = [sys.executable, "-m", "bot"]
    result = subprocess.run(
        wrapper(command) if wrapper else command,
        cwd=tmp_path, env=clean, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert f"cannot open the database {path}" in lines[0] and "DATABASE_PATH" in lines[0]
    assert not path.is_file() or problem == "directory"


class _Response:
    def __init__(self, status: int, reason: str) -> None:
        self.status = status
        self.reason = reason


@pytest.mark.parametrize(
    ("error", "advice"),
    [
        (discord.Forbidden(_Response(403, "Forbidden"), "no"), "Developer Portal"),  # type: ignore[arg-type]
        (discord.DiscordServerError(_Response(500, "Internal Server Error"), ""), "later"),  # type: ignore[arg-type]
    ],
)
def test_discord_error_at_login_is_one_clear_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    error: discord.HTTPException,
    advice: str,
) -> None:
    async def answer(self: object, route: object, **kwargs: object) -> None:
        raise error

    # The real static_login runs; only Discord's answer to it is made up.
    monkeypatch.setattr(discord.http.HTTPClient, "request", answer)
    settings = Settings(
        _env_file=None, discord_token="token", database_path=tmp_path / "bot.sqlite3"
    )
    assert app.run_bot(settings) == 2
    errors = [r for r in caplog.records if r.levelname == "ERROR"]
    assert len(errors) == 1 and errors[0].exc_info is None
    line = errors[0].getMessage()
    assert str(error.status) in line and advice in line and "\n" not in line


def test_a_bot_run_in_process_leaves_logging_as_it_found_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """run_bot sets the bot's loggers to LOG_LEVEL (INFO); run inside a test it used to leave
    them there, and a later test in the same worker saw the migrations' INFO lines."""

    async def refuse(self: object, token: str) -> None:
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(discord.http.HTTPClient, "static_login", refuse)
    names = ("", "bot", "cogs", *app.THIRD_PARTY_LOGGERS)
    loggers = [logging.getLogger(name) for name in names]
    before = [(lg.level, list(lg.handlers)) for lg in loggers]
    settings = Settings(_env_file=None, discord_token="x", database_path=tmp_path / "bot.sqlite3")
    assert app.run_bot(settings) == 2
    assert [(lg.level, list(lg.handlers)) for lg in loggers] == before
    assert not logging.getLogger("bot.store.db").isEnabledFor(logging.INFO)
