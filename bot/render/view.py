"""Game buttons as Discord components: a custom_id ``t:<table>:<version or L>:<action>`` carries all
a click needs, so it is answered from the database alone, after a restart too
(``bot.ui.buttons.GameButton``)."""

from __future__ import annotations

from typing import Any

import discord

from bot.records import Button

LOBBY = "L"
TABLE = "T"  # a table action that no turn makes stale (Resign, Agree to end)
MAX_BUTTONS = 25  # 5 action rows of 5: what one Discord message holds
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
    """The buttons drawn at ``version``, then ``table_buttons`` (never stale). More than Discord's
    25 raises ``ValueError``: a button cut off would be a move nobody can make."""
    drawn = [(version, b) for b in buttons] + [(TABLE, b) for b in table_buttons]
    if len(drawn) > MAX_BUTTONS:
        actions = ", ".join(b.action for _, b in drawn)
        raise ValueError(
            f"{len(drawn)} buttons for table {table_id}, over {MAX_BUTTONS}: {actions}"
        )
    view = discord.ui.View(timeout=None)
    for at, b in drawn:
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
