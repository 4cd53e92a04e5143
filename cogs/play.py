"""``/play queue|leave|block|unblock|blocked``: quick play (issue 36), within this server
(``where: here``) or across the servers that chose everywhere (``where: everywhere``). The
queue is a subcommand because Discord allows no options beside subcommands. The rules are in
``bot.tables.quickplay``, the buttons and what a matching pass shows in ``bot.ui.quickplay``."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import SequencesBot
from bot.errors import UserError
from bot.i18n.speaking import _
from bot.render.common import user_mention
from bot.tables.quickplay import BOT_AFTER_DEFAULT, BOT_AFTER_HIGH, BOT_AFTER_LOW, QuickPlay
from bot.ui.quickplay import leave_view, run_pass, wait_line
from bot.ui.reports import REASON_MAX, report_table
from bot.ui.tournaments import tournament_games

GAMES = [
    app_commands.Choice(name="Sequences (push your luck)", value="sequences"),
    app_commands.Choice(name="Sequences, one roll", value="classic"),
    app_commands.Choice(name="Hearts Due", value="heartsdue"),
    app_commands.Choice(name="Sequence, the board game", value="board"),
]
WHERE = [
    app_commands.Choice(name="here", value="here"),
    app_commands.Choice(name="everywhere", value="everywhere"),
]
VARIANTS = [
    app_commands.Choice(name="Standard", value="standard"),
    app_commands.Choice(name="Reverse", value="reverse"),
    app_commands.Choice(name="Sudden", value="sudden"),
    app_commands.Choice(name="Extended", value="extended"),
]


def game_key(game: str, variant: str | None) -> str:
    """The leaderboard key of the game and variant picked (what the queue and ratings use)."""
    if game == "sequences":
        return f"sequences:{variant or 'standard'}"
    if variant is not None:
        raise UserError(code="quick.variant")
    return game


@app_commands.guild_only()
class Play(commands.GroupCog, group_name="play", group_description="Quick play: find an opponent"):
    def __init__(self, bot: SequencesBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def quick(self) -> QuickPlay:
        quick = self.bot.shell.quickplay
        assert quick is not None  # set in cog_load
        return quick

    async def cog_load(self) -> None:
        shell = self.bot.shell
        shell.quickplay = QuickPlay(
            shell.tables, tournament_games(shell.games), shell.clock, shell.shards
        )
        self.bot.tick_steps.append(self._step)

    async def cog_unload(self) -> None:
        if self._step in self.bot.tick_steps:
            self.bot.tick_steps.remove(self._step)

    async def _step(self) -> None:
        await run_pass(self.bot, self.bot.shell)

    @app_commands.command(
        name="queue", description="Wait for an opponent near your rating, here or across servers"
    )
    @app_commands.describe(
        game="The game to play",
        variant="Sequences only: its variant (default standard)",
        bot_after="Seconds before a bot is offered if nobody comes (default 60)",
        where="here: this server (default), or every server on everywhere",
    )
    @app_commands.choices(game=GAMES, variant=VARIANTS, where=WHERE)
    @app_commands.rename(bot_after="bot-after")
    async def queue(
        self,
        interaction: discord.Interaction[SequencesBot],
        game: str,
        variant: str | None = None,
        bot_after: app_commands.Range[int, BOT_AFTER_LOW, BOT_AFTER_HIGH] = BOT_AFTER_DEFAULT,
        where: str = "here",
    ) -> None:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        key = game_key(game, variant)
        queued = await self.quick.join(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id,
            user_id=interaction.user.id, name=interaction.user.display_name, game_key=key,
            bot_after=bot_after, everywhere=where == "everywhere",
        )  # fmt: skip
        text = wait_line(queued, bot_after)
        await interaction.response.send_message(
            text, view=leave_view(interaction.user.id), ephemeral=True
        )

    @app_commands.command(name="leave", description="Leave the quick-play queue")
    async def leave(self, interaction: discord.Interaction[SequencesBot]) -> None:
        left = await self.quick.leave(interaction.user.id)
        label = self.bot.shell.games.label(left.game_key)
        await interaction.response.send_message(
            _("You left the queue for %(game)s.", game=label), ephemeral=True
        )

    @app_commands.command(name="block", description="Never be matched with this member")
    @app_commands.describe(member="The member to avoid")
    async def block(
        self, interaction: discord.Interaction[SequencesBot], member: discord.Member
    ) -> None:
        await self.quick.block(interaction.user.id, member.id)
        await interaction.response.send_message(
            _("You'll never be matched with %(member)s.", member=member.mention),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(name="unblock", description="Allow matches with a member again")
    @app_commands.describe(member="The member you blocked")
    async def unblock(
        self, interaction: discord.Interaction[SequencesBot], member: discord.Member
    ) -> None:
        await self.quick.unblock(interaction.user.id, member.id)
        await interaction.response.send_message(
            _("You may be matched with %(member)s again.", member=member.mention),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(name="blocked", description="The members you blocked (only you see it)")
    async def blocked(self, interaction: discord.Interaction[SequencesBot]) -> None:
        members = await self.quick.blocked(interaction.user.id)
        text = (
            _("You haven't blocked anyone.")
            if not members
            else _(
                "You're never matched with: %(members)s",
                members=", ".join(user_mention(m) for m in members),
            )
        )
        await interaction.response.send_message(
            text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )

    @app_commands.command(
        name="report", description="Tell the bot's operator about a table you sat at"
    )
    @app_commands.describe(
        reason="What happened (only the bot's operator reads it)",
        table="The table's number (default: the table of this thread)",
    )
    async def report(
        self,
        interaction: discord.Interaction[SequencesBot],
        reason: app_commands.Range[str, 1, REASON_MAX],
        table: int | None = None,
    ) -> None:
        await report_table(interaction, reason, table)


async def setup(bot: SequencesBot) -> None:
    await bot.add_cog(Play(bot))
