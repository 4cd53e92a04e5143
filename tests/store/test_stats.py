"""Statistics, OpenSkill ratings, rebuilds and leaderboards."""

from __future__ import annotations

import random
from typing import Any

import pytest
from openskill.models import PlackettLuce

from bot.ratings import GLOBAL_SCOPE, display_rating
from bot.store import stats as st
from bot.store.db import Database
from bot.tables import wallets as w
from tests.store.helpers import GUILD, OTHER_GUILD, T0, S, create_game, write_results

KEY = "sequences:standard"


async def play(
    db: Database,
    seats: list[S],
    *,
    guild_id: int = GUILD,
    game_key: str = KEY,
    stake: int = 0,
    now: float = T0,
) -> int:
    """A whole game as the table layer runs it: join (escrow), finish (pay, record)."""
    async with db.transaction() as conn:
        game = await create_game(conn, guild_id=guild_id, game_key=game_key, stake=stake)
        for s in seats:
            if s.user_id is not None:
                await w.escrow(conn, game, guild_id, s.user_id, stake, now=now)
    async with db.transaction() as conn:
        await write_results(conn, game, seats, now=now)
        winners = [s.user_id for s in seats if s.won and s.user_id]
        if stake and winners:
            await w.settle_pot(conn, game, winners, now=now)
        elif stake:  # a draw: every stake back
            await w.refund_all(conn, game, now=now)
        assert await st.record_finished_game(conn, game)
    return game


async def stat(db: Database, user: int, scope: int = GUILD, key: str = KEY) -> Any:
    lines = await st.player_stats(db, scope, user, key)
    return lines[0] if lines else None


async def test_record_counts_games_wins_streaks_best_turn_once(db: Database) -> None:
    game = await play(db, [S(1, 1, best_turn=5), S(2, 2, best_turn=8)])
    await play(db, [S(1, 1, best_turn=3), S(2, 2, best_turn=2)])
    await play(db, [S(1, 2), S(2, 1)])
    one, two = await stat(db, 1), await stat(db, 2)
    assert (one.games, one.wins, one.best_turn, one.streak) == (3, 2, 5, -1)
    assert (two.games, two.wins, two.best_turn, two.streak) == (3, 1, 8, 1)
    assert one.rated_games == 3
    async with db.transaction() as conn:
        assert not await st.record_finished_game(conn, game)
    assert (await stat(db, 1)).games == 3


async def test_chips_won_and_lost_from_the_pot(db: Database) -> None:
    await play(db, [S(1, 1), S(2, 2), S(3, 3)], stake=100)
    await play(db, [S(1, 2), S(2, 1), S(3, 3)], stake=50)
    one = await stat(db, 1)
    assert (one.chips_won, one.chips_lost, one.chips_net) == (200, 50, 150)
    three = await stat(db, 3)
    assert (three.chips_won, three.chips_lost) == (0, 150)


async def test_bots_count_for_games_and_wins_but_do_not_move_ratings(db: Database) -> None:
    await play(db, [S(1, 1), S(None, 2)])
    await play(db, [S(1, 1), S(2, 2), S(None, 3)])
    one, two = await stat(db, 1), await stat(db, 2)
    assert (one.games, one.wins, one.rated_games) == (2, 2, 0)
    model = PlackettLuce()
    assert (one.mu, one.sigma) == (model.mu, model.sigma)
    assert two.games == 1 and two.rated_games == 0
    assert await st.rating_points(db, GUILD, KEY, 1) == []


async def test_a_draw_counts_as_a_game_but_moves_no_rating(db: Database) -> None:
    # A drawn board game (RULINGS §3 "Blocked game"): every seat placed first, none won.
    await play(db, [S(1, 1), S(2, 2)])
    before = await stat(db, 1), await stat(db, 2)
    await play(db, [S(1, 1, drawn=True), S(2, 1, drawn=True), S(3, 1, drawn=True)], stake=50)
    one, two, three = await stat(db, 1), await stat(db, 2), await stat(db, 3)
    assert (one.games, one.wins, one.rated_games) == (2, 1, 1)
    assert (one.chips_won, one.chips_lost) == (0, 0)
    for line, old in zip((one, two), before, strict=True):
        assert (line.mu, line.sigma) == (old.mu, old.sigma)
    model = PlackettLuce()
    assert (three.games, three.rated_games, three.mu, three.sigma) == (1, 0, model.mu, model.sigma)
    assert await st.rating_points(db, GUILD, KEY, 3) == []


