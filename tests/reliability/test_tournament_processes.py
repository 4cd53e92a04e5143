"""Two bot processes on one PostgreSQL end a tournament round's last matches at the same
moment (issue 25.8): each process resigns one table through its own table service and
connection pool, so each match's end is recorded in its own table's finishing transaction.
The next round is paired and opened once, its standings posted once, the live message
redrawn once per change, and at the end the prize is paid once."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from typing import Any

import pytest

from bot.config import Settings
from bot.games.registry import Games
from bot.store import tournaments as store
from bot.store.db import Database
from bot.tables import wallets
from bot.tables.fair_play import FairPlay
from bot.tables.kernel import TableKernel
from bot.tables.service import TableService
from bot.tables.tournaments import Tournaments
from bot.tables.wallet_hooks import WalletHooks
from tests.fakes import FakeClock

GUILD, CHANNEL = 10, 20
SETTINGS = {"variant": "standard", "rounds": 1, "target": None, "soft_last_die": False}


def process(db: Database, clock: FakeClock, seed: int) -> Tournaments:
    settings = Settings(_env_file=None, start_cooldown_seconds=0)  # type: ignore[call-arg]
    tables = TableService(
        TableKernel(
            db, Games(), settings.table_limits(), clock, random.Random(seed), WalletHooks(clock)
        )
    )
    return Tournaments(db, tables, clock)


async def test_two_processes_end_a_round_together_and_it_advances_once(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Widen the race: a process that has recorded its match reads the round's matches,
    # then waits a moment before acting on what it read, so the other process's end lands
    # meanwhile. Without the tournament's lock each would read the other's match still
    # playing and neither would pair the next round.
    read = store.matches

    async def slow_read(*args: Any, **kwargs: Any) -> list[Any]:
        found = await read(*args, **kwargs)
        await asyncio.sleep(0.1)
        return found

    monkeypatch.setattr(store, "matches", slow_read)
    one, two = await Database.open(postgres_url), await Database.open(postgres_url)
    try:
        clock = FakeClock()
        a, b = process(one, clock, 1), process(two, clock, 2)
        for attempt in range(4):  # the two ends race differently each time
            made = await a.create(
                guild_id=GUILD, channel_id=CHANNEL, kind="sequences", settings=SETTINGS,
                format="swiss", rounds=2, fee=10, actor_id=999,
            )  # fmt: skip
            tid = made.id
            base = 100 * attempt
            for user in range(base + 1, base + 5):
                await a.join(tid, user, f"P{user}")
            await a.set_message(tid, 5000 + attempt)  # its sign-up message: the live one
            await a.start(tid)
            await a.open_pending(tid)
            await a.due_posts()  # round one's standings
            await a.redraws()
            for round_number in (1, 2):
                playing = [m for m in (await a.picture(tid)).matches if m.round == round_number]
                assert len(playing) == 2 and all(m.status == "playing" for m in playing)
                # At the same moment: process one's table ends (the higher number
                # resigns); in process two the other table ends too in round one, and in
                # round two the organiser sets its result instead (the lower number wins).
                # Games ending on one server also queue for its season; an override does
                # not, so round two leans on the tournament's own lock alone.
                second_end = (
                    FairPlay(b.tables.kernel).resign(
                        playing[1].game_id or 0, max(playing[1].seated)
                    )
                    if round_number == 1
                    else b.override(playing[1].id, min(playing[1].seated), 999, "Org")
                )
                await asyncio.gather(
                    FairPlay(a.tables.kernel).resign(
                        playing[0].game_id or 0, max(playing[0].seated)
                    ),
                    second_end,
                )
                # Both processes' next ticks at once, in post_due's order: redraw the
                # live message, open the tables, post the standings.
                redraws = await asyncio.gather(a.redraws(), b.redraws())
                opened = await asyncio.gather(a.open_pending(tid), b.open_pending(tid))
                posts = await asyncio.gather(a.due_posts(), b.due_posts())
                picture = await a.picture(tid)
                if round_number == 1:
                    assert picture.tournament.round == 2
                    second = [m for m in picture.matches if m.round == 2]
                    assert len(second) == 2  # paired once
                    assert sum(len(x) for x in opened) == 2  # each table opened once
                    assert sorted(m.game_id or 0 for m in second) == sorted(opened[0] + opened[1])
                else:
                    assert picture.tournament.status == "finished"
                    assert opened == [[], []]
                assert sum(len(x) for x in posts) == 1  # the standings posted once
                assert sum(len(x) for x in redraws) == 1  # one process redraws it, once
            tables = await one.fetchall(
                "SELECT m.game_id FROM tournament_matches m WHERE m.tournament_id = ?", (tid,)
            )
            assert len(tables) == 4 and len({r[0] for r in tables}) == 4
            payouts = await one.fetchall(
                "SELECT user_id, delta FROM ledger WHERE kind = 'payout' AND reason = ?",
                (f"tournament:{tid}",),
            )
            # Two rounds, the lower number winning: base + 1 won both, and the pool of 40.
            assert Counter((int(u), int(d)) for u, d in payouts) == {(base + 1, 40): 1}
        assert (await wallets.check_invariant(one)).ok
    finally:
        await one.close()
        await two.close()
