"""A click reads its table's row at most once: in the table kernel, under the table's lock,
where its place is checked too; and not at all when the process keeps the copy it saved last
(issue 35.1: the save's compare-and-set proves it current). A click answered in place needs
no read of where the game is shown."""

from __future__ import annotations

import pytest

from bot.store import games
from tests.discord.conftest import MakeEnv


async def test_a_turn_click_reads_the_games_row_once_or_not_at_all(
    make_env: MakeEnv, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = await make_env()
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = (await ana.slash("sequences start", rounds=1)).message
    lobby = (await bo.click(lobby, "Join")).message
    await ana.click(lobby, "Start")
    reads: list[int] = []
    real_get = games.get

    async def counting_get(db: object, game_id: int) -> object:
        reads.append(game_id)
        return await real_get(db, game_id)  # type: ignore[arg-type]

    monkeypatch.setattr(games, "get", counting_get)
    for turn in range(3):  # the first throw, then Bank or the next player's throw
        if turn == 2:
            env.bot.tables.kernel.forget(1)  # a process that keeps no copy of it: one read
        message = env.turn_message()
        table = await env.bot.tables.get(1)
        reads.clear()
        seat = table.game.current_seat(table.rules)
        player = ana if seat == 0 else bo
        label = next(lb for lb in message.labels if lb and lb.startswith(("Throw", "Bank")))
        reply = await player.click(message, label)
        assert not reply.ephemeral, reply.text
        # The game's message was just posted (its place written: the copy dropped), then
        # each click kept its copy for the next.
        assert reads == ([] if turn == 1 else [1]), turn


async def test_a_ping_deleted_as_the_turn_passes_asks_the_database_nothing(
    make_env: MakeEnv,
) -> None:
    """Issue 26.4: the bot deletes the last ping when the turn passes, and Discord tells it
    so (a message delete event); that is no game's message, so nothing is looked up (it was
    a round trip to PostgreSQL on every turn change). A game message a moderator deletes is
    still reposted (tests/reliability/test_discord_failures.py)."""
    env = await make_env()
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = (await ana.slash("sequences start", rounds=2)).message
    lobby = (await bo.click(lobby, "Join")).message
    await ana.click(lobby, "Start")
    seen: list[str] = []
    env.bot.db.on_statement = seen.append
    pings = set()
    for _ in range(12):
        table = await env.bot.tables.get(1)
        if table.status != "running":
            break
        ping = env.ping()
        assert ping is not None
        pings.add(ping.id)
        player = ana if table.game.current_seat(table.rules) == 0 else bo
        message = env.turn_message()
        label = next(lb for lb in message.labels if lb and lb.startswith(("Bank", "Throw")))
        await player.click(message, label)
        await env.h.settle()
    env.bot.db.on_statement = None
    assert len(pings) >= 3  # the turn passed, each ping deleted
    assert [s for s in seen if "WHERE message_id" in s] == []
