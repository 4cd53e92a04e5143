"""``/notify``: where a member's turn reminders come, the game's thread or a direct message."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import SequencesBot
from bot.i18n.speaking import N_, _
from bot.render.common import NO_PINGS
from bot.tables.reminders import DM, THREAD

log = logging.getLogger(__name__)

# Whole sentences per place: a language words "in the thread" and "by DM" its own way.
SET_TEXT = {
    THREAD: N_("Your turn reminders on this server now come in the game's thread."),
    DM: N_("Your turn reminders on this server now come by direct message."),
}
SHOWN_TEXT = {
    THREAD: N_(
        "Your turn reminders on this server come in the game's thread. `/notify where:` changes it."
    ),
    DM: N_(
        "Your turn reminders on this server come by direct message. `/notify where:` changes it."
    ),
}
# TRANSLATORS: the test direct message of /notify; %(guild)s is the server's name.
DM_TEXT = N_("Your turn reminders from %(guild)s come here now.")
DM_CLOSED = N_(
    "I can't send you direct messages (your Privacy Settings for this server), so they still "
    "come in the game's thread until you allow them."
)


class Notify(commands.Cog):
    def __init__(self, bot: SequencesBot) -> None:
        self.bot = bot

    @app_commands.command(name="notify", description="Where your turn reminders come")
    @app_commands.guild_only()  # a choice per server: its games' reminders
    @app_commands.describe(where="In the game's thread or by direct message; empty: your choice")
    @app_commands.choices(
        where=[
            app_commands.Choice(name="In the game's thread", value=THREAD),
            app_commands.Choice(name="By direct message", value=DM),
        ]
    )
    async def notify(
        self,
        interaction: discord.Interaction[SequencesBot],
        where: app_commands.Choice[str] | None = None,
    ) -> None:
        reminders = self.bot.shell.reminders
        assert interaction.guild_id is not None
        user = interaction.user
        if where is None:
            via = await reminders.via(interaction.guild_id, user.id)
            await interaction.response.send_message(_(SHOWN_TEXT[via]), ephemeral=True)
            return
        await reminders.set_via(interaction.guild_id, user.id, where.value)
        text = _(SET_TEXT[where.value])
        if where.value == DM:
            # Tried now, so a member whose DMs are closed hears it from this answer, not
            # from a missing reminder (a refused reminder goes to the thread, quietly).
            await interaction.response.defer(ephemeral=True, thinking=True)
            guild = interaction.guild.name if interaction.guild else _("this server")
            try:
                await user.send(_(DM_TEXT, guild=guild), allowed_mentions=NO_PINGS)
            except discord.HTTPException as exc:
                log.info("notify: test DM to a member refused (%s %s)", exc.status, exc.code)
                text += " " + _(DM_CLOSED)
            await interaction.followup.send(text, ephemeral=True)
            return
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: SequencesBot) -> None:
    await bot.add_cog(Notify(bot))
