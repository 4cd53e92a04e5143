"""Issue 22.2, Rematch: a finished game's result message carries Rematch; a player's press
opens one lobby with the same seats (bot players included), settings and stake, each other
member confirms with one press (Join: their stake is taken then) or passes (Leave: nothing
taken), the host starts with the seats taken, and nothing is lost on the way. Through the
harness, on both engines; one rematch per game with two presses at once and with two
processes on one database."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.games.oneroll import settings as oneroll
from bot.store import games
from bot.store.db import Database
from bot.tables import wallets
from bot.tables.fair_play import FairPlay
from bot.tables.rematch import Rematches
from bot.tables.wallet_hooks import WalletHooks
from tests.backends import DbTarget
from tests.discord.conftest import Env, MakeEnv
from tests.fakes import FakeClock
from tests.harness import Message, Player, Reply
from tests.reliability.burst import instance
from tests.reliability.helpers import forge_click

START = wallets.START_CHIPS


async def staked_game(env: Env, players: list[Player], stake: int, **options: Any) -> None:
    """Open, fill, start and play a one-roll game (game #1) to its result."""
    host, *others = players
    lobby = (await host.slash("sequences start", rules="classic", stake=stake, **options)).message
    for player in others:
        lobby = (await player.click(lobby, "Join")).message
    await host.click(lobby, "Start")
    await play_out(env, 1, players)


async def play_out(env: Env, table_id: int, players: list[Player]) -> None:
    """Whoever is to move throws, on the game's live message, until there is a result."""
    by_id = {p.id: p for p in players}
    for _ in range(400):
        table = await env.bot.tables.get(table_id)
        if table.status != "running":
            assert table.status == "finished"
            return
        seat = table.seats[table.game.current_seat(table.rules)]
        if seat.is_bot:
            await env.run_bots()
            continue
        message = env.h.message(table.row.message_id)
        label = next(lb for lb in message.labels if lb and lb.startswith("Throw"))
        reply = await by_id[seat.user_id].click(message, label)
        assert not reply.ephemeral, reply.text
    raise AssertionError(f"game {table_id} did not finish")


async def members(env: Env, *names: str) -> list[Player]:
    return [await env.h.member(name) for name in names]


async def chips(env: Env, *players: Player) -> list[int]:
    return [await wallets.balance(env.bot.db, env.h.guild.id, p.id) for p in players]


async def result_message(env: Env, game_id: int = 1) -> Message:
    table = await env.bot.tables.get(game_id)
    assert table.status == "finished" and table.row.message_id is not None
    return env.h.message(table.row.message_id)


def rematch_lobby(env: Env, game_id: int = 1) -> Message:
    """The rematch lobby's message, in the game's channel."""
    [lobby] = [
        m
        for m in env.h.messages(env.h.channel, ephemeral=False)
        if m.content.startswith(f"🔁 **Rematch of game #{game_id}**")
    ]
    return lobby


async def escrows(env: Env, game_id: int) -> list[tuple[int, str]]:
    rows = await env.bot.db.fetchall(
        "SELECT user_id, status FROM escrows WHERE game_id = ? ORDER BY id", (game_id,)
    )
    return [(r["user_id"], r["status"]) for r in rows]


def private(reply: Reply) -> str:
    assert reply.ephemeral, reply.text
    return reply.text


async def test_a_staked_game_is_rematched_and_a_member_who_declines_loses_nothing(
    make_env: MakeEnv,
) -> None:
    env = await make_env(seed=7)
    ana, bo, cy = await members(env, "Ana", "Bo", "Cy")
    dee = await env.h.member("Dee")
    await staked_game(env, [ana, bo, cy], 100, target=20)
    after_first = await chips(env, ana, bo, cy)
    assert sum(after_first) == 3 * START
    first = await env.bot.tables.get(1)

    final = await result_message(env)
    assert final.labels == ["Rematch"] and final.channel_id == first.row.thread_id
    # Someone who did not play: refused privately, nothing opened.
    assert private(await dee.click(final, "Rematch")) == (
        "Only the players of game #1 can ask for its rematch."
    )
    assert (await games.get(env.bot.db, 1)).rematch_id is None

    opened = private(await bo.click(final, "Rematch"))
    lobby = rematch_lobby(env)
    assert lobby.channel_id == env.h.channel.id  # in the channel, not in game #1's thread
    link = f"https://discord.com/channels/{env.h.guild.id}/{env.h.channel.id}/{lobby.id}"
    assert opened.startswith(f"🔁 Rematch open, table #2: {link}.")
    assert "your stake of 100 chips is held" in opened
    # Ana and Cy are called (the only pings); their seats wait for them.
    assert ana.mention in lobby.content and cy.mention in lobby.content
    [post] = [r for r in env.h.requests if r.method == "POST" and "Rematch of game" in str(r.json)]
    assert sorted(map(int, post.json["allowed_mentions"]["users"])) == sorted([ana.id, cy.id])
    assert "Seats held for the last game's players" in lobby.embed_text()
    assert "(your 100 chips are staked then)" in lobby.embed_text()
    # Each waiting member is listed once, in their seat's place (not again in the field).
    assert lobby.embed_text().count(ana.mention) == lobby.embed_text().count(cy.mention) == 1
    assert f"{ana.mention} (seat held)" in lobby.embed_text()
    asks = f"{bo.mention} asks {ana.mention} and {cy.mention} to play again."
    assert lobby.content == f"🔁 **Rematch of game #1**: {asks}"
    rematch = await env.bot.tables.get(2)
    assert rematch.settings == first.settings and rematch.row.stake == 100
    assert rematch.row.host_id == bo.id
    assert [s.user_id for s in rematch.seats] == [bo.id]
    assert [s.user_id for s in rematch.held] == [ana.id, cy.id]
    # Bo's stake is taken once, now; nobody else's.
    assert await chips(env, ana, bo, cy) == [after_first[0], after_first[1] - 100, after_first[2]]

    # A second press, even Bo's own: where the lobby is, privately; nothing taken.
    again = private(await ana.click(final, "Rematch"))
    assert again == f"🔁 Game #1's rematch is already open: table #2: {link}."
    assert private(await bo.click(final, "Rematch")) == again
    assert await chips(env, ana, bo, cy) == [after_first[0], after_first[1] - 100, after_first[2]]

    # Ana confirms with one press (her stake taken then); Cy passes (nothing taken).
    lobby = (await ana.click(lobby, "Join")).message
    assert (await chips(env, ana))[0] == after_first[0] - 100
    lobby = (await cy.click(lobby, "Leave")).message
    assert (await chips(env, cy))[0] == after_first[2]
    assert "Seats held" not in lobby.embed_text()
    rematch = await env.bot.tables.get(2)
    assert rematch.held == []
    # The seats that play keep game #1's order.
    order = [s.user_id for s in first.seats if s.user_id != cy.id]
    assert [s.user_id for s in rematch.seats] == order
    assert "pot 200 chips" in lobby.embed_text()

    await bo.click(lobby, "Start")
    assert env.h.thread("Sequences (One-roll) #2") is not None
    await play_out(env, 2, [ana, bo])
    after_second = await chips(env, ana, bo, cy)
    assert sum(after_second) == 3 * START and after_second[2] == after_first[2]
    assert sorted(await escrows(env, 2)) == sorted([(bo.id, "paid"), (ana.id, "paid")])
    # The rematch's result carries its own Rematch.
    assert (await result_message(env, 2)).labels == ["Rematch"]


async def test_a_seat_not_taken_is_left_out_and_an_unstarted_rematch_refunds(
    make_env: MakeEnv,
) -> None:
    env = await make_env(seed=11)
    ana, bo, cy = await members(env, "Ana", "Bo", "Cy")
    await staked_game(env, [ana, bo, cy], 50, target=20)
    before = await chips(env, ana, bo, cy)
    private(await ana.click(await result_message(env), "Rematch"))
    lobby = (await bo.click(rematch_lobby(env), "Join")).message
    # Cy never answers: Start plays with Ana and Bo; Cy's seat is left out, nothing taken.
    await ana.click(lobby, "Start")
    game = await env.bot.tables.get(2)
    assert game.status == "running" and {s.user_id for s in game.seats} == {ana.id, bo.id}
    [start] = [e for e in await games.log_entries(env.bot.db, 2) if e["kind"] == "start"]
    assert start["detail"]["left_out"] == [cy.id]
    # An old copy of the lobby, its Join pressed late: refused, nothing taken.
    assert private(await cy.click_stale(lobby, "t:2:L:join")) == "That game has already started."
    assert (await chips(env, cy))[0] == before[2]
    await play_out(env, 2, [ana, bo])

    # The rematch of the rematch: opened, nobody else comes, the host cancels: refunded.
    before = await chips(env, ana, bo, cy)
    private(await bo.click(await result_message(env, 2), "Rematch"))
    assert (await chips(env, bo))[0] == before[1] - 50
    lobby = (await ana.click(rematch_lobby(env, 2), "Join")).message
    assert (await chips(env, ana))[0] == before[0] - 50
    lobby = (await bo.click(lobby, "Cancel")).message
    assert (await env.bot.tables.get(3)).status == "cancelled"
    assert await chips(env, ana, bo, cy) == before
    assert "refunded" in lobby.embed_text()
    # One rematch per game: a press now says it was called off, and opens nothing.
    late = private(await ana.click(await result_message(env, 2), "Rematch"))
    assert late.startswith("🔁 Game #2's rematch was called off: table #3")
    assert await env.bot.tables.live_tables() == []


async def test_a_rematch_nobody_starts_expires_with_every_stake_back(make_env: MakeEnv) -> None:
    env = await make_env(seed=5)
    ana, bo = await members(env, "Ana", "Bo")
    await staked_game(env, [ana, bo], 100, target=20)
    before = await chips(env, ana, bo)
    private(await ana.click(await result_message(env), "Rematch"))
    await bo.click(rematch_lobby(env), "Join")
    assert await chips(env, ana, bo) == [before[0] - 100, before[1] - 100]
    await env.tick(env.settings.lobby_timeout_seconds + 1)
    assert (await env.bot.tables.get(2)).status == "expired"
    assert await chips(env, ana, bo) == before


async def test_a_member_short_of_chips_gets_the_wallet_refusal(make_env: MakeEnv) -> None:
    env = await make_env(seed=3)
    ana, bo = await members(env, "Ana", "Bo")
    await staked_game(env, [ana, bo], 600, target=20)
    table = await env.bot.tables.get(1)
    [winner] = [r.user_id for r in table.game.results(table.rules, table.seats) if r.won]
    rich, poor = (ana, bo) if winner == ana.id else (bo, ana)
    assert await chips(env, rich, poor) == [START + 600, START - 600]
    final = await result_message(env)
    refusal = "You have 400 chips; this table's stake is 600."
    assert private(await poor.click(final, "Rematch")) == refusal
    assert (await games.get(env.bot.db, 1)).rematch_id is None  # nothing opened
    private(await rich.click(final, "Rematch"))
    lobby = rematch_lobby(env)
    assert private(await poor.click(lobby, "Join")) == refusal
    rematch = (await games.get(env.bot.db, 1)).rematch_id  # PostgreSQL skips the refused id
    assert [s.user_id for s in (await env.bot.tables.get(rematch)).held] == [poor.id]
    assert await chips(env, rich, poor) == [START, START - 600]
    await rich.click(lobby, "Cancel")
    assert await chips(env, rich, poor) == [START + 600, START - 600]


async def test_two_presses_at_once_open_one_lobby(make_env: MakeEnv) -> None:
    env = await make_env(seed=7)
    ana, bo = await members(env, "Ana", "Bo")
    await staked_game(env, [ana, bo], 100, target=20)
    before = await chips(env, ana, bo)
    final = await result_message(env)
    first, second = await env.h.together(ana.click(final, "Rematch"), bo.click(final, "Rematch"))
    texts = sorted([private(first), private(second)])
    assert texts[0].startswith("🔁 Game #1's rematch is already open: table #2")
    assert texts[1].startswith("🔁 Rematch open, table #2")
    rematch_lobby(env)  # exactly one lobby message
    assert len(await env.bot.tables.live_tables()) == 1
    assert len(await escrows(env, 2)) == 1
    assert sum(await chips(env, ana, bo)) == sum(before) - 100


async def test_bot_players_and_settings_come_back_after_a_restart(make_env: MakeEnv) -> None:
    env = await make_env(seed=2)
    ana = await env.h.member("Ana")
    lobby = (await ana.slash("sequences start", rules="classic", target=30)).message
    lobby = (await ana.click(lobby, "Add bot: thrower")).message
    await ana.click(lobby, "Start")
    await play_out(env, 1, [ana])
    first = await env.bot.tables.get(1)
    await env.restart()
    # The old message's button answers the new process; a copy of it on another message
    # (the game's lobby) changes nothing.
    forged = await forge_click(env, ana, env.h.message(first.row.lobby_message_id), "rm:1")
    assert private(forged) == "That button doesn't belong to this message."
    private(await ana.click(await result_message(env), "Rematch"))
    rematch = await env.bot.tables.get(2)
    assert [(s.user_id, s.name, s.bot_level) for s in rematch.seats] == [
        (s.user_id, s.name, s.bot_level) for s in first.seats
    ]
    assert rematch.held == [] and rematch.settings == first.settings
    lobby = rematch_lobby(env)
    assert lobby.content == f"🔁 **Rematch of game #1**: {ana.mention} plays again."
    await ana.click(lobby, "Start")
    await play_out(env, 2, [ana])


async def test_two_processes_open_one_rematch(db_target: DbTarget) -> None:
    """Two processes on one database, each pressed at the same moment: one lobby, one stake."""
    clock = FakeClock()
    target = db_target("two")
    one, two = await Database.open(target), await Database.open(target)
    try:
        a, b = instance(one, clock, 1), instance(two, clock, 2)
        assert isinstance(a.hooks, WalletHooks)
        table = await a.open_lobby(
            guild_id=10, channel_id=20, host_id=1, host_name="P1", kind="oneroll",
            settings=oneroll.from_options("classic", 20), stake=10,
        )  # fmt: skip
        await a.join(table.id, 2, "P2")
        await a.start(table.id, 1)
        await FairPlay(a.kernel).resign(table.id, 2)  # P1 wins: game #1 is finished
        assert (await a.get(table.id)).status == "finished"
        results = await asyncio.gather(
            Rematches(a.kernel, a.open_lobby).open(table.id, 1, "P1"),
            Rematches(b.kernel, b.open_lobby).open(table.id, 2, "P2"),
        )
        assert sorted(r.opened for r in results) == [False, True]
        assert len({r.table.id for r in results}) == 1
        lobby = results[0].table.id
        assert (await games.get(one, table.id)).rematch_id == lobby
        rows = await one.fetchall("SELECT id FROM games WHERE id <> ?", (table.id,))
        assert [r["id"] for r in rows] == [lobby]
        held = await one.fetchall("SELECT user_id FROM escrows WHERE game_id = ?", (lobby,))
        assert len(held) == 1
    finally:
        await two.close()
        await one.close()


async def test_a_rematch_lobby_discord_refuses_is_called_off_with_the_stake_back(
    make_env: MakeEnv,
) -> None:
    env = await make_env(seed=7)
    ana, bo = await members(env, "Ana", "Bo")
    await staked_game(env, [ana, bo], 100, target=20)
    before = await chips(env, ana, bo)
    final = await result_message(env)
    await env.h.set_bot_permissions(env.h.channel, send_messages=False)
    text = private(await ana.click(final, "Rematch"))
    assert text == (
        f"⚠️ I can't post in <#{env.h.channel.id}> (missing Send Messages), "
        "so the rematch is called off; stakes are refunded."
    )
    assert await chips(env, ana, bo) == before
    assert await env.bot.tables.live_tables() == []
