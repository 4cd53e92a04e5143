"""Seasons (issue 25.7): ``/settings season`` starts one, ``/leaderboard`` shows the running
season by default and all-time or a past season on request, through the harness, on both
engines. Games are played by clicking through real tables."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import AsyncIterator

import pytest

from bot.ratings import display_rating, model, ordinal
from bot.store.db import Database
from bot.store.games import upsert_member
from bot.store.stats import player_stats, record_finished_game
from bot.tables import wallets
from tests.backends import DbTarget
from tests.cogs.test_economy_stats import KEY, T0, Env, make_bot, play_out
from tests.conftest import MakeHarness
from tests.fakes import FakeClock
from tests.harness import Player
from tests.store.helpers import S, create_game, write_results

DAY = 86_400


@pytest.fixture
async def env(db_target: DbTarget, make_harness: MakeHarness) -> AsyncIterator[Env]:
    path = db_target("bot")
    db = await Database.open(path)
    clock = FakeClock(T0)
    bot = make_bot(db, clock)
    h = await make_harness(bot)
    yield Env(h, bot, db, clock, path)
    await h.stop()
    report = await wallets.check_invariant(db)
    await db.close()
    assert report.ok, report


async def play(env: Env, host: Player, guest: Player) -> Player:
    """One game of Sequences from the lobby; returns its winner."""
    lobby = await host.slash("sequences start", rounds=1)
    table_id = int(re.search(r"table #(\d+)", lobby.text).group(1))  # type: ignore[union-attr]
    await guest.click(lobby.message, "Join")
    await host.click(lobby.message, "Start")
    await play_out(env, table_id, {host.id: host, guest.id: guest})
    table = await env.bot.tables.get(table_id)
    assert table.status == "finished" and table.rules.outcome is not None
    return host if 0 in table.rules.outcome.winners else guest


ROW = re.compile(r"`\s*\d+\.` (?:__)?([A-Za-z]+)(?:__)? · \*\*([\d,]+)\*\* · (\d+)/(\d+) won")


def board(text: str) -> dict[str, tuple[int, int, int]]:
    """A rating board's rows: name -> (rating shown, wins, games)."""
    return {
        name: (int(rating.replace(",", "")), int(wins), int(games))
        for name, rating, wins, games in ROW.findall(text)
    }


def rows(text: str) -> str:
    """A board's rows: its text from the first ranked line."""
    return text[text.index("`  1.`") :]


async def rating(env: Env, player: Player) -> tuple[float, float]:
    """The player's all-time server rating (mu, sigma) now."""
    (line,) = await player_stats(env.db, env.h.guild_id, player.id, KEY)
    return line.mu, line.sigma


def rated(a: tuple[float, float], b: tuple[float, float], a_won: bool) -> tuple[int, int]:
    """The ratings two members show after a game between them, from (mu, sigma) ``a`` and
    ``b``: OpenSkill's Plackett-Luce, as bot.ratings uses it."""
    pl = model()
    after = pl.rate(
        [[pl.create_rating(list(a))], [pl.create_rating(list(b))]],
        ranks=[1.0, 2.0] if a_won else [2.0, 1.0],
    )
    return tuple(display_rating(ordinal(t[0].mu, t[0].sigma)) for t in after)  # type: ignore[return-value]


