"""A click's place (server, channel) is checked by the table service on the copy it reads
under the table's lock; where the game is shown is read under the publisher's redraw lock,
which the start holds until its thread and first message are recorded."""

from __future__ import annotations

import asyncio

from bot.errors import StaleAction
from bot.tables.model import Place
from tests.discord.conftest import MakeEnv


async def test_the_service_refuses_a_click_from_another_place_on_the_copy_it_reads(
    make_env: MakeEnv,
) -> None:
    env = await make_env()
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = (await ana.slash("sequences start", rounds=1)).message
    lobby = (await bo.click(lobby, "Join")).message
    await ana.click(lobby, "Start")
    table = await env.bot.tables.get(1)
    row = table.row
    for place in (Place(row.guild_id + 1, row.channel_id), Place(row.guild_id, 12345)):
        try:
            await env.bot.tables.act(1, ana.id, table.version, "throw", place=place)
        except StaleAction as exc:
            assert str(exc) == "That button belongs to a game somewhere else."
        else:
            raise AssertionError("a click from elsewhere was played")
    assert (await env.bot.tables.get(1)).version == table.version  # nothing changed
    # From the game's thread it plays.
    here = Place(row.guild_id, row.thread_id)
    change = await env.bot.tables.act(1, ana.id, table.version, "throw", place=here)
    assert change.table.version == table.version + 1


async def test_a_turn_that_times_out_while_the_thread_opens_is_shown_in_the_thread(
    make_env: MakeEnv,
) -> None:
    env = await make_env()
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = (await ana.slash("sequences start", rounds=1)).message
    lobby = (await bo.click(lobby, "Join")).message
    env.h.set_latency(0.2)  # Discord answers slowly: opening the thread takes a while
    start = asyncio.create_task(ana.click(lobby, "Start"))
    while (await env.bot.tables.get(1)).status != "running":
        await asyncio.sleep(0.01)
    # Ana's first turn runs out before the start has posted it: its redraw must wait.
    env.clock.advance(env.settings.turn_timeout_seconds + 1)
    assert await env.bot.tick() == 1
    await start
    env.h.set_latency(0)
    await env.h.settle()
    [thread] = env.h.threads
    public = [m for m in env.h.messages() if not m.ephemeral]
    assert [m.channel_id for m in public] == [lobby.channel_id] + [thread.id] * (len(public) - 1)
    turn = env.turn_message()
    assert f"<@{bo.id}>" in env.ping_text(), env.ping_text()
    table = await env.bot.tables.get(1)
    assert table.row.message_id == turn.id and table.row.thread_id == thread.id
    assert any(f"t:1:{table.version}:" in (b.custom_id or "") for b in turn.buttons)
