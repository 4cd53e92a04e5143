"""The one error path for interactions: user errors privately, everything else apologised."""

from __future__ import annotations

import logging

import discord

from bot.errors import UserError

log = logging.getLogger("bot.errors")

APOLOGY = "Sorry, something went wrong on our side. The game is safe; please try again."


async def reply_private(interaction: discord.Interaction, text: str) -> None:
    text = text[:1900]
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not send a private reply (interaction %s)", interaction.id)


async def handle_error(
    interaction: discord.Interaction, error: BaseException, context: str = ""
) -> None:
    original = getattr(error, "original", None) or error
    if isinstance(original, UserError):
        await reply_private(interaction, str(original))
        return
    if isinstance(original, discord.app_commands.CheckFailure):
        await reply_private(interaction, str(original) or "You can't use that here.")
        return
    log.error(
        "unexpected error %s (user %s, guild %s)",
        context,
        interaction.user.id,
        interaction.guild_id,
        exc_info=original,
    )
    await reply_private(interaction, APOLOGY)
