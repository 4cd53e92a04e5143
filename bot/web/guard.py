"""What every request passes through before a page is drawn: a per-address rate limit
(429 with ``Retry-After``), the security headers, the request metrics, and the error pages:
a bad or hostile request (an unknown id, a 20-digit number, ``../``, a 4,000-character query,
a bad ``lang``) is answered 400 or 404 with nothing logged as an error; only a bug is."""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from aiohttp import web

from bot import metrics

log = logging.getLogger(__name__)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
# Drawn by bot.web.pages (in the reader's language) for a status and the request.
ErrorPage = Callable[[web.Request, int], Awaitable[web.Response]]

MAX_QUERY = 512  # characters of a query string; a search is short
LOOPBACK = frozenset({"127.0.0.1", "::1"})
HEADERS = {
    # Images and scripts from the pages' own address only; no frames, no plugins, no inline
    # script (the replay's keys are a file of /static), no forms posting elsewhere.
    "Content-Security-Policy": (
        "default-src 'none'; img-src 'self'; style-src 'self'; script-src 'self'; "
        "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
}


@dataclass
class RateLimit:
    """A token bucket per address: ``burst`` requests at once, then ``per_second``."""

    per_second: float = 10.0
    burst: float = 40.0
    addresses: int = 10_000  # remembered at most; the oldest forgotten first
    clock: Callable[[], float] = time.monotonic
    _buckets: OrderedDict[str, tuple[float, float]] = field(default_factory=OrderedDict)

    def wait(self, address: str) -> float:
        """0 when ``address`` may be answered now (and count it), else the seconds to wait."""
        now = self.clock()
        tokens, at = self._buckets.pop(address, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.per_second)
        if tokens < 1:
            self._buckets[address] = (tokens, now)
            return (1 - tokens) / self.per_second
        self._buckets[address] = (tokens - 1, now)
        while len(self._buckets) > self.addresses:
            self._buckets.popitem(last=False)
        return 0.0


def client_address(request: web.Request) -> str:
    """Who asks: the peer, or behind a proxy on this machine the last address it forwarded."""
    peer = request.remote or "?"
    forwarded = request.headers.get("X-Forwarded-For")
    if peer in LOOPBACK and forwarded:
        return forwarded.rsplit(",", 1)[-1].strip()[:64] or peer
    return peer


def is_local(request: web.Request) -> bool:
    """A request from this machine itself, not one a proxy here forwarded."""
    return request.remote in LOOPBACK and "X-Forwarded-For" not in request.headers


def route_name(request: web.Request) -> str:
    """The route's name for the metrics (never the address asked: ids are not labels)."""
    info = request.match_info
    route = getattr(info, "route", None)
    name = getattr(route, "name", None)
    if name:
        return str(name)
    return "static" if request.path.startswith("/static/") else "unknown"


# Pages drawn at once; more wait their turn (cheaply, in aiohttp's queue), so that a flood
# of page requests leaves the event loop room for clicks.
PAGES_AT_ONCE = 4
# Clicks first: a page starts when no click is being answered, or after this long (a page
# is never held up for longer, however busy the tables are).
CLICKS_FIRST = 0.05
UNLIMITED_ROUTES = frozenset({"healthz", "readyz", "metrics", "static"})


def guard(limit: RateLimit, error_page: ErrorPage) -> Callable[..., Awaitable[web.StreamResponse]]:
    drawing = asyncio.Semaphore(PAGES_AT_ONCE)

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        began = time.perf_counter()
        response: web.StreamResponse
        wait = limit.wait(client_address(request))
        if wait:
            response = await error_page(request, 429)
            response.headers["Retry-After"] = str(max(1, math.ceil(wait)))
        elif len(request.query_string) > MAX_QUERY or len(request.path) > MAX_QUERY:
            response = await error_page(request, 400)
        else:
            try:
                if route_name(request) in UNLIMITED_ROUTES:
                    response = await handler(request)
                else:
                    async with drawing:
                        await metrics.ANSWERING.none(CLICKS_FIRST)
                        response = await handler(request)
            except web.HTTPException as exc:
                if exc.status >= 400:
                    response = await error_page(request, exc.status)
                else:
                    response = web.Response(status=exc.status, headers=exc.headers)
            except Exception:
                log.exception("web page %s failed", route_name(request))
                response = await error_page(request, 500)
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        route = route_name(request)
        metrics.WEB_REQUESTS.labels(route, str(response.status)).inc()
        metrics.WEB_SECONDS.labels(route).observe(time.perf_counter() - began)
        return response

    return middleware
