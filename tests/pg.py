"""PostgreSQL fixtures: ``postgres_url`` gives each test a fresh, empty database of its own.

The server is the one named by ``BOT_TEST_POSTGRES`` (``make unit`` starts one for the whole
run through ``python -m tests.pgserver run``); without it, each pytest process (each xdist
worker) starts its own for the session, so ``pytest tests/store`` works by hand too. These
fixtures never skip: a server that cannot be started or reached is an error with the reason.

A database per test rather than a schema per test: a schema is ~0.1 ms against ~17 ms for
CREATE DATABASE, but only a database keeps everything apart (extensions, the public schema,
search_path, types, open connections), so the backend under test runs as in production.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from urllib.parse import urlsplit

import psycopg
import pytest
from psycopg import sql

from tests.pgserver import ENV_VAR, PostgresServerError, running_server


def database_url(server_url: str, dbname: str) -> str:
    """The server's URL with another database in its path; the query (socket dir, port)
    stays."""
    return urlsplit(server_url)._replace(path=f"/{dbname}").geturl()


class Databases:
    """Creates and drops databases on one server through a maintenance connection; the
    names carry the xdist worker and the process id, so runs and workers sharing a server
    never collide."""

    def __init__(self, server_url: str) -> None:
        self.server_url = server_url
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        self._prefix = f"t_{worker}_{os.getpid()}_"
        self._numbers = itertools.count(1)
        self._conn: psycopg.Connection | None = None

    def _connection(self) -> psycopg.Connection:
        if self._conn is None or self._conn.closed or self._conn.broken:
            try:
                self._conn = psycopg.connect(self.server_url, autocommit=True)
            except psycopg.OperationalError as e:
                raise PostgresServerError(
                    f"cannot reach the PostgreSQL server at {self.server_url}: {e}"
                ) from e
        return self._conn

    def create(self) -> str:
        """A new empty database's name (a copy of template1)."""
        name = f"{self._prefix}{next(self._numbers)}"
        self._connection().execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        return name

    def drop(self, name: str) -> None:
        # FORCE: a connection the test left open must not keep its database alive
        self._connection().execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()


@pytest.fixture(scope="session")
def postgres_server_url() -> Iterator[str]:
    """The URL of the test server's maintenance database (``postgres``)."""
    url = os.environ.get(ENV_VAR)
    if url:
        yield url
        return
    with running_server() as server:
        yield server.url()


@pytest.fixture(scope="session")
def postgres_databases(postgres_server_url: str) -> Iterator[Databases]:
    databases = Databases(postgres_server_url)
    yield databases
    databases.close()


@pytest.fixture
def postgres_url(postgres_databases: Databases) -> Iterator[str]:
    """``postgresql://bot@/t_gw0_1234_5?host=/dev/shm/bot-pg-…&port=…``: a database created
    empty for this test and dropped after it."""
    name = postgres_databases.create()
    yield database_url(postgres_databases.server_url, name)
    postgres_databases.drop(name)
