"""The persistent game button: one ``DynamicItem`` answers every custom_id of the form
``t:<table>:<version, L for the lobby or T for the table>:<action>`` (drawn by
``bot.render.view``), after a restart too. ``interaction_check`` reads the table once and
checks the click comes from the
table's own place; the callback hands the click to the router."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.errors import StaleAction, UserError
from bot.render.view import LOBBY, TABLE
from bot.tables.model import Table
from bot.ui.anywhere import guild_of
from bot.ui.errors import handle_error, reply_private
from bot.ui.shell import shell_of


class GameButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"t:(?P<table>[0-9]{1,19}):(?P<version>[0-9]{1,9}|L|T):(?P<action>[a-z0-9_]{1,32})",
):
    def __init__(self, table_id: int, version: int | str, action: str) -> None:
        super().__init__(discord.ui.Button(custom_id=f"t:{table_id}:{version}:{action}"))
        self.table_id = table_id
        self.version = version
        self.action = action
        self.table: Table | None = None

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GameButton:
        version: int | str = match["version"]
        if version not in (LOBBY, TABLE):
            version = int(version)
        return cls(int(match["table"]), version, match["action"])

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """A click must come from the table's own server and channel (or its thread): a
        custom_id copied from elsewhere, or forged, changes nothing."""
        if not is_button(interaction):
            return False  # a select with a button's id: the bot's on_interaction refuses it
        try:
            table = await shell_of(interaction).tables.get(self.table_id)
            row = table.row
            if guild_of(interaction) != row.guild_id or interaction.channel_id not in (
                row.channel_id,
                row.thread_id,
            ):
                raise StaleAction("That button belongs to a game somewhere else.")
        except UserError as exc:
            await reply_private(interaction, str(exc))
            return False
        except Exception as exc:
            await handle_error(interaction, exc, f"on button {self.action} of game {self.table_id}")
            return False
        self.table = table
        return True

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        router = shell_of(interaction).router
        assert self.table is not None  # set by interaction_check
        try:
            if self.version == LOBBY:
                await router.on_lobby_click(interaction, self.table, self.action)
            elif self.version == TABLE:
                await router.on_table_click(interaction, self.table, self.action)
            else:
                assert isinstance(self.version, int)
                await router.on_turn_click(interaction, self.table, self.version, self.action)
        except Exception as exc:
            await handle_error(interaction, exc, f"on button {self.action} of game {self.table_id}")


def is_button(interaction: discord.Interaction[Any]) -> bool:
    """Whether the component used is a button (every component of the bot is one)."""
    data: Any = interaction.data or {}
    return bool(data.get("component_type") == discord.ComponentType.button.value)


def is_known_custom_id(
    custom_id: str, templates: list[tuple[re.Pattern[str], int]], component_type: object
) -> bool:
    """Whether some persistent item of the bot answers this component: one whose template
    matches the custom_id and whose kind (a button, or the lobby panel's select) is the
    component's. The bot keeps no in-memory view, so discord.py's 32-hex ids are never its
    own, and a select carrying a game button's id is forged."""
    return any(
        component_type == kind and template.fullmatch(custom_id) for template, kind in templates
    )
