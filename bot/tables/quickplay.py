"""Quick play (issue 36): the queue, blocks, the matching pass, ready checks and the bot
offer, as the shell calls them, within one server (``where: here``) or across the servers
that chose ``everywhere`` (``where: everywhere``: the table is EVERYWHERE's, shown in one
place per server, ``bot.store.places``). The SQL is in ``bot.store.queue``; the grouping by
rating is the pure ``bot.tables.quickplay_match``.

The numbers are said to players in docs/rules.md ("Quick play").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.errors import UserError
from bot.records import EVERYWHERE
from bot.store import places, stats
from bot.store import queue as store
from bot.store.db import Connection
from bot.store.queue import MODES, Failed, MatchRow, QueueRow
from bot.tables.clock import Clock
from bot.tables.model import Table
from bot.tables.quickplay_match import Entry, match, wait_for_window
from bot.tables.service import TableService
from bot.tables.shards import EVERY_GUILD, Shards

__all__ = ["Failed", "MatchRow", "Pass", "QueueRow", "Queued", "QuickPlay"]

READY_SECONDS = 30.0  # to press Ready once matched
PASS_EVERY = 1.0  # seconds between two matching passes of one process
NO_SHOW_STRIKES = 3  # missed ready checks ...
NO_SHOW_WINDOW = 3600.0  # ... within an hour ...
NO_SHOW_TIMEOUT = 600.0  # ... keep a member out of the queue this long
BOT_AFTER_DEFAULT = 60  # seconds of waiting before "Play a bot now"
BOT_AFTER_LOW, BOT_AFTER_HIGH = 10, 3600
MAX_BLOCKS = 100  # members one member may block
# The rating a bot level stands for when the offer picks one (weakest level first):
# 900, 1,100, 1,300, ... (a newcomer's 1,000 is nearest the weakest two; a tie: the weaker).
BOT_LEVEL_BASE, BOT_LEVEL_STEP = 900, 200

# Game key -> (game kind, table settings): the games quick play offers, at their standard
# settings (bot.ui's tournament_games, given by the shell).
QuickGames = Mapping[str, tuple[str, dict[str, Any]]]


@dataclass(frozen=True, slots=True)
class Queued:
    entry: QueueRow
    place: int  # 1: next in line for the game in this server (or across servers)
    waiting: int  # members waiting for the game there, the member included
    wait: float | None  # seconds until someone waiting is within reach; None: nobody yet


@dataclass(frozen=True, slots=True)
class Pass:
    """What one matching pass did: ready checks to ask, checks that ran out, bot offers."""

    matches: list[MatchRow]
    failed: list[Failed]
    offers: list[QueueRow]


def bot_level(levels: tuple[str, ...], rating: int) -> str | None:
    """The bot level whose rating (``BOT_LEVEL_BASE + BOT_LEVEL_STEP * i``) is nearest."""
    if not levels:
        return None
    return min(
        enumerate(levels), key=lambda il: abs(BOT_LEVEL_BASE + BOT_LEVEL_STEP * il[0] - rating)
    )[1]


def table_link(guild_id: int, channel_id: int) -> str:
    return f"https://discord.com/channels/{guild_id}/{channel_id}"


class QuickPlay:
    def __init__(
        self,
        tables: TableService,
        games: QuickGames,
        clock: Clock,
        shards: Shards = EVERY_GUILD,
    ) -> None:
        self.db = tables.db
        self.tables = tables
        self.games = games
        self.clock = clock
        self._shards = shards.subset()
        self._last_pass: float | None = None

    # --- a server's choice --------------------------------------------------------------

    async def mode(self, guild_id: int) -> tuple[str, int | None]:
        return await store.guild_mode(self.db, guild_id)

    async def set_mode(self, guild_id: int, mode: str, actor_id: int) -> list[QueueRow]:
        """Returns the members taken out of the queue (turned off: every waiting one)."""
        if mode not in MODES:
            raise UserError(code="quick.mode")
        return await store.set_guild_mode(self.db, guild_id, mode, actor_id, self.clock())

    async def set_channel(self, guild_id: int, channel_id: int | None, actor_id: int) -> None:
        await store.set_guild_channel(self.db, guild_id, channel_id, actor_id, self.clock())

    async def sizes(self, guild_id: int) -> dict[str, int]:
        return await store.sizes(self.db, guild_id)

    # --- the queue ----------------------------------------------------------------------

    async def join(
        self,
        *,
        guild_id: int,
        channel_id: int,
        user_id: int,
        name: str,
        game_key: str,
        bot_after: int = BOT_AFTER_DEFAULT,
        everywhere: bool = False,
    ) -> Queued:
        """Queue the member, in this server's queue or (``everywhere``) in the one across
        the servers that chose ``everywhere``, matched on that ladder's rating."""
        if game_key not in self.games:
            raise UserError(code="quick.game")
        if not BOT_AFTER_LOW <= bot_after <= BOT_AFTER_HIGH:
            raise UserError(code="quick.bot_after", low=BOT_AFTER_LOW, high=BOT_AFTER_HIGH)
        mode, _ = await self.mode(guild_id)
        if mode == "off":
            raise UserError(code="quick.off")
        if everywhere and mode != "everywhere":
            raise UserError(code="quick.here_only")
        now = self.clock()
        until = await store.timeout_until(self.db, user_id, now)
        if until is not None:
            raise UserError(code="quick.timed_out", until=until)
        seated = await store.seated_at(self.db, user_id)
        if seated is not None:
            game_id, channel, thread, table_guild = seated
            if table_guild == EVERYWHERE:  # the link of the place in this server, if any
                shown = await places.of_game(self.db, game_id)
                mine = [p for p in shown if p.guild_id == guild_id] or shown
                if mine:
                    channel, thread = mine[0].channel_id, mine[0].thread_id
            raise UserError(code="quick.seated", game=game_id, channel_id=thread or channel)
        had = await store.entry(self.db, user_id)
        if had is not None:
            raise self._queued(had, guild_id)
        scope = EVERYWHERE if everywhere else guild_id  # the ladder the member is matched on
        rating = await store.rating_of(self.db, scope, game_key, user_id)
        await stats.remember_member(self.db, guild_id, user_id, name, now=now)
        if not await store.enqueue(
            self.db, user_id=user_id, guild_id=guild_id, channel_id=channel_id,
            game_key=game_key, rating=rating, now=now, bot_after=float(bot_after),
            everywhere=everywhere,
        ):  # fmt: skip
            had = await store.entry(self.db, user_id)  # queued at the same moment elsewhere
            if had is None:
                raise UserError(code="quick.queued", game_key=game_key, here=True, channel_id=0)
            raise self._queued(had, guild_id)
        return await self.place(user_id)

    @staticmethod
    def _queued(had: QueueRow, guild_id: int) -> UserError:
        """Already queued: where (``channel_id``: the channel they queued from)."""
        return UserError(
            code="quick.queued",
            game_key=had.game_key,
            here=had.guild_id == guild_id,
            channel_id=had.channel_id,
        )

    async def place(self, user_id: int) -> Queued:
        entry = await store.entry(self.db, user_id)
        if entry is None:
            raise UserError(code="quick.not_queued")
        rows = await store.waiting(self.db, entry.guild_id, entry.game_key, entry.everywhere)
        ahead = [r for r in rows if (r.queued_at, r.user_id) < (entry.queued_at, entry.user_id)]
        now = self.clock()
        waits = []
        for other in rows:
            if other.user_id == user_id:
                continue
            need = wait_for_window(other.rating - entry.rating)
            if need is not None:
                waited = min(now - entry.queued_at, now - other.queued_at)
                waits.append(max(0.0, need - waited))
        return Queued(
            entry=entry,
            place=len(ahead) + 1,
            waiting=len(rows),
            wait=min(waits) if waits else None,
        )

    async def leave(self, user_id: int) -> QueueRow:
        left = await store.leave(self.db, user_id)
        if left is not None:
            return left
        if await store.entry(self.db, user_id) is not None:
            raise UserError(code="quick.in_check")
        raise UserError(code="quick.not_queued")

    # --- blocks -------------------------------------------------------------------------

    async def block(self, user_id: int, other_id: int) -> None:
        if other_id == user_id:
            raise UserError(code="quick.block_self")
        if await store.block_count(self.db, user_id) >= MAX_BLOCKS:
            raise UserError(code="quick.block_max", most=MAX_BLOCKS)
        if not await store.block(self.db, user_id, other_id, self.clock()):
            raise UserError(code="quick.blocked_already", member=other_id)

    async def unblock(self, user_id: int, other_id: int) -> None:
        if not await store.unblock(self.db, user_id, other_id):
            raise UserError(code="quick.not_blocked", member=other_id)

    async def blocked(self, user_id: int) -> list[int]:
        return await store.blocked(self.db, user_id, MAX_BLOCKS)

    # --- matching -----------------------------------------------------------------------

    def _seats(self, game_key: str) -> int:
        return 2

    async def run_pass(self, force: bool = False) -> Pass:
        """One pass, at most once a ``PASS_EVERY`` (``force``: now): the ready checks that
        ran out are closed, waiting members are grouped and claimed, bot offers are due."""
        now = self.clock()
        if not force and self._last_pass is not None and now - self._last_pass < PASS_EVERY:
            return Pass([], [], [])
        self._last_pass = now
        failed = await store.expire_checks(
            self.db, now, window=NO_SHOW_WINDOW, strikes=NO_SHOW_STRIKES,
            timeout=NO_SHOW_TIMEOUT, shards=self._shards,
        )  # fmt: skip

        def pool(row: QueueRow) -> int:
            return EVERYWHERE if row.everywhere else row.guild_id

        def grouper(rows: list[QueueRow], blocks: set[tuple[int, int]]) -> list[store.Group]:
            # Entries waiting across servers share one pool, EVERYWHERE's.
            entries = [
                Entry(r.user_id, pool(r), r.channel_id, r.game_key, r.rating, r.queued_at)
                for r in rows
            ]
            return [
                [(e.user_id, e.channel_id) for e in group]
                for group in match(entries, now, blocks, self._seats)
            ]

        made = await store.claim_pass(
            self.db, now, now + READY_SECONDS, grouper, shards=self._shards
        )
        matches = [m for m in [await store.match(self.db, i) for i in made] if m is not None]
        offers = await store.bot_offers_due(self.db, now, shards=self._shards)
        return Pass(matches, failed, offers)

    async def match(self, match_id: int) -> MatchRow | None:
        return await store.match(self.db, match_id)

    async def set_ready_message(self, match_id: int, user_id: int, message_id: int) -> None:
        await store.set_ready_message(self.db, match_id, user_id, message_id)

    async def ready(self, match_id: int, user_id: int) -> tuple[MatchRow, bool]:
        """The member presses Ready: (the check, whether theirs was the last press: then the
        caller opens the table with ``open_match``)."""
        found = await store.match(self.db, match_id)
        if found is None or all(s.user_id != user_id for s in found.seats):
            raise UserError(code="quick.not_your_check")
        pressed, last = await store.press_ready(self.db, match_id, user_id, self.clock())
        if not pressed:
            seat = next(s for s in found.seats if s.user_id == user_id)
            if seat.ready and found.status == "asking":
                raise UserError(code="quick.ready_already")
            raise UserError(code="quick.ready_late")
        again = await store.match(self.db, match_id)
        assert again is not None
        return again, last

    def channel_for(self, found: MatchRow, quickplay_channel: int | None) -> int:
        return quickplay_channel or found.seats[0].channel_id

    async def places_of(self, found: MatchRow) -> list[tuple[int, int, list[int]]]:
        """Where a cross-server check's table is shown: (server, its quick-play channel or
        the channel its first member queued from, the members from there), in seat order."""
        shown: dict[int, tuple[int, list[int]]] = {}
        for seat in found.seats:
            if seat.guild_id not in shown:
                _, channel = await self.mode(seat.guild_id)
                shown[seat.guild_id] = (channel or seat.channel_id, [])
            shown[seat.guild_id][1].append(seat.user_id)
        return [(guild, channel, users) for guild, (channel, users) in shown.items()]

    async def open_match(self, found: MatchRow) -> Table:
        """Open and start the table of a check every member pressed Ready on (the caller won
        the last press: once), seated in the matcher's order; out of the queue. A check
        across servers opens a table of no server's (EVERYWHERE, no stake) with one place
        per server; each seat has the member's name in the server they queued from."""
        kind, settings = self.games[found.game_key]
        users = [s.user_id for s in found.seats]
        then = None
        if found.guild_id == EVERYWHERE:
            shown = await self.places_of(found)
            channel_id = shown[0][1]
            names: dict[int, str] = {}
            for seat in found.seats:
                names |= await store.names(self.db, seat.guild_id, [seat.user_id])

            async def then(conn: Connection, table: Table) -> None:
                await places.add(conn, table.id, shown)
        else:
            _, channel = await self.mode(found.guild_id)
            channel_id = self.channel_for(found, channel)
            names = await store.names(self.db, found.guild_id, users)
        try:
            table = await self.tables.open_lobby(
                guild_id=found.guild_id, channel_id=channel_id, host_id=users[0],
                host_name=names.get(users[0], ""), kind=kind, settings=dict(settings),
                limits=False, then=then,
            )  # fmt: skip
            for user in users[1:]:
                await self.tables.join(table.id, user, names.get(user, ""))
            change = await self.tables.start(table.id, users[0])
        except UserError:
            await store.not_opened(self.db, found.id)
            raise
        await store.opened(self.db, found.id, table.id)
        return change.table

    async def play_bot(self, user_id: int, name: str) -> Table:
        """The member takes the bot offer: out of the queue, at a table with a bot of the
        level nearest their rating, started."""
        entry = await store.leave(self.db, user_id)
        if entry is None:
            raise UserError(code="quick.not_queued")
        kind, settings = self.games[entry.game_key]
        game = self.tables.kind(kind)
        _, channel = await self.mode(entry.guild_id)
        table = await self.tables.open_lobby(
            guild_id=entry.guild_id, channel_id=channel or entry.channel_id, host_id=user_id,
            host_name=name, kind=kind, settings=dict(settings), limits=False,
        )  # fmt: skip
        await self.tables.add_bot(table.id, user_id, bot_level(game.bot_levels, entry.rating))
        change = await self.tables.start(table.id, user_id)
        return change.table
