"""The everywhere ladder (issue 36): a cross-server quick-play table (guild id EVERYWHERE)
is rated on a scope of its own, never on a server's nor on the pooled "all servers" one."""

from __future__ import annotations

import random
from typing import Any

import pytest
from openskill.models import PlackettLuce

from bot.ratings import GLOBAL_SCOPE
from bot.records import EVERYWHERE, NO_GUILD
from bot.store import seasons as se
from bot.store import stats as st
from bot.store.db import Database
from tests.store.helpers import GUILD, OTHER_GUILD, T0, S, create_game, write_results
from tests.store.test_stats import KEY, dump, play, stat


async def rows_outside_the_ladder(db: Database) -> tuple[list[tuple[Any, ...]], ...]:
    """Every stat row, rating point and season row of any scope but EVERYWHERE."""
    stats = await db.fetchall(
        "SELECT * FROM player_stats WHERE scope <> ? ORDER BY scope, game_key, user_id",
        (EVERYWHERE,),
    )
    points = await db.fetchall(
        "SELECT * FROM rating_history WHERE scope <> ? ORDER BY scope, user_id, game_id",
        (EVERYWHERE,),
    )
    seasons = await db.fetchall("SELECT * FROM season_stats ORDER BY season_id, game_key, user_id")
    return tuple([tuple(row) for row in rows] for rows in (stats, points, seasons))


async def test_a_cross_server_game_counts_on_the_ladder_only(db: Database) -> None:
    await play(db, [S(1, 1), S(2, 2)], guild_id=GUILD)
    await play(db, [S(1, 2), S(3, 1)], guild_id=OTHER_GUILD)
    await se.start_season(db, GUILD, "Spring", ends_at=None, soft_reset=False, actor_id=1, now=T0)
    await play(db, [S(1, 1), S(2, 2)], guild_id=GUILD, now=T0 + 5)
    before = await rows_outside_the_ladder(db)
    global_before = await stat(db, 1, GLOBAL_SCOPE)

    # Members 1 (of GUILD) and 3 (of OTHER_GUILD) meet across servers, twice, and 2 once;
    # a server's season is running meanwhile.
    await play(db, [S(1, 1, best_turn=7), S(3, 2, best_turn=9)], guild_id=EVERYWHERE, now=T0 + 10)
    await play(db, [S(1, 1, best_turn=4), S(3, 2)], guild_id=EVERYWHERE, now=T0 + 20)
    await play(db, [S(2, 1), S(1, 2)], guild_id=EVERYWHERE, now=T0 + 30)

    assert await rows_outside_the_ladder(db) == before  # no server's, not the global, no season
    assert (await stat(db, 1, GLOBAL_SCOPE)).games == global_before.games == 3
    one = await stat(db, 1, EVERYWHERE)
    three = await stat(db, 3, EVERYWHERE)
    assert (one.games, one.wins, one.streak, one.best_turn, one.rated_games) == (3, 2, -1, 7, 3)
    assert (three.games, three.wins, three.streak, three.best_turn) == (2, 0, -2, 9)
    # A ladder of its own: its ratings start from a newcomer's, whatever the servers say.
    model = PlackettLuce()
    [[a], [b]] = model.rate([[model.rating()], [model.rating()]], ranks=[1.0, 2.0])
    after_first = await db.fetchall(
        "SELECT user_id, mu, sigma FROM rating_history WHERE scope = ? AND game_id ="
        " (SELECT MIN(game_id) FROM rating_history WHERE scope = ?) ORDER BY user_id",
        (EVERYWHERE, EVERYWHERE),
    )
    assert [(r[0], r[1], r[2]) for r in after_first] == [
        (1, pytest.approx(a.mu), pytest.approx(a.sigma)),
        (3, pytest.approx(b.mu), pytest.approx(b.sigma)),
    ]
    assert [x for x, _ in await st.rating_points(db, EVERYWHERE, KEY, 1)] == [1, 2, 3]
    # Member 3 played OTHER_GUILD's game and the ladder's: never GUILD's.
    assert await stat(db, 3, GUILD) is None
    assert await st.game_keys(db, EVERYWHERE) == [KEY]


async def test_the_ladder_counts_no_chips(db: Database) -> None:
    # Cross-server tables carry no stake; were one escrowed all the same, the ladder, which
    # belongs to no server, would still count no chips.
    await play(db, [S(1, 1), S(2, 2)], guild_id=EVERYWHERE, stake=50)
    one, two = await stat(db, 1, EVERYWHERE), await stat(db, 2, EVERYWHERE)
    assert (one.chips_won, one.chips_lost, two.chips_won, two.chips_lost) == (0, 0, 0, 0)
    live = await dump(db)
    await st.rebuild_ratings(db)
    assert await dump(db) == live


