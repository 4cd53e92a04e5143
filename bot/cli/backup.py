"""``python -m bot backup PATH``: a consistent copy of the database, safe while the bot runs.

SQLite's online backup API copies the database as of one moment (one read transaction over
the WAL), so a copy taken mid-game holds whole changes only. The copy is checked before the
command says it is good.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import tempfile
import urllib.parse
from pathlib import Path

from bot.cli.run import add_database_option


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", type=Path, help="where to write the copy (must not exist)")
    add_database_option(parser)


def backup(source: Path, target: Path) -> str:
    """Copy ``source`` to ``target``; returns a one-line summary. Raises ValueError.

    The copy is written to a temporary file beside ``target`` and renamed into place once it
    passed its check, so a failed backup leaves nothing that blocks the next one."""
    if not source.exists():
        raise ValueError(f"no database at {source}")
    if target.exists():
        raise ValueError(f"{target} already exists; choose a new file")
    target.parent.mkdir(parents=True, exist_ok=True)
    # Quoted: a "?" or "#" in the path would start the URI's query or fragment.
    uri = f"file:{urllib.parse.quote(str(source.resolve()))}?mode=ro"
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".partial", dir=target.parent)
    os.close(fd)
    partial = Path(name)
    try:
        src = sqlite3.connect(uri, uri=True, timeout=30)
        try:
            dst = sqlite3.connect(partial)
            try:
                src.backup(dst)  # all pages in one step: one consistent snapshot
                check = dst.execute("PRAGMA integrity_check").fetchone()[0]
                version = dst.execute("PRAGMA user_version").fetchone()[0]
                games = dst.execute("SELECT COUNT(*) FROM games").fetchone()[0]
            finally:
                dst.close()
        finally:
            src.close()
        if check != "ok":
            raise ValueError(f"the copy failed its integrity check ({check}); nothing kept")
        if target.exists():  # made while we copied: never overwrite it
            raise ValueError(f"{target} already exists; choose a new file")
        partial.replace(target)
    finally:
        partial.unlink(missing_ok=True)
    return f"backup of {source} written to {target}: schema {version}, {games:,} games, ok"


def run(args: argparse.Namespace) -> int:
    import sys

    from bot.cli.run import database_target

    source = database_target(args.database)
    if source is None:
        return 2
    if isinstance(source, str):
        print("error: backup copies a SQLite file", file=sys.stderr)
        return 2
    try:
        print(backup(source, Path(args.path)))
    except (ValueError, sqlite3.Error) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0
