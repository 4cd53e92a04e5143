"""The rules as an embed: ``/rules`` and the Rules button of every turn message."""

from __future__ import annotations

from typing import Any

import discord

from bot.games.base import Game, RulesPage
from bot.games.terms import bot_level
from bot.i18n.speaking import _
from bot.render.common import COLOUR
from bot.tables.model import TableSnapshot


def page_text(text: str) -> str:
    """A rules page's text in the reader's language: its own message (``N_`` where the
    page is defined), else paragraph by paragraph, else line by line, for a page whose
    pieces are marked one by one and joined."""
    whole = _(text)
    if whole != text or not text:
        return whole
    return "\n\n".join(
        _(paragraph)
        if _(paragraph) != paragraph
        else "\n".join(_(line) for line in paragraph.split("\n"))
        for paragraph in text.split("\n\n")
    )


def rules_embed(page: RulesPage, bot_levels: dict[str, str] | None = None) -> discord.Embed:
    """One page of ``/rules``, with how each bot-player level plays when the game has any."""
    embed = discord.Embed(
        # TRANSLATORS: the title of a /rules page; %(title)s is the game's or page's name.
        title=_("Rules · %(title)s", title=_(page.title)),
        description=page_text(page.text),
        colour=COLOUR,
    )
    if bot_levels:  # the lobby lists them; here is how each plays
        embed.add_field(
            name=_("Bot players"),
            value="\n".join(f"**{bot_level(lv)}**: {_(text)}" for lv, text in bot_levels.items()),
            inline=False,
        )
    return embed


def table_rules_embed(game: Game[Any], table: TableSnapshot) -> discord.Embed:
    """The rules of this table's game and variant (the Rules button): what this table was
    set up with, then its variant's page (what differs, read first), then the game's own."""
    pages = game.table_rules(table)
    lead = pages[-1]
    parts = (
        [f"**{_(p.title)}**\n{page_text(p.text)}" for p in reversed(pages)]
        if len(pages) > 1
        else [page_text(lead.text)]
    )
    settings = game.describe_settings(table.settings)
    if settings:
        # TRANSLATORS: first line of a table's rules; %(settings)s lists how it was set up.
        parts.insert(
            0, _("**This table** (game #%(id)s): %(settings)s", id=table.id, settings=settings)
        )
    embed = discord.Embed(
        title=_("Rules · %(title)s", title=_(lead.title)),
        description="\n\n".join(parts)[:4096],
        colour=COLOUR,
    )
    embed.set_footer(text=_("Turns, timers, forfeits, ending early: /rules game:tables"))
    return embed
