"""``/play report`` (issue 36): a member seated at a table tells the bot's operator about
it; stored, logged at WARNING, answered privately, never posted. Hostile input: not seated,
an unknown table, twice, an empty or overlong reason, mentions in it, too late."""

from __future__ import annotations

import logging

import pytest

from bot.store import reports
from tests.discord.conftest import MakeEnv
from tests.discord.test_issue_12 import HEARTS_DUE_FACES
from tests.discord.test_quickplay import ready_id, ready_message
from tests.discord.test_quickplay_everywhere import SERVERS, matched_across
from tests.discord.test_replays import finish_hearts_due
from tests.fakes import ScriptedRandom

REPORTED = "Reported; the bot's operator will look at it."
HOSTILE = "@everyone <@&1> <@2> **look** at this\nsecond line"


async def test_a_seated_member_reports_a_table_once_privately(
    make_env: MakeEnv, caplog: pytest.LogCaptureFixture
) -> None:
    env = await make_env(rng=ScriptedRandom(HEARTS_DUE_FACES * 2))
    ana, bo, cy = [await env.h.member(n) for n in ("Ana", "Bo", "Cy")]
    await finish_hearts_due(env, ana, bo)
    thread = env.h.threads[-1]
    caplog.set_level(logging.WARNING, logger="bot.tables.reports")

    reply = await ana.slash("play report", reason=HOSTILE, _channel=thread)
    assert reply.ephemeral and reply.text == REPORTED
    [record] = [r for r in caplog.records if r.name == "bot.tables.reports"]
    assert record.levelno == logging.WARNING
    line = record.getMessage()
    assert f"table #1 reported (report 1) by member {ana.id} from server {env.h.guild_id}" in line
    assert f"the table's servers: {env.h.guild_id}" in line
    assert repr(HOSTILE) in line and "\n" not in line  # verbatim, on one line
    # Stored verbatim, mentions and all; never posted anywhere in Discord.
    [kept] = await reports.since(env.bot.db, 0)
    assert (kept.game_id, kept.user_id, kept.reason) == (1, ana.id, HOSTILE)
    assert (kept.guild_id, kept.channel_id) == (env.h.guild_id, thread.id)
    assert all("look** at this" not in m.text for m in env.h.messages())
    assert all("look** at this" not in m.text for m in env.h.messages(thread))

    again = await ana.slash("play report", reason="and again", _channel=thread)
    assert again.ephemeral and again.text == "You have already reported table #1."
    # Bo reports it by number from the channel, not the thread.
    by_number = await bo.slash("play report", reason="slow player", table=1)
    assert by_number.ephemeral and by_number.text == REPORTED
    refused = await cy.slash("play report", reason="I watched", _channel=thread)
    assert refused.ephemeral and refused.text == "Only a member seated at table #1 can report it."
    assert [r.user_id for r in await reports.since(env.bot.db, 0)] == [ana.id, bo.id]


async def test_hostile_reports_are_refused_plainly(make_env: MakeEnv) -> None:
    env = await make_env(rng=ScriptedRandom(HEARTS_DUE_FACES * 2))
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await finish_hearts_due(env, ana, bo)
    thread = env.h.threads[-1]
    cases = [
        ({"reason": "   "}, thread, "Say what happened at the table in the reason."),
        ({"reason": "x" * 301}, thread, "A reason is 300 characters at most."),
        ({"reason": "cheat", "table": 99}, None, "There is no table #99."),
        ({"reason": "cheat", "table": -5}, None, "There is no table #-5."),
        (
            {"reason": "cheat", "table": 2**70},
            None,
            "The table option must be between -9,007,199,254,740,991 and 9,007,199,254,740,991.",
        ),
        (
            {"reason": "cheat"},
            None,
            "Use this in the table's thread, or say which table with the table option.",
        ),
    ]
    for options, channel, text in cases:
        reply = await ana.slash("play report", _channel=channel, _validate=False, **options)
        assert reply.ephemeral and reply.text == text, options
    assert await reports.since(env.bot.db, 0) == []
    # 300 characters are taken.
    fits = await ana.slash("play report", reason="y" * 300, _channel=thread)
    assert fits.text == "Reported; the bot's operator will look at it."


async def test_a_table_ended_a_day_ago_is_no_longer_reported(make_env: MakeEnv) -> None:
    env = await make_env(rng=ScriptedRandom(HEARTS_DUE_FACES * 2))
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await finish_hearts_due(env, ana, bo)
    thread = env.h.threads[-1]
    env.clock.advance(24 * 3600)  # exactly a day: still taken
    assert (await ana.slash("play report", reason="rude", _channel=thread)).text.startswith(
        "Reported;"
    )
    env.clock.advance(1)
    late = await bo.slash("play report", reason="rude too", _channel=thread)
    assert late.ephemeral
    assert late.text == "Table #1 ended more than 24 hours ago: it can no longer be reported."


async def test_a_live_table_is_reported_from_its_thread(make_env: MakeEnv) -> None:
    env = await make_env(rng=ScriptedRandom(HEARTS_DUE_FACES * 2))
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = (await ana.slash("heartsdue start", target=20)).message
    await bo.click(lobby, "Join")
    await ana.click(lobby, "Start")
    env.clock.advance(3 * 24 * 3600)  # live: however long it has run
    reply = await bo.slash("play report", reason="AFK all game", _channel=env.h.threads[-1])
    assert reply.text == REPORTED
    [kept] = await reports.since(env.bot.db, 0)
    assert kept.places[0].thread_id == env.h.threads[-1].id


async def test_a_cross_server_table_is_reported_from_either_place(
    make_env: MakeEnv, caplog: pytest.LogCaptureFixture
) -> None:
    """Each member reports from their own server's thread of the one table; the operator's
    line and list name both servers and both places; Cy, of a third server, cannot."""
    env = await make_env(seed=4, more_guilds=SERVERS)
    ana, bo, cy = await matched_across(env)
    for player in (ana, bo):
        asked = ready_message(env, player)
        await player.click(asked, custom_id=ready_id(asked))
    _home, north, south = env.h.guilds
    [north_thread], [south_thread] = env.h.threads_of(north), env.h.threads_of(south)
    caplog.set_level(logging.WARNING, logger="bot.tables.reports")
    for player, thread in ((ana, north_thread), (bo, south_thread)):
        reply = await player.slash(
            "play report", reason=f"{player.name}: {HOSTILE}", _channel=thread
        )
        assert reply.ephemeral and reply.text == REPORTED
    lines = [r.getMessage() for r in caplog.records if r.name == "bot.tables.reports"]
    servers = ", ".join(str(s) for s in sorted((north.id, south.id)))
    assert len(lines) == 2 and all(f"the table's servers: {servers};" in x for x in lines)
    assert f"by member {bo.id} from server {south.id}" in lines[1]
    kept = await reports.since(env.bot.db, 0)
    assert [(r.user_id, r.guild_id, r.channel_id) for r in kept] == [
        (ana.id, north.id, north_thread.id),
        (bo.id, south.id, south_thread.id),
    ]
    assert [(p.guild_id, p.thread_id) for p in kept[0].places] == [
        (north.id, north_thread.id),
        (south.id, south_thread.id),
    ]
    refused = await cy.slash("play report", reason="not mine", table=1)
    assert refused.text == "Only a member seated at table #1 can report it."
    # The reason reached no server's channel or thread.
    assert all("look** at this" not in m.text for m in env.h.messages())
    for thread in (north_thread, south_thread):
        assert all("look** at this" not in m.text for m in env.h.messages(thread))
