"""The databases ``python -m bot bench`` measures on, and the raw-driver floor of commits/s.

Without ``--database`` every section gets a new SQLite file in a temporary folder. With
``--database postgresql://...`` every section gets a new database on that URL's server,
``bench_<pid>_<n>``, created empty for it and dropped (``WITH (FORCE)``) once the section
has closed it: the database the URL names is only the one connected to for CREATE DATABASE
and DROP DATABASE, and nothing is ever written to it, so the URL may be the user's own. Only
names this run created are dropped. The role needs the CREATEDB privilege.
"""

from __future__ import annotations

import itertools
import os
import sqlite3
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bot.store.db import Engine, is_postgresql


class BenchDatabaseError(RuntimeError):
    """A database for the benchmark could not be made; the message says why, in one line."""


def database_url(server_url: str, dbname: str) -> str:
    """The server's URL naming another database; user, host, port and query stay."""
    return urlsplit(server_url)._replace(path=f"/{dbname}").geturl()


class Targets:
    """Fresh databases, one per section (``new``), on SQLite or on one PostgreSQL server."""

    def __init__(self, database: str | None, tmp: Path) -> None:
        if database is not None and not is_postgresql(database):
            raise BenchDatabaseError(
                f"--database takes a postgresql:// URL, not {database!r}; without it the "
                "benchmark runs on new SQLite files in a temporary folder"
            )
        self.server_url = database
        self.tmp = tmp
        self.engine: Engine = "sqlite" if database is None else "postgresql"
        # The names of this run's databases: bench_<pid>_<n>.
        self.prefix = f"bench_{os.getpid()}_"
        self._numbers = itertools.count(1)
        self._made: list[str] = []
        self._admin: Any = None

    @property
    def label(self) -> str:
        return "SQLite" if self.engine == "sqlite" else "PostgreSQL"

    def new(self, name: str) -> str:
        """Where a new, empty database for ``name`` lives: a path or a URL."""
        if self.server_url is None:  # a section runs several times: a new file each
            return str(self.tmp / f"{name}_{next(self._numbers)}.sqlite3")
        dbname = f"{self.prefix}{next(self._numbers)}"
        self._execute("CREATE DATABASE {}", dbname, f"create the database {dbname}")
        self._made.append(dbname)
        return database_url(self.server_url, dbname)

    def drop(self, target: str) -> None:
        """Drop a database ``new`` made, once nothing uses it (for SQLite, delete the file
        and its journals, which would otherwise stay in the temporary folder to the end)."""
        if self.server_url is None:
            for suffix in ("", "-wal", "-shm"):
                Path(target + suffix).unlink(missing_ok=True)
            return
        dbname = urlsplit(target).path.lstrip("/")
        if dbname in self._made:
            self._execute("DROP DATABASE IF EXISTS {} WITH (FORCE)", dbname, f"drop {dbname}")
            self._made.remove(dbname)

    def close(self) -> None:
        """Drop whatever is left (a section that failed) and close the admin connection."""
        try:
            for dbname in list(self._made):
                self.drop(database_url(self.server_url or "", dbname))
        finally:
            if self._admin is not None:
                self._admin.close()
                self._admin = None

    def server_pids(self) -> tuple[int, ...]:
        """The PostgreSQL server's main process, when it runs on this machine and the role
        may read where its data lives (a superuser, as ``tests.pgserver``'s): its CPU time
        (and its backends') is then counted as the bench's own, not as another process's
        (``bench/machine.py``). Empty on SQLite, or when it cannot be told."""
        if self.server_url is None:
            return ()
        import psycopg

        try:
            with psycopg.connect(self.server_url, autocommit=True) as conn:
                found = conn.execute(
                    "SELECT setting FROM pg_settings WHERE name = 'data_directory'"
                ).fetchone()
            if not found:
                return ()
            first = (Path(found[0]) / "postmaster.pid").read_text().split("\n", 1)[0]
            return (int(first),)
        except (psycopg.Error, OSError, ValueError):
            return ()

    def _execute(self, statement: str, dbname: str, what: str) -> None:
        import psycopg
        from psycopg import sql

        assert self.server_url is not None
        try:
            if self._admin is None or self._admin.closed or self._admin.broken:
                self._admin = psycopg.connect(self.server_url, autocommit=True)
            self._admin.execute(sql.SQL(statement).format(sql.Identifier(dbname)))
        except psycopg.Error as exc:
            first = (str(exc).strip() or type(exc).__name__).splitlines()[0]
            raise BenchDatabaseError(
                f"cannot {what} on the server of --database ({first}); the benchmark makes "
                "a new database per section there, so its role needs CREATEDB"
            ) from exc

    def raw_commits(self, target: str, changes: int, per_commit: int) -> float:
        """Changes per second written with the engine's plain driver, ``per_commit`` changes
        (one UPDATE each) per transaction, into ``target`` (a new database)."""
        if self.engine == "sqlite":
            return _raw_sqlite(Path(target), changes, per_commit)
        return _raw_postgresql(target, changes, per_commit)


def _raw_sqlite(path: Path, changes: int, per_commit: int) -> float:
    """Plain sqlite3 with the bot's pragmas (WAL, synchronous=NORMAL)."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER NOT NULL)")
        conn.executemany("INSERT INTO t (id, v) VALUES (?, 0)", [(i,) for i in range(100)])
        started = time.perf_counter()
        for batch in range(changes // per_commit):
            conn.execute("BEGIN IMMEDIATE")
            for j in range(per_commit):
                conn.execute("UPDATE t SET v = v + 1 WHERE id = ?", ((batch + j) % 100,))
            conn.execute("COMMIT")
        return changes / (time.perf_counter() - started)
    finally:
        conn.close()


def _raw_postgresql(url: str, changes: int, per_commit: int) -> float:
    """Plain psycopg as the bot's writer thread uses it: an autocommit connection with its
    own BEGIN and COMMIT, one round trip per statement, the server's durability settings."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER NOT NULL)")
        conn.execute("INSERT INTO t (id, v) SELECT i, 0 FROM generate_series(0, 99) AS i")
        started = time.perf_counter()
        for batch in range(changes // per_commit):
            conn.execute("BEGIN")
            for j in range(per_commit):
                conn.execute("UPDATE t SET v = v + 1 WHERE id = %s", ((batch + j) % 100,))
            conn.execute("COMMIT")
        return changes / (time.perf_counter() - started)
