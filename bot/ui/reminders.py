"""Turn reminders on Discord: the thread's mention or the DM a member chose (/notify; a refused DM
falls back to the thread). Each tick claims only what the pace lets go now, so a burst never holds
up timers or clicks."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from typing import Any

import discord

from bot.games.base import presentation
from bot.i18n.speaking import _, number, plural
from bot.render.common import NO_PINGS
from bot.tables.reminders import DM, Reminder, TurnReminders
from bot.ui.everywhere import Everywhere, at, place_of
from bot.ui.i18n import ServerLanguages
from bot.ui.pings import Pings

log = logging.getLogger(__name__)

# Discord allows 50 requests a second to a bot (docs/scaling.md); reminders take at most a
# fifth of it, in bursts of 20: redraws, clicks and timers need the rest.
REMINDER_BURST = 20
REMINDERS_PER_SECOND = 10
SEND_CONCURRENCY = 8


def in_words(seconds: float) -> str:
    """A duration as a player reads it: "40 seconds", "1 minute", "1 minute 30 seconds",
    "5 minutes" (seconds over a minute to the nearest ten, over ten minutes to the minute)."""
    total = max(1, round(seconds))
    if total < 60:
        return plural("%(count)s second", "%(count)s seconds", total)
    step = 60 if total >= 600 else 10
    total = round(total / step) * step
    minutes, rest = divmod(total, 60)
    if not rest:
        return plural("%(count)s minute", "%(count)s minutes", minutes)
    # TRANSLATORS: "1 minute 30 seconds": %(seconds)s is 10 to 50.
    return plural(
        "%(count)s minute %(seconds)s seconds",
        "%(count)s minutes %(seconds)s seconds",
        minutes,
        seconds=number(rest),
    )


def thread_text(reminder: Reminder) -> str:
    """The mention where the game is played. A game that runs in the channel (no thread)
    names itself: other games may run there too."""
    table = reminder.table
    when = in_words(reminder.seconds_left)
    if table.row.thread_id is None:
        title = presentation(table.game).title(table.settings)
        # TRANSLATORS: keep "⏰ <@%(user)s>," first (see "<@%(user)s>, your turn.").
        return _(
            "⏰ <@%(user)s>, your turn in %(game)s #%(id)s ends in %(when)s.",
            user=reminder.user_id,
            game=title,
            id=table.id,
            when=when,
        )
    # TRANSLATORS: keep "⏰ <@%(user)s>," first (see "<@%(user)s>, your turn.").
    return _("⏰ <@%(user)s>, your turn ends in %(when)s.", user=reminder.user_id, when=when)


def dm_text(reminder: Reminder) -> str:
    table = reminder.table
    title = presentation(table.game).title(table.settings)
    where = f"https://discord.com/channels/{table.row.guild_id}/{table.game_channel_id}"
    if table.row.message_id is not None:
        where += f"/{table.row.message_id}"
    return _(
        "⏰ Your turn in %(game)s #%(id)s ends in %(when)s: %(link)s",
        game=title,
        id=table.id,
        when=in_words(reminder.seconds_left),
        link=where,
    )


class _Budget:
    """A token bucket: ``burst`` at once, refilled at ``per_second``; never waits."""

    def __init__(self, burst: int, per_second: float) -> None:
        self.burst = burst
        self.per_second = per_second
        self.tokens = float(burst)
        self.last: float | None = None

    def take(self, wanted: int) -> int:
        now = asyncio.get_running_loop().time()
        if self.last is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.last) * self.per_second)
        self.last = now
        granted = min(wanted, int(self.tokens))
        self.tokens -= granted
        return granted

    def give_back(self, unused: int) -> None:
        self.tokens = min(self.burst, self.tokens + unused)


class ReminderPoster:
    def __init__(
        self,
        client: discord.Client,
        reminders: TurnReminders,
        pings: Pings | None = None,
        languages: ServerLanguages | None = None,
        everywhere: Everywhere | None = None,
    ) -> None:
        self.client = client
        # In the thread, the server's words; in a DM, the member's own (from their clicks).
        self.languages = languages or ServerLanguages(client=client)
        self.reminders = reminders
        self.pings = pings  # in the thread, a reminder takes the place of the turn's ping
        self.everywhere = everywhere  # a cross-server table reminds in the member's place
        self._budget = _Budget(REMINDER_BURST, REMINDERS_PER_SECOND)

    async def next_due(self) -> float | None:
        return await self.reminders.next_due()

    async def run(self) -> int:
        """Claim the reminders due now (as many as the budget allows) and send them; returns
        how many were sent."""
        allowed = self._budget.take(REMINDER_BURST)
        claimed = await self.reminders.claim_due(allowed)
        self._budget.give_back(allowed - len(claimed))
        limit = asyncio.Semaphore(SEND_CONCURRENCY)

        async def send(reminder: Reminder) -> bool:
            async with limit:
                try:
                    return await self.send(reminder)
                except Exception:  # claimed: it is not sent again; the others still go
                    log.exception("game %s: reminder failed", reminder.table.id)
                    return False

        sent = await asyncio.gather(*(send(r) for r in claimed))
        return sum(sent)

    async def send(self, reminder: Reminder) -> bool:
        table = reminder.table
        if table.crosses_servers and self.everywhere is not None:
            await self.everywhere.places(table)
            place = place_of(table, reminder.user_id)
            if place is not None:  # as that place shows the table: its thread, its words
                reminder = dataclasses.replace(reminder, table=at(table, place))
        if reminder.via == DM and await self._direct(reminder):
            return True
        return await self._in_thread(reminder)

    async def _direct(self, reminder: Reminder) -> bool:
        """The DM the member asked for; False when Discord refuses it (DMs closed: 50007),
        and the reminder goes to the thread instead, with no word to anyone."""
        try:
            channel = await self.client.create_dm(discord.Object(reminder.user_id))
            with self.languages.to_member(reminder.user_id):
                text = dm_text(reminder)
            await channel.send(text, allowed_mentions=NO_PINGS)
        except discord.HTTPException as exc:
            log.info(
                "game %s: reminder DM refused (%s %s); reminding in the thread",
                reminder.table.id,
                exc.status,
                exc.code,
            )
            return False
        return True

    async def _in_thread(self, reminder: Reminder) -> bool:
        table = reminder.table
        mention = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(reminder.user_id)]
        )
        async with self.languages.public(table):
            text = thread_text(reminder)
        try:
            if self.pings is not None:
                await self.pings.remind(table, reminder.user_id, text)
                return True
            channel: Any = self.client.get_channel(
                table.game_channel_id
            ) or await self.client.fetch_channel(table.game_channel_id)
            await channel.send(text, allowed_mentions=mention)
        except discord.HTTPException as exc:  # a reminder is a courtesy: the turn goes on
            log.info("game %s: reminder not posted (%s)", table.id, exc.status)
            return False
        return True
