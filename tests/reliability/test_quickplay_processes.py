"""Issue 36: two processes on one database run quick play for 200 members who queue at
random moments over 30 seconds, press Ready (or miss the check) from either process, and
open the tables. Every second, no member is in two live ready checks; at the end every
ready check was answered or ran out, no table was opened twice, and each table seats the
members of its check. ``across``: the same with two servers on everywhere, two of three
members queuing where: everywhere from either (a cross-server table is EVERYWHERE's, with a
place per server of its members), the others here; no here entry meets an everywhere one."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.errors import UserError
from bot.records import EVERYWHERE
from bot.store.db import Database
from bot.tables.quickplay import READY_SECONDS, QuickPlay
from tests.backends import DbTarget
from tests.fakes import FakeClock
from tests.store.test_queue import CHANNEL, GUILD, OTHER, quick

MEMBERS = 200
SECONDS = 30
GAMES = ("board", "heartsdue")


async def live_twice(db: Database) -> list[int]:
    """Members in more than one ready check still asking or opening."""
    rows = await db.fetchall(
        "SELECT s.user_id FROM quick_match_seats s JOIN quick_matches m ON m.id = s.match_id"
        " WHERE m.status IN ('asking', 'opening') GROUP BY s.user_id HAVING COUNT(*) > 1"
    )
    return [int(r[0]) for r in rows]


async def answer(
    procs: list[QuickPlay], match_id: int, users: list[int], rng: random.Random
) -> int:
    """The matched members press Ready at once, each from a random process, a fifth of them
    never: the tables opened by the last press (0 or 1, whoever won it)."""
    pressing = [u for u in users if rng.random() >= 0.2]
    results = await asyncio.gather(
        *(rng.choice(procs).ready(match_id, u) for u in pressing), return_exceptions=True
    )
    lasts = [r for r in results if isinstance(r, tuple) and r[1]]
    assert all(isinstance(r, tuple | UserError) for r in results), results
    assert len(lasts) <= 1, "two presses both took the last one"
    for found, _ in lasts:
        await rng.choice(procs).open_match(found)
    return len(lasts)


@pytest.mark.parametrize("across", [False, True], ids=["here", "everywhere"])
async def test_two_processes_and_200_members_never_match_anyone_twice(
    db_target: DbTarget, across: bool
) -> None:
    target = db_target("bot")
    first, second = await Database.open(target), await Database.open(target)
    rng = random.Random(36)
    clock = FakeClock()
    try:
        procs = [quick(first, clock), quick(second, clock, seed=2)]
        if across:
            for guild in (GUILD, OTHER):
                await procs[0].set_mode(guild, "everywhere", 0)
        arrivals = sorted((rng.uniform(0, SECONDS), user) for user in range(1, MEMBERS + 1))
        where: dict[int, tuple[int, bool]] = {}  # member -> (server, queued everywhere)
        checks: set[int] = set()
        opened = 0
        for second_of_run in range(SECONDS + 1):
            while arrivals and arrivals[0][0] <= second_of_run:
                _, user = arrivals.pop(0)
                guild = rng.choice((GUILD, OTHER)) if across else GUILD
                where[user] = (guild, across and rng.random() < 2 / 3)
                await rng.choice(procs).join(
                    guild_id=guild, channel_id=CHANNEL, user_id=user, name=f"P{user}",
                    game_key=rng.choice(GAMES), everywhere=where[user][1],
                )  # fmt: skip
            passes = await asyncio.gather(*(p.run_pass() for p in procs))
            made = [m for done in passes for m in done.matches]
            assert not {m.id for m in made} & checks, "a ready check was asked twice"
            checks |= {m.id for m in made}
            for found in made:
                kinds = {where[s.user_id][1] for s in found.seats}
                assert len(kinds) == 1, "a here entry met an everywhere one"
                if not kinds.pop():  # here: one server's members
                    assert {where[s.user_id][0] for s in found.seats} == {found.guild_id}
                else:
                    assert found.guild_id == EVERYWHERE
                opened += await answer(procs, found.id, [s.user_id for s in found.seats], rng)
            assert await live_twice(first) == []
            clock.advance(1)
        # Past every deadline: the checks nobody finished run out, once, in either process.
        clock.advance(READY_SECONDS + 1)
        await asyncio.gather(*(p.run_pass(force=True) for p in procs))
        assert len(checks) >= 60, len(checks)  # the run did match members
        statuses = await first.fetchall("SELECT status, COUNT(*) FROM quick_matches GROUP BY 1")
        counted = {str(r[0]): int(r[1]) for r in statuses}
        # Answered or ran out: what still asks is a check this last pass made from the
        # members the run-out ones sent back, within its own 30 seconds.
        overdue = await first.fetchall(
            "SELECT id FROM quick_matches WHERE status = 'opening'"
            " OR (status = 'asking' AND deadline <= ?)",
            (clock(),),
        )
        assert overdue == [] and set(counted) <= {"opened", "failed", "asking"}, counted
        assert counted.get("opened", 0) == opened
        tables = await first.fetchall(
            "SELECT table_id, COUNT(*) FROM quick_matches WHERE table_id IS NOT NULL GROUP BY 1"
        )
        assert all(int(r[1]) == 1 for r in tables) and len(tables) == opened
        crossing = 0
        for table_id, _ in tables:
            table = await procs[0].tables.get(int(table_id))
            seats = await first.fetchall(
                "SELECT s.user_id FROM quick_match_seats s JOIN quick_matches m"
                " ON m.id = s.match_id WHERE m.table_id = ? ORDER BY s.seat",
                (int(table_id),),
            )
            assert table.status == "running"
            assert [s.user_id for s in table.seats] == [int(r[0]) for r in seats]
            crossing += table.crosses_servers
            if table.crosses_servers:  # a place per server of its members, none twice
                placed = {u: p.guild_id for p in table.places for u in p.user_ids}
                assert placed == {s.user_id: where[s.user_id][0] for s in table.seats}
                assert len({p.guild_id for p in table.places}) == len(table.places)
        assert (crossing > 0) == across, crossing
        # Nobody is both waiting and seated: a seated member's queue entry is gone.
        waiting = {int(r[0]) for r in await first.fetchall("SELECT user_id FROM quick_queue")}
        seated = {
            int(r[0])
            for r in await first.fetchall(
                "SELECT s.user_id FROM quick_match_seats s JOIN quick_matches m"
                " ON m.id = s.match_id WHERE m.status = 'opened'"
            )
        }
        assert not waiting & seated
    finally:
        await first.close()
        await second.close()
