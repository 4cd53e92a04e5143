"""``python -m bot backup PATH``: a consistent copy of the database, safe while the bot runs:
SQLite's online backup API, or ``pg_dump --format=custom`` from one snapshot, checked before it is
called good."""

from __future__ import annotations

import argparse
import glob
import os
import shutil
import sqlite3
import subprocess
import tempfile
import urllib.parse
from pathlib import Path

from bot.cli.run import add_database_option

# Where Debian's postgresql packages put the client programs, one folder per major version.
DEBIAN_BINARIES = "/usr/lib/postgresql/*/bin"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", type=Path, help="where to write the copy (must not exist)")
    add_database_option(parser)


def backup(source: str | Path, target: Path) -> str:
    """Copy ``source`` (a SQLite file or a PostgreSQL URL) to ``target`` and return a one-line
    summary (ValueError). Written beside ``target`` and renamed once checked, so a failed backup
    blocks nothing."""
    if isinstance(source, str):
        return dump(source, target)
    if not source.exists():
        raise ValueError(f"no database at {source}")
    partial = _partial_beside(target)
    # Quoted: a "?" or "#" in the path would start the URI's query or fragment.
    uri = f"file:{urllib.parse.quote(str(source.resolve()))}?mode=ro"
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
        _into_place(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return f"backup of {source} written to {target}: schema {version}, {games:,} games, ok"


def dump(url: str, target: Path) -> str:
    """``pg_dump --format=custom`` of the server's database to ``target``, checked by
    ``pg_restore --list`` (the archive reads back whole). Raises ValueError."""
    from bot.store.db import DatabaseUnusable
    from bot.store.postgres import client_connection, display_url

    pg_dump = client_program("pg_dump")
    pg_restore = client_program("pg_restore")
    try:
        conninfo, secret_env = client_connection(url)
    except DatabaseUnusable as exc:
        raise ValueError(str(exc)) from exc
    partial = _partial_beside(target)
    try:
        _client(
            [pg_dump, "--format=custom", f"--file={partial}", f"--dbname={conninfo}"], secret_env
        )
        listing = _client([pg_restore, "--list", str(partial)], {})
        tables = sum(" TABLE DATA " in line for line in listing.splitlines())
        _into_place(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return (
        f"backup of {display_url(url)} written to {target}: pg_dump custom format, "
        f"{tables} tables, ok (restore into an empty database: pg_restore --no-owner "
        f"--dbname=URL {target})"
    )


def client_program(name: str) -> str:
    """The PostgreSQL client program ``name``: on the PATH, else the newest of Debian's
    ``/usr/lib/postgresql/N/bin``. Raises ValueError when there is none."""
    found = shutil.which(name)
    if found is not None:
        return found
    folders = glob.glob(DEBIAN_BINARIES)
    folders.sort(key=lambda folder: int(n) if (n := Path(folder).parent.name).isdigit() else -1)
    for folder in reversed(folders):
        if (Path(folder) / name).is_file():
            return str(Path(folder) / name)
    raise ValueError(
        f"{name} not found: install the PostgreSQL client programs of the server's version or "
        "newer (Debian: apt-get install postgresql-client)"
    )


def _client(command: list[str], secret_env: dict[str, str]) -> str:
    """Run a PostgreSQL client program; its output, or ValueError with its first error line."""
    name = Path(command[0]).name
    try:
        result = subprocess.run(
            command, env={**os.environ, **secret_env}, capture_output=True, text=True, check=False
        )
    except OSError as exc:
        raise ValueError(f"{name} could not run ({exc})") from exc
    if result.returncode != 0:
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        why = lines[0] if lines else f"exit status {result.returncode}"
        raise ValueError(f"{name} failed: {why.removeprefix(f'{name}: ').removeprefix('error: ')}")
    return result.stdout


def _partial_beside(target: Path) -> Path:
    """A new empty file beside ``target``, for the copy until it passed its check."""
    if target.exists():
        raise ValueError(f"{target} already exists; choose a new file")
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".partial", dir=target.parent)
    os.close(fd)
    return Path(name)


def _into_place(partial: Path, target: Path) -> None:
    if target.exists():  # made while we copied: never overwrite it
        raise ValueError(f"{target} already exists; choose a new file")
    partial.replace(target)


def run(args: argparse.Namespace) -> int:
    import sys

    from bot.cli.run import database_target

    source = database_target(args.database)
    if source is None:
        return 2
    try:
        print(backup(source, Path(args.path)))
    except (ValueError, sqlite3.Error) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0
