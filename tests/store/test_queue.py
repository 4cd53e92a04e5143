"""Quick play's queue on both engines (issue 36): one entry per member, refusals, matching
passes that claim each member once (two processes at the same moment too), ready checks,
no-shows, the bot offer after the member's wait, and a server turning quick play off."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.config import Settings
from bot.errors import UserError
from bot.games.registry import Games
from bot.records import EVERYWHERE
from bot.store import games, queue
from bot.store.db import Database
from bot.tables.kernel import TableKernel
from bot.tables.lobby_host import LobbyHost
from bot.tables.quickplay import NO_SHOW_TIMEOUT, READY_SECONDS, QuickPlay
from bot.tables.service import TableService
from bot.tables.shards import Shards
from bot.ui.tournaments import tournament_games
from tests.backends import DbTarget
from tests.fakes import FakeClock

GUILD, OTHER, CHANNEL = 10, 11, 20
ANA, BO, CY = 1, 2, 3


def quick(db: Database, clock: FakeClock, seed: int = 1) -> QuickPlay:
    settings = Settings(_env_file=None, start_cooldown_seconds=0, bot_turn_delay_seconds=1)
    games = Games()
    tables = TableService(
        TableKernel(db, games, settings.table_limits(), clock, random.Random(seed))
    )
    return QuickPlay(tables, tournament_games(games), clock)


async def join(
    q: QuickPlay, user: int, game: str = "board", guild: int = GUILD, **kw: int | bool
) -> int:
    queued = await q.join(
        guild_id=guild, channel_id=CHANNEL, user_id=user, name=f"P{user}", game_key=game, **kw
    )
    return queued.place


async def refused(code: str, coro: object) -> UserError:
    with pytest.raises(UserError) as caught:
        await coro  # type: ignore[misc]
    assert caught.value.code == code, caught.value.code
    return caught.value


async def test_one_entry_per_member_across_servers_and_leaving(db: Database) -> None:
    clock = FakeClock()
    q = quick(db, clock)
    assert await join(q, ANA) == 1
    assert await join(q, BO, "heartsdue") == 1
    error = await refused("quick.queued", join(q, ANA, "heartsdue"))
    assert error.values == {"game_key": "board", "here": True, "channel_id": CHANNEL}
    error = await refused("quick.queued", join(q, ANA, guild=OTHER))
    assert error.values["here"] is False
    await refused("quick.game", join(q, CY, "chess"))
    assert (await q.leave(ANA)).game_key == "board"
    await refused("quick.not_queued", q.leave(ANA))
    assert await q.sizes(GUILD) == {"heartsdue": 1}


async def test_queuing_while_seated_is_refused_with_the_table(db: Database) -> None:
    clock = FakeClock()
    q = quick(db, clock)
    table = await q.tables.open_lobby(
        guild_id=GUILD, channel_id=CHANNEL, host_id=ANA, host_name="Ana", kind="board",
        settings={"seats": None, "teams": None, "first_sequence_wins": False},
    )  # fmt: skip
    await q.tables.join(table.id, BO, "Bo")
    await q.tables.start(table.id, ANA)
    error = await refused("quick.seated", join(q, BO))
    assert error.values == {"game": table.id, "channel_id": CHANNEL}
    assert await join(q, CY) == 1  # not at the table: queued


async def test_a_match_asks_both_and_all_ready_opens_one_running_table(db: Database) -> None:
    clock = FakeClock()
    q = quick(db, clock)
    await join(q, ANA)
    clock.advance(2)
    assert await join(q, BO) == 2
    done = await q.run_pass()
    [found] = done.matches
    assert [s.user_id for s in found.seats] == [ANA, BO] and found.status == "asking"
    assert (await q.run_pass()).matches == []  # within the second: no second pass
    clock.advance(1)
    assert (await q.run_pass()).matches == []  # both claimed
    await refused("quick.in_check", q.leave(ANA))
    await refused("quick.not_your_check", q.ready(found.id, CY))
    _, last = await q.ready(found.id, ANA)
    assert not last
    await refused("quick.ready_already", q.ready(found.id, ANA))
    again, last = await q.ready(found.id, BO)
    assert last and again.status == "opening"
    table = await q.open_match(again)
    assert table.status == "running" and [s.user_id for s in table.seats] == [ANA, BO]
    assert (await q.match(found.id)).table_id == table.id  # type: ignore[union-attr]
    assert await q.sizes(GUILD) == {}
    await refused("quick.seated", join(q, ANA))


async def test_a_no_show_goes_to_the_back_the_others_to_the_front(db: Database) -> None:
    clock = FakeClock()
    q = quick(db, clock)
    for user in (ANA, BO, CY):
        await join(q, user)
        clock.advance(1)
    [found] = (await q.run_pass()).matches  # Ana and Bo; Cy waits
    await q.ready(found.id, ANA)
    clock.advance(READY_SECONDS - 1)
    clock.advance(1)
    await refused("quick.ready_late", q.ready(found.id, BO))
    done = await q.run_pass()
    [failed] = done.failed
    assert failed.no_shows == (BO,) and failed.timed_out == ()
    # Ana is back first (her place kept), Bo behind Cy; Ana and Cy are matched at once.
    assert [m.seats[0].user_id for m in done.matches] == [ANA]
    assert [s.user_id for s in done.matches[0].seats] == [ANA, CY]
    assert (await q.place(BO)).place == 1 and (await q.place(BO)).waiting == 1


async def test_three_no_shows_in_an_hour_keep_a_member_out_ten_minutes(db: Database) -> None:
    clock = FakeClock()
    q = quick(db, clock)
    await join(q, ANA)
    await join(q, BO)
    [found] = (await q.run_pass()).matches
    for strike in range(3):
        await q.ready(found.id, BO)
        clock.advance(READY_SECONDS)
        done = await q.run_pass()
        [failed] = done.failed
        assert failed.no_shows == (ANA,)
        assert failed.timed_out == (() if strike < 2 else (ANA,))
        # Bo is back at the front, Ana behind him: matched again at once, until she is out.
        if strike < 2:
            [found] = done.matches
        else:
            assert done.matches == []
    error = await refused("quick.timed_out", join(q, ANA))
    assert error.values["until"] == clock() + NO_SHOW_TIMEOUT
    clock.advance(NO_SHOW_TIMEOUT)
    assert await join(q, ANA) == 2  # behind Bo, who waited on


async def test_blocks_are_respected_and_listed(db: Database) -> None:
    clock = FakeClock()
    q = quick(db, clock)
    await q.block(ANA, BO)
    await refused("quick.blocked_already", q.block(ANA, BO))
    await refused("quick.block_self", q.block(ANA, ANA))
    assert await q.blocked(ANA) == [BO] and await q.blocked(BO) == []
    await join(q, ANA)
    await join(q, BO)
    assert (await q.run_pass()).matches == []
    await q.unblock(ANA, BO)
    await refused("quick.not_blocked", q.unblock(ANA, BO))
    clock.advance(1)
    assert len((await q.run_pass()).matches) == 1


async def test_the_bot_offer_comes_after_the_members_wait(db: Database) -> None:
    clock = FakeClock()
    q = quick(db, clock)
    await join(q, ANA, bot_after=60)
    await join(q, BO, "heartsdue", bot_after=20)
    clock.advance(19)
    assert (await q.run_pass()).offers == []
    clock.advance(1)
    assert [o.user_id for o in (await q.run_pass()).offers] == [BO]
    clock.advance(40)
    assert [o.user_id for o in (await q.run_pass()).offers] == [ANA]
    clock.advance(1)
    assert (await q.run_pass()).offers == []  # each offered once
    table = await q.play_bot(ANA, "Ana")
    assert table.status == "running"
    assert [s.user_id for s in table.seats] == [ANA, None]
    assert table.seats[1].bot_level == "easy"  # a newcomer's 1,000: the weakest level
    await refused("quick.not_queued", q.play_bot(ANA, "Ana"))


async def test_turning_quick_play_off_takes_the_servers_members_out(db: Database) -> None:
    clock = FakeClock()
    q = quick(db, clock)
    await join(q, ANA)
    await join(q, BO, guild=OTHER)
    out = await q.set_mode(GUILD, "off", CY)
    assert [e.user_id for e in out] == [ANA]
    await refused("quick.off", join(q, CY))
    assert await q.mode(OTHER) == ("here", None)
    assert await q.set_mode(GUILD, "here", CY) == []
    assert await join(q, CY) == 1


async def test_two_processes_passing_at_once_claim_each_member_once(db_target: DbTarget) -> None:
    """Two processes on one database run their passes at the same moment over 60 waiting
    members: every member is in one ready check at most."""
    target = db_target("bot")
    first, second = await Database.open(target), await Database.open(target)
    try:
        clock = FakeClock()
        one, two = quick(first, clock), quick(second, clock, seed=2)
        rng = random.Random(7)
        for user in range(1, 61):
            await join(one, user, rng.choice(["board", "heartsdue"]))
        clock.advance(200)
        a, b = await asyncio.gather(one.run_pass(), two.run_pass())
        seated = [s.user_id for m in a.matches + b.matches for s in m.seats]
        assert len(seated) == len(set(seated)) and len(seated) >= 56
    finally:
        await first.close()
        await second.close()


# --- across servers (where: everywhere) ----------------------------------------------------

THIRD = 12 << 22  # a guild of shard 12 % count, beside GUILD and OTHER (shard 0)


async def everywhere(q: QuickPlay, *guilds: int) -> None:
    for guild in guilds:
        await q.set_mode(guild, "everywhere", CY)


async def test_members_of_two_servers_are_matched_across_on_the_everywhere_ladder(
    db: Database,
) -> None:
    clock = FakeClock()
    q = quick(db, clock)
    await refused("quick.here_only", join(q, ANA, everywhere=True))  # GUILD is on here
    await everywhere(q, GUILD, OTHER)
    async with db.transaction() as conn:  # strong on the everywhere ladder, a newcomer here
        await conn.execute(
            "INSERT INTO player_stats (scope, game_key, user_id, games, wins, best_turn,"
            " chips_won, chips_lost, chips_net, streak, win_rate, rated_games, mu, sigma,"
            " ordinal, last_game_id, updated_at)"
            " VALUES (?, 'board', ?, 5, 5, 0, 0, 0, 0, 5, 1.0, 5, 11.0, 3.0, 2.0, NULL, 0)",
            (EVERYWHERE, ANA),
        )
    assert await join(q, ANA, everywhere=True) == 1
    across = (await q.place(ANA)).entry.rating
    assert across == 1080 and across == await queue.rating_of(db, EVERYWHERE, "board", ANA)
    assert await queue.rating_of(db, GUILD, "board", ANA) == 1000
    assert await join(q, CY, guild=OTHER) == 1  # here in OTHER: not across
    assert await join(q, BO, guild=OTHER, everywhere=True) == 2
    assert (await q.place(BO)).waiting == 2  # the queue across servers
    [found] = (await q.run_pass()).matches
    assert found.guild_id == EVERYWHERE
    assert [(s.user_id, s.guild_id) for s in found.seats] == [(ANA, GUILD), (BO, OTHER)]
    await q.set_channel(OTHER, CHANNEL + 1, CY)  # OTHER's quick-play channel
    await q.ready(found.id, ANA)
    found, last = await q.ready(found.id, BO)
    assert last
    table = await q.open_match(found)
    assert table.row.guild_id == EVERYWHERE and table.row.stake == 0
    assert table.row.channel_id == CHANNEL and table.status == "running"
    assert [(p.guild_id, p.channel_id, p.user_ids) for p in table.places] == [
        (GUILD, CHANNEL, (ANA,)),
        (OTHER, CHANNEL + 1, (BO,)),
    ]
    assert [s.name for s in table.seats] == ["P1", "P2"]  # their names where they queued
    # Each place's thread and message: the first is the games row's too.
    await q.tables.set_place_message(table.id, table.places[0], thread_id=100, message_id=101)
    await q.tables.set_place_message(table.id, table.places[1], thread_id=200, message_id=201)
    assert await q.tables.location(table.id) == (100, 101)
    for message in (101, 201):
        found_table = await q.tables.running_with_message(message)
        assert found_table is not None and found_table.id == table.id
    assert (await games.in_thread(db, 200)).id == table.id  # type: ignore[union-attr]
    # Seated: the link is the place in the server the member queues from.
    error = await refused("quick.seated", join(q, BO, guild=OTHER, everywhere=True))
    assert error.values == {"game": table.id, "channel_id": 200}
    assert (await q.place(CY)).waiting == 1  # never matched with them


async def test_a_server_turning_to_here_takes_its_members_waiting_across_out(
    db: Database,
) -> None:
    clock = FakeClock()
    q = quick(db, clock)
    await everywhere(q, GUILD, OTHER)
    await join(q, ANA, everywhere=True)
    await join(q, BO)  # here
    await join(q, CY, guild=OTHER, everywhere=True)
    out = await q.set_mode(GUILD, "here", CY)
    assert [e.user_id for e in out] == [ANA] and out[0].everywhere
    await refused("quick.not_queued", q.leave(ANA))
    assert (await q.place(BO)).waiting == 1
    assert (await q.run_pass()).matches == []  # Cy waits alone across servers
    error = await refused("quick.queued", join(q, CY))  # queued across from OTHER
    assert error.values == {"game_key": "board", "here": False, "channel_id": CHANNEL}


async def test_only_the_process_of_shard_zero_matches_across_servers(db: Database) -> None:
    clock = FakeClock()
    settings = Settings(_env_file=None, start_cooldown_seconds=0, bot_turn_delay_seconds=1)
    games_ = Games()
    tables = TableService(TableKernel(db, games_, settings.table_limits(), clock, random.Random(1)))
    of_zero = QuickPlay(tables, tournament_games(games_), clock, Shards(2, (0,)))
    of_one = QuickPlay(tables, tournament_games(games_), clock, Shards(2, (1,)))
    await everywhere(of_zero, GUILD, OTHER, THIRD + (1 << 22))
    await join(of_zero, ANA, everywhere=True)
    await join(of_zero, BO, guild=THIRD + (1 << 22), everywhere=True)  # a guild of shard 1
    assert (await of_one.run_pass()).matches == []
    [found] = (await of_zero.run_pass()).matches
    assert {s.user_id for s in found.seats} == {ANA, BO}


async def test_a_table_across_servers_takes_no_stake(db: Database) -> None:
    clock = FakeClock()
    q = quick(db, clock)
    settings = {"seats": None, "teams": None, "first_sequence_wins": False}
    await refused(
        "stake.everywhere",
        q.tables.open_lobby(
            guild_id=EVERYWHERE, channel_id=CHANNEL, host_id=ANA, host_name="Ana",
            kind="board", settings=dict(settings), stake=10,
        ),
    )  # fmt: skip
    table = await q.tables.open_lobby(
        guild_id=EVERYWHERE, channel_id=CHANNEL, host_id=ANA, host_name="Ana", kind="board",
        settings=dict(settings),
    )  # fmt: skip
    host = LobbyHost(q.tables.kernel)
    await refused("stake.everywhere", host.change_settings(table.id, ANA, dict(settings), 10))
    assert (await q.tables.get(table.id)).row.stake == 0
