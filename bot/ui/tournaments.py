"""Tournaments on the Discord side: the words, the sign-up message and its buttons, and
the posting of each round's tables and standings (issue 25)."""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.errors import Forbidden, UserError
from bot.games.base import RulesPage, presentation
from bot.games.registry import Games
from bot.render.common import COLOUR
from bot.rules.tournament import Standing
from bot.tables.names import clean_name, md_name
from bot.tables.tournaments import Picture, Tournament, TournamentError, TournamentFeeShort
from bot.ui.buttons import is_button
from bot.ui.checks import is_admin
from bot.ui.errors import handle_error
from bot.ui.shell import Shell, shell_of

log = logging.getLogger(__name__)

FORMAT_LABELS = {
    "swiss": "Swiss",
    "elimination": "Single elimination",
    "round_robin": "Round robin",
}
REFUSALS = {
    "unknown": "There is no such tournament here.",
    "format": "Pick a format from the list.",
    "join": "Sign-up is closed, the field is full, or you are in already.",
    "leave": "You are not signed up, or the tournament has started.",
    "start": "This tournament has started already or is over.",
    "players": "A tournament needs two players at least.",
    "cancel": "This tournament is over already.",
    "remove": "They are not in this tournament, or it is over.",
    "override": "Only a match of the round being played can be changed.",
}
TITLE = "Tournament #"

# /rules game:tournaments (bot.rules.tournament is the code of it).
TOURNAMENT_RULES = RulesPage(
    "tournaments",
    "Tournaments: pairing, byes and tie-breaks",
    "• **Seeds** follow your rating of the game on this server (ties and newcomers by "
    "Discord id).\n"
    "• **Swiss**: ⌈log2 players⌉ rounds unless the organiser picks (at most players − 1). "
    "Each round ranks players by points, then seed; the best unpaired player meets the next "
    "one they have not met. Nobody meets twice while a round without repeats exists.\n"
    "• **Byes**: with an odd number, the lowest-ranked player who has had none sits out: a "
    "bye counts as a win, once per player.\n"
    "• **Single elimination**: a bracket of 2, 4, 8… places where seeds 1 and 2 can meet "
    "only in the final; empty places are byes for the top seeds. A match with no result "
    "sends the better seed through.\n"
    "• **Round robin**: everyone meets everyone once (the circle method); with an odd "
    "number each player sits out one round (a bye).\n"
    "• **Points**: win or bye 1, draw ½ (a match that ends with no result counts as a "
    "draw), loss 0. **Tie-breaks**: Swiss by Buchholz (your opponents' points added up; a "
    "bye adds none), then head-to-head (points in games among the tied), then seed; round "
    "robin by head-to-head, then seed; elimination by the round you went out in.\n"
    "• **Matches** are ordinary tables with their timers and forfeits (`/rules game:tables`): "
    "a player who does not show loses by those rules. The next round starts when the last "
    "match of a round ends.\n"
    "• **Entry fee**: paid on Join, back on Leave or if the tournament is cancelled; the "
    "pool goes to the best places by the organiser's split when the last match ends.",
)


PRIZE_LABELS = {
    "winner": "all to the winner",
    "top2": "70 % / 30 %",
    "top3": "50 % / 30 % / 20 %",
}


def refusal(error: TournamentError) -> UserError:
    if isinstance(error, TournamentFeeShort):
        return UserError(
            f"You have {error.balance:,} chips; this tournament's entry fee is {error.fee:,}."
        )
    return UserError(REFUSALS.get(error.code, "That cannot be done now."))


def tournament_games(games: Games) -> dict[str, tuple[str, dict[str, Any]]]:
    """Leaderboard key -> (game kind, table settings) for every game two can play: each
    game's own standard settings (those its demo plays)."""
    out: dict[str, tuple[str, dict[str, Any]]] = {}
    for kind, game in games.items():
        for demo in game.demos:
            if game.seat_limits(demo.settings)[0] <= 2 <= game.seat_limits(demo.settings)[1]:
                out.setdefault(game.game_key(demo.settings), (kind, dict(demo.settings)))
    return out


def _name(picture: Picture, user_id: int | None) -> str:
    if user_id is None:
        return "bye"
    entry = next((e for e in picture.entries if e.user_id == user_id), None)
    return md_name(entry.name if entry else "Player")


def _standing_line(picture: Picture, s: Standing) -> str:
    points = f"{float(s.points):g}"
    line = f"`{s.place:>2}.` {_name(picture, s.id)} · **{points}** pt{'s' if s.points != 1 else ''}"
    line += f" · {s.wins}-{s.draws}-{s.losses}"  # won, drawn, lost
    if s.byes:
        line += f" · {s.byes} bye{'s' if s.byes != 1 else ''}"
    if picture.tournament.format == "swiss":
        line += f" · Buchholz {float(s.buchholz):g}"
    return line


