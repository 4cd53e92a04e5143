"""Seasons in the store: which games a season counts, where its ratings start, and that a
rebuild gives the live values (issue 25.7)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.ratings import default_mu, default_sigma, soft_reset
from bot.store import seasons as se
from bot.store import stats as st
from bot.store.db import Database
from tests.store.helpers import GUILD, OTHER_GUILD, T0, S
from tests.store.test_stats import KEY, dump, play, stat

DAY = 86_400


async def season_line(db: Database, season_id: int, user: int) -> tuple[Any, ...] | None:
    row = await db.fetchone(
        "SELECT games, wins, mu, sigma FROM season_stats WHERE season_id = ? AND user_id = ?",
        (season_id, user),
    )
    return None if row is None else tuple(row)


async def start(db: Database, name: str, now: float, **kwargs: Any) -> se.Season:
    kwargs.setdefault("ends_at", None)
    kwargs.setdefault("soft_reset", False)
    season, _ = await se.start_season(db, GUILD, name, actor_id=1, now=now, **kwargs)
    return season


def test_soft_reset_moves_halfway_back_to_a_newcomer() -> None:
    assert soft_reset(40.0, 2.0) == (32.5, (2.0 + 25 / 3) / 2)
    assert soft_reset(default_mu(), default_sigma()) == (default_mu(), default_sigma())
    assert soft_reset(10.0, 3.0) == (17.5, (3.0 + 25 / 3) / 2)


async def test_a_season_counts_the_games_it_ran_for_from_the_all_time_rating(
    db: Database,
) -> None:
    await play(db, [S(1, 1), S(2, 2)], now=T0)  # before any season
    one = await start(db, "One", T0 + 10, ends_at=T0 + DAY)
    before = await stat(db, 1)
    await play(db, [S(1, 1), S(3, 2)], now=T0 + 20)
    await play(db, [S(2, 1), S(3, 2)], now=T0 + DAY)  # the end is exclusive: no season
    # Member 1 started One from the rating the first game gave them, so one more game
    # leaves the season's rating equal to the all-time one.
    after = await stat(db, 1)
    assert (after.mu, after.sigma) != (before.mu, before.sigma)
    assert await season_line(db, one.id, 1) == (1, 1, after.mu, after.sigma)
    assert await season_line(db, one.id, 2) is None
    assert (await season_line(db, one.id, 3) or ())[:2] == (1, 0)
    assert await se.current(db, GUILD, T0 + DAY - 1) == one
    assert await se.current(db, GUILD, T0 + DAY) is None

    two = await start(db, "Two", T0 + 2 * DAY, soft_reset=True)
    soft = soft_reset(after.mu, after.sigma)
    await play(db, [S(1, 2), S(None, 1)], now=T0 + 2 * DAY)  # a bot game: counted, not rated
    line = await season_line(db, two.id, 1)
    assert line == (1, 0, soft[0], soft[1])
    assert (await stat(db, 1)).mu == after.mu  # all-time: unchanged by the reset

    # A third season ends the second at its start; a game then counts only for the third.
    three = await start(db, "Three", T0 + 3 * DAY)
    assert (await se.by_id(db, GUILD, two.id)).ends_at == T0 + 3 * DAY  # type: ignore[union-attr]
    await play(db, [S(1, 1), S(2, 2)], now=T0 + 3 * DAY)
    assert await season_line(db, two.id, 1) == line
    assert (await season_line(db, three.id, 1) or ())[:2] == (1, 1)
    # Another server's games never count for this server's season.
    await play(db, [S(1, 1), S(2, 2)], guild_id=OTHER_GUILD, now=T0 + 3 * DAY + 5)
    assert (await season_line(db, three.id, 1) or ())[:2] == (1, 1)
    assert [s.name for s in await se.listed(db, GUILD)] == ["Three", "Two", "One"]
    with pytest.raises(se.SeasonNameTaken):
        await start(db, "three", T0 + 4 * DAY)


async def test_rebuild_equals_live_with_seasons(db: Database) -> None:
    rng = random.Random(11)
    now = T0
    for n in range(90):
        if n % 20 == 5:
            await start(db, f"S{n}", now, soft_reset=n % 40 == 5, ends_at=now + 12 * 60)
        guild = rng.choice((GUILD, GUILD, OTHER_GUILD))
        users = rng.sample(range(1, 10), rng.randint(2, 3))
        order = rng.sample(range(1, len(users) + 1), len(users))
        seats = [S(u, p) for u, p in zip(users, order, strict=True)]
        await play(db, seats, guild_id=guild, now=now)
        now += 60
    live = (
        await dump(db),
        await db.fetchall("SELECT * FROM season_stats ORDER BY season_id, game_key, user_id"),
    )
    assert len(live[1]) > 10
    await st.rebuild_ratings(db)
    rebuilt = (
        await dump(db),
        await db.fetchall("SELECT * FROM season_stats ORDER BY season_id, game_key, user_id"),
    )
    assert rebuilt[0] == live[0]
    assert [tuple(r) for r in rebuilt[1]] == [tuple(r) for r in live[1]]


async def test_a_season_board(db: Database) -> None:
    await play(db, [S(1, 1), S(2, 2)])
    season = await start(db, "Board", T0 + 1)
    await play(db, [S(2, 1), S(3, 2)], now=T0 + 2)
    page = await st.leaderboard(db, KEY, "server", GUILD, "wins", viewer_id=1, season_id=season.id)
    assert [(r.user_id, r.wins) for r in page.rows] == [(2, 1), (3, 0)]
    assert page.viewer_row is None  # member 1 played no game this season
    assert await st.season_game_keys(db, season.id) == [KEY]
    with pytest.raises(ValueError):
        await st.leaderboard(db, KEY, "global", GUILD, "wins", season_id=season.id)
