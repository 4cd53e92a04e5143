"""Bot players that search think in worker processes (``BotPool``); the levels a host adds."""

from __future__ import annotations

import random
from functools import partial
from typing import Any

import pytest

from bot.config import Settings
from bot.games.board import BoardKind
from bot.games.registry import Games
from bot.rules import board as b
from bot.store.db import Database
from bot.tables.service import TableService
from bot.tables.thinking import BotJob, BotPool
from tests.fakes import FakeClock

GUILD, CHANNEL, ANA = 10, 20, 1
BOARD = {"seats": None, "teams": None, "first_sequence_wins": False}


class CountingPool(BotPool):
    """The real pool, counting the jobs it was given."""

    def __init__(self, workers: int) -> None:
        super().__init__(workers)
        self.jobs = 0

    async def run(self, job: BotJob) -> list[Any]:
        self.jobs += 1
        return await super().run(job)


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
    service = TableService(db, Games(), settings.table_limits(), clock, random.Random(2), bots=pool)
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
            [change] = await service.run_due()
        assert change.table.rules is not None and change.table.rules.turn_count >= 6
        assert pool.jobs == 3  # hard's three turns; medium moved inline
    finally:
        await pool.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()
