"""Where bot players that think for long (the board game's hard and expert) make their
moves: a pool of worker processes, so that no click on another table waits behind a search.

A game hands the table service a ``BotJob`` for such a move: a picklable call (a module
function and its arguments, e.g. ``functools.partial``) returning the move's steps, built
from what the bot's seat may see and a seed drawn from the service's generator. The pool
runs it in a worker process; with no workers (tests, the harness, the offline tools) it runs
it at once in this process, so a seeded run plays the same moves either way.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

log = logging.getLogger(__name__)

BotJob = Callable[[], list[Any]]


class BotPool:
    """``workers`` processes thinking for bot players (0: think inline, in this process).

    ``start`` when the bot starts, ``close`` when it stops; a job sent before ``start`` or
    after ``close`` runs inline, and so does one whose worker died (the pool is started
    afresh for the next), so a bot never misses its turn."""

    def __init__(self, workers: int = 0) -> None:
        self.workers = workers
        self._executor: ProcessPoolExecutor | None = None

    @property
    def running(self) -> bool:
        return self._executor is not None

    def start(self) -> None:
        if self.workers > 0 and self._executor is None:
            # "spawn": a fresh interpreter per worker, never a copy of a process that runs an
            # event loop and threads (what "fork" would copy).
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(self.workers, mp_context=context)

    async def run(self, job: BotJob) -> list[Any]:
        executor = self._executor
        if executor is None:
            return job()
        try:
            return await asyncio.get_running_loop().run_in_executor(executor, job)
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
