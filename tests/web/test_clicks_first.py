"""Clicks first (issue 33, "200 concurrent page requests while clicks run"): a page starts
when no game button is being answered, or after ``CLICKS_FIRST`` at most; a click counts
as being answered from its press to its answer (``bot.metrics.ANSWERING``)."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot import metrics
from bot.web import guard
from tests.discord.conftest import MakeEnv
from tests.web.conftest import WebOf


async def test_none_waits_for_the_clicks_being_answered_and_no_longer_than_asked() -> None:
    answering = metrics.Answering()
    assert await answering.none(0.0)  # none: at once
    answering.__enter__()
    answering.__enter__()
    assert not await answering.none(0.01)  # two clicks: the wait runs out
    waiting = asyncio.ensure_future(answering.none(5.0))
    await asyncio.sleep(0.01)
    answering.__exit__(None, None, None)
    await asyncio.sleep(0.01)
    assert not waiting.done()  # one still being answered
    answering.__exit__(None, None, None)
    assert await asyncio.wait_for(waiting, 1.0)
    assert answering.count == 0


async def test_a_page_waits_while_a_click_is_answered_then_is_drawn(
    make_env: MakeEnv, web_of: WebOf, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = await make_env()
    client = await web_of(env)
    assert (await client.get("/")).status == 200  # templates compiled
    monkeypatch.setattr(guard, "CLICKS_FIRST", 5.0)
    with metrics.ANSWERING:
        page = asyncio.ensure_future(client.get("/"))
        await asyncio.sleep(0.3)
        assert not page.done()  # an index page is drawn in milliseconds otherwise
        ended = time.perf_counter()
    response = await asyncio.wait_for(page, 5.0)
    assert response.status == 200 and time.perf_counter() >= ended
    # However long the clicks take, a page waits CLICKS_FIRST at most.
    monkeypatch.setattr(guard, "CLICKS_FIRST", 0.05)
    with metrics.ANSWERING:
        response = await asyncio.wait_for(client.get("/"), 5.0)
        assert response.status == 200
    # The operator's routes never wait.
    monkeypatch.setattr(guard, "CLICKS_FIRST", 5.0)
    with metrics.ANSWERING:
        assert (await asyncio.wait_for(client.get("/healthz"), 2.0)).status == 200
