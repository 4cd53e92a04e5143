"""The web companion's server: ``aiohttp.web`` (discord.py's dependency: nothing more to
install), in a process of its own while the bot runs (``bot.web_process``), or on a test's
event loop. Its routes: the public pages (``bot.web.pages``), and for operators ``/healthz``
(the bot answers), ``/readyz`` (its database answers and the gateway is connected: 503
otherwise) and ``/metrics`` (``bot.metrics``), which answer this machine only, or a request
carrying ``METRICS_TOKEN``. What the operator's routes say is the bot's (``Operator``)."""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from aiohttp import web

from bot import metrics
from bot.games.registry import Games
from bot.tables.web import WebDirectory
from bot.web.guard import RateLimit, guard, is_local
from bot.web.pages import Pages, Site

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
READY_TIMEOUT = 2.0  # seconds the database has to answer /readyz


class Operator(Protocol):
    """What the operator's routes read of the running bot."""

    token: str | None  # METRICS_TOKEN

    async def alive(self) -> bool: ...

    async def ready(self) -> dict[str, bool]:
        """{"database": it answers, "gateway": connected to Discord}."""
        ...

    async def exposition(self) -> bytes:
        """The bot's metrics in Prometheus' text format."""
        ...


@dataclass
class LocalOperator:
    """The operator's answers read in the bot's own process."""

    web: WebDirectory  # over the bot's database
    games: Games
    gateway: Callable[[], bool]  # connected to Discord's gateway
    latency: Callable[[], float]  # its heartbeat latency, seconds
    token: str | None = None
    families: Callable[[str], bool] | None = None  # the metrics exposed (None: every one)

    async def alive(self) -> bool:
        return True

    async def ready(self) -> dict[str, bool]:
        database = True
        try:
            await asyncio.wait_for(self.web.ping(), READY_TIMEOUT)
        except Exception as exc:  # any failure is "not ready"; the reason is the operator's
            log.warning("readyz: the database does not answer (%s)", type(exc).__name__)
            database = False
        return {"database": database, "gateway": self.gateway()}

    async def exposition(self) -> bytes:
        try:
            counts = await self.web.live_counts()
            due, late = await self.web.timers_behind(metrics.TIMER_LATE_SECONDS)
            metrics.TIMERS_DUE.set(due)
            metrics.TIMERS_LATE.set(late)
        except Exception:  # the database does not answer: its errors are counted already
            counts = {}
        for key in self.games.labels:
            metrics.LIVE_TABLES.labels(key).set(counts.pop(key, 0))
        for key, count in counts.items():
            metrics.LIVE_TABLES.labels(key).set(count)
        latency = self.latency()
        if latency == latency and latency != float("inf"):  # not NaN before the first beat
            metrics.GATEWAY_LATENCY.set(latency)
        return metrics.exposition(self.families)


def build_app(site: Site, operator: Operator, limit: RateLimit | None = None) -> web.Application:
    pages = Pages(site)
    app = web.Application(middlewares=[guard(limit or RateLimit(), pages.error_page)])

    def trusted(request: web.Request) -> bool:
        if is_local(request):
            return True
        given = request.headers.get("Authorization", "")
        return operator.token is not None and hmac.compare_digest(
            given.encode(), f"Bearer {operator.token}".encode()
        )

    async def healthz(request: web.Request) -> web.Response:
        if not trusted(request):
            raise web.HTTPNotFound()
        try:
            alive = await asyncio.wait_for(operator.alive(), READY_TIMEOUT)
        except Exception:  # the bot does not answer
            alive = False
        return web.Response(
            text="ok\n" if alive else "not answering\n", status=200 if alive else 503
        )

    async def readyz(request: web.Request) -> web.Response:
        if not trusted(request):
            raise web.HTTPNotFound()
        try:
            body = await asyncio.wait_for(operator.ready(), 2 * READY_TIMEOUT)
        except Exception:  # the bot does not answer
            body = {"database": False, "gateway": False}
        status = 200 if body["database"] and body["gateway"] else 503
        return web.Response(
            text=json.dumps(body) + "\n", status=status, content_type="application/json"
        )

    async def metrics_route(request: web.Request) -> web.Response:
        if not trusted(request):
            raise web.HTTPNotFound()
        return web.Response(
            body=await operator.exposition(), headers={"Content-Type": metrics.CONTENT_TYPE}
        )

    app.router.add_get("/healthz", healthz, name="healthz")
    app.router.add_get("/readyz", readyz, name="readyz")
    app.router.add_get("/metrics", metrics_route, name="metrics")
    app.router.add_get("/", pages.index, name="index")
    app.router.add_get("/s/{server}", pages.server, name="server")
    app.router.add_get("/s/{server}/live/{table}", pages.live, name="live")
    app.router.add_get("/s/{server}/p/{player}", pages.player, name="player")
    app.router.add_get("/s/{server}/p/{player}/rating.png", pages.rating_png, name="rating_png")
    app.router.add_get("/s/{server}/g/{game}", pages.game, name="game")
    app.router.add_get("/s/{server}/g/{game}/{step}.png", pages.step_png, name="step_png")
    # The picture first: "{tournament}" alone would match "7.png" too.
    app.router.add_get(
        "/s/{server}/t/{tournament}.png", pages.tournament_png, name="tournament_png"
    )
    app.router.add_get("/s/{server}/t/{tournament}", pages.tournament, name="tournament")
    app.router.add_static("/static/", STATIC, name="static", follow_symlinks=False)
    return app


class WebServer:
    """The application on ``host:port`` while the bot runs."""

    def __init__(self, app: web.Application, host: str, port: int) -> None:
        self.app = app
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        # No access log: a page view is not worth a line, and the metrics count them.
        self._runner = web.AppRunner(self.app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        log.info("web pages at http://%s:%s", self.host, self.port_bound())

    def port_bound(self) -> int:
        """The port listened on (the one the system chose for port 0)."""
        assert self._runner is not None
        return int(self._runner.addresses[0][1])

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
