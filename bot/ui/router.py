"""Click and command routing: what a lobby button, a turn button or a game command does.
Each asks the table service for the change, then the publisher to show it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import discord

from bot.errors import StaleAction, UserError
from bot.games.base import ClickContext, answer_update, defer_update, guild_of, place_of
from bot.games.registry import Games
from bot.i18n.speaking import N_, _, pgettext
from bot.records import NO_GUILD
from bot.tables.guild_settings import GuildSettings
from bot.tables.model import Table
from bot.tables.peers import TablePeers
from bot.ui import lobby_host
from bot.ui.anywhere import NO_INVITES, NO_STAKES
from bot.ui.checks import is_admin, require_game_permissions
from bot.ui.compose import outside_servers
from bot.ui.publisher import Publisher
from bot.ui.rules import table_rules_embed


@dataclass(frozen=True)
class CommandGroup:
    """A game's command group (``/board``) and the games its ``end`` and ``resign`` reach:
    leaderboard keys, or prefixes of them ending in ``:``."""

    name: str
    game_keys: tuple[str, ...]

    def covers(self, game_key: str) -> bool:
        return any(
            game_key.startswith(key) if key.endswith(":") else game_key == key
            for key in self.game_keys
        )


ENDED = N_("Game #%(id)s ended: no result is recorded and any stakes are refunded.")
# Slash options named in refusals, as the command catalogue translates them (its domain).
WITH_OPTION, GAME_OPTION = "with", "game"
MENTION = re.compile(r"<@!?([0-9]{1,20})>")
MAX_INVITES = 12  # the most seats any game has; the table service checks the game's own


class Router:
    def __init__(
        self,
        games: Games,
        peers: TablePeers,
        publisher: Publisher,
        guild_settings: GuildSettings | None = None,
    ) -> None:
        self.games = games
        self.tables = tables = peers.tables
        self.fair_play = peers.fair_play
        self.publisher = publisher
        self.guild_settings = guild_settings
        self.context = ClickContext(tables, publisher)

    async def open_lobby(
        self,
        interaction: discord.Interaction[Any],
        *,
        kind: str,
        settings: dict[str, Any],
        stake: int = 0,
        invite: str | None = None,
    ) -> Table:
        """A game's start command: a lobby in this channel, answered with its message.
        ``invite``: the ``with:`` option, members by mention, whose seats are held; they
        and the server's lobby role (``/settings lobby-role``) are called by the message.
        Outside a server (a DM or group DM) the table lives in that one message, unstaked."""
        assert interaction.channel_id is not None
        guild_id = guild_of(interaction)
        if guild_id == NO_GUILD:
            if stake:
                raise UserError(_(NO_STAKES))
            if invite:
                raise UserError(_(NO_INVITES))
            invited: list[int] = []
        else:
            require_game_permissions(interaction)
            invited = await self._invited(interaction, invite)
        table = await self.tables.open_lobby(
            guild_id=guild_id,
            channel_id=interaction.channel_id,
            host_id=interaction.user.id,
            host_name=interaction.user.display_name,
            kind=kind,
            settings=settings,
            stake=stake,
            held=invited,
        )
        calls = [f"<@{s.user_id}>" for s in table.held]
        role = await self._lobby_role(interaction)
        if role is not None:
            calls.insert(0, role.mention)
        content = None
        async with self.publisher.languages.public(table):  # public: in the server's words
            if calls:
                title = self.games.shown(table.kind).title(table.settings)
                values = {"calls": " ".join(calls), "host": interaction.user.mention, "game": title}
                # TRANSLATORS: %(host)s is the host's mention (who opened the table),
                # %(calls)s the mentions of those asked; "Join" is the lobby's button.
                if len(table.held) > 1:
                    content = _(
                        "%(host)s opened a table for %(game)s: %(calls)s, your seats are held, "
                        "press Join.",
                        **values,
                    )
                elif table.held:
                    content = _(
                        "%(host)s opened a table for %(game)s: %(calls)s, your seat is held, "
                        "press Join.",
                        **values,
                    )
                else:
                    content = _(
                        "%(host)s opened a table for %(game)s: %(calls)s, press Join.", **values
                    )
        # Only those it names are pinged: the invited members and that one role.
        mentions = discord.AllowedMentions(
            everyone=False,
            users=[discord.Object(s.user_id) for s in table.held if s.user_id],
            roles=[role] if role is not None else False,
        )
        await self.publisher.post_lobby(interaction, table, content, mentions)
        return table

    async def _invited(
        self, interaction: discord.Interaction[Any], invite: str | None
    ) -> list[int]:
        """The members the ``with:`` option names: members of this server, not bots (the
        bot has no member cache without the members intent: each is fetched)."""
        if not invite or not invite.strip():
            return []
        ids = [int(n) for n in MENTION.findall(invite)]
        if not ids or MENTION.sub("", invite).strip(" ,"):
            raise UserError(
                _(
                    "Name the members to invite by mention: %(option)s: @Ana @Bo.",
                    option=pgettext("option", WITH_OPTION),
                )
            )
        guild = interaction.guild
        assert guild is not None
        invited = []
        for user_id in list(dict.fromkeys(ids))[:MAX_INVITES]:
            member = guild.get_member(user_id)
            if member is None:
                try:
                    member = await guild.fetch_member(user_id)
                except discord.NotFound:
                    raise UserError(
                        _("<@%(user)s> isn't a member of this server.", user=user_id)
                    ) from None
            if member.bot:
                raise UserError(_("Bots can't be invited: add bot players in the lobby."))
            if user_id != interaction.user.id:
                invited.append(user_id)
        return invited

    async def _lobby_role(self, interaction: discord.Interaction[Any]) -> discord.Role | None:
        if self.guild_settings is None or interaction.guild is None:
            return None
        role_id = await self.guild_settings.lobby_role(interaction.guild.id)
        role = interaction.guild.get_role(role_id) if role_id is not None else None
        return None if role is None or role.is_default() else role

    async def _answer_if_waiting(
        self, interaction: discord.Interaction[Any], table_id: int
    ) -> None:
        """A click whose table is busy (a change or a redraw under way, which may wait on
        the database or on Discord's rate limits) is acknowledged before it waits, so it is
        answered within Discord's 3 seconds; its message is edited once it is its turn."""
        if self.tables.busy(table_id) or self.publisher.busy(table_id):
            await defer_update(interaction)

    async def on_lobby_click(
        self, interaction: discord.Interaction[Any], table_id: int, action: str
    ) -> None:
        """A lobby button. The service reads the table under its lock and checks there that
        the click comes from the table's place. A click outside servers (whose message may
        have fallen behind) and the host's panel and Watch read it first, in their place."""
        # Change settings lives on the host's private panel alone: no public message is its.
        on = "panel" if action == "settings" else "lobby"
        user, place = interaction.user, place_of(interaction, on)
        if place.guild_id == NO_GUILD or action in ("manage", "settings", "watch", "unwatch"):
            table = await self.tables.get(table_id, place)
            if table.status != "lobby" and outside_servers(table):
                await self.publisher.anywhere.catch_up(interaction, table)
                return
            if action in ("manage", "settings", "watch", "unwatch"):
                await self._on_lobby_host_click(interaction, table, action)
                return
        await self._answer_if_waiting(interaction, table_id)
        if action == "join":
            change = await self.tables.join(table_id, user.id, user.display_name, place=place)
        elif action == "leave":
            change = await self.tables.leave(table_id, user.id, place=place)
        elif action == "team":
            change = await self.tables.switch_team(table_id, user.id, place=place)
        elif action.startswith("bot_"):
            change = await self.tables.add_bot(table_id, user.id, action[4:], place=place)
        elif action == "cancel":
            change = await self.tables.cancel(table_id, user.id, is_admin(interaction), place)
        elif action == "start":
            change = await self.tables.start(table_id, user.id, is_admin(interaction), place)
            await self.publisher.started(interaction, change.table)
            await lobby_host.add_watchers(self.publisher.client, change.table)
            return
        else:
            await self.tables.get(table_id, place)  # a forged action elsewhere: say where
            raise StaleAction(_("That button is not part of this lobby."))
        if change.closed:
            await self.publisher.closed(change.table, interaction)
        else:
            await self.publisher.show_lobby(change.table, interaction, change.invites_answered)

    async def _on_lobby_host_click(
        self, interaction: discord.Interaction[Any], table: Table, action: str
    ) -> None:
        """The lobby's Manage (the host's private panel), its Change settings, and Watch."""
        if action == "manage":
            await lobby_host.open_panel(interaction, table)
        elif action == "settings":  # a modal must be the click's first answer: no defer
            await lobby_host.ask_settings(interaction, self.publisher, table)
        else:
            await self._answer_if_waiting(interaction, table.id)
            await lobby_host.on_watch(interaction, self.publisher, table, action)

    async def on_turn_click(
        self, interaction: discord.Interaction[Any], table_id: int, version: int, action: str
    ) -> None:
        """A game button. A button played through the service is read once, under the
        table's lock, where its place is checked too; one a game answers privately (without
        the lock, so it never waits for a change under way) is read here, in its place, as is
        a click outside servers, whose message may have fallen behind."""
        place = place_of(interaction, "table")
        if self.games.may_be_private(action) or place.guild_id == NO_GUILD:
            table = await self.tables.get(table_id, place)
            game = self.games.shown(table.kind)
            if game.is_private(action):
                await game.private_click(self.context, interaction, table, version, action)
                return
            stale = version != table.version or table.status != "running"
            if outside_servers(table) and stale:
                await self.publisher.anywhere.catch_up(interaction, table)
                return
        await self._answer_if_waiting(interaction, table_id)
        change = await self.tables.act(table_id, interaction.user.id, version, action, place=place)
        await self.publisher.publish(change, interaction)

    async def on_table_click(
        self, interaction: discord.Interaction[Any], table_id: int, action: str
    ) -> None:
        """A button that belongs to the table, not to one turn: Rules, Resign (with its
        confirmation) and Agree to end."""
        place = place_of(interaction, "request" if action == "agree_end" else "table")
        if action == "resign_yes":
            await self._answer_if_waiting(interaction, table_id)
            change = await self.fair_play.resign(table_id, interaction.user.id, place)
            await answer_update(
                interaction, content=_("You resigned from game #%(id)s.", id=table_id), view=None
            )
            await self.publisher.publish(change)
        elif action in ("watch", "unwatch"):
            table = await self.tables.get(table_id, place)
            await self._answer_if_waiting(interaction, table_id)
            await lobby_host.on_watch(interaction, self.publisher, table, action)
        elif action == "agree_end":
            await self._answer_if_waiting(interaction, table_id)
            change = await self.fair_play.agree_to_end(table_id, interaction.user.id, place)
            await self.publisher.show_end_request(change, interaction)
        else:
            table = await self.tables.get(table_id, place)  # these only read it
            if action == "resign":
                await self.confirm_resign(interaction, table)
            elif action == "resign_no":
                await interaction.response.edit_message(
                    content=_("You're still in the game."), view=None
                )
            elif action == "rules":
                embed = table_rules_embed(self.games.shown(table.kind), table.snapshot())
                await interaction.response.send_message(embed=embed, ephemeral=True)
            else:
                raise StaleAction(_("That button is not part of this game."))

    async def confirm_resign(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """Ask a player still in the game to confirm that they resign (privately)."""
        if table.status != "running":
            raise StaleAction(_("That game is not running."))
        index = table.seat_of(interaction.user.id)
        if index is None:
            raise UserError(_("You're not playing in this game."))
        if not table.playing(index):
            raise UserError(_("You have already left this game."))
        await self.publisher.ask_resign(interaction, table)

    async def resign_command(
        self,
        interaction: discord.Interaction[Any],
        table_id: int | None,
        group: CommandGroup | None = None,
    ) -> None:
        table = await self.find_table(interaction, table_id, playing=True, group=group)
        await self.confirm_resign(interaction, table)

    async def end_game(
        self,
        interaction: discord.Interaction[Any],
        table_id: int | None,
        group: CommandGroup | None = None,
    ) -> None:
        table = await self.find_table(interaction, table_id, group=group)
        user = interaction.user
        change = await self.fair_play.end(
            table.id, user.id, is_admin(interaction), user.display_name
        )
        if change.end_requested:
            await self.publisher.post_end_request(interaction, change)
            return
        async with self.publisher.languages.public(change.table):  # a public answer
            ended = _(ENDED, id=table.id)
        await self.publisher.answer_ended(interaction, change.table, ended)

    async def find_table(
        self,
        interaction: discord.Interaction[Any],
        table_id: int | None,
        playing: bool = False,
        group: CommandGroup | None = None,
    ) -> Table:
        """The game a command names, or the one in this channel (the member's own first;
        with ``playing``, the one the member plays in). ``group``: the command's game
        (``/board end`` reaches board games only)."""
        if table_id is not None:
            table = await self.tables.get(table_id)
            if table.row.guild_id != guild_of(interaction):
                raise UserError(_("There is no such game on this server."))
            if group is not None and not group.covers(table.row.game_key):
                title = self.games.shown(table.kind).title(table.settings)
                raise UserError(
                    _(
                        "Game #%(id)s is %(game)s, not a %(command)s game.",
                        id=table.id,
                        game=title,
                        command="/" + pgettext("command", group.name),
                    )
                )
            return table
        assert interaction.channel_id is not None
        tables = await self.tables.live_in_channel(interaction.channel_id)
        if group is not None:
            tables = [t for t in tables if group.covers(t.row.game_key)]
            if not tables:
                raise UserError(
                    _(
                        "There is no %(command)s game in this channel.",
                        command="/" + pgettext("command", group.name),
                    )
                )
        if not tables:
            raise UserError(_("There is no game in this channel."))
        user = interaction.user.id
        mine = [
            t for t in tables if (t.seat_of(user) is not None if playing else t.row.host_id == user)
        ]
        if len(tables) > 1 and len(mine) != 1:
            ids = ", ".join(f"#{t.id}" for t in tables)
            raise UserError(
                _(
                    "Several games are here (%(ids)s); say which with the %(option)s option.",
                    ids=ids,
                    option=pgettext("option", GAME_OPTION),
                )
            )
        return (mine or tables)[0]
