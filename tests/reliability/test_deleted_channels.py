"""Issue 20.3: deleted things are gone. A thread or channel a moderator deleted answers
every later call with Discord's 404 (10003 Unknown Channel, 10008 Unknown Message), and the
publisher's recovery runs through it: the edit gets 404, the repost gets 404, the game ends
as "channel lost" with every stake refunded."""

from __future__ import annotations

import discord
import pytest

from bot.tables import wallets
from tests.discord.conftest import Env, MakeEnv
from tests.harness import Harness, Player
from tests.reliability.helpers import table_row

STAKE = 100


async def staked_game(env: Env) -> tuple[Player, Player, int]:
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = (await ana.slash("sequences start", rounds=3, stake=STAKE)).message
    await bo.click(lobby, "Join")
    await ana.click(lobby, "Start")
    return ana, bo, lobby.id


async def to_move(env: Env, *players: Player) -> Player:
    table = await env.bot.tables.get(1)
    user = table.seats[table.game.current_seat(table.rules) or 0].user_id
    return next(p for p in players if p.id == user)


async def balances(env: Env, *players: Player) -> list[int]:
    return [await wallets.balance(env.bot.db, env.h.guild.id, p.id) for p in players]


def calls(env: Env, since: int, method: str, path: str) -> list[int | None]:
    return [r.failed_with for r in env.h.requests[since:] if r.method == method and r.path == path]


async def test_a_click_racing_the_thread_delete_ends_the_game_as_channel_lost(
    make_env: MakeEnv,
) -> None:
    """Bo's click reached the bot just before a moderator deleted the thread, whose
    THREAD_DELETE has not arrived yet: the bot still has the thread. Answering the click
    fails (10008), the edit by REST gets 404 (10003), the repost gets 404: the game ends,
    both stakes come back, and the parent channel says why."""
    env = await make_env(seed=2)
    ana, bo, lobby_id = await staked_game(env)
    assert await balances(env, ana, bo) == [wallets.START_CHIPS - STAKE] * 2
    [thread] = env.h.threads
    turn = env.turn_message()
    player = await to_move(env, ana, bo)
    since = len(env.h.requests)
    env.h._batch = []  # private: deliver the click, run its handler only at the settle
    await player.click(turn, "Throw 5 dice")
    env.h._batch = None
    env.h.fake.delete_thread(thread.id, echo=False)
    await env.h.settle()

    assert env.bot.get_channel(thread.id) is not None  # the bot did not know yet
    assert calls(env, since, "PATCH", f"/channels/{thread.id}/messages/{turn.id}") == [404]
    assert calls(env, since, "POST", f"/channels/{thread.id}/messages") == [404]
    row = await table_row(env)
    assert row["status"] == "ended" and row["deadline"] is None
    assert await balances(env, ana, bo) == [wallets.START_CHIPS] * 2  # nothing lost
    assert (await wallets.check_invariant(env.bot.db)).ok
    notice = env.h.last_message(env.h.channel, ephemeral=False)
    assert "thread was deleted" in notice.content and "refunded" in notice.content
    assert env.h.message(lobby_id).buttons == []


async def test_the_game_channel_deleted_with_its_thread_ends_the_game_on_the_next_turn(
    make_env: MakeEnv,
) -> None:
    """The whole channel goes (and with it the thread, as on Discord, with one
    CHANNEL_DELETE): the next timeout's redraw finds nowhere to post; stakes refunded."""
    env = await make_env(seed=3)
    ana, bo, _ = await staked_game(env)
    [thread] = env.h.threads
    env.h.fake.delete_channel(env.h.channel.id)
    assert env.bot.get_channel(thread.id) is None  # discord.py drops the channel's threads
    assert await env.tick(env.settings.turn_timeout_seconds + 1) == 1
    row = await table_row(env)
    assert row["status"] == "ended"
    assert await balances(env, ana, bo) == [wallets.START_CHIPS] * 2


async def test_a_thread_deleted_while_the_bot_was_down_ends_at_the_next_timer(
    make_env: MakeEnv,
) -> None:
    """Deleted while the bot was down (the new process never hears of the thread): the
    next timeout's redraw gets 404 and ends the game, stakes refunded."""
    env = await make_env(seed=3)
    ana, bo, _ = await staked_game(env)
    [thread] = env.h.threads
    env.h.fake.delete_thread(thread.id, echo=False)
    await env.restart()
    assert await env.tick(env.settings.turn_timeout_seconds + 1) == 1
    row = await table_row(env)
    assert row["status"] == "ended"
    assert await balances(env, ana, bo) == [wallets.START_CHIPS] * 2


# --- the fake itself --------------------------------------------------------------------


@pytest.fixture
async def h(make_harness) -> Harness:  # type: ignore[no-untyped-def]
    from discord.ext import commands

    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())
    return await make_harness(bot, channels=("general", "games"))


async def test_every_call_on_a_deleted_thread_answers_unknown_channel(h: Harness) -> None:
    channel = h.text_channel("games")
    first = await channel.send("hello")
    thread = await first.create_thread(name="t")
    inside = await thread.send("inside")
    h.fake.delete_thread(thread.id, echo=False)
    attempts = {
        "edit": inside.edit(content="x"),
        "send": thread.send("again"),
        "fetch": thread.fetch_message(inside.id),
        "delete": inside.delete(),
        "archive": thread.edit(archived=True),
        "join": thread.join(),
    }
    for what, attempt in attempts.items():
        with pytest.raises(discord.NotFound) as caught:
            await attempt
        assert caught.value.code == 10003, what


async def test_a_deleted_channel_takes_its_messages_and_threads(h: Harness) -> None:
    channel = h.text_channel("games")
    message = await channel.send("hello")
    thread = await message.create_thread(name="t")
    h.fake.delete_channel(channel.id)
    for attempt in (message.edit(content="x"), channel.send("again"), thread.send("x")):
        with pytest.raises(discord.NotFound) as caught:
            await attempt
        assert caught.value.code == 10003
    assert h.fake.messages[message.id].deleted and h.threads == []
    await h.channel.send("the other channel still works")
