"""Per-server game settings (Manage Server): the turn timer, the stake cap, the role a
new lobby calls, the role that may run tournaments and the language of public messages."""

from __future__ import annotations

from bot.store import games
from bot.store.db import Database
from bot.tables.clock import Clock


class GuildSettings:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock
        # The language each server chose, read once: every public message asks for it, and
        # a server's interactions reach only the process that owns it (bot.tables.shards).
        self._languages: dict[int, str | None] = {}

    async def set_turn_timeout(self, guild_id: int, seconds: int, actor_id: int) -> None:
        await games.set_guild_turn_timeout(self.db, guild_id, seconds, actor_id, self.clock())

    async def set_max_stake(self, guild_id: int, amount: int, actor_id: int) -> None:
        await games.set_guild_max_stake(self.db, guild_id, amount, actor_id, self.clock())

    async def set_lobby_role(self, guild_id: int, role_id: int | None, actor_id: int) -> None:
        await games.set_guild_lobby_role(self.db, guild_id, role_id, actor_id, self.clock())

    async def lobby_role(self, guild_id: int) -> int | None:
        return await games.guild_lobby_role(self.db, guild_id)

    async def set_organiser_role(self, guild_id: int, role_id: int | None, actor_id: int) -> None:
        await games.set_guild_organiser_role(self.db, guild_id, role_id, actor_id, self.clock())

    async def organiser_role(self, guild_id: int) -> int | None:
        return await games.guild_organiser_role(self.db, guild_id)

    async def set_language(self, guild_id: int, language: str | None, actor_id: int) -> None:
        """``language``: a catalogue's tag, or None for the server's Discord locale."""
        await games.set_guild_language(self.db, guild_id, language, actor_id, self.clock())
        self._languages[guild_id] = language

    async def language(self, guild_id: int) -> str | None:
        if guild_id not in self._languages:
            self._languages[guild_id] = await games.guild_language(self.db, guild_id)
        return self._languages[guild_id]

    async def set_suggestions(self, guild_id: int, allowed: bool, actor_id: int) -> None:
        await games.set_guild_suggestions(self.db, guild_id, allowed, actor_id, self.clock())

    async def suggestions(self, guild_id: int) -> bool:
        return await games.guild_suggestions(self.db, guild_id)
