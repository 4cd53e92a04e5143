"""``python -m bot bench-store``: time leaderboards, escrows and payouts on a big database.

Builds a throwaway database with (by default) 100,000 finished games among 10,000 members in
two servers, rebuilds the stats from them, then prints p50/p99 milliseconds for every
leaderboard sort and scope, for one escrow and for one payout transaction.
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
    from bot.store import stats, wallets
    from bot.store.db import Database

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
        await db.conn.execute("ANALYZE")

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
                cursor = await conn.execute(
                    "INSERT INTO games (guild_id, channel_id, game_key, status, host_id, stake,"
                    " state_json, created_at, updated_at) VALUES (?, 1, ?, 'running', 1, ?,"
                    " '{}', ?, ?)",
                    (GUILDS[0], GAME_KEYS[0], STAKE, T0, T0),
                )
                assert cursor.lastrowid is not None
                games.append(cursor.lastrowid)
                for user in players:
                    await wallets.escrow(conn, cursor.lastrowid, GUILDS[0], user, 1, now=T0)

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


def run(args: argparse.Namespace) -> int:
    if args.keep is not None:
        if args.keep.exists():
            print(f"error: {args.keep} exists; --keep builds a new database")
            return 2
        asyncio.run(_bench(args, args.keep))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(_bench(args, Path(tmp) / "bench.sqlite3"))
    return 0
