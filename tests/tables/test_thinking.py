"""Bot players that search think in worker processes (``BotPool``); the levels a host adds."""

from __future__ import annotations

import os
import random
import time
from functools import partial
from typing import Any

import pytest

from bot import metrics
from bot.config import Settings
from bot.games.board import BoardKind
from bot.games.registry import Games
from bot.rules import board as b
from bot.store.db import Database
from bot.tables import thinking
from bot.tables.kernel import TableKernel
from bot.tables.service import TableService
from bot.tables.thinking import WORKER_NICENESS, BotJob, BotPool, default_workers
from bot.tables.timers import TableTimers
from tests.fakes import FakeClock

GUILD, CHANNEL, ANA = 10, 20, 1
BOARD = {"seats": None, "teams": None, "first_sequence_wins": False}


class CountingPool(BotPool):
    """The real pool, counting the jobs it was given."""

    def __init__(self, workers: int) -> None:
        super().__init__(workers)
        self.jobs = 0

    async def run(self, job: BotJob, fallback: BotJob | None = None) -> list[Any]:
        self.jobs += 1
        return await super().run(job, fallback)


def niceness() -> list[Any]:
    """A job: the CPU priority of the process it runs in."""
    return [os.nice(0)]


def slow_move(seconds: float) -> list[Any]:
    """A job that thinks for far longer than any budget's search."""
    time.sleep(seconds)
    return ["slow"]


def timed_out() -> float:
    return metrics.REGISTRY.get_sample_value("bot_moves_timed_out_total") or 0.0


def a_position() -> b.BoardState:
    rng = random.Random(3)
    state = b.new_game(b.BoardConfig(2), rng)
    for _ in range(20):
        state = b.apply(state, b.choose_action(b.view_for(state, state.turn), "greedy", rng), rng)
    return state


async def test_a_worker_process_plays_the_move_inline_play_would() -> None:
    state = a_position()
    job = partial(b.bot_steps, b.view_for(state, state.turn), "hard", 7)
    pool = BotPool(1)
    pool.start()
    try:
        assert pool.running
        moved = await pool.run(job)
    finally:
        await pool.close()
    assert not pool.running
    assert moved == job() and moved[0] in b.legal_actions(state)
    assert await BotPool(0).run(job) == moved  # no workers: the same move, here


def test_the_default_pool_leaves_the_event_loop_a_core(monkeypatch: pytest.MonkeyPatch) -> None:
    assert [default_workers(n) for n in (1, 2, 3, 8)] == [1, 1, 2, 7]
    monkeypatch.setattr(thinking, "cores", lambda: 2)  # this machine's two cores
    monkeypatch.delenv("BOT_WORKERS", raising=False)
    assert Settings(_env_file=None).bot_workers == 1
    monkeypatch.setenv("BOT_WORKERS", "")  # as .env.example leaves it
    assert Settings(_env_file=None).bot_workers == 1
    monkeypatch.setenv("BOT_WORKERS", "3")
    assert Settings(_env_file=None).bot_workers == 3


async def test_workers_think_at_a_lower_priority_than_the_bot() -> None:
    pool = BotPool(1)
    pool.start()
    try:
        [worker] = await pool.run(niceness)
    finally:
        await pool.close()
    assert worker == min(19, os.nice(0) + WORKER_NICENESS)
    assert await BotPool(0).run(niceness) == [os.nice(0)]  # inline: the bot's own


def test_a_platform_that_refuses_nice_keeps_the_worker_going(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refuse(increment: int) -> int:
        raise PermissionError("not allowed")

    monkeypatch.setattr(os, "nice", refuse)
    thinking.lower_priority()
    monkeypatch.delattr(os, "nice")  # Windows has none
    thinking.lower_priority()


async def test_a_move_past_the_guard_plays_the_fallback_and_is_counted() -> None:
    pool = BotPool(1, guard_seconds=0.3)
    pool.start()
    try:
        await pool.run(niceness)  # the worker started (a spawn takes longer than the guard)
        before = timed_out()
        assert await pool.run(partial(slow_move, 0.0), lambda: ["fallback"]) == ["slow"]
        assert timed_out() == before  # back in time: the worker's move
        started = time.perf_counter()
        assert await pool.run(partial(slow_move, 3.0), lambda: ["fallback"]) == ["fallback"]
        assert time.perf_counter() - started < 2.0  # not held until the worker is done
        assert timed_out() == before + 1
    finally:
        await pool.close()


async def test_a_table_whose_bot_thinks_too_long_plays_its_timed_out_move(
    db: Database, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The injected slow move: every searching seat's job sleeps in the worker instead.
    monkeypatch.setattr(BoardKind, "bot_job", lambda self, state, level, rng: partial(slow_move, 3))
    settings = Settings(_env_file=None, start_cooldown_seconds=0, bot_turn_delay_seconds=1)
    pool = BotPool(1, guard_seconds=0.3)
    pool.start()
    service = TableService(
        TableKernel(db, Games(), settings.table_limits(), clock, random.Random(2), bots=pool)
    )
    try:
        table = await service.open_lobby(
            guild_id=GUILD,
            channel_id=CHANNEL,
            host_id=ANA,
            host_name="Ana",
            kind="board",
            seat_host=False,
            settings=BOARD,
        )
        await service.add_bot(table.id, ANA, "expert")
        await service.add_bot(table.id, ANA, "expert")
        change = await service.start(table.id, ANA)
        assert change.table.rules is not None
        before, turns = timed_out(), change.table.rules.turn_count
        clock.now = (change.table.row.deadline or clock.now) + 0.001
        started = time.perf_counter()
        [change] = await TableTimers(service.kernel).run_due()
        assert time.perf_counter() - started < 2.0
        assert change.table.rules is not None and change.table.rules.turn_count == turns + 1
        assert timed_out() == before + 1
    finally:
        await pool.close()


def test_only_searching_levels_think_off_the_loop() -> None:
    game, state = BoardKind(), a_position()
    rng = random.Random(1)
    for level in ("random", "greedy", "strong", "easy", "medium"):
        assert game.bot_job(state, level, rng) is None
        [step] = game.bot_step(state, level, rng)  # old stored levels play on
        assert step in b.legal_actions(state)
    for level in ("hard", "expert"):
        job = game.bot_job(state, level, rng)
        assert job is not None


async def test_a_board_table_of_searching_bots_plays_through_the_pool(
    db: Database, clock: FakeClock
) -> None:
    settings = Settings(_env_file=None, start_cooldown_seconds=0, bot_turn_delay_seconds=1)
    pool = CountingPool(1)
    pool.start()
    service = TableService(
        TableKernel(db, Games(), settings.table_limits(), clock, random.Random(2), bots=pool)
    )
    try:
        table = await service.open_lobby(
            guild_id=GUILD,
            channel_id=CHANNEL,
            host_id=ANA,
            host_name="Ana",
            kind="board",
            seat_host=False,
            settings=BOARD,
        )
        await service.add_bot(table.id, ANA, "hard")
        change = await service.add_bot(table.id, ANA, "strong")  # an Add bot button of old
        assert [s.bot_level for s in change.table.seats] == ["hard", "medium"]
        change = await service.start(table.id, ANA)
        for _ in range(6):
            clock.now = (change.table.row.deadline or clock.now) + 0.001
            [change] = await TableTimers(service.kernel).run_due()
        assert change.table.rules is not None and change.table.rules.turn_count >= 6
        assert pool.jobs == 3  # hard's three turns; medium moved inline
    finally:
        await pool.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()
