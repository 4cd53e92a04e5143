"""Shared fixtures: the interaction harness, error-log failure, logging put back after each
test and (from tests/pg.py) a PostgreSQL database per test."""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import pytest
from discord.ext import commands
from hypothesis import settings

# The words of every refusal (issue 21): the logic raises codes and values, and the
# presentation registers their words when the bot loads it. A test of the logic alone
# (tests/tables, tests/rules) loads them here as the bot would, so it reads the messages.
import bot.games.registry
import bot.ui.texts
import bot.ui.tournament_texts  # noqa: F401  (the tournament service's refusals)
from tests.harness import BotErrorLogged, Harness
from tests.harness.harness import (
    ANSWER_DEADLINE,
    ANSWERS,
    DEFAULT_ERROR_LOGGERS,
    ErrorCollector,
    running_in_ci,
)

# A test bot serves no web pages on a port (the default 8080 would be shared by every test
# worker); the web tests build the pages' application and drive it with aiohttp's client.
os.environ.setdefault("WEB_PORT", "0")

pytest_plugins = ["tests.pg", "tests.backends"]  # a PostgreSQL database per test; db_target

# Hypothesis, for every test (loaded here, before any test module builds its settings).
# In CI: Hypothesis's own "ci" profile (examples derived from each test's name, so a rare
# failure shows in every run, not one in ten; no deadline; no example database), chosen
# by the harness's reading of CI so both agree. Everywhere: a failure prints the blob that
# replays it (@reproduce_failure). HYPOTHESIS_PROFILE=ci picks it by hand. Tests that
# share one bot across examples (tests/reliability) pin derandomize=True themselves: there
# an example depends on the ones before it, so only the whole seeded run replays.
settings.register_profile("ci", parent=settings.get_profile("ci"), print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if running_in_ci() else "dev"))

MakeHarness = Callable[..., Awaitable[Harness]]


def _loggers() -> dict[str, logging.Logger]:
    named = logging.Logger.manager.loggerDict.items()
    loggers = {name: lg for name, lg in named if isinstance(lg, logging.Logger)}
    return {"": logging.getLogger(), **loggers}


def _ours(handler: logging.Handler) -> bool:
    """pytest swaps its own capture handlers on the root logger between a test's phases."""
    return not type(handler).__module__.startswith("_pytest")


@pytest.fixture(autouse=True)
def logging_put_back() -> Iterator[None]:
    """Whatever a test does to logging (``run_bot`` in-process sets the bot's loggers to
    INFO, ``configure_logging`` to DEBUG) ends with it: every logger's level, propagation
    and handlers are as before, so a later test in the same worker sees pytest's defaults
    (issue 19 item 33: a timer test found the migrations' INFO lines another test had left
    switched on)."""
    saved = {
        name: (lg.level, lg.propagate, lg.disabled, list(lg.handlers))
        for name, lg in _loggers().items()
    }
    yield
    for name, lg in _loggers().items():
        level, propagate, disabled, handlers = saved.get(name, (logging.NOTSET, True, False, []))
        lg.setLevel(level)
        lg.propagate, lg.disabled = propagate, disabled
        for handler in [h for h in lg.handlers if h not in handlers and _ours(h)]:
            lg.removeHandler(handler)


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
