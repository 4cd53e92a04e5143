"""A database with a history, on either engine: staked games played through the table
service (finished, cancelled, one left running), chips granted, taken, paid and claimed, a
server's settings. For the tests of tools that copy or dump a whole database."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from bot.config import Settings
from bot.games.registry import Games
from bot.store.db import Database
from bot.tables import wallets
from bot.tables.guild_settings import GuildSettings
from bot.tables.kernel import TableKernel
from bot.tables.service import TableService
from bot.tables.wallet_hooks import WalletHooks
from tests.fakes import FakeClock

SETTINGS = {"variant": "standard", "rounds": 1, "target": None, "soft_last_die": False}


def service_on(db: Database, seed: int = 1) -> TableService:
    clock = FakeClock()
    settings = Settings(_env_file=None, start_cooldown_seconds=0, max_lobbies_per_channel=50,
                        max_games_per_guild=500)  # fmt: skip
    return TableService(
        TableKernel(
            db, Games(), settings.table_limits(), clock, random.Random(seed), WalletHooks(clock)
        )
    )


async def play_one(service: TableService, rng: random.Random, i: int, *, finish: bool) -> Any:
    """A staked table in guild 1: opened, joined, maybe cancelled, else started and played
    to its end (or, ``finish=False``, a few steps only). Returns the table."""
    table = await service.open_lobby(
        guild_id=1, channel_id=2 + i % 7, host_id=10, host_name="Host", kind="sequences",
        settings=SETTINGS, stake=5 + i % 3,
    )  # fmt: skip
    for user in (11, 12, 13):
        await service.join(table.id, user, f"P{user}")
    await service.leave(table.id, 13)
    if finish and rng.random() < 0.25:
        await service.cancel(table.id, 10, False)
        return table
    await service.start(table.id, 10)
    for _ in range(400 if finish else 3):
        current = await service.get(table.id)
        if current.status != "running" or current.rules is None:
            break
        user = current.seats[current.rules.current].user_id
        assert user is not None
        action = "throw" if current.rules.phase == "throw" else "bank"
        await service.act(table.id, user, current.version, action)
    return await service.get(table.id)


async def fill(target: str | Path, games: int = 8, seed: int = 1) -> int:
    """Play ``games`` tables into the database at ``target``, move chips around, and leave one
    game running; returns that game's id."""
    rng = random.Random(seed)
    async with await Database.open(target) as db:
        service = service_on(db, seed)
        clock = FakeClock()
        named = [(10, "Host"), (11, "P11"), (12, "P12"), (13, "Zoë «13»")]
        await wallets.remember(db, 1, named, now=clock())
        await GuildSettings(db, clock).set_max_stake(1, 500, 10)
        for i in range(games):
            await play_one(service, rng, i, finish=True)
            if i % 3 == 0:
                await wallets.grant(
                    db, 1, 11 + i % 2, 25, actor_id=10, reason=f"round {i} ✓", now=clock()
                )
                await wallets.pay(db, 1, 11, 12, 3, now=clock())
        await wallets.take(db, 1, 12, 1, actor_id=10, reason="tidy", now=clock())
        await wallets.claim_daily(db, 1, 13, now=clock())
        running = await play_one(service, rng, games, finish=False)
        assert running.status == "running"
        return int(running.id)


async def rows_of(db: Database) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, sorted, comparable across engines."""
    out = {}
    for table in await db.tables():
        rows = await db.fetchall(f'SELECT * FROM "{table}"')  # test-only, the schema's names
        out[table] = sorted((tuple(row) for row in rows), key=repr)
    return out
