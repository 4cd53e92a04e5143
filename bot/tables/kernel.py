"""The table kernel: the transaction core every change to a table goes through.

A change takes the table's lock (``locked``), reads the table once under it, changes it and
saves it (``save``) with a log entry in one transaction, as a compare-and-set on the version
it was read at, so a stale or doubled click changes nothing. ``play`` applies a move's steps
and ``commit`` saves them (a result, a new turn's deadline); ``close`` ends a table without
one. A click (``change``) plays on the copy of the table this process saved last, without
reading it; its compare-and-set save is what finds a copy another process made old. The
peers (``TableService``, ``FairPlay``, ``LobbyHost``, ``Rematches``, the turn reminders)
each take the kernel and none imports another (``bot.tables.peers`` wires them).
"""

from __future__ import annotations

import dataclasses
import logging
import random
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any, TypeVar

from bot.errors import StaleAction, UserError
from bot.records import EVERYWHERE, SeatResult
from bot.store import games, jsontext, places
from bot.store.db import Connection, Contention, Database
from bot.store.games import GameRow, VersionConflict
from bot.tables import events as ev
from bot.tables.clock import Clock
from bot.tables.kind import GameKind
from bot.tables.limits import TableLimits
from bot.tables.locks import KeyedLocks
from bot.tables.model import (
    Change,
    Place,
    Table,
    cancel_reminder,
    forfeit_how,
    plan_reminder,
    request_over,
    set_deadline,
)
from bot.tables.seat import Seat
from bot.tables.shards import EVERY_GUILD, Shards
from bot.tables.thinking import BotPool

__all__ = ["MAX_TABLE_ID", "TableHooks", "TableKernel", "check_id"]

log = logging.getLogger(__name__)

CONTENTION_RETRIES = 3  # a change with hooks that lost a deadlock to another process: again
MAX_TABLE_ID = 2**63 - 1  # SQLite's INTEGER range: a larger id makes the driver raise
# Live tables whose last saved row (and its state's text) a process keeps for the next click:
# ~2-10 KB each, the least recently saved let go first.
LIVE_COPIES = 4_096

Extra = Callable[[Connection], Awaitable[None]]
T = TypeVar("T")


class TableHooks:
    """Extension points called inside the table's transactions (money, ratings).

    The base class moves no chips and records no ratings; the wallet layer subclasses it.
    """

    async def on_join(self, conn: Connection, table: Table, seat: Seat) -> None:
        return None

    async def on_leave(self, conn: Connection, table: Table, seat: Seat) -> None:
        return None

    async def on_refund_all(self, conn: Connection, table: Table, why: str) -> None:
        return None

    async def on_finish(self, conn: Connection, table: Table, results: list[SeatResult]) -> None:
        return None


def check_id(table_id: int) -> None:
    """Ids come from custom_ids and command options a client can forge."""
    if not 0 < table_id <= MAX_TABLE_ID:
        raise StaleAction(code="table.gone")


