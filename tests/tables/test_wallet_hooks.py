"""The table service with the wallet hooks: stakes follow seats, results pay and rate."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.config import Settings
from bot.games.registry import Games
from bot.records import SeatResult
from bot.store import stats
from bot.store.db import Database
from bot.tables import wallets
from bot.tables.fair_play import FairPlay
from bot.tables.kernel import TableKernel
from bot.tables.kind import GameKind
from bot.tables.model import Seat, Table
from bot.tables.service import TableService
from bot.tables.timers import TableTimers
from bot.tables.wallet_hooks import WalletHooks, winners_in_turn_order
from tests.backends import DbTarget
from tests.fakes import FakeClock

GUILD, CHANNEL = 10, 20
ANA, BO, CY, DI = 1, 2, 3, 4
BASE = {"variant": "standard", "rounds": 1, "target": None, "soft_last_die": False}


@pytest.fixture
async def db(db_target: DbTarget) -> AsyncIterator[Database]:
    database = await Database.open(db_target("bot"))
    yield database
    report = await wallets.check_invariant(database)
    await database.close()
    assert report.ok, report


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def service_for(db: Database, clock: FakeClock) -> TableService:
    settings = Settings(_env_file=None, start_cooldown_seconds=0)  # type: ignore[call-arg]
    return TableService(
        TableKernel(
            db, Games(), settings.table_limits(), clock, random.Random(11), WalletHooks(clock)
        )
    )


async def lobby(service: TableService, stake: int, *guests: int, **settings: Any) -> int:
    table = await service.open_lobby(
        guild_id=GUILD, channel_id=CHANNEL, host_id=ANA, host_name="Ana", kind="sequences",
        settings={**BASE, **settings}, stake=stake,
    )  # fmt: skip
    for user in guests:
        await service.join(table.id, user, f"user{user}")
    return table.id


async def balances(db: Database, *users: int) -> list[int]:
    return [await wallets.balance(db, GUILD, user) for user in users]


async def test_host_without_the_stake_opens_nothing(db: Database, clock: FakeClock) -> None:
    service = service_for(db, clock)
    with pytest.raises(wallets.InsufficientChips, match="You have 1,000 chips"):
        await lobby(service, 1_500)
    assert await db.fetchall("SELECT id FROM games") == []


@pytest.mark.parametrize("how", ["cancel", "host_leaves", "expiry", "end", "admin_end"])
async def test_closing_without_a_result_refunds_every_stake(
    db: Database, clock: FakeClock, how: str
) -> None:
    service = service_for(db, clock)
    table_id = await lobby(service, 250, BO, CY)
    assert await balances(db, ANA, BO, CY) == [750, 750, 750]
    if how == "cancel":
        await service.cancel(table_id, ANA, is_admin=False)
    elif how == "host_leaves":  # each host in turn hands over; the last member closes it
        for user in (ANA, BO):
            await service.leave(table_id, user)
            assert (await service.get(table_id)).status == "lobby"
        await service.leave(table_id, CY)
        assert (await service.get(table_id)).status == "cancelled"
    elif how == "expiry":
        clock.advance(901)
        await TableTimers(service.kernel).run_due()
    elif how == "end":  # a staked game: the host asks, and only everyone's agreement ends it
        await service.start(table_id, ANA)
        asked = await FairPlay(service.kernel).end(table_id, ANA, is_admin=False)
        assert asked.end_requested and not asked.closed
        await FairPlay(service.kernel).agree_to_end(table_id, BO)
        assert await balances(db, ANA, BO, CY) == [750, 750, 750]
        agreed = await FairPlay(service.kernel).agree_to_end(table_id, CY)
        assert agreed.closed and agreed.table.status == "ended"
    else:
        await service.start(table_id, ANA)
        await FairPlay(service.kernel).end(table_id, BO, is_admin=True)
    assert await balances(db, ANA, BO, CY) == [1_000, 1_000, 1_000]


async def test_abandoned_game_refunds(db: Database, clock: FakeClock) -> None:
    service = service_for(db, clock)
    table_id = await lobby(service, 100, BO, rounds=10)
    await service.start(table_id, ANA)
    for _ in range(6):
        clock.advance(181)
        fired = await TableTimers(service.kernel).run_due()
        if fired[0].table.status == "abandoned":
            break
    assert (await service.get(table_id)).status == "abandoned"
    assert await balances(db, ANA, BO) == [1_000, 1_000]


async def test_finished_game_pays_once_and_records_stats(db: Database, clock: FakeClock) -> None:
    service = service_for(db, clock)
    table_id = await lobby(service, 100, BO, CY)
    change = await service.start(table_id, ANA)
    while change.table.status == "running":
        state = change.table.rules
        action = "throw" if state.phase == "throw" else "bank"
        user = change.table.seats[state.current].user_id
        assert user is not None
        change = await service.act(table_id, user, change.table.version, action)
    state = change.table.rules
    assert state.outcome is not None
    winners = [change.table.seats[s].user_id for s in sorted(state.outcome.winners)]
    shares = wallets.split_pot(300, [u for u in winners if u is not None])
    expected = [900 + shares.get(user, 0) for user in (ANA, BO, CY)]
    assert await balances(db, ANA, BO, CY) == expected
    for user in (ANA, BO, CY):
        [line] = await stats.player_stats(db, GUILD, user)
        assert (line.games, line.rated_games, line.wins) == (1, 1, int(user in winners))
        assert line.chips_net == shares.get(user, 0) - 100


def result(seat: int, won: bool) -> SeatResult:
    return SeatResult(seat, 100 + seat, f"p{seat}", seat % 2, 0, 1 if won else 2, won, 0)


class _FirstSeat(GameKind[dict[str, int]]):
    name = "first-seat"

    def first_seat(self, state: dict[str, int]) -> int:
        return state["first"]


def test_remainder_goes_to_the_winner_who_moved_first() -> None:
    table = Table.__new__(Table)
    table.game = GameKind()  # seat 0 moves first unless the kind says otherwise
    table.seats = [Seat(100 + i, f"p{i}") for i in range(4)]
    table.rules = {"first": 2}
    results = [result(i, i % 2 == 1) for i in range(4)]
    assert [r.seat for r in winners_in_turn_order(table, results)] == [1, 3]
    table.game = _FirstSeat()
    assert [r.seat for r in winners_in_turn_order(table, results)] == [3, 1]
