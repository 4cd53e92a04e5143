"""A server's page lists its open lobbies and running games with a link into Discord
(issue 33): the link is the web app's own redirect, so the page holds no Discord id; a
table in a channel that not every member may read is not listed, and its redirect is 404."""

from __future__ import annotations

import re

from tests.discord.conftest import MakeEnv
from tests.discord.test_board_game import open_board
from tests.web.conftest import WebOf
from tests.web.played import play_server

SNOWFLAKE = re.compile(r"(?<!\d)\d{17,20}(?!\d)")


async def test_open_lobbies_are_listed_with_a_redirect_into_discord(
    make_env: MakeEnv, web_of: WebOf
) -> None:
    env = await make_env(seed=5)
    played = await play_server(env)
    lobby = await open_board(env, played.ana, [played.cy])  # table 3, in the channel
    client = await web_of(env)
    base = f"/s/{played.web_id}"
    html = await (await client.get(base)).text()
    assert "Live tables and open lobbies" in html
    assert "Game #3: " in html and "Lobby open" in html
    assert f'href="{base}/live/3"' in html
    assert not SNOWFLAKE.search(html)
    moved = await client.get(f"{base}/live/3", allow_redirects=False)
    assert moved.status == 302
    guild, channel = env.h.guild.id, env.h.channel.id
    assert moved.headers["Location"] == (
        f"https://discord.com/channels/{guild}/{channel}/{lobby.id}"
    )
    # A finished game, an unknown table and one of another server are not live here.
    for table in ("1", "99", "0", "12345678901234567890"):
        assert (await client.get(f"{base}/live/{table}", allow_redirects=False)).status == 404
    german = await (await client.get(f"{base}?lang=de")).text()
    assert "Laufende Tische und offene Lobbys" in german and "In Discord öffnen" in german

    # The channel closed to @everyone: the table is off the page, its redirect 404.
    await env.h.set_permissions(env.h.guild.default_role, view_channel=False)
    html = await (await client.get(base)).text()
    assert "Live tables and open lobbies" not in html and f"{base}/live/3" not in html
    assert (await client.get(f"{base}/live/3", allow_redirects=False)).status == 404


async def test_a_running_game_links_to_its_turn_message_in_its_thread(
    make_env: MakeEnv, web_of: WebOf
) -> None:
    env = await make_env(seed=6)
    played = await play_server(env)
    lobby = await open_board(env, played.ana, [played.bo])
    await played.ana.click(lobby, "Start")
    table = await env.bot.tables.get(3)
    assert table.status == "running" and table.row.thread_id is not None
    client = await web_of(env)
    base = f"/s/{played.web_id}"
    html = await (await client.get(base)).text()
    assert "Being played" in html and f"{base}/live/3" in html
    moved = await client.get(f"{base}/live/3", allow_redirects=False)
    assert moved.headers["Location"] == (
        f"https://discord.com/channels/{env.h.guild.id}/{table.row.thread_id}"
        f"/{table.row.message_id}"
    )
