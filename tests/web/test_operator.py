"""The operator's routes of the web companion (issue 33): /healthz, /readyz (503 when the
database does not answer or the gateway is not connected), /metrics in Prometheus' format
with the counters the bot keeps, the security headers, the rate limit, and the server that
listens on WEB_PORT and on nothing when it is 0."""

from __future__ import annotations

import os
import socket

import pytest
from aiohttp import ClientSession

from bot.app import SequencesBot
from bot.config import Settings
from bot.errors import DatabaseUnavailable
from bot.web.guard import HEADERS, RateLimit
from tests.discord.conftest import MakeEnv
from tests.discord.test_issue_12 import HEARTS_DUE_FACES
from tests.discord.test_replays import finish_hearts_due
from tests.fakes import ScriptedRandom
from tests.web.conftest import WebOf


def metric(text: str, name: str, **labels: str) -> float:
    """A sample's value in the exposition text (0 when absent)."""
    pairs = ",".join(f'{k}="{v}"' for k, v in labels.items())
    wanted = name + ("{" + pairs + "}" if labels else "")
    for line in text.splitlines():
        if line.startswith(wanted + " "):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


async def test_health_and_readiness(make_env: MakeEnv, web_of: WebOf) -> None:
    env = await make_env()
    client = await web_of(env)
    alive = await client.get("/healthz")
    assert alive.status == 200 and await alive.text() == "ok\n"
    ready = await client.get("/readyz")
    assert ready.status == 200, await ready.text()
    assert await ready.json() == {"database": True, "gateway": True}

    def down(sql: str) -> None:
        raise DatabaseUnavailable("the database is away")

    env.bot.db.on_statement = down
    try:
        ready = await client.get("/readyz")
        assert ready.status == 503 and (await ready.json())["database"] is False
        assert (await client.get("/healthz")).status == 200  # alive all the same
    finally:
        env.bot.db.on_statement = None
    env.bot._ready.clear()  # the gateway connection lost: discord.py's own flag
    ready = await client.get("/readyz")
    assert ready.status == 503 and await ready.json() == {"database": True, "gateway": False}
    env.bot._ready.set()


async def test_metrics_count_clicks_commands_statements_and_requests(
    make_env: MakeEnv, web_of: WebOf
) -> None:
    env = await make_env(rng=ScriptedRandom(HEARTS_DUE_FACES))
    client = await web_of(env)
    before = await (await client.get("/metrics")).text()
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await finish_hearts_due(env, ana, bo)
    await ana.slash("replay", game=99)  # no such game: refused
    response = await client.get("/metrics")
    assert response.status == 200
    assert response.headers["Content-Type"].startswith("text/plain; version=0.0.4")
    after = await response.text()
    ok = metric(after, "bot_clicks_total", kind="turn", outcome="ok")
    assert ok - metric(before, "bot_clicks_total", kind="turn", outcome="ok") == 4
    assert metric(after, "bot_click_seconds_count", kind="turn") >= 4
    start = {"command": "heartsdue start", "outcome": "ok"}
    assert (
        metric(after, "bot_commands_total", **start) - metric(before, "bot_commands_total", **start)
        == 1
    )
    assert metric(after, "bot_commands_total", command="replay", outcome="refused") >= 1
    assert metric(after, "bot_db_statements_total") > metric(before, "bot_db_statements_total")
    assert metric(after, "bot_web_requests_total", route="metrics", status="200") >= 1
    assert "bot_live_tables" in after and "bot_gateway_latency_seconds" in after
    assert "process_cpu_seconds_total" in after or "bot_clicks_total" in after


async def test_every_answer_carries_the_security_headers(make_env: MakeEnv, web_of: WebOf) -> None:
    env = await make_env()
    client = await web_of(env)
    for path in ("/", "/healthz", "/nowhere", "/s/../../etc/passwd", "/static/site.css"):
        response = await client.get(path)
        for name, value in HEADERS.items():
            assert response.headers.get(name) == value, (path, name)
    csp = HEADERS["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp


async def test_an_address_asking_too_fast_is_told_when_to_come_back(
    make_env: MakeEnv, web_of: WebOf
) -> None:
    env = await make_env()
    now = [1000.0]
    client = await web_of(env, RateLimit(per_second=2, burst=3, clock=lambda: now[0]))
    statuses = [(await client.get("/")).status for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    refused = await client.get("/")
    assert refused.status == 429 and int(refused.headers["Retry-After"]) >= 1
    assert "Too many requests" in await refused.text()
    now[0] += 2.0  # two seconds later, four more tokens (three at most)
    assert (await client.get("/")).status == 200


async def test_operator_routes_need_this_machine_or_the_token(
    make_env: MakeEnv, web_of: WebOf
) -> None:
    env = await make_env(metrics_token="s3cret-token")
    client = await web_of(env)
    forwarded = {"X-Forwarded-For": "203.0.113.9"}  # a request a proxy here passed on
    for path in ("/metrics", "/healthz", "/readyz"):
        assert (await client.get(path, headers=forwarded)).status == 404
        wrong = {**forwarded, "Authorization": "Bearer guess"}
        assert (await client.get(path, headers=wrong)).status == 404
        right = {**forwarded, "Authorization": "Bearer s3cret-token"}
        assert (await client.get(path, headers=right)).status == 200
        assert (await client.get(path)).status == 200  # this machine


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_a_token_and_no_other_setting_serves_the_pages_on_127_0_0_1_8080(
    make_env: MakeEnv, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``make run`` with a token only: the bot starts its pages on 127.0.0.1:8080 (asked
    of setup_hook here, so the test does not take a port the machine may be using)."""
    for name in [n for n in os.environ if n.startswith(("WEB_", "PUBLIC_URL", "METRICS_"))]:
        monkeypatch.delenv(name)
    settings = Settings(_env_file=None, discord_token="t")
    assert (settings.web_host, settings.web_port) == ("127.0.0.1", 8080)
    asked: list[tuple[str, int]] = []

    async def start_web(self: SequencesBot, host: str, port: int, limit: object = None) -> None:
        asked.append((host, port))

    monkeypatch.setattr(SequencesBot, "start_web", start_web)
    await make_env()
    assert asked == [("127.0.0.1", 8080)]


async def test_the_bot_serves_on_web_port_and_nothing_with_zero(make_env: MakeEnv) -> None:
    port = free_port()
    env = await make_env(web_port=port)
    assert env.bot.web_server is not None
    async with (
        ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}/healthz") as response,
        # A page: drawn by the pages' own process, in the language asked for.
        session.get(f"http://127.0.0.1:{port}/?lang=fr") as index,
    ):
        assert response.status == 200
        assert index.status == 200 and "Serveurs publics" in await index.text()
    assert env.bot.web_server.pid != os.getpid()
    off = await make_env(web_port=0)
    assert off.bot.web_server is None
    await env.h.stop()  # the bot closed (close stops the server): the port is free again
    with socket.socket() as s:
        s.bind(("127.0.0.1", port))
