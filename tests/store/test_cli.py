"""The rebuild-ratings subcommand and the bench's store section run end to end."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.store import stats
from bot.store.db import Database
from tests.store.helpers import S, create_game, write_results


async def _one_game(path: Path) -> None:
    async with await Database.open(path) as db, db.transaction() as conn:
        game = await create_game(conn)
        await write_results(conn, game, [S(1, 1), S(2, 2)])
        await stats.record_finished_game(conn, game)


def test_rebuild_ratings_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bot.sqlite3"
    asyncio.run(_one_game(path))
    assert main(["rebuild-ratings", "--database", str(path)]) == 0
    assert "rebuilt 4 stat rows and 4 rating points from 1 games" in capsys.readouterr().out
    assert main(["rebuild-ratings", "--database", str(tmp_path / "missing.sqlite3")]) == 2


def test_bench_store_section_small(capsys: pytest.CaptureFixture[str]) -> None:
    """300 games among 40 members (``--quick``); the section raises if the ledger's invariant
    does not hold after its escrows and payouts."""
    assert main(["bench", "--quick", "--only", "store"]) == 0
    out = capsys.readouterr().out
    assert "leaderboard page, global by win_rate, p99" in out and "300 games" in out
