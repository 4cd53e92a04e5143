"""SQLite: one file, one aiosqlite connection, one writer at a time; ``transaction()`` and the write
batches share one writer lock, since two tasks on the connection would run inside each other's
transaction."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any, cast

import aiosqlite

from bot.store.db import (
    SQLITE,
    Connection,
    Cursor,
    Database,
    DatabaseCorrupt,
    DatabaseUnusable,
    Job,
    WriteConnection,
    migrations,
    run_batch,
    transaction_body,
)

log = logging.getLogger(__name__)

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


class SqliteConnection(Connection):
    dialect = SQLITE

    def __init__(self, conn: aiosqlite.Connection, db: SqliteDatabase) -> None:
        self._conn = conn
        self._db = db

    async def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> Cursor:
        self._db.before_statement(sql)
        return await self._conn.execute(sql, parameters)

    async def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> Cursor:
        self._db.before_statement(sql)
        return await self._conn.executemany(sql, parameters)

    async def serialize(self, table: str) -> None:
        return None  # BEGIN IMMEDIATE already holds the one write lock

    async def serialize_on(self, key: str) -> None:
        return None  # likewise

    @asynccontextmanager
    async def lift_guards(self, guards: Sequence[str]) -> AsyncIterator[None]:
        lifted = []
        for name in guards:
            cursor = await self._conn.execute(
                "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?", (name,)
            )
            row = await cursor.fetchone()
            if row is not None:
                lifted.append(str(row[0]))
                await self._conn.execute(f"DROP TRIGGER {name}")  # a name the code chose
        yield
        for trigger_sql in lifted:
            await self._conn.execute(trigger_sql)  # the guard exactly as it was


class SqliteDatabase(Database):
    """One aiosqlite connection with migrations applied and a writer lock."""

    engine = "sqlite"
    dialect = SQLITE

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        super().__init__(path)
        self.conn = conn
        self._wrapped = SqliteConnection(conn, self)

    @classmethod
    async def connect(cls, path: str | Path) -> SqliteDatabase:
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
            found = await db.check_integrity()
            if found != "ok":
                raise DatabaseCorrupt(
                    f"database {path} failed its integrity check ({found}); "
                    "restore a backup (python -m bot backup makes one)"
                )
            await db.migrate(migrations("sqlite"))
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

    async def _close(self) -> None:
        await self.conn.close()

    async def tables(self) -> list[str]:
        rows = await self.fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            " ORDER BY name"
        )
        return [str(row[0]) for row in rows]

    async def columns(self, table: str) -> list[str]:
        rows = await self.fetchall("SELECT name FROM pragma_table_info(?) ORDER BY cid", (table,))
        return [str(row[0]) for row in rows]

    async def primary_key(self, table: str) -> list[str]:
        rows = await self.fetchall(
            "SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk", (table,)
        )
        return [str(row[0]) for row in rows]

    async def references(self, table: str) -> list[str]:
        rows = await self.fetchall(
            'SELECT DISTINCT "table" FROM pragma_foreign_key_list(?) ORDER BY 1', (table,)
        )
        return [str(row[0]) for row in rows]

    def left_open(self) -> bool:
        return self.conn.in_transaction

    async def check_integrity(self) -> str:
        row = await (await self.conn.execute("PRAGMA quick_check")).fetchone()
        return "?" if row is None else str(row[0])

    async def schema_version(self) -> int:
        row = await (await self.conn.execute("PRAGMA user_version")).fetchone()
        return int(row[0]) if row else 0

    async def _apply_migration(self, number: int, sql: str) -> None:
        # executescript commits any open transaction first; the script carries its own
        # BEGIN/COMMIT so a failed migration leaves the previous version in place.
        await self.conn.executescript(f"BEGIN;\n{sql}\nPRAGMA user_version = {number};\nCOMMIT;")

    def transaction(self) -> AbstractAsyncContextManager[Connection]:
        return self._transaction()

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Connection]:
        async with self._write_lock:
            if self.conn.in_transaction:
                # A failed ROLLBACK left one open: every later BEGIN would fail, and the bot
                # could write nothing until restarted. Nothing of it was committed; drop it.
                log.warning("a transaction was left open; rolling it back")
                await self._rollback()
            async with transaction_body(
                self._wrapped, "BEGIN IMMEDIATE", self.before_statement, self._rollback
            ) as conn:
                yield conn

    async def _run_on_writer(self, jobs: list[Job[Any]]) -> list[tuple[bool, Any]]:
        # aiosqlite's private _execute (runs fn on its thread), _conn: no public twin (< 0.23).
        on_thread = cast(Callable[..., Awaitable[list[tuple[bool, Any]]]], self.conn._execute)
        return await on_thread(self._run_batch, jobs)

    def _run_batch(self, jobs: list[Job[Any]]) -> list[tuple[bool, Any]]:
        raw = self.conn._conn  # aiosqlite's private sqlite3 connection: no public twin
        if raw.in_transaction:  # see transaction(): a failed ROLLBACK left one open
            log.warning("a transaction was left open; rolling it back")
            raw.execute("ROLLBACK")
        return run_batch(
            cast(WriteConnection, raw),
            jobs,
            self.on_statement,
            begin="BEGIN IMMEDIATE",
            rollback=lambda: self._rollback_now(raw),
        )

    @staticmethod
    def _rollback_now(raw: sqlite3.Connection) -> None:
        if raw.in_transaction:
            try:
                raw.execute("ROLLBACK")
            except sqlite3.OperationalError:
                if raw.in_transaction:
                    raise

    async def _rollback(self) -> None:
        try:
            await self.conn.execute("ROLLBACK")
        except sqlite3.OperationalError:
            # Nothing to roll back: SQLite had already ended the transaction.
            if self.conn.in_transaction:
                raise

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        """Rows of a query, in one hop to the worker thread (not three: execute, fetch,
        close)."""
        return await self._read(sql, tuple(params), None)

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Any:
        rows = await self._read(sql, tuple(params), 1)
        return rows[0] if rows else None

    async def _read(self, sql: str, params: tuple[Any, ...], limit: int | None) -> list[Any]:
        self.before_statement(sql)

        def run() -> list[aiosqlite.Row]:
            cursor = self.conn._conn.execute(sql, params)
            try:
                return cursor.fetchmany(limit) if limit is not None else cursor.fetchall()
            finally:
                cursor.close()

        # aiosqlite's private _execute and _conn have no public twin: see _run_on_writer.
        on_thread = cast(Callable[..., Awaitable[list[aiosqlite.Row]]], self.conn._execute)
        return await on_thread(run)

    async def backup_to(self, target: str | Path) -> None:
        """A consistent online copy of the database (SQLite's backup API)."""
        async with self._write_lock:
            dest = await aiosqlite.connect(str(target))
            try:
                await self.conn.backup(dest)
            finally:
                await dest.close()
