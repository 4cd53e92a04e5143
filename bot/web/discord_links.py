"""Links from the pages into Discord. A page never holds a Discord id: it links to the web
app's own redirect (``/s/{server}/live/{table}``), which answers with the Discord address of
the table's message, and only for a table in a channel every member of the server may read
(a table in a private channel or a private thread is not listed at all)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.tables.web import LiveTable

# (guild id, channel or thread id) -> whether @everyone may read it, as Discord's cache says
# (asked of the bot by the pages' own process, ``bot.web_process``).
ChannelPublic = Callable[[int, int], Awaitable[bool]]


async def never_public(guild_id: int, channel_id: int) -> bool:
    """Without Discord's cache (tests of the pages alone): no channel is known public."""
    return False


def public_channel(client: discord.Client) -> Callable[[int, int], bool]:
    """Whether a channel or thread of a server is readable by every member (``@everyone``
    may view it; a thread: public, in such a channel)."""

    def public(guild_id: int, channel_id: int) -> bool:
        guild = client.get_guild(guild_id)
        if guild is None:
            return False
        channel: Any = guild.get_channel_or_thread(channel_id)
        if isinstance(channel, discord.Thread):
            if channel.is_private():
                return False
            channel = channel.parent
        if not isinstance(channel, discord.abc.GuildChannel):
            return False
        return bool(channel.permissions_for(guild.default_role).view_channel)

    return public


def where(table: LiveTable) -> int:
    """The channel or thread the table is played in."""
    return table.thread_id if table.thread_id is not None else table.channel_id


def jump_url(guild_id: int, table: LiveTable) -> str:
    """The table's message in Discord (its channel while the message is not posted yet)."""
    url = f"https://discord.com/channels/{guild_id}/{where(table)}"
    return url if table.message_id is None else f"{url}/{table.message_id}"
