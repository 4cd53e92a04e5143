"""Starting the bot: a missing or wrong token is one clear line, never a traceback."""

from __future__ import annotations

import os
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


def test_token_read_from_dotenv(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=abc\nOWNER_IDS=1, 2\n")
    os.chdir(tmp_path)
    try:
        settings = Settings()
    finally:
        os.chdir(ROOT)
    assert settings.discord_token is not None
    assert settings.discord_token.get_secret_value() == "abc"
    assert settings.owner_ids == [1, 2]
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
