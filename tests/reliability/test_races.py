"""Issue 7.2: simultaneous clicks through real concurrent dispatch (``h.together`` delivers
every interaction before any handler runs). Each intended action is applied exactly once;
every other click gets a private refusal; the lobby, its message and its log agree."""

from __future__ import annotations

import asyncio
import inspect
import random
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from tests.discord.conftest import Env, MakeEnv
from tests.fakes import ScriptedRandom
from tests.harness import Message, Player, Reply
from tests.harness.harness import TIME_SCALE
from tests.reliability.helpers import log_count, table_row


async def two_player_game(env: Env, names: tuple[str, str] = ("Ana", "Bo")) -> list[Player]:
    players = [await env.h.member(n) for n in names]
    lobby = (await players[0].slash("sequences start", rounds=3)).message
    await players[1].click(lobby, "Join")
    await players[0].click(lobby, "Start")
    return players


async def mover(env: Env, players: list[Player], table_id: int = 1) -> Player:
    table = await env.bot.tables.get(table_id)
    assert table.rules is not None
    user = table.seats[table.rules.current].user_id
    return next(p for p in players if p.id == user)


def public(replies: list[Reply]) -> list[Reply]:
    return [r for r in replies if not r.ephemeral]


async def test_a_thousand_clicks_by_the_player_to_move_apply_once(make_env: MakeEnv) -> None:
    env = await make_env(seed=11)
    players = await two_player_game(env)
    player = await mover(env, players)
    turn = env.turn_message()
    version, entries = (await table_row(env))["version"], await log_count(env)
    replies = await env.h.together(*(player.click(turn, "Throw 5 dice") for _ in range(1000)))
    assert len(public(replies)) == 1
    refusals = Counter(r.text for r in replies if r.ephemeral)
    assert sum(refusals.values()) == 999
    # Stale if the turn goes on; "not yours" if the throw bust and the turn passed.
    assert set(refusals) <= {"That throw is over.", "It's Bo's turn, not yours."}
    assert (await table_row(env))["version"] == version + 1
    assert await log_count(env) == entries + 1


async def test_a_thousand_clicks_by_fifty_members_apply_once(make_env: MakeEnv) -> None:
    env = await make_env(seed=12)
    players = await two_player_game(env)
    crowd = [await env.h.member(f"M{i}") for i in range(48)] + players
    player = await mover(env, players)
    turn = env.turn_message()
    version, entries = (await table_row(env))["version"], await log_count(env)
    clickers = [crowd[i % len(crowd)] for i in range(1000)]
    random.Random(1).shuffle(clickers)
    replies = await env.h.together(*(p.click(turn, "Throw 5 dice") for p in clickers))
    assert len(public(replies)) == 1
    assert all(r.ephemeral for r, p in zip(replies, clickers, strict=True) if p is not player)
    assert (await table_row(env))["version"] == version + 1
    assert await log_count(env) == entries + 1


async def test_interleaved_clicks_on_two_games_in_one_channel(make_env: MakeEnv) -> None:
    env = await make_env(seed=13, max_lobbies_per_channel=3)
    first = await two_player_game(env, ("Ana", "Bo"))
    second = await two_player_game(env, ("Cy", "Di"))
    for _ in range(6):
        clicks = []
        before = {}
        for table_id, players in ((1, first), (2, second)):
            table = await env.bot.tables.get(table_id)
            if table.status != "running":
                continue
            before[table_id] = table.version
            assert table.row.message_id is not None
            message = env.h.message(table.row.message_id)
            action = next(x for x in message.labels if x and not x.startswith(("Odds", "Lock")))
            player = await mover(env, players, table_id)
            clicks += [player.click(message, action) for _ in range(5)]
        replies = await env.h.together(*clicks)
        assert len(public(replies)) == len(before)  # one action per game
        for table_id, version in before.items():
            assert (await env.bot.tables.get(table_id)).version == version + 1


LOBBY_ACTIONS = ["join", "join", "join", "leave", "start", "cancel", "bot"]


def seats_from_log(entries: list[dict[str, object]]) -> int:
    seats = 0
    for entry in entries:
        kind = entry["kind"]
        seats += {"open": 1, "join": 1, "add_bot": 1, "leave": -1}.get(str(kind), 0)
    return seats