class TableKernel:
    def __init__(
        self,
        db: Database,
        kinds: Mapping[str, GameKind[Any]],
        limits: TableLimits,
        clock: Clock,
        rng: random.Random,
        hooks: TableHooks | None = None,
        shards: Shards = EVERY_GUILD,
        bots: BotPool | None = None,
        live_copies: int = LIVE_COPIES,
    ) -> None:
        self.db = db
        # Where slow bot moves think: the app's worker processes; by default, inline.
        self.bots = bots or BotPool()
        self.kinds = kinds
        self.settings = limits
        self.clock = clock
        self.rng = rng
        self.hooks = hooks or TableHooks()
        # The guilds this process owns: its timers and its redraws after a start are theirs
        # only (another process runs the other shards' guilds on the same database).
        self.shards = shards
        self.shard_filter = shards.subset()
        # Per table: its lock while a change of this process is under way. It is this
        # process's only: another process on the same database has its own, and the version
        # check of every save is what orders the two (``save``).
        self._locks = KeyedLocks()
        # Per live table: the row this process saved last and its state's JSON (``change``).
        # A copy is never trusted alone: the save of a change made on it is a compare-and-set
        # on its version and revision, which every write of the row moves.
        self.live_copies = live_copies
        self._copies: OrderedDict[int, tuple[GameRow, str]] = OrderedDict()
        # Changes made on a copy (no read), and those of them that found it old and ran again.
        self.on_copies = 0
        self.copies_behind = 0

    # --- reading ---------------------------------------------------------------------

    def kind(self, name: str) -> GameKind[Any]:
        try:
            return self.kinds[name]
        except KeyError:
            raise UserError(code="table.unknown_game", name=name) from None

    def table_of(self, row: GameRow) -> Table:
        """The table a row of the store holds, with its game's kind."""
        return Table.from_row(row, self.kind(row.state["kind"]))

    def busy(self, table_id: int) -> bool:
        """Whether a change of this table is under way here (a new one would wait for it)."""
        return self._locks.busy(table_id)

    def live_locks(self) -> int:
        """How many tables hold a lock: those with a change under way (none in between, so
        a table closed here or by another process leaves nothing behind)."""
        return len(self._locks)

    def hold(self, table_id: int) -> AbstractAsyncContextManager[None]:
        """The table's lock alone, for callers that read many tables in one query after."""
        return self._locks.hold(table_id)

    @asynccontextmanager
    async def locked(self, table_id: int, place: Place | None = None) -> AsyncIterator[Table]:
        """The table under its lock, read once there. ``place``: where the click that asks
        comes from, checked on this copy (a button works only in its table's channel)."""
        check_id(table_id)
        async with self._locks.hold(table_id):
            yield await self.get(table_id, place)

    async def get(self, table_id: int, place: Place | None = None) -> Table:
        """The table as the database has it; ``place``: a click's, checked (see ``Place``)."""
        check_id(table_id)
        row = await games.get(self.db, table_id)
        if row is None:
            raise StaleAction(code="table.gone")
        table = self.table_of(row)
        if row.guild_id == EVERYWHERE:  # where a cross-server table is shown: every place
            table.places = tuple(await places.of_game(self.db, table_id))
        if place is not None:
            place.check(table)
        return table

    async def change(
        self, table_id: int, place: Place | None, body: Callable[[Table], Awaitable[T]]
    ) -> T:
        """``body`` on the table under its lock (a click's move): on the copy this process
        saved last, if it keeps one, without reading the row. When the copy was behind (its
        save refused: another process, or a write beside the game's, came since), or it
        refuses the change (a click stale on the copy may be current on the row), and
        nothing was saved, the table is read and ``body`` runs on it once more."""
        check_id(table_id)
        async with self._locks.hold(table_id):
            copy = self._copy(table_id)
            if copy is not None:
                self.on_copies += 1
                seen = (copy.row.version, copy.row.revision)
                try:
                    if place is not None:
                        place.check(copy)
                    return await body(copy)
                except UserError:
                    if (copy.row.version, copy.row.revision) != seen:
                        raise  # saved, then refused: nothing to do again
                    self.copies_behind += 1
                    log.debug("game %s: the copy kept here refused; read again", table_id)
            return await body(await self.get(table_id, place))

    def _copy(self, table_id: int) -> Table | None:
        """The table as this process saved it last, taken out (a change that fails on it
        leaves none; the save of one that succeeds keeps the new one)."""
        kept = self._copies.pop(table_id, None)
        if kept is None:
            return None
        row, text = kept
        return self.table_of(dataclasses.replace(row, state=jsontext.loads(text)))

    def _keep(self, row: GameRow, text: str) -> None:
        """``row`` was just saved with the state ``text``: the copy for the next click. Not
        a cross-server table (its places are read with it) nor an ended one."""
        if row.status not in games.LIVE or row.guild_id == EVERYWHERE:
            self._copies.pop(row.id, None)
            return
        self._copies[row.id] = (dataclasses.replace(row, state={}, remind_set=False), text)
        self._copies.move_to_end(row.id)
        while len(self._copies) > self.live_copies:
            self._copies.popitem(last=False)

    def forget(self, table_id: int) -> None:
        """Keep no copy of the table (its row was written beside this kernel)."""
        self._copies.pop(table_id, None)

    def copies(self) -> int:
        """How many live tables this process keeps a copy of."""
        return len(self._copies)

    @staticmethod
    def require_lobby(table: Table) -> None:
        if table.status != "lobby":
            raise StaleAction(code="lobby.started" if table.status == "running" else "lobby.closed")

    # --- saving ----------------------------------------------------------------------

    async def save(
        self,
        table: Table,
        actor_id: int | None,
        kind: str,
        detail: dict[str, Any],
        extra: Extra | None = None,
    ) -> None:
        """Save the table with a log entry, a compare-and-set on the version it was read at
        (``StaleAction`` if another change came between); ``extra``: more of the same
        transaction (chips, results)."""
        now = self.clock()
        expected = table.row.version
        table.row.version = expected + 1
        table.row.state = table.to_state()
        table.row.updated_at = now
        text = jsontext.dumps(table.row.state)
        save = games.save(table.row, expected, now, actor_id, kind, detail, text)
        try:
            if extra is None:
                # The common click: one job, one hop to the database thread, committed with
                # whatever other changes arrive at the same time (Database.write).
                await self.db.write(save, order=table.id)
            else:  # hooks that move chips or record results are async: their own transaction
                for attempt in range(1, CONTENTION_RETRIES + 1):
                    try:
                        async with self.db.transaction() as conn:
                            await save.run(conn)
                            await extra(conn)
                        break
                    except Contention:
                        # Another process's transaction and this one waited for each other
                        # (wallets credited in another order); this one was rolled back.
                        if attempt == CONTENTION_RETRIES:
                            raise
                        log.debug("game %s: save lost a deadlock; again", table.id)
        except VersionConflict:
            table.row.version = expected
            self.forget(table.id)
            raise StaleAction(code="table.changed") from None
        except BaseException:
            table.row.version = expected
            self.forget(table.id)
            raise
        table.row.remind_set = False  # written: a later save of this copy leaves it be
        table.row.revision = 0  # a new version starts its count of spectators' changes
        self._keep(table.row, text)

    async def save_aside(self, table: Table) -> None:
        """Save a change beside the game's (a spectator): its state, at the same version, a
        compare-and-set on the version and the revision it was read at (``VersionConflict``
        when another save came between: another process's)."""
        table.row.state = table.to_state()
        text = jsontext.dumps(table.row.state)
        row = dataclasses.replace(table.row)
        try:
            await self.db.write(games.set_state(row, text), order=row.id)
        except BaseException:
            self.forget(row.id)
            raise
        table.row.revision = row.revision + 1
        self._keep(table.row, text)

    async def set_location(
        self, table_id: int, thread_id: int | None, message_id: int | None
    ) -> None:
        """Where the game is shown now (its thread, kept when None, and its live message):
        beside the game's change, it moves the row's revision, so no copy kept from before
        it is used again."""
        self.forget(table_id)
        try:
            await self.db.write(games.set_location(table_id, thread_id, message_id), order=table_id)
        finally:
            self.forget(table_id)  # and none a save kept meanwhile

    async def close(
        self, table: Table, status: str, actor_id: int | None, closed: ev.Closed
    ) -> Change:
        """End a lobby or game without a result, every stake refunded."""
        request_over(table, "agreed" if closed.reason == ev.AGREED else "closed")
        table.row.status = status
        table.row.deadline = None
        cancel_reminder(table)
        table.row.finished_at = self.clock()
        table.add_event(closed)

        async def money(conn: Connection) -> None:
            await self.hooks.on_refund_all(conn, table, status)

        # The reason as a code (logs of older versions hold the sentence: nothing reads it).
        await self.save(table, actor_id, status, {"reason": closed.reason}, money)
        return Change(table, closed=True)

    # --- playing ---------------------------------------------------------------------

    def apply(self, table: Table, steps: list[Any], details: list[dict[str, Any]]) -> None:
        """Apply one click's (or one bot move's) steps; a step that ends the turn (a lock
        reaching the full run in Extended) drops the steps after it, which were meant for
        the same turn."""
        game = table.game
        assert table.rules is not None
        turn = game.turn_index(table.rules)
        for step in steps:
            assert table.rules is not None
            if game.turn_index(table.rules) != turn:
                break
            table.rules, detail, event = game.apply(table.rules, step, self.rng, table.seats)
            details.append(detail)
            if event is not None:
                table.add_event(event)

    async def play(
        self, table: Table, steps: list[Any], actor_id: int | None, log_kind: str
    ) -> Change:
        """Apply a move's steps and commit them."""
        game = table.game
        assert table.rules is not None
        before_turn = game.turn_index(table.rules)
        details: list[dict[str, Any]] = []
        self.apply(table, steps, details)
        return await self.commit(table, before_turn, details, actor_id, log_kind)

    async def commit(
        self,
        table: Table,
        before_turn: int,
        details: list[dict[str, Any]],
        actor_id: int | None,
        log_kind: str,
        shown_seat: int | None = None,
    ) -> Change:
        """Save steps applied since the turn ``before_turn``: the result if the game is over
        (with its chips), else the deadline of the turn to play."""
        game = table.game
        assert table.rules is not None
        turn_changed = game.turn_index(table.rules) != before_turn
        results = game.results(table.rules, table.seats)
        if results is not None and table.coached:  # a suggestion was asked for: unrated
            results = [dataclasses.replace(r, coached=r.user_id in table.coached) for r in results]
        if results is not None:
            request_over(table, "finished")
            table.row.status = "finished"
            table.row.deadline = None
            cancel_reminder(table)
            table.row.finished_at = self.clock()
            winners = tuple(r.seat for r in results if r.won)
            # Won by a forfeit (the last side standing): who of the beaten sides left, and
            # how, goes with it (a winner's partner who left is on no beaten side).
            won_teams = {r.team for r in results if r.won and r.team is not None}
            beaten = {r.seat for r in results if not r.won and r.team not in won_teams}
            left = (
                tuple(
                    (seat, forfeit_how(table, seat))
                    for seat in sorted(game.forfeited(table.rules))
                    if seat in beaten
                )
                if any("forfeit" in d for d in details)
                else ()
            )
            # A draw (the board game's blocked game) has no winner to name.
            table.add_event(ev.Won(winners, left) if winners else ev.Draw())

            async def finish(conn: Connection) -> None:
                await games.insert_results(
                    conn, table.id, table.row.guild_id, table.row.game_key, results, self.clock()
                )
                await self.hooks.on_finish(conn, table, results)

            await self.save(table, actor_id, log_kind, {"steps": details}, finish)
            return Change(table, turn_changed=True, finished=True, shown_seat=shown_seat)
        self.set_turn_deadline(table, turn_changed)
        await self.save(table, actor_id, log_kind, {"steps": details})
        return Change(table, turn_changed=turn_changed, shown_seat=shown_seat)

    def set_turn_deadline(self, table: Table, turn_changed: bool) -> None:
        """The deadline of the turn to play (a bot's short delay, a member's timeout) and,
        for a new turn, its reminder."""
        now = self.clock()
        game = table.game
        assert table.rules is not None
        current = game.current_seat(table.rules)
        if turn_changed:
            table.turn_started_at = now
        timeout = int(table.settings.get("turn_timeout", self.settings.turn_timeout_seconds))
        if current is None:
            deadline = None
        elif table.seats[current].is_bot:
            deadline = now + self.settings.bot_turn_delay_seconds
        else:
            deadline = now + timeout if timeout else None  # 0: no turn timer (outside servers)
        set_deadline(table, deadline)
        if turn_changed:  # a new turn, a new reminder (none for a bot's turn)
            plan_reminder(table, now, deadline, timeout)

    async def forfeit(
        self, table: Table, seat: int, event: ev.Event, actor_id: int | None, why: str
    ) -> Change:
        """``seat`` forfeits (resigned, or its turns kept running out); the game goes on
        among the rest, the last side standing wins, and with no member left playing (or
        none present) it is abandoned."""
        game = table.game
        assert table.rules is not None
        before_turn = game.turn_index(table.rules)
        shown = game.current_seat(table.rules)
        table.rules = game.forfeit(table.rules, seat)
        table.forfeits[seat] = ev.RESIGNED if isinstance(event, ev.Resigned) else ev.TIMED_OUT
        table.add_event(event)
        request = table.pending_request
        if request is not None and request["by"] == table.seats[seat].user_id:
            request_over(table, "left")  # nobody is left who asked
        playing = table.humans_playing()
        # Nobody left to play for: every member still seated also let their last turn run
        # out (docs/rules.md, "Forfeits"); a rated win or a pot for an absent seat is wrong.
        present = [i for i in playing if table.expiries[i] == 0]
        if not present:
            humans = [i for i, s in enumerate(table.seats) if not s.is_bot]
            closed = ev.Closed(
                ev.ABANDONED,
                left=tuple((i, table.forfeits[i]) for i in humans if i in table.forfeits),
                missed=tuple((i, table.expiries[i]) for i in humans if table.expiries[i]),
            )
            return await self.close(table, "abandoned", actor_id, closed)
        return await self.commit(
            table, before_turn, [{"forfeit": seat, "why": why}], actor_id, why, shown
        )
