"""Database.write: one hop per change, group commit of concurrent changes, each job in its
own SAVEPOINT, every caller answered after its COMMIT with its own result or error."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from psycopg.errors import DeadlockDetected

from bot.store import games
from bot.store.db import AFTER_COMMIT, Database, Job, WriteConnection
from bot.store.sqlite import SqliteDatabase
from tests.store.helpers import new_game


class Boom(Exception):
    pass


def statements(db: Database) -> list[str]:
    """Every statement the write batches run, as the hook sees them."""
    seen: list[str] = []
    db.on_statement = seen.append
    return seen


def add_member(user_id: int, name: str = "x") -> Job[int]:
    def job(conn: WriteConnection) -> int:
        conn.execute(
            "INSERT INTO members (guild_id, user_id, display_name, updated_at) VALUES (1, ?, ?, 0)",
            (user_id, name),
        )
        return user_id * 10

    return job


def failing(user_id: int) -> Job[int]:
    def job(conn: WriteConnection) -> int:
        add_member(user_id)(conn)  # its own statement ran: the savepoint must undo it
        raise Boom(str(user_id))

    return job


async def members(db: Database) -> list[int]:
    return [r[0] for r in await db.fetchall("SELECT user_id FROM members ORDER BY user_id")]


async def test_one_write_is_one_hop_and_one_transaction(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "hops.sqlite3")  # hops to aiosqlite's thread
    assert isinstance(db, SqliteDatabase)
    seen = statements(db)
    hops = 0
    real = db.conn._execute

    async def counting(*args: object) -> object:
        nonlocal hops
        hops += 1
        return await real(*args)

    db.conn._execute = counting  # type: ignore[method-assign]
    assert await db.write(add_member(1)) == 10
    db.conn._execute = real  # type: ignore[method-assign]
    assert hops == 1
    assert seen[0] == "BEGIN IMMEDIATE" and seen[-2:] == ["COMMIT", AFTER_COMMIT]
    assert await members(db) == [1]
    await db.close()


async def test_a_write_is_one_transaction(db: Database) -> None:
    seen = statements(db)
    assert await db.write(add_member(1)) == 10
    assert seen[0].startswith("BEGIN") and seen[1].startswith("INSERT INTO members")
    assert seen[2:] == ["COMMIT", AFTER_COMMIT]
    assert await members(db) == [1]


async def test_concurrent_writes_share_transactions_and_get_their_own_results(
    db: Database,
) -> None:
    seen = statements(db)
    results = await asyncio.gather(*(db.write(add_member(u)) for u in range(1, 501)))
    assert results == [u * 10 for u in range(1, 501)]  # each caller its own result
    commits = seen.count("COMMIT")
    assert 1 <= commits < 500 and commits >= 500 / 256  # batched, and capped per batch
    assert await members(db) == list(range(1, 501))


async def test_a_failing_job_is_rolled_back_alone(db: Database) -> None:
    seen = statements(db)
    jobs = [failing(u) if u % 3 == 0 else add_member(u) for u in range(1, 10)]
    outcomes = await asyncio.gather(*(db.write(j) for j in jobs), return_exceptions=True)
    for user, outcome in zip(range(1, 10), outcomes, strict=True):
        if user % 3 == 0:
            assert isinstance(outcome, Boom) and str(outcome) == str(user)
        else:
            assert outcome == user * 10
    assert await members(db) == [u for u in range(1, 10) if u % 3]
    assert seen.count("COMMIT") < 9 and "ROLLBACK TO SAVEPOINT job" in seen


async def test_a_single_failing_job_changes_nothing(db: Database) -> None:
    with pytest.raises(Boom):
        await db.write(failing(1))
    assert await members(db) == []
    assert not db.left_open()
    assert await db.write(add_member(2)) == 20  # the next write works


async def test_a_failing_commit_fails_every_job_of_the_batch(db: Database) -> None:
    seen: list[str] = []

    def hook(sql: str) -> None:
        seen.append(sql)
        if sql == "COMMIT" and seen.count("COMMIT") == 1:
            raise Boom("commit failed")

    db.on_statement = hook
    # Hold the writer's lock so the writes queue up and go out as one batch.
    async with db._write_lock:
        pending = [asyncio.ensure_future(db.write(add_member(u))) for u in range(1, 6)]
        await asyncio.sleep(0)
    outcomes = await asyncio.gather(*pending, return_exceptions=True)
    assert all(isinstance(o, Boom) for o in outcomes)
    assert await members(db) == []  # none of them committed
    assert not db.left_open()
    assert await db.write(add_member(9)) == 90


async def test_a_crash_after_commit_leaves_every_job_committed(db: Database) -> None:
    def hook(sql: str) -> None:
        if sql == AFTER_COMMIT:
            raise Boom("died after COMMIT")

    async with db._write_lock:
        pending = [asyncio.ensure_future(db.write(add_member(u))) for u in range(1, 6)]
        await asyncio.sleep(0)
        db.on_statement = hook
    outcomes = await asyncio.gather(*pending, return_exceptions=True)
    assert all(isinstance(o, Boom) for o in outcomes)  # nobody was answered...
    assert await members(db) == [1, 2, 3, 4, 5]  # ...but everything was committed


async def test_jobs_on_the_same_row_keep_their_order(db: Database) -> None:
    game_id = await new_game(db)
    row = await games.get(db, game_id)
    assert row is not None

    def bump(expected: int, turn: int) -> Job[None]:
        copy = games.GameRow(**{**row.__dict__, "version": expected + 1, "state": {"t": turn}})

        def job(conn: WriteConnection) -> None:
            games.update(copy, expected)(conn)
            games.append_log(game_id, 0.0, None, "turn", {"t": turn})(conn)

        return job

    start = row.version
    # Five changes in a row, each expecting the version the one before it wrote, and one
    # stale change in the middle: it conflicts alone.
    jobs = [bump(start + i, i) for i in range(3)]
    jobs.append(bump(start, 99))  # read before the first change: stale now
    jobs += [bump(start + 3, 3), bump(start + 4, 4)]
    outcomes = await asyncio.gather(*(db.write(j) for j in jobs), return_exceptions=True)
    assert [isinstance(o, games.VersionConflict) for o in outcomes] == [
        False, False, False, True, False, False,
    ]  # fmt: skip
    final = await games.get(db, game_id)
    assert final is not None and final.version == start + 5 and final.state == {"t": 4}
    log = [e["detail"]["t"] for e in await games.log_entries(db, game_id)]
    assert log == [0, 1, 2, 3, 4]


async def test_saves_of_one_batch_go_together_and_a_stale_one_conflicts_alone(
    db: Database,
) -> None:
    """Issue 26.5: the saves of a batch (``games.save``) are sent as one statement each
    for the lot (executemany), not one per game; each is still a compare-and-set on its
    version with its log entry, so a stale one fails alone and writes no log entry."""
    rows = []
    for _ in range(6):
        row = await games.get(db, await new_game(db))
        assert row is not None
        rows.append(row)
    seen = statements(db)

    def save(row: games.GameRow, expected: int, turn: int) -> Job[None]:
        changed = games.GameRow(**{**row.__dict__, "version": expected + 1, "state": {"t": turn}})
        return games.save(changed, expected, 0.0, None, "turn", {"t": turn})

    async def batch(jobs: list[Job[None]]) -> list[object]:
        async with db._write_lock:  # the writes queue up and go out as one batch
            pending = [asyncio.ensure_future(db.write(j, order=i)) for i, j in enumerate(jobs)]
            await asyncio.sleep(0)
        return await asyncio.gather(*pending, return_exceptions=True)

    trips: list[None] = []
    db.on_round_trip = lambda: trips.append(None)
    assert await batch([save(row, row.version, 1) for row in rows]) == [None] * 6
    if db.engine == "sqlite":  # one UPDATE and one INSERT for the six
        assert [s.split()[0] for s in seen] == ["BEGIN", "UPDATE", "INSERT", "COMMIT", "--"]
    else:  # each save one statement, the whole batch one round trip (pipeline mode)
        assert [s.split()[0] for s in seen] == ["BEGIN", *["WITH"] * 6, "COMMIT", "--"]
        assert len(trips) == 1
    seen.clear()
    # The third was read before the first batch: stale now. Only it conflicts.
    jobs = [save(row, row.version + (0 if i == 2 else 1), 2) for i, row in enumerate(rows)]
    outcomes = await batch(jobs)
    assert [isinstance(o, games.VersionConflict) for o in outcomes] == [
        False, False, True, False, False, False,
    ]  # fmt: skip
    if db.engine == "sqlite":  # found by running them one at a time
        assert "ROLLBACK TO SAVEPOINT job" in seen
    for i, row in enumerate(rows):
        now = await games.get(db, row.id)
        assert now is not None
        assert (now.version, now.state) == (
            (row.version + 1, {"t": 1}) if i == 2 else (row.version + 2, {"t": 2})
        )
        log = [e["detail"]["t"] for e in await games.log_entries(db, row.id)]
        assert log[-2:] == ([1] if i == 2 else [1, 2])[-2:] and log.count(2) == (0 if i == 2 else 1)


async def test_writes_and_transactions_never_interleave_on_sqlite(tmp_path: Path) -> None:
    # One SQLite connection: a write waits for a transaction. (On PostgreSQL they run on
    # separate connections and the row locks order them.)
    db = await Database.open(tmp_path / "one.sqlite3")
    async with db.transaction() as conn:
        queued = asyncio.ensure_future(db.write(add_member(2)))
        await asyncio.sleep(0.01)
        assert not queued.done()  # waits for the transaction's lock
        await conn.execute(
            "INSERT INTO members (guild_id, user_id, display_name, updated_at) "
            "VALUES (1, 1, 'a', 0)"
        )
    assert await queued == 20
    assert await members(db) == [1, 2]
    await db.close()


async def test_a_caller_cancelled_before_its_batch_is_dropped(db: Database) -> None:
    async with db._write_lock:
        kept = asyncio.ensure_future(db.write(add_member(1)))
        dropped = asyncio.ensure_future(db.write(add_member(2)))
        await asyncio.sleep(0)
        dropped.cancel()
    assert await kept == 10
    assert await members(db) == [1]


async def test_a_batch_runs_its_jobs_in_the_order_of_their_rows(db: Database) -> None:
    # Every batch of every process locks its rows in one order: two cannot deadlock.
    ran: list[int] = []

    def job(user_id: int) -> Job[int]:
        def run(conn: WriteConnection) -> int:
            ran.append(user_id)
            return add_member(user_id)(conn)

        return run

    async with db._write_lock:  # one batch
        pending = [
            asyncio.ensure_future(db.write(job(user), order=order))
            for user, order in [(1, 30), (2, 10), (3, None), (4, 20), (5, 10)]
        ]
        await asyncio.sleep(0)
    assert await asyncio.gather(*pending) == [10, 20, 30, 40, 50]  # each its own result
    assert ran == [3, 2, 5, 4, 1]  # without a row first; one row's jobs as submitted


async def test_a_job_that_loses_a_deadlock_runs_the_whole_batch_again(
    postgres_url: str,
) -> None:
    # The other transaction may wait for a row an earlier job of the batch locked: only
    # rolling back the whole batch lets it go on. Every job then runs again, once committed.
    db = await Database.open(postgres_url)
    seen = statements(db)
    lost = []

    def loser(conn: WriteConnection) -> int:
        add_member(2)(conn)
        if not lost:
            lost.append(True)
            raise DeadlockDetected("deadlock detected")
        return 20

    try:
        async with db._write_lock:
            pending = [asyncio.ensure_future(db.write(j)) for j in (add_member(1), loser)]
            await asyncio.sleep(0)
        assert await asyncio.gather(*pending) == [10, 20]
        assert await members(db) == [1, 2]
        assert seen.count("BEGIN") == 2 and seen.count("COMMIT") == 1
    finally:
        await db.close()


async def test_a_save_on_a_copy_read_before_the_game_moved_is_refused(db: Database) -> None:
    """Issue 35.1: where the game is shown (its thread and message) moves the row's revision
    as a spectator's change does, so a copy read before it (another process's, or a cached
    one) cannot be saved as if nothing had changed; read again, it saves, and the location
    stays."""
    game_id = await new_game(db)
    stale = await games.get(db, game_id)
    assert stale is not None
    await db.write(games.set_location(game_id, 77, 555), order=game_id)
    stale.version += 1
    with pytest.raises(games.VersionConflict):
        await db.write(games.save(stale, stale.version - 1, 1.0, None, "turn", {}))
    async with db.transaction() as conn:  # the async path refuses it the same way
        with pytest.raises(games.VersionConflict):
            await games.update(stale, stale.version - 1).run(conn)
    fresh = await games.get(db, game_id)
    assert fresh is not None and fresh.version == stale.version - 1
    assert (fresh.thread_id, fresh.message_id, fresh.revision) == (77, 555, stale.revision + 1)
    fresh.version += 1
    await db.write(games.save(fresh, fresh.version - 1, 1.0, None, "turn", {}))
    saved = await games.get(db, game_id)
    assert saved is not None and (saved.version, saved.revision) == (fresh.version, 0)
    assert (saved.thread_id, saved.message_id) == (77, 555)
