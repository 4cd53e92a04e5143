"""A restart redraws only what players would otherwise see wrong: the tables whose message
shows an older version than the database holds. Every other message is left alone."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.discord.conftest import Env, MakeEnv
from tests.harness import Message, Player, Reply
from tests.reliability.helpers import crash_at_commit


async def running_game(env: Env, host: Player, guest: Player) -> Message:
    lobby = (await host.slash("sequences start", rounds=3)).message
    lobby = (await guest.click(lobby, "Join")).message
    await host.click(lobby, "Start")
    return lobby


async def click_throw(env: Env, table_id: int, players: list[Player]) -> Reply:
    table = await env.bot.tables.get(table_id)
    seat = table.game.current_seat(table.rules)
    player = next(p for p in players if p.id == table.seats[seat].user_id)  # type: ignore[index]
    assert table.row.message_id is not None
    return await player.click(env.h.message(table.row.message_id), "Throw 5 dice")


def edits_since(env: Env, start: int) -> list[str]:
    return [r.path for r in env.h.requests[start:] if r.method == "PATCH"]


async def test_a_clean_restart_redraws_nothing(make_env: MakeEnv) -> None:
    env = await make_env(seed=5, max_lobbies_per_channel=5)
    ana, bo, cy = await env.h.member("Ana"), await env.h.member("Bo"), await env.h.member("Cy")
    await running_game(env, ana, bo)
    await running_game(env, cy, bo)
    assert not (await click_throw(env, 1, [ana, bo])).ephemeral
    assert not (await cy.slash("heartsdue start")).ephemeral  # an open lobby too
    await env.tick()  # records the versions shown, as the timer loop does every second
    start = len(env.h.requests)
    await env.restart()
    assert edits_since(env, start) == []
    assert await env.bot.tables.behind_on_discord() == []


async def test_only_the_table_whose_message_is_behind_is_redrawn(make_env: MakeEnv) -> None:
    env = await make_env(seed=6, max_lobbies_per_channel=5)
    ana, bo, cy = await env.h.member("Ana"), await env.h.member("Bo"), await env.h.member("Cy")
    await running_game(env, ana, bo)
    await running_game(env, cy, bo)
    await env.tick()
    # The process dies right after game 2's throw is committed, before Discord hears of it.
    with crash_at_commit(env.bot.db, "after") as crashes, env.h.expect_errors("unexpected"):
        await click_throw(env, 2, [cy, bo])
    assert crashes
    assert await env.bot.tables.behind_on_discord() == [2]
    start = len(env.h.requests)
    await env.restart()
    table = await env.bot.tables.get(2)
    assert table.row.message_id is not None
    edited = edits_since(env, start)
    assert edited == [f"/channels/{table.game_channel_id}/messages/{table.row.message_id}"]
    message = env.h.message(table.row.message_id)
    versions = {b.custom_id.split(":")[2] for b in message.buttons if ":T:" not in b.custom_id}
    assert versions == {str(table.version)}  # the throw is on screen: play goes on
    assert await env.bot.tables.behind_on_discord() == []


async def test_a_deleted_game_message_is_posted_again_at_once(make_env: MakeEnv) -> None:
    env = await make_env(seed=7)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await running_game(env, ana, bo)
    table = await env.bot.tables.get(1)
    assert table.row.message_id is not None
    env.h.fake.delete_message(env.h.fake.messages[table.row.message_id])
    await env.h.settle()
    moved = await env.bot.tables.get(1)
    assert moved.row.message_id not in (None, table.row.message_id)
    assert "Throw 5 dice" in env.h.message(moved.row.message_id).labels  # type: ignore[arg-type]


async def test_a_click_during_a_slow_redraw_is_answered_at_once(make_env: MakeEnv) -> None:
    """A redraw after a restart holds the table's redraw lock while Discord is slow (3.5 s
    here, as behind a rate limit). A click on that table meanwhile is answered at once, not
    after the redraw (past Discord's 3 seconds: the click would be lost), and shown when the
    redraw is done."""
    env = await make_env(seed=6)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await running_game(env, ana, bo)
    env.h.settle_timeout = 10  # the click's redraw waits 3.5 s behind the restart's
    fake = env.h.fake
    serve = fake.handle_rest
    slowed: list[str] = []

    async def slow_first_edit(route: Any, **kwargs: Any) -> Any:
        if route.method == "PATCH" and not slowed:
            slowed.append(route.path)
            await asyncio.sleep(3.5)
        return await serve(route, **kwargs)

    fake.handle_rest = slow_first_edit  # type: ignore[method-assign]
    # What the restart's redraw does for each table behind (Publisher.restore).
    redraw = asyncio.create_task(env.bot.shell.publisher.restorer.restore_locked(1))
    await env.h.settle()
    assert slowed and not redraw.done()  # the redraw is waiting on Discord

    reply = await click_throw(env, 1, [ana, bo])

    assert redraw.done()
    assert reply.answer_seconds is not None and reply.answer_seconds < 1.0
    table = await env.bot.tables.get(1)
    assert table.row.message_id is not None and reply.message.id == table.row.message_id
    versions = {
        b.custom_id.split(":")[2] for b in reply.message.buttons if ":T:" not in b.custom_id
    }
    assert versions == {str(table.version)}  # the throw is on screen
