"""``python -m bot migrate-db [--to URL] [--database FILE]``: copy a SQLite database into a new,
empty PostgreSQL one in one checked transaction (bot/store/copy.py; docs/scaling.md). The SQLite
file is only brought to this bot's schema, and stays a fallback."""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
import time
import urllib.parse
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--to",
        metavar="URL",
        default=None,
        help="the new, empty PostgreSQL database: postgresql://user:password@host/name "
        "(default: DATABASE_URL, which keeps the password off the command line)",
    )
    parser.add_argument(
        "--database",
        type=Path,
        metavar="FILE",
        default=None,
        help="the SQLite file to copy (default: DATABASE_PATH)",
    )


def run(args: argparse.Namespace) -> int:
    from bot.store.db import is_postgresql

    source: Path | None = args.database
    target: str | None = args.to
    if source is None or target is None:
        from bot.cli.run import load_settings
        from bot.config import Settings

        settings = load_settings()
        if not isinstance(settings, Settings):
            return 2
        source = source or settings.database_path
        if target is None and settings.database_url is not None:
            target = settings.database_url.get_secret_value()
    if target is None:
        return _error("give the PostgreSQL database: --to postgresql://... or DATABASE_URL")
    if not is_postgresql(target):
        return _error("--to must be a postgresql:// URL (the database to copy into)")
    from bot.config import url_problem

    if (problem := url_problem(target)) is not None:
        return _error(f"--to: {problem}")
    if is_postgresql(str(source)) or not source.is_file():
        return _error(f"no SQLite database at {source} (--database names the file to copy)")
    if (problem := _not_a_bot_database(source)) is not None:
        return _error(problem)
    try:
        return asyncio.run(_migrate(source, target))
    except KeyboardInterrupt:  # the target's transaction was rolled back
        return _error("interrupted; nothing copied")


def _not_a_bot_database(path: Path) -> str | None:
    """Why ``path`` is no bot database to copy, read-only, before anything opens (and so
    migrates) it or the target; None when it may be one (a file that is no SQLite database at
    all is reported when it is opened)."""
    if path.stat().st_size == 0:
        return f"{path} is empty (0 bytes), not a bot database: nothing copied"
    uri = f"file:{urllib.parse.quote(str(path.resolve()))}?mode=ro"
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=10)
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.Error:
        return None
    if version == 0:  # every bot database has been migrated at least once
        return f"{path} is a SQLite file but not a bot database (no schema version): nothing copied"
    return None


async def _migrate(source: Path, url: str) -> int:
    from bot.store.copy import CopyError, copy_database
    from bot.store.db import Database, DatabaseUnusable

    started = time.perf_counter()
    try:
        async with await Database.open(source) as src, await Database.open(url) as dst:
            header = [f"copying {src.target} into {dst.target}, in one transaction:"]

            def done(table: str, rows: int) -> None:
                while header:  # once the checks before the first table have passed
                    print(header.pop(), flush=True)
                print(f"  {table:<16}{rows:>12,} rows", flush=True)

            report = await copy_database(src, dst, on_table=done)
    except (DatabaseUnusable, CopyError) as exc:
        return _error(str(exc))
    ids = ", ".join(f"{table} {next_id:,}" for table, next_id in report.next_ids.items())
    ledger_rows, ledger_sum = report.ledger
    print(f"  new ids continue at: {ids}")
    print(
        f"  checked before COMMIT: every row equal to its source row, ledger {ledger_rows:,} "
        f"rows summing to {ledger_sum:,} on both, chip invariant ok"
    )
    print(
        f"done in {time.perf_counter() - started:.1f} s: set DATABASE_URL to this database "
        "and start the bot"
    )
    return 0


def _error(line: str) -> int:
    print(f"error: {line}", file=sys.stderr)
    return 2
