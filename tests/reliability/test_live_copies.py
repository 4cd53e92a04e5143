"""Issue 35.1: every change moves a version, then live tables are kept in memory. Each
process keeps the copy of a table it saved last and plays the next click on it without
reading the row (``TableKernel.change``); the save, a compare-and-set on the version and the
revision, finds a copy another process made old, and the click is played again on the row
read fresh. Two processes (each a ``Database`` of its own) on one PostgreSQL database, and on
one SQLite file with two connections, race every write a table has: clicks, a spectator's
watch, where the game is shown, timers running out and a request to end early. No change
is lost and none is applied twice."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from typing import Any

from bot.errors import UserError
from bot.store import games
from bot.tables.fair_play import FairPlay
from bot.tables.lobby_host import LobbyHost
from bot.tables.model import Change, Table
from bot.tables.service import TableService
from bot.tables.timers import TableTimers
from tests.backends import DbTarget
from tests.fakes import FakeClock
from tests.reliability.burst import LIMITS, USERS, click
from tests.reliability.test_two_processes import check_whole, log_kinds, open_table, two_instances

SPECTATORS = range(501, 509)  # never seated: they only watch
TIMER_KINDS = {"timeout", "forfeit", "abandoned", "bot", "end_request_over"}


def counted_reads(service: TableService) -> Counter[str]:
    """How many times the kernel read a table from the store."""
    reads: Counter[str] = Counter()
    get = service.kernel.get

    async def read(table_id: int, place: Any = None) -> Table:
        reads["get"] += 1
        return await get(table_id, place)

    service.kernel.get = read  # type: ignore[method-assign]
    return reads


async def test_a_click_plays_on_the_copy_kept_and_a_watch_from_elsewhere_is_kept(
    db_target: DbTarget,
) -> None:
    """One process's clicks read nothing after its first save; a spectator the other
    process noted in between makes the copy old: that click's save is refused, the table is
    read and the move played once on it, and the spectator stays."""
    async with two_instances(db_target("bot"), FakeClock()) as (a, b):
        table_id = await open_table(a, 1, [2], stake=0)
        reads = counted_reads(a)
        for _ in range(6):
            table = await b.get(table_id)
            assert table.rules is not None and table.status == "running"
            user = table.seats[table.rules.current].user_id
            assert user is not None
            action = "throw" if table.rules.phase == "throw" else "push"
            await a.act(table_id, user, table.version, action)
        assert reads["get"] == 0  # every click on the copy a kept
        await LobbyHost(b.kernel).watch(table_id, 501, True)  # beside the game, elsewhere
        table = await b.get(table_id)
        assert table.rules is not None
        user = table.seats[table.rules.current].user_id
        assert user is not None
        action = "throw" if table.rules.phase == "throw" else "push"
        await a.act(table_id, user, table.version, action)
        assert reads["get"] == 1  # the copy was old: read once, played once
        fresh = await b.get(table_id)
        assert fresh.watchers == [501] and fresh.version == table.version + 1
        await check_whole(a.db)


async def test_two_processes_keeping_copies_lose_no_change_and_apply_none_twice(
    db_target: DbTarget,
) -> None:
    clock = FakeClock()
    async with two_instances(db_target("bot"), clock) as services:
        rng = random.Random(35)
        tables = []
        for n in range(8):
            host, *guests = rng.sample(USERS, 3)
            tables.append(await open_table(services[n % 2], host, guests, rounds=4))
        hosts = {t: (await services[0].get(t)).row.host_id for t in tables}
        watching: dict[int, set[int]] = {t: set() for t in tables}
        shown: dict[int, int] = {}
        done: Counter[str] = Counter()
        message_ids = iter(range(9_000_000, 10_000_000))

        async def clicks(service: TableService, table_id: int, seed: float) -> None:
            if await click(service, table_id, random.Random(seed)) is not None:
                done["action"] += 1

        async def watch(service: TableService, table_id: int, user: int) -> None:
            on = user not in watching[table_id]
            try:
                await LobbyHost(service.kernel).watch(table_id, user, on)
            except UserError:
                return  # the game ended, or another change came twice
            (watching[table_id].add if on else watching[table_id].discard)(user)

        async def locate(service: TableService, table_id: int) -> None:
            message_id = next(message_ids)
            await service.set_game_message(table_id, thread_id=None, message_id=message_id)
            shown[table_id] = message_id

        async def end_early(service: TableService, table_id: int) -> None:
            try:
                change = await FairPlay(service.kernel).end(table_id, hosts[table_id], False)
            except UserError:
                return
            done["end_request" if change.end_requested else "ended"] += 1

        async def agree(service: TableService, table_id: int, user: int) -> None:
            try:
                change = await FairPlay(service.kernel).agree_to_end(table_id, user)
            except UserError:
                return
            done["agreed" if change.closed else "agree_end"] += 1

        async def timers(service: TableService) -> None:
            fired: list[Change] = await TableTimers(service.kernel).run_due()
            done["timers"] += len(fired)

        for round_ in range(24):
            ops: list[Any] = []
            for table_id in tables:
                first, other = rng.sample(services, 2)
                ops += [
                    clicks(first, table_id, rng.random()),
                    clicks(other, table_id, rng.random()),  # the same move, racing
                    watch(rng.choice(services), table_id, rng.choice(SPECTATORS)),
                ]
                if rng.random() < 0.3:  # one writer of the place at a time: the last is known
                    ops.append(locate(rng.choice(services), table_id))
                if round_ % 6 == 3:
                    ops.append(end_early(rng.choice(services), table_id))
                if round_ % 6 == 4:
                    seated = (await services[0].get(table_id)).seats
                    user = rng.choice([s.user_id for s in seated if s.user_id])
                    ops.append(agree(rng.choice(services), table_id, user))
            if round_ % 3 == 2:  # turns left to run out: both processes fire the timers
                clock.advance(LIMITS.turn_timeout_seconds + 1)
                ops += [timers(services[0]), timers(services[1])]
            rng.shuffle(ops)
            await asyncio.gather(*ops)
        # Clicks were played on the copies each process kept, and some found theirs old.
        assert all(s.kernel.on_copies > 0 for s in services)
        assert sum(s.kernel.copies_behind for s in services) > 0

    async with two_instances(db_target("bot"), clock) as (a, _):
        await check_whole(a.db)  # every row's version is its log's length: none twice
        kinds = Counter(k for entries in (await log_kinds(a.db)).values() for k in entries)
        assert kinds["action"] == done["action"] > 50, (kinds, done)  # every click once
        assert kinds["end_request"] == done["end_request"] > 0
        assert kinds["agree_end"] == done["agree_end"]
        assert sum(kinds[k] for k in TIMER_KINDS) == done["timers"] > 0  # each timer once
        for table_id in tables:
            row = await games.get(a.db, table_id)
            assert row is not None
            table = a.kernel.table_of(row)
            if table.status in games.LIVE:  # no spectator's come or go lost
                assert set(table.watchers) == watching[table_id], table_id
            if table_id in shown:  # and the place last written stands
                assert row.message_id == shown[table_id], table_id
