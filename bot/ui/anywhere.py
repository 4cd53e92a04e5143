"""Play anywhere: a dice game in a DM or group DM, through a member's own install of the app.

There the bot is no member of the channel: it cannot open a thread, post, or edit a message
by itself, only answer interactions. So such a table is one message, the answer to the
start command: the lobby, then (edited in place by every click's answer) the game, then its
result. Each click comes with a fresh token, valid 15 minutes, through which a change that
follows it (a bot player's move, a resignation confirmed privately) edits the message too.
A message that fell behind (no token was fresh: a restart, or a game nobody touched) is
brought up to date by the next click on it, which says so. There is no turn timer there
(``NO_GUILD`` tables, ``TableService.open_lobby``), so nothing moves while nobody clicks.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.games.base import answer_update
from bot.games.words import last_line
from bot.i18n.speaking import N_, _
from bot.render.common import NO_PINGS
from bot.tables.model import Change, Table
from bot.ui.compose import closed_message, lobby_message, to_move, turn_edit
from bot.ui.delivery import Delivery

log = logging.getLogger(__name__)

T = TypeVar("T")

# The commands a member may install to their own account and use in DMs and group DMs.
INSTALLS = app_commands.allowed_installs(guilds=True, users=True)
CONTEXTS = app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)


def anywhere(command: T) -> T:
    """Offer a command (or a command group's cog) in servers, DMs and group DMs, installed
    to a server or to a member's own account."""
    return INSTALLS(CONTEXTS(command))


TOKEN_SECONDS = 14 * 60 + 45  # an interaction token lives 15 minutes: use it a little less
TABLES_REMEMBERED = 10_000

# Words of a table outside servers.
HINT = N_("-# No turn timer here. Buttons showing an old turn? Press one to catch up.")
CAUGHT_UP = N_("This message had fallen behind; here is the game as it is now.")
NO_STAKES = N_("Stakes and leaderboards are for servers: start without a stake here.")
# TRANSLATORS: "Join" is the lobby's button of that name.
NO_INVITES = N_("Invitations are for servers: here, everyone in the chat can press Join.")


class Anywhere:
    """Shows the tables outside servers, through interactions only (``Publisher`` hands
    them here); ``delivery`` records where the game is and which version it shows."""

    def __init__(self, delivery: Delivery, clock: Callable[[], float]) -> None:
        self.delivery = delivery
        self.clock = clock
        # Per table: the freshest interaction answered on its message, and when.
        # (the ``TABLES_REMEMBERED`` most recent: an older table's token has run out anyway).
        self._tokens: OrderedDict[int, tuple[float, discord.Interaction[Any]]] = OrderedDict()

    def _remember(self, table: Table, interaction: discord.Interaction[Any]) -> None:
        self._tokens[table.id] = (self.clock(), interaction)
        self._tokens.move_to_end(table.id)
        while len(self._tokens) > TABLES_REMEMBERED:
            self._tokens.popitem(last=False)

    def _fresh(self, table: Table) -> discord.Interaction[Any] | None:
        held = self._tokens.get(table.id)
        if held is None or self.clock() - held[0] > TOKEN_SECONDS:
            return None
        return held[1]

    def _on_table(self, interaction: discord.Interaction[Any] | None, table: Table) -> bool:
        """Whether the interaction is a click on the table's own message, not yet answered
        (or deferred), so that its answer can be the table's redraw."""
        if interaction is None or interaction.message is None:
            return False
        deferred = discord.InteractionResponseType.deferred_message_update
        return interaction.message.id in (
            table.row.message_id,
            table.row.lobby_message_id,
        ) and interaction.response.type in (None, deferred)

    def message(self, table: Table, notice: str | None = None) -> dict[str, Any]:
        """What the table's one message shows now."""
        if table.row.message_id is None:  # still a lobby, or one that closed
            payload = lobby_message(table)
            payload["content"] = notice
            return payload
        if table.status not in ("running", "finished"):
            # Closed without a result: why, over the scores as they stood (issue 31).
            payload = closed_message(table, last_line(table) or _("Game over."))
            payload["content"] = notice
            return payload
        payload = turn_edit(table)
        user_id = to_move(table)  # named in the message: there is no ping outside servers
        turn = _("<@%(user)s>, your turn.", user=user_id) if user_id is not None else None
        hint = _(HINT) if table.status == "running" else None
        lines = [notice, payload.get("content"), turn, hint]
        payload["content"] = "\n".join(x for x in lines if x)
        return payload

    async def show(
        self,
        table: Table,
        interaction: discord.Interaction[Any] | None = None,
        notice: str | None = None,
    ) -> bool:
        """Redraw the table's message: as the click's answer if it was pressed on it, else
        through the freshest token; True if Discord took it."""
        payload = self.message(table, notice)
        if self._on_table(interaction, table):
            assert interaction is not None
            try:
                await answer_update(interaction, **payload, allowed_mentions=NO_PINGS)
            except discord.HTTPException as exc:
                log.info("game %s: click not answered (%s)", table.id, exc.code)
            else:
                self._remember(table, interaction)
                self.delivery.shown.mark(table)
                return True
        fresh = self._fresh(table)
        if fresh is None:
            log.info("game %s: no fresh token; the next click catches up", table.id)
            return False
        try:
            await fresh.edit_original_response(**payload, allowed_mentions=NO_PINGS)
        except discord.HTTPException as exc:
            log.info("game %s: not redrawn through its token (%s)", table.id, exc.code)
            return False
        self.delivery.shown.mark(table)
        return True

    async def posted(self, table: Table, interaction: discord.Interaction[Any]) -> None:
        """The start command's answer is the lobby: its token serves the table from now."""
        self._remember(table, interaction)

    async def started(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """Start pressed: the lobby's message becomes the game's."""
        assert table.row.lobby_message_id is not None
        await self.delivery.set_game_message(
            table, thread_id=None, message_id=table.row.lobby_message_id
        )
        await self.show(table, interaction)

    async def publish(self, change: Change, interaction: discord.Interaction[Any] | None) -> None:
        await self.show(change.table, interaction)
        if change.closed or change.finished:
            self._tokens.pop(change.table.id, None)

    async def catch_up(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """A click on a message that shows an older state: it now shows the current one."""
        await self.show(table, interaction, _(CAUGHT_UP))
