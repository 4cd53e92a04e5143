"""The timers: deadlines on each table's row, fired by ``run_due`` against the injected clock, so
tests move time without sleeping. A peer of the table kernel."""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import Awaitable, Callable, Iterator
from contextlib import AsyncExitStack, contextmanager
from functools import partial
from typing import Any

from bot.errors import DatabaseUnavailable, StaleAction, UserError
from bot.store import games
from bot.tables import events as ev
from bot.tables.kernel import TableKernel
from bot.tables.model import Change, Table, request_over

log = logging.getLogger(__name__)

MAX_EXPIRIES = 3  # turns in a row a member's timer runs out before their seat forfeits
TIMER_CONCURRENCY = 256  # timers fired at once in one tick (their saves share transactions)


_gc_pauses = 0  # run_due calls under way with the cyclic collector paused (see _gc_paused)


@contextmanager
def _gc_paused() -> Iterator[None]:
    """The cyclic garbage collector off while a tick fires its timers, on again after: the
    tick holds every table it fired, and each collection would scan them all again
    (docs/performance.md, "The garbage collector")."""
    global _gc_pauses
    if not gc.isenabled() and _gc_pauses == 0:
        yield  # someone else turned it off: theirs to turn on
        return
    _gc_pauses += 1
    gc.disable()
    try:
        yield
    finally:
        _gc_pauses -= 1
        if _gc_pauses == 0:
            gc.enable()


class TableTimers:
    def __init__(self, kernel: TableKernel) -> None:
        self.kernel = kernel

    async def next_deadline(self) -> float | None:
        return await games.next_deadline(self.kernel.db, self.kernel.shard_filter)

    async def run_due(self, on_change: Callable[[Change], None] | None = None) -> list[Change]:
        """Fire every timer past its deadline, several at once so their saves commit together; each
        timer fires once across processes, the save being the claim (docs/reliability.md, "Timers in
        two processes")."""

        async def one(table: Table) -> Change | None:
            table_id = table.id
            try:
                change = await self._fire_locked(table)
            except StaleAction:
                log.debug("timer for game %s: another change came first", table_id)
                return None
            except UserError as exc:  # e.g. a bot found no legal move: log, don't loop
                log.warning("timer for game %s refused: %s", table_id, exc)
                return None
            except DatabaseUnavailable as exc:  # nothing saved: it fires on a later tick
                log.warning("timer for game %s waits for the database: %s", table_id, exc)
                return None
            except Exception:
                # One broken table must not stop the others: first by deadline, it would come
                # first for ever.
                log.exception("timer for game %s failed; the others still fire", table_id)
                return None
            if change is not None and on_change is not None:
                on_change(change)
            return change

        # Up to TIMER_CONCURRENCY due tables at a time, locked, read in one query and fired
        # together, so that their saves commit together.
        due = await games.due(self.kernel.db, self.kernel.clock(), shards=self.kernel.shard_filter)
        if not due:
            return []
        with _gc_paused():
            fired = await self._fire_due(due, one)
        order = {table_id: index for index, table_id in enumerate(due)}
        return sorted(fired, key=lambda change: order[change.table.id])

    async def _fire_due(
        self, due: list[int], one: Callable[[Table], Awaitable[Change | None]]
    ) -> list[Change]:
        fired: list[Change] = []
        for start in range(0, len(due), TIMER_CONCURRENCY):
            chunk = sorted(due[start : start + TIMER_CONCURRENCY])
            changes: list[Change | None] = []
            async with AsyncExitStack() as held:
                for table_id in chunk:
                    await held.enter_async_context(self.kernel.hold(table_id))
                try:
                    rows = await games.rows(self.kernel.db, chunk)
                except DatabaseUnavailable as exc:  # nothing fired: a later tick
                    log.warning("timers wait for the database: %s", exc)
                    break
                except Exception:  # as for one timer that fails: logged, the others fire
                    log.exception("timers of games %s to %s failed", chunk[0], chunk[-1])
                    continue
                tables: list[Table] = []
                for row in rows:
                    try:
                        tables.append(self.kernel.table_of(row))
                    except UserError as exc:
                        log.warning("timer for game %s refused: %s", row.id, exc)
                changes = await asyncio.gather(*(one(table) for table in tables))
            fired += [change for change in changes if change is not None]
        return fired

    async def fire(self, table_id: int) -> Change | None:
        """Fire the table's timer if it is due."""
        async with self.kernel.locked(table_id) as table:
            return await self._fire_locked(table)

    async def _fire_locked(self, table: Table) -> Change | None:
        """``fire`` for a table read under its lock."""
        now = self.kernel.clock()
        if table.row.deadline is None or table.row.deadline > now:
            return None  # someone acted in the meantime
        if table.status == "lobby":
            return await self.kernel.close(table, "expired", None, ev.Closed(ev.EXPIRED))
        if table.status != "running":
            return None
        request = table.pending_request
        if request is not None and request["until"] <= now:
            return await self.request_ran_out(table)
        game = table.game
        assert table.rules is not None
        current = game.current_seat(table.rules)
        if current is None:
            return None
        seat = table.seats[current]
        if seat.is_bot:
            level = seat.bot_level or ""
            job = game.bot_job(table.rules, level, self.kernel.rng)
            # A search thinks in a worker process: other tables go on meanwhile. One that
            # overruns the pool's guard plays what a timed-out turn plays instead.
            rng = self.kernel.rng
            steps = (
                game.bot_step(table.rules, level, rng)
                if job is None
                else (await self.kernel.bots.run(job, partial(game.timeout_step, table.rules, rng)))
            )
            return await self.kernel.play(table, steps, None, "bot")
        return await self.turn_ran_out(table, current)

    async def request_ran_out(self, table: Table) -> Change:
        """The pending request's timer fired: its message says so; the turn's own timer,
        restored to the row, fires at the next tick if it is due too."""
        request_over(table, "expired")
        await self.kernel.save(table, None, "end_request_over", {"why": "expired"})
        return Change(table)

    async def turn_ran_out(self, table: Table, current: int) -> Change:
        """The timer of ``current``, a member's seat, fired: a third expiry in a row forfeits
        the seat; before that the bot plays the rest of the turn for them."""
        kernel = self.kernel
        game = table.game
        assert table.rules is not None
        table.expiries[current] += 1
        if table.expiries[current] >= MAX_EXPIRIES:
            forfeited = ev.Forfeited(current, MAX_EXPIRIES)
            return await kernel.forfeit(table, current, forfeited, None, "forfeit")
        table.add_event(ev.TimedOut(current))
        # Play the rest of the absent seat's turn (RULINGS §4), one step at a time with
        # the real dice, since what comes next depends on how they fall.
        turn = game.turn_index(table.rules)
        details: list[dict[str, Any]] = []
        while game.current_seat(table.rules) == current and game.turn_index(table.rules) == turn:
            kernel.apply(table, game.timeout_step(table.rules, self.kernel.rng), details)
        return await kernel.commit(table, turn, details, None, "timeout")
