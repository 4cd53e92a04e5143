"""Turn reminders (issue 22, item 1): when a third of the turn's time is left, the member to
move is mentioned once in the game's thread (or sent the direct message they chose with
/notify), unless they acted; a timer like the others: restart-safe, sent once with two
processes on one database, paced. Through the harness, with the clock moved, on both
engines."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from bot.store.db import Database
from bot.tables.kernel import TableKernel
from bot.tables.reminders import TurnReminders
from bot.tables.service import TableService
from bot.tables.wallet_hooks import WalletHooks
from bot.ui.reminders import REMINDER_BURST, ReminderPoster, in_words
from tests.discord.conftest import Env, MakeEnv
from tests.fakes import ScriptedRandom
from tests.harness import Message, Player
from tests.reliability.helpers import table_row
from tests.reliability.test_discord_failures import game_message, lobby_of_two, to_move

TIMEOUT = 180  # the turn's time; its reminder comes at 120 s, with 60 s left
SCORES = [1, 2, 3, 4, 5]  # a first throw that scores: the turn goes on after it


def reminders(env: Env) -> list[Message]:
    """Every turn reminder posted in the game's thread or channel (not a DM), in order."""
    channels = {env.h.channel.id, *(t.id for t in env.h.threads)}
    return [
        m
        for m in env.h.messages(ephemeral=False, include_deleted=True)  # gone when the turn is
        if m.channel_id in channels and m.text.startswith("⏰")
    ]


def reminder_requests(env: Env) -> list[Any]:
    return [
        r
        for r in env.h.requests
        if r.method == "POST"
        and r.path.endswith("/messages")
        and isinstance(r.json, dict)
        and str(r.json.get("content") or "").startswith("⏰")
    ]


async def started(env: Env, **options: object) -> tuple[Player, Player, Player]:
    """Ana's game with Bo, started; returns them and the player to move."""
    ana, bo, lobby = await lobby_of_two(env, **options)
    await ana.click(lobby, "Start")
    return ana, bo, await to_move(env, ana, bo)


async def test_a_reminder_comes_once_at_a_third_of_the_time_left(make_env: MakeEnv) -> None:
    env = await make_env(rng=ScriptedRandom(SCORES), turn_timeout_seconds=TIMEOUT)
    ana, bo, player = await started(env)
    other = bo if player is ana else ana

    await env.tick(119)
    assert reminders(env) == []
    await env.tick(1)  # 60 s of 180 left

    [reminder] = reminders(env)
    assert reminder.text == f"⏰ {player.mention}, your turn ends in 1 minute."
    assert reminder.channel_id == env.h.threads[0].id
    [request] = reminder_requests(env)
    allowed = request.json["allowed_mentions"]
    assert [int(u) for u in allowed["users"]] == [player.id] and allowed.get("parse", []) == []
    # It takes the place of the turn's ping: one mention of the player stands in the thread.
    assert env.ping() == reminder and [m for m in env.thread_messages() if not m.components] == [
        reminder
    ]
    for later in (10, 30):
        await env.tick(later)
    assert len(reminders(env)) == 1  # once

    # A reminder changes nothing a button shows: the turn's buttons still answer.
    row = await table_row(env)
    thrown = await player.click(game_message(env, row), "Throw 5 dice")
    assert not thrown.ephemeral, thrown.text
    # The other player's turn gets its own reminder, a third before it runs out.
    await env.tick(TIMEOUT + 1)  # the rest of this turn runs out: the bot plays it
    assert await to_move(env, ana, bo) is other
    assert reminder.deleted  # the turn passed: its reminder went with it
    await env.tick(TIMEOUT * 2 / 3 - 1)
    assert len(reminders(env)) == 1
    await env.tick(1)
    assert [m.text for m in reminders(env)][1:] == [
        f"⏰ {other.mention}, your turn ends in 1 minute."
    ]


async def test_no_reminder_once_the_player_acted(make_env: MakeEnv) -> None:
    env = await make_env(rng=ScriptedRandom(SCORES), turn_timeout_seconds=TIMEOUT)
    ana, bo, player = await started(env)
    await env.tick(100)
    row = await table_row(env)
    assert not (await player.click(game_message(env, row), "Throw 5 dice")).ephemeral
    assert await to_move(env, ana, bo) is player  # still their turn: the throw scored
    for _ in range(8):  # well past where the renewed turn's reminder would be: none
        await env.tick(20)
        assert reminders(env) == []
    assert (await table_row(env))["remind_at"] is None


