"""How a game's end is told: the result lines in the thread and the parent channel (with
the pot), the private confirmation before resigning, and the public request to end a staked
game early, redrawn once it is over (after a restart too)."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.games.base import answer_update
from bot.games.words import won_by_forfeit
from bot.i18n.speaking import N_, _, number, pgettext, plural
from bot.records import Button
from bot.render.common import COLOUR, COLOUR_DONE, NO_PINGS
from bot.render.view import build_view
from bot.tables import wallets
from bot.tables.fair_play import FairPlay
from bot.tables.model import Change, Table
from bot.tables.names import md_name
from bot.tables.service import TableService
from bot.ui.compose import game_of
from bot.ui.delivery import Delivery
from bot.ui.errors import reply_private
from bot.ui.i18n import privately

log = logging.getLogger(__name__)

# The private question a Resign press answers with (its buttons check they are on it).
RESIGN_QUESTION = N_("Resign from game #%(id)s? You leave the game for good and rank last.")
# What a request to end early shows once it is over (``Table.end_request["over"]``).
REQUEST_OVER = {
    "expired": (
        N_("Request ran out"),
        N_(
            "%(host)s asked to end game #%(id)s early, but not everyone agreed within "
            "2 minutes. The game goes on."
        ),
    ),
    "left": (
        N_("Request void"),
        N_("%(host)s left the game, so the request to end game #%(id)s early is void."),
    ),
    "finished": (
        N_("Request void"),
        N_("Game #%(id)s finished before everyone agreed, so the request to end it early is void."),
    ),
    "closed": (
        N_("Request void"),
        N_("Game #%(id)s was closed, so the request to end it early is void."),
    ),
    "agreed": (N_("Game ended early"), N_("Ended early: %(host)s asked and everyone agreed.")),
}


class Endings:
    def __init__(
        self,
        client: discord.Client,
        tables: TableService,
        delivery: Delivery,
        fair_play: FairPlay,
    ) -> None:
        self.client = client
        self.tables = tables
        self.fair_play = fair_play
        self.delivery = delivery

    # --- results ---------------------------------------------------------------------

    async def finished(self, table: Table) -> None:
        await self.delivery.edit_lobby(table)
        game = game_of(table)
        results = (
            game.kind.results(table.rules, table.seats) if table.rules is not None else None
        ) or []
        winners = " & ".join(md_name(r.name) for r in results if r.won)
        scores = ", ".join(f"{who} {score}" for who, score in game.standings(table.snapshot()))
        # What decided a game the scores alone don't explain (a tie-break), said with them.
        note = game.result_note(table.snapshot()) if table.rules is not None else None
        values = {"game": game.title(table.settings), "id": table.id, "scores": scores}
        # Won because every other side left: say how, and the scores only if someone scored
        # (a resignation on the first turn is no 0-0 win).
        how = won_by_forfeit(table) if winners else None
        scored = any(score for _who, score in game.standings(table.snapshot()))
        if how and scored:
            # TRANSLATORS: %(how)s says who left and how: "Bo resigned", "Bo ran out of time".
            headline = _(
                "🏆 **%(winners)s** won %(game)s #%(id)s: %(how)s (%(scores)s).",
                winners=winners,
                how=how,
                **values,
            )
        elif how:
            headline = _(
                "🏆 **%(winners)s** won %(game)s #%(id)s: %(how)s.",
                winners=winners,
                how=how,
                game=values["game"],
                id=table.id,
            )
        elif winners:
            headline = _(
                "🏆 **%(winners)s** won %(game)s #%(id)s (%(scores)s).", winners=winners, **values
            )
        else:
            headline = _("🤝 Nobody won %(game)s #%(id)s (%(scores)s).", **values)
        headline += f" {note}." if note else ""
        pot = await self._pot_line(table)
        if pot:
            try:
                channel = await self.delivery.game_channel(table)
            except discord.HTTPException:
                channel = None  # the pot line also goes to the parent channel below
            if channel is not None:
                await self.delivery.send_quietly(
                    channel, pot + (f" {note}." if note else ""), table
                )
        if table.row.thread_id is None:
            return
        parent = self.client.get_channel(table.row.channel_id)
        if parent is not None:
            text = f"{headline} <#{table.row.thread_id}>" + (f"\n{pot}" if pot else "")
            await self.delivery.send_quietly(parent, text, table)

    async def _pot_line(self, table: Table) -> str | None:
        if not table.row.stake:
            return None
        net = await wallets.game_chips(self.tables.db, table.id)
        names = {s.user_id: md_name(s.name) for s in table.seats if s.user_id is not None}
        # What each winner received: their net gain plus their own stake back.
        received = {
            names.get(user, _("someone")): amount + table.row.stake
            for user, amount in net.items()
            if amount > 0
        }
        pot = table.row.stake * len(names)
        if not received:
            return plural(
                "💰 The pot of %(count)s chip went back to the players.",
                "💰 The pot of %(count)s chips went back to the players.",
                pot,
            )
        names_won = list(received)
        who = (
            names_won[0]
            if len(names_won) == 1
            else _("%(first)s and %(last)s", first=", ".join(names_won[:-1]), last=names_won[-1])
        )
        if len(received) == 1:
            return plural(
                "💰 %(who)s won the pot of %(count)s chip.",
                "💰 %(who)s won the pot of %(count)s chips.",
                pot,
                who=who,
            )
        shares = set(received.values())
        if len(shares) == 1:
            return plural(
                "💰 %(who)s won the pot of %(count)s chip: %(share)s each.",
                "💰 %(who)s won the pot of %(count)s chips: %(share)s each.",
                pot,
                who=who,
                share=number(shares.pop()),
            )
        return plural(
            "💰 %(who)s won the pot of %(count)s chip: %(shares)s.",
            "💰 %(who)s won the pot of %(count)s chips: %(shares)s.",
            pot,
            who=who,
            shares=", ".join(f"{name} {number(got)}" for name, got in received.items()),
        )

    # --- leaving and ending early -------------------------------------------------------

    async def ask_resign(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """The private confirmation before a player resigns."""
        view = build_view(
            table.id,
            "T",
            [
                Button("resign_yes", pgettext("button", "Resign"), "danger", emoji="🏳️"),
                Button("resign_no", pgettext("button", "Keep playing"), "secondary"),
            ],
        )
        text = _(RESIGN_QUESTION, id=table.id)
        if table.row.stake:
            text += " " + _("Your stake stays in the pot.")
        await interaction.response.send_message(
            text,
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
            (md_name(s.name) for s in table.seats if s.user_id == request.get("by")),
            _("The host"),
        )
        over = request.get("over")
        if over:
            title, text = REQUEST_OVER.get(over, REQUEST_OVER["closed"])
            embed = discord.Embed(
                title=_(title), description=_(text, host=host, id=table.id), colour=COLOUR_DONE
            )
            return {"embed": embed, "view": None}
        waiting = self.fair_play.waiting_to_agree(table)
        lines = [
            _(
                "%(host)s asks to end game #%(id)s early: no result, every stake refunded.",
                host=host,
                id=table.id,
            ),
            _(
                "Everyone still playing must agree <t:%(until)s:R>.",
                until=int(request.get("until", 0)),
            ),
            _("Waiting for: %(names)s.", names=", ".join(waiting)) if waiting else "",
        ]
        embed = discord.Embed(
            title=_("End the game early?"),
            description="\n".join(x for x in lines if x),
            colour=COLOUR,
        )
        agree = Button("agree_end", pgettext("button", "Agree to end"), "danger")
        view = build_view(table.id, "T", [agree])
        return {"embed": embed, "view": view}

    async def post_end_request(
        self, interaction: discord.Interaction[Any], change: Change
    ) -> Change:
        """The host asked to end a staked game: the request goes to the game's channel, the
        host is told privately. Returns the change to redraw the game at."""
        table = change.table
        await self.show_ended_request(table)  # an earlier one that had run out just now
        message = None
        try:
            channel = await self.delivery.game_channel(table)
            if channel is not None:
                message = await channel.send(
                    **self.end_request_message(table), allowed_mentions=NO_PINGS
                )
        except discord.HTTPException as exc:
            log.warning("game %s: end request not posted (%s)", table.id, exc.status)
        with privately(interaction):
            if message is None:
                line = _("I couldn't post the request in the game's channel; try again later.")
            else:
                line = _(
                    "The others in game #%(id)s have 2 minutes to agree; until then the game "
                    "goes on (you can still resign).",
                    id=table.id,
                )
        await reply_private(interaction, line)
        if message is not None:
            # Recorded, so that the message can say when the request is over (a restart
            # included); None: it is over already (a moment's race), its change shows it.
            assert table.end_request is not None
            placed = await self.fair_play.set_end_request_message(
                table.id, table.end_request["until"], message.channel.id, message.id
            )
            if placed is not None:
                change = placed
        return change

    async def show_agreement(self, change: Change, interaction: discord.Interaction[Any]) -> None:
        """An agreement was given: redraw the request through the click."""
        table = change.table
        if change.closed:
            await answer_update(
                interaction,
                **self.end_request_message(table, table.ended_request),
                allowed_mentions=NO_PINGS,
            )
            table.ended_request = None  # shown just now, by the click
            return
        await answer_update(
            interaction, **self.end_request_message(table), allowed_mentions=NO_PINGS
        )

    async def show_ended_request(self, table: Table) -> None:
        """Show the request to end early that this change ended as over (no button)."""
        request, table.ended_request = table.ended_request, None
        if request is not None:
            await self.show_request(table, request)

    async def show_request(self, table: Table, request: dict[str, Any]) -> None:
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
