"""The money steps of a staked table, for the fault tests: importable by a child process
without the Discord harness (a killed child should start fast)."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from typing import Any

from bot.config import Settings
from bot.games.registry import Games
from bot.store.db import Database
from bot.tables.fair_play import FairPlay
from bot.tables.kernel import TableKernel
from bot.tables.service import TableService
from bot.tables.timers import TableTimers
from bot.tables.wallet_hooks import WalletHooks
from tests.fakes import FakeClock

ANA, BO, CY = 1, 2, 3
STAKE = 40
PUSH = {"variant": "standard", "rounds": 1, "target": None, "soft_last_die": False}


def service_on(db: Database, rng: random.Random | None = None) -> TableService:
    clock = FakeClock()
    return TableService(
        TableKernel(
            db,
            Games(),
            Settings(_env_file=None, start_cooldown_seconds=0).table_limits(),
            clock,
            rng or random.Random(1),
            WalletHooks(clock),
        )
    )


async def staked_lobby(service: TableService, *, join: tuple[int, ...] = (BO,)) -> int:
    table = await service.open_lobby(
        guild_id=1, channel_id=2, host_id=ANA, host_name="Ana", kind="sequences",
        settings=dict(PUSH), stake=STAKE,
    )  # fmt: skip
    for user in join:
        await service.join(table.id, user, f"P{user}")
    return table.id


async def to_last_move(service: TableService, table_id: int) -> None:
    """Play a 2-seat, 1-round game up to the move that finishes it (Bo's last bank)."""
    await service.start(table_id, ANA)
    for _ in range(50):
        table = await service.get(table_id)
        assert table.rules is not None
        user = table.seats[table.rules.current].user_id
        assert user is not None
        if table.rules.current == 1 and table.rules.phase == "lock":
            return  # banking now ends the game: the payout step
        action = "throw" if table.rules.phase == "throw" else "bank"
        await service.act(table_id, user, table.version, action)
    raise AssertionError("no last move")


# Each money step: (set-up on a fresh database, the step itself).
Setup = Callable[[TableService], Awaitable[int]]
Step = Callable[[TableService, int], Awaitable[Any]]


async def _last(service: TableService, table_id: int) -> Any:
    table = await service.get(table_id)
    return await service.act(table_id, BO, table.version, "bank")


async def _expire(service: TableService, table_id: int) -> Any:
    service.clock.advance(10_000)  # type: ignore[attr-defined]
    [change] = await TableTimers(service.kernel).run_due()
    return change


async def _ready(service: TableService) -> int:
    table_id = await staked_lobby(service)
    await to_last_move(service, table_id)
    return table_id


MONEY_STEPS: dict[str, tuple[Setup, Step]] = {
    "escrow on join": (lambda s: staked_lobby(s, join=()), lambda s, t: s.join(t, BO, "Bo")),
    "refund on leave": (staked_lobby, lambda s, t: s.leave(t, BO)),
    "refund on the host's hand-over": (staked_lobby, lambda s, t: s.leave(t, ANA)),
    "refund on cancel": (staked_lobby, lambda s, t: s.cancel(t, ANA, False)),
    "refund on lobby expiry": (staked_lobby, _expire),
    "refund on early end": (_ready, lambda s, t: FairPlay(s.kernel).end(t, ANA, False)),
    "payout on the last move": (_ready, _last),
}
