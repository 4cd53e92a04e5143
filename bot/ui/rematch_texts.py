"""What a rematch says, and the Rematch button; apart from ``bot.ui.rematch`` so the publisher and
the lobby draw them without importing the shell."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n.speaking import N_, _, pgettext
from bot.render.common import chips, relative_time
from bot.tables.model import Table, TableSnapshot
from bot.tables.rematch import NotAPlayer, RematchRefused

# rm:<finished game id>: ``bot.ui.rematch.RematchButton`` answers it, after a restart too.
CUSTOM_ID = "rm:{game}"
EMOJI = "🔁"

NOT_THIS_MESSAGE = N_("That button doesn't belong to this message.")


def rematch_button(game_id: int) -> discord.ui.Button[Any]:
    return discord.ui.Button(
        label=pgettext("button", "Rematch"),
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
        return _("Only the players of game #%(id)s can ask for its rematch.", id=game.id)
    return _("Game #%(id)s has no result to play again.", id=game.id)


def lobby_link(lobby: Table) -> str:
    row = lobby.row
    if row.lobby_message_id is None:  # still being posted (a press a moment after another)
        return _("table #%(id)s in <#%(channel)s>", id=lobby.id, channel=row.channel_id)
    link = f"https://discord.com/channels/{row.guild_id}/{row.channel_id}/{row.lobby_message_id}"
    return _("table #%(id)s: %(link)s", id=lobby.id, link=link)


def opened(lobby: Table) -> str:
    """To the member who pressed Rematch, privately."""
    where = lobby_link(lobby)
    if lobby.row.stake:
        text = _(
            "%(emoji)s Rematch open, %(where)s. You're seated and your stake of %(chips)s is held.",
            emoji=EMOJI,
            where=where,
            chips=chips(lobby.row.stake),
        )
    else:
        text = _("%(emoji)s Rematch open, %(where)s. You're seated.", emoji=EMOJI, where=where)
    if lobby.held:
        # TRANSLATORS: "Join" is the lobby's button of that name.
        text += " " + _(
            "The others have until %(when)s to press Join.", when=relative_time(lobby.row.deadline)
        )
    return text


def already(game: Table, lobby: Table) -> str:
    """To a later presser, privately: where the rematch the first press opened is."""
    where = lobby_link(lobby)
    if lobby.status == "lobby":
        return _(
            "%(emoji)s Game #%(id)s's rematch is already open: %(where)s.",
            emoji=EMOJI,
            id=game.id,
            where=where,
        )
    if lobby.status in ("running", "finished"):
        return _(
            "%(emoji)s Game #%(id)s's rematch has already started: %(where)s.",
            emoji=EMOJI,
            id=game.id,
            where=where,
        )
    return _(
        "%(emoji)s Game #%(id)s's rematch was called off: %(where)s.",
        emoji=EMOJI,
        id=game.id,
        where=where,
    )


def call(game: Table, lobby: Table) -> str:
    """The rematch lobby's content: who asked whom, pinging each member a seat is held for
    (the only ping). It stays as posted (edits of the lobby ping nobody), so it says what
    stays true; what to do is in the embed, redrawn with every change."""
    host = f"<@{lobby.row.host_id}>"
    asked = [f"<@{s.user_id}>" for s in lobby.held]
    if not asked:
        return _(
            "%(emoji)s **Rematch of game #%(id)s**: %(host)s plays again.",
            emoji=EMOJI,
            id=game.id,
            host=host,
        )
    if len(asked) == 1:
        who = asked[0]
    else:
        who = _("%(first)s and %(last)s", first=", ".join(asked[:-1]), last=asked[-1])
    return _(
        "%(emoji)s **Rematch of game #%(id)s**: %(host)s asks %(who)s to play again.",
        emoji=EMOJI,
        id=game.id,
        host=host,
        who=who,
    )


def held_field(table: TableSnapshot) -> tuple[str, str] | None:
    """A rematch lobby's field for seats still held (name, value); None when none is (an
    invitation's held seats are in the seat list, the lobby's call says what to press)."""
    if table.status != "lobby" or not table.held or table.rematch is None:
        return None
    # Who they are is in the seat list ("seat held"), in their places: here, what to press.
    if table.stake:
        press = _(
            "Press **Join** to take yours (your %(chips)s are staked then) or **Leave** to pass.",
            chips=chips(table.stake),
        )
    else:
        press = _("Press **Join** to take yours or **Leave** to pass.")
    return (
        _("Seats held for the last game's players"),
        press + " " + _("A seat not taken by the start is left out."),
    )
