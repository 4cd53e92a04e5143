"""``python -m bot reports`` (issue 36): the operator's list of reported tables, with each
table's places and the reason as written, a member's control characters made harmless."""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.cli import reports as cli
from bot.records import EVERYWHERE
from bot.store import reports
from bot.store.db import Database
from tests.store.helpers import new_game

ROOT = Path(__file__).resolve().parents[2]


async def seed(path: Path) -> tuple[int, int]:
    now = time.time()
    async with await Database.open(str(path)) as db:
        here, across = await new_game(db, guild_id=111), await new_game(db, guild_id=EVERYWHERE)
        async with db.transaction() as conn:
            for position, (guild, channel, thread) in enumerate(((111, 40, 41), (222, 50, 51))):
                await conn.execute(
                    "INSERT INTO table_places (game_id, guild_id, position, channel_id,"
                    " thread_id, user_ids) VALUES (?, ?, ?, ?, ?, '[]')",
                    (across, guild, position, channel, thread),
                )
        await reports.add(
            db,
            game_id=here,
            user_id=7,
            guild_id=111,
            channel_id=9,
            reason="old",
            now=now - 9 * 86_400,
        )
        await reports.add(
            db, game_id=across, user_id=8, guild_id=222, channel_id=51,
            reason="stalls\nevery turn \x1b[2J<@1>", now=now - 60,
        )  # fmt: skip
    return here, across


def test_reports_lists_recent_reports_with_their_places(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bot.sqlite3"
    _, across = asyncio.run(seed(path))
    assert cli.run(argparse.Namespace(since=7.0, database=path)) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"table #{across} · ")
    assert out[0].endswith(" · reported by member 8 from server 222, channel 51")
    assert out[1:] == [
        "  shown in server 111: channel 40, thread 41",
        "  shown in server 222: channel 50, thread 51",
        "  reason: stalls",
        "          every turn \ufffd[2J<@1>",
    ]
    assert cli.run(argparse.Namespace(since=30.0, database=path)) == 0
    longer = capsys.readouterr().out
    assert "table #1 · " in longer and "  shown in server 111: channel 1, no thread" in longer
    assert "  reason: old" in longer


def test_reports_with_none_and_bad_days(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    asyncio.run(seed(path))
    run = [sys.executable, "-m", "bot", "reports", "--database", str(path)]
    quiet = subprocess.run([*run, "--since", "0.0001"], capture_output=True, text=True, cwd=ROOT)
    assert quiet.returncode == 0 and quiet.stdout.strip() == (
        "no table reported in the last 0.0001 days"
    )
    bad = subprocess.run([*run, "--since", "-3"], capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode == 2 and "give a number of days above 0" in bad.stderr
