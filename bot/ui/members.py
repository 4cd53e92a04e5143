"""Members as commands meet them."""

from __future__ import annotations

import discord

from bot.tables import wallets
from bot.tables.names import clean_name
from bot.ui.shell import Shell


async def remember(shell: Shell, guild_id: int, *members: discord.abc.User) -> None:
    """Keep members' names, so wallets and leaderboards can name them after they leave."""
    named = [(m.id, clean_name(m.display_name)) for m in members if not m.bot]
    await wallets.remember(shell.tables.db, guild_id, named, now=shell.clock())
