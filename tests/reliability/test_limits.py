"""Issue 7.7: abuse limits. A per-member cooldown on opening tables; caps on open lobbies
and live games per channel and per server; a cap on bot players per table. Each limit
answers with one clear private line, holds under simultaneous commands, and changes
nothing when it refuses."""

from __future__ import annotations

from tests.discord.conftest import MakeEnv
from tests.reliability.helpers import snapshot


async def live_count(env: object, status: str | None = None) -> int:
    db = env.bot.db  # type: ignore[attr-defined]
    sql = "SELECT COUNT(*) FROM games WHERE status IN ('lobby', 'running')"
    if status is not None:
        row = await db.fetchone(sql + " AND status = ?", (status,))
    else:
        row = await db.fetchone(sql)
    return int(row[0])


async def test_start_cooldown_per_member(make_env: MakeEnv) -> None:
    env = await make_env(start_cooldown_seconds=30)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    assert not (await ana.slash("sequences start")).ephemeral
    before = await snapshot(env.bot.db)
    again = await ana.slash("heartsdue start")
    assert again.ephemeral and "try again in 30 s" in again.text
    assert await snapshot(env.bot.db) == before
    assert not (await bo.slash("sequences start")).ephemeral  # per member, not per channel
    await env.restart()  # a restart does not reset it
    again = await ana.slash("heartsdue start")
    assert again.ephemeral and "try again in 30 s" in again.text
    env.clock.advance(30)
    assert not (await ana.slash("board start")).ephemeral


async def test_cooldown_holds_when_one_member_starts_many_at_once(make_env: MakeEnv) -> None:
    env = await make_env(start_cooldown_seconds=30)
    ana = await env.h.member("Ana")
    replies = await env.h.together(*(ana.slash("sequences start") for _ in range(5)))
    assert sum(not r.ephemeral for r in replies) == 1
    assert await live_count(env) == 1


async def test_lobby_cap_per_channel_under_a_rush(make_env: MakeEnv) -> None:
    env = await make_env(max_lobbies_per_channel=3, channels=("general", "other"))
    members = [await env.h.member(f"M{i}") for i in range(6)]
    replies = await env.h.together(*(m.slash("sequences start") for m in members))
    refused = [r for r in replies if r.ephemeral]
    assert len(refused) == 3 and await live_count(env, "lobby") == 3
    assert all("too many open lobbies" in r.text and "\n" not in r.text for r in refused)
    other = await members[0].slash("sequences start", _channel=env.h.text_channel("other"))
    assert not other.ephemeral  # another channel has its own cap


async def test_live_games_cap_per_channel(make_env: MakeEnv) -> None:
    env = await make_env(max_games_per_channel=2, max_lobbies_per_channel=5)
    members = [await env.h.member(f"M{i}") for i in range(4)]
    for host, guest in ((members[0], members[1]), (members[2], members[3])):
        lobby = (await host.slash("sequences start")).message
        await guest.click(lobby, "Join")
        await host.click(lobby, "Start")
    refused = await members[0].slash("heartsdue start")
    assert refused.ephemeral and "too many games running in this channel" in refused.text


THREE = ("general", "other", "third")


async def test_live_games_cap_per_server(make_env: MakeEnv) -> None:
    env = await make_env(max_games_per_guild=2, channels=THREE)
    a, b, c = [await env.h.member(n) for n in ("A", "B", "C")]
    await a.slash("sequences start")
    await b.slash("sequences start", _channel=env.h.text_channel("other"))
    refused = await c.slash("sequences start", _channel=env.h.text_channel("third"))
    assert refused.ephemeral and "This server has too many games running" in refused.text


async def test_lobby_cap_per_server(make_env: MakeEnv) -> None:
    env = await make_env(max_lobbies_per_guild=1, channels=THREE)
    x, y = await env.h.member("X"), await env.h.member("Y")
    await x.slash("sequences start")
    refused = await y.slash("sequences start", _channel=env.h.text_channel("other"))
    assert refused.ephemeral and "open lobbies on this server" in refused.text


async def test_bot_players_cap_per_table(make_env: MakeEnv) -> None:
    env = await make_env(max_bot_players=2)
    ana = await env.h.member("Ana")
    lobby = (await ana.slash("board start")).message
    for _ in range(2):
        assert not (await ana.click(lobby, "Add bot: easy")).ephemeral
    before = await snapshot(env.bot.db)
    third = await ana.click(lobby, "Add bot: easy")
    assert third.ephemeral and third.text == "A table can have at most 2 bot players."
    assert await snapshot(env.bot.db) == before
