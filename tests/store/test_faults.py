"""A payout interrupted anywhere, by an exception or by a killed process, pays exactly once.

The connection is wrapped so that the k-th statement (BEGIN and COMMIT included) raises, or
ends the process with os._exit, for every k up to the statements a payout takes.
"""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import signal
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.store import stats
from bot.store import wallets as w
from bot.store.db import Database
from tests.store.helpers import GUILD, T0, S, create_game, write_results

STAKE = 25
PLAYERS = (1, 2, 3, 4)
WINNERS = [3, 1, 4]  # a winning team of three: 100 -> 34, 33, 33


class Fault(Exception):
    pass


class FaultyConnection:
    """Delegates to the real connection; on the k-th execute calls ``on_fault``."""

    def __init__(self, conn: Any, fail_at: int, on_fault: Callable[[], None]) -> None:
        self._conn = conn
        self.count = 0
        self.fail_at = fail_at
        self.on_fault = on_fault

    def execute(self, sql: str, params: Any = ()) -> Any:
        self.count += 1
        if self.count == self.fail_at:
            self.on_fault()
        return self._conn.execute(sql, params)

    @property
    def in_transaction(self) -> bool:
        return bool(self._conn.in_transaction)


async def set_up_pot(path: Path) -> int:
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


async def statements_in_a_payout(tmp_path: Path) -> int:
    path = tmp_path / "count.sqlite3"
    game = await set_up_pot(path)
    async with await Database.open(path) as db:
        counter = FaultyConnection(db.conn, 0, lambda: None)
        db.conn = counter  # type: ignore[assignment]
        await finish(db, game)
        db.conn = counter._conn
    return counter.count


async def test_exception_between_any_two_statements_of_a_payout(tmp_path: Path) -> None:
    total = await statements_in_a_payout(tmp_path)
    assert total > 20  # BEGIN, the payout, the stats, COMMIT
    path = tmp_path / "bot.sqlite3"
    game = await set_up_pot(path)
    async with await Database.open(path) as db:
        real = db.conn

        def boom() -> None:
            raise Fault

        for k in range(1, total + 1):
            db.conn = FaultyConnection(real, k, boom)  # type: ignore[assignment]
            with pytest.raises(Fault):
                await finish(db, game)
            db.conn = real
            await check_after(db, game, paid=False)
        await finish(db, game)
        await check_after(db, game, paid=True)
        await finish(db, game)  # a retry after success changes nothing
        await check_paid_once(db, game)


CHILD = textwrap.dedent(
    """
    import asyncio, os, sys
    from bot.store.db import Database
    from tests.store.test_faults import FaultyConnection, finish

    async def main(path, game, k):
        db = await Database.open(path)
        db.conn = FaultyConnection(db.conn, k, lambda: os._exit(137))
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


async def test_process_killed_between_any_two_statements_of_a_payout(tmp_path: Path) -> None:
    total = await statements_in_a_payout(tmp_path)
    template = tmp_path / "template.sqlite3"
    game = await set_up_pot(template)
    paths = []
    for k in range(1, total + 2):  # total + 1: the child finishes and exits cleanly
        path = tmp_path / f"k{k}.sqlite3"
        shutil.copy(template, path)
        paths.append((k, path))
    limit = asyncio.Semaphore(os.cpu_count() or 2)

    async def one(k: int, path: Path) -> None:
        async with limit:
            code = await run_child(str(path), str(game), str(k))
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
    from bot.store import stats, wallets as w
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
async def test_sigkill_at_a_random_moment(tmp_path: Path, seed: int) -> None:
    path = tmp_path / "bot.sqlite3"
    async with await Database.open(path):
        pass  # the schema exists before the child starts
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", LOOP_CHILD, str(path),
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
