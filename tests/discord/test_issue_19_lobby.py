"""Issue 19, the lobby and the end request: items 3, 4, 6, 16 and 18, each driven through
the real bot as a player meets it."""

from __future__ import annotations

import re

from bot.store import wallets
from tests.discord.conftest import Env, MakeEnv
from tests.discord.test_forfeits import mover, staked_table
from tests.harness import Message, Player


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
    with env.h.expect_unanswered():  # the answer Discord refused is the point
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


def seat_lines(lobby: Message) -> list[str]:
    """The lobby's seat lines, names for mentions: "Ana (host) · team A"."""
    field = next(f for f in lobby.embeds[0]["fields"] if f["name"].startswith("Seats"))
    text = field["value"]
    for member in lobby_members:
        text = text.replace(member.mention, member.name)
    return [re.sub(r"^`\s*\d+\.` ", "", line) for line in text.splitlines()]


lobby_members: list[Player] = []


async def test_three_teams_are_kept_and_start_waits_for_seats_that_fit(make_env: MakeEnv) -> None:
    env = await make_env()
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = (await ana.slash("board start", teams=3)).message
    lobby = (await bo.click(lobby, "Join")).message
    assert "3 teams" in lobby.text and "Players: 2 (needs 3, 6, 9 or 12)" in lobby.text
    refused = await ana.click(lobby, "Start")
    assert refused.ephemeral and refused.text == (
        "3 teams need 3, 6, 9 or 12 players; this table has 2."
    )
    assert (await env.bot.tables.get(1)).status == "lobby"
    lobby = (await ana.click(lobby, "Add bot: easy")).message
    await ana.click(lobby, "Start")
    table = await env.bot.tables.get(1)
    assert table.status == "running" and table.rules.config.sides == 3

    # Two teams need four: two or three players do not make a two-player game of them.
    lobby = (await ana.slash("board start", teams=2)).message
    assert "Players: 1 (needs 4, 6, 8, 10 or 12)" in lobby.text
    lobby = (await bo.click(lobby, "Join")).message
    lobby = (await ana.click(lobby, "Add bot: easy")).message
    refused = await ana.click(lobby, "Start")
    assert refused.ephemeral and "2 teams need 4, 6, 8, 10 or 12 players" in refused.text
    lobby = (await ana.click(lobby, "Add bot: easy")).message
    await ana.click(lobby, "Start")
    table = await env.bot.tables.get(2)
    assert table.status == "running" and [s.team for s in table.seats] == [0, 1, 0, 1]

    # A table too small for its teams is refused when it is opened.
    small = await ana.slash("board start", teams=3, seats=2)
    assert small.ephemeral and "3 teams need 3, 6, 9 or 12 players" in small.text
    # Without teams the lobby names the counts that can start (5, 7 and 11 can't).
    lobby = (await ana.slash("board start")).message
    assert "Players: 1 (needs 2–4, 6, 8–10 or 12)" in lobby.text


async def test_board_lobby_of_four_shows_the_teams_and_order_start_will_use(
    make_env: MakeEnv,
) -> None:
    env = await make_env()
    players = [await env.h.member(n) for n in ("Ana", "Bo", "Cy", "Di")]
    lobby_members[:] = players
    ana, bo, cy, di = players
    lobby = (await ana.slash("board start")).message
    for player in (bo, cy):
        lobby = (await player.click(lobby, "Join")).message
    assert seat_lines(lobby) == ["Ana (host)", "Bo", "Cy"]  # three play alone
    lobby = (await di.click(lobby, "Join")).message
    assert seat_lines(lobby) == [
        "Ana (host) · team A",
        "Bo · team B",
        "Cy · team A",
        "Di · team B",
    ]
    assert "turn order" in lobby.text
    # Cy, shown in team A, switches to B: B's last seat, Di, takes Cy's place in A, and the
    # order says so (issue 31: a switch gives other partners, the others keep their teams).
    lobby = (await cy.click(lobby, "Switch team")).message
    shown = seat_lines(lobby)
    assert shown == ["Ana (host) · team A", "Bo · team B", "Di · team A", "Cy · team B"]
    lobby = (await ana.click(lobby, "Switch team")).message
    shown = seat_lines(lobby)
    assert shown == ["Cy · team A", "Ana (host) · team B", "Di · team A", "Bo · team B"]
    lobby = (await bo.click(lobby, "Switch team")).message
    shown = seat_lines(lobby)
    assert shown == ["Bo · team A", "Ana (host) · team B", "Cy · team A", "Di · team B"]
    await ana.click(lobby, "Start")
    table = await env.bot.tables.get(1)
    started = [
        f"{s.name}{' (host)' if s.user_id == ana.id else ''} · team {'AB'[s.team or 0]}"
        for s in table.seats
    ]
    assert started == shown  # Start seated everyone as the lobby showed