async def test_rebuild_equals_live_with_the_ladder(db: Database) -> None:
    rng = random.Random(36)
    await se.start_season(db, GUILD, "Now", ends_at=None, soft_reset=True, actor_id=1, now=T0)
    for n in range(90):
        guild = rng.choice((GUILD, OTHER_GUILD, EVERYWHERE, EVERYWHERE, NO_GUILD))
        key = rng.choice((KEY, "board"))
        users = rng.sample(range(1, 12), rng.randint(2, 3))
        order = rng.sample(range(1, len(users) + 1), len(users))
        seats = [
            S(u if rng.random() > 0.1 else None, p, best_turn=rng.randint(0, 20))
            for u, p in zip(users, order, strict=True)
        ]
        await play_anywhere(db, seats, guild_id=guild, game_key=key, now=T0 + 1 + n * 60)
    live = await dump(db)
    seasons_live = await rows_outside_the_ladder(db)
    await st.rebuild_ratings(db)
    assert await dump(db) == live
    assert await rows_outside_the_ladder(db) == seasons_live
    scopes = {row[0] for row in await db.fetchall("SELECT DISTINCT scope FROM rating_history")}
    assert scopes == {GUILD, OTHER_GUILD, GLOBAL_SCOPE, EVERYWHERE}
    # The global scope pools the servers' games only: its games are theirs, summed.
    games = {
        int(row[0]): int(row[1])
        for row in await db.fetchall("SELECT scope, SUM(games) FROM player_stats GROUP BY scope")
    }
    assert games[GLOBAL_SCOPE] == games[GUILD] + games[OTHER_GUILD]
    seated = await db.fetchone(
        "SELECT COUNT(*) FROM game_results WHERE guild_id = ? AND user_id IS NOT NULL",
        (EVERYWHERE,),
    )
    assert seated is not None and games[EVERYWHERE] == int(seated[0]) > 0


async def play_anywhere(
    db: Database, seats: list[S], *, guild_id: int, game_key: str, now: float
) -> None:
    """``play``, or for a table outside servers its results alone (it records nothing)."""
    if guild_id != NO_GUILD:
        await play(db, seats, guild_id=guild_id, game_key=game_key, now=now)
        return
    async with db.transaction() as conn:
        game = await create_game(conn, guild_id=NO_GUILD, game_key=game_key)
        await write_results(conn, game, seats, now=now)
        assert not await st.record_finished_game(conn, game)


async def test_the_everywhere_board_names_members_as_last_seen(db: Database) -> None:
    await play(db, [S(1, 1), S(2, 2)], guild_id=EVERYWHERE)
    await play(db, [S(1, 1), S(3, 2)], guild_id=EVERYWHERE, now=T0 + 1)
    await play(db, [S(4, 1), S(5, 2)], guild_id=GUILD)  # not on the ladder
    await st.remember_member(db, GUILD, 1, "Old Name", now=T0)
    await st.remember_member(db, OTHER_GUILD, 1, "New Name", now=T0 + 10)
    await st.remember_member(db, OTHER_GUILD, 2, "Bea", now=T0)
    board = await st.leaderboard(db, KEY, "everywhere", GUILD, "rating", viewer_id=3)
    assert board.total == 3
    assert [(r.user_id, r.name) for r in board.rows][:1] == [(1, "New Name")]
    assert {r.user_id for r in board.rows} == {1, 2, 3}
    assert board.viewer_row is not None and board.viewer_row.user_id == 3
    # The same board whichever server asks, in every sort, paged.
    other = await st.leaderboard(db, KEY, "everywhere", OTHER_GUILD, "rating", viewer_id=3)
    assert other == board
    wins = await st.leaderboard(db, KEY, "everywhere", GUILD, "wins", page=2, page_size=2)
    assert (wins.page, wins.pages, wins.total, len(wins.rows)) == (2, 2, 3, 1)
    assert [r.rank for r in wins.rows] == [3]
    assert (await st.leaderboard(db, KEY, "everywhere", GUILD, "chips")).total == 3
    assert (await st.leaderboard(db, KEY, "everywhere", GUILD, "win_rate")).total == 0
    # Neither the server's board nor the global one shows the ladder's games.
    server = await st.leaderboard(db, KEY, "server", GUILD, "wins")
    pooled = await st.leaderboard(db, KEY, "global", GUILD, "wins")
    assert {r.user_id for r in server.rows} == {r.user_id for r in pooled.rows} == {4, 5}
    with pytest.raises(ValueError, match="season"):
        await st.leaderboard(db, KEY, "everywhere", GUILD, "rating", season_id=1)
