"""Worker processes where the hard and expert board bots think, so no click waits behind a search
(issue 35; docs/performance.md, "Bots that leave the event loop a core"); with no workers, inline,
the same move for a seed."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot import metrics

log = logging.getLogger(__name__)

BotJob = Callable[[], list[Any]]

#: How much lower a worker's CPU priority is than the bot's (``os.nice``): the event loop
#: runs first whenever both want a core.
WORKER_NICENESS = 10
#: Wall-clock seconds a move may think before its table plays the fallback move (an expert's
#: search takes about one on a quiet core).
GUARD_SECONDS = 20.0


def cores() -> int:
    """The cores this process may run on (its CPU affinity where the platform has one)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def default_workers(available: int | None = None) -> int:
    """``BOT_WORKERS`` left empty: one worker fewer than the cores, at least one, so the
    event loop keeps a core of its own."""
    return max(1, (cores() if available is None else available) - 1)


def lower_priority(niceness: int = WORKER_NICENESS) -> None:
    """The workers' initializer: run below the bot's priority. A platform without
    ``os.nice`` (Windows) or one that refuses it keeps the worker at the bot's priority."""
    try:
        os.nice(niceness)
    except (AttributeError, OSError) as error:
        log.info("a bot worker keeps its CPU priority: %s", error)


class BotPool:
    """``workers`` processes thinking for bot players (0: inline). A job sent before ``start``,
    after ``close`` or to a dead worker runs inline, so a bot never misses its turn."""

    def __init__(self, workers: int = 0, guard_seconds: float = GUARD_SECONDS) -> None:
        self.workers = workers
        self.guard_seconds = guard_seconds
        self._executor: ProcessPoolExecutor | None = None

    @property
    def running(self) -> bool:
        return self._executor is not None

    def start(self) -> None:
        if self.workers > 0 and self._executor is None:
            # "spawn": a fresh interpreter per worker, never a copy of a process that runs an
            # event loop and threads (what "fork" would copy).
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=lower_priority
            )

    async def run(self, job: BotJob, fallback: BotJob | None = None) -> list[Any]:
        """The job's steps, thought in a worker. With a ``fallback`` (a quick move, made here)
        the wait is guarded: a job not back after ``guard_seconds`` is left to finish in its
        worker unheard, and the fallback's steps are played instead."""
        executor = self._executor
        if executor is None:
            return job()
        try:
            future = asyncio.get_running_loop().run_in_executor(executor, job)
            if fallback is None:
                return await future
            try:
                return await asyncio.wait_for(future, self.guard_seconds)
            except TimeoutError:
                metrics.BOT_MOVES_TIMED_OUT.inc()
                log.warning(
                    "a bot move thought for over %g s; its table plays the fallback move",
                    self.guard_seconds,
                )
                return fallback()
        except BrokenProcessPool:
            log.warning("a bot worker process died; this move is made here, the pool restarts")
            if self._executor is executor:
                self._executor = None
                executor.shutdown(wait=False, cancel_futures=True)
                self.start()
            return job()

    async def close(self) -> None:
        """Stop the workers: the moves under way finish first (a search takes about a
        second), queued ones are dropped (their tables' timers fire again after a restart)."""
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)
