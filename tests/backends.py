"""Both database engines for the store, table, money and reliability tests.

A test that takes ``db_target`` runs twice, ``[sqlite]`` and ``[postgresql]``:
``db_target("bot")`` is where its database named "bot" lives on that engine (a file in the
test's temporary folder, or a PostgreSQL database created empty for the test on the server of
``tests.pg``); the same name gives the same database, so a test can close and reopen it
("restart"). The PostgreSQL server is only started when a ``[postgresql]`` test needs it.
A test that takes ``db`` gets the open ``Database`` "bot" on each engine, closed after it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest

from bot.store.db import Database
from tests.pg import Databases, database_url

ENGINES = ("sqlite", "postgresql")

DbTarget = Callable[[str], str]


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def db_target(engine: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[DbTarget]:
    if engine == "sqlite":
        yield lambda name: str(tmp_path / f"{name}.sqlite3")
        return
    databases: Databases = request.getfixturevalue("postgres_databases")
    made: dict[str, str] = {}

    def target(name: str) -> str:
        if name not in made:
            made[name] = databases.create()
        return database_url(databases.server_url, made[name])

    yield target
    for dbname in made.values():
        databases.drop(dbname)


@pytest.fixture
async def db(db_target: DbTarget) -> AsyncIterator[Database]:
    database = await Database.open(db_target("bot"))
    yield database
    await database.close()
