"""Stakes and statistics for tables: hooks run inside the table's transaction, so a seat and its
stake, or a result and its payout, are saved together or not at all."""

from __future__ import annotations

from bot.records import SeatResult
from bot.store import stats
from bot.store.db import Connection
from bot.tables import tournaments, wallets
from bot.tables.clock import Clock
from bot.tables.kernel import TableHooks
from bot.tables.model import Seat, Table


class WalletHooks(TableHooks):
    def __init__(self, clock: Clock) -> None:
        self.clock = clock

    async def on_join(self, conn: Connection, table: Table, seat: Seat) -> None:
        if seat.user_id is not None and table.row.stake > 0:
            await wallets.escrow(
                conn, table.id, table.row.guild_id, seat.user_id, table.row.stake,
                now=self.clock(),
            )  # fmt: skip

    async def on_leave(self, conn: Connection, table: Table, seat: Seat) -> None:
        if seat.user_id is not None:
            await wallets.refund_seat(conn, table.id, seat.user_id, now=self.clock())

    async def on_refund_all(self, conn: Connection, table: Table, why: str) -> None:
        # Cancelled, expired, ended early or abandoned: no result, every stake goes back.
        await wallets.refund_all(conn, table.id, now=self.clock())
        # A tournament's match that ended with no result: recorded as such (no winner).
        await tournaments.on_game_over(conn, table.id, None, self.clock())

    async def on_finish(self, conn: Connection, table: Table, results: list[SeatResult]) -> None:
        winners = [r.user_id for r in winners_in_turn_order(table, results)]
        humans = [user for user in winners if user is not None]
        if humans:
            await wallets.settle_pot(conn, table.id, humans, now=self.clock())
        else:
            # Only possible at an unstaked table (staked ones seat humans only).
            await wallets.refund_all(conn, table.id, now=self.clock())
        # After the payout: the stats read it for chips won and lost.
        await stats.record_finished_game(conn, table.id)
        places = {r.user_id: r.place for r in results if r.user_id is not None}
        await tournaments.on_game_over(conn, table.id, humans, self.clock(), places)


def winners_in_turn_order(table: Table, results: list[SeatResult]) -> list[SeatResult]:
    """Winning seats from the seat that went first (it takes a pot's remainder): seat 0 unless the
    kind's ``first_seat`` says otherwise."""
    first = 0 if table.rules is None else table.game.first_seat(table.rules)
    count = max(len(table.seats), 1)
    won = [r for r in results if r.won]
    return sorted(won, key=lambda r: (r.seat - first) % count)
