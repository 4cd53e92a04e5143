"""Issue 7.1, with a real dead process: the child is killed (``os._exit``) before each SQL
statement of a step in turn, and after its COMMIT; the parent then opens the database as a
restarted bot would. Every time: the integrity check passes and the table is exactly the
state before the step, or (killed after COMMIT) exactly the state after it."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import Settings
from bot.games.registry import Games
from bot.store.db import Database
from bot.tables.kernel import TableKernel
from bot.tables.service import TableService
from tests.fakes import FakeClock
from tests.reliability.helpers import snapshot

ROOT = Path(__file__).resolve().parents[2]
ANA, BO = 1, 2


async def prepare(path: Path, started: bool) -> None:
    db = await Database.open(path)
    service = TableService(
        TableKernel(
            db,
            Games(),
            Settings(_env_file=None, start_cooldown_seconds=0).table_limits(),
            FakeClock(),
            random.Random(1),
        )
    )
    settings = {"variant": "standard", "rounds": 1, "target": None, "soft_last_die": False}
    table = await service.open_lobby(
        guild_id=10, channel_id=20, host_id=ANA, host_name="Ana", kind="sequences",
        settings=settings,
    )  # fmt: skip
    await service.join(table.id, BO, "Bo")
    if started:
        await service.start(table.id, ANA)
    await db.close()


def child(path: Path, op: str, kill_at: int) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "tests.reliability.killer", str(path), op, str(kill_at)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize("op", ["join", "throw"])
async def test_a_killed_process_leaves_the_step_all_or_nothing(tmp_path: Path, op: str) -> None:
    base = tmp_path / "base.sqlite3"
    await prepare(base, started=op == "throw")
    db = await Database.open(base)
    before = await snapshot(db)
    await db.close()

    # A full run tells how many statements the step makes and what it leaves behind.
    full = tmp_path / "full.sqlite3"
    full.write_bytes(base.read_bytes())
    done = child(full, op, 10_000)
    assert done.returncode == 0, done.stderr
    statements = int(done.stdout.strip())
    db = await Database.open(full)
    after = await snapshot(db)
    await db.close()
    assert after != before and statements >= 4  # reads, BEGIN, writes, COMMIT

    for kill_at in range(1, statements + 1):
        path = tmp_path / f"kill{kill_at}.sqlite3"
        path.write_bytes(base.read_bytes())
        killed = child(path, op, kill_at)
        assert killed.returncode == 137, killed.stderr
        db = await Database.open(path)  # runs the integrity check
        try:
            assert await snapshot(db) == before, f"killed before statement {kill_at}"
        finally:
            await db.close()

    # Killed right after COMMIT (the step's last statement ran): the step stands.
    path = tmp_path / "after.sqlite3"
    path.write_bytes(base.read_bytes())
    killed = child(path, op, 0)
    assert killed.returncode == 137, killed.stderr
    db = await Database.open(path)
    try:
        assert await snapshot(db) == after
    finally:
        await db.close()
