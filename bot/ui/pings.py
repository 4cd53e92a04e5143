"""The ping of the member to move: one short message per game, beside its table message.

Discord notifies a mention only in a new message, and the table message is edited in place,
so whose turn it is is said by a message of its own: "@Ana, your turn." It is deleted when
the turn passes (a deleted line leaves nothing behind in the thread, where a shrunk one would
leave one line per turn), and a turn reminder takes its place ("⏰ @Ana, your turn ends in
1 minute": posted, then the ping deleted), so a thread holds the table message, at most one
ping, and the few lines a game says once (a pot, a request to end early).

Which message is the live ping is kept in memory. After a restart the first ping of a game
in a thread is found by reading the thread's last messages (a thread holds one game, so
every ping there is its own); in a channel, or when another process passed the turn, a
ping already posted may stay (one short line)."""

from __future__ import annotations

import logging
import re
from collections import OrderedDict
from typing import Any

import discord

from bot.tables.locks import KeyedLocks
from bot.tables.model import Table
from bot.ui.compose import ping_message, ping_payload
from bot.ui.pacing import RequestPace

log = logging.getLogger(__name__)

# A ping or a reminder, as ``ping_message`` and the reminders word them, in any language:
# a mention and a comma first ("<@1>, your turn.", "⏰ <@1>, dein Zug endet in 1 Minute.").
PING = re.compile(r"^(⏰ )?<@\d+>,")
SWEPT = 20  # how many of a thread's last messages a restarted process reads for its pings
DELETED_KEPT = 10_000  # ids of pings this process deleted, until Discord's delete event comes


class Pings:
    def __init__(self, client: discord.Client, pace: RequestPace) -> None:
        self.client = client
        self.pace = pace  # the publisher's: each post and delete waits its turn
        self._live: dict[int, tuple[int, int]] = {}  # table id -> (channel id, message id)
        self._known: set[int] = set()  # tables whose pings this process knows (posted, swept)
        self._locks = KeyedLocks()
        # Pings this process deleted itself: their delete event is no news (no game's
        # message, nothing to repost), so it asks the database nothing (``deleted_here``).
        self._deleted: OrderedDict[int, None] = OrderedDict()

    def deleted_here(self, message_id: int) -> bool:
        """Whether this process deleted the message as a ping (once: the event is had)."""
        if message_id not in self._deleted:
            return False
        del self._deleted[message_id]
        return True

    def _deleting(self, message_id: int) -> None:
        self._deleted[message_id] = None
        while len(self._deleted) > DELETED_KEPT:
            self._deleted.popitem(last=False)

    def live(self, table_id: int) -> int | None:
        """The id of the table's ping message now, if this process posted one."""
        where = self._live.get(table_id)
        return where[1] if where is not None else None

    async def turn_passed(
        self, table: Table, *, new: bool = False
    ) -> tuple[Any, discord.HTTPException] | None:
        """The turn passed (or the game ended): the last ping goes, and the member to move
        now, if any, is mentioned. Returns where Discord refused the ping and its answer (the
        table message then says why nobody was mentioned). ``new``: the game has just started
        (no ping of it can be in its thread)."""
        async with self._locks.hold(table.id):
            if new:
                self._known.add(table.id)
            await self._drop(table)
            ping = ping_message(table)
            if ping is None:
                if table.status != "running":
                    self._known.discard(table.id)
                return None
            channel = None
            try:
                channel = await self._channel(table.game_channel_id)
                async with self.pace.sending(table.game_channel_id, "send"):
                    message = await channel.send(**ping[1])
            except discord.HTTPException as exc:
                log.info("game %s: turn ping not posted (%s)", table.id, exc.status)
                return (channel, exc) if channel is not None else None
            self._live[table.id] = (table.game_channel_id, message.id)
            return None

    async def remind(self, table: Table, user_id: int, text: str) -> None:
        """A reminder in the thread: it becomes the turn's ping (the earlier one is deleted
        once it is posted). Raises what Discord refuses."""
        async with self._locks.hold(table.id):
            channel = await self._channel(table.game_channel_id)
            async with self.pace.sending(table.game_channel_id, "send"):
                message = await channel.send(**ping_payload(user_id, text))
            await self._drop(table, keep=message.id)
            self._live[table.id] = (table.game_channel_id, message.id)

    async def clear(self, table: Table) -> None:
        """The game closed: its last ping goes."""
        async with self._locks.hold(table.id):
            await self._drop(table)
            self._known.discard(table.id)

    async def _drop(self, table: Table, keep: int | None = None) -> None:
        table_id = table.id
        if table_id not in self._known:
            self._known.add(table_id)
            await self._sweep(table, keep)
        where = self._live.pop(table_id, None)
        if where is None:
            return
        channel_id, message_id = where
        self._deleting(message_id)
        try:
            async with self.pace.sending(channel_id, "delete"):
                await (
                    self.client.get_partial_messageable(channel_id)
                    .get_partial_message(message_id)
                    .delete()
                )
        except discord.HTTPException as exc:  # already deleted (404), or not allowed
            log.info("game %s: last ping not deleted (%s)", table_id, exc.status)

    async def _sweep(self, table: Table, keep: int | None) -> None:
        """The pings a process before this one left in the game's thread (it knew them)."""
        if table.row.thread_id is None or self.client.user is None:
            return  # a channel may hold other games' pings
        try:
            channel = await self._channel(table.row.thread_id)
            async for message in channel.history(limit=SWEPT):
                mine = message.author.id == self.client.user.id
                # Only a line of text: the previous version's turn messages had the ping in
                # their content, beside the game's embed and buttons.
                bare = not message.components and not message.embeds
                if mine and bare and message.id != keep and PING.match(message.content):
                    self._deleting(message.id)
                    async with self.pace.sending(message.channel.id, "delete"):
                        await message.delete()
        except discord.HTTPException as exc:  # no Read Message History, or a hiccup
            log.info("game %s: earlier pings not read (%s)", table.id, exc.status)

    async def _channel(self, channel_id: int) -> Any:
        channel = self.client.get_channel(channel_id)
        if channel is None:
            await self.pace.wait()
            channel = await self.client.fetch_channel(channel_id)
        return channel
