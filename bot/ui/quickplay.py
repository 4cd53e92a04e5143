"""Quick play on Discord (issue 36): the words of its refusals, its persistent buttons
(Leave the queue, Ready, Play a bot now: ``qp:<action>:<member>[:<check>]``, each pressed by
the member it names only) and what a matching pass shows: a Ready message to each matched
member in the channel they queued from, the table opened as any started table, the
outcome of a ready check that ran out, and the bot offer."""

from __future__ import annotations

import contextlib
import functools
import logging
import re
from typing import Any

import discord

from bot.errors import UserError, add_texts
from bot.games.base import RulesPage
from bot.games.registry import Games
from bot.i18n.speaking import N_, _, number, plural
from bot.render.common import user_mention
from bot.tables.model import Table, TablePlace
from bot.tables.names import md_name
from bot.tables.quickplay import (
    NO_SHOW_TIMEOUT,
    READY_SECONDS,
    MatchRow,
    Queued,
    QueueRow,
    QuickPlay,
    table_link,
)
from bot.ui.buttons import is_button
from bot.ui.checks import fits_id
from bot.ui.compose import ping_payload
from bot.ui.errors import handle_error, reply_private
from bot.ui.shell import Shell, shell_of

log = logging.getLogger(__name__)

PINGS = discord.AllowedMentions(everyone=False, roles=False, users=True)


def _queued(game_key: str, here: bool, channel_id: int = 0) -> str:
    if here:
        return _(
            "You're already in the queue (for %(game)s): /play leave first.",
            game=_game(game_key),
        )
    return _(
        "You're already in the queue in another server (in <#%(channel)s>, for %(game)s): one "
        "queue at a time.",
        channel=channel_id,
        game=_game(game_key),
    )


@functools.cache
def _games() -> Games:
    return Games()


def _game(game_key: str) -> str:
    return _games().label(game_key)


add_texts(
    {
        "quick.mode": lambda: _("Pick off, here or everywhere."),
        "quick.game": lambda: _("Quick play doesn't offer that game."),
        "quick.variant": lambda: _("Only Sequences has variants: leave variant empty."),
        "quick.bot_after": lambda low, high: _(
            "The wait before a bot is offered must be between %(low)s and %(high)s seconds.",
            low=number(low),
            high=number(high),
        ),
        "quick.off": lambda: _("Quick play is off on this server (/settings quickplay)."),
        "quick.here_only": lambda: _(
            "This server plays quick play only here (/settings quickplay): queue with "
            "where: here, or ask an admin for everywhere."
        ),
        "quick.timed_out": lambda until: _(
            "You missed three ready checks within an hour: you can queue again <t:%(at)s:R>.",
            at=int(until),
        ),
        "quick.seated": lambda game, channel_id: _(
            "You're playing at table #%(game)s (<#%(channel)s>): finish it before you queue.",
            game=game,
            channel=channel_id,
        ),
        "quick.queued": _queued,
        "quick.not_queued": lambda: _("You're not in the queue."),
        "quick.in_check": lambda: _(
            "You've been matched: press Ready on the message that called you, or let it run out."
        ),
        "quick.block_self": lambda: _("You can't block yourself."),
        "quick.block_max": lambda most: plural(
            "You can block at most %(count)s member.",
            "You can block at most %(count)s members.",
            most,
        ),
        "quick.blocked_already": lambda member: _(
            "You had already blocked %(member)s.", member=user_mention(member)
        ),
        "quick.not_blocked": lambda member: _(
            "You haven't blocked %(member)s.", member=user_mention(member)
        ),
        "quick.not_your_check": lambda: _("That ready check isn't yours."),
        "quick.ready_already": lambda: _("You're ready; waiting for the others."),
        "quick.ready_late": lambda: _("That ready check is over."),
    }
)


