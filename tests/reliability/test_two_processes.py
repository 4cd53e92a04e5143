"""Two bot processes on one database (issue "Scale past one process", part 4): two unsharded
processes, or the old and the new one during a deploy, answer clicks and fire timers on the
same tables. Each instance here has a ``Database`` of its own (its own connections, its own
writer), as a process would; the last test runs a real second process and kills it.

Every change is whole and happens once: one click per version applies and the others are
refused as stale; each timer fires once, and the instance that loses says and shows nothing;
every row's version is the length of its log; the chips add up, no stake is paid or refunded
twice, and each finished game is in the statistics once. On PostgreSQL (the engine for several
processes) and on SQLite (one file, two connections, which wait for each other's writes).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import os
import random
import signal
import sys
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.errors import StaleAction, UserError
from bot.games.registry import Games
from bot.store import games, wallets
from bot.store.db import Database
from bot.tables.kernel import TableKernel
from bot.tables.lobby_host import LobbyHost
from bot.tables.model import Change, Table
from bot.tables.service import TableService
from bot.tables.timers import TableTimers
from tests.backends import DbTarget
from tests.fakes import FakeClock
from tests.reliability.burst import (
    CHANNEL,
    GUILD,
    LIMITS,
    PUSH,
    SEATS,
    STAKE,
    USERS,
    burst_pass,
    instance,
)

ROOT = Path(__file__).resolve().parents[2]
# What a timer writes in the log: a turn played for an absent player, a forfeit, a game
# nobody is left in, a lobby nobody started, a bot's move.
TIMER_KINDS = {"timeout", "forfeit", "abandoned", "expired", "bot"}


@asynccontextmanager
async def two_instances(target: str, clock: FakeClock) -> AsyncIterator[list[TableService]]:
    """Two table services on one database, each through a ``Database`` of its own."""
    first = await Database.open(target)
    second = await Database.open(target)
    try:
        yield [instance(first, clock, 1), instance(second, clock, 2)]
    finally:
        await second.close()
        await first.close()


async def open_table(
    service: TableService, host: int, guests: list[int], *, stake: int = STAKE, bots: int = 0,
    start: bool = True, **settings: Any,
) -> int:  # fmt: skip
    table = await service.open_lobby(
        guild_id=GUILD, channel_id=CHANNEL, host_id=host, host_name=f"P{host}",
        kind="sequences", settings={**PUSH, **settings}, stake=stake,
    )  # fmt: skip
    for user in guests:
        await service.join(table.id, user, f"P{user}")
    for _ in range(bots):
        await service.add_bot(table.id, host)
    if start:
        await service.start(table.id, host)
    return table.id


async def log_kinds(db: Database) -> dict[int, list[str]]:
    kinds: dict[int, list[str]] = {}
    for game_id, kind in await db.fetchall(
        "SELECT game_id, kind FROM game_log ORDER BY game_id, seq"
    ):
        kinds.setdefault(game_id, []).append(kind)
    return kinds


async def check_whole(db: Database) -> None:
    """Whole changes only, each once: every row's version is its log's length (the open is
    entry 1 at version 0), the log numbered 1, 2, 3, ... without a gap or a double; the
    chips add up; every stake is held exactly while its seat is at a live table, then paid
    (finished, the whole pot) or refunded (closed without a result), once; every finished
    game is in the statistics once."""
    seqs: dict[int, list[int]] = {}
    for game_id, seq in await db.fetchall("SELECT game_id, seq FROM game_log"):
        seqs.setdefault(game_id, []).append(seq)
    rows = await db.fetchall("SELECT id, version, status, stake, state_json FROM games")
    assert rows
    for game_id, version, status, stake, state in rows:
        assert sorted(seqs[game_id]) == list(range(1, version + 2)), (game_id, version)
        escrows = await db.fetchall(
            "SELECT user_id, status FROM escrows WHERE game_id = ?", (game_id,)
        )
        seated = sorted(s["user_id"] for s in json.loads(state)["seats"] if s["user_id"])
        expected = {"lobby": "held", "running": "held", "finished": "paid"}.get(status, "refunded")
        if stake:
            assert sorted(user for user, _ in escrows) == seated, game_id
        assert {s for _, s in escrows} <= {expected}, (game_id, status, escrows)
    report = await wallets.check_invariant(db)
    assert report.ok, report
    twice = await db.fetchall(
        "SELECT game_id, user_id, kind FROM ledger WHERE kind IN ('escrow', 'refund', 'payout')"
        " GROUP BY game_id, user_id, kind HAVING COUNT(*) > 1"
    )
    assert twice == []
    finished = await db.fetchall("SELECT id FROM games WHERE status = 'finished' ORDER BY id")
    recorded = await db.fetchall("SELECT game_id FROM recorded_games ORDER BY game_id")
    assert [tuple(r) for r in recorded] == [tuple(r) for r in finished]


# --- a. clicks -------------------------------------------------------------------------------


async def test_two_instances_clicking_one_table_apply_each_version_once(
    db_target: DbTarget,
) -> None:
    async with two_instances(db_target("bot"), FakeClock()) as (a, b):
        table_id = await open_table(a, 1, [2, 3], rounds=3)
        applied = 0
        while applied < 30:
            table = await a.get(table_id)
            if table.status != "running":
                break
            assert table.rules is not None
            user = table.seats[table.rules.current].user_id
            assert user is not None
            action = "throw" if table.rules.phase == "throw" else "bank"
            # Eight clicks on each instance, all on the version the message showed.
            clicks = [
                service.act(table_id, user, table.version, action)
                for service in (a, b)
                for _ in range(8)
            ]
            outcomes = await asyncio.gather(*clicks, return_exceptions=True)
            assert sum(isinstance(o, Change) for o in outcomes) == 1, outcomes
            assert sum(isinstance(o, StaleAction) for o in outcomes) == 15, outcomes
            assert (await b.get(table_id)).version == table.version + 1
            applied += 1
        assert applied > 5
        await check_whole(a.db)


def read_together(services: list[TableService]) -> None:
    """Each service's next read of a table waits until every one has read it: the changes
    that follow are made on the same row, as two processes' can be."""
    both = asyncio.Barrier(len(services))
    for service in services:
        kernel = service.kernel  # every peer reads under the lock through the kernel
        get = kernel.get
        waiting = [True]

        async def together(
            table_id: int, place: Any = None, get: Any = get, waiting: list[bool] = waiting
        ) -> Table:
            table = await get(table_id, place)
            if waiting[0]:
                waiting[0] = False
                await asyncio.wait_for(both.wait(), 5)
            return table

        kernel.get = together  # type: ignore[method-assign]


