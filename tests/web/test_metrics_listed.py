"""/metrics carries every series issue 33 lists: clicks and commands by kind and outcome,
the click latency histogram, live tables by game, timers due and late, database round
trips and errors, Discord requests and 429s, gateway latency, web requests by route and
status (docs/operations.md names each)."""

from __future__ import annotations

from typing import Any

from aiohttp import ClientSession, web
from aiohttp.test_utils import TestServer

from bot import metrics
from tests.discord.conftest import MakeEnv
from tests.discord.test_board_game import open_board
from tests.web.conftest import WebOf
from tests.web.test_operator import metric

LISTED = (
    "bot_clicks_total",
    "bot_click_seconds_bucket",
    "bot_clicks_in_flight",
    "bot_commands_total",
    "bot_live_tables",
    "bot_timers_fired_total",
    "bot_timers_due",
    "bot_timers_late",
    "bot_db_statements_total",
    "bot_db_round_trips_total",
    "bot_db_errors_total",
    "bot_db_unavailable_total",
    "bot_discord_requests_total",
    "bot_discord_rate_limited_total",
    "bot_gateway_latency_seconds",
    "bot_web_requests_total",
    "bot_web_request_seconds_bucket",
)


async def test_every_listed_series_is_scraped_and_timers_behind_are_counted(
    make_env: MakeEnv, web_of: WebOf
) -> None:
    env = await make_env()
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await open_board(env, ana, [bo])  # a lobby, and a click on it
    metrics.DB_ERRORS.labels("postgresql")  # labelled series appear once touched
    metrics.DISCORD_REQUESTS.labels("GET", "200")
    metrics.DISCORD_RATE_LIMITED.labels("user")
    client = await web_of(env)
    assert (await client.get("/")).status == 200  # a request is counted once answered
    text = await (await client.get("/metrics")).text()
    missing = [name for name in LISTED if f"\n{name}" not in text]
    assert not missing, missing
    assert metric(text, "bot_live_tables", game="board") == 1
    assert metric(text, "bot_timers_due") == 0 and metric(text, "bot_timers_late") == 0

    # The lobby's timer a minute behind, another one second behind: both due, one late.
    now = env.bot.clock()
    async with env.bot.db.transaction() as conn:
        await conn.execute("UPDATE games SET deadline = ? WHERE id = 1", (now - 60,))
    await open_board(env, bo, [ana])
    async with env.bot.db.transaction() as conn:
        await conn.execute("UPDATE games SET deadline = ? WHERE id = 2", (now - 1,))
    text = await (await client.get("/metrics")).text()
    assert metric(text, "bot_timers_due") == 2 and metric(text, "bot_timers_late") == 1
    assert metric(text, "bot_live_tables", game="board") == 2


async def test_discord_requests_and_429s_are_counted_by_the_clients_trace() -> None:
    """The trace the bot gives discord.py's HTTP client (``http_trace``) counts each answer
    by method and status, and a 429 by Discord's rate-limit scope."""

    async def answer(request: web.Request) -> web.Response:
        if request.path == "/limited":
            return web.json_response(
                {"retry_after": 0.1}, status=429, headers={"X-RateLimit-Scope": "shared"}
            )
        return web.json_response({})

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", answer)
    server = TestServer(app)
    await server.start_server()
    try:

        def value(name: str, **labels: str) -> float:
            found: Any = metrics.REGISTRY.get_sample_value(name, labels)
            return float(found or 0.0)

        before_ok = value("bot_discord_requests_total", method="POST", status="200")
        before_429 = value("bot_discord_requests_total", method="GET", status="429")
        before_shared = value("bot_discord_rate_limited_total", scope="shared")
        async with ClientSession(trace_configs=[metrics.discord_trace()]) as session:
            async with session.post(server.make_url("/channels/1/messages")) as response:
                assert response.status == 200
            async with session.get(server.make_url("/limited")) as response:
                assert response.status == 429
        assert value("bot_discord_requests_total", method="POST", status="200") == before_ok + 1
        assert value("bot_discord_requests_total", method="GET", status="429") == before_429 + 1
        assert value("bot_discord_rate_limited_total", scope="shared") == before_shared + 1
    finally:
        await server.close()


def test_the_dashboard_and_the_docs_name_only_series_the_bot_exports() -> None:
    import json
    import re
    from pathlib import Path

    docs = Path(__file__).parents[2] / "docs"
    families = {family.name for family in metrics.REGISTRY.collect()}
    panels = json.loads((docs / "grafana" / "sequences-bot.json").read_text())["panels"]
    exprs = " ".join(t["expr"] for p in panels for t in p["targets"])
    table = (docs / "operations.md").read_text()
    named = set(re.findall(r"\bbot_[a-z_]+", exprs + " " + table))
    suffix = re.compile(r"_(total|bucket|count|sum)$")
    unknown = sorted(n for n in named if suffix.sub("", n) not in families)
    assert not unknown, unknown
    scraped = {suffix.sub("", n) for n in LISTED}
    assert scraped <= {suffix.sub("", n) for n in re.findall(r"\bbot_[a-z_]+", exprs)} | {
        "bot_click_seconds"  # drawn as p50 and p99 from its buckets
    }, "a listed series has no panel"
