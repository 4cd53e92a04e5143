"""What a rematch says (bot.tables.rematch), and the Rematch button of a result message.

Kept apart from ``bot.ui.rematch`` (the button's callback, which reaches the shell) so that
the publisher and the lobby can draw them without importing the shell."""

from __future__ import annotations

from typing import Any

import discord

from bot.render.common import chips, relative_time
from bot.tables.model import Table, TableSnapshot
from bot.tables.rematch import NotAPlayer, RematchRefused

# rm:<finished game id>: ``bot.ui.rematch.RematchButton`` answers it, after a restart too.
CUSTOM_ID = "rm:{game}"
LABEL = "Rematch"
EMOJI = "🔁"

NOT_THIS_MESSAGE = "That button doesn't belong to this message."


def rematch_button(game_id: int) -> discord.ui.Button[Any]:
    return discord.ui.Button(
        label=LABEL,
        emoji=EMOJI,
        style=discord.ButtonStyle.success,
        custom_id=CUSTOM_ID.format(game=game_id),
    )


def rematch_view(game_id: int) -> discord.ui.View:
    """The result message's buttons: Rematch."""
    view = discord.ui.View(timeout=None)
    view.add_item(rematch_button(game_id))
    return view


def refusal(error: RematchRefused, game: Table) -> str:
    if isinstance(error, NotAPlayer):
        return f"Only the players of game #{game.id} can ask for its rematch."
    return f"Game #{game.id} has no result to play again."


def lobby_link(lobby: Table) -> str:
    row = lobby.row
    if row.lobby_message_id is None:  # still being posted (a press a moment after another)
        return f"table #{lobby.id} in <#{row.channel_id}>"
    return (
        f"table #{lobby.id}: https://discord.com/channels/{row.guild_id}/{row.channel_id}"
        f"/{row.lobby_message_id}"
    )


def opened(lobby: Table) -> str:
    """To the member who pressed Rematch, privately."""
    stake = f" and your stake of {chips(lobby.row.stake)} is held" if lobby.row.stake else ""
    others = (
        f" The others have until {relative_time(lobby.row.deadline)} to press Join."
        if lobby.held
        else ""
    )
    return f"{EMOJI} Rematch open, {lobby_link(lobby)}. You're seated{stake}.{others}"


def already(game: Table, lobby: Table) -> str:
    """To a later presser, privately: where the rematch the first press opened is."""
    where = lobby_link(lobby)
    if lobby.status == "lobby":
        return f"{EMOJI} Game #{game.id}'s rematch is already open: {where}."
    if lobby.status in ("running", "finished"):
        return f"{EMOJI} Game #{game.id}'s rematch has already started: {where}."
    return f"{EMOJI} Game #{game.id}'s rematch was called off: {where}."


def call(game: Table, lobby: Table) -> str:
    """The rematch lobby's content: who asked whom, pinging each member a seat is held for
    (the only ping). It stays as posted (edits of the lobby ping nobody), so it says what
    stays true; what to do is in the embed, redrawn with every change."""
    host = f"<@{lobby.row.host_id}>"
    asked = [f"<@{s.user_id}>" for s in lobby.held]
    line = f"{EMOJI} **Rematch of game #{game.id}**: {host}"
    if not asked:
        return line + " plays again."
    who = asked[0] if len(asked) == 1 else ", ".join(asked[:-1]) + " and " + asked[-1]
    return line + f" asks {who} to play again."


def held_field(table: TableSnapshot) -> tuple[str, str] | None:
    """A rematch lobby's field for seats still held (name, value); None when none is (an
    invitation's held seats are in the seat list, the lobby's call says what to press)."""
    if table.status != "lobby" or not table.held or table.rematch is None:
        return None
    # Who they are is in the seat list ("seat held"), in their places: here, what to press.
    stake = f" (your {chips(table.stake)} are staked then)" if table.stake else ""
    return (
        "Seats held for the last game's players",
        f"Press **Join** to take yours{stake} or **Leave** to pass. "
        "A seat not taken by the start is left out.",
    )
