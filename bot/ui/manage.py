"""The persistent select of the lobby host's panel (``bot.ui.lobby_host``): a pick is
answered from its custom_id and the database alone, after a restart too."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.errors import StaleAction, UserError
from bot.i18n.speaking import _
from bot.ui.checks import on_own_message
from bot.ui.errors import handle_error
from bot.ui.lobby_host import PANEL_TITLE, on_pick, select
from bot.ui.shell import shell_of


class ManageSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"lm:(?P<table>[0-9]{1,19}):(?P<action>kick|host)",
):
    # What the bot's on_interaction accepts under this template (every other item of the
    # bot is a button).
    persistent_kind = discord.ComponentType.string_select

    def __init__(
        self,
        table_id: int,
        action: str,
        placeholder: str = "",
        options: list[discord.SelectOption] | None = None,
    ) -> None:
        super().__init__(select(table_id, action, placeholder, options or []))
        self.table_id = table_id
        self.action = action

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ManageSelect:
        return cls(int(match["table"]), match["action"])

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        data: Any = interaction.data or {}
        if data.get("component_type") != discord.ComponentType.string_select.value:
            return False  # a button with a select's id: on_interaction refuses it
        if not await on_own_message(interaction, PANEL_TITLE):
            return False  # a forged pick on the lobby must not redraw it as a panel
        try:
            table = await shell_of(interaction).tables.get(self.table_id)
            if interaction.guild_id != table.row.guild_id or interaction.channel_id != (
                table.row.channel_id
            ):
                raise StaleAction(_("That panel belongs to a table somewhere else."))
        except Exception as exc:
            await handle_error(interaction, exc, f"on the panel of game {self.table_id}")
            return False
        return True

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        data: Any = interaction.data or {}
        values = [str(v) for v in data.get("values", [])]
        try:
            if len(values) != 1:
                raise UserError(_("Pick one seat."))
            publisher = shell_of(interaction).publisher
            await on_pick(interaction, publisher, self.table_id, self.action, values[0])
        except Exception as exc:
            await handle_error(interaction, exc, f"on {self.action} of game {self.table_id}")
