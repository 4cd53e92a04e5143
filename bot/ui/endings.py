"""How a game's end is told: the result lines in the thread and the parent channel (with
the pot), the private confirmation before resigning, and the public request to end a staked
game early, redrawn once it is over (after a restart too)."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.games.base import answer_update
from bot.records import Button
from bot.render.common import COLOUR, COLOUR_DONE, NO_PINGS
from bot.render.view import build_view
from bot.tables.model import Change, Table
from bot.tables.names import md_name
from bot.tables.service import TableService
from bot.tables.wallets import Wallets
from bot.ui.compose import game_of
from bot.ui.delivery import Delivery
from bot.ui.errors import reply_private

log = logging.getLogger(__name__)

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


class Endings:
    def __init__(
        self,
        client: discord.Client,
        tables: TableService,
        wallets: Wallets,
        delivery: Delivery,
    ) -> None:
        self.client = client
        self.tables = tables
        self.wallets = wallets
        self.delivery = delivery

    # --- results ---------------------------------------------------------------------

    async def finished(self, table: Table) -> None:
        await self.delivery.edit_lobby(table)
        game = game_of(table)
        results = (
            game.results(table.rules, table.seats) if table.rules is not None else None
        ) or []
        winners = " & ".join(md_name(r.name) for r in results if r.won)
        scores = ", ".join(f"{who} {score}" for who, score in game.standings(table.snapshot()))
        # What decided a game the scores alone don't explain (a tie-break), said with them.
        note = game.result_note(table.snapshot()) if table.rules is not None else None
        headline = (
            (f"🏆 **{winners}** won" if winners else "🤝 Nobody won")
            + f" {game.title(table.settings)} #{table.id} ({scores})."
            + (f" {note}." if note else "")
        )
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
