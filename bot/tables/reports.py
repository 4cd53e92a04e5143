"""Reporting a table (``/play report``, issue 36): a member seated at a table, live or
ended within the last day, tells the bot's operator about it once. The report is stored
(``bot.store.reports``) and logged at WARNING, for the operator's eyes only: its reason is
never drawn in Discord. Refusals are codes; ``bot.ui.reports`` words them."""

from __future__ import annotations

import logging

from bot.errors import StaleAction, UserError
from bot.records import DAY
from bot.store import games
from bot.store import reports as store
from bot.store.reports import TableReport
from bot.tables.kernel import TableKernel

__all__ = ["REASON_MAX", "REPORT_HOURS", "TableReport", "TableReports"]

log = logging.getLogger(__name__)

REASON_MAX = 300
REPORT_HOURS = 24  # a table that ended longer ago than this is no longer reported
_LIVE = ("lobby", "running")


class TableReports:
    def __init__(self, kernel: TableKernel) -> None:
        self.kernel = kernel

    async def table_here(self, thread_id: int) -> int | None:
        """The table whose thread (in any server) the channel ``thread_id`` is."""
        row = await games.in_thread(self.kernel.db, thread_id)
        return None if row is None else row.id

    async def report(
        self, table_id: int, *, user_id: int, guild_id: int, channel_id: int, reason: str
    ) -> int:
        """Store and log the member's report of the table; its id. Raises ``UserError``:
        the reason empty or too long, the table unknown, the member not seated there, the
        table ended too long ago, or a second report of it by the member."""
        text = reason.strip()
        if not text:
            raise UserError(code="report.empty")
        if len(text) > REASON_MAX:
            raise UserError(code="report.long", limit=REASON_MAX)
        try:
            table = await self.kernel.get(table_id)
        except StaleAction:
            raise UserError(code="report.unknown", table=table_id) from None
        if user_id not in {seat.user_id for seat in table.seats}:
            raise UserError(code="report.not_seated", table=table_id)
        now = self.kernel.clock()
        row = table.row
        if row.status not in _LIVE:
            ended = row.finished_at if row.finished_at is not None else row.updated_at
            if now - ended > REPORT_HOURS * DAY / 24:
                raise UserError(code="report.too_late", table=table_id, hours=REPORT_HOURS)
        report_id = await store.add(
            self.kernel.db, game_id=table_id, user_id=user_id, guild_id=guild_id,
            channel_id=channel_id, reason=text, now=now,
        )  # fmt: skip
        if report_id is None:
            raise UserError(code="report.twice", table=table_id)
        servers = sorted({place.guild_id for place in await store.places(self.kernel.db, table_id)})
        # %r: a reason's line breaks cannot forge a log line of their own.
        log.warning(
            "table #%d reported (report %d) by member %d from server %d; the table's servers: "
            "%s; reason: %r",
            table_id, report_id, user_id, guild_id, ", ".join(map(str, servers)), text,
        )  # fmt: skip
        return report_id

    async def since(self, at: float) -> list[TableReport]:
        return await store.since(self.kernel.db, at)