async def test_teams_are_rated_as_teams(db: Database) -> None:
    await play(db, [S(1, 1, team=0), S(2, 2, team=1), S(3, 1, team=0), S(4, 2, team=1)])
    model = PlackettLuce()
    a, b, c, d = (model.rating() for _ in range(4))
    [[ra, rc], [rb, rd]] = model.rate([[a, c], [b, d]], ranks=[1, 2])
    for user, expected in ((1, ra), (3, rc), (2, rb), (4, rd)):
        line = await stat(db, user)
        assert line.mu == pytest.approx(expected.mu) and line.sigma == pytest.approx(expected.sigma)
    # Not the same as four players ranked individually.
    solo = model.rate([[model.rating()] for _ in range(4)], ranks=[1, 2, 1, 2])
    assert (await stat(db, 1)).mu != pytest.approx(solo[0][0].mu)


async def test_global_scope_pools_every_server(db: Database) -> None:
    await play(db, [S(1, 1), S(2, 2)], guild_id=GUILD)
    await play(db, [S(1, 1), S(3, 2)], guild_id=OTHER_GUILD)
    assert (await stat(db, 1, GUILD)).games == 1
    assert (await stat(db, 1, OTHER_GUILD)).games == 1
    glob = await stat(db, 1, GLOBAL_SCOPE)
    assert (glob.games, glob.wins, glob.rated_games) == (2, 2, 2)
    # The global rating is its own: two wins move it further than either server's one win.
    assert glob.mu > (await stat(db, 1, GUILD)).mu


async def dump(db: Database) -> tuple[list[tuple[Any, ...]], ...]:
    tables = (
        "SELECT * FROM player_stats ORDER BY scope, game_key, user_id",
        "SELECT * FROM rating_history ORDER BY scope, game_key, user_id, game_id",
        "SELECT * FROM recorded_games ORDER BY game_id",
    )
    out = []
    for sql in tables:
        out.append([tuple(row) for row in await db.fetchall(sql)])
    return tuple(out)


async def test_rebuild_equals_live(db: Database) -> None:
    rng = random.Random(7)
    for n in range(120):
        guild = rng.choice((GUILD, OTHER_GUILD))
        key = rng.choice((KEY, "heartsdue", "board"))
        size = rng.randint(2, 4)
        users = rng.sample(range(1, 15), size)
        seats: list[S]
        if key == "board" and size == 4:
            places = [1, 2] if rng.random() < 0.5 else [2, 1]
            seats = [S(u, places[i % 2], team=i % 2) for i, u in enumerate(users)]
        else:
            order = rng.sample(range(1, size + 1), size)
            seats = [
                S(u if rng.random() > 0.1 else None, p, best_turn=rng.randint(0, 30))
                for u, p in zip(users, order, strict=True)
            ]
        stake = rng.choice((0, 0, 10, 25)) if all(s.user_id for s in seats) else 0
        await play(db, seats, guild_id=guild, game_key=key, stake=stake, now=T0 + n * 60)
    live = await dump(db)
    report = await st.rebuild_ratings(db)
    assert report.games == 120
    assert await dump(db) == live
    assert (await w.check_invariant(db)).ok


async def test_rebuild_replays_the_recorded_order(db: Database) -> None:
    # The second game finished a moment earlier but was recorded (committed) later.
    await play(db, [S(1, 1), S(2, 2)], now=T0 + 10)
    await play(db, [S(1, 2), S(3, 1)], now=T0 + 5)
    live = await dump(db)
    await st.rebuild_ratings(db)
    assert await dump(db) == live


async def test_rebuild_ratings_of_games_never_recorded(db: Database) -> None:
    for n, seats in enumerate(([S(1, 1), S(2, 2)], [S(2, 1), S(1, 2)], [S(1, 1), S(2, 2)])):
        async with db.transaction() as conn:
            game = await create_game(conn)
            await write_results(conn, game, seats, now=T0 + n)
    assert await stat(db, 1) is None
    report = await st.rebuild_ratings(db)
    assert report.games == 3
    line = await stat(db, 1)
    assert (line.games, line.wins, line.streak, line.rated_games) == (3, 2, 1, 3)


