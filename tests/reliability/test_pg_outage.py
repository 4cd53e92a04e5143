"""Issue 19 item 32: PostgreSQL drops the bot's connections (pg_terminate_backend, as an
idle timeout in a proxy or a failover does) or restarts in the middle of play. Every click
is answered: normally when the server is there (a lost connection is replaced before use,
or the operation that found it lost runs again on a fresh one), else privately with "try
again" and nothing changed; nothing is lost; timers wait while the server is away and fire
once it is back. PostgreSQL only: SQLite has no server to lose.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import psycopg
import pytest

from bot.errors import DatabaseUnavailable
from bot.store.postgres import WAIT_FOR_SERVER
from bot.ui.errors import APOLOGY, TRY_AGAIN
from tests.conftest import MakeHarness
from tests.discord.conftest import Env, MakeEnv, close_envs, env_factory
from tests.harness import Harness, Player, Reply
from tests.pg import Databases, database_url
from tests.pgserver import Server, running_server
from tests.reliability.helpers import snapshot
from tests.reliability.test_two_processes import check_whole


@pytest.fixture
async def pg_env(postgres_url: str, make_harness: object) -> AsyncIterator[MakeEnv]:
    make, opened = env_factory(lambda n: postgres_url, make_harness)
    yield make
    await close_envs(opened)


@pytest.fixture(scope="module")
def own_server() -> Iterator[Server]:
    """A server of this module's own, which a test may stop and start again (the session's
    is shared with the other xdist workers)."""
    with running_server(port=40000 + (os.getpid() + 10007) % 20000) as server:
        yield server


@pytest.fixture
async def restartable_env(own_server: Server, make_harness: MakeHarness) -> AsyncIterator[MakeEnv]:
    databases = Databases(own_server.url())
    name = databases.create()
    databases.close()  # the restart ends its connection; a new one drops the database

    async def harness(bot: Any, **options: Any) -> Harness:
        # A click may wait WAIT_FOR_SERVER (2 s) for the server before it is answered.
        return await make_harness(bot, settle_timeout=WAIT_FOR_SERVER + 3, **options)

    make, opened = env_factory(lambda n: database_url(own_server.url(), name), harness)
    try:
        yield make
        await close_envs(opened)
    finally:
        databases = Databases(own_server.url())
        databases.drop(name)
        databases.close()


def kill_connections(server_url: str, database: str) -> int:
    """End every session on ``database`` from the server's side, as a failover does."""
    with psycopg.connect(server_url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
            (database,),
        ).fetchall()
    return len(rows)


def move_label(env: Env, labels: list[str | None], phase: str, run: int) -> str:
    def first(prefix: str) -> str | None:
        return next((lb for lb in labels if lb and lb.startswith(prefix)), None)

    if phase == "throw":
        label = first("Throw")
    else:
        label = first("Push") if run < 2 else None
        label = label or first("Bank")
    assert label is not None, labels
    return label


async def next_click(env: Env, players: dict[int, Player]) -> tuple[Player, str] | None:
    """Who is to move and the button they press (throw; bank a run of 2, else push)."""
    table = await env.bot.tables.get(1)
    if table.status != "running":
        return None
    state = table.rules
    player = players[table.seats[state.current].user_id or 0]
    message = env.turn_message()
    run = len(state.run) + len(state.extending)
    return player, move_label(env, message.labels, state.phase, run)


async def start_game(env: Env) -> dict[int, Player]:
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = (await ana.slash("sequences start", rounds=2)).message
    await bo.click(lobby, "Join")
    await ana.click(lobby, "Start")
    return {ana.id: ana, bo.id: bo}


def answered_normally(reply: Reply) -> bool:
    return not reply.ephemeral and APOLOGY not in reply.text and TRY_AGAIN not in reply.text


async def test_clicks_after_every_connection_was_killed_all_go_through(
    pg_env: MakeEnv, postgres_url: str, postgres_databases: Databases
) -> None:
    env = await pg_env(seed=5)
    players = await start_game(env)
    database = postgres_url.split("?")[0].rsplit("/", 1)[1]
    kills = clicks = 0
    while (step := await next_click(env, players)) is not None:
        # The pool's connections and the writer's, all ended while the bot is idle.
        kills += kill_connections(postgres_databases.server_url, database)
        player, label = step
        reply = await player.click(env.turn_message(), label)
        clicks += 1
        assert answered_normally(reply), reply.text
        assert clicks < 400
    assert clicks >= 10 and kills >= 2 * clicks  # each kill found a pooled and a writer's
    table = await env.bot.tables.get(1)
    assert table.status == "finished"
    await check_whole(env.bot.db)


async def wait_until(predicate: object, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if await predicate():  # type: ignore[operator]
            return
        await asyncio.sleep(0.2)
    raise AssertionError("not within the time")


async def test_a_server_restart_in_the_middle_of_play(
    restartable_env: MakeEnv, own_server: Server
) -> None:
    env = await restartable_env(seed=7)
    players = await start_game(env)
    for _ in range(3):
        step = await next_click(env, players)
        assert step is not None
        assert answered_normally(await step[0].click(env.turn_message(), step[1]))

    # A quick restart (as pg_ctl restart): the next clicks go through as if nothing happened.
    await asyncio.to_thread(own_server.stop)
    await asyncio.to_thread(own_server.start)
    for _ in range(3):
        step = await next_click(env, players)
        assert step is not None
        assert answered_normally(await step[0].click(env.turn_message(), step[1]))

    # Down for longer than a click can wait: the click is answered privately, "try again",
    # and nothing of it happened. The timers wait too, without stopping.
    before = await snapshot(env.bot.db)
    step = await next_click(env, players)
    assert step is not None
    player, label = step
    await asyncio.to_thread(own_server.stop)
    try:
        reply = await player.click(env.turn_message(), label)
        assert reply.ephemeral and reply.text == TRY_AGAIN
        env.clock.advance(3600)  # the turn's timeout falls due while the server is away
        await env.bot._timer_step()  # a warning, no error, no end to the loop
    finally:
        await asyncio.to_thread(own_server.start)
    assert await snapshot(env.bot.db) == before

    # Back: the timeout that fell due fires (once the pool's workers have reconnected),
    # and the game plays on to its end.
    async def timer_fired() -> bool:
        try:
            return await env.tick() == 1
        except DatabaseUnavailable:
            return False

    await wait_until(timer_fired, 10)
    assert await snapshot(env.bot.db) != before
    clicks = 0
    while (step := await next_click(env, players)) is not None:
        assert answered_normally(await step[0].click(env.turn_message(), step[1]))
        clicks += 1
        assert clicks < 400
    assert (await env.bot.tables.get(1)).status == "finished"
    await check_whole(env.bot.db)