def standings_text(picture: Picture) -> str:
    t = picture.tournament
    if t.format == "elimination":
        lines = []
        for number in range(1, t.round + 1):
            matches = [m for m in picture.matches if m.round == number]
            parts = []
            for m in matches:
                if m.b_id is None:
                    parts.append(f"{_name(picture, m.a_id)} (bye)")
                elif m.status == "done":
                    loser = m.b_id if m.winner_id == m.a_id else m.a_id
                    win = m.winner_id if m.winner_id is not None else m.a_id
                    parts.append(f"**{_name(picture, win)}** beat {_name(picture, loser)}")
                else:
                    parts.append(f"{_name(picture, m.a_id)} vs {_name(picture, m.b_id)}")
            lines.append(f"**Round {number}**: " + " · ".join(parts))
        return "\n".join(lines)
    return "\n".join(_standing_line(picture, s) for s in picture.standings)


def picture_embed(picture: Picture, games: Games) -> discord.Embed:
    t = picture.tournament
    head = f"{FORMAT_LABELS[t.format]} · {games.label(t.game_key)}"
    length = f"Matches: best of {t.best_of}" if t.best_of > 1 else ""
    if t.format == "elimination" and t.final_best_of != t.best_of:
        length = (length + ", " if length else "") + f"the final best of {t.final_best_of}"
    fee = f"{length}\n" if length else ""
    if t.fee:
        pool = t.fee * len(picture.entries)
        fee += (
            f"Entry fee {t.fee:,} chips · prize pool {pool:,} chips,"
            f" {PRIZE_LABELS.get(t.prize, t.prize)}\n"
        )
    if t.status == "signup":
        names = [f"`{i}.` {md_name(e.name)}" for i, e in enumerate(picture.entries, 1)]
        body = (
            "Sign-up is open: press **Join**. The organiser presses **Start**.\n\n"
            f"**Players ({len(names)})**\n" + ("\n".join(names) or "Nobody yet.")
        )
    elif t.status == "running":
        body = f"Round {t.round} of {t.rounds}\n\n" + standings_text(picture)
    elif t.status == "finished":
        winner = picture.places[0] if picture.places else picture.standings[0].id
        body = f"🏆 **{_name(picture, winner)}** won.\n\n" + standings_text(picture)
    else:
        body = "Cancelled: no result."
    if t.status == "cancelled":
        body += " Every entry fee was refunded." if t.fee else ""
        fee = ""
    return discord.Embed(title=f"{TITLE}{t.id} · {head}", description=fee + body, colour=COLOUR)


class TournamentButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tn:(?P<id>[0-9]{1,18}):(?P<action>join|leave|start)",
):
    LABELS = {"join": "Join", "leave": "Leave", "start": "Start"}

    def __init__(self, tournament_id: int, action: str) -> None:
        style = discord.ButtonStyle.success if action == "start" else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(
                label=self.LABELS[action], style=style, custom_id=f"tn:{tournament_id}:{action}"
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
        return is_button(interaction)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await self._press(interaction)
        except TournamentError as exc:
            await handle_error(interaction, refusal(exc), f"on tournament {self.tournament_id}")
        except Exception as exc:
            await handle_error(interaction, exc, f"on tournament {self.tournament_id}")

    async def _press(self, interaction: discord.Interaction[Any]) -> None:
        shell = shell_of(interaction)
        service = shell.tournaments
        t = await service.get(self.tournament_id)
        if t.guild_id != interaction.guild_id:
            raise TournamentError("unknown")
        user = interaction.user
        if self.action == "join":
            if user.bot:
                raise UserError("Bots don't enter tournaments.")
            await service.join(t.id, user.id, clean_name(user.display_name))
        elif self.action == "leave":
            await service.leave(t.id, user.id)
        else:
            if not is_admin(interaction) and user.id != t.created_by:
                raise Forbidden("Only the organiser or a member with Manage Server can start it.")
            await interaction.response.defer()
            await service.start(t.id)
            await interaction.edit_original_response(**await signup_message(shell, t.id))
            await post_due(interaction.client, shell)
            return
        await interaction.response.edit_message(**await signup_message(shell, t.id))


async def signup_message(shell: Shell, tournament_id: int) -> dict[str, Any]:
    picture = await shell.tournaments.picture(tournament_id)
    view = discord.ui.View(timeout=None)
    if picture.tournament.status == "signup":
        for action in ("join", "leave", "start"):
            view.add_item(TournamentButton(tournament_id, action))
    return {"embed": picture_embed(picture, shell.games), "view": view}


async def post_due(client: Any, shell: Shell) -> None:
    """Open the tables of every paired match and post them, each in a thread of its own;
    then post the standings of each round just started or tournament just finished."""
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
    table = await shell.tables.get(table_id)
    channel = await _channel(client, table.row.channel_id)
    names = " vs ".join(f"<@{s.user_id}>" for s in table.seats if s.user_id is not None)
    head = await channel.send(
        f"⚔️ Tournament match: {names} · table #{table.id}",
        allowed_mentions=discord.AllowedMentions(users=True),
    )
    title = f"{presentation(table.game).title(table.settings)} #{table.id}"[:100]
    thread = await head.create_thread(name=title, auto_archive_duration=1440)
    message = await thread.send(**shell.publisher.turn_message(table))
    await shell.publisher.set_game_message(table, thread_id=thread.id, message_id=message.id)
    shell.publisher.mark_shown(table)


async def _post_standings(client: Any, shell: Shell, t: Tournament) -> None:
    picture = await shell.tournaments.picture(t.id)
    channel = await _channel(client, t.channel_id)
    await channel.send(
        embed=picture_embed(picture, shell.games), allowed_mentions=discord.AllowedMentions.none()
    )
