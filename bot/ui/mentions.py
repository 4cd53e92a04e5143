"""Clickable command mentions (``</sequences start:123>``) from the synced commands' ids, fetched
once and cached; before a sync, or without Discord, the plain ``/name``, asked for again later."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import aiohttp
import discord
from discord import app_commands

log = logging.getLogger(__name__)

FETCH_TIMEOUT = 2.0  # seconds: /help answers within Discord's 3 s even when Discord is slow
RETRY_AFTER = 600.0  # seconds before a scope with no ids (not synced yet) is asked again

Mention = Callable[[str], str]


def plain(name: str) -> str:
    """A command as text when its id is unknown: ``/sequences start`` in code style."""
    return f"`/{name}`"


class CommandMentions:
    """Top-level command name -> id, globally and per guild (a guild sync, ``--guild`` or
    DEV_GUILD_ID, gives the commands other ids there, which win in that guild)."""

    def __init__(self, tree: app_commands.CommandTree[Any], clock: Callable[[], float]) -> None:
        self.tree = tree
        self.clock = clock
        # scope (None: global) -> (ids, when fetched); an empty result is asked again later.
        self._ids: dict[int | None, tuple[dict[str, int], float]] = {}

    def remember(self, synced: list[app_commands.AppCommand], guild_id: int | None) -> None:
        """The ids ``CommandTree.sync`` returned (no need to ask for them again)."""
        self._ids[guild_id] = ({c.name: c.id for c in synced}, self.clock())

    async def _scope(self, guild_id: int | None) -> dict[str, int]:
        cached = self._ids.get(guild_id)
        if cached is not None and (cached[0] or self.clock() - cached[1] < RETRY_AFTER):
            return cached[0]
        guild = None if guild_id is None else discord.Object(guild_id)
        try:
            fetched = await asyncio.wait_for(
                self.tree.fetch_commands(guild=guild), timeout=FETCH_TIMEOUT
            )
            ids = {c.name: c.id for c in fetched}
        except (
            discord.HTTPException,
            app_commands.MissingApplicationID,
            aiohttp.ClientError,
            OSError,
            TimeoutError,
        ) as exc:
            log.info("command ids of %s not fetched (%s)", guild_id or "global", exc)
            ids = {}
        self._ids[guild_id] = (ids, self.clock())
        return ids

    async def for_guild(self, guild_id: int | None) -> Mention:
        """How to write a command (by its qualified name) for members of ``guild_id``."""
        scopes = [None] if guild_id is None else [None, guild_id]
        found = await asyncio.gather(*(self._scope(s) for s in scopes))
        ids: dict[str, int] = {}
        for scope_ids in found:  # the guild's own ids last: they win there
            ids.update(scope_ids)

        def mention(name: str) -> str:
            command_id = ids.get(name.split(" ", 1)[0])
            return plain(name) if command_id is None else f"</{name}:{command_id}>"

        return mention
