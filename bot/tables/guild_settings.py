"""Per-server game settings (Manage Server): the turn timer and the stake cap."""

from __future__ import annotations

from bot.store import games
from bot.store.db import Database
from bot.tables.service import Clock


class GuildSettings:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def set_turn_timeout(self, guild_id: int, seconds: int, actor_id: int) -> None:
        await games.set_guild_turn_timeout(self.db, guild_id, seconds, actor_id, self.clock())

    async def set_max_stake(self, guild_id: int, amount: int, actor_id: int) -> None:
        await games.set_guild_max_stake(self.db, guild_id, amount, actor_id, self.clock())
