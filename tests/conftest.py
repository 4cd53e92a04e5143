"""Shared fixtures: the interaction harness, error-log failure and (from tests/pg.py) a
PostgreSQL database per test."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import pytest
from discord.ext import commands

from tests.harness import BotErrorLogged, Harness
from tests.harness.harness import DEFAULT_ERROR_LOGGERS, ErrorCollector

pytest_plugins = ["tests.pg", "tests.backends"]  # a PostgreSQL database per test; db_target

MakeHarness = Callable[..., Awaitable[Harness]]


@pytest.fixture
async def make_harness() -> AsyncIterator[MakeHarness]:
    """``h = await make_harness(bot, **options)``: start a :class:`Harness` around a bot the
    test built; it is stopped (bot closed, patches undone) at teardown, which also fails the
    test if the bot logged an error that no interaction reported."""
    started: list[Harness] = []

    async def make(bot: commands.Bot, **options: Any) -> Harness:
        h = await Harness.start(bot, **options)
        started.append(h)
        return h

    yield make
    for h in reversed(started):
        await h.stop()


@pytest.fixture
def fail_on_error_logs() -> Iterator[ErrorCollector]:
    """For tests that do not use the harness: any ERROR record from ``discord.*`` or the
    bot's loggers fails the test at teardown."""
    collector = ErrorCollector(DEFAULT_ERROR_LOGGERS)
    collector.install()
    try:
        yield collector
    finally:
        collector.uninstall()
    records = collector.take()
    if records:
        raise BotErrorLogged(records)
