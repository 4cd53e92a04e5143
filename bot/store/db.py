"""The database: one interface over SQLite and PostgreSQL (docs/architecture.md, "Two database
engines"): ``transaction()`` for async code, ``write(job)`` for the hot path with group commit
(docs/performance.md, "Store write path"), ``on_statement`` for the crash tests."""

from __future__ import annotations

import asyncio
import logging
import re
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar, Literal, Protocol, TypeVar

from bot import metrics

log = logging.getLogger(__name__)

_MIGRATION_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")

T = TypeVar("T")

# The most jobs one group commit writes in one transaction; the rest wait for the next.
MAX_BATCH = 256

# What a statement hook is called with once a COMMIT has returned.
AFTER_COMMIT = "-- after COMMIT"

Engine = Literal["sqlite", "postgresql"]


class Row(Protocol):
    """A result row: by position (``row[0]``), by column name (``row["id"]``), iterable."""

    def __getitem__(self, key: int | str, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...

    def __len__(self) -> int: ...


class Cursor(Protocol):
    """What ``Connection.execute`` returns."""

    @property
    def rowcount(self) -> int: ...

    async def fetchone(self) -> Any: ...

    async def fetchall(self) -> Iterable[Any]: ...


class SyncCursor(Protocol):
    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> Sequence[Any]: ...


class WriteConnection(Protocol):
    """What a ``Database.write`` job may do with the connection: run statements, inside the batch's
    transaction on the worker thread (no BEGIN, COMMIT, ROLLBACK or await)."""

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> SyncCursor: ...

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> SyncCursor: ...


# A change: every statement of it, run synchronously on the worker thread.
Job = Callable[[WriteConnection], T]

# See the module docstring. Whatever it raises fails the statement it was called for (and
# the job or transaction around it).
StatementHook = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class Dialect:
    """The phrases the two engines spell differently; everything else is shared SQL."""

    name: Engine
    # json_text(column, key): the string at $.key of a JSON text column (NULL if absent).
    json_text: Callable[[str, str], str]
    # json_array_length(column, key): the length of the array at $.key (NULL if absent).
    json_array_length: Callable[[str, str], str]
    # contains(haystack, needle): TRUE when the text contains the other.
    contains: Callable[[str, str], str]


SQLITE = Dialect(
    name="sqlite",
    json_text=lambda column, key: f"json_extract({column}, '$.{key}')",
    json_array_length=lambda column, key: (
        f"(CASE WHEN json_type({column}, '$.{key}') = 'array'"
        f" THEN json_array_length({column}, '$.{key}') END)"
    ),
    contains=lambda haystack, needle: f"instr({haystack}, {needle}) > 0",
)

POSTGRESQL = Dialect(
    name="postgresql",
    json_text=lambda column, key: f"(({column})::jsonb ->> '{key}')",
    json_array_length=lambda column, key: (
        f"(CASE WHEN jsonb_typeof(({column})::jsonb -> '{key}') = 'array'"
        f" THEN jsonb_array_length(({column})::jsonb -> '{key}') END)"
    ),
    contains=lambda haystack, needle: f"strpos({haystack}, {needle}) > 0",
)


class Connection(ABC):
    """A connection inside a transaction, as the repositories take it. Layers above the
    store name this type, never a driver's."""

    dialect: ClassVar[Dialect]

    @abstractmethod
    async def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> Cursor: ...

    @abstractmethod
    async def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> Cursor: ...

    async def fetchone(self, sql: str, parameters: Sequence[Any] = (), /) -> Any:
        return await (await self.execute(sql, parameters)).fetchone()

    async def fetchall(self, sql: str, parameters: Sequence[Any] = (), /) -> list[Any]:
        return list(await (await self.execute(sql, parameters)).fetchall())

    @abstractmethod
    async def serialize(self, table: str) -> None:
        """From here to COMMIT, no other transaction of any process writes ``table`` (a
        read-modify-write of rows that may not exist yet); a no-op on SQLite."""

    @abstractmethod
    async def serialize_on(self, key: str) -> None:
        """From here to COMMIT, no other transaction passes ``serialize_on(key)`` for ``key`` (a
        server's open tables, counted first); a no-op on SQLite."""

    @abstractmethod
    def lift_guards(self, guards: Sequence[str]) -> AbstractAsyncContextManager[None]:
        """Inside this block the named guard triggers do not fire (``forget`` rewrites
        ledger reasons); they are back, exactly as the migration made them, at its end."""


class Contention(RuntimeError):
    """A transaction lost to a concurrent one (a deadlock's victim, a failed serialization check):
    nothing was committed; running it again may succeed."""


class DatabaseUnusable(RuntimeError):
    """The database cannot be used as it is; ``str(error)`` is one line for the operator."""


class DatabaseTooNew(DatabaseUnusable):
    """The database was written by a newer version of the bot than this one."""


class DatabaseCorrupt(DatabaseUnusable):
    """The file is not a database, or it failed the integrity check."""


def migrations(engine: Engine = "sqlite") -> list[tuple[int, str, str]]:
    """(number, file name, SQL) for every migration of ``engine`` shipped with the code."""
    found = []
    for entry in resources.files("bot.store.migrations").joinpath(engine).iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort()
    numbers = [number for number, _, _ in found]
    if numbers != list(range(1, len(numbers) + 1)):
        raise RuntimeError(f"migrations must be numbered 001, 002, ... without gaps: {numbers}")
    return found


def is_postgresql(target: str | Path) -> bool:
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


@dataclass(frozen=True, slots=True)
class Statement:
    """One SQL write: ``sql`` with ``params``, to change exactly ``expect`` rows (None: any
    number)."""

    sql: str
    params: Sequence[Any]
    expect: int | None = None


@dataclass(frozen=True, slots=True)
class Statements:
    """A change as its statements, written once and run by either path (a ``Database.write`` job or
    ``await change.run(conn)``); a row count other than expected raises ``conflict()``.

    A batch runs such jobs of one shape as one ``executemany`` per statement, their counts checked
    in sum; if a sum is off it runs again one job at a time, so only the failing job gets its error.
    """

    steps: tuple[Statement, ...]
    conflict: Callable[[], Exception]
    # The change as one statement (a PostgreSQL data-modifying CTE), so a batch goes whole in
    # one round trip with no savepoints; it must be safe to run twice (a lost batch reruns).
    single: Statement | None = None

    def __call__(self, conn: WriteConnection) -> None:
        for step in self.steps:
            self.check(step, conn.execute(step.sql, step.params).rowcount)

    async def run(self, conn: Connection) -> None:
        """The change inside ``Database.transaction()``."""
        for step in self.steps:
            self.check(step, (await conn.execute(step.sql, step.params)).rowcount)

    def check(self, step: Statement, rowcount: int) -> None:
        if step.expect is not None and rowcount != step.expect:
            raise self.conflict()

    @property
    def shape(self) -> tuple[tuple[str, int | None], ...]:
        return tuple((step.sql, step.expect) for step in self.steps)


def no_conflict() -> Exception:
    """The ``conflict`` of a change that checks no count (never called)."""
    return AssertionError("a change without a count check had a conflict")


class Hooked:
    """A ``WriteConnection`` calling the statement hook before each statement."""

    def __init__(self, conn: WriteConnection, hook: StatementHook) -> None:
        self._conn = conn
        self._hook = hook

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> SyncCursor:
        self._hook(sql)
        return self._conn.execute(sql, parameters)

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> SyncCursor:
        self._hook(sql)
        return self._conn.executemany(sql, parameters)


class Database(ABC):
    """Migrated, open, and shared by every part of the bot. ``Database.open(target)`` opens a
    SQLite file (a path) or a PostgreSQL server (a ``postgresql://`` URL)."""

    engine: ClassVar[Engine]
    dialect: ClassVar[Dialect]

    def __init__(self, target: str) -> None:
        # Where the data is, for messages (a URL without its password).
        self.target = target
        self.on_statement: StatementHook | None = None
        # Called on each round trip to a server (PostgreSQL: a read, a statement, a pipelined
        # batch), on the thread that makes it: for the benchmark.
        self.on_round_trip: Callable[[], None] | None = None
        self._queue: deque[tuple[Job[Any], asyncio.Future[Any], int]] = deque()
        self._writer: asyncio.Task[None] | None = None
        self._write_lock = asyncio.Lock()

    @staticmethod
    async def open(target: str | Path) -> Database:
        if is_postgresql(target):
            from bot.store.postgres import PostgresDatabase

            return await PostgresDatabase.connect(str(target))
        from bot.store.sqlite import SqliteDatabase

        return await SqliteDatabase.connect(target)

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        if self._writer is not None:  # let the queued writes finish first
            await asyncio.shield(self._writer)
        await self._close()

    @abstractmethod
    async def _close(self) -> None: ...

    @abstractmethod
    async def schema_version(self) -> int: ...

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Connection]:
        """BEGIN ... COMMIT, rolled back on any exception (cancellation included)."""

    @abstractmethod
    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Any]: ...

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Any:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    @abstractmethod
    async def tables(self) -> list[str]:
        """The bot's tables, by name (not the engine's own, nor ``schema_version``)."""

    @abstractmethod
    async def columns(self, table: str) -> list[str]:
        """A table's columns, in order."""

    @abstractmethod
    async def primary_key(self, table: str) -> list[str]:
        """The columns of a table's primary key, in the key's order."""

    @abstractmethod
    async def references(self, table: str) -> list[str]:
        """The tables a table's foreign keys point to, by name, sorted."""

    @abstractmethod
    def left_open(self) -> bool:
        """A transaction left open between operations (a failed ROLLBACK): for the soak."""

    @abstractmethod
    async def check_integrity(self) -> str:
        """ "ok", or what the engine's own check found wrong."""

    def before_statement(self, sql: str) -> None:
        """Count the statement and call ``on_statement`` with it (the connections' hook)."""
        metrics.DB_STATEMENTS.inc()
        if self.on_statement is not None:
            self.on_statement(sql)

    async def migrate(self, shipped: list[tuple[int, str, str]]) -> None:
        """Apply those of ``shipped`` the database has not applied yet, in order."""
        current = await self.schema_version()
        if current > len(shipped):
            raise DatabaseTooNew(
                f"database {self.target} has schema version {current}, but this bot only "
                f"knows {len(shipped)}: it was written by a newer version; upgrade the bot"
            )
        for number, name, sql in shipped[current:]:
            log.info("applying migration %s", name)
            await self._apply_migration(number, sql)

    @abstractmethod
    async def _apply_migration(self, number: int, sql: str) -> None:
        """Run one migration and record its number, all or nothing."""

    # --- group commit ----------------------------------------------------------------

    async def write(self, job: Job[T], *, order: int | None = None) -> T:
        """Run ``job`` inside BEGIN ... COMMIT on the worker thread and answer once it is durable;
        jobs arriving meanwhile share the next batch, each rolled back alone if it raises.

        ``order`` is the id of the row the job locks: every batch of every process takes its locks
        in that order, so two batches never wait in a circle (PostgreSQL breaks a deadlock only
        after a second)."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.append((job, future, -1 if order is None else order))
        if self._writer is None:
            self._writer = asyncio.create_task(self._write_queued())
        return await future

    async def _write_queued(self) -> None:
        try:
            while self._queue:
                async with self._write_lock:
                    batch: list[tuple[Job[Any], asyncio.Future[Any], int]] = []
                    while self._queue and len(batch) < MAX_BATCH:
                        item = self._queue.popleft()
                        if not item[1].done():  # cancelled while it waited
                            batch.append(item)
                    if batch:
                        batch.sort(key=lambda item: item[2])  # stable: submission order kept
                        await self._write_batch([(job, future) for job, future, _ in batch])
        finally:
            self._writer = None
            while self._queue:  # only if this task was cancelled (the loop is closing)
                self._queue.popleft()[1].cancel()

    async def _write_batch(self, batch: list[tuple[Job[Any], asyncio.Future[Any]]]) -> None:
        jobs = [job for job, _ in batch]
        try:
            outcomes = await self._run_on_writer(jobs)
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

    @abstractmethod
    async def _run_on_writer(self, jobs: list[Job[Any]]) -> list[tuple[bool, Any]]:
        """Run ``run_batch`` for these jobs on the engine's writer connection and thread."""


