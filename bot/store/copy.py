"""Copy a whole database into a new, empty one of the other engine (``python -m bot migrate-db``):
one checked transaction, ids kept, keyset pages of ``BATCH`` (docs/scaling.md, "Moving an existing
SQLite database to PostgreSQL")."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.store import wallets
from bot.store.db import Connection, Database
from bot.store.wallets import InvariantReport

BATCH = 1_000


class CopyError(Exception):
    """The copy was refused, or failed a check and was rolled back; ``str`` is one line."""


@dataclass(frozen=True, slots=True)
class Table:
    name: str
    columns: list[str]
    key: list[str]

    def sql(self) -> tuple[str, str, str]:
        """The table's name, its columns and its key columns as SQL text, quoted. The only
        text formatted into this module's SQL: names the schema gave (Database.tables,
        columns, primary_key), never a value."""
        quoted = _quoted(self.name)
        return quoted, ", ".join(map(_quoted, self.columns)), ", ".join(map(_quoted, self.key))

    def key_of(self, row: Sequence[Any]) -> tuple[Any, ...]:
        return tuple(row[self.columns.index(k)] for k in self.key)


@dataclass(frozen=True, slots=True)
class CopyReport:
    rows: dict[str, int]  # rows copied per table, in the order they were copied
    next_ids: dict[str, int]  # per table with an identity column: the id its next row gets
    ledger: tuple[int, int]  # ledger rows and the sum of their deltas, the same on both
    invariant: InvariantReport  # on the target, before COMMIT


async def copy_database(
    source: Database,
    target: Database,
    *,
    on_table: Callable[[str, int], None] | None = None,
    batch: int | None = None,
) -> CopyReport:
    """Copy every row of ``source`` into the empty ``target`` (see the module docstring),
    ``batch`` rows at a time (default ``BATCH``); ``on_table(name, rows)`` is called as each
    table is done. Raises CopyError."""
    try:
        tables = await _same_schema(source, target)
        return await _copy(source, target, tables, on_table, batch or BATCH)
    except CopyError:
        raise
    except Exception as exc:  # the driver's: a lost connection, a lock, a damaged row...
        raise CopyError(f"the copy failed ({_why(exc, source)}); nothing copied") from exc


# SQLite's words for text that is not UTF-8 (flipped bytes in a row or in the schema); the
# rest of its message quotes the text, which may be a private hand.
_UNDECODABLE = re.compile(r"Could not decode to UTF-8 column '([^']*)'")


def _why(exc: BaseException, source: Database) -> str:
    found = _UNDECODABLE.search(str(exc))
    if found is None:
        return _first_line(exc)
    return (
        f"{source.target} holds text that is not valid UTF-8, in column {found.group(1)!r}: "
        "the file is damaged; restore a backup"
    )


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


async def _copy(
    source: Database,
    target: Database,
    tables: list[Table],
    on_table: Callable[[str, int], None] | None,
    batch: int,
) -> CopyReport:
    async with source.transaction() as src, target.transaction() as dst:
        for table in tables:
            name = _quoted(table.name)
            if await dst.fetchone(f"SELECT 1 FROM {name} LIMIT 1") is not None:
                raise CopyError(
                    f"the database {target.target} is not empty ({table.name} has rows): "
                    "migrate-db copies into a new, empty database only"
                )
        before = await wallets.check_invariant(src)
        if not before.ok:
            raise CopyError(
                f"the chips of {source.target} do not add up ({before}); nothing copied"
            )
        rows: dict[str, int] = {}
        for table in tables:
            rows[table.name] = await _copy_table(src, dst, table, batch)
            if on_table is not None:
                on_table(table.name, rows[table.name])
        next_ids = await _continue_ids(dst)
        ledger = await _check(src, dst, tables, rows, batch)
        invariant = await wallets.check_invariant(dst)
        if invariant != before:
            raise CopyError(
                f"the copy's chips differ from the source's ({invariant} against {before}); "
                "nothing copied"
            )
    return CopyReport(rows, next_ids, ledger, invariant)


def _quoted(identifier: str) -> str:
    return '"' + identifier.replace('"', '""') + '"'


def _marks(count: int) -> str:
    return ", ".join("?" * count)


async def _same_schema(source: Database, target: Database) -> list[Table]:
    """The tables in an order that copies a row's referenced rows first; CopyError when the
    two schemas differ."""
    if await source.schema_version() != await target.schema_version():
        raise CopyError(
            f"{source.target} has schema {await source.schema_version()} and {target.target} "
            f"{await target.schema_version()}: both must be this bot's"
        )
    tables: dict[str, Table] = {}
    parents: dict[str, list[str]] = {}
    names = await source.tables()
    if names != await target.tables():
        raise CopyError(f"{source.target} and {target.target} have different tables")
    for name in names:
        columns = await source.columns(name)
        key = await source.primary_key(name)
        if columns != await target.columns(name) or key != await target.primary_key(name):
            raise CopyError(f"table {name} differs between {source.target} and {target.target}")
        if not key:
            raise CopyError(f"table {name} has no primary key to copy it by")
        tables[name] = Table(name, columns, key)
        parents[name] = [p for p in await source.references(name) if p != name]
    ordered: list[Table] = []
    while len(ordered) < len(tables):
        done = {t.name for t in ordered}
        ready = [n for n in names if n not in done and all(p in done for p in parents[n])]
        if not ready:
            raise CopyError("the tables' foreign keys form a cycle")
        ordered.extend(tables[n] for n in ready)
    return ordered


async def _pages(conn: Connection, table: Table, batch: int) -> AsyncIterator[list[Any]]:
    """Every row of ``table`` in primary-key order, ``batch`` at a time."""
    name, columns, key = table.sql()
    marks = _marks(len(table.key))
    rows = await conn.fetchall(f"SELECT {columns} FROM {name} ORDER BY {key} LIMIT ?", [batch])
    while rows:
        yield rows
        if len(rows) < batch:
            return
        rows = await conn.fetchall(
            f"SELECT {columns} FROM {name} WHERE ({key}) > ({marks}) ORDER BY {key} LIMIT ?",
            [*table.key_of(rows[-1]), batch],
        )


async def _copy_table(src: Connection, dst: Connection, table: Table, batch: int) -> int:
    name, columns, _ = table.sql()
    marks = _marks(len(table.columns))
    insert = f"INSERT INTO {name} ({columns}) VALUES ({marks})"
    count = 0
    async for rows in _pages(src, table, batch):
        try:
            await dst.executemany(insert, [tuple(row) for row in rows])
        except Exception as exc:  # a row the target refuses
            raise CopyError(
                f"the copy failed in {table.name}, rows {count + 1:,} to {count + len(rows):,} "
                f"({_first_line(exc)}); nothing copied"
            ) from exc
        count += len(rows)
    return count


async def _continue_ids(dst: Connection) -> dict[str, int]:
    """Move each identity sequence past the largest id copied (PostgreSQL; SQLite's
    AUTOINCREMENT already follows the ids inserted). Returns the next id per table."""
    if dst.dialect.name != "postgresql":
        return {}
    identities = await dst.fetchall(
        "SELECT table_name, column_name FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND is_identity = 'YES' ORDER BY table_name"
    )
    next_ids = {}
    for table, id_column in identities:
        name, column = _quoted(table), _quoted(id_column)
        row = await dst.fetchone(
            f"SELECT setval(pg_get_serial_sequence(?, ?), MAX({column})) FROM {name}",
            (table, id_column),
        )
        next_ids[str(table)] = 1 if row[0] is None else int(row[0]) + 1
    return next_ids


async def _check(
    src: Connection, dst: Connection, tables: list[Table], rows: dict[str, int], batch: int
) -> tuple[int, int]:
    """Before COMMIT: each table's row count, each row against its source row by primary key,
    and the ledger's count and sum. Returns the ledger's (rows, sum)."""
    for table in tables:
        name = _quoted(table.name)
        found = await dst.fetchone(f"SELECT COUNT(*) FROM {name}")
        if int(found[0]) != rows[table.name]:
            raise CopyError(
                f"{table.name}: {rows[table.name]:,} rows copied but {int(found[0]):,} "
                "arrived; nothing copied"
            )
        async for page in _pages(src, table, batch):
            await _same_rows(dst, table, page)
    ledger_sql = "SELECT COUNT(*), COALESCE(SUM(delta), 0) FROM ledger"
    ledger = tuple(int(v) for v in await src.fetchone(ledger_sql))
    copied = tuple(int(v) for v in await dst.fetchone(ledger_sql))
    if copied != ledger:
        raise CopyError(f"the ledger differs after the copy ({copied} against {ledger})")
    return ledger[0], ledger[1]


async def _same_rows(dst: Connection, table: Table, page: Sequence[Any]) -> None:
    """The target's rows with the keys of ``page`` (source rows) are equal to them."""
    name, columns, key = table.sql()
    keys = [table.key_of(row) for row in page]
    marks = ", ".join([f"({_marks(len(table.key))})"] * len(keys))
    copied = await dst.fetchall(
        f"SELECT {columns} FROM {name} WHERE ({key}) IN ({marks})",
        [value for one in keys for value in one],
    )
    by_key = {table.key_of(row): tuple(row) for row in copied}
    for one, row in zip(keys, page, strict=True):
        if by_key.get(one) != tuple(row):
            raise CopyError(
                f"{table.name} row {', '.join(map(str, one))} differs after the copy; "
                "nothing copied"
            )
