"""``python -m bot bench-store``: time leaderboards, escrows and payouts on a big database.

Builds a throwaway database with (by default) 100,000 finished games among 10,000 members in
two servers, rebuilds the stats from them, then prints p50/p99 milliseconds for every
leaderboard sort and scope, for one escrow and for one payout transaction.

``--write-path`` measures the table service's write path instead (docs/performance.md):
commits/s one change at a time, a burst of concurrent saves on different tables, and the
round trips to aiosqlite's worker thread per click.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

GAME_KEYS = ("sequences:standard", "sequences:classic", "heartsdue", "board")
GUILDS = (1001, 1002)
STAKE = 10
T0 = 1_780_000_000.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--members", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=200, help="timed runs per measurement")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--keep", type=Path, default=None, help="build the database here and keep it (new file)"
    )
    parser.add_argument(
        "--write-path",
        action="store_true",
        help="time the table write path (commits/s, bursts, round trips per click) only",
    )
    parser.add_argument("--burst", type=int, default=1000, help="tables saved at once")
    parser.add_argument("--serial", type=int, default=3000, help="changes one after another")


def _percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return f"p50 {statistics.median(ordered):7.2f} ms   p99 {p99:7.2f} ms"


async def _timed(runs: int, make: Callable[[int], Awaitable[Any]]) -> list[float]:
    samples = []
    for i in range(runs):
        started = time.perf_counter()
        await make(i)
        samples.append((time.perf_counter() - started) * 1000)
    return samples


async def _populate(db: Any, games: int, members: int, rng: random.Random) -> None:
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


async def _bench(args: argparse.Namespace, path: Path) -> None:
    from bot.store import stats
    from bot.store.db import Database
    from bot.tables import wallets

    rng = random.Random(args.seed)
    async with await Database.open(path) as db:
        started = time.perf_counter()
        await _populate(db, args.games, args.members, rng)
        print(f"populated {args.games:,} games, {args.members:,} members "
              f"in {time.perf_counter() - started:.1f} s")  # fmt: skip
        started = time.perf_counter()
        report = await stats.rebuild_ratings(db)
        elapsed = time.perf_counter() - started
        print(f"rebuild-ratings: {report.stat_rows:,} stat rows, "
              f"{report.rated_points:,} rating points in {elapsed:.1f} s")  # fmt: skip
        await db.fetchall("ANALYZE")

        print("\nleaderboard (page of 10, random page and viewer):")
        pages = max(1, args.members // 10)
        for scope in stats.SCOPES:
            for sort in stats.SORTS:

                async def board(i: int, scope: Any = scope, sort: Any = sort) -> None:
                    await stats.leaderboard(
                        db, rng.choice(GAME_KEYS), scope, GUILDS[0], sort,
                        page=rng.randint(1, pages), viewer_id=rng.randint(1, args.members),
                    )  # fmt: skip

                samples = await _timed(args.runs, board)
                print(f"  {scope:6} {sort:8}  {_percentiles(samples)}")

        games: list[int] = []
        players = [args.members + 1 + i for i in range(4)]

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

        escrow_samples = [ms / len(players) for ms in await _timed(args.runs, join)]

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

        finish_samples = await _timed(args.runs, finish)
        print(f"\nescrow (one seat, own transaction)          {_percentiles(escrow_samples)}")
        print(f"finish (results + payout + stats, 4 seats)  {_percentiles(finish_samples)}")
        check = await wallets.check_invariant(db)
        print(f"\ninvariant {'holds' if check.ok else 'BROKEN'}: {check}")


async def _write_path(args: argparse.Namespace, path: Path) -> None:
    from bot.config import Settings
    from bot.games.registry import Games
    from bot.store.db import Database
    from bot.tables.service import TableService

    now = [T0]
    settings = Settings(_env_file=None, start_cooldown_seconds=0)  # type: ignore[call-arg]
    async with await Database.open(path) as db:
        service = TableService(
            db, Games(), settings.table_limits(), lambda: now[0], random.Random(args.seed)
        )
        push = {"variant": "standard", "rounds": 50, "target": None, "soft_last_die": False}
        lobby = await service.open_lobby(
            guild_id=GUILDS[0], channel_id=1, host_id=1, host_name="Ana", kind="sequences",
            settings=push,
        )  # fmt: skip
        await service.join(lobby.id, 2, "Bo")
        await service.start(lobby.id, 1)
        hops = [0]
        from bot.store.sqlite import SqliteDatabase

        assert isinstance(db, SqliteDatabase)  # counts hops to aiosqlite's thread
        real: Callable[..., Awaitable[Any]] = db.conn._execute

        async def counting(fn: Any, *a: Any, **kw: Any) -> Any:
            hops[0] += 1
            return await real(fn, *a, **kw)

        db.conn._execute = counting  # type: ignore[method-assign]

        # Round trips per click: the service's act, which reads the table once under its
        # lock (and, on a turn change, the new message id), counted at aiosqlite's queue.
        act, located, clicks, turns = 0, 0, 0, 0
        for _ in range(200):
            table = await service.get(lobby.id)  # the benchmark's own: who plays, what
            assert table.rules is not None
            user = table.seats[table.rules.current].user_id
            assert user is not None
            action = "throw" if table.rules.phase == "throw" else "bank"
            hops[0] = 0
            change = await service.act(lobby.id, user, table.version, action)
            act += hops[0]
            clicks += 1
            if change.turn_changed:
                hops[0] = 0
                await service.set_game_message(lobby.id, thread_id=None, message_id=clicks)
                located += hops[0]
                turns += 1
            if change.finished:
                break
        print("round trips to aiosqlite's thread per push-your-luck click")
        print(f"  act {act / clicks:.1f} (its read included);"
              f" set_game_message on a turn change {located / max(turns, 1):.1f}"
              f" ({clicks} clicks, {turns} turn changes)")  # fmt: skip

        # Copies of the table's row: one table per concurrent save of the burst.
        async with db.transaction() as conn:
            await conn.executemany(
                "INSERT INTO games (guild_id, channel_id, game_key, status, host_id, stake,"
                " state_json, version, created_at, updated_at) SELECT guild_id, channel_id,"
                " game_key, status, host_id, stake, state_json, 1, created_at, updated_at"
                " FROM games WHERE id = ?",
                [(lobby.id,)] * args.burst,
            )
        ids = [r[0] for r in await db.fetchall("SELECT id FROM games WHERE id != ?", (lobby.id,))]
        tables = [await service.get(i) for i in ids]

        table = tables[0]
        samples = []
        started = time.perf_counter()
        for _ in range(args.serial):
            t0 = time.perf_counter()
            await service._save(table, 1, "bench", {})
            samples.append((time.perf_counter() - t0) * 1000)
        elapsed = time.perf_counter() - started
        print("\none change per commit, one after another (TableService._save)")
        print(f"  {args.serial / elapsed:8,.0f} commits/s   {_percentiles(samples)}")

        print(f"\nburst: {len(tables):,} concurrent saves on {len(tables):,} tables")

        async def save(t: Any, started: float, latencies: list[float]) -> None:
            await service._save(t, 1, "bench", {})
            latencies.append((time.perf_counter() - started) * 1000)

        for _ in range(3):
            hops[0] = 0
            latencies: list[float] = []
            burst_started = time.perf_counter()
            await asyncio.gather(*(save(t, burst_started, latencies) for t in tables))
            elapsed = time.perf_counter() - burst_started
            print(f"  {len(tables) / elapsed:8,.0f} changes/s   {_percentiles(latencies)}"
                  f"   {hops[0]:,} round trips")  # fmt: skip
        db.conn._execute = real  # type: ignore[method-assign,assignment]


def run(args: argparse.Namespace) -> int:
    if args.write_path:
        with tempfile.TemporaryDirectory() as tmp:
            asyncio.run(_write_path(args, Path(tmp) / "bench.sqlite3"))
        return 0
    if args.keep is not None:
        if args.keep.exists():
            print(f"error: {args.keep} exists; --keep builds a new database")
            return 2
        asyncio.run(_bench(args, args.keep))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(_bench(args, Path(tmp) / "bench.sqlite3"))
    return 0