async def test_two_instances_adding_watchers_at_once_keep_both(db_target: DbTarget) -> None:
    """Issue 31.4: watchers were saved over the version alone (it stays, so the turn's buttons
    stay live), so two processes each adding a watcher on the same read wrote one after the
    other and the first was lost. Now a compare-and-set on the row's revision: the second is
    refused and tried again on the fresh row, and both are watching; the turn's buttons are
    still those of the same version."""
    async with two_instances(db_target("bot"), FakeClock()) as (a, b):
        table_id = await open_table(a, 1, [2], stake=0)
        version = (await a.get(table_id)).version
        for round_, (first, second) in enumerate([(101, 102), (103, 104)]):
            read_together([a, b])
            outcomes = await asyncio.gather(
                LobbyHost(a.kernel).watch(table_id, first, True),
                LobbyHost(b.kernel).watch(table_id, second, True),
            )
            assert all(isinstance(o, Change) for o in outcomes), outcomes
            watchers = (await a.get(table_id)).watchers
            assert sorted(watchers) == [101, 102, 103, 104][: 2 * round_ + 2], watchers
        read_together([a, b])
        outcomes = await asyncio.gather(
            LobbyHost(a.kernel).watch(table_id, 101, False),
            LobbyHost(b.kernel).watch(table_id, 104, False),
        )
        fresh = await a.get(table_id)
        assert sorted(fresh.watchers) == [102, 103] and fresh.version == version
        await check_whole(a.db)