def run_batch(
    conn: WriteConnection,
    jobs: list[Job[Any]],
    hook: StatementHook | None,
    *,
    begin: str,
    rollback: Callable[[], None],
    transient: tuple[type[BaseException], ...] = (),
    lost: Callable[[], bool] = lambda: False,
) -> list[tuple[bool, Any]]:
    """On the worker thread: ``begin``, every job, COMMIT; returns (ok, result or exception) per
    job, or raises with all rolled back (a failed transaction, a ``transient`` loss to another one,
    a ``lost()`` connection).

    Jobs run back to back with no savepoint; if one raises, all is rolled back and the others run
    again in a SAVEPOINT each. Two statements less per job in the usual case: on PostgreSQL, half of
    a click's round trips."""
    batch = _Batch(conn if hook is None else Hooked(conn, hook), hook, rollback, transient, lost)
    try:
        if len(jobs) == 1:
            return batch.frame(begin, lambda: batch.plain(jobs))
        return batch.frame(begin, lambda: batch.merged(jobs))
    except _JobFailed as failed:
        if len(jobs) == 1:
            return [(False, failed.error)]
        rest = [job for i, job in enumerate(jobs) if i != failed.index]
        outcomes = batch.frame(begin, lambda: batch.one_by_one(rest))
        outcomes.insert(failed.index, (False, failed.error))
        return outcomes
    except _MergedFailed:  # which job of a merged group failed is not known: one at a time
        return batch.frame(begin, lambda: batch.one_by_one(jobs))