# /rules game:quickplay: the numbers of docs/rules.md, "Quick play".
QUICKPLAY_RULES = RulesPage(
    "quickplay",
    N_("Quick play: the queue, matching and ready checks"),
    # TRANSLATORS: /rules game:quickplay. **Ready** and **Play a bot now** are the buttons'
    # labels: write them as the buttons say them in your language.
    N_(
        "• `/play queue` waits for an opponent in this server for one game; one queue at a "
        "time, and not while you play at a table.\n"
        "• `where: everywhere` (where this server chose it) waits in every server that did: "
        "you are matched on your rating of the everywhere ladder, and the table shows in "
        "each player's own server, in a thread of its own, with no stake; only the game "
        "itself is shared, never a server's chat.\n"
        "• You are matched with the closest rating that fits: ±100 at once, 50 wider every "
        "10 seconds of waiting, at most ±700; the longest waiting first; never with a member "
        "either of you blocked (`/play block`).\n"
        "• Matched, each of you has 30 seconds to press **Ready**. All ready: the table opens "
        "in a thread and starts. Someone not ready: the others go back to the front, keeping "
        "their wait, the no-show to the end; three no-shows in an hour: 10 minutes out.\n"
        "• After your wait (60 seconds unless you chose `bot-after`), **Play a bot now** is "
        "offered once, at the level nearest your rating; games with a bot move no rating."
    ),
)


def wait_line(queued: Queued, bot_after: float) -> str:
    """The private answer to a member who queued (or asks where they are)."""
    game = _game(queued.entry.game_key)
    values = {"game": game, "place": number(queued.place), "waiting": number(queued.waiting)}
    place = (
        _(
            "You're in the queue for %(game)s: number %(place)s of %(waiting)s waiting across "
            "servers.",
            **values,
        )
        if queued.entry.everywhere
        else _(
            "You're in the queue for %(game)s: number %(place)s of %(waiting)s waiting here.",
            **values,
        )
    )
    if queued.wait is None:
        wait = plural(
            "Nobody near your rating is waiting yet; if nobody comes, you'll be offered a "
            "bot after %(count)s second.",
            "Nobody near your rating is waiting yet; if nobody comes, you'll be offered a "
            "bot after %(count)s seconds.",
            int(bot_after),
        )
    elif queued.wait < 1:
        wait = _("Estimated wait: a few seconds.")
    else:
        wait = plural(
            "Estimated wait: about %(count)s second.",
            "Estimated wait: about %(count)s seconds.",
            int(queued.wait),
        )
    return f"{place} {wait}"


class QuickButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"qp:(?P<action>leave|ready|bot):(?P<user>[0-9]{1,20})(?::(?P<check>[0-9]{1,20}))?",
):
    def __init__(self, action: str, user_id: int, check: int = 0) -> None:
        labels = {"leave": _("Leave the queue"), "ready": _("Ready"), "bot": _("Play a bot now")}
        styles = {
            "leave": discord.ButtonStyle.secondary,
            "ready": discord.ButtonStyle.success,
            "bot": discord.ButtonStyle.primary,
        }
        custom_id = f"qp:{action}:{user_id}" + (f":{check}" if action == "ready" else "")
        super().__init__(
            discord.ui.Button(label=labels[action], style=styles[action], custom_id=custom_id)
        )
        self.action = action
        self.user_id = user_id
        self.check = check

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> QuickButton:
        return cls(match["action"], int(match["user"]), int(match["check"] or 0))

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Only the member the button names: a forged or copied id changes nothing."""
        if not is_button(interaction):
            return False
        ok = fits_id(self.user_id, self.check) and self.user_id > 0
        if self.action == "ready":
            ok = ok and self.check > 0
        if not ok or interaction.user.id != self.user_id:
            await reply_private(interaction, _("This button is someone else's; nothing changed."))
            return False
        return True

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        shell = shell_of(interaction)
        quick = shell.quickplay
        try:
            if quick is None:
                raise UserError(_("Quick play isn't running here."))
            if self.action == "leave":
                left = await quick.leave(self.user_id)
                await reply_private(
                    interaction,
                    _("You left the queue for %(game)s.", game=_game(left.game_key)),
                )
            elif self.action == "ready":
                await press_ready(shell, quick, interaction, self.check)
            else:
                await play_bot(shell, quick, interaction)
        except UserError as exc:
            await reply_private(interaction, str(exc))
        except Exception as exc:
            await handle_error(interaction, exc, f"on quick play's {self.action}")


def leave_view(user_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(QuickButton("leave", user_id))
    return view


# --- a matching pass, shown -----------------------------------------------------------------


async def _channel(client: Any, channel_id: int) -> Any:
    return client.get_channel(channel_id) or await client.fetch_channel(channel_id)


def _ready_text(found: MatchRow, user_id: int) -> str:
    others = ", ".join(user_mention(s.user_id) for s in found.seats if s.user_id != user_id)
    return _(
        "%(member)s, a match for %(game)s with %(others)s: press Ready within %(seconds)s seconds.",
        member=user_mention(user_id),
        game=_game(found.game_key),
        others=others,
        seconds=number(int(READY_SECONDS)),
    )


async def run_pass(client: Any, shell: Shell) -> None:
    """One matching pass (at most one a second) and everything it has to say."""
    quick = shell.quickplay
    if quick is None:
        return
    done = await quick.run_pass()
    languages = shell.publisher.languages
    for found in done.matches:
        for seat in found.seats:  # each where they queued, in their server's language
            async with languages.in_guild(seat.guild_id):
                view = discord.ui.View(timeout=None)
                view.add_item(QuickButton("ready", seat.user_id, found.id))
                try:
                    channel = await _channel(client, seat.channel_id)
                    message = await channel.send(
                        **ping_payload(seat.user_id, _ready_text(found, seat.user_id)), view=view
                    )
                except discord.HTTPException as exc:  # unanswered: the check runs out
                    log.warning("quick play check %s: not asked (%s)", found.id, exc.status)
                    continue
                await quick.set_ready_message(found.id, seat.user_id, message.id)
    for failed in done.failed:
        missing = ", ".join(user_mention(u) for u in failed.no_shows)
        for seat in failed.match.seats:
            async with languages.in_guild(seat.guild_id):
                if seat.user_id in failed.timed_out:
                    text = plural(
                        "%(member)s, you missed three ready checks within an hour: you're "
                        "out of quick play for %(count)s minute.",
                        "%(member)s, you missed three ready checks within an hour: you're "
                        "out of quick play for %(count)s minutes.",
                        int(NO_SHOW_TIMEOUT // 60),
                        member=user_mention(seat.user_id),
                    )
                elif seat.user_id in failed.no_shows:
                    text = _(
                        "%(member)s, you didn't press Ready in time: you're back at the end "
                        "of the queue.",
                        member=user_mention(seat.user_id),
                    )
                else:
                    text = _(
                        "%(member)s, %(missing)s didn't press Ready: you're back at the front "
                        "of the queue.",
                        member=user_mention(seat.user_id),
                        missing=missing,
                    )
                await _edit(client, seat.channel_id, seat.message_id, text)
    for offer in done.offers:
        await _offer_bot(client, shell, offer)


async def _edit(client: Any, channel_id: int, message_id: int | None, text: str) -> None:
    if message_id is None:
        return
    try:
        channel = await _channel(client, channel_id)
        await channel.get_partial_message(message_id).edit(
            content=text, view=None, allowed_mentions=discord.AllowedMentions.none()
        )
    except discord.HTTPException as exc:
        log.warning("quick play: message %s not edited (%s)", message_id, exc.status)


async def _offer_bot(client: Any, shell: Shell, offer: QueueRow) -> None:
    view = discord.ui.View(timeout=None)
    view.add_item(QuickButton("bot", offer.user_id))
    view.add_item(QuickButton("leave", offer.user_id))
    async with shell.publisher.languages.in_guild(offer.guild_id):
        text = _(
            "%(member)s, nobody near your rating has come for %(game)s yet. Play a bot now, "
            "or keep waiting.",
            member=user_mention(offer.user_id),
            game=_game(offer.game_key),
        )
        try:
            channel = await _channel(client, offer.channel_id)
            await channel.send(**ping_payload(offer.user_id, text), view=view)
        except discord.HTTPException as exc:
            log.warning("quick play: no bot offer to %s (%s)", offer.user_id, exc.status)


async def _post_table(shell: Shell, table: Table) -> str | None:
    """Open the started table as a tournament's is (bot.ui.opening): its thread on a line
    naming the players; returns where it is (None: Discord refused it)."""
    client = shell.publisher.client
    head = None
    async with shell.publisher.languages.in_guild(table.row.guild_id):
        players = ", ".join(user_mention(s.user_id) for s in table.seats if s.user_id is not None)
        notice = _(
            "⚡ Quick play, %(game)s: %(players)s · table #%(table)s",
            game=_game(table.row.game_key),
            players=players,
            table=table.id,
        )
    channel = await _channel(client, table.row.channel_id)
    try:
        head = await channel.send(notice, allowed_mentions=PINGS)
    except discord.HTTPException as exc:
        log.warning("quick play table %s: no notice (%s)", table.id, exc.status)
    if not await shell.publisher.started_on(table, head, channel):
        return None
    location = await shell.tables.location(table.id)
    thread = location[0] if location else None
    return table_link(table.row.guild_id, thread or table.row.channel_id)


async def press_ready(
    shell: Shell, quick: QuickPlay, interaction: discord.Interaction[Any], check: int
) -> None:
    found, last = await quick.ready(check, interaction.user.id)
    if not last:
        await interaction.response.edit_message(
            content=_("You're ready; waiting for the others."), view=None
        )
        return
    await interaction.response.defer()
    try:
        table = await quick.open_match(found)
    except UserError as exc:  # never across servers: such a table has no server's caps
        # The table could not open (a cap): everyone is back at the front, and told why.
        text = _("The table couldn't open (%(why)s): you're back at the front of the queue.")
        for seat in found.seats:
            await _edit(
                interaction.client, seat.channel_id, seat.message_id, text % {"why": str(exc)}
            )
        return
    if table.crosses_servers:
        links = await _post_everywhere(shell, table)
    else:
        link = await _post_table(shell, table)
        links = {seat.guild_id: link for seat in found.seats if link}
    for seat in found.seats:
        async with shell.publisher.languages.in_guild(seat.guild_id):
            text = (
                _("Everyone is ready: your table is %(link)s", link=links[seat.guild_id])
                if seat.guild_id in links
                else _("Everyone is ready, but the table couldn't be posted here.")
            )
        await _edit(interaction.client, seat.channel_id, seat.message_id, text)


async def _post_everywhere(shell: Shell, table: Table) -> dict[int, str]:
    """Open a cross-server table in each of its places: a line naming the players from that
    server (the others by their seat's name: a mention of a member of another server would
    show nothing there), its thread, the table message; returns each server's link."""
    game = _game(table.row.game_key)

    def notice(place: TablePlace) -> str:
        players = ", ".join(
            user_mention(s.user_id) if s.user_id in place.user_ids else md_name(s.name)
            for s in table.seats
            if s.user_id is not None
        )
        return _(
            "⚡ Quick play across servers, %(game)s: %(players)s · table #%(table)s",
            game=game,
            players=players,
            table=table.id,
        )

    return await shell.publisher.started_everywhere(table, notice)


