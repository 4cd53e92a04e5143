"""The rebuild-ratings and bench-store subcommands run end to end."""

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


def test_bench_store_cli_small(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench-store", "--games", "300", "--members", "40", "--runs", "3"]) == 0
    out = capsys.readouterr().out
    assert "global win_rate" in out and "invariant holds" in out
