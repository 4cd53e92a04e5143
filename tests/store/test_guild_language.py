"""``/settings language`` is stored per server on both engines (migration 008): a chosen
language, then back to none (the server's Discord locale), and a refused odd value."""

from __future__ import annotations

import pytest

from bot.errors import DatabaseUnavailable
from bot.store import games
from bot.store.db import Database
from bot.tables.guild_settings import GuildSettings
from tests.backends import DbTarget


async def test_a_servers_language_is_kept_and_cleared(db_target: DbTarget) -> None:
    async with await Database.open(db_target("bot")) as db:
        settings = GuildSettings(db, lambda: 1000.0)
        assert await settings.language(7) is None
        await settings.set_max_stake(7, 50, actor_id=1)
        await settings.set_language(7, "pt-BR", actor_id=1)
        assert await settings.language(7) == "pt-BR"
        assert await settings.language(8) is None
        await settings.set_language(7, None, actor_id=2)
        assert await settings.language(7) is None
        # The other settings of the row are left as they were.
        row = await db.fetchone("SELECT max_stake FROM guild_settings WHERE guild_id = 7")
        assert row is not None and row[0] == 50
        with pytest.raises(Exception) as refused:
            await games.set_guild_language(db, 7, "x", 1, 1000.0)
        assert not isinstance(refused.value, DatabaseUnavailable)
