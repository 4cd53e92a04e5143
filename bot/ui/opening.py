"""A table's opening: the lobby message (posted as the start command's answer, redrawn on
each lobby click), and the start, which opens the game's thread and posts the first turn
there, or in the channel when the thread is refused."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.games.base import answer_update
from bot.games.words import THEN, refusal_line
from bot.render.common import NO_PINGS
from bot.tables import events as ev
from bot.tables.model import Table
from bot.tables.service import TableService
from bot.ui.compose import lobby_message, refusal, thread_name, turn_message
from bot.ui.delivery import Delivery
from bot.ui.errors import reply_private
from bot.ui.i18n import privately

log = logging.getLogger(__name__)


class Opening:
    def __init__(self, tables: TableService, delivery: Delivery) -> None:
        self.tables = tables
        self.delivery = delivery
        self.shown = delivery.shown

    async def post_lobby(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        content: str | None = None,
        mentions: discord.AllowedMentions = NO_PINGS,
    ) -> bool:
        """Answer the start command with the lobby message (False: it could not be posted
        and the lobby is closed); ``content``: whom it calls (invited members, the server's
        lobby role), pinged as ``mentions`` allows."""
        try:
            callback = await interaction.response.send_message(
                content=content, **lobby_message(table), allowed_mentions=mentions
            )
            message_id = getattr(callback, "message_id", None)
            if message_id is None:
                message_id = (await interaction.original_response()).id
        except discord.HTTPException as exc:
            # Nobody can see or join a lobby without its message: close it at once (refunding
            # the host's stake) rather than leave it counting against the channel's limit.
            log.warning("game %s: lobby message not posted (%s); closing it", table.id, exc.status)
            await self.tables.close_unseen(table.id, ev.Closed(ev.LOBBY_UNPOSTED))
            return False  # the interaction is dead: there is nobody to answer
        # The message shows the lobby as saved with its id (the id changes nothing it shows).
        self.shown.set(table.id, await self.tables.set_lobby_message(table.id, message_id))
        return True

    async def show_lobby(
        self, table: Table, interaction: discord.Interaction[Any], call_over: bool = False
    ) -> None:
        payload = lobby_message(table)
        if call_over:
            payload["content"] = None
        try:
            await answer_update(interaction, **payload, allowed_mentions=NO_PINGS)
        except discord.HTTPException as exc:
            # The change is committed; a dead token (slow answer, 10062) only loses the
            # in-place update, so make it by REST instead.
            log.info("game %s: lobby click not answered (%s); editing by REST", table.id, exc.code)
            if not await self.delivery.edit_lobby(table, call_over):
                return
        if table.status == "lobby":
            self.shown.mark(table)

    async def started(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """The host pressed Start: open the game's thread, post its first turn there, then
        redraw the lobby. The click is acknowledged first and the lobby redrawn last: its
        "Follow it in" names where the game is, which is known only once the thread exists."""
        acknowledged = await self.delivery.acknowledge(interaction, table)
        channel: Any = interaction.channel
        message = interaction.message if isinstance(interaction.message, discord.Message) else None
        if await self.open_on(table, message, channel):
            await self._show_started_lobby(table, interaction, acknowledged)
            return
        refused = refusal(channel, None)
        with privately(interaction):
            line = refusal_line(refused, THEN["ended"])
        change = await self.tables.close_unseen(
            table.id, ev.Closed(ev.CANNOT_POST, refusal=refused)
        )
        await reply_private(interaction, line)
        if change is not None:
            await self.delivery.edit_lobby(change.table)

    async def open_on(self, table: Table, message: discord.Message | None, channel: Any) -> bool:
        """Open the game's thread on ``message`` (the lobby; a tournament's match notice) in
        ``channel`` and post the first turn there; if the thread is refused, in the channel.
        False if neither takes it (the caller ends the game: nobody can see it)."""
        thread = None
        notice = None
        if message is not None and isinstance(channel, discord.TextChannel):
            try:
                # After the click: paced (bot.ui.pacing).
                async with self.delivery.pace.sending(channel.id, "thread"):
                    thread = await message.create_thread(
                        name=thread_name(table),
                        auto_archive_duration=1440,
                    )
            except discord.Forbidden:
                notice = ev.Notice("no_thread_permission")
            except discord.HTTPException as exc:
                notice = ev.Notice("thread_failed", status=exc.status)
        # Post in the thread; if that is refused, in the channel; if that is refused too, the
        # game cannot be shown at all.
        targets = [t for t in (thread, channel) if t is not None]
        for target in targets:
            table.notice = notice
            table.row.thread_id = thread.id if thread is not None and target is thread else None
            try:
                async with self.delivery.pace.sending(target.id, "send"):
                    posted = await target.send(**turn_message(table))
            except discord.HTTPException as exc:
                log.warning("game %s: cannot post the game in %s (%s)", table.id, target.id, exc)
                notice = ev.Notice(
                    "cannot_post", refusal=refusal(target, exc), then="runs_in_channel"
                )
                continue
            await self.delivery.set_game_message(
                table, thread_id=table.row.thread_id, message_id=posted.id
            )
            self.shown.mark(table)
            return True
        return False

    async def _show_started_lobby(
        self, table: Table, interaction: discord.Interaction[Any], acknowledged: bool
    ) -> None:
        """The lobby of a game that has just started, through the acknowledged click (the
        lobby is the message it was pressed on), else by REST."""
        if acknowledged:
            try:
                await interaction.edit_original_response(
                    **lobby_message(table), allowed_mentions=NO_PINGS
                )
                return
            except discord.HTTPException as exc:
                log.info("game %s: lobby not redrawn by the click (%s)", table.id, exc.code)
        await self.delivery.edit_lobby(table)
