"""Shows tables in Discord: lobby messages, one message per turn in the game's thread,
results in the parent channel. Every click and every timer change ends up in ``publish``.

The public turn message is edited in place while a turn lasts; when the turn passes, it is
turned into a one-line summary and a new message mentions the next player (an edit cannot
notify anyone, a new message does).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import Forbidden, StaleAction, UserError
from bot.render import oneroll as oneroll_render
from bot.render import sequences as seq_render
from bot.render.board_game import board_embed
from bot.render.common import lobby_embed
from bot.store import games
from bot.tables.kinds import Button
from bot.tables.model import Table
from bot.tables.registry import kind_for
from bot.tables.service import Change, TableService
from bot.ui.board_hand import BoardHands
from bot.ui.buttons import LOBBY, build_view
from bot.ui.errors import reply_private

if TYPE_CHECKING:
    from bot.app import SequencesBot

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()


def is_admin(interaction: discord.Interaction[Any]) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


def require_admin(interaction: discord.Interaction[Any], refusal: str) -> None:
    """Manage Server or ``Forbidden(refusal)``: ``default_permissions`` only hides a command,
    the check in code is what counts."""
    if not is_admin(interaction):
        raise Forbidden(refusal)


def lobby_buttons(table: Table) -> list[Button]:
    game = kind_for(table.kind)
    full = len(table.seats) >= game.seat_limits(table.settings)[1]
    buttons = [
        Button("join", "Join", "success", disabled=full),
        Button("leave", "Leave", "secondary"),
        Button("start", "Start", "primary"),
        Button("cancel", "Cancel", "danger"),
    ]
    if game.lobby_teams(table.settings)[0] >= 2:
        buttons.append(Button("team", "Switch team", "secondary", emoji="🔁"))
    if table.row.stake == 0:
        buttons += [
            Button(
                f"bot_{level}", f"Add bot: {level}", "secondary", row=1, emoji="🤖", disabled=full
            )
            for level in game.bot_levels
        ]
    return buttons


PERMISSION_LABELS = {
    "view_channel": "View Channel",
    "send_messages": "Send Messages",
    "send_messages_in_threads": "Send Messages in Threads",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
}


def lacking(perms: discord.Permissions, names: list[str]) -> list[str]:
    """The labels of the permissions in ``names`` that ``perms`` does not grant."""
    return [PERMISSION_LABELS[name] for name in names if not getattr(perms, name, False)]


def missing_permissions(channel: Any) -> list[str]:
    """The permissions a game needs that the bot lacks in ``channel`` (a channel or thread)."""
    guild = getattr(channel, "guild", None)
    if guild is None or guild.me is None or not hasattr(channel, "permissions_for"):
        return []
    perms = channel.permissions_for(guild.me)
    needed = ["view_channel", "embed_links", "attach_files"]
    needed.append(
        "send_messages_in_threads" if isinstance(channel, discord.Thread) else "send_messages"
    )
    return lacking(perms, needed)


class Presenter:
    def __init__(self, bot: SequencesBot) -> None:
        self.bot = bot
        self.hands = BoardHands(self)
        self._publishing: dict[int, asyncio.Lock] = {}

    @property
    def tables(self) -> TableService:
        return self.bot.tables

    # --- rendering -------------------------------------------------------------------

    def lobby_message(self, table: Table) -> dict[str, Any]:
        view = (
            build_view(table.id, LOBBY, lobby_buttons(table)) if table.status == "lobby" else None
        )
        return {"embed": lobby_embed(table), "view": view}

    def turn_message(self, table: Table) -> dict[str, Any]:
        """The public message for the table's current turn (``file`` when it has a picture)."""
        game = kind_for(table.kind)
        file = None
        if table.kind == "board":
            embed, file = board_embed(table)
        elif table.kind == "oneroll":
            embed = oneroll_render.turn_embed(table)
        else:
            embed = seq_render.turn_embed(table)
        view = None
        content = None
        mentions = NO_PINGS
        if table.status == "running" and table.rules is not None:
            current = game.current_seat(table.rules)
            view = build_view(table.id, table.version, game.turn_buttons(table.rules))
            if current is not None and not table.seats[current].is_bot:
                user_id = table.seats[current].user_id
                content = f"<@{user_id}>, your turn."
                mentions = discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(user_id or 0)]
                )
        if table.notice:
            content = f"{table.notice}\n{content or ''}".strip()
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

    def turn_summary(self, table: Table) -> dict[str, Any]:
        """What the message of a finished turn becomes: one line, no buttons, no picture."""
        # The move that ended the turn, not the result line that may follow it.
        moves = [e for e in table.events if not e.startswith("🏆")]
        line = moves[-1] if moves else "Turn over."
        seat = 0
        if table.rules is not None and table.rules.get("last") is not None:
            seat = int(table.rules["last"].get("seat", 0))
        if table.rules is not None and table.rules.get("last_move") is not None:
            seat = int(table.rules["last_move"].get("seat", 0))
        return {
            "embed": seq_render.turn_summary_embed(table, seat, line),
            "view": None,
            "content": None,
            "attachments": [],
        }

    async def check_place(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """A click must come from the table's own server and channel (or its thread): a
        custom_id copied from elsewhere, or forged, changes nothing."""
        table = await self.tables.get(table_id)
        row = table.row
        if interaction.guild_id != row.guild_id or interaction.channel_id not in (
            row.channel_id,
            row.thread_id,
        ):
            raise StaleAction("That button belongs to a game somewhere else.")

    # --- lobby -----------------------------------------------------------------------

    async def open_lobby(
        self,
        interaction: discord.Interaction[Any],
        *,
        kind: str,
        settings: dict[str, Any],
        stake: int = 0,
    ) -> Table:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        self.check_permissions(interaction)
        table = await self.tables.open_lobby(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            host_id=interaction.user.id,
            host_name=interaction.user.display_name,
            kind=kind,
            settings=settings,
            stake=stake,
        )
        try:
            callback = await interaction.response.send_message(
                **self.lobby_message(table), allowed_mentions=NO_PINGS
            )
            message_id = getattr(callback, "message_id", None)
            if message_id is None:
                message_id = (await interaction.original_response()).id
        except discord.HTTPException as exc:
            # Nobody can see or join a lobby without its message: close it at once (refunding
            # the host's stake) rather than leave it counting against the channel's limit.
            log.warning("game %s: lobby message not posted (%s); closing it", table.id, exc.status)
            await self.tables.close_unseen(table.id, "The lobby message could not be posted.")
            return table  # the interaction is dead: there is nobody to answer
        await self.tables.set_lobby_message(table.id, message_id)
        return table

    def check_permissions(self, interaction: discord.Interaction[Any]) -> None:
        needed = ["view_channel", "send_messages", "embed_links", "attach_files"]
        missing = lacking(interaction.app_permissions, needed)
        if missing:
            raise UserError(
                "I can't run a game here: I'm missing " + ", ".join(missing) + " in this channel."
            )

    async def on_lobby_click(
        self, interaction: discord.Interaction[Any], table_id: int, action: str
    ) -> None:
        user = interaction.user
        if action == "join":
            change = await self.tables.join(table_id, user.id, user.display_name)
        elif action == "leave":
            change = await self.tables.leave(table_id, user.id)
        elif action == "team":
            change = await self.tables.switch_team(table_id, user.id)
        elif action.startswith("bot_"):
            change = await self.tables.add_bot(table_id, user.id, action[4:])
        elif action == "cancel":
            change = await self.tables.cancel(table_id, user.id, is_admin(interaction))
        elif action == "start":
            await self.start_game(interaction, table_id)
            return
        else:
            raise StaleAction("That button is not part of this lobby.")
        await self._show_lobby(change.table, interaction)

    async def _show_lobby(self, table: Table, interaction: discord.Interaction[Any]) -> None:
        try:
            await interaction.response.edit_message(
                **self.lobby_message(table), allowed_mentions=NO_PINGS
            )
        except discord.HTTPException as exc:
            # The change is committed; a dead token (slow answer, 10062) only loses the
            # in-place update, so make it by REST instead.
            log.info("game %s: lobby click not answered (%s); editing by REST", table.id, exc.code)
            await self._edit_lobby(table)

    async def start_game(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        change = await self.tables.start(table_id, interaction.user.id, is_admin(interaction))
        table = change.table
        await self._show_lobby(table, interaction)
        channel: Any = interaction.channel
        thread = None
        notice = None
        if isinstance(interaction.message, discord.Message) and isinstance(
            channel, discord.TextChannel
        ):
            try:
                thread = await interaction.message.create_thread(
                    name=f"{kind_for(table.kind).title(table.settings)} #{table.id}"[:100],
                    auto_archive_duration=1440,
                )
            except discord.Forbidden:
                notice = (
                    "I can't create threads here (Create Public Threads is missing), "
                    "so the game runs in this channel."
                )
            except discord.HTTPException as exc:
                notice = f"I couldn't open a thread ({exc.status}), so the game runs here."
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
                notice = self.cannot_post_text(target, exc, "so the game runs in the channel")
                continue
            await self.tables.set_game_message(
                table.id, thread_id=table.row.thread_id, message_id=message.id
            )
            return
        line = self.cannot_post_text(channel, None, "so the game was ended; stakes are refunded")
        await self.tables.close_unseen(table.id, line)
        await reply_private(interaction, line)
        await self._edit_lobby(await self.tables.get(table.id))

    def cannot_post_text(self, target: Any, exc: discord.HTTPException | None, then: str) -> str:
        """One line naming the permissions the bot lacks in ``target`` (or the error)."""
        missing = missing_permissions(target)
        if missing:
            return f"⚠️ I can't post in <#{target.id}> (missing {', '.join(missing)}), {then}."
        why = f"Discord said {exc.status}" if exc is not None else "Discord refused"
        return f"⚠️ I couldn't post in <#{target.id}> ({why}), {then}."

    # --- turns -----------------------------------------------------------------------

    async def on_turn_click(
        self, interaction: discord.Interaction[Any], table_id: int, version: int, action: str
    ) -> None:
        table = await self.tables.get(table_id)
        if table.kind == "board":
            await self.hands.on_click(interaction, table, version, action)
            return
        if action == "odds":
            if table.status != "running" or version != table.version:
                raise StaleAction("That throw is over.")
            await reply_private(interaction, self.odds_text(table))
            return
        change = await self.tables.act(table_id, interaction.user.id, version, action)
        await self.publish(change, interaction)

    def odds_text(self, table: Table) -> str:
        from bot.rules import odds
        from bot.rules import pushluck as pl

        state = pl.load(table.rules or {})
        if state.phase not in ("lock", "decide"):
            raise StaleAction("Throw first: the odds are about what to do with a throw.")
        return odds.advice(state).text

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
        async with self._publishing.setdefault(change.table.id, asyncio.Lock()):
            row = await games.get(self.bot.db, change.table.id)
            if row is not None:  # where the game is shown now, as the previous redraw left it
                change.table.row.message_id = row.message_id
                change.table.row.thread_id = row.thread_id
            await self._publish(change, interaction)

    async def _publish(self, change: Change, interaction: discord.Interaction[Any] | None) -> None:
        table = change.table
        if change.closed:
            await self._closed(table, interaction)
            return
        if not change.turn_changed:
            await self._show(table, interaction, self.turn_edit(table))
            return
        # A new message for the new turn (an edit cannot notify the next player), then the
        # old one becomes a summary. Posting comes first, so a refusal leaves a live message.
        try:
            channel = await self._game_channel(table)
        except discord.HTTPException as exc:
            log.warning("game %s: cannot reach its channel now (%s)", table.id, exc.status)
            await self._show(table, interaction, self.turn_edit(table))
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
            table.notice = self.cannot_post_text(channel, exc, "so the game goes on here")
            await self._show(table, interaction, self.turn_edit(table))
            return
        await self._show(table, interaction, self.turn_summary(table), repost=False)
        await self.tables.set_game_message(table.id, thread_id=None, message_id=message.id)
        table.row.message_id = message.id
        if change.finished:
            await self._finished(table)

    async def _show(
        self,
        table: Table,
        interaction: discord.Interaction[Any] | None,
        payload: dict[str, Any],
        repost: bool = True,
    ) -> None:
        """Edit the table's game message: through the click's response when there is one."""
        if interaction is not None and not interaction.response.is_done():
            try:
                await interaction.response.edit_message(**payload, allowed_mentions=NO_PINGS)
                return
            except discord.HTTPException as exc:
                # Too slow (10062) or the token is gone: the change stands, edit by REST.
                log.info("game %s: click not answered (%s); editing by REST", table.id, exc.code)
        await self._edit_game_message(table, payload, repost=repost)

    async def _channel_lost(
        self, table: Table, interaction: discord.Interaction[Any] | None
    ) -> None:
        """The game's thread (or channel) was deleted: end the game, refund, say so."""
        line = "The game's thread was deleted, so the game ended; stakes are refunded."
        change = await self.tables.close_unseen(table.id, line)
        if change is None:
            return
        log.warning("game %s: channel %s is gone; game ended", table.id, table.game_channel_id)
        if interaction is not None:
            await reply_private(interaction, line)
        await self._edit_lobby(change.table)
        parent = self.bot.get_channel(table.row.channel_id)
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
        channel = self.bot.get_channel(table.game_channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(table.game_channel_id)
            except discord.NotFound:
                log.warning("game %s: channel %s is gone", table.id, table.game_channel_id)
                return None
        return channel

    async def _edit_game_message(
        self, table: Table, payload: dict[str, Any], *, repost: bool = True
    ) -> None:
        """Edit the game message by REST; if a moderator deleted it, post the current state
        again (``repost``); if the thread itself is gone, end the game."""
        try:
            channel = await self._game_channel(table)
        except discord.HTTPException as exc:
            log.warning("game %s: game message not updated (%s)", table.id, exc.status)
            return
        if channel is None:
            if table.status in ("lobby", "running"):
                await self._channel_lost(table, None)
            return
        if table.row.message_id is None:
            return
        try:
            await channel.get_partial_message(table.row.message_id).edit(
                **payload, allowed_mentions=NO_PINGS
            )
            return
        except discord.NotFound:
            if not repost or table.status != "running":
                return
        except discord.HTTPException as exc:
            log.warning("game %s: game message not updated (%s)", table.id, exc.status)
            return
        try:
            message = await channel.send(**self.turn_message(table))
        except discord.NotFound:
            await self._channel_lost(table, None)
            return
        except discord.HTTPException as exc:
            log.warning("game %s: could not repost the game (%s)", table.id, exc.status)
            return
        await self.tables.set_game_message(table.id, thread_id=None, message_id=message.id)
        table.row.message_id = message.id

    async def _edit_lobby(self, table: Table) -> None:
        if table.row.lobby_message_id is None:
            return
        channel = self.bot.get_channel(table.row.channel_id)
        if channel is None:
            return
        try:
            await channel.get_partial_message(table.row.lobby_message_id).edit(  # type: ignore[union-attr]
                **self.lobby_message(table), allowed_mentions=NO_PINGS
            )
        except discord.HTTPException as exc:
            log.info("game %s: lobby message not updated (%s)", table.id, exc.status)

    async def _finished(self, table: Table) -> None:
        await self._edit_lobby(table)
        game = kind_for(table.kind)
        results = game.results(table.rules or {}, table.seats) or []
        ranked = sorted(results, key=lambda r: (r.place, -r.score))
        winners = " & ".join(r.name for r in results if r.won)
        scores = ", ".join(f"{r.name} {r.score}" for r in ranked)
        headline = (
            f"🏆 **{winners}** won" if winners else "🤝 Nobody won"
        ) + f" {game.title(table.settings)} #{table.id} ({scores})."
        pot = await self._pot_line(table)
        if pot:
            try:
                channel = await self._game_channel(table)
            except discord.HTTPException:
                channel = None  # the pot line also goes to the parent channel below
            if channel is not None:
                await self._send_quietly(channel, pot, table)
        if table.row.thread_id is None:
            return
        parent = self.bot.get_channel(table.row.channel_id)
        if parent is not None:
            text = f"{headline} <#{table.row.thread_id}>" + (f"\n{pot}" if pot else "")
            await self._send_quietly(parent, text, table)

    async def _pot_line(self, table: Table) -> str | None:
        if not table.row.stake:
            return None
        from bot.store import wallets

        net = await wallets.game_chips(self.bot.db.conn, table.id)
        names = {s.user_id: s.name for s in table.seats if s.user_id is not None}
        won = [
            f"{names.get(user, 'someone')} +{amount:,}"
            for user, amount in net.items()
            if amount > 0
        ]
        pot = table.row.stake * len(names)
        if not won:
            return f"💰 The pot of {pot:,} chips went back to the players."
        return f"💰 Pot of {pot:,} chips: " + ", ".join(won) + "."

    async def _send_quietly(self, channel: Any, text: str, table: Table) -> None:
        try:
            await channel.send(text, allowed_mentions=NO_PINGS)
        except discord.HTTPException as exc:
            log.info("game %s: message not posted (%s)", table.id, exc.status)

    async def _closed(self, table: Table, interaction: discord.Interaction[Any] | None) -> None:
        if (
            interaction is not None
            and interaction.message is not None
            and interaction.message.id == table.row.lobby_message_id
        ):
            await self._show_lobby(table, interaction)
        else:
            await self._edit_lobby(table)
        if table.row.message_id is not None:
            line = table.events[-1] if table.events else "Game over."
            await self._edit_game_message(
                table,
                {
                    "content": None,
                    "view": None,
                    "embed": discord.Embed(title="Game closed", description=line),
                },
            )

    # --- commands --------------------------------------------------------------------

    async def end_game(self, interaction: discord.Interaction[Any], table_id: int | None) -> None:
        table = await self.find_table(interaction, table_id)
        change = await self.tables.end(table.id, interaction.user.id, is_admin(interaction))
        try:
            await interaction.response.send_message(
                f"Game #{table.id} ended: no result is recorded and any stakes are refunded.",
                allowed_mentions=NO_PINGS,
            )
        except discord.HTTPException as exc:  # the game is ended either way: show it ended
            log.info("game %s: /end not answered (%s)", table.id, exc.code)
        await self._closed(change.table, None)

    async def find_table(
        self, interaction: discord.Interaction[Any], table_id: int | None
    ) -> Table:

        if table_id is not None:
            table = await self.tables.get(table_id)
            if table.row.guild_id != interaction.guild_id:
                raise UserError("There is no such game on this server.")
            return table
        assert interaction.channel_id is not None
        rows = await games.live_in_channel(self.bot.db, interaction.channel_id)
        if not rows:
            raise UserError("There is no game in this channel.")
        mine = [r for r in rows if r.host_id == interaction.user.id]
        if len(rows) > 1 and len(mine) != 1:
            ids = ", ".join(f"#{r.id}" for r in rows)
            raise UserError(f"Several games are here ({ids}); say which with the game option.")
        return Table.from_row((mine or rows)[0])

    async def restore(self) -> int:
        """After a start: redraw every live table from the database. The process may have
        died between a commit and its Discord update, so a message can show an older
        version whose buttons are refused as stale; redrawing puts the current buttons up."""
        tables = await self.tables.live_tables()
        for listed in tables:
            # Clicks are answered while this runs: redraw each table as it is now, under its
            # redraw lock, or a slow start could put an older version back on screen.
            async with self._publishing.setdefault(listed.id, asyncio.Lock()):
                await self._restore_one(listed.id)
        return len(tables)

    async def _restore_one(self, table_id: int) -> None:
        table = await self.tables.get(table_id)
        if table.status not in ("lobby", "running"):
            return
        try:
            if table.status == "lobby":
                await self._edit_lobby(table)
            elif table.row.message_id is None:
                await self._repost(table)
            else:
                await self._edit_game_message(table, self.turn_edit(table))
        except discord.HTTPException as exc:
            log.warning("game %s: could not redraw after a restart (%s)", table.id, exc.status)

    async def _repost(self, table: Table) -> None:
        channel = await self._game_channel(table)
        if channel is None:
            await self._channel_lost(table, None)
            return
        message = await channel.send(**self.turn_message(table))
        await self.tables.set_game_message(table.id, thread_id=None, message_id=message.id)


__all__ = ["Forbidden", "Presenter"]
