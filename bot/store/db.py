"""The database: opening, migrating, and transactions.

Schema changes are numbered ``NNN_name.sql`` files in ``migrations/``; ``PRAGMA user_version``
records the last one applied. Every multi-step change runs in ``Database.transaction()``,
which serialises writers on the one connection (aiosqlite runs every call on one thread, so
two tasks sharing a connection would otherwise interleave inside each other's transaction).
"""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite

log = logging.getLogger(__name__)

# A connection inside a transaction, as the repositories take it. Layers above the store
# name this type, never the driver's.
Connection = aiosqlite.Connection

_MIGRATION_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")


class DatabaseUnusable(RuntimeError):
    """The database cannot be used as it is; ``str(error)`` is one line for the operator."""


class DatabaseTooNew(DatabaseUnusable):
    """The database was written by a newer version of the bot than this one."""


class DatabaseCorrupt(DatabaseUnusable):
    """The file is not a database, or it failed SQLite's integrity check."""


def migrations() -> list[tuple[int, str, str]]:
    """(number, file name, SQL) for every migration shipped with the code, in order."""
    found = []
    for entry in resources.files("bot.store.migrations").iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort()
    numbers = [number for number, _, _ in found]
    if numbers != list(range(1, len(numbers) + 1)):
        raise RuntimeError(f"migrations must be numbered 001, 002, ... without gaps: {numbers}")
    return found


# Primary SQLite result codes that mean the file cannot be used here, not that it is damaged:
# PERM, BUSY, LOCKED, READONLY, IOERR, FULL, CANTOPEN.
_ACCESS_ERRORS = {3, 5, 6, 8, 10, 13, 14}


def _is_access_error(exc: sqlite3.Error) -> bool:
    return (getattr(exc, "sqlite_errorcode", 0) & 0xFF) in _ACCESS_ERRORS


def _cannot_open(path: str, exc: BaseException) -> str:
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return (
        f"cannot open the database {path} ({reason}): DATABASE_PATH must name a file in a "
        "folder the bot can write to (in Docker, a volume writable by the image's user)"
    )


class Database:
    """One aiosqlite connection with migrations applied and a writer lock."""

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self.conn = conn
        self.path = path
        self._write_lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> Database:
        path = str(path)
        try:
            if path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
                # Probe first: when aiosqlite's connect fails, its worker thread outlives
                # the event loop and prints a traceback of its own.
                sqlite3.connect(path).close()
            # isolation_level=None: we issue BEGIN/COMMIT ourselves.
            conn = await aiosqlite.connect(path, isolation_level=None)
        except (OSError, sqlite3.OperationalError) as exc:
            raise DatabaseUnusable(_cannot_open(path, exc)) from exc
        conn.row_factory = aiosqlite.Row
        try:
            await conn.execute("PRAGMA journal_mode=WAL")
            await conn.execute("PRAGMA foreign_keys=ON")
            await conn.execute("PRAGMA busy_timeout=5000")
            await conn.execute("PRAGMA synchronous=NORMAL")
            db = cls(conn, path)
            await db._check_integrity()
            await db._migrate()
        except sqlite3.DatabaseError as exc:
            await conn.close()
            if _is_access_error(exc):  # a read-only file or folder, a full disk: not damage
                raise DatabaseUnusable(_cannot_open(path, exc)) from exc
            raise DatabaseCorrupt(
                f"database {path} cannot be read ({exc}); restore a backup "
                "(python -m bot backup makes one)"
            ) from exc
        except BaseException:
            await conn.close()
            raise
        return db

    async def close(self) -> None:
        await self.conn.close()

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _check_integrity(self) -> None:
        row = await (await self.conn.execute("PRAGMA quick_check")).fetchone()
        if row is None or row[0] != "ok":
            raise DatabaseCorrupt(
                f"database {self.path} failed its integrity check ({row[0] if row else '?'}); "
                "restore a backup (python -m bot backup makes one)"
            )

    async def schema_version(self) -> int:
        row = await (await self.conn.execute("PRAGMA user_version")).fetchone()
        return int(row[0]) if row else 0

    async def _migrate(self) -> None:
        shipped = migrations()
        current = await self.schema_version()
        if current > len(shipped):
            raise DatabaseTooNew(
                f"database {self.path} has schema version {current}, but this bot only knows "
                f"{len(shipped)}: it was written by a newer version; upgrade the bot"
            )
        for number, name, sql in shipped[current:]:
            log.info("applying migration %s", name)
            # executescript commits any open transaction first; the script carries its own
            # BEGIN/COMMIT so a failed migration leaves the previous version in place.
            await self.conn.executescript(
                f"BEGIN;\n{sql}\nPRAGMA user_version = {number};\nCOMMIT;"
            )

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """BEGIN IMMEDIATE ... COMMIT, rolled back on any exception (cancellation included)."""
        async with self._write_lock:
            if self.conn.in_transaction:
                # A failed ROLLBACK left one open: every later BEGIN would fail, and the bot
                # could write nothing until restarted. Nothing of it was committed; drop it.
                log.warning("a transaction was left open; rolling it back")
                await self._rollback()
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self.conn
                await self.conn.execute("COMMIT")
            except BaseException:
                # Also reached when COMMIT itself fails (busy, I/O error): the transaction is
                # still open then and must not leak into the next writer's BEGIN.
                await self._rollback()
                raise

    async def _rollback(self) -> None:
        try:
            await self.conn.execute("ROLLBACK")
        except sqlite3.OperationalError:
            # Nothing to roll back: SQLite had already ended the transaction.
            if self.conn.in_transaction:
                raise

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> aiosqlite.Row | None:
        async with self.conn.execute(sql, tuple(params)) as cursor:
            return await cursor.fetchone()

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[aiosqlite.Row]:
        async with self.conn.execute(sql, tuple(params)) as cursor:
            return list(await cursor.fetchall())

    async def backup_to(self, target: str | Path) -> None:
        """A consistent online copy of the database (SQLite's backup API)."""
        async with self._write_lock:
            dest = await aiosqlite.connect(str(target))
            try:
                await self.conn.backup(dest)
            finally:
                await dest.close()