def request_in(env: Env) -> Message:
    [thread] = env.h.threads
    return next(m for m in env.h.messages(thread) if "end game #1 early" in m.text)


async def test_an_end_request_that_runs_out_says_so_and_loses_its_button(
    make_env: MakeEnv,
) -> None:
    env = await make_env(seed=8)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await staked_table(env, ana, bo, rounds=3)
    turn = env.turn_message()
    await ana.slash("sequences end")
    request = request_in(env)
    assert "Waiting for: Bo." in request.text and "Agree to end" in request.labels
    # The game goes on meanwhile: the turn's buttons still answer the player to move.
    player = await mover(env, [ana, bo])
    assert not (await player.click(turn, "Throw 5 dice")).ephemeral

    # A restart in between: the request and its timer are in the database.
    await env.restart()
    await env.tick(121)
    assert "ran out" in request.text and "Waiting for" not in request.text
    assert request.buttons == []
    table = await env.bot.tables.get(1)
    assert table.status == "running" and table.expiries == [0, 0]  # no turn timed out
    # The turn's own timer is untouched: it runs out at its own time, not at the request's.
    assert table.row.deadline == table.turn_deadline and table.row.deadline > env.clock()
    again = await ana.slash("sequences end")  # the host may ask again
    assert again.ephemeral and "2 minutes to agree" in again.text


async def test_an_end_request_is_void_once_its_asker_resigns(make_env: MakeEnv) -> None:
    env = await make_env(seed=8)
    ana, bo, cy = await env.h.member("Ana"), await env.h.member("Bo"), await env.h.member("Cy")
    await staked_table(env, ana, bo, cy, rounds=3)
    await ana.slash("sequences end")
    request = request_in(env)
    ask = await ana.slash("sequences resign")
    await ana.click(ask.message, "Resign")
    assert "Ana left the game, so the request to end game #1 early is void." in request.text
    assert request.buttons == []
    table = await env.bot.tables.get(1)
    assert table.status == "running" and table.end_request["over"] == "left"
    assert (await wallets.check_invariant(env.bot.db)).ok


async def test_an_end_request_is_void_once_the_game_is_over(make_env: MakeEnv) -> None:
    env = await make_env(seed=8)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    mod = await env.h.member("Mod", manage_guild=True)
    await staked_table(env, ana, bo, rounds=3)
    await ana.slash("sequences end")
    request = request_in(env)
    await mod.slash("sequences end", game=1)
    assert "Game #1 was closed, so the request to end it early is void." in request.text
    assert request.buttons == []
    # Bo resigns: Ana wins the game, and her own request is void with it.
    await staked_table(env, ana, bo, rounds=3)
    await ana.slash("sequences end")
    [_, thread] = env.h.threads
    request = next(m for m in env.h.messages(thread) if "end game #2 early" in m.text)
    ask = await bo.slash("sequences resign")
    await bo.click(ask.message, "Resign")
    assert (await env.bot.tables.get(2)).status == "finished"
    assert "Game #2 finished before everyone agreed" in request.text
    assert request.buttons == []
