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
            # "Value error, " is pydantic's prefix for a validator's own message.
            f"{'.'.join(str(p) for p in err['loc']).upper()}: "
            f"{err['msg'].removeprefix('Value error, ')}"
            for err in exc.errors()
        )
        print(f"error: bad setting in .env or the environment: {problems}", file=sys.stderr)
        return None


def target_option(value: str) -> str | Path:
    """argparse ``type`` of the tools' ``--database``: a SQLite file or a postgresql:// URL."""
    from bot.store.db import is_postgresql

    return value if is_postgresql(value) else Path(value)


def add_database_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--database",
        type=target_option,
        default=None,
        metavar="FILE_OR_URL",
        help="a SQLite file or a postgresql:// URL (default: DATABASE_URL, else DATABASE_PATH)",
    )


def database_target(option: str | Path | None) -> str | Path | None:
    """The database an offline tool works on: ``--database``, else the settings' DATABASE_URL
    or DATABASE_PATH (``Settings.database_target``); None, with one line on stderr, when the
    settings are wrong."""
    from bot.config import Settings, url_problem

    if isinstance(option, str) and (problem := url_problem(option)) is not None:
        print(f"error: --database: {problem}", file=sys.stderr)
        return None
    if option is not None:
        return option

    settings = load_settings()
    return settings.database_target() if isinstance(settings, Settings) else None


def existing_database(option: str | Path | None) -> str | Path | None:
    """``database_target``, and None with one line on stderr when it names a file that is
    not there (a server's database is checked when it is opened)."""
    target = database_target(option)
    if isinstance(target, Path) and not target.exists():
        print(f"error: no database at {target}", file=sys.stderr)
        return None
    return target


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
