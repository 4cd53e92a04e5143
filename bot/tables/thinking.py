"""Where bot players that think for long (the board game's hard and expert) make their
moves: a pool of worker processes, so that no click on another table waits behind a search.

A game hands the table service a ``BotJob`` for such a move: a picklable call (a module
function and its arguments, e.g. ``functools.partial``) returning the move's steps, built
from what the bot's seat may see and a seed drawn from the service's generator. The pool
runs it in a worker process; with no workers (tests, the harness, the offline tools) it runs
it at once in this process, so a seeded run plays the same moves either way.

The pool never starves the event loop (issue 35): by default it has one worker fewer than
the cores this process may run on (at least one), so the loop keeps a core; each worker runs
at a lower CPU priority (``os.nice(WORKER_NICENESS)``), so on a busy machine the loop runs
first; and a move that has not come back after ``GUARD_SECONDS`` of wall-clock time (far above
any budget's search, about a second) is given up: the table plays its fallback move (what a
timed-out turn plays) and goes on, and ``bot_moves_timed_out_total`` counts it. The search's
budget is a number of playouts, not a time, so every move that does come back is the same
move on every machine; only a move the guard gave up differs.
"""

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
#: Seconds of wall-clock time a move may think before its table plays the fallback move.
#: An expert's search is about a second on a quiet core; 20 s is a machine so loaded that
#: waiting longer would hold the table (and its players) for nothing.
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
    """``workers`` processes thinking for bot players (0: think inline, in this process).

    ``start`` when the bot starts, ``close`` when it stops; a job sent before ``start`` or
    after ``close`` runs inline, and so does one whose worker died (the pool is started
    afresh for the next), so a bot never misses its turn."""

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