async def play_bot(shell: Shell, quick: QuickPlay, interaction: discord.Interaction[Any]) -> None:
    user = interaction.user
    await interaction.response.defer(ephemeral=True, thinking=True)
    table = await quick.play_bot(user.id, user.display_name)
    link = await _post_table(shell, table)
    text = (
        _("Your table with a bot player: %(link)s", link=link)
        if link
        else _("The table couldn't be posted here.")
    )
    await interaction.followup.send(text, ephemeral=True)
    if interaction.message is not None:
        with contextlib.suppress(discord.HTTPException):
            await interaction.message.edit(view=None)


async def tell_taken_out(client: Any, rows: list[QueueRow], mode: str = "off") -> None:
    """Tell each member an admin's /settings quickplay took out of the queue (turned off,
    or to ``here`` while they waited across servers), in the channel they queued from."""
    shell = shell_of_client(client)
    for row in rows:
        async with shell.publisher.languages.in_guild(row.guild_id):
            if mode == "here":
                text = _(
                    "%(member)s, this server now plays quick play only here: you're out of "
                    "the queue across servers for %(game)s.",
                    member=user_mention(row.user_id),
                    game=_game(row.game_key),
                )
            else:
                text = _(
                    "%(member)s, quick play was turned off on this server: you're out of the "
                    "queue for %(game)s.",
                    member=user_mention(row.user_id),
                    game=_game(row.game_key),
                )
        try:
            channel = await _channel(client, row.channel_id)
            await channel.send(**ping_payload(row.user_id, text))
        except discord.HTTPException as exc:
            log.warning("quick play: %s not told of the queue's end (%s)", row.user_id, exc.status)


def shell_of_client(client: Any) -> Shell:
    shell: Shell = client.shell
    return shell
