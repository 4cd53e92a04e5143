"""After a restart: the redraw of the messages that are behind the database, paced under
Discord's rate limits. A deleted game message is posted again here too."""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

import discord

from bot.tables.locks import KeyedLocks
from bot.tables.model import Table
from bot.tables.service import TableService
from bot.ui.compose import outside_servers, thread_name, turn_edit
from bot.ui.delivery import Delivery
from bot.ui.endings import Endings
from bot.ui.i18n import ServerLanguages, in_public_language
from bot.ui.pacing import Pacer

log = logging.getLogger(__name__)

# Redraws after a restart: a first burst, then a steady pace under Discord's global limit of
# 50 requests a second (a redraw is one request; clicks and timers need the rest).
RESTORE_BURST = 20
RESTORE_PER_SECOND = 25
RESTORE_CONCURRENCY = 8
RENAME_SECONDS = 600  # Discord's window for a thread's two renames


class _Redraws(Protocol):
    async def redraw(self, table: Table) -> None: ...


class Restorer:
    def __init__(
        self,
        tables: TableService,
        delivery: Delivery,
        endings: Endings,
        publishing: KeyedLocks,
        languages: ServerLanguages | None = None,
    ) -> None:
        self.tables = tables
        self.delivery = delivery
        self.endings = endings
        self.shown = delivery.shown
        self._publishing = publishing  # the publisher's redraw locks, one per table
        self.languages = languages or ServerLanguages()  # redraws are public messages
        self._renamed: dict[int, float] = {}  # thread id -> when this process renamed it
        # Cross-server tables (bot.ui.everywhere, set by the publisher): redrawn per place.
        self.everywhere: _Redraws | None = None

    async def restore(self) -> int:
        """After a start: redraw only the tables whose message may be behind the database
        (the process died between a commit and its Discord update, or before the versions
        shown were recorded), soonest deadline first, paced under Discord's rate limits.
        Every other message is right as it is; a click on it is answered from the database,
        and no board picture is drawn until a turn needs one. Returns how many it redrew."""
        behind = await self.tables.behind_on_discord()
        await self.redraw_paced(behind)
        await self.shown.flush()
        return len(behind)

    async def redraw_paced(self, table_ids: list[int], lobby_too: bool = False) -> None:
        """Redraw these tables, paced under Discord's rate limits, a few at a time."""
        pace = Pacer(RESTORE_BURST, RESTORE_PER_SECOND)
        running: set[asyncio.Task[None]] = set()
        for table_id in table_ids:
            await pace.wait(3 if lobby_too else 1)  # a running game's lobby and thread too
            while len(running) >= RESTORE_CONCURRENCY:
                _, running = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
            running.add(asyncio.create_task(self.restore_locked(table_id, lobby_too)))
        if running:
            await asyncio.wait(running)

    async def redraw_guild(self, guild_id: int) -> int:
        """Redraw every live table of a server as it is now (its public language changed:
        the stored state holds no words, so the recent events read in the new one too),
        paced as the restore is; returns how many."""
        live = await self.tables.live_in_guild(guild_id)
        await self.redraw_paced(live, lobby_too=True)
        return len(live)

    async def message_deleted(self, message_id: int) -> None:
        """A running game's message was deleted (a moderator): post the game again, so its
        players are not left without buttons."""
        table = await self.tables.running_with_message(message_id)
        if table is None:
            return
        async with self._publishing.hold(table.id):
            fresh = await self.tables.get(table.id)
            if fresh.status != "running" or fresh.row.message_id != message_id:
                return  # already moved on
            await self._repost(fresh)

    @in_public_language
    async def _repost(self, table: Table) -> None:
        try:
            await self.delivery.repost(table)
            self.shown.mark(table)
        except discord.HTTPException as exc:
            log.warning("game %s: could not repost a deleted message (%s)", table.id, exc.status)

    async def _rename_thread(self, table: Table) -> None:
        """The game's thread in the new language. Discord allows two renames of a thread
        per ten minutes and would hold the rename (and this table's redraws) until then:
        a thread renamed in the last ten minutes keeps its name."""
        channel = await self.delivery.game_channel(table)
        name = thread_name(table)
        if not isinstance(channel, discord.Thread) or channel.name == name:
            return
        now = asyncio.get_running_loop().time()
        self._renamed = {t: at for t, at in self._renamed.items() if now - at < RENAME_SECONDS}
        if channel.id in self._renamed:
            return
        self._renamed[channel.id] = now
        await channel.edit(name=name)

    async def restore_locked(self, table_id: int, lobby_too: bool = False) -> None:
        # Clicks are answered while this runs: redraw each table as it is now, under its
        # redraw lock, or a slow start could put an older version back on screen.
        async with self._publishing.hold(table_id):
            try:
                await self._restore_one(table_id, lobby_too)
            except Exception:
                log.exception("game %s: redrawing after a restart failed", table_id)

    async def _restore_one(self, table_id: int, lobby_too: bool = False) -> None:
        table = await self.tables.get(table_id)
        if table.status not in ("lobby", "running") or outside_servers(table):
            return  # outside servers there is no token after a restart: the next click
        if table.crosses_servers and self.everywhere is not None:
            await self.everywhere.redraw(table)  # each place's message
            return
        await self.redraw(table, lobby_too)

    @in_public_language
    async def redraw(self, table: Table, lobby_too: bool = False) -> None:
        """Draw the table's lobby or game message again as it is (after a restart), and
        a running game's lobby too (``lobby_too``: the server's language changed)."""
        try:
            if lobby_too and table.status == "running":
                await self.delivery.edit_lobby(table)
                await self._rename_thread(table)
            if table.status == "lobby":
                if await self.delivery.edit_lobby(table):
                    self.shown.mark(table)
            elif table.row.message_id is None:
                await self.delivery.repost(table)
                self.shown.mark(table)
            elif await self.delivery.edit_game_message(table, turn_edit(table)):
                self.shown.mark(table)
            if table.status == "running" and table.end_request is not None:
                # The request's message may still show a request that ended meanwhile.
                await self.endings.show_request(table, table.end_request)
        except discord.HTTPException as exc:
            log.warning("game %s: could not redraw after a restart (%s)", table.id, exc.status)
