"""What a table's public messages say and show: the lobby message, the turn message (and
its edit), and the one line a finished turn becomes. Values in, message payloads out: no
Discord call is made here (``bot.ui.delivery`` sends them)."""

from __future__ import annotations

import dataclasses
from typing import Any

import discord

from bot.games.base import Game
from bot.games.words import event_line, is_result, notice_line
from bot.records import Button
from bot.render.common import COLOUR_DONE, NO_PINGS
from bot.render.view import LOBBY, build_view
from bot.tables import events as ev
from bot.tables.model import Table
from bot.tables.names import md_name
from bot.ui.anywhere import outside_servers
from bot.ui.checks import missing_permissions
from bot.ui.lobby import WATCH_BUTTONS, lobby_buttons, lobby_embed, watching_text
from bot.ui.rematch_texts import rematch_view

RESIGN_BUTTON = Button("resign", "Resign", "secondary", row=4, emoji="🏳️")
# Anyone may press it (players and onlookers): the game's rules, privately.
RULES_BUTTON = Button("rules", "Rules", "secondary", row=4, emoji="📖")
# Spectators: the lobby's Watch buttons, on the table message's last row.
TABLE_WATCH_BUTTONS = [dataclasses.replace(b, row=4) for b in WATCH_BUTTONS]


def game_of(table: Table) -> Game[Any]:
    game = table.game
    assert isinstance(game, Game), f"{table.kind} is a kind without presentation"
    return game


def lobby_message(table: Table) -> dict[str, Any]:
    game, shown = game_of(table), table.snapshot()
    view = (
        build_view(table.id, LOBBY, lobby_buttons(game, shown)) if table.status == "lobby" else None
    )
    payload: dict[str, Any] = {"embed": lobby_embed(game, shown), "view": view}
    if table.status != "lobby":
        payload["content"] = None  # whom the lobby called (with:, its role) is past
    return payload


def turn_message(table: Table) -> dict[str, Any]:
    """The public message for the table's current turn (``file`` when it has a picture)."""
    game = game_of(table)
    shown = game.turn_view(table.snapshot())
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


def turn_edit(table: Table) -> dict[str, Any]:
    """``turn_message`` as an edit of the message already showing this turn."""
    payload = turn_message(table)
    payload.pop("allowed_mentions")
    if "file" in payload:  # an edit replaces the attachments
        payload["attachments"] = [payload.pop("file")]
    return payload


def turn_summary(table: Table, seat: int | None = None) -> dict[str, Any]:
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


def refusal(target: Any, exc: discord.HTTPException | None) -> ev.Refusal:
    """What Discord refused in ``target``: the permissions the bot lacks, or its answer."""
    return ev.Refusal(target.id, tuple(missing_permissions(target)), getattr(exc, "status", None))
