"""Random joins, leaves, payments, wins, cancellations and restarts keep the chip invariant."""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from pathlib import Path
from typing import Any, ClassVar

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from bot.store import stats
from bot.store.db import Database
from bot.tables import wallets as w
from tests.pg import Databases, database_url
from tests.store.helpers import GUILD, OTHER_GUILD, T0, S, create_game, write_results

USERS = st.sampled_from([1, 2, 3, 4])
GUILDS = st.sampled_from([GUILD, OTHER_GUILD])
AMOUNTS = st.integers(min_value=-5, max_value=1_500)


class WalletMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.path = self.new_database()
        self.db = self.run(Database.open(self.path))
        self.now = T0
        # The model: expected balances (wallets created lazily at 1,000), open tables.
        self.balances: dict[tuple[int, int], int] = {}
        self.tables: dict[int, tuple[int, int, dict[int, int]]] = {}  # id -> guild, stake, held
        self.settled: list[int] = []

    def new_database(self) -> str:
        self.dir = Path(tempfile.mkdtemp())
        return str(self.dir / "bot.sqlite3")

    def drop_database(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)

    def run(self, coro: Any) -> Any:
        return self.loop.run_until_complete(coro)

    def teardown(self) -> None:
        self.run(self.db.close())
        self.loop.close()
        self.drop_database()

    def bal(self, guild: int, user: int) -> int:
        return self.balances.setdefault((guild, user), 1_000)

    def tick(self) -> float:
        self.now += 3_600
        return self.now

    @rule(guild=GUILDS, stake=st.sampled_from([0, 10, 100, 400, 999]))
    def open_table(self, guild: int, stake: int) -> None:
        async def go() -> int:
            async with self.db.transaction() as conn:
                return await create_game(conn, guild_id=guild, stake=stake, now=self.now)

        self.tables[self.run(go())] = (guild, stake, {})

    @precondition(lambda self: self.tables)
    @rule(data=st.data(), user=USERS)
    def join(self, data: st.DataObject, user: int) -> None:
        game = data.draw(st.sampled_from(sorted(self.tables)))
        guild, stake, held = self.tables[game]

        async def go() -> bool:
            async with self.db.transaction() as conn:
                return await w.escrow(conn, game, guild, user, stake, now=self.tick())

        short = stake > self.bal(guild, user) and user not in held
        try:
            took = self.run(go())
        except w.InsufficientChips:
            assert short
            return
        assert not short
        assert took == (stake > 0 and user not in held)
        if took:
            held[user] = stake
            self.balances[(guild, user)] -= stake

    @precondition(lambda self: self.tables)
    @rule(data=st.data(), user=USERS)
    def leave(self, data: st.DataObject, user: int) -> None:
        game = data.draw(st.sampled_from(sorted(self.tables)))
        guild, _, held = self.tables[game]

        async def go() -> int:
            async with self.db.transaction() as conn:
                return await w.refund_seat(conn, game, user, now=self.tick())

        refunded = held.pop(user, 0)
        assert self.run(go()) == refunded
        self.balances[(guild, user)] = self.bal(guild, user) + refunded

    @precondition(lambda self: self.tables)
    @rule(data=st.data())
    def win(self, data: st.DataObject) -> None:
        game = data.draw(st.sampled_from(sorted(self.tables)))
        guild, _, held = self.tables.pop(game)
        players = sorted(held) or [1]
        winners = data.draw(st.lists(st.sampled_from(players), min_size=1, unique=True))
        seats = [S(u, 1 if u in winners else 2) for u in players]

        async def go() -> w.Payout:
            async with self.db.transaction() as conn:
                await write_results(conn, game, seats, now=self.tick())
                payout = await w.settle_pot(conn, game, winners, now=self.now)
                await stats.record_finished_game(conn, game)
                return payout

        payout = self.run(go())
        pot = sum(held.values())
        assert payout.pot == pot
        if pot:
            assert payout.shares == w.split_pot(pot, winners)
            for user, share in payout.shares.items():
                self.balances[(guild, user)] = self.bal(guild, user) + share
        self.settled.append(game)

    @precondition(lambda self: self.tables)
    @rule(data=st.data())
    def cancel(self, data: st.DataObject) -> None:
        game = data.draw(st.sampled_from(sorted(self.tables)))
        guild, _, held = self.tables.pop(game)

        async def go() -> dict[int, int]:
            async with self.db.transaction() as conn:
                return await w.refund_all(conn, game, now=self.tick())

        assert self.run(go()) == held
        for user, amount in held.items():
            self.balances[(guild, user)] += amount
        self.settled.append(game)

    @precondition(lambda self: self.settled)
    @rule(data=st.data())
    def retry_settled(self, data: st.DataObject) -> None:
        game = data.draw(st.sampled_from(self.settled))

        async def go() -> tuple[w.Payout, dict[int, int]]:
            async with self.db.transaction() as conn:
                return await w.settle_pot(conn, game, [1], now=self.now), await w.refund_all(
                    conn, game, now=self.now
                )

        assert self.run(go()) == (w.Payout(0, {}), {})

    @rule(guild=GUILDS, a=USERS, b=USERS, amount=AMOUNTS)
    def pay(self, guild: int, a: int, b: int, amount: int) -> None:
        ok = a != b and 0 < amount <= self.bal(guild, a)
        try:
            self.run(w.pay(self.db, guild, a, b, amount, now=self.tick()))
        except w.WalletError:
            assert not ok
            return
        assert ok
        self.balances[(guild, a)] = self.bal(guild, a) - amount
        self.balances[(guild, b)] = self.bal(guild, b) + amount

    @rule(guild=GUILDS, user=USERS, amount=AMOUNTS, give=st.booleans())
    def admin(self, guild: int, user: int, amount: int, give: bool) -> None:
        op = w.grant if give else w.take
        ok = amount > 0 and (give or amount <= self.bal(guild, user))
        try:
            self.run(op(self.db, guild, user, amount, actor_id=9, reason="x", now=self.tick()))
        except w.WalletError:
            assert not ok
            return
        assert ok
        self.balances[(guild, user)] = self.bal(guild, user) + (amount if give else -amount)

    @rule(guild=GUILDS, user=USERS, hours=st.sampled_from([1, 12, 24, 30]))
    def daily(self, guild: int, user: int, hours: int) -> None:
        self.now += hours * 3_600
        try:
            self.run(w.claim_daily(self.db, guild, user, now=self.now))
        except w.DailyAlreadyClaimed:
            return
        self.balances[(guild, user)] = self.bal(guild, user) + w.DAILY_CHIPS

    @rule()
    def restart(self) -> None:
        self.run(self.db.close())
        self.db = self.run(Database.open(self.path))

    @invariant()
    def chips_add_up(self) -> None:
        report = self.run(w.check_invariant(self.db))
        assert report.ok, report
        held = sum(sum(h.values()) for _, _, h in self.tables.values())
        assert report.held == held
        for (guild, user), expected in self.balances.items():
            assert self.run(w.balance(self.db, guild, user)) == expected


WalletMachine.TestCase.settings = settings(
    max_examples=75,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestWalletMachine = WalletMachine.TestCase


class PostgresWalletMachine(WalletMachine):
    """The same machine on a PostgreSQL database of its own per example."""

    databases: ClassVar[Databases]

    def new_database(self) -> str:
        self.dbname = self.databases.create()
        return database_url(self.databases.server_url, self.dbname)

    def drop_database(self) -> None:
        self.databases.drop(self.dbname)


def test_wallet_machine_on_postgresql(postgres_databases: Databases) -> None:
    PostgresWalletMachine.databases = postgres_databases
    run_state_machine_as_test(
        PostgresWalletMachine,
        settings=settings(
            max_examples=40,
            stateful_step_count=30,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
        ),
    )
