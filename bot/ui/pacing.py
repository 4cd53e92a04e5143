"""Pacing the REST requests the bot sends besides its answers to clicks under Discord's global 50 a
second, so a burst never meets a 429 (10,000 invalid requests in 10 minutes ban the bot for an
hour)."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Literal, Protocol

from bot.tables.locks import KeyedLocks

# The kinds of request a channel's buckets count apart (discord.py keeps one bucket for each
# route of each channel: a post, an edit, a delete, a thread).
Route = Literal["send", "edit", "delete", "thread"]


class Pacer:
    """At most ``burst`` requests at once, then ``per_second`` a second (a token bucket on
    the event loop's clock)."""

    def __init__(self, burst: int, per_second: float) -> None:
        self.tokens = float(burst)
        self.burst = burst
        self.per_second = per_second
        self.last = asyncio.get_running_loop().time()

    async def wait(self, requests: int = 1) -> None:
        """Return once ``requests`` more may be sent."""
        loop = asyncio.get_running_loop()
        for _ in range(requests):
            now = loop.time()
            self.tokens = min(self.burst, self.tokens + (now - self.last) * self.per_second)
            self.last = now
            if self.tokens < 1:
                await asyncio.sleep((1 - self.tokens) / self.per_second)
                self.tokens = 1.0
                self.last = loop.time()
            self.tokens -= 1


class Clock(Protocol):
    """The time a pace reads and sleeps on."""

    def now(self) -> float: ...

    async def sleep(self, delay: float) -> None: ...


class LoopClock:
    """The event loop's clock (production); a test gives the pace its fake Discord's."""

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    SLICE = 0.25

    async def sleep(self, delay: float) -> None:
        # In slices: a wait for the pace is work under way, not a timer to skip, for whoever
        # watches the loop's tasks (the offline harness counts sleeps over 0.5 s as idle).
        end = asyncio.get_running_loop().time() + delay
        while (left := end - asyncio.get_running_loop().time()) > 0:
            await asyncio.sleep(min(left, self.SLICE))


class RequestPace:
    """At most ``limit`` requests in any ``per`` seconds, first come first served, for every REST
    request the publisher sends; each is counted when it leaves, so a window counts what was really
    let through."""

    def __init__(self, limit: int, per: float = 1.0, clock: Clock | None = None) -> None:
        self.limit = limit
        self.per = per
        self.clock: Clock = clock or LoopClock()
        self._sent: deque[float] = deque()  # when each of the last ``limit`` requests left
        self._turn = asyncio.Lock()  # FIFO: one request at a time checks the window
        self._buckets = KeyedLocks()  # (channel id, route): the request under way there

    async def wait(self) -> None:
        """Return once one more request may be sent now."""
        async with self._turn:
            while True:
                now = self.clock.now()
                while self._sent and now - self._sent[0] >= self.per:
                    self._sent.popleft()
                if len(self._sent) < self.limit:
                    self._sent.append(now)
                    return
                await self.clock.sleep(self._sent[0] + self.per - now)

    @asynccontextmanager
    async def sending(self, channel_id: int, route: Route) -> AsyncIterator[None]:
        """Around one request to a channel's bucket (``route``): it waits for the request
        before it there to be answered, then for its turn in the pace. One at a time per
        bucket: with many queued in one of discord.py's buckets, its wake-ups can let a few
        go inside another's 429 (each an invalid request for Discord; discord.py's own
        issue 10287), which one at a time never does (it waits out a spent bucket before
        it answers)."""
        async with self._buckets.hold((channel_id, route)):
            await self.wait()
            yield
