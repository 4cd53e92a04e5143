"""python -m bot health: exit 0 when the database opens read-only and passes its check, 1 otherwise
with one line saying which (the Docker image's HEALTHCHECK)."""

from __future__ import annotations

import argparse
import sqlite3
import sys
import urllib.parse
from pathlib import Path

from bot.cli.run import add_database_option


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_database_option(parser)


def check(target: str | Path) -> tuple[bool, str]:
    """(healthy, one line). Read-only: never creates, migrates or locks the database."""
    if isinstance(target, str):
        return check_server(target)
    path = target
    from bot.store.db import migrations

    if not path.is_file():
        return False, f"no database at {path}"
    uri = f"file:{urllib.parse.quote(str(path.resolve()))}?mode=ro"
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=10)
        try:
            quick = conn.execute("PRAGMA quick_check").fetchone()[0]
            version = conn.execute("PRAGMA user_version").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.Error as exc:
        return False, f"database {path} cannot be read ({exc})"
    if quick != "ok":
        return False, f"database {path} failed its quick check ({quick})"
    shipped = len(migrations())
    if version > shipped:
        return False, f"database {path} has schema {version}; this bot knows {shipped}"
    return True, f"database {path} ok: schema {version}"


def check_server(url: str) -> tuple[bool, str]:
    from bot.store.db import DatabaseUnusable, migrations
    from bot.store.postgres import display_url, inspect

    try:
        version, verdict = inspect(url)
    except DatabaseUnusable as exc:
        return False, str(exc)
    where = display_url(url)
    if verdict != "ok":
        return False, f"database {where} failed its check ({verdict})"
    shipped = len(migrations("postgresql"))
    if version > shipped:
        return False, f"database {where} has schema {version}; this bot knows {shipped}"
    return True, f"database {where} ok: schema {version}"


def run(args: argparse.Namespace) -> int:
    from bot.cli.run import database_target

    target = database_target(args.database)
    if target is None:
        return 1
    healthy, line = check(target)
    print(line, file=sys.stdout if healthy else sys.stderr)
    return 0 if healthy else 1