@pytest.mark.parametrize("seed", range(8))
async def test_start_join_leave_cancel_racing_leave_a_consistent_lobby(
    make_env: MakeEnv, seed: int
) -> None:
    from bot.store import games

    env = await make_env(seed=seed)
    host, bo, cy, di = [await env.h.member(n) for n in ("Ana", "Bo", "Cy", "Di")]
    lobby: Message = (await host.slash("sequences start", rounds=2)).message
    await bo.click(lobby, "Join")  # Bo is seated, so Start can succeed
    clicks = {
        "join": [cy.click(lobby, "Join"), di.click(lobby, "Join"), cy.click(lobby, "Join")],
        "leave": [bo.click(lobby, "Leave")],
        "start": [host.click(lobby, "Start")],
        "cancel": [host.click(lobby, "Cancel")],
        "bot": [host.click(lobby, "Add bot: cautious")],
    }
    pending = [c for group in clicks.values() for c in group]
    random.Random(seed).shuffle(pending)
    await env.h.together(*pending)

    table = await env.bot.tables.get(1)
    entries = await games.log_entries(env.bot.db, 1)
    assert len(table.seats) == seats_from_log(entries)
    users = [s.user_id for s in table.seats if s.user_id is not None]
    assert len(users) == len(set(users))  # nobody seated twice
    # Bo's leave and the cancel may both come before any join: a cancelled table of one.
    assert 1 <= len(table.seats) <= 4
    kinds = [e["kind"] for e in entries]
    assert kinds.count("start") + kinds.count("cancelled") <= 1
    # Whatever happened last, the lobby message shows it.
    shown = env.h.message(lobby.id).text
    for player in (host, bo, cy, di):
        assert (player.mention in shown) == (table.seat_of(player.id) is not None)
    if table.status == "running":
        assert len(table.seats) >= 2  # Start needs two
        assert table.row.message_id is not None  # the game has a message to click on
    else:
        assert table.status in ("lobby", "cancelled")


async def test_a_timer_change_shown_while_a_click_is_still_being_shown(
    make_env: MakeEnv,
) -> None:
    """Ana banks; the redraw of her click waits on a slow Discord; meanwhile the bot player's
    step (a timer) is committed and shown. The latest message must show the current state."""
    env = await make_env(rng=ScriptedRandom([1, 2, 3, 4, 5]), bot_turn_delay_seconds=0)
    ana = await env.h.member("Ana")
    lobby = (await ana.slash("sequences start", rounds=3)).message
    await ana.click(lobby, "Add bot: cautious")
    await ana.click(lobby, "Start")
    thrown = (await ana.click(env.turn_message(), "Throw 5 dice")).message
    thread = env.h.threads[0]
    gate = asyncio.Event()
    real = env.h.fake.handle_webhook
    held: list[str] = []

    async def slow(route: Any, **kwargs: Any) -> Any:
        if route.method == "POST" and route.path.endswith("/callback") and not held:
            held.append(route.url)
            await gate.wait()  # Discord is slow to take Ana's click's redraw (in place)
        return await real(route, **kwargs)

    env.h.fake.handle_webhook = slow  # type: ignore[method-assign]
    env.h._batch = []  # deliver the click without waiting for it to finish
    await ana.click(thrown, "Bank 5 points")
    env.h._batch = None
    await until(lambda: bool(held))  # the click's redraw is waiting on Discord
    version = (await table_row(env))["version"]
    ticking = asyncio.create_task(env.bot.tick())  # the bot player's move is due now

    async def committed() -> bool:  # the bot's move (its redraw may be queued)
        return bool((await table_row(env))["version"] > version)

    try:
        await until(committed)  # the race is set up, or the test fails here
        assert len(held) == 1  # while Ana's redraw still waits on Discord
    finally:
        gate.set()
    assert await ticking == 1
    await env.h.settle()
    row = await table_row(env)
    latest = [m for m in env.h.messages(thread) if m.components][-1]  # not the ping
    assert row["message_id"] == latest.id
    versions = {
        x.custom_id.split(":")[2]
        for x in latest.buttons
        if x.custom_id and ":T:" not in x.custom_id
    }
    assert versions == {str(row["version"])}


async def until(condition: Callable[[], bool | Awaitable[bool]], tries: int = 500) -> None:
    """Wait (a bounded number of short sleeps, more on a slow machine) for work on other
    tasks and threads; fail the test if ``condition`` (a function, or a coroutine
    function) never holds."""
    for _ in range(int(tries * TIME_SCALE)):
        held = condition()
        if await held if inspect.isawaitable(held) else held:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{getattr(condition, '__name__', condition)} never held")
