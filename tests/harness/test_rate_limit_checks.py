"""Self-tests of the fake's rate limits and deleted channels (issue 20.2, 20.3): discord.py's
own request loop runs against Discord-shaped 429s and bucket headers, and each check fails a
deliberately wrong bot."""

from __future__ import annotations

import time

import discord
import pytest
from discord.ext import commands

from tests.conftest import MakeHarness
from tests.harness import Harness
from tests.harness.fake import _Bucket  # private: the fake's bucket
from tests.harness.harness import MessageRejected


@pytest.fixture
async def h(make_harness: MakeHarness) -> Harness:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())
    return await make_harness(bot, channels=("general", "other"))


def posts(h: Harness, channel: discord.abc.Snowflake) -> list[tuple[int | None, float]]:
    path = f"/channels/{channel.id}/messages"
    return [(r.failed_with, r.at) for r in h.requests if r.method == "POST" and r.path == path]


async def test_discord_py_waits_on_the_bucket_headers_without_a_429(h: Harness) -> None:
    real = time.perf_counter()
    for n in range(7):
        await h.channel.send(f"message {n}")
    sent = posts(h, h.channel)
    assert [status for status, _ in sent] == [None] * 7  # it read the headers: no 429
    assert sent[5][1] - sent[0][1] >= 5.0  # the sixth waited for the 5-per-5-s bucket
    assert time.perf_counter() - real < 2.0  # on the harness's clock, not the wall's
    await h.text_channel("other").send("another channel, another bucket")
    assert posts(h, h.text_channel("other"))[0][1] < sent[-1][1] + 1.0


def test_a_wait_of_the_bucket_headers_always_reaches_the_reset() -> None:
    """Issue 31 item 28: discord.py sleeps ``X-RateLimit-Reset-After`` from the moment it read
    the answer; a value rounded down let the sixth of seven messages arrive a fraction of a
    millisecond before the fake's bucket reset (a 429, in one run of a few). Every moment of
    a window, on a grid finer than the header's millisecond, is checked."""
    for start in (0.0, 1234.5678901, 98765.4321):
        bucket = _Bucket("message-create", 5, 5.0)
        for _ in range(bucket.limit):
            assert bucket.take(start) is None
        for step in range(0, 50_000, 7):
            now = start + step * 1e-4  # 0.1 ms apart, over the whole 5 s
            after = float(bucket.headers(now)["X-RateLimit-Reset-After"])
            assert now + after >= bucket.resets_at, (start, step)
        spent = _Bucket("message-create", 5, 5.0, used=5, resets_at=start + 5.0)
        answered = start + 0.00123456
        woke = answered + float(spent.headers(answered)["X-RateLimit-Reset-After"])
        assert spent.take(woke) is None  # a new window, not a 429


async def test_a_second_process_on_the_token_gets_429s_and_discord_py_retries(
    h: Harness,
) -> None:
    await h.channel.send("first")
    spent = h.fake._buckets[f"message-create:{h.channel.id}"]  # private: the fake's bucket
    spent.used = spent.limit  # another process on the same token spent it
    await h.channel.send("from this process")
    first, retry = posts(h, h.channel)[-2:]
    assert (first[0], retry[0]) == (429, None)
    assert retry[1] >= first[1] + 4.0  # waited out the bucket's retry_after


async def test_a_hand_retry_inside_the_retry_after_fails_the_test(h: Harness) -> None:
    """A wrong bot: discord.py gives up at once (the wait is over max_ratelimit_timeout) and
    the bot tries again in a tight loop, inside the 429's retry_after."""
    h.bot.http.max_ratelimit_timeout = 30.0
    h.fake.add_fault("POST", "/messages$", 429, None, None, 1, retry_after=60.0)
    for _ in range(3):
        try:
            await h.channel.send("again and again")
            break
        except discord.RateLimited:
            continue
    with pytest.raises(MessageRejected, match="before the retry_after"):
        await h.settle()


async def test_waiting_out_the_retry_after_passes(h: Harness) -> None:
    h.fake.add_fault("POST", "/messages$", 429, None, None, 1, retry_after=3.0)
    await h.channel.send("once")  # discord.py waits 3 s (skipped) and sends again
    assert [status for status, _ in posts(h, h.channel)] == [429, None]
    await h.settle()


async def test_interaction_calls_are_exempt_from_the_global_limit(h: Harness) -> None:
    @h.bot.tree.command(name="ping", description="Answers")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong")
        await interaction.followup.send("and a followup")

    spent = h.fake._global  # private: the global bucket, spent for the whole test (a loaded
    spent.take(h.fake.clock.now())  # machine may take more than its second to get there)
    spent.used, spent.resets_at = spent.limit, h.fake.clock.now() + 30.0
    reply = await (await h.member("Ana")).slash("ping")
    assert reply.content == "pong" and len(reply.followups) == 1
    assert not [r for r in h.requests if r.failed_with]  # callback and followup: no 429
    await h.channel.send("REST waits for the global limit")
    [limited] = [r for r in h.requests if r.failed_with == 429]
    assert limited.source == "rest"


async def test_a_bot_expecting_an_edit_of_a_deleted_thread_to_work_fails(h: Harness) -> None:
    first = await h.channel.send("start")
    thread = await first.create_thread(name="game")
    message = await thread.send("turn 1")
    h.fake.delete_thread(thread.id, echo=False)  # the bot still has it cached
    with pytest.raises(discord.NotFound) as caught:
        await message.edit(content="turn 2")
    assert caught.value.code == 10003
    with pytest.raises(discord.NotFound):
        await thread.edit(archived=True)
