"""The statistics service the shell calls: leaderboards, a member's statistics and rating
history. The SQL is in ``bot.store.stats``."""

from __future__ import annotations

from bot.ratings import GLOBAL_SCOPE, StatLine
from bot.records import LeaderboardPage
from bot.store import stats
from bot.store.db import Database
from bot.store.stats import SCOPES, SORTS, Scope, Sort

__all__ = ["GLOBAL_SCOPE", "SCOPES", "SORTS", "Scope", "Sort", "Stats"]


class Stats:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def leaderboard(
        self,
        game_key: str,
        scope: Scope,
        guild_id: int,
        sort: Sort,
        *,
        page: int = 1,
        viewer_id: int | None = None,
    ) -> LeaderboardPage:
        return await stats.leaderboard(
            self.db, game_key, scope, guild_id, sort, page=page, viewer_id=viewer_id
        )

    async def player_stats(
        self, scope_id: int, user_id: int, game_key: str | None = None
    ) -> list[StatLine]:
        return await stats.player_stats(self.db, scope_id, user_id, game_key)

    async def rating_points(
        self, scope_id: int, game_key: str, user_id: int, limit: int
    ) -> list[tuple[int, float]]:
        return await stats.rating_points(self.db, scope_id, game_key, user_id, limit)

    async def game_keys(self, scope_id: int) -> list[str]:
        """The leaderboards a server has games on."""
        return await stats.game_keys(self.db, scope_id)
