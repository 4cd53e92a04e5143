"""Leaderboards, escrows and payouts on a big database (was ``bench-store``): 100,000
finished games among 10,000 members in two servers (``--quick``: a few hundred), written in
bulk, the stats rebuilt from them, then p50/p99 ms of every leaderboard sort and scope, of
one escrow and of one payout transaction. (Its old ``--write-path`` figures are the
database section's: round trips per click, commits/s, a burst's saves.)"""

from __future__ import annotations

import random
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bench.report import Report, Sizes, quantile
from bench.targets import Targets

GAME_KEYS = ("sequences:standard", "sequences:classic", "heartsdue", "board")
GUILDS = (1001, 1002)
STAKE = 10
T0 = 1_780_000_000.0


async def timed(runs: int, make: Callable[[int], Awaitable[Any]]) -> list[float]:
    samples = []
    for i in range(runs):
        started = time.perf_counter()
        await make(i)
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def add_percentiles(report: Report, key: str, label: str, samples: list[float]) -> None:
    for q in (0.5, 0.99):
        name = f"p{round(q * 100)}"
        report.add(f"{key}.{name}", f"{label} {name}", "ms", quantile(samples, q), goal="flat")


async def populate(db: Any, games: int, members: int, rng: random.Random) -> None:
    """Games, results, stakes and wallets written in bulk, consistent with the invariant."""
    # Server A has the first 80% of members, server B the last 50%: 30% play in both.
    pools = {
        GUILDS[0]: list(range(1, int(members * 0.8) + 1)),
        GUILDS[1]: list(range(int(members * 0.5) + 1, members + 1)),
    }
    balances: dict[tuple[int, int], int] = {}
    game_rows, result_rows, escrow_rows, ledger_rows = [], [], [], []
    for game_id in range(1, games + 1):
        guild = GUILDS[game_id % 2]
        key = rng.choice(GAME_KEYS)
        at = T0 + game_id * 30
        size = 4 if key == "board" else rng.randint(2, 4)
        users: list[int | None] = list(rng.sample(pools[guild], size))
        teams = key == "board"
        if not teams and rng.random() < 0.1:
            users[-1] = None  # a bot player
        order = list(range(1, size + 1))
        rng.shuffle(order)
        if teams:
            win_team = rng.randint(0, 1)
            order = [1 if i % 2 == win_team else 2 for i in range(size)]
        staked = None not in users and rng.random() < 0.2
        game_rows.append((game_id, guild, key, STAKE if staked else 0, at, at, at))
        for seat, (user, place) in enumerate(zip(users, order, strict=True)):
            result_rows.append(
                (game_id, seat, guild, key, user, f"p{user}", seat % 2 if teams else None,
                 rng.randint(0, 100), place, int(place == 1), rng.randint(0, 30), at)
            )  # fmt: skip
        if staked:
            winners = [u for u, p in zip(users, order, strict=True) if p == 1 and u is not None]
            share, rest = divmod(STAKE * size, len(winners))
            for user in users:
                assert user is not None
                balances[(guild, user)] = balances.get((guild, user), 1000) - STAKE
                escrow_rows.append((game_id, guild, user, STAKE, at, at))
                ledger_rows.append((guild, user, -STAKE, "escrow", game_id, at))
            for i, user in enumerate(winners):
                amount = share + (rest if i == 0 else 0)
                balances[(guild, user)] += amount
                ledger_rows.append((guild, user, amount, "payout", game_id, at))
    async with db.transaction() as conn:
        await conn.executemany(
            "INSERT INTO games (id, guild_id, channel_id, game_key, status, host_id, stake,"
            " state_json, created_at, updated_at, finished_at)"
            " VALUES (?, ?, 1, ?, 'finished', 1, ?, '{}', ?, ?, ?)",
            game_rows,
        )
        await conn.executemany(
            "INSERT INTO game_results (game_id, seat, guild_id, game_key, user_id, name, team,"
            " score, place, won, best_turn, finished_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            result_rows,
        )
        await conn.executemany(
            "INSERT INTO escrows (game_id, guild_id, user_id, amount, status, created_at,"
            " settled_at) VALUES (?, ?, ?, ?, 'paid', ?, ?)",
            escrow_rows,
        )
        starts = [(g, u, 1000, "start", None, T0) for (g, u) in sorted(balances)]
        await conn.executemany(
            "INSERT INTO ledger (guild_id, user_id, delta, kind, game_id, at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            starts + ledger_rows,
        )
        await conn.executemany(
            "INSERT INTO wallets (guild_id, user_id, balance, created_at) VALUES (?, ?, ?, ?)",
            [(g, u, balance, T0) for (g, u), balance in sorted(balances.items())],
        )
        await conn.executemany(
            "INSERT INTO members (guild_id, user_id, display_name, updated_at) VALUES (?,?,?,?)",
            [(g, u, f"Member {u}", T0) for g, pool in pools.items() for u in pool],
        )


