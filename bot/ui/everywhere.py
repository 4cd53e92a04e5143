"""A cross-server table (issue 36, quick play ``where: everywhere``), shown in each place.

The table belongs to no server (its row's guild is EVERYWHERE); it has one place per server
its players come from (``bot.store.places``): that server's quick-play channel, a thread of
its own there and one live table message in it. Each place is drawn as a table of that
server (``at``: the table with the place's server, channel, thread and message), so every
message of it is in that server's language and its links point there. At every change each
place's message is redrawn (the clicked one through the click); the member to move is
mentioned only in their own place, where they can see it; results are said in each place.
Nothing of one server's chat reaches the other: the bot posts only the table's own messages.
Private answers (a hand) are ephemeral, so they stay with the member who asked.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from typing import Any

import discord

from bot.games.words import last_line
from bot.i18n.speaking import _
from bot.render.common import NO_PINGS
from bot.tables.model import Change, Table, TablePlace
from bot.tables.service import TableService
from bot.ui.compose import closed_message, thread_name, to_move, turn_edit, turn_message
from bot.ui.delivery import Delivery
from bot.ui.endings import Endings
from bot.ui.i18n import ServerLanguages
from bot.ui.pings import Pings

log = logging.getLogger(__name__)


def at(table: Table, place: TablePlace) -> Table:
    """The table as one place shows it: a table of that server, in that channel and thread,
    on that message (never saved: the row stays EVERYWHERE's)."""
    row = dataclasses.replace(
        table.row,
        guild_id=place.guild_id,
        channel_id=place.channel_id,
        thread_id=place.thread_id,
        message_id=place.message_id,
    )
    return dataclasses.replace(table, row=row)


def place_of(table: Table, user_id: int | None) -> TablePlace | None:
    """The place a member plays from (None: not a member of the table's places)."""
    return next((p for p in table.places if user_id in p.user_ids), None)


class Everywhere:
    """Draws cross-server tables (``Publisher`` hands them here, under its redraw lock)."""

    def __init__(
        self,
        tables: TableService,
        delivery: Delivery,
        pings: Pings,
        endings: Endings,
        languages: ServerLanguages,
    ) -> None:
        self.tables = tables
        self.delivery = delivery
        self.pings = pings
        self.endings = endings
        self.languages = languages

    async def places(self, table: Table) -> list[TablePlace]:
        """Where the table is now (read again: a place's message may have moved)."""
        table.places = tuple(await self.tables.places(table.id))
        return list(table.places)

    # --- opening -----------------------------------------------------------------------

    async def open(self, table: Table, notice: Callable[[TablePlace], str]) -> dict[int, str]:
        """Post the started table in each place: ``notice(place)`` in the channel, a thread
        on it, the table message there (in the channel if the thread is refused); then the
        first member to move is called in their place. Returns each server's link to its
        place (a place Discord refused has none)."""
        links: dict[int, str] = {}
        for place in await self.places(table):
            async with self.languages.in_guild(place.guild_id):
                shown = await self._open_place(table, place, notice(place))
            if shown is not None:
                links[place.guild_id] = shown
        await self.places(table)
        await self._ping(table)
        return links

    async def _open_place(self, table: Table, place: TablePlace, notice: str) -> str | None:
        client = self.delivery.client
        view = at(table, place)
        try:
            channel: Any = client.get_channel(place.channel_id) or await client.fetch_channel(
                place.channel_id
            )
        except discord.HTTPException as exc:
            log.warning("game %s: place %s not found (%s)", table.id, place.guild_id, exc.status)
            return None
        thread = None
        try:
            pace = self.delivery.pace
            async with pace.sending(channel.id, "send"):
                head = await channel.send(notice, allowed_mentions=NO_PINGS)
            async with pace.sending(channel.id, "thread"):
                thread = await head.create_thread(
                    name=thread_name(view), auto_archive_duration=1440
                )
        except discord.HTTPException as exc:
            log.info("game %s: no thread in place %s (%s)", table.id, place.guild_id, exc.status)
        for target in [t for t in (thread, channel) if t is not None]:
            view.row.thread_id = thread.id if thread is not None and target is thread else None
            try:
                async with self.delivery.pace.sending(target.id, "send"):
                    posted = await target.send(**turn_message(view))
            except discord.HTTPException as exc:
                log.warning("game %s: not posted in %s (%s)", table.id, target.id, exc.status)
                continue
            await self.tables.set_place_message(
                table.id, place, thread_id=view.row.thread_id, message_id=posted.id
            )
            return f"https://discord.com/channels/{place.guild_id}/{target.id}"
        return None

    # --- every change ------------------------------------------------------------------

    async def publish(self, change: Change, interaction: discord.Interaction[Any] | None) -> None:
        """Redraw each place's table message (the clicked one through the click), call the
        member to move in their place, and say the result in each place."""
        table = change.table
        clicked = interaction.message.id if interaction and interaction.message else None
        answered = False
        for place in await self.places(table):
            view = at(table, place)
            async with self.languages.in_guild(place.guild_id):
                if change.closed:
                    await self._closed(view)
                    continue
                payload = turn_edit(view)
                via = interaction if clicked is not None and clicked == place.message_id else None
                if await self.delivery.answer(via, payload, view):
                    answered = True
                elif place.message_id is not None:
                    await self.delivery.edit_game_message(view, payload, repost=False)
                if change.finished:
                    await self.endings.finished(view)
        if interaction is not None and not answered and not interaction.response.is_done():
            await self.delivery.acknowledge(interaction, table)  # a click seen, shown above
        self.delivery.shown.mark(table)
        if change.closed:
            await self.pings.clear(table)
        elif change.turn_changed:
            await self._ping(table)

    async def _ping(self, table: Table) -> None:
        """The last ping goes; the member to move now is mentioned in their own place."""
        mover = to_move(table)
        place = place_of(table, mover) or (table.places[0] if table.places else None)
        if place is None:
            return
        async with self.languages.in_guild(place.guild_id):
            await self.pings.turn_passed(at(table, place))

    async def _closed(self, view: Table) -> None:
        if view.row.message_id is None:
            return
        line = last_line(view) or _("Game over.")
        await self.delivery.edit_game_message(view, closed_message(view, line), repost=False)

    async def closed(self, table: Table) -> None:
        await self.publish(Change(table, closed=True), None)

    # --- after a restart, a deleted message ----------------------------------------------

    async def redraw(self, table: Table) -> None:
        """Each place's message as the table is now (after a restart)."""
        for place in await self.places(table):
            view = at(table, place)
            async with self.languages.in_guild(place.guild_id):
                if place.message_id is not None:
                    await self.delivery.edit_game_message(view, turn_edit(view), repost=False)
        self.delivery.shown.mark(table)

    async def message_deleted(self, table: Table, message_id: int) -> None:
        """A place's live message was deleted (a moderator): post the game there again."""
        for place in await self.places(table):
            if place.message_id != message_id:
                continue
            view = at(table, place)
            async with self.languages.in_guild(place.guild_id):
                try:
                    channel = await self.delivery.game_channel(view)
                    if channel is None:
                        return
                    async with self.delivery.pace.sending(channel.id, "send"):
                        posted = await channel.send(**turn_message(view))
                except discord.HTTPException as exc:
                    log.warning("game %s: not posted again (%s)", table.id, exc.status)
                    return
            await self.tables.set_place_message(
                table.id, place, thread_id=None, message_id=posted.id
            )
