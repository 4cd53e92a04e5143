"""What the commands' pages share on the Discord side (``/history``, ``/replay``,
``/leaderboard``, ``/odds``): a persistent button knows its own message in any language."""

from __future__ import annotations

from typing import Any

import discord

from bot.ui.checks import on_own_message


async def on_own_page(interaction: discord.Interaction[Any], titles: tuple[str, ...]) -> bool:
    """``on_own_message`` for a page whose title starts with one of ``titles``, the same
    title in each language (``bot.render.common.every_language``, English first): the page
    was drawn in its reader's language, and whoever presses may read another."""
    message = interaction.message
    if message is not None and any(
        (embed.title or "").startswith(titles) for embed in message.embeds
    ):
        return True
    return await on_own_message(interaction, titles[0])  # refuses, privately
