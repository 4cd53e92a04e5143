"""Turn reminders (docs/rules.md, "Turn reminders"): with a third of the turn left, the member to
move is reminded once. A timer on the game's row, fired by a claim so that exactly one process sends
it (docs/reliability.md, "What fires once")."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from bot.store import reminders
from bot.store.reminders import DM, THREAD
from bot.tables.kernel import TableKernel
from bot.tables.model import Table

__all__ = ["DM", "MIN_LEFT", "THREAD", "Reminder", "TurnReminders"]

# When a reminder is planned: ``model.plan_reminder``, at each new turn.
MIN_LEFT = 1.0  # seconds: a reminder later than this (the bot was down) is not sent


@dataclass(frozen=True)
class Reminder:
    """One claimed reminder: the table as it was at the claim, who is to move, how long
    their turn has left, and where they want to hear of it (``THREAD`` or ``DM``)."""

    table: Table
    user_id: int
    seconds_left: float
    via: str


class TurnReminders:
    """Claims due reminders for this process's guilds, and keeps the members' /notify
    choices."""

    def __init__(self, kernel: TableKernel) -> None:
        self.kernel = kernel
        self.db = kernel.db
        self.clock = kernel.clock

    async def next_due(self) -> float | None:
        return await reminders.next_reminder(self.db, self.kernel.shard_filter)

    async def claim_due(self, limit: int) -> list[Reminder]:
        """Claim up to ``limit`` due reminders (soonest first), each once across processes.
        A claimed reminder whose turn is nearly over (a restart after a long stop) is
        dropped, not sent."""
        if limit <= 0:
            return []
        now = self.clock()
        due = await reminders.due(self.db, now, limit, self.kernel.shard_filter)

        async def one(table_id: int) -> Reminder | None:
            row = await reminders.claim(self.db, table_id, now)
            if row is None:
                return None  # another process claimed it, or the player just acted
            table = self.kernel.table_of(row)
            if table.rules is None:
                return None
            current = table.game.current_seat(table.rules)
            deadline = table.turn_deadline
            if current is None or deadline is None:
                return None
            user_id = table.seats[current].user_id
            if user_id is None or deadline - now < MIN_LEFT:
                return None
            via = await reminders.notify_via(self.db, row.guild_id, user_id)
            return Reminder(table, user_id, deadline - now, via)

        claimed = await asyncio.gather(*(one(table_id) for table_id in due))
        return [r for r in claimed if r is not None]

    async def via(self, guild_id: int, user_id: int) -> str:
        return await reminders.notify_via(self.db, guild_id, user_id)

    async def set_via(self, guild_id: int, user_id: int, via: str) -> None:
        if via not in (THREAD, DM):
            raise ValueError(f"unknown reminder channel {via!r}")
        await reminders.set_notify_via(self.db, guild_id, user_id, via, self.clock())
