"""What a table's public messages say and show: the lobby message, the table message (one
per game, edited at every change), the short ping of the player to move, and the closed
table. Values in, message payloads out: no Discord call is made here (``bot.ui.delivery``
sends them).

The board game's table message is drawn in Discord's Components V2 layout (``table_layout``):
a container with the accent of the side to move, the board in a media gallery, its button
right under it, and the table's buttons after a separator. The dice games keep the embed."""

from __future__ import annotations

import dataclasses
from typing import Any

import discord

from bot.games.base import Game, presentation
from bot.games.words import notice_line
from bot.i18n.speaking import N_, _
from bot.records import NO_GUILD, Button
from bot.render.common import COLOUR_DONE, NO_PINGS
from bot.render.view import LOBBY, build_view
from bot.tables import events as ev
from bot.tables.model import Table
from bot.ui.checks import missing_permissions
from bot.ui.lobby import WATCH_BUTTONS, labelled, lobby_buttons, lobby_embed, watching_text
from bot.ui.rematch_texts import rematch_view
from bot.ui.review_texts import review_button

RESIGN_BUTTON = Button("resign", N_("Resign"), "secondary", row=4, emoji="🏳️")
# Anyone may press it (players and onlookers): the game's rules, privately.
RULES_BUTTON = Button("rules", N_("Rules"), "secondary", row=4, emoji="📖")
# Spectators: the lobby's Watch buttons, on the table message's last row.
TABLE_WATCH_BUTTONS = [dataclasses.replace(b, row=4) for b in WATCH_BUTTONS]
# Kinds whose table message uses the Components V2 layout (``table_layout``).
LAYOUT_KINDS = frozenset({"board"})
TABLE_ROW = 4  # the row of the table's own buttons (Rules, Resign, Watch)


def outside_servers(table: Table) -> bool:
    """A table in a DM or group DM (``bot.ui.anywhere``): one message, no thread."""
    return table.row.guild_id == NO_GUILD


def game_of(table: Table) -> Game[Any]:
    return presentation(table.game)


def thread_name(table: Table) -> str:
    """The game's thread: the game's name and the table's number (Discord's 100 at most)."""
    return f"{game_of(table).title(table.settings)} #{table.id}"[:100]


def lobby_message(table: Table) -> dict[str, Any]:
    game, shown = game_of(table), table.snapshot()
    view = (
        build_view(table.id, LOBBY, lobby_buttons(game, shown)) if table.status == "lobby" else None
    )
    payload: dict[str, Any] = {"embed": lobby_embed(game, shown), "view": view}
    if table.status != "lobby":
        payload["content"] = None  # whom the lobby called (with:, its role) is past
    return payload


def uses_layout(table: Table) -> bool:
    """Whether the table message is drawn in the Components V2 layout."""
    return table.kind in LAYOUT_KINDS


def turn_message(table: Table) -> dict[str, Any]:
    """The table message as it is now (``file`` when it has a picture). It pings nobody:
    the player to move is mentioned by a short message of its own (``ping_message``), so the
    table message can be edited in place when the turn passes."""
    game = game_of(table)
    shown = game.turn_view(table.snapshot())
    embed, file = shown.embed, shown.file
    view = None
    if table.status == "running" and table.rules is not None:
        # Watching adds a member to the game's thread: a DM or group DM has none, and a
        # cross-server table has one per server.
        watch = [] if outside_servers(table) or table.crosses_servers else TABLE_WATCH_BUTTONS
        view = build_view(
            table.id,
            table.version,
            game.turn_buttons(table.rules),
            labelled([RULES_BUTTON, RESIGN_BUTTON, *watch]),
        )
    elif table.status == "finished" and not outside_servers(table):
        # A rematch needs a channel of the table's server: a cross-server table has none
        # (its players queue again), so it keeps only each player's own review.
        if table.crosses_servers:
            view = discord.ui.View(timeout=None) if game.reviewable else None
        else:
            view = rematch_view(table.id)  # the result message (bot.ui.rematch)
        if view is not None and game.reviewable:  # and each player's review (bot.ui.review)
            view.add_item(review_button(table.id))
    watching = watching_text(table)
    if watching and embed is not None and table.status == "running":
        footer = embed.footer.text
        embed.set_footer(text=f"{footer} · {watching}" if footer else watching)
    notice = notice_line(table.notice) if table.notice else None
    payload: dict[str, Any]
    if uses_layout(table):
        payload = {
            "content": None,
            "embed": None,
            "view": table_layout(embed, file, view, notice),
        }
    else:
        payload = {"content": notice, "embed": embed, "view": view}
    payload["allowed_mentions"] = NO_PINGS
    if file is not None:
        payload["file"] = file
    return payload