async def test_leaderboard_pages_viewer_row_and_names(db: Database) -> None:
    # Member k wins k games against the bot: wins sort is 24, 23, ..., 1.
    for user in range(1, 25):
        for _ in range(user):
            await play(db, [S(user, 1), S(None, 2)])
    async with db.transaction() as conn:
        for user in range(1, 25):
            await conn.execute(
                "INSERT INTO members (guild_id, user_id, display_name, updated_at)"
                " VALUES (?, ?, ?, ?)",
                (GUILD, user, f"member{user}", T0),
            )
    page = await st.leaderboard(db, KEY, "server", GUILD, "wins", page=2, viewer_id=3)
    assert page.total == 24 and page.pages == 3 and page.page == 2
    assert [r.rank for r in page.rows] == list(range(11, 21))
    assert [r.user_id for r in page.rows] == list(range(14, 4, -1))
    assert page.rows[0].name == "member14"
    assert page.viewer_row is not None
    assert (page.viewer_row.rank, page.viewer_row.wins) == (22, 3)
    # Past the last page clamps to it.
    last = await st.leaderboard(db, KEY, "server", GUILD, "wins", page=99)
    assert last.page == 3 and [r.user_id for r in last.rows] == [4, 3, 2, 1]
    # Win rate ranks only members with enough games; everyone here won them all.
    rate = await st.leaderboard(db, KEY, "server", GUILD, "win_rate", viewer_id=2)
    assert rate.total == 24 - (st.WIN_RATE_MIN_GAMES - 1)
    assert rate.viewer_row is None
    # Rating ranks rated players only: bot games rate nobody.
    assert (await st.leaderboard(db, KEY, "server", GUILD, "rating")).total == 0


async def test_leaderboard_rating_and_global_names(db: Database) -> None:
    await play(db, [S(1, 1), S(2, 2)], guild_id=GUILD)
    await play(db, [S(1, 1), S(3, 2)], guild_id=OTHER_GUILD)
    await st.remember_member(db, GUILD, 1, "Old Name", now=T0)
    await st.remember_member(db, OTHER_GUILD, 1, "New Name", now=T0 + 10)
    board = await st.leaderboard(db, KEY, "global", GUILD, "rating", viewer_id=3)
    assert board.rows[0].user_id == 1
    assert board.rows[0].name == "New Name"
    assert board.total == 3
    assert board.viewer_row is not None and board.viewer_row.rank in (2, 3)
    server = await st.leaderboard(db, KEY, "server", GUILD, "rating")
    assert [(r.user_id, r.name) for r in server.rows] == [(1, "Old Name"), (2, None)]
    assert server.rows[0].rating > 1000 > server.rows[1].rating


async def test_rating_points_for_the_chart(db: Database) -> None:
    for n in range(5):
        await play(db, [S(1, 1), S(2, 2)], now=T0 + n)
    points = await st.rating_points(db, GUILD, KEY, 1, limit=3)
    assert [x for x, _ in points] == [3, 4, 5]
    ys = [y for _, y in points]
    assert ys == sorted(ys)
    assert ys[-1] == display_rating((await stat(db, 1)).ordinal)


def test_display_formula() -> None:
    assert display_rating(0.0) == 1000
    assert display_rating(34.0) == 2360
    assert display_rating(-100.0) == 0
    assert display_rating(100.0) == 3000


async def test_leaderboard_queries_use_the_sort_indexes(db: Database) -> None:
    # The partial indexes only serve queries whose WHERE repeats their condition.
    plans = {}
    for sort, index in (("rating", "stats_by_rating"), ("win_rate", "stats_by_win_rate")):
        order, _, keep = st._SORT_SQL[sort]
        query = (
            "SELECT s.user_id FROM player_stats s"
            f" WHERE s.scope = ? AND s.game_key = ? AND {keep} ORDER BY {order} LIMIT 10"
        )
        if db.engine == "sqlite":
            rows = await db.fetchall(f"EXPLAIN QUERY PLAN {query}", (GUILD, KEY))
            plans[sort] = " ".join(str(row[3]) for row in rows)
            assert "TEMP B-TREE" not in plans[sort], plans  # no sort step
        else:  # an empty table: tell the planner a scan is dear, as on a big one
            async with db.transaction() as conn:
                await conn.execute("SET LOCAL enable_seqscan = off")
                rows = await conn.fetchall(f"EXPLAIN {query}", (GUILD, KEY))
            plans[sort] = " ".join(str(row[0]) for row in rows)
            assert "Sort" not in plans[sort], plans
        assert index in plans[sort], plans
