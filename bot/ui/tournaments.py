"""Tournaments on the Discord side (issue 25): who may organise, the sign-up message and
its buttons, and the posting of each round's tables and standings. Their words and
pictures are ``bot.ui.tournament_words`` and ``bot.ui.tournament_pictures``."""

from __future__ import annotations

import asyncio
import io
import logging
import re
from typing import Any

import discord

from bot.errors import Forbidden, UserError
from bot.games.registry import Games
from bot.i18n.speaking import _, number
from bot.render.common import NO_PINGS, user_mention
from bot.tables.names import clean_name, md_name
from bot.tables.tournaments import Picture, Tournament
from bot.ui import tournament_texts  # noqa: F401  (registers the refusals' words)
from bot.ui.buttons import NOT_THIS_MESSAGE, is_button
from bot.ui.checks import is_admin
from bot.ui.errors import handle_error, reply_private
from bot.ui.shell import Shell, shell_of
from bot.ui.tournament_pictures import PICTURE, picture_png
from bot.ui.tournament_words import button_label, picture_embed, round_label
from bot.ui.weblinks import add_link, web_address

log = logging.getLogger(__name__)


async def may_organise(
    interaction: discord.Interaction[Any], shell: Shell, t: Tournament | None = None
) -> bool:
    """Manage Server, the server's organiser role (``/settings organiser-role``), or, for
    a tournament of theirs, its organiser."""
    if is_admin(interaction) or (t is not None and interaction.user.id == t.created_by):
        return True
    if interaction.guild_id is None:
        return False
    role_id = await shell.guild_settings.organiser_role(interaction.guild_id)
    roles = getattr(interaction.user, "roles", None) or []
    return role_id is not None and any(role.id == role_id for role in roles)


async def require_organiser(
    interaction: discord.Interaction[Any], shell: Shell, t: Tournament | None = None
) -> None:
    if await may_organise(interaction, shell, t):
        return
    if t is None:
        role_id = None
        if interaction.guild_id is not None:
            role_id = await shell.guild_settings.organiser_role(interaction.guild_id)
        if role_id is None:
            raise Forbidden(_("You need Manage Server to run a tournament."))
        role = interaction.guild.get_role(role_id) if interaction.guild else None
        if role is None:  # deleted since: Manage Server is all that is left
            raise Forbidden(_("You need Manage Server to run a tournament."))
        raise Forbidden(
            _(
                "You need Manage Server or the %(role)s role to run a tournament.",
                role=md_name(role.name),
            )
        )
    raise Forbidden(_("Only the organiser or a member with Manage Server can do that."))


def tournament_games(games: Games) -> dict[str, tuple[str, dict[str, Any]]]:
    """Leaderboard key -> (game kind, table settings) for every game two can play: each
    game's own standard settings (those its demo plays)."""
    out: dict[str, tuple[str, dict[str, Any]]] = {}
    for kind, game in games.items():
        for demo in games.shown(kind).demos:
            if game.seat_limits(demo.settings)[0] <= 2 <= game.seat_limits(demo.settings)[1]:
                out.setdefault(game.game_key(demo.settings), (kind, dict(demo.settings)))
    return out


class TournamentButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tn:(?P<id>[0-9]{1,18}):(?P<action>join|leave|checkin|start)",
):
    # The English labels; shown through ``button_label``, the lobby's own words for Join,
    # Leave and Start (one button, one name in every language).
    LABELS = {"join": "Join", "leave": "Leave", "checkin": "Check in", "start": "Start"}

    def __init__(self, tournament_id: int, action: str) -> None:
        style = (
            discord.ButtonStyle.success
            if action in ("start", "checkin")
            else discord.ButtonStyle.secondary
        )
        super().__init__(
            discord.ui.Button(
                label=button_label(action), style=style, custom_id=f"tn:{tournament_id}:{action}"
            )
        )
        self.tournament_id = tournament_id
        self.action = action

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> TournamentButton:
        return cls(int(match["id"]), match["action"])

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Only on the tournament's own sign-up message (its standings once it started): the
        id pressed on a game's table message or a lobby (a forged click) would redraw that
        message as the sign-up and take the game's buttons away."""
        if not is_button(interaction):
            return False
        try:
            t = await shell_of(interaction).tournaments.get(self.tournament_id)
            mine = t.guild_id == interaction.guild_id and t.message_id is not None
            message = interaction.message
            if mine and message is not None and message.id == t.message_id:
                return True
        except UserError:
            pass  # no such tournament: the same refusal
        except Exception as exc:
            await handle_error(interaction, exc, f"on tournament {self.tournament_id}")
            return False
        await reply_private(interaction, _(NOT_THIS_MESSAGE))
        return False

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await self._press(interaction)
        except Exception as exc:
            await handle_error(interaction, exc, f"on tournament {self.tournament_id}")

    async def _press(self, interaction: discord.Interaction[Any]) -> None:
        shell = shell_of(interaction)
        service = shell.tournaments
        t = await service.get(self.tournament_id)
        if t.guild_id != interaction.guild_id:
            raise UserError(code="tournament.unknown")
        user = interaction.user
        if self.action == "join":
            if user.bot:
                raise UserError(_("Bots don't enter tournaments."))
            await service.join(t.id, user.id, clean_name(user.display_name))
        elif self.action == "leave":
            await service.leave(t.id, user.id)
        elif self.action == "checkin":
            await service.check_in(t.id, user.id)
        else:
            if not await may_organise(interaction, shell, t):
                raise Forbidden(
                    _("Only the organiser or a member with Manage Server can start it.")
                )
            await interaction.response.defer()
            await service.start(t.id)
            await interaction.edit_original_response(**await signup_message(shell, t.id))
            await post_due(interaction.client, shell)
            return
        await interaction.response.edit_message(**await signup_message(shell, t.id))


async def signup_message(shell: Shell, tournament_id: int) -> dict[str, Any]:
    """The sign-up message: once the tournament starts, its live standings (or bracket)
    with the picture attached (``attachments``: for an edit). A public message, drawn in
    the server's language whoever's click (or the bot's tick) redraws it."""
    picture = await shell.tournaments.picture(tournament_id)
    async with shell.publisher.languages.in_guild(picture.tournament.guild_id):
        return await _signup_message(shell, picture)


async def _signup_message(shell: Shell, picture: Picture) -> dict[str, Any]:
    tournament_id = picture.tournament.id
    now = shell.tournaments.clock()
    view = discord.ui.View(timeout=None)
    t = picture.tournament
    if t.status == "signup":
        actions = (
            ("join", "leave", "checkin", "start")
            if t.checkin_open(now)
            else ("join", "leave", "start")
        )
        for action in actions:
            view.add_item(TournamentButton(tournament_id, action))
    add_link(view, await web_address(shell, t.guild_id, f"/t/{tournament_id}"))
    if t.status == "signup":
        return {"embed": picture_embed(picture, shell.games, now), "view": view}
    embed, file = await shown(picture, shell.games, now)
    return {"embed": embed, "view": view, "attachments": [file] if file else []}


async def shown(
    picture: Picture, games: Games, now: float = 0.0
) -> tuple[discord.Embed, discord.File | None]:
    """The tournament's embed and, once it has started, its picture (drawn off the event
    loop: a 64-player bracket takes a moment), shown in the embed."""
    embed = picture_embed(picture, games, now)
    png = await asyncio.to_thread(picture_png, picture, games)
    if png is None:
        return embed, None
    embed.set_image(url=f"attachment://{PICTURE}")
    return embed, discord.File(io.BytesIO(png), filename=PICTURE)


async def redraw_signup(client: Any, shell: Shell, t: Tournament) -> None:
    """Edit the sign-up message (its check-in opened, or it started by the clock)."""
    if t.message_id is None:
        return
    try:
        channel = await _channel(client, t.channel_id)
        message = channel.get_partial_message(t.message_id)
        await message.edit(**await signup_message(shell, t.id), allowed_mentions=NO_PINGS)
    except discord.HTTPException as exc:
        log.warning("tournament %s: sign-up message not redrawn (%s)", t.id, exc.status)


