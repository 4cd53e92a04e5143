"""Wallets, ledger, escrow, refunds and payouts on a real SQLite file."""

from __future__ import annotations

import pytest

from bot.store.db import Database
from bot.tables import wallets as w
from tests.store.helpers import GUILD, OTHER_GUILD, T0, create_game, new_game

DAY = 86_400


async def assert_invariant(db: Database) -> w.InvariantReport:
    report = await w.check_invariant(db)
    assert report.ok, report
    return report


async def test_new_member_starts_with_1000_from_a_ledger_entry(db: Database) -> None:
    view = await w.get_wallet(db, GUILD, 1, now=T0)
    assert view.balance == 1_000
    assert [(e.kind, e.delta) for e in view.entries] == [("start", 1_000)]
    # Lazily created once: a second look adds nothing.
    view = await w.get_wallet(db, GUILD, 1, now=T0 + 5)
    assert len(view.entries) == 1
    report = await assert_invariant(db)
    assert report.minted == 1_000


async def test_wallets_are_per_server(db: Database) -> None:
    await w.grant(db, GUILD, 1, 500, actor_id=9, reason="prize", now=T0)
    assert await w.balance(db, GUILD, 1) == 1_500
    assert (await w.get_wallet(db, OTHER_GUILD, 1, now=T0)).balance == 1_000


