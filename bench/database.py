"""Database work per click (round trips, statements) and commits per second: the raw
driver's floor beside the bot's store, one change at a time and in a burst."""

from __future__ import annotations

import asyncio
import dataclasses
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from bench.env import Env
from bench.report import Report, Sizes
from bench.targets import Targets


def in_timer_loop() -> bool:
    """Whether the caller is the bot's timer loop. A write batch's statements run on the
    engine's worker thread, outside any task: they are the click's own (the clock is still,
    so the timer loop writes nothing)."""
    try:
        task = asyncio.current_task()
    except RuntimeError:  # no event loop in this thread: the writer
        return False
    return task is not None and task.get_name().startswith("table-timers")


async def database_section(H: Any, dbs: Targets, sizes: Sizes, report: Report, seed: int) -> None:
    """One live game, the timer loop on: its clicks' database work, then commits/s."""
    env = await Env(H, dbs, "database", seed, timers=True).start()
    try:
        table_id = await env.start_game("sequences start", rounds=10)
        await db_work(env, table_id, sizes, report)
    finally:
        await env.stop()


async def db_work(env: Env, table_id: int, sizes: Sizes, report: Report) -> None:
    """Database round trips and statements per click, and commits per second."""
    from bot.store.db import AFTER_COMMIT
    from bot.store.sqlite import SqliteDatabase

    db = env.bot.db

    def on_statement(sql: str) -> None:
        if sql != AFTER_COMMIT and not in_timer_loop():
            env.counts["statements"] += 1

    def on_round_trip() -> None:
        if not in_timer_loop():
            env.counts["trips"] += 1

    db.on_statement = on_statement
    db.on_round_trip = on_round_trip
    conn: Any = db.conn if isinstance(db, SqliteDatabase) else None
    if conn is not None:
        real: Any = conn._execute  # private: aiosqlite's one hop to its thread, every call

        async def counting(fn: Any, *args: Any, **kwargs: Any) -> Any:
            task = asyncio.current_task()
            if task is None or not task.get_name().startswith("table-timers"):
                env.counts["hops"] += 1  # the click's own work, not the timer loop's ticks
            return await real(fn, *args, **kwargs)

        setattr(conn, "_execute", counting)  # noqa: B010
    counts: list[dict[str, int]] = []
    try:
        while len(counts) < sizes.db_clicks:
            if await env.dice_click(table_id) is None:
                table_id = await env.start_game("sequences start", rounds=10)
            else:
                counts.append(env.last_counts)
    finally:
        db.on_statement = None
        db.on_round_trip = None
        if conn is not None:
            delattr(conn, "_execute")
    statements = statistics.fmean(c["statements"] for c in counts)
    if conn is not None:
        trips, what = statistics.fmean(c["hops"] for c in counts), "hops to aiosqlite's thread"
    else:  # a read, a statement, or a write batch in pipeline mode: one round trip each
        trips, what = statistics.fmean(c["trips"] for c in counts), "to the server"
    report.add(
        "db.round_trips",
        f"database round trips per click ({what})",
        "count",
        trips,
        goal="a few round trips, one transaction",
    )
    report.add(
        "db.statements",
        "database statements per click (BEGIN and COMMIT included)",
        "count",
        statements,
        goal="",
    )

    dbs, name = env.dbs, env.bot.db.engine
    assert dbs is not None
    raw_one = await raw_commits(dbs, sizes.commits, 1)
    raw_batch = await raw_commits(dbs, sizes.commits * 10, 100)
    store = await store_commits(env, table_id, sizes.commits)
    burst = await store_burst(env, table_id, sizes.commits)
    with no_group_commit():
        single = await store_burst(env, table_id, sizes.commits)
    engine, driver = dbs.label, "sqlite3" if name == "sqlite" else "psycopg"
    report.add(
        "db.raw_commits",
        f"{engine}: raw {driver}, one change per commit",
        "/s",
        raw_one,
        higher_is_better=True,
        goal="(the disk's floor)",
    )
    report.add(
        "db.raw_batched",
        f"{engine}: raw {driver}, 100 changes per commit",
        "/s",
        raw_batch,
        higher_is_better=True,
        goal="(group commit's floor)",
    )
    report.add(
        "db.store_commits",
        f"{engine}: the bot's store, one change at a time",
        "/s",
        store,
        floor=raw_one,
        higher_is_better=True,
        goal="(one hop per change)",
    )
    report.add(
        "db.store_burst",
        f"{engine}: the bot's store, {sizes.commits:,} changes at once (group commit)",
        "/s",
        burst,
        floor=raw_batch,
        higher_is_better=True,
        goal="≥ 10,000 durable changes/s under a burst",
    )
    report.add(
        "db.store_burst_single",
        f"{engine}: the same {sizes.commits:,} changes at once, no group commit",
        "/s",
        single,
        floor=raw_one,
        higher_is_better=True,
        goal="(one transaction per change: what group commit saves)",
    )


async def raw_commits(dbs: Targets, changes: int, per_commit: int) -> float:
    """The plain driver's commits/s on a new database of the same engine and server."""
    target = dbs.new(f"raw{per_commit}")
    try:
        return await asyncio.to_thread(dbs.raw_commits, target, changes, per_commit)
    finally:
        dbs.drop(target)


async def store_commits(env: Env, table_id: int, changes: int) -> float:
    """The store's write path of a click (``games.update`` with its version check, in one
    ``Database.write``), one change after another, on a copy nobody plays."""

    [copy_id] = await env.copies(table_id, 1, lambda i: None)
    row = (await env.bot.tables.get(copy_id)).row
    db = env.bot.db
    started = time.perf_counter()
    for _ in range(changes):
        row.version += 1
        await db.write(bump_job(dataclasses.replace(row)))
        row.revision = 0  # as a save leaves it (a revision counts changes within a version)
    return changes / (time.perf_counter() - started)


def bump_job(row: Any) -> Any:
    from bot.store import games

    return games.update(row, row.version - 1)


async def store_burst(env: Env, table_id: int, changes: int) -> float:
    """The same change on ``changes`` copies at once: group commit writes them together."""
    ids = await env.copies(table_id, changes, lambda i: None)
    rows = [dataclasses.replace((await env.bot.tables.get(i)).row) for i in ids]
    for row in rows:
        row.version += 1
    db = env.bot.db
    started = time.perf_counter()
    await asyncio.gather(*(db.write(bump_job(row)) for row in rows))
    return changes / (time.perf_counter() - started)


@contextmanager
def no_group_commit() -> Iterator[None]:
    """Every ``Database.write`` its own transaction while it lasts (``MAX_BATCH`` = 1): the
    alternative to group commit, measured beside it."""
    from bot.store import db

    saved = db.MAX_BATCH
    db.MAX_BATCH = 1
    try:
        yield
    finally:
        db.MAX_BATCH = saved