async def store_section(dbs: Targets, sizes: Sizes, report: Report, seed: int) -> None:
    from bot.store.db import Database

    target = dbs.new("store")
    try:
        async with await Database.open(target) as db:
            await measure(db, sizes, report, random.Random(seed))
    finally:
        dbs.drop(target)


async def measure(db: Any, sizes: Sizes, report: Report, rng: random.Random) -> None:
    from bot.store import stats
    from bot.tables import wallets

    games_n, members = sizes.store_games, sizes.store_members
    started = time.perf_counter()
    await populate(db, games_n, members, rng)
    if db.engine == "postgresql":  # the ids were given: the identity goes on after them
        async with db.transaction() as conn:
            await conn.execute(
                "SELECT setval(pg_get_serial_sequence('games', 'id'), (SELECT MAX(id) FROM games))"
            )
    where = f"{games_n:,} games, {members:,} members"
    report.add("store.populate", f"store: populated {where}", "s", time.perf_counter() - started)
    started = time.perf_counter()
    rebuilt = await stats.rebuild_ratings(db)
    report.add(
        "store.rebuild",
        f"store: rebuild-ratings of {where} ({rebuilt.stat_rows:,} stat rows, "
        f"{rebuilt.rated_points:,} rating points)",
        "s",
        time.perf_counter() - started,
    )
    async with db.transaction() as conn:
        await conn.execute("ANALYZE")

    pages = max(1, members // 10)
    for scope in stats.SCOPES:
        for sort in stats.SORTS:

            async def board(i: int, scope: Any = scope, sort: Any = sort) -> None:
                await stats.leaderboard(
                    db, rng.choice(GAME_KEYS), scope, GUILDS[0], sort,
                    page=rng.randint(1, pages), viewer_id=rng.randint(1, members),
                )  # fmt: skip

            add_percentiles(
                report,
                f"store.board.{scope}.{sort}",
                f"store: leaderboard page, {scope} by {sort},",
                await timed(sizes.store_runs, board),
            )

    games: list[int] = []
    players = [members + 1 + i for i in range(4)]

    async def join(i: int) -> None:
        async with db.transaction() as conn:
            created = await conn.fetchone(
                "INSERT INTO games (guild_id, channel_id, game_key, status, host_id, stake,"
                " state_json, created_at, updated_at) VALUES (?, 1, ?, 'running', 1, ?,"
                " '{}', ?, ?) RETURNING id",
                (GUILDS[0], GAME_KEYS[0], STAKE, T0, T0),
            )
            games.append(int(created[0]))
            for user in players:
                await wallets.escrow(conn, games[-1], GUILDS[0], user, 1, now=T0)

    escrows = [ms / len(players) for ms in await timed(sizes.store_runs, join)]

    async def finish(i: int) -> None:
        game = games[i]
        async with db.transaction() as conn:
            for seat, user in enumerate(players):
                await conn.execute(
                    "INSERT INTO game_results (game_id, seat, guild_id, game_key, user_id,"
                    " name, score, place, won, finished_at) VALUES (?,?,?,?,?,?,0,?,?,?)",
                    (game, seat, GUILDS[0], GAME_KEYS[0], user, "x", seat + 1,
                     int(seat == 0), T0 + i),
                )  # fmt: skip
            await wallets.settle_pot(conn, game, [players[i % 4]], now=T0 + i)
            await stats.record_finished_game(conn, game)

    finishes = await timed(sizes.store_runs, finish)
    add_percentiles(report, "store.escrow", "store: escrow (one seat, own transaction)", escrows)
    add_percentiles(
        report, "store.finish", "store: finish (results + payout + stats, 4 seats)", finishes
    )
    check = await wallets.check_invariant(db)
    if not check.ok:
        raise RuntimeError(f"the ledger invariant is broken after the store section: {check}")
