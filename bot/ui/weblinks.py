"""The "View on the web" link button of /leaderboard, /stats, /history, /replay and the
tournament posts: shown when the operator set PUBLIC_URL and the server's admins made its
pages public (/settings web on); the address holds opaque ids only (bot.tables.web)."""

from __future__ import annotations

import contextlib
from typing import overload

import discord

from bot.i18n.speaking import _
from bot.ui.shell import Shell


async def web_address(shell: Shell, guild_id: int | None, path: str = "") -> str | None:
    """The page's public address, or None when there is none to show."""
    if not shell.public_url or shell.web is None or guild_id is None:
        return None
    web_id = await shell.web.web_id(guild_id)
    if web_id is None:
        return None
    return f"{shell.public_url}/s/{web_id}{path}"


async def player_path(shell: Shell, guild_id: int, user_id: int) -> str:
    assert shell.web is not None
    ids = await shell.web.player_ids(guild_id, [user_id])
    return f"/p/{ids[user_id]}" if user_id in ids else ""


@overload
def add_link(view: discord.ui.View, url: str | None) -> discord.ui.View: ...
@overload
def add_link(view: None, url: str | None) -> discord.ui.View | None: ...
def add_link(view: discord.ui.View | None, url: str | None) -> discord.ui.View | None:
    """``view`` with the link button (a new view when there was none); unchanged when
    there is no address or no room left."""
    if url is None:
        return view
    view = view if view is not None else discord.ui.View(timeout=None)
    # 25 components already: the buttons that step come first.
    with contextlib.suppress(ValueError):
        view.add_item(discord.ui.Button(label=_("View on the web"), url=url))
    return view
