"""The web companion's service (``/settings web``, the pages of ``bot.web``): which servers
made their pages public, the opaque ids that stand for servers and players in the pages'
addresses, and the reads only the pages make. The SQL is in ``bot.store.web``."""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Iterable

from bot.records import LeaderboardRow
from bot.store import queue, web
from bot.store.db import Database
from bot.store.web import LiveTable, Rival
from bot.tables.clock import Clock

__all__ = ["OPAQUE_ID", "LiveTable", "Rival", "WebDirectory"]

# What an opaque id looks like (secrets.token_urlsafe(9): 12 characters); anything else in
# an address is not one, and is answered 404 without a database read.
OPAQUE_ID = re.compile(r"[A-Za-z0-9_-]{12}")


def new_id() -> str:
    return secrets.token_urlsafe(9)


# Seconds a server's "public or not" is remembered: another process may turn it off, and
# its pages stop within this long (this process's own /settings web at once).
GUILD_SECONDS = 5.0
PLAYERS_KEPT = 100_000


class WebDirectory:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock
        self._guilds: dict[str, tuple[int | None, float]] = {}
        # An opaque id never changes once given (forget moves it to the tombstone's id).
        self._players: dict[tuple[int, int], str] = {}

    async def set_public(self, guild_id: int, public: bool, actor_id: int) -> str:
        """Turn a server's pages on or off; returns its web id."""
        web_id = await web.set_public(self.db, guild_id, public, actor_id, self.clock(), new_id())
        self._guilds.pop(web_id, None)
        return web_id

    async def guild(self, web_id: str) -> int | None:
        """The server whose public pages these are (None: unknown or not public)."""
        if not OPAQUE_ID.fullmatch(web_id):
            return None
        now = time.monotonic()
        kept = self._guilds.get(web_id)
        if kept is not None and now - kept[1] < GUILD_SECONDS:
            return kept[0]
        found = await web.public_guild(self.db, web_id)
        if len(self._guilds) > 10_000:
            self._guilds.clear()
        self._guilds[web_id] = (found, now)
        return found

    async def web_id(self, guild_id: int) -> str | None:
        return await web.web_id_of(self.db, guild_id)

    async def public_guilds(self) -> list[tuple[str, int]]:
        return await web.public_guilds(self.db)

    async def player_ids(self, guild_id: int, user_ids: Iterable[int | None]) -> dict[int, str]:
        """Opaque ids of these members in the server's pages (bots have none)."""
        wanted = [u for u in user_ids if u is not None]
        found = {u: self._players[(guild_id, u)] for u in wanted if (guild_id, u) in self._players}
        missing = [u for u in wanted if u not in found]
        if missing:
            fresh = await web.player_ids(self.db, guild_id, missing, new_id)
            if len(self._players) > PLAYERS_KEPT:
                self._players.clear()
            for user_id, public_id in fresh.items():
                self._players[(guild_id, user_id)] = public_id
            found.update(fresh)
        return found

    async def player(self, guild_id: int, public_id: str) -> tuple[int, str] | None:
        if not OPAQUE_ID.fullmatch(public_id):
            return None
        return await web.player_of(self.db, guild_id, public_id)

    async def search(
        self, guild_id: int, game_key: str, query: str, *, season_id: int | None, page: int
    ) -> tuple[list[LeaderboardRow], int]:
        return await web.searched_leaderboard(
            self.db, guild_id, game_key, query, season_id=season_id, page=page
        )

    async def rivals(self, guild_id: int, user_id: int) -> list[Rival]:
        return await web.head_to_head(self.db, guild_id, user_id)

    async def live_tables(self, guild_id: int) -> list[LiveTable]:
        """The server's open lobbies and running games, newest first."""
        return await web.live_tables(self.db, guild_id)

    async def queue_sizes(self, guild_id: int) -> dict[str, int]:
        """Members in the server's quick-play queue, per game (issue 36.7)."""
        return await queue.sizes(self.db, guild_id)

    async def live_counts(self) -> dict[str, int]:
        return await web.live_counts(self.db)

    async def timers_behind(self, late_after: float) -> tuple[int, int]:
        """(due, late): timers past their deadline, and those ``late_after`` s past it."""
        return await web.timers_behind(self.db, self.clock(), late_after)

    async def ping(self) -> None:
        """A read of the database (``/readyz``); raises if it does not answer."""
        await web.ping(self.db)
