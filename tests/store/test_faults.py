"""A payout interrupted anywhere, by an exception or by a killed process, pays exactly once.

The database's statement hook makes the k-th statement (BEGIN and COMMIT included) raise,
or end the process with os._exit, for every k up to the statements a payout takes. On both
engines.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.store import stats
from bot.store.db import AFTER_COMMIT, Database
from bot.tables import wallets as w
from tests.backends import DbTarget
from tests.store.helpers import GUILD, T0, S, create_game, write_results

STAKE = 25
PLAYERS = (1, 2, 3, 4)
WINNERS = [3, 1, 4]  # a winning team of three: 100 -> 34, 33, 33


class Fault(Exception):
    pass


def fault_at(db: Database, k: int, on_fault: Callable[[], None]) -> list[int]:
    """From now on, the k-th statement on ``db`` calls ``on_fault`` before it runs (k = 0:
    never). Returns the count of statements seen so far, as a one-item list."""
    count = [0]

    def on_statement(sql: str) -> None:
        if sql == AFTER_COMMIT:
            return
        count[0] += 1
        if count[0] == k:
            on_fault()

    db.on_statement = on_statement
    return count


async def set_up_pot(path: str) -> int:
    """A staked game with four players in, its results written: ready to pay."""
    async with await Database.open(path) as db:
        async with db.transaction() as conn:
            game = await create_game(conn, stake=STAKE)
            for user in PLAYERS:
                await w.escrow(conn, game, GUILD, user, STAKE, now=T0)
        async with db.transaction() as conn:
            await write_results(
                conn, game, [S(u, 1 if u in WINNERS else 2, team=int(u == 2)) for u in PLAYERS]
            )
    return game


async def finish(db: Database, game: int) -> None:
    """What the table layer does when a game ends: pay the pot and record the stats."""
    async with db.transaction() as conn:
        await w.settle_pot(conn, game, WINNERS, now=T0)
        await stats.record_finished_game(conn, game)


async def check_after(db: Database, game: int, *, paid: bool | None = None) -> None:
    report = await w.check_invariant(db)
    assert report.ok, report
    statuses = {row[0] for row in await db.fetchall(
        "SELECT status FROM escrows WHERE game_id = ?", (game,))}  # fmt: skip
    # All or nothing: never some stakes paid and others held.
    assert statuses in ({"held"}, {"paid"})
    recorded = await db.fetchone("SELECT 1 FROM recorded_games WHERE game_id = ?", (game,))
    assert (statuses == {"paid"}) == (recorded is not None)
    if paid is not None:
        assert (statuses == {"paid"}) == paid


async def check_paid_once(db: Database, game: int) -> None:
    balances = [await w.balance(db, GUILD, u) for u in PLAYERS]
    assert balances == [1_008, 975, 1_009, 1_008]
    payouts = await db.fetchall(
        "SELECT user_id, delta FROM ledger WHERE game_id = ? AND kind = 'payout' ORDER BY id",
        (game,),
    )
    assert [tuple(row) for row in payouts] == [(3, 34), (1, 33), (4, 33)]
    line = (await stats.player_stats(db, GUILD, 1))[0]
    assert line.games == 1 and line.chips_won == 8


async def statements_in_a_payout(path: str) -> int:
    game = await set_up_pot(path)
    async with await Database.open(path) as db:
        count = fault_at(db, 0, lambda: None)
        await finish(db, game)
    return count[0]


async def test_exception_between_any_two_statements_of_a_payout(db_target: DbTarget) -> None:
    total = await statements_in_a_payout(db_target("count"))
    assert total > 20  # BEGIN, the payout, the stats, COMMIT
    path = db_target("bot")
    game = await set_up_pot(path)
    async with await Database.open(path) as db:

        def boom() -> None:
            raise Fault

        for k in range(1, total + 1):
            fault_at(db, k, boom)
            with pytest.raises(Fault):
                await finish(db, game)
            db.on_statement = None
            await check_after(db, game, paid=False)
        await finish(db, game)
        await check_after(db, game, paid=True)
        await finish(db, game)  # a retry after success changes nothing
        await check_paid_once(db, game)


CHILD = textwrap.dedent(
    """
    import asyncio, os, sys
    from bot.store.db import Database
    from tests.store.test_faults import fault_at, finish

    async def main(path, game, k):
        db = await Database.open(path)
        fault_at(db, k, lambda: os._exit(137))
        await finish(db, game)
        os._exit(0)

    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
    """
)


async def run_child(*args: str) -> int:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", CHILD, *args, cwd=Path(__file__).parents[2]
    )
    return await proc.wait()


async def test_process_killed_between_any_two_statements_of_a_payout(
    db_target: DbTarget,
) -> None:
    total = await statements_in_a_payout(db_target("count"))
    paths = []
    for k in range(1, total + 2):  # total + 1: the child finishes and exits cleanly
        path = db_target(f"k{k}")
        game = await set_up_pot(path)
        paths.append((k, path))
    limit = asyncio.Semaphore(os.cpu_count() or 2)

    async def one(k: int, path: str) -> None:
        async with limit:
            code = await run_child(path, str(game), str(k))
        assert code == (137 if k <= total else 0)
        async with await Database.open(path) as db:  # the restart
            # Killed before COMMIT ran: nothing paid; at or after it: all paid.
            await check_after(db, game)
            await finish(db, game)
            await check_after(db, game, paid=True)
            await check_paid_once(db, game)

    await asyncio.gather(*(one(k, path) for k, path in paths))


LOOP_CHILD = textwrap.dedent(
    """
    import asyncio, sys
    from bot.store import stats
    from bot.tables import wallets as w
    from bot.store.db import Database
    from tests.store.helpers import GUILD, T0, S, create_game, write_results

    async def main(path):
        db = await Database.open(path)
        n = 0
        while True:
            n += 1
            players = [1 + (n + i) % 6 for i in range(3)]
            async with db.transaction() as conn:
                game = await create_game(conn, stake=5)
                for u in players:
                    await w.escrow(conn, game, GUILD, u, 5, now=T0 + n)
            async with db.transaction() as conn:
                await write_results(conn, game, [S(u, 1 + (u == players[0])) for u in players])
                await w.settle_pot(conn, game, players[1:], now=T0 + n)
                await stats.record_finished_game(conn, game)
            if n == 5:
                print("ready", flush=True)

    asyncio.run(main(sys.argv[1]))
    """
)


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_sigkill_at_a_random_moment(db_target: DbTarget, seed: int) -> None:
    path = db_target("bot")
    async with await Database.open(path):
        pass  # the schema exists before the child starts
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", LOOP_CHILD, path,
        cwd=Path(__file__).parents[2], stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert proc.stdout is not None
    assert (await proc.stdout.readline()).strip() == b"ready"
    await asyncio.sleep(random.Random(seed).uniform(0.05, 0.5))
    proc.send_signal(signal.SIGKILL)
    assert await proc.wait() == -signal.SIGKILL
    async with await Database.open(path) as db:
        assert (await w.check_invariant(db)).ok
        # A game whose finish was lost is paid by the retry, once.
        pending = await db.fetchall(
            "SELECT g.id FROM games g JOIN game_results r ON r.game_id = g.id"
            " LEFT JOIN recorded_games d ON d.game_id = g.id WHERE d.game_id IS NULL"
        )
        assert pending == []
        games = await db.fetchall("SELECT id FROM games ORDER BY id")
        for (game,) in games:
            players = await db.fetchall(
                "SELECT user_id FROM escrows WHERE game_id = ? ORDER BY id", (game,)
            )
            winners = [row[0] for row in players][1:]
            await finish_with(db, game, winners)
            await finish_with(db, game, winners)
        report = await w.check_invariant(db)
        assert report.ok and report.held == 0
        assert report.balances == report.minted


async def finish_with(db: Database, game: int, winners: list[int]) -> None:
    async with db.transaction() as conn:
        await w.settle_pot(conn, game, winners, now=T0)
