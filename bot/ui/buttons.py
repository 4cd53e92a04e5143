"""Persistent buttons. Each custom_id carries the table, the version it was drawn at and the
action, so a click is answered from the database alone: after a restart, with no view in
memory. Format: ``t:<table>:<version or L for lobby>:<action>`` (well under 100 chars)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.tables.kinds import Button
from bot.ui.errors import handle_error

if TYPE_CHECKING:
    from bot.app import SequencesBot

LOBBY = "L"
STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def custom_id(table_id: int, version: int | str, action: str) -> str:
    return f"t:{table_id}:{version}:{action}"


class GameButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"t:(?P<table>[0-9]{1,19}):(?P<version>[0-9]{1,9}|L):(?P<action>[a-z0-9_]{1,32})",
):
    def __init__(
        self,
        table_id: int,
        version: int | str,
        action: str,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        row: int | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80] or None,
                style=style,
                emoji=emoji,
                row=row,
                disabled=disabled,
                custom_id=custom_id(table_id, version, action),
            )
        )
        self.table_id = table_id
        self.version = version
        self.action = action

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GameButton:
        assert isinstance(item, discord.ui.Button)
        version: int | str = match["version"]
        if version != LOBBY:
            version = int(version)
        return cls(
            int(match["table"]),
            version,
            match["action"],
            label=item.label or "",
            style=item.style,
            emoji=str(item.emoji) if item.emoji else None,
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot: SequencesBot = interaction.client
        try:
            await bot.presenter.check_place(interaction, self.table_id)
            if self.version == LOBBY:
                await bot.presenter.on_lobby_click(interaction, self.table_id, self.action)
            else:
                assert isinstance(self.version, int)
                await bot.presenter.on_turn_click(
                    interaction, self.table_id, self.version, self.action
                )
        except Exception as exc:
            await handle_error(interaction, exc, f"on button {self.action} of game {self.table_id}")


def is_known_custom_id(custom_id: str, templates: list[re.Pattern[str]]) -> bool:
    """Whether some persistent item of the bot answers ``custom_id`` (or it is one of
    discord.py's own 32-hex ids for an in-memory view)."""
    return bool(_AUTO_ID.fullmatch(custom_id)) or any(t.fullmatch(custom_id) for t in templates)


_AUTO_ID = re.compile(r"[0-9a-f]{32}")


def build_view(table_id: int, version: int | str, buttons: list[Button]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for b in buttons[:25]:
        view.add_item(
            GameButton(
                table_id,
                version,
                b.action,
                label=b.label,
                style=STYLES[b.style],
                emoji=b.emoji,
                row=b.row,
                disabled=b.disabled,
            )
        )
    return view