async def test_a_save_on_the_read_before_a_watcher_came_does_not_drop_them(
    db_target: DbTarget,
) -> None:
    """Issue 31.4, the other order: a move saved by one process on the row it read before
    another process noted a watcher wrote the old watchers back (the move's version check
    passed: a watcher leaves the version). Now the move is refused as stale (the member
    presses again on the same buttons) and the watcher stays."""
    async with two_instances(db_target("bot"), FakeClock()) as (a, b):
        table_id = await open_table(a, 1, [2], stake=0)
        table = await a.get(table_id)
        assert table.rules is not None
        user = table.seats[table.rules.current].user_id
        assert user is not None
        read_together([a, b])
        outcomes = await asyncio.gather(
            LobbyHost(a.kernel).watch(table_id, 101, True),
            b.act(table_id, user, table.version, "throw"),
            return_exceptions=True,
        )
        fresh = await a.get(table_id)
        assert fresh.watchers == [101], (fresh.watchers, outcomes)
        if isinstance(outcomes[1], StaleAction):  # the watcher came first: press again
            await b.act(table_id, user, table.version, "throw")
        assert (await a.get(table_id)).watchers == [101]
        assert (await a.get(table_id)).version == table.version + 1
        await check_whole(a.db)


async def test_a_move_on_the_read_before_the_game_moved_is_refused_then_applies(
    db_target: DbTarget,
) -> None:
    """Issue 35.1: where the game is shown (set when its message is posted or reposted) left
    the row's version and revision as they were, so a process holding a copy read before it
    saved that copy as current, and kept showing the game where it no longer is. Now the
    location write moves the revision: the move on the older read is refused as stale (the
    member presses again on the same buttons), then applies once on the fresh row, and the
    location stays."""
    async with two_instances(db_target("bot"), FakeClock()) as (a, b):
        table_id = await open_table(a, 1, [2], stake=0)
        table = await a.get(table_id)
        assert table.rules is not None
        user = table.seats[table.rules.current].user_id
        assert user is not None
        get = b.kernel.get  # every peer reads through the kernel
        moved = [False]

        async def read_then_moved(table_id: int, place: Any = None) -> Table:
            copy = await get(table_id, place)
            if not moved[0]:  # the other process posts the game anew after this read
                moved[0] = True
                await a.set_game_message(table_id, thread_id=None, message_id=555)
            return copy

        b.kernel.get = read_then_moved  # type: ignore[method-assign]
        with pytest.raises(StaleAction):
            await b.act(table_id, user, table.version, "throw")
        fresh = await a.get(table_id)
        assert (fresh.version, fresh.row.message_id) == (table.version, 555)
        await b.act(table_id, user, table.version, "throw")  # pressed again: applies once
        fresh = await a.get(table_id)
        assert (fresh.version, fresh.row.message_id) == (table.version + 1, 555)
        await check_whole(a.db)


async def test_two_instances_opening_at_once_keep_the_server_caps(db_target: DbTarget) -> None:
    # The open checks count the server's tables, then the new one is inserted: another
    # process must not count in between (each process's own lock does not see it).
    clock = FakeClock()
    capped = dataclasses.replace(LIMITS, max_lobbies_per_guild=4)
    async with two_instances(db_target("bot"), clock) as services:
        capped_services = [
            TableService(TableKernel(s.db, Games(), capped, clock, random.Random(1)))
            for s in services
        ]

        async def open_one(user: int) -> Table:
            return await capped_services[user % 2].open_lobby(
                guild_id=GUILD, channel_id=CHANNEL + user, host_id=user, host_name=f"P{user}",
                kind="sequences", settings=dict(PUSH),
            )  # fmt: skip

        opening = [open_one(user) for user in USERS]
        outcomes = await asyncio.gather(*opening, return_exceptions=True)
    opened = [o for o in outcomes if isinstance(o, Table)]
    refused = {str(o) for o in outcomes if isinstance(o, UserError)}
    assert len(opened) == 4, outcomes
    assert refused == {"There are too many open lobbies on this server; join one instead."}


# --- b. timers -------------------------------------------------------------------------------


async def two_hundred_tables(services: list[TableService]) -> None:
    """Staked lobbies that expire, staked games whose players never move (their turns time
    out until the game ends or is abandoned), games against a bot: opened on both instances
    at once (their open checks take turns)."""
    rng = random.Random(5)
    plans = []
    for i in range(200):
        host, *guests = rng.sample(USERS, SEATS)
        if i % 4 == 0:
            plans.append((host, guests[:1], {"start": False}))
        elif i % 4 == 1:  # three turns missed in a row: nobody is left, stakes refunded
            plans.append((host, guests[:1], {"rounds": 3}))
        elif i % 4 == 2:
            plans.append((host, guests, {"rounds": 2}))
        else:
            plans.append((host, [], {"stake": 0, "bots": 1}))
    limit = asyncio.Semaphore(16)

    async def one(i: int) -> None:
        host, guests, options = plans[i]
        async with limit:
            await open_table(services[i % 2], host, guests, **options)

    await asyncio.gather(*(one(i) for i in range(len(plans))))