async def test_seasons_keep_their_boards_and_all_time_goes_on(env: Env) -> None:
    h = env.h
    admin = await h.member("Admin", manage_guild=True)
    ana, bo, cy = await h.member("Ana"), await h.member("Bo"), await h.member("Cy")

    # Before any season the board is the all-time one, worded as it always was.
    await play(env, ana, bo)
    assert "This server, by rating" in (await ana.slash("leaderboard")).text

    started = await admin.slash("settings season", name="Spring")
    assert not started.ephemeral
    assert started.text.startswith("🏁 Season **Spring** has started.")
    assert "Ratings carry on from the all-time ones." in started.text
    empty = await ana.slash("leaderboard")
    assert "This server, season **Spring** (running), by rating" in empty.text
    assert "No game of Sequences has finished in season Spring yet." in empty.text

    # Spring: Ana and Bo again. With no reset, each starts the season from their all-time
    # rating: after this one game the season's board shows what the all-time board shows,
    # but counts one game.
    ana_before, bo_before = await rating(env, ana), await rating(env, bo)
    ana_won = await play(env, ana, bo) is ana
    expected = rated(ana_before, bo_before, ana_won)
    spring = await ana.slash("leaderboard")
    assert "This server, season **Spring** (running), by rating" in spring.text
    assert "Page 1 of 1 · 2 players" in spring.text
    assert board(spring.text) == {
        "Ana": (expected[0], int(ana_won), 1),
        "Bo": (expected[1], int(not ana_won), 1),
    }
    all_time = await ana.slash("leaderboard", season="all-time")
    assert "This server, all time, by rating" in all_time.text
    assert {name: row[0] for name, row in board(all_time.text).items()} == {
        "Ana": expected[0],
        "Bo": expected[1],
    }
    assert {row[2] for row in board(all_time.text).values()} == {2}

    # Summer, with a soft reset: Spring's board is final and all-time is unchanged by the
    # switch.
    env.clock.advance(DAY)
    all_time_at_switch = (await ana.slash("leaderboard", season="all-time")).text
    spring_at_switch = (await ana.slash("leaderboard", season="Spring")).text
    assert spring_at_switch == spring.text
    started = await admin.slash("settings season", name="Summer", soft_reset=True)
    assert "Season **Spring** is over: its final board stays." in started.text
    assert "Ratings start from a soft reset (halfway back to a newcomer's)." in started.text
    assert (await ana.slash("leaderboard", season="all-time")).text == all_time_at_switch
    summer_empty = await cy.slash("leaderboard")
    assert "season **Summer** (running)" in summer_empty.text
    assert "No game of Sequences has finished in season Summer yet." in summer_empty.text

    # Ana (a regular) starts Summer halfway back to a newcomer's 25 and 25/3; Cy, new, at
    # the newcomer's rating itself.
    ana_before = await rating(env, ana)
    ana_soft = ((ana_before[0] + 25) / 2, (ana_before[1] + 25 / 3) / 2)
    cy_won = await play(env, ana, cy) is cy
    expected = rated(ana_soft, (25.0, 25 / 3), not cy_won)
    summer = await cy.slash("leaderboard")
    assert "Page 1 of 1 · 2 players" in summer.text
    assert board(summer.text) == {
        "Ana": (expected[0], int(not cy_won), 1),
        "Cy": (expected[1], int(cy_won), 1),
    }
    # ... while all-time rates the same game from Ana's unsoftened rating.
    all_time = board((await ana.slash("leaderboard", season="all-time")).text)
    assert all_time["Ana"][0] == rated(ana_before, (25.0, 25 / 3), not cy_won)[0]
    assert all_time["Ana"][2] == 3 and all_time["Bo"][2] == 2 and all_time["Cy"][2] == 1

    # Spring's final board is kept, by name or by the id the autocomplete offers.
    choices = await ana.autocomplete("leaderboard", "season", "")
    ended_on = dt.datetime.fromtimestamp(T0 + DAY, dt.UTC)
    assert [c["name"] for c in choices] == [
        "All time",
        "Summer (running)",
        f"Spring (ended {ended_on:%d %b %Y})",
    ]
    by_id = await ana.slash("leaderboard", season=choices[2]["value"])
    assert f"season **Spring** (ended <t:{int(T0 + DAY)}:d>)" in by_id.text
    assert rows(by_id.text) == rows(spring_at_switch)
    assert board((await bo.slash("leaderboard", season="spring")).text) == board(spring.text)
    assert [c["name"] for c in await ana.autocomplete("leaderboard", "season", "spr")] == [
        f"Spring (ended {ended_on:%d %b %Y})"
    ]


async def test_a_season_ends_by_itself_on_its_last_day_even_across_a_restart(env: Env) -> None:
    h = env.h
    admin = await h.member("Admin", manage_guild=True)
    ana, bo = await h.member("Ana"), await h.member("Bo")
    last_day = dt.datetime.fromtimestamp(T0 + DAY, dt.UTC).date().isoformat()
    started = await admin.slash("settings season", name="Sprint", last_day=last_day)
    ends = int(dt.datetime.fromisoformat(last_day).replace(tzinfo=dt.UTC).timestamp()) + DAY
    assert f"It ends <t:{ends}:f>" in started.text
    await play(env, ana, bo)
    assert "season **Sprint** (ends <t:" in (await ana.slash("leaderboard")).text

    await h.restart(env.new_bot())
    env.clock.now = ends  # midnight UTC after the last day: over, with no timer to fire
    after = await ana.slash("leaderboard")
    assert "This server, all time, by rating" in after.text
    await play(env, ana, bo)  # after the end: all-time only
    sprint = await ana.slash("leaderboard", season="Sprint", sort="wins")
    assert f"season **Sprint** (ended <t:{ends}:d>)" in sprint.text
    assert "Page 1 of 1 · 2 players" in sprint.text
    wins = re.findall(r"\*\*(\d+)\*\* won", sprint.text)
    assert sorted(int(w) for w in wins) == [0, 1]
    everything = await ana.slash("leaderboard", season="all-time", sort="wins")
    assert sorted(int(w) for w in re.findall(r"\*\*(\d+)\*\* won", everything.text)) in (
        [0, 2],
        [1, 1],
    )