async def test_a_pending_end_request_does_not_move_the_reminder(make_env: MakeEnv) -> None:
    # A staked game's end request puts its own, sooner deadline on the row (2 minutes); the
    # reminder keeps the turn's time, and a save after the reminder does not bring it back.
    env = await make_env(seed=3, turn_timeout_seconds=TIMEOUT)
    ana, _, player = await started(env, rounds=3, stake=10)
    await env.tick(30)
    asked = await ana.slash("sequences end")
    assert asked.ephemeral and "2 minutes to agree" in asked.text
    await env.tick(89)
    assert reminders(env) == []
    await env.tick(1)  # 120 s into the turn, the request still open
    [reminder] = reminders(env)
    assert reminder.text == f"⏰ {player.mention}, your turn ends in 1 minute."
    await env.tick(40)  # the request runs out (its timer saves the row): nothing more
    await env.tick(10)
    assert len(reminders(env)) == 1


async def test_a_reminder_survives_a_restart_and_is_sent_once(make_env: MakeEnv) -> None:
    env = await make_env(seed=3, turn_timeout_seconds=TIMEOUT)
    _, _, player = await started(env)
    await env.tick(60)
    await env.restart()
    await env.tick(60)
    [reminder] = reminders(env)
    assert reminder.text == f"⏰ {player.mention}, your turn ends in 1 minute."
    await env.restart()
    await env.tick(5)
    assert len(reminders(env)) == 1


async def test_two_processes_send_a_reminder_once(make_env: MakeEnv) -> None:
    """Two instances on one database, each with a ``Database`` of its own (as two processes
    have, tests/reliability/test_two_processes.py), fire every turn's reminder at the same
    moment: one sends it, the other finds it claimed and says nothing."""
    env = await make_env(seed=3, turn_timeout_seconds=TIMEOUT)
    ana, bo, _ = await started(env, rounds=5)
    other_db = await Database.open(env.database)
    try:
        other = TableService(
            TableKernel(
                other_db,
                env.bot.games,
                env.settings.table_limits(),
                env.clock,
                random.Random(9),
                WalletHooks(env.clock),
            )
        )
        # The other process's poster reaches the same (fake) Discord.
        poster = ReminderPoster(env.bot, TurnReminders(other.kernel))
        for turn in range(4):
            player = await to_move(env, ana, bo)
            env.clock.advance(TIMEOUT * 2 / 3)
            counts = await asyncio.gather(env.bot.reminders.run(), poster.run())
            await env.h.settle()
            assert sorted(counts) == [0, 1], (turn, counts)
            assert reminders(env)[-1].text == f"⏰ {player.mention}, your turn ends in 1 minute."
            assert len(reminders(env)) == turn + 1
            assert await env.tick(TIMEOUT / 3) == 1  # the turn runs out: the next one's
        assert len(reminder_requests(env)) == 4
    finally:
        await other_db.close()


async def test_a_member_may_have_reminders_by_direct_message(make_env: MakeEnv) -> None:
    env = await make_env(seed=3, turn_timeout_seconds=TIMEOUT)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    for member in (ana, bo):
        chosen = await member.slash("notify", where="dm")
        assert chosen.ephemeral and "direct message" in chosen.text
        assert [m.text for m in member.dms] == [
            f"Your turn reminders from {env.h.guild.name} come here now."
        ]
        shown = await member.slash("notify")
        assert shown.ephemeral and "by direct message" in shown.text
    lobby = (await ana.slash("sequences start", rounds=3)).message
    await bo.click(lobby, "Join")
    await ana.click(lobby, "Start")
    player = await to_move(env, ana, bo)
    await env.tick(TIMEOUT * 2 / 3)
    assert reminders(env) == []  # not in the thread
    row = await table_row(env)
    link = f"https://discord.com/channels/{env.h.guild.id}/{row['thread_id']}/{row['message_id']}"
    assert player.dms[-1].text == (f"⏰ Your turn in Sequences #1 ends in 1 minute: {link}")
    assert len(player.dms) == 2


async def test_a_refused_direct_message_falls_back_to_the_thread(make_env: MakeEnv) -> None:
    env = await make_env(seed=3, turn_timeout_seconds=TIMEOUT)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    for member in (ana, bo):
        await member.slash("notify", where="dm")
        env.h.block_dms(member)  # closed after choosing: the reminder's DM is refused (50007)
    lobby = (await ana.slash("sequences start", rounds=3)).message
    await bo.click(lobby, "Join")
    await ana.click(lobby, "Start")
    player = await to_move(env, ana, bo)
    await env.tick(TIMEOUT * 2 / 3)
    [reminder] = reminders(env)
    assert reminder.text == f"⏰ {player.mention}, your turn ends in 1 minute."
    refused = [r for r in env.h.requests if r.failed_with == 403]
    assert len(refused) == 1  # the DM was tried, refused, and nothing was said of it
    said = [m.text for m in env.h.messages(ephemeral=True)]
    assert len(said) == 2 and all(t.startswith("Your turn reminders") for t in said)  # /notify


