"""``/tournament create|show|list|cancel``: a server's events (issue 25)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import SequencesBot
from bot.errors import Forbidden, UserError
from bot.i18n.speaking import N_, _
from bot.render.common import NO_PINGS, user_mention
from bot.tables.limits import OPTION_INT_MAX
from bot.tables.names import clean_name
from bot.tables.tournament_options import (
    BEST_OF,
    CHECKIN,
    FEE,
    FINAL_BEST_OF,
    PRIZE,
    ROUNDS,
    SEATS,
    SIGNUP,
)
from bot.tables.tournaments import Picture
from bot.ui.checks import ORGANISERS
from bot.ui.i18n import publicly
from bot.ui.tournament_words import FORMAT_LABELS, PRIZE_LABELS, picture_embed, winner_name
from bot.ui.tournaments import (
    TournamentButton,
    may_organise,
    post_due,
    redraw_signup,
    require_organiser,
    shown,
    signup_message,
    tournament_games,
)

LIST_MAX = 2000  # characters of /tournament list: one message's content
STATES = {
    "signup": N_("sign-up"),
    "running": N_("running"),
    "finished": N_("finished"),
    "cancelled": N_("cancelled"),
}


@app_commands.guild_only()
class TournamentCog(
    commands.GroupCog, group_name="tournament", group_description="Tournaments of any game"
):
    def __init__(self, bot: SequencesBot) -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.tick_steps.append(self._step)

    async def cog_unload(self) -> None:
        if self._step in self.bot.tick_steps:
            self.bot.tick_steps.remove(self._step)

    async def _step(self) -> None:
        # A round whose last match ended is paired in that match's transaction; its tables
        # are opened and posted here, on the next tick (restart-safe: all in the database).
        await post_due(self.bot, self.bot.shell)

    @app_commands.command(
        name="create", description="Open sign-up for a tournament here", extras=ORGANISERS
    )
    @app_commands.describe(
        game="Which game (its standard settings)",
        format="Swiss, single elimination or round robin",
        rounds="Swiss only: rounds (default: enough to find a winner)",
        fee="Chips each player pays in; the pool goes to the best places (default 0)",
        prize="How the pool is split (default: all to the winner)",
        best_of="Games a match is won in: best of 1 or 3 (default 1)",
        final_best_of="Single elimination: the final's length (default: as every match)",
        signup="Minutes until it starts by itself (default: the organiser starts it)",
        checkin="Minutes before the start when check-in opens; the rest are dropped",
        seats="Players a table, for games of three or more (Swiss only; default 2)",
    )
    @app_commands.rename(
        best_of="best-of", final_best_of="final-best-of", signup="signup-minutes",
        checkin="checkin-minutes",
    )  # fmt: skip
    @app_commands.choices(
        format=[app_commands.Choice(name=label, value=key) for key, label in FORMAT_LABELS.items()],
        prize=[app_commands.Choice(name=label, value=key) for key, label in PRIZE_LABELS.items()],
    )
    async def create(
        self,
        interaction: discord.Interaction[SequencesBot],
        game: app_commands.Range[str, 1, 100],
        format: str,
        rounds: app_commands.Range[int, ROUNDS.low, ROUNDS.high] | None = ROUNDS.default,
        fee: app_commands.Range[int, FEE.low, FEE.high] = FEE.default,
        prize: str = PRIZE.default,
        best_of: app_commands.Range[int, BEST_OF.low, BEST_OF.high] = BEST_OF.default,
        final_best_of: app_commands.Range[int, FINAL_BEST_OF.low, FINAL_BEST_OF.high]
        | None = FINAL_BEST_OF.default,
        signup: app_commands.Range[int, SIGNUP.low, SIGNUP.high] | None = SIGNUP.default,
        checkin: app_commands.Range[int, CHECKIN.low, CHECKIN.high] | None = CHECKIN.default,
        seats: app_commands.Range[int, SEATS.low, SEATS.high] = SEATS.default,
    ) -> None:
        await require_organiser(interaction, self.bot.shell)
        assert interaction.guild_id is not None and interaction.channel_id is not None
        if isinstance(interaction.channel, discord.Thread):
            # A match opens its own thread on the channel; a thread holds one game.
            raise UserError(
                _("Run a tournament from a text channel: each of its matches opens a thread there.")
            )
        games = tournament_games(self.bot.games)
        key = self.bot.games.find_key(game) or game
        if key not in games:
            raise UserError(_("Pick a game from the list."))
        kind, settings = games[key]
        shell = self.bot.shell
        t = await shell.tournaments.create(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id, kind=kind,
            settings=settings, format=format, rounds=rounds or 0,  # type: ignore[arg-type]
            fee=fee, prize=prize, best_of=best_of, final_best_of=final_best_of,
            actor_id=interaction.user.id, signup_minutes=signup or 0,
            checkin_minutes=checkin or 0, seats=seats, max_fee=self.bot.settings.max_stake,
        )  # fmt: skip
        await interaction.response.send_message(
            **await signup_message(shell, t.id), allowed_mentions=NO_PINGS
        )
        message = await interaction.original_response()
        await shell.tournaments.set_message(t.id, message.id)

    @create.autocomplete("game")
    async def _create_game(
        self, interaction: discord.Interaction[SequencesBot], current: str
    ) -> list[app_commands.Choice[str]]:
        text = current.casefold()
        labels = self.bot.games
        return [
            app_commands.Choice(name=labels.label(key), value=key)
            for key in sorted(tournament_games(labels))
            if text in key or text in labels.label(key).casefold()
        ][:25]

    @app_commands.command(name="show", description="A tournament's standings or bracket")
    @app_commands.describe(tournament="Its number (default: the latest here)")
    async def show(
        self,
        interaction: discord.Interaction[SequencesBot],
        tournament: app_commands.Range[int, 1, OPTION_INT_MAX] | None = None,
    ) -> None:
        t = await self._find(interaction, tournament)
        picture = await self.bot.shell.tournaments.picture(t)
        async with publicly(interaction):  # a public answer: the server's words
            await self._show(interaction, picture)

    async def _show(self, interaction: discord.Interaction[SequencesBot], picture: Picture) -> None:
        if picture.tournament.status in ("signup", "cancelled"):
            t_row = picture.tournament
            content = None
            if t_row.status == "signup" and t_row.message_id is not None:
                # This copy has no buttons: say where Join (and Check in) are.
                link = (
                    f"https://discord.com/channels/{t_row.guild_id}/{t_row.channel_id}/"
                    f"{t_row.message_id}"
                )
                content = _("Join on the tournament's sign-up message: %(link)s", link=link)
            await interaction.response.send_message(
                content,
                embed=picture_embed(picture, self.bot.games, self.bot.shell.tournaments.clock()),
                allowed_mentions=NO_PINGS,
            )
            return
        # Drawing a bracket can take longer than Discord's 3 seconds on a busy host.
        await interaction.response.defer(thinking=True)
        embed, file = await shown(picture, self.bot.games)
        files = [file] if file else []
        await interaction.followup.send(embed=embed, allowed_mentions=NO_PINGS, files=files)

    @app_commands.command(name="list", description="This server's tournaments, newest first")
    async def list_(self, interaction: discord.Interaction[SequencesBot]) -> None:
        assert interaction.guild_id is not None
        listed = await self.bot.shell.tournaments.listed(interaction.guild_id)
        lines = []
        for t in listed:
            values = {
                "id": t.id,
                "format": _(FORMAT_LABELS[t.format]),
                "game": self.bot.games.label(t.game_key),
            }
            if t.status == "finished":  # the history says who won each
                picture = await self.bot.shell.tournaments.picture(t.id)
                lines.append(
                    _(
                        "**#%(id)s** · %(format)s · %(game)s · finished: 🏆 %(winner)s",
                        winner=winner_name(picture),
                        **values,
                    )
                )
                continue
            lines.append(
                _(
                    "**#%(id)s** · %(format)s · %(game)s · %(state)s",
                    state=_(STATES.get(t.status, STATES["cancelled"])),
                    **values,
                )
            )
        shown: list[str] = []
        for line in lines:  # the newest first, as many as one message holds
            if sum(len(x) + 1 for x in shown) + len(line) > LIST_MAX:
                break
            shown.append(line)
        text = "\n".join(shown) or _("No tournament has been held here yet.")
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(
        name="cancel", description="Cancel a tournament: no result", extras=ORGANISERS
    )
    @app_commands.describe(tournament="Its number")
    async def cancel(
        self,
        interaction: discord.Interaction[SequencesBot],
        tournament: app_commands.Range[int, 1, OPTION_INT_MAX],
    ) -> None:
        t_id = await self._find(interaction, tournament)
        service = self.bot.shell.tournaments
        t = await service.get(t_id)
        if not await may_organise(interaction, self.bot.shell, t):
            raise Forbidden(_("Only the organiser or a member with Manage Server can cancel it."))
        changes = await service.cancel(t_id, interaction.user.id, interaction.user.display_name)
        await interaction.response.defer()
        for change in changes:
            await self.bot.shell.publisher.publish(change)
        # A line in the channel: the server's words, whoever set it.
        async with publicly(interaction):
            text = (
                _(
                    "Tournament #%(id)s is cancelled: no result. Every entry fee is refunded.",
                    id=t_id,
                )
                if t.fee
                else _("Tournament #%(id)s is cancelled: no result.", id=t_id)
            )
        await interaction.followup.send(text, allowed_mentions=NO_PINGS)
        # Its sign-up message (or live standings) says it is over: no buttons left.
        await redraw_signup(self.bot, self.bot.shell, await service.get(t_id))

    @app_commands.command(
        name="remove", description="Take a player out: the rest forfeited", extras=ORGANISERS
    )
    @app_commands.describe(tournament="Its number", member="Who to take out")
    async def remove(
        self,
        interaction: discord.Interaction[SequencesBot],
        tournament: app_commands.Range[int, 1, OPTION_INT_MAX],
        member: discord.Member,
    ) -> None:
        t_id = await self._find(interaction, tournament)
        await self._require_organiser(interaction, t_id)
        service = self.bot.shell.tournaments
        t = await service.get(t_id)
        changes = await service.remove(
            t_id, member.id, interaction.user.id, interaction.user.display_name
        )
        await interaction.response.defer()
        for change in changes:
            await self.bot.shell.publisher.publish(change)
        # A line in the channel: the server's words, whoever set it.
        async with publicly(interaction):
            if t.status != "signup":
                text = _(
                    "%(member)s is out of tournament #%(id)s: their matches are forfeited.",
                    member=member.mention,
                    id=t_id,
                )
            elif t.fee:  # before the start: no match to forfeit, the fee went back
                text = _(
                    "%(member)s is out of tournament #%(id)s: their entry fee is refunded.",
                    member=member.mention,
                    id=t_id,
                )
            else:
                text = _("%(member)s is out of tournament #%(id)s.", member=member.mention, id=t_id)
        await interaction.followup.send(text, allowed_mentions=NO_PINGS)
        if t.status == "signup":  # the list and the pool lose them
            await redraw_signup(self.bot, self.bot.shell, t)
        await post_due(self.bot, self.bot.shell)

    @app_commands.command(
        name="result", description="Set a match's result (it is logged)", extras=ORGANISERS
    )
    @app_commands.describe(table="The match's table number", winner="Who won (default: a draw)")
    async def result(
        self,
        interaction: discord.Interaction[SequencesBot],
        table: app_commands.Range[int, 1, OPTION_INT_MAX],
        winner: discord.Member | None = None,
    ) -> None:
        service = self.bot.shell.tournaments
        match = await service.match_for_table(table)
        if match is None:
            raise UserError(_("That table is not a tournament match."))
        t_id = await self._find(interaction, match.tournament_id)
        await self._require_organiser(interaction, t_id)
        changes = await service.override(
            match.id, None if winner is None else winner.id, interaction.user.id,
            interaction.user.display_name,
            "" if winner is None else clean_name(winner.display_name),
        )  # fmt: skip
        await interaction.response.defer()
        for change in changes:
            await self.bot.shell.publisher.publish(change)
        # A line in the channel: the server's words, whoever set it.
        async with publicly(interaction):
            picture = await service.picture(t_id)
            done = next(m for m in picture.matches if m.id == match.id)
            through = picture.through(done)
            bracket = picture.tournament.format == "elimination" and done.b_id is not None
            if winner is None and bracket and through is not None:
                # A bracket has no draws: the better seed goes through (bot.rules.tournament).
                text = _(
                    "Table #%(table)s of tournament #%(id)s has no result: %(name)s goes through "
                    "on seed (set by %(by)s).",
                    table=table,
                    id=t_id,
                    name=user_mention(through),
                    by=interaction.user.mention,
                )
            elif winner is None:
                text = _(
                    "Table #%(table)s of tournament #%(id)s is now a draw (set by %(by)s).",
                    table=table,
                    id=t_id,
                    by=interaction.user.mention,
                )
            else:
                text = _(
                    "Table #%(table)s of tournament #%(id)s is now won by %(winner)s "
                    "(set by %(by)s).",
                    table=table,
                    id=t_id,
                    winner=winner.mention,
                    by=interaction.user.mention,
                )
        await interaction.followup.send(text, allowed_mentions=NO_PINGS)
        await post_due(self.bot, self.bot.shell)

    async def _require_organiser(
        self, interaction: discord.Interaction[SequencesBot], tournament_id: int
    ) -> None:
        t = await self.bot.shell.tournaments.get(tournament_id)
        await require_organiser(interaction, self.bot.shell, t)

    async def _find(
        self, interaction: discord.Interaction[SequencesBot], tournament: int | None
    ) -> int:
        assert interaction.guild_id is not None
        listed = await self.bot.shell.tournaments.listed(interaction.guild_id)
        if tournament is None:
            if not listed:
                raise UserError(_("No tournament has been held here yet."))
            return listed[0].id
        t = await self.bot.shell.tournaments.get(tournament)
        if t.guild_id != interaction.guild_id:
            raise UserError(code="tournament.unknown")
        return t.id


async def setup(bot: SequencesBot) -> None:
    bot.add_dynamic_items(TournamentButton)
    await bot.add_cog(TournamentCog(bot))
