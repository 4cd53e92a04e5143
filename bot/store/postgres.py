"""PostgreSQL, shared by any number of bot processes (psycopg 3): a pool for reads and
``transaction()``, one writer thread for ``Database.write``; dropped connections:
docs/reliability.md, section 10."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
import select
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from decimal import Decimal
from functools import lru_cache
from typing import Any, ClassVar
from urllib.parse import unquote, urlsplit

import psycopg
from psycopg import errors as pg_errors
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from psycopg.pq import TransactionStatus
from psycopg.types.numeric import NumericBinaryLoader, NumericLoader
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from bot import metrics
from bot.errors import DatabaseUnavailable
from bot.store.db import (
    AFTER_COMMIT,
    POSTGRESQL,
    Connection,
    Contention,
    Cursor,
    Database,
    DatabaseUnusable,
    Job,
    Statements,
    SyncCursor,
    WriteConnection,
    migrations,
    run_batch,
    transaction_body,
)

log = logging.getLogger(__name__)

# Any number, the same in every process: the advisory lock migrations run under.
_MIGRATION_LOCK = 7_162_341_905

# A write batch that lost a deadlock or a serialization check is run again, whole (a
# transaction() that lost one raises Contention, for its caller to run again).
_RETRIES = 3
_TRANSIENT = (pg_errors.DeadlockDetected, pg_errors.SerializationFailure)

# How long an operation waits for the server to answer again before DatabaseUnavailable: a
# click must be answered within Discord's 3 seconds, and a restart takes about one.
WAIT_FOR_SERVER = 2.0
# A pooled connection is replaced after about this long (psycopg_pool adds some randomness):
# none outlives a proxy's or a server's limit on a session's age.
MAX_LIFETIME = 30 * 60.0
# How long the pool's workers retry a connection before waiting for the next request, so a
# server back after a long outage is found within seconds, not a doubled delay of minutes.
RECONNECT_FOR = 10.0

GUARDS = ("ledger_no_update", "ledger_no_delete", "escrows_settle_once", "escrows_no_delete")


@lru_cache(maxsize=2048)
def translate(sql: str) -> str:
    """The repositories' ``?`` placeholders as psycopg's ``%s`` (a literal ``%`` doubled);
    text inside quotes is left alone."""
    out: list[str] = []
    quote: str | None = None
    for char in sql:
        if quote is not None:
            if char == quote:
                quote = None
            out.append("%%" if char == "%" else char)
        elif char in "'\"":
            quote = char
            out.append(char)
        elif char == "?":
            out.append("%s")
        elif char == "%":
            out.append("%%")
        else:
            out.append(char)
    return "".join(out)


def advisory_key(key: str) -> int:
    """A transaction-level advisory lock's number for ``key``: the same in every process.
    Two keys sharing a number only wait for each other a little."""
    digest = hashlib.blake2b(key.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


class PgRow(tuple[Any, ...]):
    """A row by position and by column name, like ``sqlite3.Row``."""

    __slots__ = ()
    _names: ClassVar[dict[str, int]] = {}

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return tuple.__getitem__(self, self._names[key])
        return tuple.__getitem__(self, key)

    def keys(self) -> list[str]:
        return list(self._names)


@lru_cache(maxsize=1024)
def _row_class(names: tuple[str, ...]) -> type[PgRow]:
    index = {name: i for i, name in enumerate(names)}
    return type("PgRow", (PgRow,), {"__slots__": (), "_names": index})


def pg_row(cursor: Any) -> Any:
    """psycopg row factory: rows as ``PgRow``."""
    description = cursor.description
    if description is None:
        return tuple
    return _row_class(tuple(column.name for column in description))


def _integral(value: Decimal) -> int | float:
    # SUM() of BIGINT is NUMERIC; the code expects the int that SQLite gives.
    return int(value) if value == value.to_integral_value() else float(value)


class _IntNumericLoader(NumericLoader):
    def load(self, data: Any) -> Any:
        return _integral(super().load(data))


class _IntNumericBinaryLoader(NumericBinaryLoader):
    def load(self, data: Any) -> Any:
        return _integral(super().load(data))


def _configure(conn: psycopg.Connection[Any] | psycopg.AsyncConnection[Any]) -> None:
    conn.adapters.register_loader("numeric", _IntNumericLoader)
    conn.adapters.register_loader("numeric", _IntNumericBinaryLoader)


def display_url(url: str) -> str:
    """The URL without its password (in the user part or the query), for messages and logs."""
    url = re.sub(r"(://[^:/@]*):[^@]*@", r"\1:***@", url)
    return re.sub(r"([?&]password=)[^&]*", r"\1***", url)


def _redacted(text: str, url: str) -> str:
    """``text`` (a driver's message) without the URL's password, should it quote the URL."""
    try:
        raw = urlsplit(url).password
    except ValueError:
        return text
    for secret in {raw, unquote(raw)} if raw else ():
        text = text.replace(secret, "***")
    return text


def client_connection(url: str) -> tuple[str, dict[str, str]]:
    """For a libpq program (pg_dump): the connection string without its password, and the
    environment that carries the password instead (PGPASSWORD): a program's arguments show in
    the process list."""
    try:
        params = conninfo_to_dict(url)
    except psycopg.Error as exc:
        raise DatabaseUnusable(
            f"{display_url(url)} is not a connection URL ({_redacted(_first_line(exc), url)})"
        ) from exc
    password = params.pop("password", None)
    return make_conninfo("", **params), {"PGPASSWORD": str(password)} if password else {}


def unreachable(url: str, exc: BaseException) -> DatabaseUnusable:
    """The one-line error for a server that cannot be reached or refuses the connection."""
    return DatabaseUnusable(
        f"cannot connect to the database {display_url(url)} "
        f"({_redacted(_first_line(exc), url)}): "
        "DATABASE_URL must name a PostgreSQL server and database the bot can use"
    )


AsyncPool = AsyncConnectionPool[psycopg.AsyncConnection[Any]]


async def _configure_pooled(conn: psycopg.AsyncConnection[Any]) -> None:
    _configure(conn)


def make_pool(url: str, size: int) -> AsyncPool:
    """Up to ``size`` connections, each replaced after ``MAX_LIFETIME``, reopened with backoff for
    ``RECONNECT_FOR`` seconds. The check before handing one out is ``_connection``'s, not the pool's
    ``check=``, which waits between tries (docs/reliability.md, section 10)."""
    return AsyncConnectionPool(
        url,
        min_size=2,
        max_size=size,
        open=False,
        name="bot-db",  # its worker tasks are named after it
        kwargs={"autocommit": True, "row_factory": pg_row},
        configure=_configure_pooled,
        timeout=WAIT_FOR_SERVER,
        max_lifetime=MAX_LIFETIME,
        reconnect_timeout=RECONNECT_FOR,
        num_workers=2,
    )


def closed_by_server(conn: psycopg.Connection[Any] | psycopg.AsyncConnection[Any]) -> bool:
    """Whether an idle connection was closed by the server (a restart, pg_terminate_backend,
    a proxy's idle timeout), found without a round trip: such a connection has something to
    read (the server's goodbye, or the end of the stream), where a live idle one has none."""
    if conn.closed or conn.broken:
        return True
    try:
        poller = select.poll()  # no limit on the descriptor's number, unlike select()
        poller.register(conn.fileno(), select.POLLIN)
        return bool(poller.poll(0))
    except (OSError, ValueError):
        return True


def unavailable(exc: BaseException) -> DatabaseUnavailable:
    metrics.DB_ERRORS.labels("postgresql").inc()
    return DatabaseUnavailable(f"the database server did not answer ({_first_line(exc)})")


class PgConnection(Connection):
    dialect = POSTGRESQL

    def __init__(self, conn: psycopg.AsyncConnection[Any], db: PostgresDatabase) -> None:
        self._conn = conn
        self._db = db

    async def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> Cursor:
        self._db.before_statement(sql)
        return await self._conn.execute(translate(sql), parameters or None)

    async def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> Cursor:
        self._db.before_statement(sql)
        cursor = self._conn.cursor()
        await cursor.executemany(translate(sql), list(parameters))
        return cursor

    async def serialize(self, table: str) -> None:
        await self._conn.execute(f"LOCK TABLE {table} IN SHARE ROW EXCLUSIVE MODE")

    async def serialize_on(self, key: str) -> None:
        await self._conn.execute("SELECT pg_advisory_xact_lock(%s)", (advisory_key(key),))

    @asynccontextmanager
    async def lift_guards(self, guards: Sequence[str]) -> AsyncIterator[None]:
        cursor = await self._conn.execute(
            "SELECT t.tgname, c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid"
            " WHERE t.tgname = ANY(%s) AND NOT t.tgisinternal",
            (list(guards),),
        )
        found = [(str(name), str(table)) for name, table in await cursor.fetchall()]
        for name, table in found:  # names the code chose, tables the catalogue gave
            await self._conn.execute(f'ALTER TABLE "{table}" DISABLE TRIGGER "{name}"')
        yield
        for name, table in found:
            await self._conn.execute(f'ALTER TABLE "{table}" ENABLE TRIGGER "{name}"')


class _SyncConnection:
    """The writer thread's psycopg connection as a ``WriteConnection``; ``last`` is the
    statement it sent last (was the connection lost at COMMIT?)."""

    def __init__(self, conn: psycopg.Connection[Any], db: PostgresDatabase) -> None:
        self._conn = conn
        self._db = db
        self.last = ""

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> SyncCursor:
        self.last = sql
        self._db.round_trip()
        return self._conn.execute(translate(sql), parameters or None)

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> SyncCursor:
        self.last = sql
        self._db.round_trip()  # pipelined by psycopg: one round trip
        cursor = self._conn.cursor()
        cursor.executemany(translate(sql), list(parameters))
        return cursor


class PostgresDatabase(Database):
    engine = "postgresql"
    dialect = POSTGRESQL

    def __init__(self, url: str, pool: AsyncPool) -> None:
        super().__init__(display_url(url))
        self.url = url
        self.pool = pool
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pg-writer")
        self._writer_conn: psycopg.Connection[Any] | None = None
        self._in_use = 0  # pooled connections handed out by _connection and not given back

    @classmethod
    async def connect(cls, url: str, *, pool_size: int = 10) -> PostgresDatabase:
        try:  # the server's own reason, at once, if it cannot be used (the pool would retry)
            probe = await psycopg.AsyncConnection.connect(url)
            await probe.close()
        except (psycopg.Error, OSError) as exc:
            raise unreachable(url, exc) from exc
        pool = make_pool(url, pool_size)
        try:
            await pool.open(wait=True, timeout=30)
        except (psycopg.Error, OSError) as exc:
            await pool.close()
            raise unreachable(url, exc) from exc
        db = cls(url, pool)
        try:
            await db.migrate_locked()
        except BaseException:
            await db.close()
            raise
        return db

    async def migrate_locked(self) -> None:
        """``migrate`` under the advisory lock: processes starting together apply each once."""
        async with self.pool.connection() as conn:
            await conn.execute("SELECT pg_advisory_lock(%s)", (_MIGRATION_LOCK,))
            try:
                await conn.execute(
                    "CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)"
                )
                await self.migrate(migrations("postgresql"))
            finally:
                await conn.execute("SELECT pg_advisory_unlock(%s)", (_MIGRATION_LOCK,))

    async def _close(self) -> None:
        try:
            await self.pool.close()
        finally:
            await asyncio.get_running_loop().run_in_executor(self._executor, self._close_writer)
            self._executor.shutdown(wait=True)

    def _close_writer(self) -> None:
        if self._writer_conn is not None:
            self._writer_conn.close()
            self._writer_conn = None

    async def schema_version(self) -> int:
        row = await self.fetchone("SELECT MAX(version) FROM schema_version")
        return 0 if row is None or row[0] is None else int(row[0])

    async def _apply_migration(self, number: int, sql: str) -> None:
        async with self.pool.connection() as conn, conn.transaction():
            await conn.execute(sql)  # several statements: the simple query protocol
            await conn.execute("DELETE FROM schema_version")
            await conn.execute("INSERT INTO schema_version (version) VALUES (%s)", (number,))

    async def tables(self) -> list[str]:
        rows = await self.fetchall(
            "SELECT table_name FROM information_schema.tables WHERE table_schema ="
            " current_schema() AND table_type = 'BASE TABLE' AND table_name <> 'schema_version'"
            " ORDER BY table_name"
        )
        return [str(row[0]) for row in rows]

    async def columns(self, table: str) -> list[str]:
        rows = await self.fetchall(
            "SELECT column_name FROM information_schema.columns WHERE table_schema ="
            " current_schema() AND table_name = ? ORDER BY ordinal_position",
            (table,),
        )
        return [str(row[0]) for row in rows]

    async def primary_key(self, table: str) -> list[str]:
        rows = await self.fetchall(
            "SELECT k.column_name FROM information_schema.table_constraints c"
            " JOIN information_schema.key_column_usage k ON k.constraint_schema ="
            " c.constraint_schema AND k.constraint_name = c.constraint_name"
            " WHERE c.table_schema = current_schema() AND c.table_name = ?"
            " AND c.constraint_type = 'PRIMARY KEY' ORDER BY k.ordinal_position",
            (table,),
        )
        return [str(row[0]) for row in rows]

    async def references(self, table: str) -> list[str]:
        rows = await self.fetchall(
            "SELECT DISTINCT p.relname FROM pg_constraint f JOIN pg_class p ON p.oid ="
            " f.confrelid WHERE f.contype = 'f' AND f.conrelid = to_regclass(?) ORDER BY 1",
            (table,),
        )
        return [str(row[0]) for row in rows]

    def left_open(self) -> bool:
        # Pooled connections are rolled back when they return to the pool; the writer's is
        # the one that could be left in a transaction.
        conn = self._writer_conn
        return conn is not None and conn.info.transaction_status != TransactionStatus.IDLE

    async def check_integrity(self) -> str:
        row = await self.fetchone(_GUARDS_IN_FORCE, (list(GUARDS),))
        return _guards_verdict(0 if row is None else int(row[0]))

    def transaction(self) -> AbstractAsyncContextManager[Connection]:
        return self._transaction()

    async def _connection(self) -> psycopg.AsyncConnection[Any]:
        """A pooled connection that has just answered an empty query (give it back with
        ``_give_back``); one closed while idle is replaced and the next tried at once.
        ``DatabaseUnavailable`` after WAIT_FOR_SERVER only when the server is away, not when a burst
        holds them all."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT_FOR_SERVER
        while True:
            try:
                conn = await self.pool.getconn(timeout=max(deadline - loop.time(), 0.01))
            except PoolTimeout as exc:
                if self._in_use == 0 and not await self._server_answers():
                    raise unavailable(exc) from exc
                deadline = loop.time() + WAIT_FOR_SERVER
                continue
            if closed_by_server(conn):  # no round trip: see closed_by_server
                await conn.close()
                await self.pool.putconn(conn)  # the pool replaces it
                continue
            self._in_use += 1
            return conn

    async def _server_answers(self) -> bool:
        """Whether a new connection can be opened now: a pool that is still opening its
        connections under a burst (none handed out yet, a loaded machine) is slow, not away."""
        try:
            probe = await psycopg.AsyncConnection.connect(self.url, connect_timeout=2)
        except (psycopg.Error, OSError):
            return False
        await probe.close()
        return True

    async def _give_back(self, conn: psycopg.AsyncConnection[Any]) -> None:
        self._in_use -= 1
        await self.pool.putconn(conn)

    async def _begun(self) -> psycopg.AsyncConnection[Any]:
        """A pooled connection inside BEGIN. A BEGIN that finds its connection lost (nothing
        of the transaction has run) is sent once more on a fresh one."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT_FOR_SERVER
        while True:
            raw = await self._connection()
            try:
                self.before_statement("BEGIN")
                self.round_trip()
                await raw.execute("BEGIN")
                return raw
            except psycopg.OperationalError as exc:
                await self._give_back(raw)
                if not raw.closed:
                    raise
                if loop.time() > deadline:
                    raise unavailable(exc) from exc
                log.info("a connection was lost (%s); BEGIN on a fresh one", _first_line(exc))
            except BaseException:
                await self._give_back(raw)
                raise

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Connection]:
        raw = await self._begun()

        async def rollback() -> None:
            # A connection closed or dropped mid-statement: the server ends its transaction
            # and the pool drops it; a ROLLBACK would only hide the caller's error with its own.
            if raw.closed or raw.broken:
                return
            if raw.info.transaction_status != TransactionStatus.IDLE:
                await raw.execute("ROLLBACK")

        try:
            async with transaction_body(
                PgConnection(raw, self), None, self.before_statement, rollback
            ) as conn:
                yield conn
        except _TRANSIENT as exc:  # rolled back: the caller may run it again
            raise Contention(_first_line(exc)) from exc
        except psycopg.OperationalError as exc:
            # Lost mid-way: the caller's code cannot be run again from here; the server
            # rolled the transaction back (or, lost at COMMIT, committed it whole).
            if raw.closed:
                raise unavailable(exc) from exc
            raise
        finally:
            await self._give_back(raw)

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        """A read; run once more on a fresh connection if its connection was lost."""
        self.before_statement(sql)
        query, values = translate(sql), tuple(params) or None
        # Lost connections are found by use (a check first cost a round trip a read), so a
        # read that finds one lost runs again on the next, for up to WAIT_FOR_SERVER.
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT_FOR_SERVER
        while True:
            conn = await self._connection()
            try:
                self.round_trip()
                cursor = await conn.execute(query, values)
                if cursor.description is None:  # a statement without rows (as SQLite gives [])
                    return []
                return list(await cursor.fetchall())
            except psycopg.OperationalError as exc:
                if not conn.closed:
                    raise
                if loop.time() > deadline:
                    raise unavailable(exc) from exc
                log.info("a connection was lost (%s); reading again", _first_line(exc))
            finally:
                await self._give_back(conn)

    async def _run_on_writer(self, jobs: list[Job[Any]]) -> list[tuple[bool, Any]]:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, self._run_batch, jobs)

    def _writer_connection(self) -> psycopg.Connection[Any]:
        """The writer's connection, opened again if it was lost; while the server refuses
        connections (restarting), tried again for up to ``WAIT_FOR_SERVER`` seconds."""
        conn = self._writer_conn
        if conn is not None and not closed_by_server(conn):
            return conn
        if conn is not None and not conn.closed:
            conn.close()
        deadline = time.monotonic() + WAIT_FOR_SERVER
        delay = 0.05
        while True:
            try:
                conn = psycopg.Connection.connect(self.url, autocommit=True, row_factory=pg_row)
                break
            except psycopg.OperationalError as exc:
                if time.monotonic() + delay > deadline:
                    raise unavailable(exc) from exc
                time.sleep(delay)  # the writer's own thread
                delay = min(delay * 2, 0.5)
        _configure(conn)
        self._writer_conn = conn
        return conn

    def _run_batch(self, jobs: list[Job[Any]]) -> list[tuple[bool, Any]]:
        contended = 0
        again = False  # once, on a fresh connection, after the connection was lost
        while True:
            conn = self._writer_connection()
            sent = _SyncConnection(conn, self)

            def rollback(conn: psycopg.Connection[Any] = conn) -> None:
                if not conn.closed and conn.info.transaction_status != TransactionStatus.IDLE:
                    conn.execute("ROLLBACK")

            def lost(conn: psycopg.Connection[Any] = conn) -> bool:
                return conn.closed

            try:
                if all(isinstance(job, Statements) and job.single for job in jobs):
                    done = self._pipelined(conn, sent, jobs, rollback)  # type: ignore[arg-type]
                    if done is not None:
                        return done
                return run_batch(
                    sent, jobs, self.on_statement, begin="BEGIN", rollback=rollback,
                    transient=_TRANSIENT, lost=lost,
                )  # fmt: skip
            except _TRANSIENT:
                contended += 1
                if contended == _RETRIES:
                    raise
                log.info("write batch lost a deadlock or serialization check; running it again")
            except psycopg.OperationalError as exc:
                if not conn.closed:
                    raise
                # Lost before COMMIT: the server rolled the batch back, so it can run again.
                # Lost at COMMIT: it may have been committed; the callers are told to look.
                if again or sent.last == "COMMIT":
                    raise unavailable(exc) from exc
                again = True
                log.info("the writer's connection was lost (%s); writing again", _first_line(exc))

    def round_trip(self) -> None:
        """Call ``on_round_trip`` (the writer connection's hook, on its thread)."""
        metrics.DB_ROUND_TRIPS.inc()
        if self.on_round_trip is not None:
            self.on_round_trip()

    def _pipelined(
        self,
        conn: psycopg.Connection[Any],
        sent: _SyncConnection,
        jobs: list[Statements],
        rollback: Callable[[], None],
    ) -> list[tuple[bool, Any]] | None:
        """The batch in one round trip (pipeline mode): a job whose statement changed nothing fails
        alone, without a savepoint. None if a statement raised: all was rolled back, and the caller
        runs the batch the usual way."""
        hook = self.on_statement

        def send(sql: str, params: Sequence[Any] | None = None) -> Any:
            if hook is not None:
                hook(sql)
            sent.last = sql
            return conn.execute(translate(sql), params or None)

        self.round_trip()
        try:
            with conn.pipeline():
                send("BEGIN")
                cursors = [send(job.single.sql, job.single.params) for job in jobs if job.single]
                send("COMMIT")
        except psycopg.OperationalError:
            # Lost, maybe after the COMMIT: ``_run_batch`` may run it once more, since every
            # pipelined job is a compare-and-set or sets a value (a rerun changes nothing).
            rollback()
            sent.last = "(pipeline)"
            raise
        except _TRANSIENT:
            rollback()
            raise
        except psycopg.Error:
            rollback()
            return None
        except BaseException:
            rollback()
            raise
        if hook is not None:
            hook(AFTER_COMMIT)
        return [
            (True, None)
            if job.single is None or job.single.expect in (None, cursor.rowcount)
            else (False, job.conflict())
            for job, cursor in zip(jobs, cursors, strict=True)
        ]


_GUARDS_IN_FORCE = (
    "SELECT COUNT(*) FROM pg_trigger WHERE NOT tgisinternal AND tgenabled <> 'D'"
    " AND tgname = ANY(?)"
)


def _guards_verdict(found: int) -> str:
    if found != len(GUARDS):
        return f"{len(GUARDS) - found} of the ledger and escrow guard triggers missing"
    return "ok"


def inspect(url: str) -> tuple[int, str]:
    """(schema version, "ok" or what is wrong) of a server's database, for ``python -m bot
    health``: read only, so nothing is created, migrated or locked. Raises DatabaseUnusable
    when the server cannot be reached."""
    try:
        with psycopg.connect(url, autocommit=True, connect_timeout=10) as conn:
            found = conn.execute(
                "SELECT to_regclass('schema_version') IS NOT NULL,"
                " to_regclass('ledger') IS NOT NULL"
            ).fetchone()
            assert found is not None
            has_version, has_ledger = found
            version = 0
            if has_version:
                row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
                version = 0 if row is None or row[0] is None else int(row[0])
            verdict = "ok"
            if has_ledger:  # the guards came with the ledger
                row = conn.execute(translate(_GUARDS_IN_FORCE), (list(GUARDS),)).fetchone()
                verdict = _guards_verdict(0 if row is None else int(row[0]))
    except (psycopg.Error, OSError) as exc:
        raise unreachable(url, exc) from exc
    return version, verdict


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0]


__all__ = ["PostgresDatabase", "WriteConnection", "translate"]