async def test_notify_tells_a_member_whose_direct_messages_are_closed(make_env: MakeEnv) -> None:
    env = await make_env()
    ana = await env.h.member("Ana")
    env.h.block_dms(ana)
    chosen = await ana.slash("notify", where="dm")
    assert chosen.ephemeral and "can't send you direct messages" in chosen.text
    back = await ana.slash("notify", where="thread")
    assert back.ephemeral and back.text == (
        "Your turn reminders on this server now come in the game's thread."
    )


async def test_no_reminder_for_a_bot_seat(make_env: MakeEnv) -> None:
    env = await make_env(seed=4, turn_timeout_seconds=TIMEOUT)
    ana = await env.h.member("Ana")
    lobby = (await ana.slash("sequences start", rounds=3)).message
    await ana.click(lobby, "Add bot: optimal")
    await ana.click(lobby, "Start")
    table = await env.bot.tables.get(1)
    assert table.rules is not None
    if table.seats[table.rules.current].is_bot:
        assert (await table_row(env))["remind_at"] is None
        await env.run_bots()
    row = await table_row(env)
    assert row["remind_at"] == row["deadline"] - TIMEOUT / 3  # Ana's turn: hers is planned
    await env.tick(TIMEOUT * 2 / 3)
    assert [m.text for m in reminders(env)] == [f"⏰ {ana.mention}, your turn ends in 1 minute."]
    await env.tick(TIMEOUT / 3)  # hers runs out; the bot plays it, then the bot's own turn
    await env.run_bots()
    assert len(reminders(env)) == 1


def test_durations_read_as_a_player_says_them() -> None:
    assert in_words(60) == "1 minute"
    assert in_words(40) == "40 seconds"
    assert in_words(1) == "1 second"
    assert in_words(0.2) == "1 second"
    assert in_words(90) == "1 minute 30 seconds"
    assert in_words(66.7) == "1 minute 10 seconds"
    assert in_words(120) == "2 minutes"
    assert in_words(1200) == "20 minutes"
    assert in_words(59.6) == "1 minute"


async def test_a_change_read_before_the_claim_does_not_bring_the_reminder_back(
    make_env: MakeEnv,
) -> None:
    # A change of the table that read it before the reminder was claimed (by this process or
    # another) saves after: the reminder it read must stay claimed, not fire again.
    env = await make_env(seed=3, turn_timeout_seconds=TIMEOUT)
    await started(env)
    read_before = await env.bot.tables.get(1)
    await env.tick(TIMEOUT * 2 / 3)
    assert len(reminders(env)) == 1
    await env.bot.tables.kernel.save(read_before, None, "note", {})  # any such change
    assert (await table_row(env))["remind_at"] is None
    await env.tick(10)
    assert len(reminders(env)) == 1


async def test_a_burst_of_reminders_is_paced(make_env: MakeEnv) -> None:
    # 24 games whose reminders fall due at the same moment: the first tick sends what the
    # budget allows at once (20), the rest go at the next ticks, none twice, none lost.
    env = await make_env(
        seed=3,
        turn_timeout_seconds=TIMEOUT,
        max_lobbies_per_channel=30,
        max_games_per_channel=30,
        max_lobbies_per_guild=30,
        max_games_per_guild=30,
    )
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    for _ in range(24):
        lobby = (await ana.slash("sequences start", rounds=3)).message
        await bo.click(lobby, "Join")
        await ana.click(lobby, "Start")
    env.clock.advance(TIMEOUT * 2 / 3)
    first = await env.bot.reminders.run()
    await env.h.settle()
    assert first == REMINDER_BURST == 20
    sent = first
    for _ in range(50):  # the budget refills at 10 a second of the loop's time
        if sent == 24:
            break
        await asyncio.sleep(0.1)
        sent += await env.bot.reminders.run()
        await env.h.settle()
    assert sent == 24 and len(reminders(env)) == 24
    assert len({m.channel_id for m in reminders(env)}) == 24  # one in each game's thread
    assert await env.bot.reminders.run() == 0
