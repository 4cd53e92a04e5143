"""Issue 20.2: rate limits as Discord does them. The fake answers every REST call with its
bucket's headers and a 429 (retry_after, Retry-After, scope, Via) when a bucket is spent, so
discord.py's own request loop waits; waits run on the harness's DiscordClock (skipped, but
counted). Many games in one channel share its buckets: every click is still answered within
Discord's 3 seconds, and every table's turns stay in order."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from bot.app import pace_share
from bot.sim.live_games import insert_live_copies
from bot.tables import wallets
from bot.tables.shards import Shards
from bot.tables.wallets import START_CHIPS
from bot.ui.pacing import RequestPace
from bot.ui.publisher import PACE_LIMIT
from tests.discord.conftest import Env, MakeEnv
from tests.harness import Message, Player, Reply
from tests.harness.fake import GLOBAL_LIMIT
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
    make_env: MakeEnv,
) -> None:
    """Issue 26.5: 400 turn timers run out in the same tick, every game shown in the one
    channel: each is committed and shown (its table message edited and the next player pinged),
    and no request is sent inside a 429's retry_after (the harness fails the test if one
    is). Before, up to 32 redraws at once queued in the channel's two buckets, and
    discord.py sent some of them into the 429 of another."""
    env = await make_env(seed=5, max_games_per_channel=1_000)
    await env.h.set_bot_permissions(env.h.channel, create_public_threads=False)
    host, guest = await env.h.member("Host"), await env.h.member("Guest")
    lobby = (await host.slash("sequences start", rounds=3)).message
    await guest.click(lobby, "Join")
    await host.click(lobby, "Start")
    template = (await env.bot.tables.get(1)).row
    shown = env.h.message(template.message_id).payload
    fake, channel = env.h.fake, env.h.channel.id
    author = fake.bot_author()

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


async def test_a_hundred_starts_at_once_send_nothing_while_a_global_wait_is_in_force(
    make_env: MakeEnv,
) -> None:
    """Issue 31 item 3: 100 hosts press Start in the same instant, each lobby in a channel of
    its own (so no channel's buckets slow them down). What follows each click (the game's
    thread, its table message, the ping of the first player) is REST, under Discord's global
    50 a second; unpaced, discord.py sent about 200 requests while a global 429's wait was
    in force (the harness refuses each: Discord counts them toward the invalid-request ban).
    Paced (bot.ui.pacing.RequestPace), no request meets a 429 at all, and every game starts
    with its stakes in the pot."""
    count, stake = 100, 10
    channels = tuple(f"room{n}" for n in range(count))
    env = await make_env(
        seed=7, channels=channels, max_lobbies_per_guild=count, max_games_per_guild=count
    )
    hosts, lobbies, players = [], [], []
    for n, name in enumerate(channels):
        host, guest = await env.h.member(f"Host{n}"), await env.h.member(f"Guest{n}")
        channel = env.h.text_channel(name)
        lobby = await host.slash("sequences start", rounds=1, stake=stake, _channel=channel)
        await guest.click(lobby.message, "Join")
        hosts.append(host)
        lobbies.append(lobby.message)
        players += [host, guest]
    joined = [(await table_row(env, t))["version"] for t in range(1, count + 1)]
    before = len(env.h.requests)
    replies = await env.h.together(
        *(host.click(lobby, "Start") for host, lobby in zip(hosts, lobbies, strict=True))
    )
    assert not any(r.ephemeral for r in replies)  # every Start taken, none refused
    sent = [r for r in env.h.requests[before:] if r.source == "rest"]
    assert len(sent) == 3 * count  # a thread, a table message and a ping for each game
    assert [r for r in sent if r.failed_with] == []  # not one 429, global or other
    busiest = max(sum(1 for r in sent if s.at <= r.at < s.at + 1.0) for s in sent)
    # Requests in any second of Discord's clock: the pace's 40 (and the few microseconds
    # each takes from the pace to the fake), under the global 50.
    assert PACE_LIMIT <= busiest < GLOBAL_LIMIT[0]
    for table_id, version in enumerate(joined, 1):
        row = await table_row(env, table_id)
        assert row["status"] == "running" and row["version"] == version + 1
        assert row["thread_id"] is not None and row["message_id"] is not None
        shown = env.h.message(int(row["message_id"]))
        assert f'"t:{table_id}:{row["version"]}:' in json.dumps(shown.components)
    guild = env.h.guild.id
    for player in players:
        assert await wallets.balance(env.bot.db, guild, player.id) == START_CHIPS - stake
    assert (await wallets.check_invariant(env.bot.db)).ok
    print(f"{len(sent)} requests; at most {busiest} in one second")


class SteppedClock:
    """A clock whose sleeps move it at once (one sleeper at a time: the pace's turn)."""

    def __init__(self) -> None:
        self.t = 1000.0

    def now(self) -> float:
        return self.t

    async def sleep(self, delay: float) -> None:
        self.t += max(0.0, delay)
        await asyncio.sleep(0)


async def test_the_pace_lets_through_at_most_its_limit_in_any_second_first_come_first() -> None:
    """200 requests waiting at once, on a clock that also jumps by itself (as the harness's
    does while discord.py waits out a bucket): they leave in the order they came, never more
    than 40 in any second, and a window counts when each really left."""
    clock = SteppedClock()
    pace = RequestPace(40, clock=clock)
    left: list[tuple[int, float]] = []

    async def request(n: int) -> None:
        await pace.wait()
        left.append((n, clock.now()))
        if n % 50 == 0:
            clock.t += 0.3  # elsewhere, another wait moved the clock

    await asyncio.gather(*(request(n) for n in range(200)))
    assert [n for n, _ in left] == list(range(200))
    times = [t for _, t in left]
    assert max(sum(1 for t in times if s <= t < s + 1.0) for s in times) == 40
    assert times[-1] - times[0] < 200 / 40 + 1.5  # and no slower than that (jumps: 1.2 s)


def test_each_process_paces_its_share_of_the_global_limit() -> None:
    """Discord's global limit is the bot token's: processes splitting the shards split the
    pace, so that together they stay under it too."""
    assert pace_share(Shards()) == PACE_LIMIT
    assert pace_share(Shards(4, (0, 1))) == PACE_LIMIT // 2
    split = [Shards(4, (0,)), Shards(4, (1, 2)), Shards(4, (3,))]
    assert sum(pace_share(s) for s in split) <= PACE_LIMIT
    assert pace_share(Shards(64, (5,))) == 1  # never nothing


async def test_a_burst_of_turns_passing_in_one_channel_queues_one_request_per_bucket(
    make_env: MakeEnv,
) -> None:
    """300 games in one channel, a Throw on each delivered together: every bust passes the
    turn, and the next player's ping is posted and the last one deleted, in the one channel.
    The publisher sends one request at a time per channel and route (each of discord.py's
    buckets): unserialised, about a hundred posts queued in the channel's message bucket at
    once, and discord.py, waking its queue, sent a few of them inside the 429 of another
    (the processes bench on a loaded machine: four refused in one run)."""
    env = await make_env(seed=3, max_games_per_channel=1_000)
    await env.h.set_bot_permissions(env.h.channel, create_public_threads=False)
    host, guest = await env.h.member("Host"), await env.h.member("Guest")
    lobby = (await host.slash("sequences start", rounds=3)).message
    await guest.click(lobby, "Join")
    await host.click(lobby, "Start")
    template = (await env.bot.tables.get(1)).row
    shown = env.h.message(template.message_id).payload
    fake, channel = env.h.fake, env.h.channel.id
    author = fake.bot_author()

    def show(i: int, game_id: int) -> int:
        text = json.dumps(shown.get("components") or []).replace('"t:1:', f'"t:{game_id}:')
        fields = {"embeds": shown.get("embeds") or [], "components": json.loads(text)}
        return int(
            fake.create_message(channel_id=channel, author=author, fields=fields, files=[]).id
        )

    ids = await insert_live_copies(
        env.bot.db,
        template,
        300,
        place=lambda i: (channel, None),
        deadline=lambda i: env.clock() + 600,
        show=show,
    )
    mover = await current(env, 1, [host, guest])

    def throw(message: Message) -> str:
        return next(b.custom_id for b in message.buttons if (b.custom_id or "").endswith(":throw"))

    in_flight: dict[tuple[str, str, Any], int] = {}
    most: dict[tuple[str, str, Any], int] = {}
    request = env.bot.http.request

    async def counted(route: Any, **kwargs: Any) -> Any:
        key = (route.method, route.path, route.major_parameters)
        in_flight[key] = in_flight.get(key, 0) + 1
        most[key] = max(most.get(key, 0), in_flight[key])
        try:
            return await request(route, **kwargs)
        finally:
            in_flight[key] -= 1

    env.bot.http.request = counted  # type: ignore[method-assign]
    before = len(env.h.requests)
    messages = [env.h.message(int((await table_row(env, t))["message_id"])) for t in ids]
    replies = await env.h.together(*(mover.click(m, custom_id=throw(m)) for m in messages))
    assert not any(r.ephemeral for r in replies)  # every Throw taken
    posts = [r for r in env.h.requests[before:] if r.method == "POST" and r.source == "rest"]
    assert len(posts) >= 50  # many turns passed, each pinging its next player
    assert [r for r in env.h.requests[before:] if r.failed_with == 429] == []
    assert most and max(most.values()) == 1, most
