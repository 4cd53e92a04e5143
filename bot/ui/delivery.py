"""Delivering a table's messages to Discord: editing the game message through a click or by
REST, posting it again where a moderator deleted it, and ending the game cleanly when its
thread or channel is gone. Every Discord error of a game's messages is handled here,
because the change a message shows is already committed."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.games.base import answer_update
from bot.games.words import closed_line
from bot.i18n.speaking import _
from bot.render.common import NO_PINGS
from bot.tables import events as ev
from bot.tables.model import Table
from bot.tables.service import TableService
from bot.ui.compose import lobby_message, turn_message
from bot.ui.errors import reply_private
from bot.ui.i18n import privately
from bot.ui.pacing import RequestPace

log = logging.getLogger(__name__)


class ShownVersions:
    """The versions Discord now shows, not yet recorded in the database (``flush``): after
    a restart only the tables whose message is behind are redrawn."""

    def __init__(self, tables: TableService) -> None:
        self.tables = tables
        self._shown_versions: dict[int, int] = {}

    def mark(self, table: Table) -> None:
        self._shown_versions[table.id] = max(table.version, self._shown_versions.get(table.id, 0))

    def set(self, table_id: int, version: int) -> None:
        self._shown_versions[table_id] = version

    async def flush(self) -> int:
        """Record in the database which version each message shows (one transaction for
        every table redrawn since the last flush); returns how many."""
        shown, self._shown_versions = self._shown_versions, {}
        if shown:
            try:
                await self.tables.record_shown(sorted(shown.items()))
            except Exception:
                for table_id, version in shown.items():  # try again at the next flush
                    self._shown_versions.setdefault(table_id, version)
                raise
        return len(shown)


class Delivery:
    def __init__(
        self,
        client: discord.Client,
        tables: TableService,
        shown: ShownVersions,
        pace: RequestPace,
    ) -> None:
        self.client = client
        self.tables = tables
        self.shown = shown
        # Each REST request waits its turn here (bot.ui.pacing): interaction answers do not.
        self.pace = pace

    async def locate(self, table: Table, click: discord.Interaction[Any] | None = None) -> None:
        """Where the game is shown now, for a redraw by REST or a new message. ``click``: the
        turn click that made the change. Its message is the live one (only the live message
        carries the buttons of the version the service just checked), so its channel and
        id are the place. Without a click, the place is read from the database, under the
        publisher's redraw lock, which every move of the game message by this process holds
        until the move is written: so it is the last one, even when the redraw before this
        one moved the message after the change's copy was read (or another process did)."""
        message = click.message if click is not None else None
        if click is not None and message is not None and click.channel_id is not None:
            in_thread = click.channel_id != table.row.channel_id
            table.row.thread_id = click.channel_id if in_thread else None
            table.row.message_id = message.id
            return
        where = await self.tables.location(table.id)
        if where is not None:
            table.row.thread_id, table.row.message_id = where

    async def set_game_message(
        self, table: Table, *, thread_id: int | None, message_id: int
    ) -> None:
        await self.tables.set_game_message(table.id, thread_id=thread_id, message_id=message_id)
        if thread_id is not None:
            table.row.thread_id = thread_id
        table.row.message_id = message_id

    async def acknowledge(self, interaction: discord.Interaction[Any], table: Table) -> bool:
        """Answer a click now and show its change later (False: the token is gone). A click
        that waited for a busy table was answered already (Router._answer_if_waiting)."""
        if interaction.response.is_done():
            return True
        try:
            await interaction.response.defer()
        except discord.HTTPException as exc:
            log.info("game %s: click not acknowledged (%s)", table.id, exc.code)
            return False
        return True

    async def answer(
        self,
        interaction: discord.Interaction[Any] | None,
        payload: dict[str, Any],
        table: Table,
    ) -> bool:
        """Edit the clicked message through the click's response (or, if the click was
        deferred, its original response); False if there is no click to answer or its token
        is gone (the caller then edits by REST)."""
        deferred = discord.InteractionResponseType.deferred_message_update
        if interaction is None or interaction.response.type not in (None, deferred):
            return False
        try:
            await answer_update(interaction, **payload, allowed_mentions=NO_PINGS)
        except discord.HTTPException as exc:
            # Too slow (10062) or the token is gone: the change stands, edit by REST.
            log.info("game %s: click not answered (%s); editing by REST", table.id, exc.code)
            return False
        return True

    async def show(
        self,
        table: Table,
        interaction: discord.Interaction[Any] | None,
        payload: dict[str, Any],
        repost: bool = True,
    ) -> None:
        """Edit the table's game message: through the click's response when there is one
        (the clicked message is the one to edit: no need to read where it is), else by REST."""
        if not await self.answer(interaction, payload, table):
            await self.locate(table, interaction)
            if not await self.edit_game_message(table, payload, repost=repost):
                return
        self.shown.mark(table)

    async def channel_lost(
        self, table: Table, interaction: discord.Interaction[Any] | None
    ) -> None:
        """The game's thread (or channel) was deleted: end the game, refund, say so."""
        closed = ev.Closed(ev.THREAD_DELETED)
        line = closed_line(closed, table)
        change = await self.tables.close_unseen(table.id, closed)
        if change is None:
            return
        log.warning("game %s: channel %s is gone; game ended", table.id, table.game_channel_id)
        if interaction is not None:
            with privately(interaction):
                await reply_private(interaction, closed_line(closed, table))
        await self.edit_lobby(change.table)
        parent = self.client.get_channel(table.row.channel_id)
        if parent is not None and table.row.thread_id is not None:
            try:
                async with self.pace.sending(parent.id, "send"):
                    await parent.send(  # type: ignore[union-attr]
                        _("Game #%(id)s: %(line)s", id=table.id, line=line),
                        allowed_mentions=NO_PINGS,
                    )
            except discord.HTTPException as exc:
                log.info("game %s: end notice not posted (%s)", table.id, exc.status)

    async def game_channel(self, table: Table) -> Any:
        """The game's thread or channel; None only if Discord says it no longer exists
        (404), which ends the game. Any other failure (5xx, 429, 403) is raised: the game
        must not end over a hiccup."""
        channel = self.client.get_channel(table.game_channel_id)
        if channel is None:
            try:
                await self.pace.wait()
                channel = await self.client.fetch_channel(table.game_channel_id)
            except discord.NotFound:
                log.warning("game %s: channel %s is gone", table.id, table.game_channel_id)
                return None
        return channel

    async def edit_game_message(
        self, table: Table, payload: dict[str, Any], *, repost: bool = True
    ) -> bool:
        """Edit the game message by REST; if a moderator deleted it, post the current state
        again (``repost``); if the thread itself is gone, end the game. True when Discord
        now shows ``payload`` (or the reposted state)."""
        try:
            channel = await self.game_channel(table)
        except discord.HTTPException as exc:
            log.warning("game %s: game message not updated (%s)", table.id, exc.status)
            return False
        if channel is None:
            if table.status in ("lobby", "running"):
                await self.channel_lost(table, None)
            return False
        if table.row.message_id is None:
            return False
        try:
            async with self.pace.sending(channel.id, "edit"):
                await channel.get_partial_message(table.row.message_id).edit(
                    **payload, allowed_mentions=NO_PINGS
                )
            return True
        except discord.NotFound:
            if not repost or table.status != "running":
                return False
        except discord.HTTPException as exc:
            log.warning("game %s: game message not updated (%s)", table.id, exc.status)
            return False
        try:
            async with self.pace.sending(channel.id, "send"):
                message = await channel.send(**turn_message(table))
        except discord.NotFound:
            await self.channel_lost(table, None)
            return False
        except discord.HTTPException as exc:
            log.warning("game %s: could not repost the game (%s)", table.id, exc.status)
            return False
        await self.set_game_message(table, thread_id=None, message_id=message.id)
        return True

    async def edit_lobby(self, table: Table, call_over: bool = False) -> bool:
        """Redraw the lobby message by REST (``call_over``: without its call to the invited
        members); True when Discord took the edit."""
        if table.row.lobby_message_id is None:
            return False
        channel = self.client.get_channel(table.row.channel_id)
        if channel is None:
            return False
        payload = lobby_message(table)
        if call_over:
            payload["content"] = None
        me = getattr(getattr(channel, "guild", None), "me", None)
        if me is not None and not channel.permissions_for(me).embed_links:  # type: ignore[union-attr]
            # Discord drops a bot's embeds where it can't embed (nor send: the lobby was an
            # interaction's answer), and the lobby would go blank: say its news in text.
            embed = payload["embed"]
            payload["content"] = f"**{embed.title}**\n{embed.description or ''}"[:2000]
            payload["embed"] = None
        try:
            async with self.pace.sending(channel.id, "edit"):
                await channel.get_partial_message(table.row.lobby_message_id).edit(  # type: ignore[union-attr]
                    **payload, allowed_mentions=NO_PINGS
                )
        except discord.HTTPException as exc:
            log.info("game %s: lobby message not updated (%s)", table.id, exc.status)
            return False
        return True

    async def send_quietly(self, channel: Any, text: str, table: Table) -> None:
        try:
            async with self.pace.sending(channel.id, "send"):
                await channel.send(text, allowed_mentions=NO_PINGS)
        except discord.HTTPException as exc:
            log.info("game %s: message not posted (%s)", table.id, exc.status)

    async def repost(self, table: Table) -> None:
        channel = await self.game_channel(table)
        if channel is None:
            await self.channel_lost(table, None)
            return
        async with self.pace.sending(channel.id, "send"):
            message = await channel.send(**turn_message(table))
        await self.set_game_message(table, thread_id=None, message_id=message.id)
