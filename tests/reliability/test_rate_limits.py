"""Issue 20.2: rate limits as Discord does them. The fake answers every REST call with its
bucket's headers and a 429 (retry_after, Retry-After, scope, Via) when a bucket is spent, so
discord.py's own request loop waits; waits run on the harness's DiscordClock (skipped, but
counted). Many games in one channel share its buckets: every click is still answered within
Discord's 3 seconds, and every table's turns stay in order."""

from __future__ import annotations

import json

import pytest

import bot.app
from bot.sim.live_games import insert_live_copies
from tests.discord.conftest import Env, MakeEnv
from tests.harness import Message, Player, Reply
from tests.reliability.helpers import table_row

DEADLINE = 3.0  # seconds Discord gives an interaction to be answered
TABLES = 5  # the most one channel may run (max_games_per_channel)


def answered_within(env: Env, reply: Reply, delivered: float) -> float:
    answered = env.h.fake.answered_on_http_clock.get(reply._rec.token)  # private: the reply's token
    assert answered is not None, f"never answered: {reply}"
    return answered - delivered


def step(message: Message) -> str:
    """Throw if the turn has not started, else bank (which passes the turn: a new post)."""
    labels = [label for label in message.labels if label]
    return next(lb for lb in labels if lb.startswith(("Throw", "Bank")))


async def current(env: Env, table_id: int, players: list[Player]) -> Player:
    table = await env.bot.tables.get(table_id)
    user = table.seats[table.game.current_seat(table.rules) or 0].user_id
    return next(p for p in players if p.id == user)


async def test_a_flood_of_games_in_one_channel_answers_in_time_and_in_order(
    make_env: MakeEnv,
) -> None:
    env = await make_env(seed=11)
    # No threads: every game runs in the one channel, so all share its buckets.
    await env.h.set_bot_permissions(env.h.channel, create_public_threads=False)
    players: list[Player] = []
    clock = env.h.fake.clock
    slowest = 0.0
    for n in range(TABLES):  # one lobby at a time (a channel holds few open lobbies)
        host, guest = await env.h.member(f"Host{n}"), await env.h.member(f"Guest{n}")
        lobby = (await host.slash("sequences start", rounds=3)).message
        await guest.click(lobby, "Join")
        delivered = clock.now()
        started = await host.click(lobby, "Start")
        slowest = max(slowest, answered_within(env, started, delivered))
        players += [host, guest]
    versions = {}
    for table_id in range(1, TABLES + 1):
        row = await table_row(env, table_id)
        assert row["status"] == "running" and row["thread_id"] is None
        versions[table_id] = row["version"]
    posts = [r for r in env.h.requests if r.path == f"/channels/{env.h.channel.id}/messages"]
    assert len(posts) >= TABLES  # one channel's message bucket took every new turn message

    for _ in range(4):  # every table's player to move throws or banks, all at once
        movers = [await current(env, t, players) for t in range(1, TABLES + 1)]
        messages = [
            env.h.message(int((await table_row(env, t))["message_id"]))
            for t in range(1, TABLES + 1)
        ]
        delivered = clock.now()
        replies = await env.h.together(
            *(p.click(m, step(m)) for p, m in zip(movers, messages, strict=True))
        )
        slowest = max(slowest, *(answered_within(env, r, delivered) for r in replies))
        for table_id, reply in enumerate(replies, 1):
            assert not reply.ephemeral, reply.text  # a move, not a refusal
            row = await table_row(env, table_id)
            assert row["version"] == versions[table_id] + 1  # one step each, none lost
            versions[table_id] = row["version"]
            live = env.h.message(int(row["message_id"]))
            shown = {
                b.custom_id.split(":")[2]
                for b in live.buttons
                if b.custom_id and ":T:" not in b.custom_id
            }
            assert shown == {str(row["version"])}  # the live message shows the latest turn
            mention = f"{(await current(env, table_id, players)).mention}, your turn."
            assert any(m.content == mention for m in env.h.messages(live.channel_id))
    waited = clock.skipped
    assert slowest < DEADLINE, f"slowest answer {slowest:.2f} s"
    assert waited > 0  # the channel's buckets really made discord.py wait
    print(f"slowest answer {slowest:.3f} s; rate-limit waits {waited:.1f} s")


async def test_hundreds_of_turns_running_out_at_once_are_shown_within_the_rate_limits(
    make_env: MakeEnv, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 26.5: 400 turn timers run out in the same tick, every game shown in the one
    channel: each is committed and shown (its table message edited and the next player pinged),
    and no request is sent inside a 429's retry_after (the harness fails the test if one
    is). Before, up to 32 redraws at once queued in the channel's two buckets, and
    discord.py sent some of them into the 429 of another."""
    monkeypatch.setattr(bot.app, "SHOW_REQUESTS_PER_SECOND", 100_000, raising=False)
    monkeypatch.setattr(bot.app, "SHOW_BURST", 100_000, raising=False)  # pace: not tested
    env = await make_env(seed=5, max_games_per_channel=1_000)
    await env.h.set_bot_permissions(env.h.channel, create_public_threads=False)
    host, guest = await env.h.member("Host"), await env.h.member("Guest")
    lobby = (await host.slash("sequences start", rounds=3)).message
    await guest.click(lobby, "Join")
    await host.click(lobby, "Start")
    template = (await env.bot.tables.get(1)).row
    shown = env.h.message(template.message_id).payload
    fake, channel = env.h.fake, env.h.channel.id
    author = fake._bot_author()  # private to the harness: the bot as a message's author

    def show(i: int, game_id: int) -> int:
        text = json.dumps(shown.get("components") or []).replace('"t:1:', f'"t:{game_id}:')
        fields = {"embeds": shown.get("embeds") or [], "components": json.loads(text)}
        return int(
            fake.create_message(channel_id=channel, author=author, fields=fields, files=[]).id
        )

    ids = await insert_live_copies(
        env.bot.db,
        template,
        400,
        place=lambda i: (channel, None),
        deadline=lambda i: env.clock() + 1,
        show=show,
    )
    before = len(env.h.requests)
    assert await env.tick(2) == 400  # the harness fails here if a request broke a 429
    sent = env.h.requests[before:]
    posts = [r for r in sent if r.method == "POST" and r.failed_with is None]
    # Every next player is pinged by a short message of its own (issue 22.4: the table
    # message is edited in place and pings nobody).
    assert len(posts) == 400
    assert all(str((r.json or {}).get("content", "")).startswith("<@") for r in posts)
    for game_id in (ids[0], ids[-1]):
        row = await table_row(env, game_id)
        assert row["version"] == template.version + 1
        table_message = env.h.message(int(row["message_id"])).payload
        assert f'"t:{game_id}:{row["version"]}:' in json.dumps(table_message["components"])
