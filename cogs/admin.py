"""Server settings (Manage Server)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import SequencesBot
from bot.errors import Forbidden, UserError
from bot.i18n import catalogues
from bot.i18n.speaking import _, number, plural
from bot.render.common import chips
from bot.tables.stats import SeasonNameTaken
from bot.ui.checks import require_admin
from bot.ui.i18n import locale_for, publicly, verbatim
from bot.ui.quickplay import tell_taken_out
from bot.ui.review_texts import suggestions_set
from bot.ui.seasons import end_of_day, season_name, started_text

# /settings language: the server's Discord locale (the default), or one of the catalogues,
# each by its own name (a German admin looks for "Deutsch").
FOLLOW_DISCORD = "discord"
LANGUAGES = [
    app_commands.Choice(name="The server's Discord language (default)", value=FOLLOW_DISCORD),
    *(
        app_commands.Choice(name=verbatim(catalogues().language(tag).name), value=tag)
        for tag in catalogues().tags
    ),
]


# On the group: Discord takes a subcommand's permissions from its top-level command only, so
# these decorators on the subcommands were ignored (shown to everyone, in DMs too). They only
# hide the commands; require_admin in each command is the check that counts.
@app_commands.default_permissions(manage_guild=True)
@app_commands.guild_only()
class Admin(
    commands.GroupCog,
    group_name="settings",
    group_description="Server settings for games (Manage Server)",
):
    def __init__(self, bot: SequencesBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="turn-timer", description="Seconds a player has for each turn")
    @app_commands.describe(seconds="15 to 3600 (default 180)")
    async def turn_timer(
        self,
        interaction: discord.Interaction[SequencesBot],
        seconds: app_commands.Range[int, 15, 3600],
    ) -> None:
        require_admin(interaction, _("You need Manage Server to change game settings."))
        if not 15 <= seconds <= 3600:
            raise Forbidden(
                _("The turn timer must be between %(low)s and %(high)s seconds.", low=15,
                  high=number(3600))
            )  # fmt: skip
        assert interaction.guild_id is not None
        await self.bot.shell.guild_settings.set_turn_timeout(
            interaction.guild_id, seconds, interaction.user.id
        )
        text = plural(
            "New games here give each turn %(count)s second.",
            "New games here give each turn %(count)s seconds.",
            seconds,
        )
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="max-stake", description="The largest stake a table here may ask")
    @app_commands.describe(amount="Chips (0 turns staked tables off)")
    async def max_stake(
        self,
        interaction: discord.Interaction[SequencesBot],
        amount: app_commands.Range[int, 0, 1_000_000_000],
    ) -> None:
        require_admin(interaction, _("You need Manage Server to change game settings."))
        ceiling = self.bot.settings.max_stake
        if not 0 <= amount <= ceiling:
            raise UserError(
                _(
                    "The cap must be between 0 and %(chips)s (the bot's limit).",
                    chips=chips(ceiling),
                )
            )
        assert interaction.guild_id is not None
        await self.bot.shell.guild_settings.set_max_stake(
            interaction.guild_id, amount, interaction.user.id
        )
        text = (
            _("Tables here can no longer be staked.")
            if amount == 0
            else _("Tables here may ask a stake of up to %(chips)s.", chips=chips(amount))
        )
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="lobby-role", description="A role every new lobby here calls")
    @app_commands.describe(role="The role to mention when a lobby opens (leave empty: none)")
    async def lobby_role(
        self,
        interaction: discord.Interaction[SequencesBot],
        role: discord.Role | None = None,
    ) -> None:
        require_admin(interaction, _("You need Manage Server to change game settings."))
        assert interaction.guild is not None
        if role is not None and role.is_default():
            raise UserError(_("Lobbies never call everyone: choose a role."))
        await self.bot.shell.guild_settings.set_lobby_role(
            interaction.guild.id, None if role is None else role.id, interaction.user.id
        )
        me = interaction.guild.me
        if role is None:
            text = _("New lobbies here call no role.")
        elif not role.mentionable and not (me and me.guild_permissions.mention_everyone):
            text = _(
                "New lobbies here mention %(role)s. It isn't mentionable, so Discord won't "
                "notify its members: allow anyone to mention it, or give me Mention All Roles.",
                role=role.mention,
            )
        else:
            text = _("New lobbies here mention %(role)s.", role=role.mention)
        await interaction.response.send_message(
            text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )

    @app_commands.command(
        name="organiser-role", description="A role whose members may run tournaments here"
    )
    @app_commands.describe(role="Besides Manage Server (leave empty: Manage Server only)")
    async def organiser_role(
        self,
        interaction: discord.Interaction[SequencesBot],
        role: discord.Role | None = None,
    ) -> None:
        require_admin(interaction, _("You need Manage Server to change game settings."))
        assert interaction.guild is not None
        if role is not None and role.is_default():
            raise UserError(_("Choose a role: not everyone can run tournaments."))
        await self.bot.shell.guild_settings.set_organiser_role(
            interaction.guild.id, None if role is None else role.id, interaction.user.id
        )
        text = (
            _("Only members with Manage Server can run tournaments here now.")
            if role is None
            else _(
                "Members with %(role)s can run tournaments here now (create, start, cancel, "
                "remove a player, set a result), as Manage Server can.",
                role=role.mention,
            )
        )
        await interaction.response.send_message(
            text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )

    @app_commands.command(name="suggestions", description="Whether players may ask for a move")
    @app_commands.describe(allowed="Suggest in the board game's hand (games with one aren't rated)")
    async def suggestions(
        self, interaction: discord.Interaction[SequencesBot], allowed: bool
    ) -> None:
        require_admin(interaction, _("You need Manage Server to change game settings."))
        assert interaction.guild_id is not None
        await self.bot.shell.guild_settings.set_suggestions(
            interaction.guild_id, allowed, interaction.user.id
        )
        text = suggestions_set(allowed)
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="language", description="The language of public game messages here")
    @app_commands.describe(language="Private answers stay in each member's own Discord language")
    @app_commands.choices(language=LANGUAGES)
    async def language(self, interaction: discord.Interaction[SequencesBot], language: str) -> None:
        require_admin(interaction, _("You need Manage Server to change game settings."))
        assert interaction.guild_id is not None
        books = catalogues()
        if language != FOLLOW_DISCORD and language not in books.tags:
            raise UserError(_("Pick a language from the list."))
        chosen = None if language == FOLLOW_DISCORD else language
        await self.bot.shell.guild_settings.set_language(
            interaction.guild_id, chosen, interaction.user.id
        )
        public = await locale_for(interaction, public=True)
        words = await locale_for(interaction, public=False)
        if chosen is None:
            text = words.gettext(
                "Language of public game messages here: the server's Discord language "
                "(%(language)s)."
            )
        else:
            text = words.gettext("Language of public game messages here: %(language)s.")
        text %= {"language": public.name}
        text += " " + words.gettext(
            "Live tables here are redrawn in it now; private answers stay in each member's "
            "own Discord language."
        )
        await interaction.response.send_message(text, ephemeral=True)
        # The server's live tables in the new language, once the member has the answer.
        await self.bot.shell.publisher.redraw_guild(interaction.guild_id)

    @app_commands.command(name="web", description="Whether this server's pages are on the web")
    @app_commands.describe(
        state="on: leaderboards, players, replays and tournaments for all to see"
    )
    @app_commands.choices(
        state=[
            app_commands.Choice(name="on", value="on"),
            app_commands.Choice(name="off", value="off"),
        ]
    )
    async def web(self, interaction: discord.Interaction[SequencesBot], state: str) -> None:
        require_admin(interaction, _("You need Manage Server to change game settings."))
        assert interaction.guild_id is not None
        shell = self.bot.shell
        if state not in ("on", "off") or shell.web is None:
            raise UserError(_("Pick on or off."))
        web_id = await shell.web.set_public(
            interaction.guild_id, state == "on", interaction.user.id
        )
        if state == "off":
            text = _("This server's pages are off the web: their addresses answer 'not found'.")
        elif shell.public_url:
            address = f"{shell.public_url}/s/{web_id}"
            text = _(
                "This server's pages are on the web: %(url)s (forgotten members appear as "
                "Deleted member; hands are never shown).",
                url=address,
            )
        else:
            text = _(
                "This server's pages are on the web at /s/%(id)s of the bot's web address "
                "(its operator has set no PUBLIC_URL, so no link is shown in Discord).",
                id=web_id,
            )
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="quickplay", description="Whether members may use quick play here")
    @app_commands.describe(state="off, here (this server's members, the default) or everywhere")
    @app_commands.choices(
        state=[
            app_commands.Choice(name="off", value="off"),
            app_commands.Choice(name="here", value="here"),
            app_commands.Choice(name="everywhere", value="everywhere"),
        ]
    )
    async def quickplay(self, interaction: discord.Interaction[SequencesBot], state: str) -> None:
        require_admin(interaction, _("You need Manage Server to change game settings."))
        assert interaction.guild_id is not None
        quick = self.bot.shell.quickplay
        if quick is None:
            raise UserError(_("Quick play isn't running here."))
        taken_out = await quick.set_mode(interaction.guild_id, state, interaction.user.id)
        if state == "off":
            text = plural(
                "Quick play is off here: %(count)s member waiting was taken out of the queue "
                "and told.",
                "Quick play is off here: %(count)s members waiting were taken out of the queue "
                "and told.",
                len(taken_out),
            )
        elif state == "here":
            text = _("Quick play here matches this server's members with each other.")
            if taken_out:
                text += " " + plural(
                    "%(count)s member waiting across servers was taken out of that queue and told.",
                    "%(count)s members waiting across servers were taken out of that queue and "
                    "told.",
                    len(taken_out),
                )
        else:
            text = _(
                "Quick play is set to everywhere: members who queue with where: everywhere are "
                "matched with members of every server that chose everywhere (where: here stays "
                "within this server)."
            )
        await interaction.response.send_message(text, ephemeral=True)
        await tell_taken_out(self.bot, taken_out, state)

    @app_commands.command(
        name="quickplay-channel", description="Where quick-play tables open (default: where queued)"
    )
    @app_commands.describe(channel="The channel for quick-play threads (leave empty: where queued)")
    async def quickplay_channel(
        self,
        interaction: discord.Interaction[SequencesBot],
        channel: discord.TextChannel | None = None,
    ) -> None:
        require_admin(interaction, _("You need Manage Server to change game settings."))
        assert interaction.guild_id is not None
        quick = self.bot.shell.quickplay
        if quick is None:
            raise UserError(_("Quick play isn't running here."))
        if channel is not None and channel.guild.id != interaction.guild_id:
            raise UserError(_("Pick a channel of this server."))
        await quick.set_channel(
            interaction.guild_id, None if channel is None else channel.id, interaction.user.id
        )
        text = (
            _("Quick-play tables open in the channel each member queued from.")
            if channel is None
            else _("Quick-play tables open in %(channel)s.", channel=channel.mention)
        )
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="season", description="Start a season of the leaderboards")
    @app_commands.describe(
        name="The season's name, e.g. Spring 2026",
        last_day="Its last day, YYYY-MM-DD in UTC (default: until the next season)",
        soft_reset="Start ratings halfway back to a newcomer's (default: carry on)",
    )
    @app_commands.rename(last_day="last-day", soft_reset="soft-reset")
    async def season(
        self,
        interaction: discord.Interaction[SequencesBot],
        name: app_commands.Range[str, 1, 100],
        last_day: app_commands.Range[str, 1, 20] | None = None,
        soft_reset: bool = False,
    ) -> None:
        require_admin(interaction, _("You need Manage Server to start a season."))
        assert interaction.guild_id is not None
        shell = self.bot.shell
        title = season_name(name)
        ends_at = None if last_day is None else end_of_day(last_day, shell.clock())
        try:
            season, ended = await shell.stats.start_season(
                interaction.guild_id, title, ends_at=ends_at, soft_reset=soft_reset,
                actor_id=interaction.user.id,
            )  # fmt: skip
        except SeasonNameTaken:
            raise UserError(_("This server had a season of that name: pick another.")) from None
        async with publicly(interaction):  # said in the channel: the server's words
            text = started_text(season, ended)
        await interaction.response.send_message(
            text, allowed_mentions=discord.AllowedMentions.none()
        )


async def setup(bot: SequencesBot) -> None:
    await bot.add_cog(Admin(bot))
