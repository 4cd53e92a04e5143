"""The web companion's fixtures: a bot in the harness on each engine (``make_env``, as the
reliability tests have it) and aiohttp's test client over that bot's pages (``web_of``)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.web.guard import RateLimit
from tests.backends import DbTarget
from tests.discord.conftest import Env, MakeEnv, close_envs, env_factory

WebOf = Callable[..., Awaitable[TestClient[Any, Any]]]


@pytest.fixture
async def make_env(db_target: DbTarget, make_harness: Any) -> AsyncIterator[MakeEnv]:
    make, opened = env_factory(lambda n: db_target(f"bot{n}"), make_harness)
    yield make
    await close_envs(opened)


@pytest.fixture
async def web_of() -> AsyncIterator[WebOf]:
    """A test client over a bot's web pages (no rate limit unless one is given)."""
    clients: list[TestClient[Any, Any]] = []

    async def make(env: Env, limit: RateLimit | None = None) -> TestClient[Any, Any]:
        # aiohttp's connection handlers wait for the next request: idle, not work under way.
        env.h.ignore_tasks(lambda task: "RequestHandler" in repr(task.get_coro()))
        app = env.bot.web_app(limit or RateLimit(per_second=1e6, burst=1e6))
        client: TestClient[Any, Any] = TestClient(TestServer(app))
        await client.start_server()
        clients.append(client)
        return client

    yield make
    for client in clients:
        await client.close()
