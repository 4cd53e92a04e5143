"""Shared fixtures: the interaction harness, error-log failure and (from tests/pg.py) a
PostgreSQL database per test."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import pytest
from discord.ext import commands

from tests.harness import BotErrorLogged, Harness
from tests.harness.harness import ANSWER_DEADLINE, ANSWERS, DEFAULT_ERROR_LOGGERS, ErrorCollector

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


# --- the interactions' answer times, said at the end of the session --------------------------
# Each xdist worker sends its own in ``workeroutput``; the controller (or a run without xdist)
# says the slowest answer against Discord's deadline, and with HARNESS_ANSWERS=record every
# interaction that was not answered in time (recorded instead of failing its test).

_WORKER_ANSWERS: list[dict[str, Any]] = []


def _answers_summary() -> dict[str, Any]:
    return {"slowest": ANSWERS.slowest, "answered": ANSWERS.answered, "problems": ANSWERS.problems}


def pytest_sessionfinish(session: pytest.Session) -> None:
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["answers"] = _answers_summary()


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    answers = getattr(node, "workeroutput", {}).get("answers")
    if answers is not None:
        _WORKER_ANSWERS.append(answers)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    summaries = _WORKER_ANSWERS or [_answers_summary()]
    answered = sum(s["answered"] for s in summaries)
    if not answered:
        return
    slowest = sorted((tuple(x) for s in summaries for x in s["slowest"]), reverse=True)[:5]
    problems = [tuple(p) for s in summaries for p in s["problems"]]
    write = terminalreporter.write_line
    write(
        f"interactions: {answered} answered; the slowest, in the bot's time "
        f"(deadline {ANSWER_DEADLINE:g} s):"
    )
    for seconds, what, test in slowest:
        write(f"  {seconds:.3f} s  {what}  ({test})")
    if problems:
        write(f"interactions not answered in time (recorded, not failed): {len(problems)}")
        for test, problem in sorted(problems):
            write(f"  {test}: {problem}")
