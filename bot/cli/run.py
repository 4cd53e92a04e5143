"""``python -m bot run``: start the bot with the token from `.env`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pydantic import ValidationError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    pass


def load_settings() -> object:
    """Settings, or one readable line on stderr and None if they are wrong."""
    from bot.config import Settings

    try:
        return Settings()
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']).upper()}: {err['msg']}" for err in exc.errors()
        )
        print(f"error: bad setting in .env or the environment: {problems}", file=sys.stderr)
        return None


def database_path(path: Path | None) -> Path | None:
    """The database file an offline tool works on: ``--database``, else the settings' path;
    None, with one line on stderr, when the settings are wrong."""
    if path is not None:
        return Path(path)
    from bot.config import Settings

    settings = load_settings()
    return settings.database_path if isinstance(settings, Settings) else None


def existing_database(path: Path | None) -> Path | None:
    """``database_path``, and None with one line on stderr when no file is there."""
    path = database_path(path)
    if path is None:
        return None
    if not path.exists():
        print(f"error: no database at {path}", file=sys.stderr)
        return None
    return path


def run(args: argparse.Namespace) -> int:
    from bot.config import Settings

    settings = load_settings()
    if not isinstance(settings, Settings):
        return 2
    if settings.discord_token is None or not settings.discord_token.get_secret_value().strip():
        print(
            "error: DISCORD_TOKEN is not set: put DISCORD_TOKEN=... in .env "
            "(see .env.example) or in the environment",
            file=sys.stderr,
        )
        return 2
    from bot.app import run_bot

    return run_bot(settings)
