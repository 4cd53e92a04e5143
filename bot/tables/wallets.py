"""The wallet service the shell calls: chips, daily grants, payments and admin adjustments.
The SQL is in ``bot.store.wallets``; this only binds it to the database and the clock."""

from __future__ import annotations

from bot.records import DAY, WalletView, utc_day
from bot.store import games, wallets
from bot.store.db import Database
from bot.tables.service import Clock

DAILY_CHIPS = wallets.DAILY_CHIPS
MAX_AMOUNT = wallets.MAX_AMOUNT
MAX_REASON = wallets.MAX_REASON


class Wallets:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def remember(self, guild_id: int, members: list[tuple[int, str]]) -> None:
        """Keep members' names (id, clean display name), so wallets and leaderboards can name
        them after they leave."""
        now = self.clock()
        async with self.db.transaction() as conn:
            for user_id, name in members:
                await games.upsert_member(conn, guild_id, user_id, name, now)

    async def view(self, guild_id: int, user_id: int) -> WalletView:
        return await wallets.get_wallet(self.db, guild_id, user_id, now=self.clock())

    async def claim_daily(self, guild_id: int, user_id: int) -> tuple[int, int]:
        """The new balance, and when the next daily chips are due (unix time)."""
        now = self.clock()
        balance = await wallets.claim_daily(self.db, guild_id, user_id, now=now)
        return balance, (utc_day(now) + 1) * DAY

    async def pay(self, guild_id: int, payer_id: int, payee_id: int, amount: int) -> int:
        return await wallets.pay(self.db, guild_id, payer_id, payee_id, amount, now=self.clock())

    async def grant(
        self, guild_id: int, user_id: int, amount: int, *, actor_id: int, reason: str
    ) -> int:
        return await wallets.grant(
            self.db, guild_id, user_id, amount, actor_id=actor_id, reason=reason, now=self.clock()
        )

    async def take(
        self, guild_id: int, user_id: int, amount: int, *, actor_id: int, reason: str
    ) -> int:
        return await wallets.take(
            self.db, guild_id, user_id, amount, actor_id=actor_id, reason=reason, now=self.clock()
        )

    async def game_chips(self, game_id: int) -> dict[int, int]:
        """Each member's net chips from one game (positive: won)."""
        return await wallets.game_chips(self.db, game_id)
