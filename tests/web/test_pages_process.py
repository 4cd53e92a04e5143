"""A running bot serves its pages from a process of its own (``bot.web_process``), over its
own database connection, asking the bot only what Discord's cache and its metrics know: a
server's name and language, which channels every member may read, whether it is ready,
its counters. The process ends when the bot closes."""

from __future__ import annotations

import os
import re

from aiohttp import ClientSession

from tests.discord.conftest import MakeEnv
from tests.discord.test_board_game import open_board
from tests.web.played import play_server
from tests.web.test_operator import free_port


async def test_the_pages_process_serves_a_played_server_with_what_the_bot_knows(
    make_env: MakeEnv,
) -> None:
    port = free_port()
    env = await make_env(seed=5, web_port=port)
    played = await play_server(env)
    await open_board(env, played.ana, [played.cy])  # table 3, a lobby in a public channel
    assert env.bot.web_server is not None and env.bot.web_server.pid != os.getpid()
    site = f"http://127.0.0.1:{port}"
    base = f"{site}/s/{played.web_id}"
    async with ClientSession() as session:
        async with session.get(base) as response:
            html = await response.text()
            assert response.status == 200
        assert env.h.guild.name in html  # the bot's Discord cache, asked
        assert f"/s/{played.web_id}/live/3" in html  # the channel public: asked too
        assert "Bobby" in html and "Cyrille" in html  # the process's own reads
        async with session.get(f"{base}?lang=de") as response:
            assert "Laufende Tische und offene Lobbys" in await response.text()
        async with session.get(f"{base}/g/1?step=2") as response:
            assert response.status == 200 and "/g/1/2.png" in await response.text()
        async with session.get(f"{base}/g/1/2.png") as response:
            assert response.content_type == "image/png" and len(await response.read()) > 1000
        async with session.get(f"{site}/readyz") as response:
            assert response.status == 200
            assert await response.json() == {"database": True, "gateway": True}
        async with session.get(f"{site}/metrics") as response:
            text = await response.text()
    # The bot's counters and the pages' in one exposition, each family described once.
    assert re.search(r'^bot_clicks_total\{kind="turn",outcome="ok"\} [1-9]', text, re.M)
    assert re.search(r'^bot_web_requests_total\{route="server",status="200"\} 2\.0$', text, re.M)
    types = re.findall(r"^# TYPE (\S+)", text, re.M)
    assert len(types) == len(set(types)) and "bot_web_request_seconds" in types

    pid = env.bot.web_server.pid
    assert pid is not None
    await env.h.stop()  # the bot closes, and its pages' process ends with it
    assert env.bot.web_server is None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        pass
    else:
        raise AssertionError(f"the pages' process {pid} outlived the bot")
