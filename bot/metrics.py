"""What an operator scrapes from ``/metrics``: the counters live here so every layer may count
without importing the web server, in a registry of the process's own so a second bot in a test
registers no name twice."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from types import SimpleNamespace, TracebackType
from typing import Any, cast

import aiohttp
from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    Metric,
    ProcessCollector,
    generate_latest,
)

REGISTRY = CollectorRegistry(auto_describe=True)
ProcessCollector(registry=REGISTRY)

CLICKS = Counter(
    "bot_clicks",
    "Game buttons pressed, by kind (turn, lobby, table) and outcome (ok, refused, error)",
    ["kind", "outcome"],
    registry=REGISTRY,
)
CLICK_SECONDS = Histogram(
    "bot_click_seconds",
    "Seconds from a game button's press to its answer and redraw",
    ["kind"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
    registry=REGISTRY,
)
COMMANDS = Counter(
    "bot_commands",
    "Slash commands run, by command and outcome (ok, refused, error)",
    ["command", "outcome"],
    registry=REGISTRY,
)
TIMERS_FIRED = Counter(
    "bot_timers_fired", "Table timers fired (bot moves, timeouts, lobby expiry)", registry=REGISTRY
)
BOT_MOVES_TIMED_OUT = Counter(
    "bot_moves_timed_out",
    "Bot moves given up after thinking past the pool's wall-clock guard (the fallback played)",
    registry=REGISTRY,
)
DB_STATEMENTS = Counter(
    "bot_db_statements", "SQL statements sent to the database (round trips)", registry=REGISTRY
)
DB_UNAVAILABLE = Counter(
    "bot_db_unavailable",
    "Interactions answered 'try again' because the database did not answer",
    registry=REGISTRY,
)
DB_ROUND_TRIPS = Counter(
    "bot_db_round_trips",
    "Round trips to the database server (PostgreSQL: a read, a statement, a pipelined batch)",
    registry=REGISTRY,
)
DB_ERRORS = Counter(
    "bot_db_errors",
    "Database operations that failed because the database did not answer, by engine",
    ["engine"],
    registry=REGISTRY,
)
TIMERS_DUE = Gauge(
    "bot_timers_due",
    "Table timers whose deadline has passed and that have not fired yet (read at scrape)",
    registry=REGISTRY,
)
TIMERS_LATE = Gauge(
    "bot_timers_late",
    "Table timers more than TIMER_LATE_SECONDS past their deadline, not fired (read at scrape)",
    registry=REGISTRY,
)
TIMER_LATE_SECONDS = 5.0  # a timer is late once its deadline is this far behind
DISCORD_REQUESTS = Counter(
    "bot_discord_requests",
    "Requests to Discord's HTTP API, by method and status (429: rate limited)",
    ["method", "status"],
    registry=REGISTRY,
)
DISCORD_RATE_LIMITED = Counter(
    "bot_discord_rate_limited",
    "Discord HTTP answers 429 (rate limited), by scope (user, global, shared)",
    ["scope"],
    registry=REGISTRY,
)
LIVE_TABLES = Gauge(
    "bot_live_tables", "Lobbies and running games, by game", ["game"], registry=REGISTRY
)
GATEWAY_LATENCY = Gauge(
    "bot_gateway_latency_seconds", "Discord gateway heartbeat latency", registry=REGISTRY
)
WEB_REQUESTS = Counter(
    "bot_web_requests",
    "Web companion requests, by route and status",
    ["route", "status"],
    registry=REGISTRY,
)
WEB_SECONDS = Histogram(
    "bot_web_request_seconds",
    "Seconds to answer a web companion request, by route",
    ["route"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0),
    registry=REGISTRY,
)

CLICKS_ANSWERING = Gauge(
    "bot_clicks_in_flight", "Game buttons pressed and not yet answered", registry=REGISTRY
)


class Answering:
    """The clicks being answered now (``with ANSWERING:`` around each): the web pages wait
    for none before they start (``bot.web.guard``), so a flood of page requests does not
    queue on the event loop before a click."""

    def __init__(self) -> None:
        self.count = 0
        self._idle: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def _event(self) -> asyncio.Event:
        # An event of the running loop (a test, or a bot started again, runs another one).
        loop = asyncio.get_running_loop()
        if self._idle is None or self._loop is not loop:
            self._idle, self._loop = asyncio.Event(), loop
            if self.count == 0:
                self._idle.set()
        return self._idle

    def __enter__(self) -> None:
        self.count += 1
        CLICKS_ANSWERING.inc()
        if self._idle is not None:
            self._idle.clear()

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.count -= 1
        CLICKS_ANSWERING.dec()
        if self.count == 0 and self._idle is not None:
            self._idle.set()

    async def none(self, at_most: float) -> bool:
        """Wait until no click is being answered, ``at_most`` seconds; whether none is."""
        if self.count == 0:
            return True
        try:
            await asyncio.wait_for(self._event().wait(), at_most)
        except TimeoutError:
            return False
        return True


ANSWERING = Answering()


def discord_trace() -> aiohttp.TraceConfig:
    """Counts every request discord.py makes to Discord's HTTP API (``http_trace`` of the
    client): by method and status, and the 429s by the scope Discord gives."""

    async def ended(session: aiohttp.ClientSession, context: SimpleNamespace, params: Any) -> None:
        count_discord_answer(params.method, params.response.status, params.response.headers)

    async def failed(session: aiohttp.ClientSession, context: SimpleNamespace, params: Any) -> None:
        DISCORD_REQUESTS.labels(params.method, "error").inc()

    trace = aiohttp.TraceConfig()
    trace.on_request_end.append(ended)
    trace.on_request_exception.append(failed)
    return trace


def count_discord_answer(method: str, status: int, headers: Any) -> None:
    DISCORD_REQUESTS.labels(method, str(status)).inc()
    if status == 429:
        scope = str(headers.get("X-RateLimit-Scope", "user"))
        DISCORD_RATE_LIMITED.labels(
            scope if scope in ("user", "global", "shared") else "user"
        ).inc()


CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


WEB_FAMILIES = frozenset({"bot_web_requests", "bot_web_request_seconds"})


def is_web(family: str) -> bool:
    """A family the web pages count (in their own process: ``bot.web_process``)."""
    return family in WEB_FAMILIES


class _Only:
    def __init__(self, wanted: Callable[[str], bool]) -> None:
        self.wanted = wanted

    def collect(self) -> Iterator[Metric]:
        return (family for family in REGISTRY.collect() if self.wanted(family.name))


def exposition(families: Callable[[str], bool] | None = None) -> bytes:
    """The metrics of this process in the Prometheus text format: every family, or those
    ``families`` says yes to."""
    if families is None:
        return generate_latest(REGISTRY)
    return generate_latest(cast(CollectorRegistry, _Only(families)))
