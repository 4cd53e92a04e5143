"""The publisher owns every Discord message of a game: the lobby message, one message per
turn in the game's thread, results in the parent channel, and the redraw after a restart.
Every Discord error of a game's messages is handled here, because the change it shows is
already committed.

The public turn message is edited in place while a turn lasts; when the turn passes, it is
turned into a one-line summary and a new message mentions the next player (an edit cannot
notify anyone, a new message does).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from typing import Any

import discord

from bot.games.base import Game, answer_update, defer_update
from bot.games.words import (
    THEN,
    closed_line,
    event_line,
    is_result,
    last_line,
    notice_line,
    refusal_line,
)
from bot.records import Button
from bot.render.common import COLOUR, COLOUR_DONE, NO_PINGS
from bot.render.view import LOBBY, build_view
from bot.tables import events as ev
from bot.tables.locks import KeyedLocks, Recent
from bot.tables.model import Change, Table, read_stamp
from bot.tables.names import md_name
from bot.tables.service import TableService
from bot.tables.wallets import Wallets
from bot.ui.anywhere import Anywhere, outside_servers
from bot.ui.checks import missing_permissions
from bot.ui.errors import reply_private
from bot.ui.lobby import WATCH_BUTTONS, lobby_buttons, lobby_embed, watching_text
from bot.ui.rematch_texts import rematch_view

log = logging.getLogger(__name__)

# Redraws after a restart: a first burst, then a steady pace under Discord's global limit of
# 50 requests a second (a redraw is one request; clicks and timers need the rest).
RESTORE_BURST = 20
RESTORE_PER_SECOND = 25
RESTORE_CONCURRENCY = 8

MOVES_REMEMBERED = 10_000  # tables whose message move is remembered (for changes read before)

RESIGN_BUTTON = Button("resign", "Resign", "secondary", row=4, emoji="🏳️")
# Anyone may press it (players and onlookers): the game's rules, privately.
RULES_BUTTON = Button("rules", "Rules", "secondary", row=4, emoji="📖")
# Spectators: the lobby's Watch buttons, on the table message's last row.
TABLE_WATCH_BUTTONS = [dataclasses.replace(b, row=4) for b in WATCH_BUTTONS]

# What a request to end early shows once it is over (``Table.end_request["over"]``).
REQUEST_OVER = {
    "expired": (
        "Request ran out",
        "{host} asked to end game #{id} early, but not everyone agreed within 2 minutes. "
        "The game goes on.",
    ),
    "left": (
        "Request void",
        "{host} left the game, so the request to end game #{id} early is void.",
    ),
    "finished": (
        "Request void",
        "Game #{id} finished before everyone agreed, so the request to end it early is void.",
    ),
    "closed": ("Request void", "Game #{id} was closed, so the request to end it early is void."),
    "agreed": ("Game ended early", "Ended early: {host} asked and everyone agreed."),
}


def refusal(target: Any, exc: discord.HTTPException | None) -> ev.Refusal:
    """What Discord refused in ``target``: the permissions the bot lacks, or its answer."""
    return ev.Refusal(target.id, tuple(missing_permissions(target)), getattr(exc, "status", None))


class Publisher:
    def __init__(
        self,
        client: discord.Client,
        tables: TableService,
        wallets: Wallets,
    ) -> None:
        self.client = client
        self.tables = tables
        self.wallets = wallets
        # Per table: its redraw lock while a redraw is under way, and where this process
        # last moved its game message (thread, message) and when (``read_stamp``): the
        # previous redraw may have moved it after the change being shown was read. Neither
        # grows with every table played (another process may close a table this one showed).
        self._publishing = KeyedLocks()
        self._where: Recent[tuple[int, int | None, int | None]] = Recent(MOVES_REMEMBERED)
        # The versions Discord now shows, not yet recorded in the database (``flush_shown``):
        # after a restart only the tables whose message is behind are redrawn.
        self._shown_versions: dict[int, int] = {}
        self.anywhere = Anywhere(self, tables.clock)  # tables in DMs and group DMs

    def game(self, table: Table) -> Game[Any]:
        game = table.game
        assert isinstance(game, Game), f"{table.kind} is a kind without presentation"
        return game

    def live_locks(self) -> int:
        return len(self._publishing)

    def busy(self, table_id: int) -> bool:
        """Whether a redraw of this table is under way (a new one waits for it)."""
        return self._publishing.busy(table_id)

    def _mark_shown(self, table: Table) -> None:
        self._shown_versions[table.id] = max(table.version, self._shown_versions.get(table.id, 0))

    async def flush_shown(self) -> int:
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

    def _forget(self, table: Table) -> None:
        if table.status not in ("lobby", "running"):
            self._where.pop(table.id)

    async def set_game_message(
        self, table: Table, *, thread_id: int | None, message_id: int
    ) -> None:
        await self.tables.set_game_message(table.id, thread_id=thread_id, message_id=message_id)
        if thread_id is not None:
            table.row.thread_id = thread_id
        table.row.message_id = message_id
        # Stamped after the write: a copy of the table read from now on has it already.
        self._where.set(table.id, (read_stamp(), table.row.thread_id, message_id))

    # --- rendering -------------------------------------------------------------------

    def lobby_message(self, table: Table) -> dict[str, Any]:
        view = (
            build_view(table.id, LOBBY, lobby_buttons(table)) if table.status == "lobby" else None
        )
        payload: dict[str, Any] = {"embed": lobby_embed(table), "view": view}
        if table.status != "lobby":
            payload["content"] = None  # whom the lobby called (with:, its role) is past
        return payload

    def turn_message(self, table: Table) -> dict[str, Any]:
        """The public message for the table's current turn (``file`` when it has a picture)."""
        game = self.game(table)
        shown = game.turn_view(table)
        embed, file = shown.embed, shown.file
        view = None
        content = None
        mentions = NO_PINGS
        if table.status == "running" and table.rules is not None:
            current = game.current_seat(table.rules)
            view = build_view(
                table.id,
                table.version,
                game.turn_buttons(table.rules),
                [RULES_BUTTON, RESIGN_BUTTON, *TABLE_WATCH_BUTTONS],
            )
            if current is not None and not table.seats[current].is_bot:
                user_id = table.seats[current].user_id
                content = f"<@{user_id}>, your turn."
                mentions = discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(user_id or 0)]
                )
        elif table.status == "finished" and not outside_servers(table):  # a rematch needs a channel
            view = rematch_view(table.id)  # the result message (bot.ui.rematch)
        watching = watching_text(table)
        if watching and embed is not None and table.status == "running":
            footer = embed.footer.text
            embed.set_footer(text=f"{footer} · {watching}" if footer else watching)
        if table.notice:
            content = f"{notice_line(table.notice)}\n{content or ''}".strip()
        payload: dict[str, Any] = {
            "content": content,
            "embed": embed,
            "view": view,
            "allowed_mentions": mentions,
        }
        if file is not None:
            payload["file"] = file
        return payload

    def turn_edit(self, table: Table) -> dict[str, Any]:
        """``turn_message`` as an edit of the message already showing this turn."""
        payload = self.turn_message(table)
        payload.pop("allowed_mentions")
        if "file" in payload:  # an edit replaces the attachments
            payload["attachments"] = [payload.pop("file")]
        return payload

    def turn_summary(self, table: Table, seat: int | None = None) -> dict[str, Any]:
        """What the message of a finished turn becomes: one line, no buttons, no picture.
        ``seat``: whose turn it showed, if not the last mover's (someone forfeited)."""
        # The move that ended the turn, not the result line that may follow it.
        moves = [e for e in table.events if not is_result(e)]
        line = event_line(moves[-1], table) if moves else "Turn over."
        if seat is None:
            seat = 0 if table.rules is None else table.game.last_seat(table.rules)
        name = md_name(table.seats[seat].name) if seat < len(table.seats) else "?"
        embed = discord.Embed(title=f"{name}'s turn", description=line, colour=COLOUR_DONE)
        return {
            "embed": embed,
            "view": None,
            "content": None,
            "attachments": [],
        }

    async def post_lobby(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        content: str | None = None,
        mentions: discord.AllowedMentions = NO_PINGS,
    ) -> None:
        """Answer the start command with the lobby message; ``content``: whom it calls
        (invited members, the server's lobby role), pinged as ``mentions`` allows."""
        try:
            callback = await interaction.response.send_message(
                content=content, **self.lobby_message(table), allowed_mentions=mentions
            )
            message_id = getattr(callback, "message_id", None)
            if message_id is None:
                message_id = (await interaction.original_response()).id
        except discord.HTTPException as exc:
            # Nobody can see or join a lobby without its message: close it at once (refunding
            # the host's stake) rather than leave it counting against the channel's limit.
            log.warning("game %s: lobby message not posted (%s); closing it", table.id, exc.status)
            change = await self.tables.close_unseen(table.id, ev.Closed(ev.LOBBY_UNPOSTED))
            if change is not None:
                self._forget(change.table)
            return  # the interaction is dead: there is nobody to answer
        # The message shows the lobby as saved with its id (the id changes nothing it shows).
        self._shown_versions[table.id] = await self.tables.set_lobby_message(table.id, message_id)
        if outside_servers(table):
            await self.anywhere.posted(table, interaction)

    async def show_lobby(self, table: Table, interaction: discord.Interaction[Any]) -> None:
        if outside_servers(table):
            await self.anywhere.show(table, interaction)
            return
        try:
            await answer_update(interaction, **self.lobby_message(table), allowed_mentions=NO_PINGS)
        except discord.HTTPException as exc:
            # The change is committed; a dead token (slow answer, 10062) only loses the
            # in-place update, so make it by REST instead.
            log.info("game %s: lobby click not answered (%s); editing by REST", table.id, exc.code)
            if not await self._edit_lobby(table):
                return
        if table.status == "lobby":
            self._mark_shown(table)

    async def redraw_lobby(self, table: Table) -> None:
        """Redraw the lobby by REST (a change made from elsewhere: the host's panel)."""
        if await self._edit_lobby(table) and table.status == "lobby":
            self._mark_shown(table)

    async def started(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """The host pressed Start: open the game's thread, post its first turn there, then
        redraw the lobby. The click is acknowledged first and the lobby redrawn last: its
        "Follow it in" names where the game is, which is known only once the thread exists."""
        if outside_servers(table):
            await self.anywhere.started(interaction, table)
            return
        acknowledged = await self._acknowledge(interaction, table)
        channel: Any = interaction.channel
        thread = None
        notice = None
        if isinstance(interaction.message, discord.Message) and isinstance(
            channel, discord.TextChannel
        ):
            try:
                thread = await interaction.message.create_thread(
                    name=f"{table.game.title(table.settings)} #{table.id}"[:100],
                    auto_archive_duration=1440,
                )
            except discord.Forbidden:
                notice = ev.Notice("no_thread_permission")
            except discord.HTTPException as exc:
                notice = ev.Notice("thread_failed", status=exc.status)
        # Post in the thread; if that is refused, in the channel; if that is refused too, the
        # game cannot be shown at all: end it (refunds) and tell whoever pressed Start.
        targets = [t for t in (thread, channel) if t is not None]
        for target in targets:
            table.notice = notice
            table.row.thread_id = thread.id if thread is not None and target is thread else None
            try:
                message = await target.send(**self.turn_message(table))
            except discord.HTTPException as exc:
                log.warning("game %s: cannot post the game in %s (%s)", table.id, target.id, exc)
                notice = ev.Notice(
                    "cannot_post", refusal=refusal(target, exc), then="runs_in_channel"
                )
                continue
            await self.set_game_message(table, thread_id=table.row.thread_id, message_id=message.id)
            self._mark_shown(table)
            await self._show_started_lobby(table, interaction, acknowledged)
            return
        refused = refusal(channel, None)
        closed = ev.Closed(ev.CANNOT_POST, refusal=refused)
        line = refusal_line(refused, THEN["ended"])
        change = await self.tables.close_unseen(table.id, closed)
        await reply_private(interaction, line)
        if change is not None:
            await self._edit_lobby(change.table)
            self._forget(change.table)

    async def _acknowledge(self, interaction: discord.Interaction[Any], table: Table) -> bool:
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

    async def _show_started_lobby(
        self, table: Table, interaction: discord.Interaction[Any], acknowledged: bool
    ) -> None:
        """The lobby of a game that has just started, through the acknowledged click (the
        lobby is the message it was pressed on), else by REST."""
        if acknowledged:
            try:
                await interaction.edit_original_response(
                    **self.lobby_message(table), allowed_mentions=NO_PINGS
                )
                return
            except discord.HTTPException as exc:
                log.info("game %s: lobby not redrawn by the click (%s)", table.id, exc.code)
        await self._edit_lobby(table)

    # --- turns -----------------------------------------------------------------------

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
        if interaction is not None and self._publishing.busy(table.id):
            # The redraw under way may wait on Discord (a rate limit): answer the click now,
            # within its 3 seconds, and show it when that redraw is done.
            await defer_update(interaction)
        async with self._publishing.hold(table.id):
            # Where the game is shown now: as this process's previous redraw left it, if that
            # was after the change's copy was read. A copy read later has the place from the
            # database, which is also right when another process on the same database (one
            # running the same guilds during a deploy) has moved the message since.
            moved = self._where.get(table.id)
            if moved is not None and moved[0] > table.read_at:
                _, table.row.thread_id, table.row.message_id = moved
            try:
                await self._publish(change, interaction)
                await self._show_ended_request(table)
            finally:
                self._forget(table)

    async def _publish(self, change: Change, interaction: discord.Interaction[Any] | None) -> None:
        table = change.table
        if change.closed:
            await self._closed(table, interaction)
            return
        if not change.turn_changed:
            await self._show(table, interaction, self.turn_edit(table))
            return
        # The click is answered first: its message becomes the finished turn's summary. Then
        # a new message is posted for the new turn (an edit cannot notify the next player);
        # if that is refused, the old message is made the live one again, saying why.
        summary = self.turn_summary(table, change.shown_seat)
        answered = await self._answer(interaction, summary, table)
        try:
            channel = await self._game_channel(table)
        except discord.HTTPException as exc:
            log.warning("game %s: cannot reach its channel now (%s)", table.id, exc.status)
            await self._edit_game_message(table, self.turn_edit(table))
            return
        if channel is None:
            await self._channel_lost(table, interaction)
            return
        try:
            message = await channel.send(**self.turn_message(table))
        except discord.NotFound:
            await self._channel_lost(table, interaction)
            return
        except discord.HTTPException as exc:
            log.warning("game %s: new turn message refused (%s)", table.id, exc.status)
            table.notice = ev.Notice(
                "cannot_post", refusal=refusal(channel, exc), then="goes_on_here"
            )
            await self._edit_game_message(table, self.turn_edit(table))
            return
        if not answered:
            await self._edit_game_message(table, summary, repost=False)
        await self.set_game_message(table, thread_id=None, message_id=message.id)
        self._mark_shown(table)
        if change.finished:
            await self._finished(table)

    async def _answer(
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

    async def _show(
        self,
        table: Table,
        interaction: discord.Interaction[Any] | None,
        payload: dict[str, Any],
        repost: bool = True,
    ) -> None:
        """Edit the table's game message: through the click's response when there is one."""
        if await self._answer(interaction, payload, table) or await self._edit_game_message(
            table, payload, repost=repost
        ):
            self._mark_shown(table)

    async def _channel_lost(
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
            await reply_private(interaction, line)
        await self._edit_lobby(change.table)
        parent = self.client.get_channel(table.row.channel_id)
        if parent is not None and table.row.thread_id is not None:
            try:
                await parent.send(  # type: ignore[union-attr]
                    f"Game #{table.id}: {line}", allowed_mentions=NO_PINGS
                )
            except discord.HTTPException as exc:
                log.info("game %s: end notice not posted (%s)", table.id, exc.status)

    async def _game_channel(self, table: Table) -> Any:
        """The game's thread or channel; None only if Discord says it no longer exists
        (404), which ends the game. Any other failure (5xx, 429, 403) is raised: the game
        must not end over a hiccup."""
        channel = self.client.get_channel(table.game_channel_id)
        if channel is None:
            try:
                channel = await self.client.fetch_channel(table.game_channel_id)
            except discord.NotFound:
                log.warning("game %s: channel %s is gone", table.id, table.game_channel_id)
                return None
        return channel

    async def _edit_game_message(
        self, table: Table, payload: dict[str, Any], *, repost: bool = True
    ) -> bool:
        """Edit the game message by REST; if a moderator deleted it, post the current state
        again (``repost``); if the thread itself is gone, end the game. True when Discord
        now shows ``payload`` (or the reposted state)."""
        try:
            channel = await self._game_channel(table)
        except discord.HTTPException as exc:
            log.warning("game %s: game message not updated (%s)", table.id, exc.status)
            return False
        if channel is None:
            if table.status in ("lobby", "running"):
                await self._channel_lost(table, None)
            return False
        if table.row.message_id is None:
            return False
        try:
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
            message = await channel.send(**self.turn_message(table))
        except discord.NotFound:
            await self._channel_lost(table, None)
            return False
        except discord.HTTPException as exc:
            log.warning("game %s: could not repost the game (%s)", table.id, exc.status)
            return False
        await self.set_game_message(table, thread_id=None, message_id=message.id)
        return True

    async def _edit_lobby(self, table: Table) -> bool:
        """Redraw the lobby message by REST; True when Discord took the edit."""
        if table.row.lobby_message_id is None:
            return False
        channel = self.client.get_channel(table.row.channel_id)
        if channel is None:
            return False
        payload = self.lobby_message(table)
        me = getattr(getattr(channel, "guild", None), "me", None)
        if me is not None and not channel.permissions_for(me).embed_links:  # type: ignore[union-attr]
            # Discord drops a bot's embeds where it can't embed (nor send: the lobby was an
            # interaction's answer), and the lobby would go blank: say its news in text.
            embed = payload["embed"]
            payload["content"] = f"**{embed.title}**\n{embed.description or ''}"[:2000]
            payload["embed"] = None
        try:
            await channel.get_partial_message(table.row.lobby_message_id).edit(  # type: ignore[union-attr]
                **payload, allowed_mentions=NO_PINGS
            )
        except discord.HTTPException as exc:
            log.info("game %s: lobby message not updated (%s)", table.id, exc.status)
            return False
        return True

    async def _finished(self, table: Table) -> None:
        await self._edit_lobby(table)
        game = self.game(table)
        results = (
            game.results(table.rules, table.seats) if table.rules is not None else None
        ) or []
        winners = " & ".join(md_name(r.name) for r in results if r.won)
        scores = ", ".join(f"{who} {score}" for who, score in game.standings(table))
        # What decided a game the scores alone don't explain (a tie-break), said with them.
        note = game.result_note(table) if table.rules is not None else None
        headline = (
            (f"🏆 **{winners}** won" if winners else "🤝 Nobody won")
            + f" {game.title(table.settings)} #{table.id} ({scores})."
            + (f" {note}." if note else "")
        )
        pot = await self._pot_line(table)
        if pot:
            try:
                channel = await self._game_channel(table)
            except discord.HTTPException:
                channel = None  # the pot line also goes to the parent channel below
            if channel is not None:
                await self._send_quietly(channel, pot + (f" {note}." if note else ""), table)
        if table.row.thread_id is None:
            return
        parent = self.client.get_channel(table.row.channel_id)
        if parent is not None:
            text = f"{headline} <#{table.row.thread_id}>" + (f"\n{pot}" if pot else "")
            await self._send_quietly(parent, text, table)

    async def _pot_line(self, table: Table) -> str | None:
        if not table.row.stake:
            return None
        net = await self.wallets.game_chips(table.id)
        names = {s.user_id: md_name(s.name) for s in table.seats if s.user_id is not None}
        # What each winner received: their net gain plus their own stake back.
        received = {
            names.get(user, "someone"): amount + table.row.stake
            for user, amount in net.items()
            if amount > 0
        }
        pot = table.row.stake * len(names)
        if not received:
            return f"💰 The pot of {pot:,} chips went back to the players."
        line = f"💰 {' and '.join(received)} won the pot of {pot:,} chips"
        if len(received) == 1:
            return line + "."
        shares = set(received.values())
        if len(shares) == 1:
            return line + f": {shares.pop():,} each."
        return line + ": " + ", ".join(f"{who} {got:,}" for who, got in received.items()) + "."

    async def _send_quietly(self, channel: Any, text: str, table: Table) -> None:
        try:
            await channel.send(text, allowed_mentions=NO_PINGS)
        except discord.HTTPException as exc:
            log.info("game %s: message not posted (%s)", table.id, exc.status)

    async def closed(
        self, table: Table, interaction: discord.Interaction[Any] | None = None
    ) -> None:
        """A table closed without a result: its lobby and game message say so."""
        if outside_servers(table):
            await self.anywhere.publish(Change(table, closed=True), interaction)
            return
        try:
            await self._closed(table, interaction)
            await self._show_ended_request(table)
        finally:
            self._forget(table)

    async def _closed(self, table: Table, interaction: discord.Interaction[Any] | None) -> None:
        if (
            interaction is not None
            and interaction.message is not None
            and interaction.message.id == table.row.lobby_message_id
        ):
            await self.show_lobby(table, interaction)
        else:
            await self._edit_lobby(table)
        if table.row.message_id is not None:
            line = last_line(table) or "Game over."
            await self._edit_game_message(
                table,
                {
                    "content": None,
                    "view": None,
                    "embed": discord.Embed(title="Game closed", description=line),
                },
            )

    async def answer_ended(
        self, interaction: discord.Interaction[Any], table: Table, text: str
    ) -> None:
        """Answer an end command publicly, then show the game as closed."""
        try:
            await interaction.response.send_message(text, allowed_mentions=NO_PINGS)
        except discord.HTTPException as exc:  # the game is ended either way: show it ended
            log.info("game %s: /end not answered (%s)", table.id, exc.code)
        await self.closed(table, None)

    # --- leaving and ending early -------------------------------------------------------

    async def ask_resign(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """The private confirmation before a player resigns."""
        view = build_view(
            table.id,
            "T",
            [
                Button("resign_yes", "Resign", "danger", emoji="🏳️"),
                Button("resign_no", "Keep playing", "secondary"),
            ],
        )
        stake = " Your stake stays in the pot." if table.row.stake else ""
        await interaction.response.send_message(
            f"Resign from game #{table.id}? You leave the game for good and rank last.{stake}",
            view=view,
            ephemeral=True,
            allowed_mentions=NO_PINGS,
        )

    def end_request_message(
        self, table: Table, request: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """The public request to end a staked game early, with its Agree button; once it is
        over, what became of it, without the button."""
        request = request or table.end_request or {}
        host = next(
            (md_name(s.name) for s in table.seats if s.user_id == request.get("by")), "The host"
        )
        over = request.get("over")
        if over:
            title, text = REQUEST_OVER.get(over, REQUEST_OVER["closed"])
            embed = discord.Embed(
                title=title, description=text.format(host=host, id=table.id), colour=COLOUR_DONE
            )
            return {"embed": embed, "view": None}
        waiting = self.tables.waiting_to_agree(table)
        lines = [
            f"{host} asks to end game #{table.id} early: no result, every stake refunded.",
            f"Everyone still playing must agree <t:{int(request.get('until', 0))}:R>.",
            f"Waiting for: {', '.join(waiting)}." if waiting else "",
        ]
        embed = discord.Embed(
            title="End the game early?", description="\n".join(x for x in lines if x), colour=COLOUR
        )
        view = build_view(table.id, "T", [Button("agree_end", "Agree to end", "danger")])
        return {"embed": embed, "view": view}

    async def post_end_request(self, interaction: discord.Interaction[Any], change: Change) -> None:
        """The host asked to end a staked game: the request goes to the game's channel, the
        host is told privately."""
        table = change.table
        await self._show_ended_request(table)  # an earlier one that had run out just now
        message = None
        try:
            channel = await self._game_channel(table)
            if channel is not None:
                message = await channel.send(
                    **self.end_request_message(table), allowed_mentions=NO_PINGS
                )
        except discord.HTTPException as exc:
            log.warning("game %s: end request not posted (%s)", table.id, exc.status)
        if message is None:
            await reply_private(
                interaction, "I couldn't post the request in the game's channel; try again later."
            )
        else:
            await reply_private(
                interaction,
                f"The others in game #{table.id} have 2 minutes to agree; until then the game "
                "goes on (you can still resign).",
            )
            # Recorded, so that the message can say when the request is over (a restart
            # included); None: it is over already (a moment's race), its change shows it.
            assert table.end_request is not None
            placed = await self.tables.set_end_request_message(
                table.id, table.end_request["until"], message.channel.id, message.id
            )
            if placed is not None:
                change = placed
        # The request is a saved change: the turn's buttons are redrawn at its version.
        await self.publish(change)

    async def show_end_request(self, change: Change, interaction: discord.Interaction[Any]) -> None:
        """An agreement was given: redraw the request, and the game if it ended."""
        table = change.table
        if change.closed:
            await answer_update(
                interaction,
                **self.end_request_message(table, table.ended_request),
                allowed_mentions=NO_PINGS,
            )
            table.ended_request = None  # shown just now, by the click
            await self.closed(table)
            return
        await answer_update(
            interaction, **self.end_request_message(table), allowed_mentions=NO_PINGS
        )
        await self.publish(change)  # the turn's buttons, at the version the agreement made

    async def _show_ended_request(self, table: Table) -> None:
        """Show the request to end early that this change ended as over (no button)."""
        request, table.ended_request = table.ended_request, None
        if request is not None:
            await self._show_request(table, request)

    async def _show_request(self, table: Table, request: dict[str, Any]) -> None:
        where = request.get("message")
        if not where:
            return
        channel_id, message_id = int(where[0]), int(where[1])
        try:
            channel: Any = self.client.get_channel(channel_id) or await self.client.fetch_channel(
                channel_id
            )
            await channel.get_partial_message(message_id).edit(
                **self.end_request_message(table, request), allowed_mentions=NO_PINGS
            )
        except discord.HTTPException as exc:
            log.info("game %s: end request message not updated (%s)", table.id, exc.status)

    # --- restore ---------------------------------------------------------------------

    async def restore(self) -> int:
        """After a start: redraw only the tables whose message may be behind the database
        (the process died between a commit and its Discord update, or before the versions
        shown were recorded), soonest deadline first, paced under Discord's rate limits.
        Every other message is right as it is; a click on it is answered from the database,
        and no board picture is drawn until a turn needs one. Returns how many it redrew."""
        behind = await self.tables.behind_on_discord()
        pace = _Pacer(RESTORE_BURST, RESTORE_PER_SECOND)
        running: set[asyncio.Task[None]] = set()
        for table_id in behind:
            await pace.wait()
            while len(running) >= RESTORE_CONCURRENCY:
                _, running = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
            running.add(asyncio.create_task(self._restore_locked(table_id)))
        if running:
            await asyncio.wait(running)
        await self.flush_shown()
        return len(behind)

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
            try:
                await self._repost(fresh)
                self._mark_shown(fresh)
            except discord.HTTPException as exc:
                log.warning(
                    "game %s: could not repost a deleted message (%s)", table.id, exc.status
                )

    async def _restore_locked(self, table_id: int) -> None:
        # Clicks are answered while this runs: redraw each table as it is now, under its
        # redraw lock, or a slow start could put an older version back on screen.
        async with self._publishing.hold(table_id):
            try:
                await self._restore_one(table_id)
            except Exception:
                log.exception("game %s: redrawing after a restart failed", table_id)

    async def _restore_one(self, table_id: int) -> None:
        table = await self.tables.get(table_id)
        if table.status not in ("lobby", "running") or outside_servers(table):
            return  # outside servers there is no token after a restart: the next click
        try:
            if table.status == "lobby":
                if await self._edit_lobby(table):
                    self._mark_shown(table)
            elif table.row.message_id is None:
                await self._repost(table)
                self._mark_shown(table)
            elif await self._edit_game_message(table, self.turn_edit(table)):
                self._mark_shown(table)
            if table.status == "running" and table.end_request is not None:
                # The request's message may still show a request that ended meanwhile.
                await self._show_request(table, table.end_request)
        except discord.HTTPException as exc:
            log.warning("game %s: could not redraw after a restart (%s)", table.id, exc.status)

    async def _repost(self, table: Table) -> None:
        channel = await self._game_channel(table)
        if channel is None:
            await self._channel_lost(table, None)
            return
        message = await channel.send(**self.turn_message(table))
        await self.set_game_message(table, thread_id=None, message_id=message.id)


class _Pacer:
    """At most ``burst`` starts at once, then ``per_second`` a second."""

    def __init__(self, burst: int, per_second: float) -> None:
        self.tokens = float(burst)
        self.burst = burst
        self.per_second = per_second
        self.last = asyncio.get_running_loop().time()

    async def wait(self) -> None:
        loop = asyncio.get_running_loop()
        now = loop.time()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.per_second)
        self.last = now
        if self.tokens < 1:
            await asyncio.sleep((1 - self.tokens) / self.per_second)
            self.tokens = 1.0
            self.last = loop.time()
        self.tokens -= 1