async def test_two_instances_fire_every_timer_once(
    db_target: DbTarget, caplog: pytest.LogCaptureFixture
) -> None:
    clock = FakeClock()
    async with two_instances(db_target("bot"), clock) as (a, b):
        await two_hundred_tables([a, b])
        # What the timers log, from here on only (not the migrations, not the opens).
        caplog.set_level(logging.DEBUG, logger="bot")
        caplog.clear()
        rounds = 0
        while (deadline := await TableTimers(a.kernel).next_deadline()) is not None:
            rounds += 1
            assert rounds < 200
            clock.now = max(clock.now, deadline)
            due = set(await games.due(a.db, clock()))
            before = await log_kinds(a.db)
            fired = await asyncio.gather(
                TableTimers(a.kernel).run_due(), TableTimers(b.kernel).run_due()
            )
            # Each due timer fired once, on one instance or the other: one change returned
            # (what the bot then shows), one log entry written.
            ids = Counter(change.table.id for changes in fired for change in changes)
            assert set(ids) == due and set(ids.values()) == {1}, (due, ids)
            after = await log_kinds(a.db)
            for game_id, kinds in after.items():
                new = kinds[len(before.get(game_id, [])) :]
                assert len(new) == (game_id in due), (game_id, new)
                assert set(new) <= TIMER_KINDS
        # The instance that lost a timer said nothing about it but at debug: losses happened
        # (both ran every due timer), each one a debug line, and nothing else was said.
        lost = [r for r in caplog.records if "another change came first" in r.getMessage()]
        assert lost and {r.levelno for r in lost} == {logging.DEBUG}
        said = [r.getMessage() for r in caplog.records if r.levelno > logging.DEBUG]
        assert said == []
        await check_whole(a.db)
        statuses = Counter(r[0] for r in await a.db.fetchall("SELECT status FROM games"))
        # (A tie plays on, so some games with a result are abandoned after all.)
        assert statuses["expired"] == 50 and statuses["abandoned"] >= 50, statuses
        assert statuses["finished"] + statuses["abandoned"] == 150, statuses
        assert a.live_locks() == b.live_locks() == 0


# --- c. a real second process, killed mid-burst ----------------------------------------------


async def test_a_second_process_killed_mid_burst_leaves_whole_changes(postgres_url: str) -> None:
    clock = FakeClock()
    db = await Database.open(postgres_url)
    service = instance(db, clock, 1)
    rng = random.Random(9)
    for i in range(40):  # 30 staked games, 10 staked lobbies with their host only
        host, *guests = rng.sample(USERS, SEATS)
        await open_table(service, host, guests if i < 30 else [], start=i < 30, rounds=2)
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.reliability.burst", postgres_url, "5",
        stdout=asyncio.subprocess.PIPE, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert child.stdout is not None
    try:
        assert await asyncio.wait_for(child.stdout.readline(), 60) == b"ready\n"
        theirs = 0

        async def count() -> None:
            nonlocal theirs
            assert child.stdout is not None
            while await child.stdout.readline():
                theirs += 1

        counting = asyncio.create_task(count())
        ours = 0
        for _ in range(500):  # both click the same tables until each has changed some
            ours += await burst_pass(service, rng)
            if theirs >= 30 and ours > 0:
                break
        assert theirs >= 30 and ours > 0
    finally:
        child.kill()  # SIGKILL: mid-burst, no rollback, no close
        await child.wait()
    await counting
    assert child.returncode == -signal.SIGKILL
    live = len(await service.live_tables())
    assert live > 10  # the burst stopped mid-way
    for _ in range(3):  # what the dead process held is free again: this one goes on
        await burst_pass(service, rng)
    await check_whole(db)
    await db.close()

    # A restart: a new Database and service continue every table to its end.
    db = await Database.open(postgres_url)
    try:
        service = instance(db, clock, 3)
        for _ in range(1000):
            if not await service.live_tables():
                break
            await burst_pass(service, rng)
        assert await service.live_tables() == []
        await check_whole(db)
        statuses = {r[0] for r in await db.fetchall("SELECT status FROM games")}
        assert statuses == {"finished"}
    finally:
        await db.close()
