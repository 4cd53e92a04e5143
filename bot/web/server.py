"""The web companion's server: ``aiohttp.web`` in the bot's own process and event loop
(discord.py's dependency: nothing more to install), started in ``setup_hook`` and stopped
in ``close``. Its routes: the public pages (``bot.web.pages``), and for operators
``/healthz`` (alive), ``/readyz`` (the database answers and the gateway is connected: 503
otherwise) and ``/metrics`` (``bot.metrics``), which answer this machine only, or a request
carrying ``METRICS_TOKEN``."""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from aiohttp import web

from bot import metrics
from bot.web.guard import RateLimit, guard, is_local
from bot.web.pages import Pages, Site

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
READY_TIMEOUT = 2.0  # seconds the database has to answer /readyz


@dataclass
class Operator:
    """What the operator's routes read of the running bot."""

    gateway: Callable[[], bool]  # connected to Discord's gateway
    latency: Callable[[], float]  # its heartbeat latency, seconds
    token: str | None = None  # METRICS_TOKEN


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
        return web.Response(text="ok\n")

    async def readyz(request: web.Request) -> web.Response:
        if not trusted(request):
            raise web.HTTPNotFound()
        database = True
        try:
            await asyncio.wait_for(site.web.ping(), READY_TIMEOUT)
        except Exception as exc:  # any failure is "not ready"; the reason is the operator's
            log.warning("readyz: the database does not answer (%s)", type(exc).__name__)
            database = False
        gateway = operator.gateway()
        body = {"database": database, "gateway": gateway}
        status = 200 if database and gateway else 503
        return web.Response(
            text=json.dumps(body) + "\n", status=status, content_type="application/json"
        )

    async def metrics_route(request: web.Request) -> web.Response:
        if not trusted(request):
            raise web.HTTPNotFound()
        try:
            counts = await site.web.live_counts()
            due, late = await site.web.timers_behind(metrics.TIMER_LATE_SECONDS)
            metrics.TIMERS_DUE.set(due)
            metrics.TIMERS_LATE.set(late)
        except Exception:  # the database does not answer: its errors are counted already
            counts = {}
        for key in site.shell.games.labels:
            metrics.LIVE_TABLES.labels(key).set(counts.pop(key, 0))
        for key, count in counts.items():
            metrics.LIVE_TABLES.labels(key).set(count)
        latency = operator.latency()
        if latency == latency and latency != float("inf"):  # not NaN before the first beat
            metrics.GATEWAY_LATENCY.set(latency)
        return web.Response(
            body=metrics.exposition(), headers={"Content-Type": metrics.CONTENT_TYPE}
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
        log.info("web pages at http://%s:%s", self.host, self.port)

    def port_bound(self) -> int:
        """The port listened on (the one the system chose for port 0)."""
        assert self._runner is not None
        return int(self._runner.addresses[0][1])

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
