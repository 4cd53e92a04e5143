"""Pacing Discord requests that the bot sends by itself (not in answer to a click): a steady
rate under Discord's global limit, and one at a time per channel, so that a burst of them
(thousands of turn timers running out in the same second) never meets a 429."""

from __future__ import annotations

import asyncio


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
