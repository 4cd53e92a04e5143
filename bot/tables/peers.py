"""One process's table peers, built on one kernel: the wiring, in one place (none imports another:
the ``table-peers`` contract)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.tables.fair_play import FairPlay
from bot.tables.kernel import TableKernel
from bot.tables.lobby_host import LobbyHost
from bot.tables.rematch import Rematches
from bot.tables.reminders import TurnReminders
from bot.tables.service import TableService
from bot.tables.timers import TableTimers


@dataclass(frozen=True)
class TablePeers:
    kernel: TableKernel
    tables: TableService
    fair_play: FairPlay
    lobby_host: LobbyHost
    rematches: Rematches
    reminders: TurnReminders
    timers: TableTimers

    @classmethod
    def of(cls, kernel: TableKernel) -> TablePeers:
        tables = TableService(kernel)
        return cls(
            kernel=kernel,
            tables=tables,
            fair_play=FairPlay(kernel),
            lobby_host=LobbyHost(kernel),
            rematches=Rematches(kernel, tables.open_lobby),
            reminders=TurnReminders(kernel),
            timers=TableTimers(kernel),
        )
