"""Sharding: each process owns the guilds of its shards. Two table services over one
database file, one per shard, each fire only their own guilds' timers and list only their
own guilds' tables for the redraw after a start; and the settings that say which shards."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from bot.config import Settings
from bot.games.registry import Games
from bot.store.db import Database
from bot.tables.kernel import TableKernel
from bot.tables.service import TableService
from bot.tables.shards import EVERY_GUILD, Shards, shard_of
from bot.tables.timers import TableTimers
from tests.fakes import FakeClock

# Discord puts a guild on shard (id >> 22) % count: these two are on shards 0 and 1 of 2.
GUILD_0 = (730_000 << 22) | 0x2A5F1
GUILD_1 = (730_001 << 22) | 0x11C07
ANA, BO, CY, DI = 1, 2, 3, 4
BASE = {"variant": "standard", "rounds": 1, "target": None, "soft_last_die": False}


def test_guilds_are_on_the_shards_discord_puts_them_on() -> None:
    assert shard_of(GUILD_0, 2) == 0 and shard_of(GUILD_1, 2) == 1
    assert [shard_of(GUILD_1, n) for n in (1, 3, 16)] == [0, 730_001 % 3, 730_001 % 16]


def test_which_guilds_a_process_owns() -> None:
    zero, one = Shards(2, (0,)), Shards(2, (1,))
    assert zero.owns(GUILD_0) and not zero.owns(GUILD_1)
    assert one.owns(GUILD_1) and not one.owns(GUILD_0)
    assert zero.subset() == (2, (0,)) and Shards(4, (3, 1)).subset() == (4, (1, 3))
    # Every shard in one process, or no sharding at all: every guild, and no filter.
    for everything in (EVERY_GUILD, Shards(3, (2, 0, 1))):
        assert everything.owns(GUILD_0) and everything.owns(GUILD_1)
        assert everything.subset() is None
    with pytest.raises(ValueError, match="0 to 1"):
        Shards(2, (2,))
    with pytest.raises(ValueError, match="at least 1"):
        Shards(0, (0,))


# --------------------------------------------------------------------------- settings


def settings(**values: Any) -> Settings:
    return Settings(_env_file=None, **values)


def test_shard_settings_from_the_environment() -> None:
    assert settings().shards() == EVERY_GUILD
    assert settings(shard_count="", shard_ids="").shards() == EVERY_GUILD  # empty in .env
    assert settings(shard_count="4").shards() == Shards(4, (0, 1, 2, 3))
    sharded = settings(shard_count="4", shard_ids="1, 3")  # as in .env
    assert sharded.shard_count == 4 and sharded.shard_ids == [1, 3]
    assert sharded.shards() == Shards(4, (1, 3))
    assert settings(shard_count=2, shard_ids=[0]).shards() == Shards(2, (0,))  # JSON list
    assert settings(shard_count=2, shard_ids="1").shard_ids == [1]


@pytest.mark.parametrize(
    ("values", "field", "message"),
    [
        ({"shard_ids": "0,1"}, "shard_ids", "SHARD_IDS needs SHARD_COUNT"),
        ({"shard_count": 2, "shard_ids": "0,2"}, "shard_ids", "0 to 1 (SHARD_COUNT=2), not 2"),
        ({"shard_count": 2, "shard_ids": "-1"}, "shard_ids", "not -1"),
        ({"shard_count": 2, "shard_ids": "1,1"}, "shard_ids", "listed twice"),
        ({"shard_count": 2, "shard_ids": "0;1"}, "shard_ids", "whole numbers separated by commas"),
        ({"shard_count": 0}, "shard_count", "must be 1 to 50,000"),
        ({"shard_count": 10**23}, "shard_count", "must be 1 to 50,000"),
        ({"shard_count": "two"}, "shard_count", "integer"),
    ],
)
def test_wrong_shard_settings_are_refused_with_one_line(
    values: dict[str, Any], field: str, message: str
) -> None:
    with pytest.raises(ValidationError) as refused:
        settings(**values)
    [error] = refused.value.errors()
    assert error["loc"] == (field,)
    assert message in error["msg"] and "\n" not in error["msg"]


# --------------------------------------------------------------------------- two processes


def service(db: Database, clock: FakeClock, shards: Shards = EVERY_GUILD) -> TableService:
    limits = settings(start_cooldown_seconds=0).table_limits()
    return TableService(TableKernel(db, Games(), limits, clock, random.Random(1), shards=shards))


async def open_table(tables: TableService, guild_id: int, host: int, guest: int) -> int:
    table = await tables.open_lobby(
        guild_id=guild_id,
        channel_id=guild_id + 1,
        host_id=host,
        host_name=f"P{host}",
        kind="sequences",
        settings=BASE,
    )
    await tables.join(table.id, guest, f"P{guest}")
    return table.id


async def test_each_process_fires_and_redraws_only_its_own_guilds(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    db0, db1 = await Database.open(path), await Database.open(path)  # two processes, one file
    clock = FakeClock()
    zero = service(db0, clock, Shards(2, (0,)))
    one = service(db1, clock, Shards(2, (1,)))
    try:
        # A guild's commands reach the process of its shard, which opens its tables.
        lobby0 = await open_table(zero, GUILD_0, ANA, BO)
        game0 = await open_table(zero, GUILD_0, CY, DI)
        await zero.start(game0, CY)
        clock.advance(10)
        lobby1 = await open_table(one, GUILD_1, ANA, BO)
        game1 = await open_table(one, GUILD_1, CY, DI)
        await one.start(game1, CY)

        # The redraw after a start: each its own guilds' tables (none was shown yet).
        assert sorted(await zero.behind_on_discord()) == [lobby0, game0]
        assert sorted(await one.behind_on_discord()) == [lobby1, game1]
        everything = service(db0, clock)  # unsharded: one process owns every guild
        assert sorted(await everything.behind_on_discord()) == [lobby0, game0, lobby1, game1]

        # The timer loop sleeps until its own next deadline.
        first0, first1 = await zero.get(game0), await one.get(game1)
        assert await TableTimers(zero.kernel).next_deadline() == first0.row.deadline
        assert await TableTimers(one.kernel).next_deadline() == first1.row.deadline
        assert await TableTimers(everything.kernel).next_deadline() == first0.row.deadline

        # Both turn timers have run out: each process plays only its own guild's turn.
        clock.advance(181)
        [change] = await TableTimers(zero.kernel).run_due()
        assert change.table.id == game0
        assert (await zero.get(game1)).version == first1.version  # shard 1's, untouched
        [change] = await TableTimers(one.kernel).run_due()
        assert change.table.id == game1
        assert (
            await TableTimers(zero.kernel).run_due() == []
            and await TableTimers(one.kernel).run_due() == []
        )

        # Both lobbies expire: again each process closes only its own.
        clock.advance(15 * 60)
        expired0 = [
            c.table.id
            for c in await TableTimers(zero.kernel).run_due()
            if c.table.status == "expired"
        ]
        assert expired0 == [lobby0]
        assert (await one.get(lobby1)).status == "lobby"
        expired1 = [
            c.table.id
            for c in await TableTimers(one.kernel).run_due()
            if c.table.status == "expired"
        ]
        assert expired1 == [lobby1]
    finally:
        await db0.close()
        await db1.close()
