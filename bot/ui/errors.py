"""The one error path for interactions: user errors privately, everything else apologised."""

from __future__ import annotations

import logging

import discord

from bot import metrics
from bot.errors import DatabaseUnavailable, UserError
from bot.i18n.speaking import N_, _
from bot.ui import texts  # noqa: F401  (registers the words of the table layer's refusals)

log = logging.getLogger("bot.errors")

APOLOGY = N_("Sorry, something went wrong on our side. The game is safe; please try again.")
# The database server is restarting or unreachable: nothing is half-done, and it is back soon.
TRY_AGAIN = N_(
    "⏳ The game database did not answer just now. Nothing was half-done: "
    "please try again in a few seconds."
)


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
    if isinstance(original, DatabaseUnavailable):
        metrics.DB_UNAVAILABLE.inc()
        log.warning("%s %s (user %s)", context or "interaction", original, interaction.user.id)
        await reply_private(interaction, _(TRY_AGAIN))
        return
    if isinstance(original, discord.app_commands.CheckFailure):
        await reply_private(interaction, str(original) or _("You can't use that here."))
        return
    log.error(
        "unexpected error %s (user %s, guild %s)",
        context,
        interaction.user.id,
        interaction.guild_id,
        exc_info=original,
    )
    await reply_private(interaction, _(APOLOGY))