class _JobFailed(Exception):
    """A job of a batch run without savepoints raised (the batch is rolled back)."""

    def __init__(self, index: int, error: Exception) -> None:
        super().__init__(index, error)
        self.index = index
        self.error = error


class _MergedFailed(Exception):
    """A merged group of ``Statements`` jobs changed fewer rows than its jobs expect, or one
    of its statements raised (the batch is rolled back)."""


def _groups(jobs: list[Job[Any]]) -> Iterator[tuple[int, list[Job[Any]]]]:
    """The jobs as (index of the first, jobs) runs in their order: consecutive ``Statements`` jobs
    of one shape together, others alone, so row locks keep the batch's order."""
    start = 0
    while start < len(jobs):
        job = jobs[start]
        end = start + 1
        if isinstance(job, Statements):
            while (
                end < len(jobs)
                and isinstance(nxt := jobs[end], Statements)
                and nxt.shape == job.shape
            ):
                end += 1
        yield start, jobs[start:end]
        start = end


@dataclass(frozen=True, slots=True)
class _Batch:
    """One write batch's connection and error handling; ``frame`` is its one transaction."""

    conn: WriteConnection
    hook: StatementHook | None
    rollback: Callable[[], None]
    transient: tuple[type[BaseException], ...]
    lost: Callable[[], bool]

    def frame(
        self, begin: str, body: Callable[[], list[tuple[bool, Any]]]
    ) -> list[tuple[bool, Any]]:
        """``begin``, the body, COMMIT, the after-commit hook; on anything raised (a failing
        COMMIT included: nothing of the batch was committed) a rollback."""
        self.conn.execute(begin)
        try:
            outcomes = body()
            self.conn.execute("COMMIT")
        except BaseException:
            self.rollback()
            raise
        if self.hook is not None:
            self.hook(AFTER_COMMIT)
        return outcomes

    def attempt(self, index: int, job: Job[Any]) -> tuple[bool, Any]:
        """Run one job; a job's own error (not a lost connection, nor a transient one) as
        ``_JobFailed``."""
        try:
            return True, job(self.conn)
        except self.transient:
            raise
        except Exception as exc:
            if self.lost():
                raise
            raise _JobFailed(index, exc) from None

    def plain(self, jobs: list[Job[Any]]) -> list[tuple[bool, Any]]:
        return [self.attempt(index, job) for index, job in enumerate(jobs)]

    def merged(self, jobs: list[Job[Any]]) -> list[tuple[bool, Any]]:
        """Without savepoints, ``Statements`` jobs of one shape merged."""
        outcomes: list[tuple[bool, Any]] = [(True, None)] * len(jobs)
        for start, group in _groups(jobs):
            if len(group) == 1:
                outcomes[start] = self.attempt(start, group[0])
            else:
                self.run_merged(group)  # type: ignore[arg-type]
        return outcomes

    def run_merged(self, group: list[Statements]) -> None:
        for i, step in enumerate(group[0].steps):
            try:
                cursor = self.conn.executemany(step.sql, [job.steps[i].params for job in group])
            except self.transient:
                raise
            except Exception as exc:
                if self.lost():
                    raise
                raise _MergedFailed() from exc
            if step.expect is not None and cursor.rowcount != step.expect * len(group):
                raise _MergedFailed()

    def one_by_one(self, jobs: list[Job[Any]]) -> list[tuple[bool, Any]]:
        """Each job in its own SAVEPOINT: one that raises is rolled back alone."""
        outcomes: list[tuple[bool, Any]] = []
        for index, job in enumerate(jobs):
            self.conn.execute("SAVEPOINT job")
            try:
                outcomes.append(self.attempt(index, job))
            except _JobFailed as failed:
                self.conn.execute("ROLLBACK TO SAVEPOINT job")
                outcomes.append((False, failed.error))
            self.conn.execute("RELEASE SAVEPOINT job")
        return outcomes


@asynccontextmanager
async def transaction_body(
    conn: Connection, begin: str | None, hook: Callable[[str], None], rollback: Callable[[], Any]
) -> AsyncIterator[Connection]:
    """The shape of ``Database.transaction``: ``begin`` (None: begun), the caller's statements,
    COMMIT, the after-commit hook; any exception rolls back."""
    if begin is not None:
        await conn.execute(begin)
    try:
        yield conn
        await conn.execute("COMMIT")
    except BaseException:
        await rollback()
        raise
    hook(AFTER_COMMIT)
