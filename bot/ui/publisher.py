"""The publisher owns every Discord message of a game: the lobby message, one message per
turn in the game's thread, results in the parent channel, and the redraw after a restart.
This module says what each change shows, one redraw at a time per table; its parts do the
rest: ``compose`` makes the messages, ``delivery`` sends them with every Discord error
handled, ``opening`` posts the lobby and starts the game's thread, ``endings`` tells how a
game ended, ``restore`` redraws after a restart and records which version each message shows.

The table message is one message per game, edited in place at every change, the turn's
passing included; the member to move is mentioned by a short message of its own, deleted
when the turn passes (``pings``: an edit cannot notify anyone, a new message does).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import discord

from bot.games.base import defer_update
from bot.games.words import last_line
from bot.i18n.speaking import _
from bot.render.common import NO_PINGS
from bot.tables import events as ev
from bot.tables.fair_play import FairPlay
from bot.tables.lobby_host import LobbyHost
from bot.tables.locks import KeyedLocks
from bot.tables.model import Change, Table, TablePlace
from bot.tables.service import TableService
from bot.ui.anywhere import Anywhere
from bot.ui.compose import (
    closed_message,
    outside_servers,
    refusal,
    turn_edit,
)
from bot.ui.delivery import Delivery, ShownVersions
from bot.ui.endings import Endings
from bot.ui.everywhere import Everywhere
from bot.ui.i18n import ServerLanguages, in_public_language
from bot.ui.opening import Opening
from bot.ui.pacing import RequestPace
from bot.ui.pings import Pings
from bot.ui.restore import Restorer

log = logging.getLogger(__name__)

# Every REST request the publisher sends, after a click or a timer, shares one pace: 40 in
# any second leaves 10 of Discord's global 50 for the rest (a tournament's notice, a fetch).
PACE_LIMIT = 40


class Publisher:
    def __init__(
        self,
        client: discord.Client,
        tables: TableService,
        languages: ServerLanguages | None = None,
        *,
        fair_play: FairPlay,
        lobby_host: LobbyHost,
    ) -> None:
        self.client = client
        self.lobby_host = lobby_host  # the host's panel and Watch (bot.ui.lobby_host)
        # Every public message is drawn in its server's language (``in_public_language``).
        self.languages = languages or ServerLanguages(client=client)
        self.tables = tables
        # Per table: its redraw lock while a redraw is under way (it does not grow with
        # every table played: another process may close a table this one showed).
        self._publishing = KeyedLocks()
        self.shown = ShownVersions(tables)
        self.pace = RequestPace(PACE_LIMIT)
        self.delivery = Delivery(client, tables, self.shown, self.pace)
        self.opening = Opening(tables, self.delivery)
        self.endings = Endings(client, tables, self.delivery, fair_play)
        self.restorer = Restorer(
            tables, self.delivery, self.endings, self._publishing, self.languages
        )
        self.anywhere = Anywhere(self.delivery, tables.clock)  # tables in DMs and group DMs
        self.pings = Pings(client, self.pace)  # the mention of the member to move (bot.ui.pings)
        # Cross-server tables, drawn in each of their places (bot.ui.everywhere).
        self.everywhere = Everywhere(
            tables, self.delivery, self.pings, self.endings, self.languages
        )
        self.restorer.everywhere = self.everywhere

    def live_locks(self) -> int:
        return len(self._publishing)

    def busy(self, table_id: int) -> bool:
        """Whether a redraw of this table is under way (a new one waits for it)."""
        return self._publishing.busy(table_id)

    async def flush_shown(self) -> int:
        return await self.shown.flush()

    async def restore(self) -> int:
        return await self.restorer.restore()

    async def redraw_guild(self, guild_id: int) -> int:
        """Redraw a server's live tables (its language changed), paced as ``restore``."""
        return await self.restorer.redraw_guild(guild_id)

    async def message_deleted(self, message_id: int) -> None:
        if self.pings.deleted_here(message_id):
            return  # a ping this process deleted as the turn passed: no game's message
        table = await self.tables.running_with_message(message_id)
        if table is not None and table.crosses_servers:
            async with self._publishing.hold(table.id):
                await self.everywhere.message_deleted(table, message_id)
            return
        await self.restorer.message_deleted(message_id)

    # --- lobby and start (bot/ui/opening.py) -------------------------------------------

    @in_public_language
    async def post_lobby(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        content: str | None = None,
        mentions: discord.AllowedMentions = NO_PINGS,
    ) -> None:
        posted = await self.opening.post_lobby(interaction, table, content, mentions)
        if posted and outside_servers(table):
            await self.anywhere.posted(table, interaction)

    @in_public_language
    async def show_lobby(
        self, table: Table, interaction: discord.Interaction[Any], call_over: bool = False
    ) -> None:
        """Redraw the lobby as the click's answer; ``call_over``: without its call to the
        invited members, who have all answered."""
        if outside_servers(table):
            await self.anywhere.show(table, interaction)
            return
        await self.opening.show_lobby(table, interaction, call_over)

    @in_public_language
    async def redraw_lobby(self, table: Table) -> None:
        """Redraw the lobby by REST (a change made from elsewhere: the host's panel)."""
        if await self.delivery.edit_lobby(table) and table.status == "lobby":
            self.shown.mark(table)

    @in_public_language
    async def started(self, interaction: discord.Interaction[Any], table: Table) -> None:
        if outside_servers(table):
            await self.anywhere.started(interaction, table)
            return
        # Under the redraw lock: the first turn's thread and message are recorded before
        # any redraw of the game (a bot's first move, a click) reads where the game is.
        async with self._publishing.hold(table.id):
            await self.opening.started(interaction, table)
            if table.row.message_id is not None:  # the game is shown: call its first player
                await self.pings.turn_passed(table, new=True)

    async def started_everywhere(
        self, table: Table, notice: Callable[[TablePlace], str]
    ) -> dict[int, str]:
        """A cross-server table started (quick play): posted in each of its places, its
        first player called in theirs; returns each server's link to its place."""
        async with self._publishing.hold(table.id):
            return await self.everywhere.open(table, notice)

    @in_public_language
    async def started_on(self, table: Table, message: discord.Message | None, channel: Any) -> bool:
        """A table started with no click (a tournament's match): opened as a started lobby
        is, its thread on ``message``, falling back to the channel, its first player
        called. False if nothing could be posted (the table is closed unseen: refunds)."""
        async with self._publishing.hold(table.id):
            if await self.opening.open_on(table, message, channel):
                await self.pings.turn_passed(table, new=True)
                return True
        refused = refusal(channel, None)
        await self.tables.close_unseen(table.id, ev.Closed(ev.CANNOT_POST, refusal=refused))
        return False

    # --- turns -----------------------------------------------------------------------

    @in_public_language
    async def publish(
        self, change: Change, interaction: discord.Interaction[Any] | None = None
    ) -> None:
        """Redraw what a change touched, via the interaction if there is one, else REST.

        Every Discord failure is handled here, because the change is already committed:
        a dead interaction token falls back to REST; a refused new message (403, 429 given
        up, 5xx) keeps the game on the message already there, saying why; a deleted thread
        or channel ends the game cleanly with refunds."""
        # One redraw at a time per table, in commit order: otherwise a timer's change shown
        # while a click's redraw still waits on Discord could post its new message first,
        # and the click's older one would land last and be recorded as the live message.
        table = change.table
        if outside_servers(table):
            async with self._publishing.hold(table.id):
                await self.anywhere.publish(change, interaction)
            return
        if table.crosses_servers:
            if interaction is not None and self._publishing.busy(table.id):
                await defer_update(interaction)
            async with self._publishing.hold(table.id):
                await self.everywhere.publish(change, interaction)
            return
        if interaction is not None and self._publishing.busy(table.id):
            # The redraw under way may wait on Discord (a rate limit): answer the click now,
            # within its 3 seconds, and show it when that redraw is done.
            await defer_update(interaction)
        async with self._publishing.hold(table.id):
            # Where the game is shown is found under this lock when a redraw needs it
            # (``Delivery.locate``): the change's copy may predate the previous redraw's move.
            # ``interaction``, if any, is a turn click on the live message.
            await self._publish(change, interaction)
            await self.endings.show_ended_request(table)

    async def _publish(self, change: Change, interaction: discord.Interaction[Any] | None) -> None:
        table = change.table
        delivery = self.delivery
        if change.closed:
            await self._closed(table, interaction)
            return
        # The table message is edited in place, through the click when there is one; when
        # the turn passed, the last ping goes and the member to move now is mentioned.
        await delivery.show(table, interaction, turn_edit(table))
        if not change.turn_changed:
            return
        refused = await self.pings.turn_passed(table)
        if refused is not None:  # nobody was mentioned: the table message says why
            channel, exc = refused
            notice = ev.Notice("cannot_post", refusal=refusal(channel, exc), then="goes_on_here")
            table.notice = notice
            await delivery.edit_game_message(table, turn_edit(table))
        if change.finished:
            await self.endings.finished(table)

    # --- closing ---------------------------------------------------------------------

    @in_public_language
    async def closed(
        self, table: Table, interaction: discord.Interaction[Any] | None = None
    ) -> None:
        """A table closed without a result: its lobby and game message say so."""
        if outside_servers(table):
            await self.anywhere.publish(Change(table, closed=True), interaction)
            return
        if table.crosses_servers:
            async with self._publishing.hold(table.id):
                await self.everywhere.closed(table)
            return
        await self._closed(table, interaction)
        await self.endings.show_ended_request(table)

    async def _closed(self, table: Table, interaction: discord.Interaction[Any] | None) -> None:
        if (
            interaction is not None
            and interaction.message is not None
            and interaction.message.id == table.row.lobby_message_id
        ):
            await self.show_lobby(table, interaction)
        else:
            await self.delivery.edit_lobby(table)
        if table.rules is not None:  # a game was shown: where it is now
            await self.delivery.locate(table)
        if table.row.message_id is not None:
            line = last_line(table) or _("Game over.")
            await self.delivery.edit_game_message(table, closed_message(table, line))
        await self.pings.clear(table)

    async def answer_ended(
        self, interaction: discord.Interaction[Any], table: Table, text: str
    ) -> None:
        """Answer an end command publicly, then show the game as closed."""
        try:
            await interaction.response.send_message(text, allowed_mentions=NO_PINGS)
        except discord.HTTPException as exc:  # the game is ended either way: show it ended
            log.info("game %s: /end not answered (%s)", table.id, exc.code)
        await self.closed(table, None)

    # --- leaving and ending early (bot/ui/endings.py) ------------------------------------

    async def ask_resign(self, interaction: discord.Interaction[Any], table: Table) -> None:
        await self.endings.ask_resign(interaction, table)

    @in_public_language
    async def post_end_request(self, interaction: discord.Interaction[Any], change: Change) -> None:
        change = await self.endings.post_end_request(interaction, change)
        # The request is a saved change: the turn's buttons are redrawn at its version.
        await self.publish(change)

    @in_public_language
    async def show_end_request(self, change: Change, interaction: discord.Interaction[Any]) -> None:
        """An agreement was given: redraw the request, and the game if it ended."""
        await self.endings.show_agreement(change, interaction)
        if change.closed:
            await self.closed(change.table)
        else:
            await self.publish(change)  # the turn's buttons, at the version the agreement made
