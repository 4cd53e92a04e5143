"""``/odds`` as players read it: the advice and the chance that matters, and a persistent
**Full table** button (custom_id ``od:<ruleset>``) that shows the whole table in words to
whoever presses it, privately, after a restart too."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.errors import UserError
from bot.games.base import OddsPage
from bot.i18n.speaking import N_, _
from bot.render.common import COLOUR, every_language
from bot.ui.buttons import is_button
from bot.ui.errors import handle_error
from bot.ui.pages import on_own_page
from bot.ui.shell import Shell, shell_of

FOOTER = N_("Exact figures, not a simulation.")
# Every /odds answer's title, in the language it was drawn in (on_own_page checks its start).
# TRANSLATORS: an /odds answer's title; %(game)s is the game's name.
TITLE = N_("Odds · %(game)s")


class OddsButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"od:(?P<ruleset>[a-z]{1,16})"
):
    def __init__(self, ruleset: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=_("Full table"),
                style=discord.ButtonStyle.secondary,
                emoji="📋",
                custom_id=f"od:{ruleset}",
            )
        )
        self.ruleset = ruleset

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> OddsButton:
        return cls(match["ruleset"])

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        if not is_button(interaction):
            return False
        starts = tuple(title.split("%(game)s", 1)[0] for title in every_language(TITLE))
        return await on_own_page(interaction, starts)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            embed = table_embed(shell_of(interaction), self.ruleset)
            await interaction.response.send_message(embed=embed, ephemeral=True)
        except Exception as exc:
            await handle_error(interaction, exc, f"on the odds table of {self.ruleset}")


def _page(shell: Shell, ruleset: str) -> OddsPage:
    """The game's own /odds entry (``bot/games/<name>/odds.py``)."""
    page = shell.games.odds_pages.get(ruleset)
    if page is None:
        raise UserError(_("There are no odds for that game."))
    return page


def _title(shell: Shell, ruleset: str) -> str:
    return _(TITLE, game=shell.games.label(_page(shell, ruleset).game_key))


def odds_answer(shell: Shell, ruleset: str) -> tuple[discord.Embed, discord.ui.View]:
    """The /odds answer: advice and the chances, and the Full table button."""
    figures = _page(shell, ruleset).figures()
    embed = discord.Embed(
        title=_title(shell, ruleset), description="\n".join(figures.summary), colour=COLOUR
    )
    embed.set_footer(text=_(FOOTER))
    view = discord.ui.View(timeout=None)
    view.add_item(OddsButton(ruleset))
    return embed, view


def table_embed(shell: Shell, ruleset: str) -> discord.Embed:
    """The full table of a ruleset, in words, one short line each."""
    embed = discord.Embed(
        # TRANSLATORS: the title of /odds' Full table; %(title)s is "Odds · <game>".
        title=_("%(title)s · full table", title=_title(shell, ruleset)),
        description="\n".join(_page(shell, ruleset).figures().table),
        colour=COLOUR,
    )
    embed.set_footer(text=_(FOOTER))
    return embed
