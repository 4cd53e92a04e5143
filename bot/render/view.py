"""Game buttons as Discord components. Each custom_id carries the table, the version it was
drawn at and the action, so a click is answered from the database alone: after a restart,
with no view in memory. Format: ``t:<table>:<version or L for lobby>:<action>``; the
``GameButton`` in ``bot.ui.buttons`` answers every id of this form."""

from __future__ import annotations

from typing import Any

import discord

from bot.records import Button

LOBBY = "L"
TABLE = "T"  # a table action that no turn makes stale (Resign, Agree to end)
STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def custom_id(table_id: int, version: int | str, action: str) -> str:
    return f"t:{table_id}:{version}:{action}"


def build_view(
    table_id: int,
    version: int | str,
    buttons: list[Button],
    table_buttons: list[Button] = (),  # type: ignore[assignment]
) -> discord.ui.View:
    """The buttons drawn at ``version`` and, after them, ``table_buttons`` (drawn with
    ``TABLE`` in place of the version: pressing them is never stale)."""
    view = discord.ui.View(timeout=None)
    drawn = [(version, b) for b in buttons] + [(TABLE, b) for b in table_buttons]
    for at, b in drawn[:25]:
        item: discord.ui.Button[Any] = discord.ui.Button(
            label=b.label[:80] or None,
            style=STYLES[b.style],
            emoji=b.emoji,
            row=b.row,
            disabled=b.disabled,
            custom_id=custom_id(table_id, at, b.action),
        )
        view.add_item(item)
    return view
