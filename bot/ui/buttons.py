"""The persistent game button: one ``DynamicItem`` answers every custom_id of the form
``t:<table>:<version, L for the lobby or T for the table>:<action>`` (drawn by
``bot.render.view``), after a restart too. The callback hands the click to the router with
its table id; the table service reads the table once, under its lock, and checks there that
the click comes from the table's own place (``Place``)."""

from __future__ import annotations

import re
import time
from typing import Any

import discord

from bot import metrics
from bot.errors import UserError
from bot.i18n.speaking import N_, _
from bot.render.common import every_language
from bot.render.view import LOBBY, TABLE
from bot.ui.errors import handle_error, reply_private
from bot.ui.shell import shell_of

NOT_THIS_MESSAGE = N_("That button doesn't belong to this message.")


class GameButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"t:(?P<table>[0-9]{1,19}):(?P<version>[0-9]{1,9}|L|T):(?P<action>[a-z0-9_]{1,32})",
):
    def __init__(self, table_id: int, version: int | str, action: str) -> None:
        super().__init__(discord.ui.Button(custom_id=f"t:{table_id}:{version}:{action}"))
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
        version: int | str = match["version"]
        if version not in (LOBBY, TABLE):
            version = int(version)
        return cls(int(match["table"]), version, match["action"])

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        # A select with a button's id: the bot's on_interaction refuses it. Where the click
        # comes from, and on which public message, is checked by the table service, on the
        # copy it reads (``Place``). A private message (seen by its owner alone) holds only
        # a few of a table's buttons: the hand's, the host panel's Change settings, the
        # resign question's; any other pressed there is forged and would redraw it.
        if not is_button(interaction):
            return False
        message = interaction.message
        if message is not None and message.flags.ephemeral and not self._private(interaction):
            await reply_private(interaction, _(NOT_THIS_MESSAGE))
            return False
        return True

    def _private(self, interaction: discord.Interaction[Any]) -> bool:
        """Whether this button belongs on the private message pressed: the host's panel of
        this table (Change settings), the question to resign from this game, or a hand (a
        game's private buttons)."""
        from bot.ui.endings import RESIGN_QUESTION  # they draw the buttons this one answers
        from bot.ui.lobby_host import PANEL_TITLE

        message = interaction.message
        assert message is not None
        ident = {"id": self.table_id}
        if self.version == LOBBY and self.action == "settings":
            titles = tuple(f"{t} #{self.table_id}" for t in every_language(PANEL_TITLE))
            return any((e.title or "") == title for e in message.embeds for title in titles)
        if self.version == TABLE and self.action in ("resign_yes", "resign_no"):
            asked = tuple(q % ident for q in every_language(RESIGN_QUESTION))
            return (message.content or "").startswith(asked)
        if self.version in (LOBBY, TABLE):
            return False
        return shell_of(interaction).router.games.may_be_private(self.action)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        router = shell_of(interaction).router
        kind = "lobby" if self.version == LOBBY else "table" if self.version == TABLE else "turn"
        began, outcome = time.perf_counter(), "ok"
        try:
            with metrics.ANSWERING:  # the web pages wait meanwhile (bot.web.guard)
                if self.version == LOBBY:
                    await router.on_lobby_click(interaction, self.table_id, self.action)
                elif self.version == TABLE:
                    await router.on_table_click(interaction, self.table_id, self.action)
                else:
                    assert isinstance(self.version, int)
                    await router.on_turn_click(
                        interaction, self.table_id, self.version, self.action
                    )
        except Exception as exc:
            outcome = "refused" if isinstance(exc, UserError) else "error"
            await handle_error(interaction, exc, f"on button {self.action} of game {self.table_id}")
        finally:
            metrics.CLICKS.labels(kind, outcome).inc()
            metrics.CLICK_SECONDS.labels(kind).observe(time.perf_counter() - began)


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
