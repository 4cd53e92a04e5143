"""The statistics service the shell calls: leaderboards (all-time and per season), a
member's statistics and rating history, and the server's seasons. The SQL is in
``bot.store.stats`` and ``bot.store.seasons``."""

from __future__ import annotations

import time
from collections.abc import Callable

from bot.ratings import GLOBAL_SCOPE, StatLine
from bot.records import EVERYWHERE, LeaderboardPage, Season
from bot.store import seasons, stats
from bot.store.db import Database
from bot.store.seasons import SeasonNameTaken
from bot.store.stats import SCOPES, SORTS, Scope, Sort, scope_of

__all__ = [
    "EVERYWHERE", "GLOBAL_SCOPE", "SCOPES", "SORTS", "Scope", "Season", "SeasonNameTaken", "Sort",
    "Stats", "scope_of",
]  # fmt: skip


class Stats:
    def __init__(self, db: Database, clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.clock = clock

    async def leaderboard(
        self,
        game_key: str,
        scope: Scope,
        guild_id: int,
        sort: Sort,
        *,
        page: int = 1,
        viewer_id: int | None = None,
        season_id: int | None = None,
    ) -> LeaderboardPage:
        return await stats.leaderboard(
            self.db, game_key, scope, guild_id, sort, page=page, viewer_id=viewer_id,
            season_id=season_id,
        )  # fmt: skip

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

    async def season_game_keys(self, season_id: int) -> list[str]:
        return await stats.season_game_keys(self.db, season_id)

    # --- seasons ------------------------------------------------------------------------

    async def start_season(
        self, guild_id: int, name: str, *, ends_at: float | None, soft_reset: bool, actor_id: int
    ) -> tuple[Season, Season | None]:
        """Start a season now, ending the running one. Raises ``SeasonNameTaken``; the
        caller checks that ``ends_at`` lies ahead."""
        return await seasons.start_season(
            self.db, guild_id, name, ends_at=ends_at, soft_reset=soft_reset,
            actor_id=actor_id, now=self.clock(),
        )  # fmt: skip

    async def current_season(self, guild_id: int) -> Season | None:
        return await seasons.current(self.db, guild_id, self.clock())

    async def season(self, guild_id: int, season_id: int) -> Season | None:
        return await seasons.by_id(self.db, guild_id, season_id)

    async def season_named(self, guild_id: int, name: str) -> Season | None:
        return await seasons.by_name(self.db, guild_id, name)

    async def list_seasons(self, guild_id: int) -> list[Season]:
        """The server's latest seasons, newest first."""
        return await seasons.listed(self.db, guild_id)
