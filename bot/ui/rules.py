"""The rules as an embed: ``/rules`` and the Rules button of every turn message."""

from __future__ import annotations

from typing import Any

import discord

from bot.games.base import Game, RulesPage
from bot.render.common import COLOUR
from bot.tables.model import TableSnapshot


def rules_embed(page: RulesPage, bot_levels: dict[str, str] | None = None) -> discord.Embed:
    """One page of ``/rules``, with how each bot-player level plays when the game has any."""
    embed = discord.Embed(title=f"Rules · {page.title}", description=page.text, colour=COLOUR)
    if bot_levels:  # the lobby lists them; here is how each plays
        embed.add_field(
            name="Bot players",
            value="\n".join(f"**{lv}**: {text}" for lv, text in bot_levels.items()),
            inline=False,
        )
    return embed


def table_rules_embed(game: Game[Any], table: TableSnapshot) -> discord.Embed:
    """The rules of this table's game and variant (the Rules button): what this table was
    set up with, then its variant's page (what differs, read first), then the game's own."""
    pages = game.table_rules(table)
    lead = pages[-1]
    parts = [f"**{p.title}**\n{p.text}" for p in reversed(pages)] if len(pages) > 1 else [lead.text]
    settings = game.describe_settings(table.settings)
    if settings:
        parts.insert(0, f"**This table** (game #{table.id}): {settings}")
    embed = discord.Embed(
        title=f"Rules · {lead.title}", description="\n\n".join(parts)[:4096], colour=COLOUR
    )
    embed.set_footer(text="Turns, timers, forfeits, ending early: /rules game:tables")
    return embed