def table_layout(
    embed: discord.Embed,
    file: discord.File | None,
    view: discord.ui.View | None,
    notice: str | None = None,
) -> discord.ui.LayoutView:
    """The table message in the Components V2 layout, from what the embed would show: a
    container with the embed's accent; a notice, the title and description; the picture in a
    media gallery with the turn's buttons right under it; the fields and the footer; then,
    after a separator, the table's own buttons (row ``TABLE_ROW``). A dozen components for
    the board, 36 at most (``build_view`` draws 25 buttons at most), under Discord's 40; the
    texts are cut to 500 + 2,500 + 900 characters, under its 4,000."""
    ui = discord.ui
    layout = ui.LayoutView(timeout=None)
    box: ui.Container[Any] = ui.Container(accent_colour=embed.colour)
    title = f"### {embed.title}" if embed.title else None
    head = "\n".join(x for x in (title, embed.description) if x)
    if notice:
        box.add_item(ui.TextDisplay(notice[:500]))
    if head:
        box.add_item(ui.TextDisplay(head[:2500]))
    if file is not None:
        box.add_item(ui.MediaGallery(discord.MediaGalleryItem(f"attachment://{file.filename}")))
    rows: dict[int, list[ui.Item[Any]]] = {}
    for item in view.children if view is not None else ():
        rows.setdefault(item.row or 0, []).append(item)
    for row in sorted(r for r in rows if r != TABLE_ROW):
        box.add_item(ui.ActionRow(*rows[row]))
    details = [f"**{f.name}**\n{f.value}" for f in embed.fields]
    if embed.footer.text:
        details.append(f"-# {embed.footer.text}")
    if details:
        box.add_item(ui.TextDisplay("\n".join(details)[:900]))
    if TABLE_ROW in rows:
        box.add_item(ui.Separator())
        box.add_item(ui.ActionRow(*rows[TABLE_ROW]))
    layout.add_item(box)
    return layout


def ping_message(table: Table) -> tuple[int, dict[str, Any]] | None:
    """The short message that mentions the member to move (Discord notifies a mention only
    in a new message), with whom it pings; None when a bot or nobody is to move."""
    user_id = to_move(table)
    if user_id is None:
        return None
    # TRANSLATORS: keep the mention first and a comma after it (a restarted bot finds its
    # last pings so: bot.ui.pings.PING).
    return user_id, ping_payload(user_id, _("<@%(user)s>, your turn.", user=user_id))


def to_move(table: Table) -> int | None:
    """The member to move now; None when a bot or nobody is."""
    if table.status != "running" or table.rules is None:
        return None
    current = table.game.current_seat(table.rules)
    if current is None or table.seats[current].is_bot:
        return None
    return table.seats[current].user_id or 0


def ping_payload(user_id: int, text: str) -> dict[str, Any]:
    mention = discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(user_id)])
    return {"content": text, "allowed_mentions": mention}


def turn_edit(table: Table) -> dict[str, Any]:
    """``turn_message`` as an edit of the message already showing this turn."""
    payload = turn_message(table)
    payload.pop("allowed_mentions")
    if "file" in payload:  # an edit replaces the attachments
        payload["attachments"] = [payload.pop("file")]
    return payload


def closed_message(table: Table, line: str) -> dict[str, Any]:
    """What the table message becomes when the game is closed without a result: why, over
    the game as it stood (its scores, recent moves and picture stay: issue 31)."""
    embed = discord.Embed(title=_("Game closed"), description=line, colour=COLOUR_DONE)
    file = None
    if table.rules is not None:
        game, snapshot = game_of(table), table.snapshot()
        shown = game.turn_view(snapshot)
        embed.description = "\n".join([line, *game.closed_lines(snapshot)])
        if shown.embed is not None:
            for f in shown.embed.fields:
                # The recent moves end with the close, which the message says first.
                value = str(f.value).removesuffix(f"\n{line}")
                embed.add_field(name=f.name, value=value, inline=f.inline)
            if shown.embed.footer.text:
                embed.set_footer(text=shown.embed.footer.text)
        file = shown.file
    if uses_layout(table):
        return {
            "content": None,
            "embed": None,
            "view": table_layout(embed, file, None),
            "attachments": [file] if file is not None else [],
        }
    return {"content": None, "view": None, "embed": embed, "attachments": [file] if file else []}


def refusal(target: Any, exc: discord.HTTPException | None) -> ev.Refusal:
    """What Discord refused in ``target``: the permissions the bot lacks, or its answer."""
    return ev.Refusal(target.id, tuple(missing_permissions(target)), getattr(exc, "status", None))