async def test_daily_once_per_utc_day(db: Database) -> None:
    day_start = (T0 // DAY) * DAY
    assert await w.claim_daily(db, GUILD, 1, now=day_start + 10) == 1_100
    with pytest.raises(w.DailyAlreadyClaimed) as refused:
        await w.claim_daily(db, GUILD, 1, now=day_start + DAY - 1)
    assert refused.value.next_due == day_start + DAY
    assert f"<t:{int(day_start + DAY)}:R>" in str(refused.value)
    # Just after midnight UTC it is due again, whatever time it was claimed the day before.
    assert await w.claim_daily(db, GUILD, 1, now=day_start + DAY) == 1_200
    view = await w.get_wallet(db, GUILD, 1, now=day_start + DAY + 1)
    assert view.next_daily(day_start + DAY + 1) == day_start + 2 * DAY
    assert view.next_daily(day_start + 2 * DAY) is None
    await assert_invariant(db)


async def test_pay_moves_chips(db: Database) -> None:
    assert await w.pay(db, GUILD, 1, 2, 250, now=T0) == 750
    assert await w.balance(db, GUILD, 2) == 1_250
    view = await w.get_wallet(db, GUILD, 2, now=T0)
    assert view.entries[0].kind == "pay_in" and view.entries[0].actor_id == 1
    report = await assert_invariant(db)
    assert report.minted == 2_000


@pytest.mark.parametrize(
    ("to", "amount", "message"),
    [
        (1, 10, "You cannot pay yourself."),
        (2, 0, "The amount must be at least 1 chip."),
        (2, -5, "The amount must be at least 1 chip."),
        (2, 1_001, "You have 1,000 chips; you cannot pay 1,001 chips."),
        (2, 10**12, "The amount can be at most 1,000,000,000 chips."),
    ],
)
async def test_pay_refusals(db: Database, to: int, amount: int, message: str) -> None:
    with pytest.raises(w.WalletError) as refused:
        await w.pay(db, GUILD, 1, to, amount, now=T0)
    assert str(refused.value) == message
    assert await w.balance(db, GUILD, 1) == 1_000
    await assert_invariant(db)


async def test_admin_grant_and_take_record_the_actor(db: Database) -> None:
    assert await w.grant(db, GUILD, 1, 2_000, actor_id=7, reason="tournament", now=T0) == 3_000
    assert await w.take(db, GUILD, 1, 500, actor_id=7, reason="oops", now=T0) == 2_500
    with pytest.raises(w.InsufficientChips, match="They have 2,500 chips"):
        await w.take(db, GUILD, 1, 2_501, actor_id=7, reason="too much", now=T0)
    view = await w.get_wallet(db, GUILD, 1, now=T0)
    assert [(e.kind, e.delta, e.actor_id, e.reason) for e in view.entries[:2]] == [
        ("take", -500, 7, "oops"),
        ("grant", 2_000, 7, "tournament"),
    ]
    report = await assert_invariant(db)
    assert report.minted == 2_500


async def test_escrow_refused_when_short(db: Database) -> None:
    await w.take(db, GUILD, 1, 960, actor_id=7, reason="", now=T0)
    game = await new_game(db, stake=100)
    with pytest.raises(w.InsufficientChips) as refused:
        async with db.transaction() as conn:
            await w.escrow(conn, game, GUILD, 1, 100, now=T0)
    assert str(refused.value) == "You have 40 chips; this table's stake is 100."
    assert await w.balance(db, GUILD, 1) == 40
    await assert_invariant(db)


async def test_escrow_twice_holds_once_and_refund_returns_it(db: Database) -> None:
    game = await new_game(db, stake=100)
    async with db.transaction() as conn:
        assert await w.escrow(conn, game, GUILD, 1, 100, now=T0)
        assert not await w.escrow(conn, game, GUILD, 1, 100, now=T0)
    assert await w.balance(db, GUILD, 1) == 900
    report = await assert_invariant(db)
    assert report.held == 100
    async with db.transaction() as conn:
        assert await w.refund_seat(conn, game, 1, now=T0) == 100
        assert await w.refund_seat(conn, game, 1, now=T0) == 0
    assert await w.balance(db, GUILD, 1) == 1_000
    # Rejoining after leaving holds a fresh stake.
    async with db.transaction() as conn:
        assert await w.escrow(conn, game, GUILD, 1, 100, now=T0)
    assert (await assert_invariant(db)).held == 100


async def test_zero_stake_holds_nothing(db: Database) -> None:
    game = await new_game(db)
    async with db.transaction() as conn:
        assert not await w.escrow(conn, game, GUILD, 1, 0, now=T0)
    assert (await assert_invariant(db)).held == 0


async def test_cancel_refunds_everyone_once(db: Database) -> None:
    game = await new_game(db, stake=300)
    async with db.transaction() as conn:
        for user in (1, 2, 3):
            await w.escrow(conn, game, GUILD, user, 300, now=T0)
    async with db.transaction() as conn:
        assert await w.refund_all(conn, game, now=T0) == {1: 300, 2: 300, 3: 300}
    async with db.transaction() as conn:
        assert await w.refund_all(conn, game, now=T0) == {}
        # A pot that was refunded cannot be paid out afterwards.
        assert await w.settle_pot(conn, game, [1], now=T0) == w.Payout(0, {})
    for user in (1, 2, 3):
        assert await w.balance(db, GUILD, user) == 1_000
    await assert_invariant(db)


async def test_winner_takes_the_pot_once(db: Database) -> None:
    game = await new_game(db, stake=100)
    async with db.transaction() as conn:
        for user in (1, 2, 3):
            await w.escrow(conn, game, GUILD, user, 100, now=T0)
    async with db.transaction() as conn:
        payout = await w.settle_pot(conn, game, [2], now=T0)
    assert payout == w.Payout(300, {2: 300})
    async with db.transaction() as conn:
        assert await w.settle_pot(conn, game, [2], now=T0) == w.Payout(0, {})
        assert await w.refund_all(conn, game, now=T0) == {}
    assert [await w.balance(db, GUILD, u) for u in (1, 2, 3)] == [900, 1_200, 900]
    async with db.transaction() as conn:
        assert await w.game_chips(conn, game) == {1: -100, 2: 200, 3: -100}
    await assert_invariant(db)


async def test_team_split_remainder_to_first_seat(db: Database) -> None:
    # Four seats at 25 = 100 split over a winning team of three -> 33 each, and the
    # remainder 1 to seat 3's member, who went first (first in the winners list).
    game = await new_game(db, stake=25)
    async with db.transaction() as conn:
        for user in (1, 2, 3, 4):
            await w.escrow(conn, game, GUILD, user, 25, now=T0)
        payout = await w.settle_pot(conn, game, [3, 1, 4], now=T0)
    assert payout.shares == {3: 34, 1: 33, 4: 33}
    assert [await w.balance(db, GUILD, u) for u in (1, 2, 3, 4)] == [1_008, 975, 1_009, 1_008]
    await assert_invariant(db)


def test_split_pot_examples() -> None:
    assert w.split_pot(100, [5, 6]) == {5: 50, 6: 50}
    assert w.split_pot(101, [5, 6]) == {5: 51, 6: 50}
    assert w.split_pot(101, [6, 5]) == {6: 51, 5: 50}
    assert w.split_pot(2, [1, 2, 3]) == {1: 2, 2: 0, 3: 0}


async def test_payout_needs_a_winner(db: Database) -> None:
    game = await new_game(db, stake=10)
    with pytest.raises(ValueError, match="at least one winner"):
        async with db.transaction() as conn:
            await w.settle_pot(conn, game, [], now=0.0)


async def test_ledger_and_escrows_cannot_be_rewritten(db: Database) -> None:
    game = await new_game(db, stake=10)
    async with db.transaction() as conn:
        await w.escrow(conn, game, GUILD, 1, 10, now=T0)
        await w.settle_pot(conn, game, [1], now=T0)
    for sql in (
        "UPDATE ledger SET delta = 5",
        "DELETE FROM ledger",
        "UPDATE escrows SET status = 'held'",
        "DELETE FROM escrows",
        "UPDATE wallets SET balance = -1",
    ):
        refused = r"append-only|settled|never deleted|CHECK|check constraint"
        with pytest.raises(Exception, match=refused):
            async with db.transaction() as conn:
                await conn.execute(sql)
    await assert_invariant(db)


async def test_escrow_rolls_back_with_the_callers_transaction(db: Database) -> None:
    async with db.transaction() as conn:
        game = await create_game(conn, stake=50)
    with pytest.raises(RuntimeError):
        async with db.transaction() as conn:
            await w.escrow(conn, game, GUILD, 1, 50, now=T0)
            raise RuntimeError("seat could not be added")
    report = await assert_invariant(db)
    assert report.held == 0
