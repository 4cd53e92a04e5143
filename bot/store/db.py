"""The database: opening, migrating, and transactions.

Schema changes are numbered ``NNN_name.sql`` files in ``migrations/``; ``PRAGMA user_version``
records the last one applied. A multi-step change runs either in ``Database.transaction()``
(async code between BEGIN and COMMIT: hooks that move chips, migrations) or, on the hot path,
as a synchronous job passed to ``Database.write()``: the whole change, BEGIN to COMMIT, runs
in one hop to aiosqlite's worker thread, and jobs that arrive while a batch is being written
are committed together by the next batch (group commit), each inside its own SAVEPOINT. Both
take the one writer lock, so they never interleave on the one connection (aiosqlite runs
every call on one thread; two tasks sharing it would otherwise run inside each other's
transaction).
"""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any, Protocol, TypeVar, cast

import aiosqlite

log = logging.getLogger(__name__)

# A connection inside a transaction, as the repositories take it. Layers above the store
# name this type, never the driver's.
Connection = aiosqlite.Connection

_MIGRATION_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")

T = TypeVar("T")

# The most jobs one group commit writes in one transaction; the rest wait for the next.
MAX_BATCH = 256

# What a statement hook is called with once a batch's COMMIT has returned.
AFTER_COMMIT = "-- after COMMIT"


class WriteConnection(Protocol):
    """What a ``Database.write`` job may do with the connection: run statements. It runs on
    aiosqlite's worker thread inside the batch's transaction: no BEGIN, COMMIT or ROLLBACK
    of its own, and no awaiting. ``sqlite3.Connection`` is one."""

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> sqlite3.Cursor: ...

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> sqlite3.Cursor: ...


# A change: every statement of it, run synchronously on the worker thread.
Job = Callable[[WriteConnection], T]

# Called on the worker thread with the SQL of every statement a write batch runs (BEGIN, each
# SAVEPOINT and RELEASE, each statement of each job, COMMIT), then with ``AFTER_COMMIT`` once
# the COMMIT has returned. Tests and the soak raise (or end the process) from it to crash a
# write at any point; whatever it raises fails the job it was raised in or, outside a job,
# every job of the batch.
StatementHook = Callable[[str], None]


class _Hooked:
    """A ``WriteConnection`` calling the statement hook before each statement."""

    def __init__(self, conn: sqlite3.Connection, hook: StatementHook) -> None:
        self._conn = conn
        self._hook = hook

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> sqlite3.Cursor:
        self._hook(sql)
        return self._conn.execute(sql, parameters)

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> sqlite3.Cursor:
        self._hook(sql)
        return self._conn.executemany(sql, parameters)


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
        self._queue: deque[tuple[Job[Any], asyncio.Future[Any]]] = deque()
        self._writer: asyncio.Task[None] | None = None
        self.on_statement: StatementHook | None = None

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
        if self._writer is not None:  # let the queued writes finish first
            await asyncio.shield(self._writer)
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

    async def write(self, job: Job[T]) -> T:
        """Run ``job`` (every statement of one change) on the worker thread inside BEGIN
        IMMEDIATE ... COMMIT, and return its result once the COMMIT is done: a caller is
        answered only when its change is durable. Jobs that arrive while a batch is being
        written are written together by the next one (up to ``MAX_BATCH``), each in its own
        SAVEPOINT: a job that raises is rolled back alone and its caller gets the exception;
        a COMMIT that fails fails every job of the batch, none of which was committed. Jobs
        run in the order they were submitted. A caller cancelled before its batch starts is
        dropped; one cancelled after may still be committed (as after a crash past COMMIT)."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.append((job, future))
        if self._writer is None:
            self._writer = asyncio.create_task(self._write_queued())
        return await future

    async def _write_queued(self) -> None:
        try:
            while self._queue:
                async with self._write_lock:
                    batch: list[tuple[Job[Any], asyncio.Future[Any]]] = []
                    while self._queue and len(batch) < MAX_BATCH:
                        job, future = self._queue.popleft()
                        if not future.done():  # cancelled while it waited
                            batch.append((job, future))
                    if batch:
                        await self._write_batch(batch)
        finally:
            self._writer = None
            while self._queue:  # only if this task was cancelled (the loop is closing)
                self._queue.popleft()[1].cancel()

    async def _write_batch(self, batch: list[tuple[Job[Any], asyncio.Future[Any]]]) -> None:
        jobs = [job for job, _ in batch]
        try:
            # One hop: aiosqlite's Connection._execute(fn, *args) runs fn on the connection's
            # worker thread, and Connection._conn is its sqlite3 connection. Both are private
            # to aiosqlite 0.22 (pinned below 0.23 in pyproject.toml for that reason).
            on_thread = cast(Callable[..., Awaitable[list[tuple[bool, Any]]]], self.conn._execute)
            outcomes = await on_thread(self._run_batch, jobs)
        except Exception as exc:
            for _, future in batch:
                if not future.done():
                    future.set_exception(exc)
            return
        except BaseException:  # this task cancelled: the loop is closing
            for _, future in batch:
                future.cancel()
            raise
        for (_, future), (ok, value) in zip(batch, outcomes, strict=True):
            if future.done():
                continue
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)

    def _run_batch(self, jobs: list[Job[Any]]) -> list[tuple[bool, Any]]:
        """On the worker thread: BEGIN IMMEDIATE, every job (each in a SAVEPOINT when there
        are several), COMMIT. Returns (ok, result or exception) per job; raises, with
        everything rolled back, if the transaction itself failed."""
        raw = self.conn._conn
        hook = self.on_statement
        conn: WriteConnection = raw if hook is None else _Hooked(raw, hook)
        outcomes: list[tuple[bool, Any]] = []
        if raw.in_transaction:  # see transaction(): a failed ROLLBACK left one open
            log.warning("a transaction was left open; rolling it back")
            raw.execute("ROLLBACK")
        conn.execute("BEGIN IMMEDIATE")
        try:
            if len(jobs) == 1:  # no savepoint needed: the job is the whole transaction
                try:
                    outcomes.append((True, jobs[0](conn)))
                except Exception as exc:
                    self._rollback_now(raw)
                    return [(False, exc)]
            else:
                for job in jobs:
                    conn.execute("SAVEPOINT job")
                    try:
                        result = job(conn)
                    except Exception as exc:
                        conn.execute("ROLLBACK TO job")
                        outcomes.append((False, exc))
                    else:
                        outcomes.append((True, result))
                    conn.execute("RELEASE job")
            conn.execute("COMMIT")
        except BaseException:
            # Also reached when COMMIT itself fails: nothing of the batch was committed.
            self._rollback_now(raw)
            raise
        if hook is not None:
            hook(AFTER_COMMIT)
        return outcomes

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

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> aiosqlite.Row | None:
        """One row of a query, in one hop to the worker thread (not three: execute, fetch,
        close)."""
        rows = await self._read(sql, tuple(params), 1)
        return rows[0] if rows else None

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[aiosqlite.Row]:
        return await self._read(sql, tuple(params), None)

    async def _read(
        self, sql: str, params: tuple[Any, ...], limit: int | None
    ) -> list[aiosqlite.Row]:
        def run() -> list[aiosqlite.Row]:
            cursor = self.conn._conn.execute(sql, params)
            try:
                return cursor.fetchmany(limit) if limit is not None else cursor.fetchall()
            finally:
                cursor.close()

        # aiosqlite's private Connection._execute: see _write_batch.
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
