"""Chips: ``/wallet``, ``/daily``, ``/pay`` and ``/chips grant|take`` (Manage Server)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import SequencesBot
from bot.errors import UserError
from bot.i18n.speaking import N_, _
from bot.render.common import NO_PINGS, chips
from bot.render.standings import wallet_embed
from bot.tables import wallets
from bot.tables.names import clean_name
from bot.ui.checks import require_admin
from bot.ui.i18n import publicly
from bot.ui.members import remember

MAX_REASON = wallets.MAX_REASON
# TRANSLATORS: /chips grant and take, said in the channel; %(reason)s is the admin's reason.
GRANTED = N_("%(who)s granted %(member)s %(amount)s (%(reason)s).")
TAKEN = N_("%(who)s removed %(amount)s from %(member)s (%(reason)s).")
# TRANSLATORS: /chips grant and take, the admin's own answer after the line in the channel.
BALANCE_NOW = N_("%(member)s has %(balance)s now.")
Amount = app_commands.Range[int, 1, wallets.MAX_AMOUNT]


def only_pings(member: discord.abc.User) -> discord.AllowedMentions:
    """Notify ``member`` and nobody else: never @everyone, @here or a role, whatever a
    reason says (explicit here, not left to the client's default)."""
    return discord.AllowedMentions(everyone=False, roles=False, users=[member], replied_user=False)


def _guild(interaction: discord.Interaction[SequencesBot]) -> int:
    if interaction.guild_id is None:
        raise UserError(_("Chips belong to a server: use this in a server channel."))
    return interaction.guild_id


def _human(member: discord.abc.User) -> None:
    if member.bot:
        raise UserError(_("Bots don't hold chips."))


class Economy(commands.Cog):
    def __init__(self, bot: SequencesBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="wallet", description="Your chips (or a member's) and their latest changes"
    )
    @app_commands.describe(member="Whose wallet (default: yours)")
    @app_commands.guild_only()
    async def wallet(
        self, interaction: discord.Interaction[SequencesBot], member: discord.Member | None = None
    ) -> None:
        guild_id = _guild(interaction)
        who = member or interaction.user
        _human(who)
        await remember(self.bot.shell, guild_id, who)
        now = self.bot.clock()
        view = await wallets.get_wallet(self.bot.db, guild_id, who.id, now=now)
        await interaction.response.send_message(
            embed=wallet_embed(view, clean_name(who.display_name), now),
            ephemeral=True,
            allowed_mentions=NO_PINGS,
        )

    @app_commands.command(name="daily", description="Collect your daily chips (once a UTC day)")
    @app_commands.guild_only()
    async def daily(self, interaction: discord.Interaction[SequencesBot]) -> None:
        guild_id = _guild(interaction)
        await remember(self.bot.shell, guild_id, interaction.user)
        now = self.bot.clock()
        balance = await wallets.claim_daily(self.bot.db, guild_id, interaction.user.id, now=now)
        next_time = f"<t:{int(wallets.next_daily(now))}:R>"
        # A private answer: a balance is the member's own (README: who reads what).
        await interaction.response.send_message(
            # TRANSLATORS: %(when)s is a Discord timestamp ("in 5 hours").
            _(
                "You collected %(chips)s: %(balance)s now. Next ones %(when)s.",
                chips=chips(wallets.DAILY_CHIPS),
                balance=chips(balance),
                when=next_time,
            ),
            ephemeral=True,
            allowed_mentions=NO_PINGS,
        )

    @app_commands.command(name="pay", description="Give some of your chips to a member")
    @app_commands.describe(member="Who gets the chips", amount="How many chips")
    @app_commands.guild_only()
    async def pay(
        self, interaction: discord.Interaction[SequencesBot], member: discord.Member, amount: Amount
    ) -> None:
        guild_id = _guild(interaction)
        _human(member)
        await remember(self.bot.shell, guild_id, interaction.user, member)
        balance = await wallets.pay(
            self.bot.db, guild_id, interaction.user.id, member.id, amount, now=self.bot.clock()
        )
        # The payee hears of it in the channel, in the server's words; what the payer has
        # left is theirs alone, in their own.
        async with publicly(interaction):
            line = _(
                "%(who)s paid %(member)s %(chips)s.",
                who=interaction.user.mention,
                member=member.mention,
                chips=chips(amount),
            )
        await interaction.response.send_message(line, allowed_mentions=only_pings(member))
        await interaction.followup.send(
            _("You have %(balance)s left.", balance=chips(balance)),
            ephemeral=True,
            allowed_mentions=NO_PINGS,
        )


# On the group, not the subcommands (Discord ignores those): hidden from members without
# Manage Server and from DMs. require_admin in _check is the check that counts.
@app_commands.default_permissions(manage_guild=True)
@app_commands.guild_only()
class Chips(
    commands.GroupCog,
    group_name="chips",
    group_description="Grant or remove members' chips (Manage Server)",
):
    def __init__(self, bot: SequencesBot) -> None:
        self.bot = bot
        super().__init__()

    def _check(self, interaction: discord.Interaction[SequencesBot], member: discord.Member) -> int:
        guild_id = _guild(interaction)
        require_admin(interaction, _("You need Manage Server to grant or remove chips."))
        _human(member)
        return guild_id

    @app_commands.command(name="grant", description="Add chips to a member's wallet")
    @app_commands.describe(member="Whose wallet", amount="How many chips", reason="Why")
    async def grant(
        self,
        interaction: discord.Interaction[SequencesBot],
        member: discord.Member,
        amount: Amount,
        reason: app_commands.Range[str, 1, MAX_REASON],
    ) -> None:
        await self._adjust(interaction, member, amount, reason, wallets.grant, GRANTED)

    @app_commands.command(name="take", description="Remove chips from a member's wallet")
    @app_commands.describe(member="Whose wallet", amount="How many chips", reason="Why")
    async def take(
        self,
        interaction: discord.Interaction[SequencesBot],
        member: discord.Member,
        amount: Amount,
        reason: app_commands.Range[str, 1, MAX_REASON],
    ) -> None:
        await self._adjust(interaction, member, amount, reason, wallets.take, TAKEN)

    async def _adjust(
        self,
        interaction: discord.Interaction[SequencesBot],
        member: discord.Member,
        amount: int,
        reason: str,
        change: Callable[..., Awaitable[int]],
        words: str,
    ) -> None:
        """Grant or take, recorded with who did it and why, announced publicly (the new
        balance is said to the admin alone)."""
        guild_id = self._check(interaction, member)
        # Discord enforces the option's length, a forged interaction need not: what is
        # echoed is what the ledger keeps.
        reason = reason[:MAX_REASON]
        await remember(self.bot.shell, guild_id, interaction.user, member)
        balance = await change(
            self.bot.db,
            guild_id,
            member.id,
            amount,
            actor_id=interaction.user.id,
            reason=reason,
            now=self.bot.clock(),
        )
        async with publicly(interaction):  # the channel's line: the server's words
            line = _(
                words,
                who=interaction.user.mention,
                member=member.mention,
                amount=chips(amount),
                reason=discord.utils.escape_markdown(reason),
            )
        await interaction.response.send_message(line, allowed_mentions=only_pings(member))
        await interaction.followup.send(
            _(BALANCE_NOW, member=member.mention, balance=chips(balance)),
            ephemeral=True,
            allowed_mentions=NO_PINGS,
        )


async def setup(bot: SequencesBot) -> None:
    await bot.add_cog(Economy(bot))
    await bot.add_cog(Chips(bot))
