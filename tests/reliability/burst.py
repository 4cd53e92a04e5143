"""A burst of clicks on every live staked table, for the two-process tests: importable by a
child process without the Discord harness.

    python -m tests.reliability.burst DATABASE SEED

plays on every live table of DATABASE through the real TableService (with the wallet hooks),
pass after pass, each pass one click per table, all at once, printing a line per change that
committed, until it is killed (the test sends SIGKILL) or ``MAX_SECONDS`` have passed.
"""

from __future__ import annotations

import asyncio
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from bot.errors import UserError
from bot.games.registry import Games
from bot.store.db import Database
from bot.tables.kernel import TableKernel
from bot.tables.limits import TableLimits
from bot.tables.model import Change
from bot.tables.service import TableService
from bot.tables.wallet_hooks import WalletHooks
from tests.fakes import FakeClock

GUILD, CHANNEL = 10, 20
STAKE = 10
SEATS = 3
PUSH = {"variant": "standard", "rounds": 1, "target": None, "soft_last_die": False}
LIMITS = TableLimits(
    turn_timeout_seconds=60,
    lobby_timeout_seconds=300,
    bot_turn_delay_seconds=1.0,
    start_cooldown_seconds=0,
    max_lobbies_per_channel=10_000,
    max_games_per_channel=10_000,
    max_lobbies_per_guild=10_000,
    max_games_per_guild=10_000,
)
USERS = tuple(range(1, 13))
MAX_SECONDS = 60  # a child whose parent died stops by itself


def instance(db: Database, clock: FakeClock, seed: int) -> TableService:
    return TableService(
        TableKernel(db, Games(), LIMITS, clock, random.Random(seed), WalletHooks(clock))
    )


async def click(service: TableService, table_id: int, rng: random.Random) -> Change | None:
    """What a member would click next on this table: join or start a lobby, or the move of
    the player whose turn it is (at the version the table was read at). None if refused."""
    try:
        table = await service.get(table_id)
        if table.status == "lobby":
            if len(table.seats) < SEATS:
                free = [u for u in USERS if table.seat_of(u) is None]
                user = rng.choice(free)
                return await service.join(table_id, user, f"P{user}")
            return await service.start(table_id, table.row.host_id)
        if table.status != "running" or table.rules is None:
            return None
        user = table.seats[table.rules.current].user_id
        assert user is not None
        action = "throw" if table.rules.phase == "throw" else rng.choice(["bank", "bank", "push"])
        return await service.act(table_id, user, table.version, action)
    except UserError:  # stale (the other process came first), short of chips, ...
        return None


async def burst_pass(
    service: TableService, rng: random.Random, on_change: Callable[[Change], Any] | None = None
) -> int:
    """One click on every live table at once; returns how many changed something."""
    tables = [t.id for t in await service.live_tables()]
    rng.shuffle(tables)
    seeds = [rng.random() for _ in tables]

    async def one(table_id: int, seed: float) -> bool:
        change = await click(service, table_id, random.Random(seed))
        if change is not None and on_change is not None:
            on_change(change)
        return change is not None

    return sum(await asyncio.gather(*(one(t, s) for t, s in zip(tables, seeds, strict=True))))


async def main(target: str, seed: int) -> int:
    db = await Database.open(target)
    service = instance(db, FakeClock(), seed)
    rng = random.Random(seed)
    print("ready", flush=True)
    started = time.monotonic()
    while time.monotonic() - started < MAX_SECONDS:
        if not await burst_pass(service, rng, lambda change: print(change.table.id, flush=True)):
            await asyncio.sleep(0.01)  # every game over: wait for the kill
    await db.close()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], int(sys.argv[2]))))