async def post_due(client: Any, shell: Shell) -> None:
    """Redraw the sign-ups whose check-in opened, start the tournaments due, open and post every
    paired match's table in a thread of its own, then post the standings of each round started or
    tournament finished."""
    for t in await shell.tournaments.checkin_opened():
        await redraw_signup(client, shell, t)
    started, cancelled = await shell.tournaments.start_due()
    for tournament_id in started + cancelled:
        await redraw_signup(client, shell, await shell.tournaments.get(tournament_id))
    # A match ended (or a round was paired with byes): the live standings follow.
    for t in await shell.tournaments.redraws():
        await redraw_signup(client, shell, t)
    for table_id in await shell.tournaments.open_pending():
        try:
            # A public message: in the server's words, as every table's (bot.ui.i18n).
            async with shell.publisher.languages.public(await shell.tables.get(table_id)):
                await _post_table(client, shell, table_id)
        except discord.HTTPException as exc:
            log.warning("tournament table %s: not posted (%s)", table_id, exc.status)
    for t, _value in await shell.tournaments.due_posts():
        try:
            async with shell.publisher.languages.in_guild(t.guild_id):
                await _post_standings(client, shell, t)
        except discord.HTTPException as exc:
            log.warning("tournament %s: standings not posted (%s)", t.id, exc.status)


async def _channel(client: Any, channel_id: int) -> Any:
    return client.get_channel(channel_id) or await client.fetch_channel(channel_id)


async def _post_table(client: Any, shell: Shell, table_id: int) -> None:
    """A match's table opens as any started table does (bot/ui/opening.py): its thread on
    a notice naming the players, the channel if the thread is refused, its first player
    called by the turn ping."""
    table = await shell.tables.get(table_id)
    channel = await _channel(client, table.row.channel_id)
    head = None
    try:
        head = await channel.send(
            await _match_notice(shell, table_id, [s.user_id for s in table.seats]),
            allowed_mentions=discord.AllowedMentions(users=True),
        )
    except discord.HTTPException as exc:  # the game is tried in the channel on its own
        log.warning("tournament table %s: no match notice (%s)", table.id, exc.status)
    await shell.publisher.started_on(table, head, channel)


async def _match_notice(shell: Shell, table_id: int, seated: list[int | None]) -> str:
    """The line that calls a match's players to its table: which tournament and round, and
    in a best of 3 which game and the score so far (each game is a table of its own)."""
    names = ", ".join(f"<@{u}>" for u in seated if u is not None)
    match = await shell.tournaments.match_for_table(table_id)
    if match is None:  # not a tournament's (cannot happen): the players and the table
        return _(
            "⚔️ Tournament match: %(players)s · table #%(table)s", players=names, table=table_id
        )
    t = await shell.tournaments.get(match.tournament_id)
    final = t.format == "elimination" and match.round == t.rounds
    best_of = t.final_best_of if final else t.best_of
    # The round as the bracket names it ("Final"), else "round 2".
    values = {"id": t.id, "round": round_label(t, match.round), "table": table_id}
    values["best_of"] = best_of
    if best_of == 1 or match.b_id is None:
        return _(
            "⚔️ Tournament #%(id)s, %(round)s: %(players)s · table #%(table)s",
            players=names,
            **values,
        )
    if match.games > match.a_wins + match.b_wins:
        # A drawn game counts for nobody and the match plays on (bot.rules.tournament
        # match_over): "game 4 of a best of 3" would read as a mistake.
        return _(
            "⚔️ Tournament #%(id)s, %(round)s, game %(game)s (a best of %(best_of)s: a "
            "drawn game is replayed, %(most)s games at most): %(a)s %(a_wins)s–%(b_wins)s "
            "%(b)s · table #%(table)s",
            game=match.games + 1,
            most=number(best_of + 2),
            a=user_mention(match.a_id),
            b=user_mention(match.b_id),
            a_wins=number(match.a_wins),
            b_wins=number(match.b_wins),
            **values,
        )
    if match.games == 0:
        return _(
            "⚔️ Tournament #%(id)s, %(round)s, game 1 of a best of %(best_of)s: "
            "%(players)s · table #%(table)s",
            players=names,
            **values,
        )
    return _(
        "⚔️ Tournament #%(id)s, %(round)s, game %(game)s of a best of %(best_of)s: "
        "%(a)s %(a_wins)s–%(b_wins)s %(b)s · table #%(table)s",
        game=match.games + 1,
        a=user_mention(match.a_id),
        b=user_mention(match.b_id),
        a_wins=number(match.a_wins),
        b_wins=number(match.b_wins),
        **values,
    )


async def _post_standings(client: Any, shell: Shell, t: Tournament) -> None:
    picture = await shell.tournaments.picture(t.id)
    channel = await _channel(client, t.channel_id)
    embed, file = await shown(picture, shell.games)
    files = [file] if file else []
    await channel.send(embed=embed, allowed_mentions=discord.AllowedMentions.none(), files=files)