async def test_season_pages_turn_within_the_season_after_a_restart(env: Env) -> None:
    h = env.h
    admin = await h.member("Admin", manage_guild=True)
    viewer = await h.member("Viewer")
    async with env.db.transaction() as conn:  # an all-time record before any season
        for k in range(1, 4):
            await upsert_member(conn, h.guild_id, 20_000 + k, f"Old {k}", T0)
            game = await create_game(conn, guild_id=h.guild_id, game_key=KEY)
            await write_results(conn, game, [S(20_000 + k, 1), S(None, 2)])
            await record_finished_game(conn, game)
    await admin.slash("settings season", name="Winter")
    async with env.db.transaction() as conn:  # 12 members win in Winter
        for k in range(1, 13):
            await upsert_member(conn, h.guild_id, 10_000 + k, f"Member {k}", T0)
            for _ in range(k):
                game = await create_game(conn, guild_id=h.guild_id, game_key=KEY)
                await write_results(conn, game, [S(10_000 + k, 1), S(None, 2)])
                await record_finished_game(conn, game)
    board = await viewer.slash("leaderboard", sort="wins")
    assert "season **Winter**" in board.text and "Page 1 of 2 · 12 players" in board.text
    assert "Old 1" not in board.text
    season_id = (await env.bot.shell.stats.current_season(h.guild_id)).id  # type: ignore[union-attr]
    assert board.message.button("Next ▶").custom_id.endswith(f":w{season_id}:{KEY}")
    await h.restart(env.new_bot())
    page2 = await viewer.click(board.message, "Next ▶")
    assert "season **Winter**" in page2.text and "Page 2 of 2 · 12 players" in page2.text
    assert "Member 2" in page2.text and "Old 1" not in page2.text
    everything = await viewer.slash("leaderboard", season="all-time", sort="wins")
    assert "15 players" in everything.text


async def test_season_refusals_are_short_and_private(env: Env) -> None:
    h = env.h
    admin = await h.member("Admin", manage_guild=True)
    ana = await h.member("Ana")
    refusals = [
        (ana.slash("settings season", name="Mine"), "You need Manage Server to start a season."),
        (
            admin.slash("settings season", name="X", last_day="30/06/2026"),
            "Give the season's last day as YYYY-MM-DD (UTC), for example 2026-06-30.",
        ),
        (
            admin.slash("settings season", name="X", last_day="2020-01-01"),
            "That day is over: pick a last day from today on (UTC).",
        ),
        (
            admin.slash("settings season", name="x" * 41),
            "A season's name is 40 characters at most.",
        ),
        (
            admin.slash("settings season", name="All-Time"),
            "That name is taken by the leaderboard's own choices: pick another.",
        ),
        (
            ana.slash("leaderboard", season="Nope"),
            "There is no season of that name here: pick one from the list.",
        ),
        (
            ana.slash("leaderboard", season="current"),
            "No season is running here: pick a past one from the list.",
        ),
    ]
    for call, text in refusals:
        reply = await call
        assert reply.ephemeral and reply.text == text
    await admin.slash("settings season", name="Autumn")
    taken = await admin.slash("settings season", name="autumn")
    assert taken.ephemeral and taken.text == "This server had a season of that name: pick another."
    far = await ana.slash("leaderboard", season="Autumn", scope="global")
    assert far.ephemeral
    assert far.text == "Seasons belong to one server: pick scope “this server” to see one."


async def test_an_impossible_last_day_is_named_not_answered_with_the_format(env: Env) -> None:
    """Issue 31.20: 2026-02-30 is written as asked but is no day; the answer says so (the
    month's length), in the member's language, and starts no season."""
    admin = await env.h.member("Admin", manage_guild=True)
    for day, said in [
        ("2026-02-30", "February 2026 has 28 days"),
        ("2028-02-30", "February 2028 has 29 days"),
        ("2026-04-31", "April 2026 has 30 days"),
        ("2026-13-01", "a year has 12 months"),
        ("2026-00-10", "a year has 12 months"),
    ]:
        reply = await admin.slash("settings season", name="X", last_day=day)
        assert reply.ephemeral and "\n" not in reply.text
        assert f"There is no day {day}" in reply.text and said in reply.text, reply.text
        assert "YYYY" not in reply.text
    admin.locale = "de"
    reply = await admin.slash("settings season", name="X", last_day="2026-02-30")
    assert reply.ephemeral and "2026-02-30" in reply.text and "Februar 2026" in reply.text
    assert "There is" not in reply.text
    assert await env.bot.shell.stats.list_seasons(env.h.guild_id) == []
