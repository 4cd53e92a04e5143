"""python -m bot health: exit 0 when the database opens read-only and passes SQLite's quick
check, 1 otherwise, with one line saying which. The Docker image's HEALTHCHECK runs it.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import urllib.parse
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--database", type=Path, default=None, help="database file (default: from settings)"
    )


def check(path: Path) -> tuple[bool, str]:
    """(healthy, one line). Read-only: never creates, migrates or locks the database."""
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


def run(args: argparse.Namespace) -> int:
    from bot.cli.run import database_path

    path = database_path(args.database)
    if path is None:
        return 1
    healthy, line = check(path)
    print(line, file=sys.stdout if healthy else sys.stderr)
    return 0 if healthy else 1
