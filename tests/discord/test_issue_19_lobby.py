"""Issue 19, the lobby and the end request: items 3, 4, 6, 16 and 18, each driven through
the real bot as a player meets it."""

from __future__ import annotations

from tests.discord.conftest import MakeEnv


async def test_game_on_links_the_games_thread_not_the_lobbys_channel(make_env: MakeEnv) -> None:
    env = await make_env()
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    for command in ("sequences start", "board start", "heartsdue start"):
        lobby = (await ana.slash(command)).message
        lobby = (await bo.click(lobby, "Join")).message
        started = await ana.click(lobby, "Start")
        thread = env.h.threads[-1]
        assert started.message.id == lobby.id and lobby.buttons == []
        assert f"Game on! Follow it in <#{thread.id}>." in lobby.text, command
        assert f"<#{env.h.channel.id}>" not in lobby.text
        # The thread is the game's: its first turn is there.
        assert [m for m in env.h.messages(thread) if not m.ephemeral]
        table = await env.bot.tables.get(lobby_id := len(env.h.threads))
        assert table.row.thread_id == thread.id, lobby_id


async def test_game_on_names_where_the_game_went_when_the_click_or_thread_fails(
    make_env: MakeEnv,
) -> None:
    env = await make_env()
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    # The click's answer came too late (10062): the lobby is redrawn by REST, still linking
    # the thread.
    lobby = (await ana.slash("sequences start")).message
    lobby = (await bo.click(lobby, "Join")).message
    env.h.fail_next("POST", r"/interactions/\d+/[^/]+/callback$", 404, 10062)
    assert (await ana.click(lobby, "Start")).failed
    [thread] = env.h.threads
    assert f"Follow it in <#{thread.id}>." in env.h.message(lobby.id).text
    # No thread could be opened: the game runs in the channel, and the lobby says so.
    lobby = (await ana.slash("sequences start")).message
    lobby = (await bo.click(lobby, "Join")).message
    env.h.fail_next("POST", r"/messages/\d+/threads$", 403)
    await ana.click(lobby, "Start")
    assert len(env.h.threads) == 1
    assert f"Follow it in <#{env.h.channel.id}>." in env.h.message(lobby.id).text
