"""Issue 7.8: operator safety. A database the bot cannot use is one clear line at start; a
backup taken while games are being played is consistent; forgetting a member removes every
trace of them while other players' results and the chip ledger still add up."""

from __future__ import annotations

import asyncio
import json
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import Settings
from bot.errors import UserError
from bot.games.registry import Games
from bot.games.words import event_lines
from bot.store import wallets
from bot.store.db import Database
from bot.store.privacy import DELETED, ID_COLUMNS, forget_member
from bot.tables.kernel import TableKernel
from bot.tables.service import TableService
from bot.tables.wallet_hooks import WalletHooks
from tests.backends import DbTarget
from tests.discord.conftest import MakeEnv
from tests.fakes import FakeClock

ROOT = Path(__file__).resolve().parents[2]


def bot_command(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD", "DATABASE"))}
    clean.update(env, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd, env=clean, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


@pytest.mark.parametrize("problem", ["newer", "not a database", "corrupt"])
def test_an_unusable_database_is_one_clear_line(tmp_path: Path, problem: str) -> None:
    path = tmp_path / "bot.sqlite3"
    if problem == "newer":
        conn = sqlite3.connect(path)
        conn.execute("PRAGMA user_version = 99")
        conn.close()
    elif problem == "not a database":
        path.write_bytes(b"these are not the pages you are looking for" * 200)
    else:
        conn = sqlite3.connect(path)
        conn.execute("CREATE TABLE t (x TEXT)")
        conn.executemany("INSERT INTO t VALUES (?)", [("x" * 500,)] * 400)
        conn.commit()
        conn.close()
        data = bytearray(path.read_bytes())
        data[4096 * 3 : 4096 * 3 + 2000] = b"\xff" * 2000  # scribble over a page
        path.write_bytes(bytes(data))
    result = bot_command(tmp_path, DISCORD_TOKEN="x", DATABASE_PATH=str(path))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert str(path) in lines[0]
    assert {"newer": "newer version", "not a database": "cannot be read"}.get(
        problem, "restore a backup"
    ) in lines[0]


async def open_service(path: Path, seed: int) -> tuple[Database, TableService]:
    db = await Database.open(path)
    clock = FakeClock()
    settings = Settings(_env_file=None, start_cooldown_seconds=0, max_lobbies_per_channel=50,
                        max_games_per_guild=500)  # fmt: skip
    return db, TableService(
        TableKernel(
            db, Games(), settings.table_limits(), clock, random.Random(seed), WalletHooks(clock)
        )
    )


async def busy_tables(service: TableService, rounds: int) -> None:
    """Staked lobbies opening, filling, emptying and games being played, nonstop."""
    rng = random.Random(5)
    settings = {"variant": "standard", "rounds": 1, "target": None, "soft_last_die": False}
    for i in range(rounds):
        table = await service.open_lobby(
            guild_id=1, channel_id=2 + i % 7, host_id=10, host_name="Host", kind="sequences",
            settings=settings, stake=5,
        )  # fmt: skip
        for user in (11, 12, 13):
            await service.join(table.id, user, f"P{user}")
        await service.leave(table.id, 13)
        if rng.random() < 0.3:
            await service.cancel(table.id, 10, False)
            continue
        await service.start(table.id, 10)
        for _ in range(40):
            current = await service.get(table.id)
            if current.status != "running" or current.rules is None:
                break
            user = current.seats[current.rules.current].user_id
            assert user is not None
            action = "throw" if current.rules.phase == "throw" else "bank"
            await service.act(table.id, user, current.version, action)
        await asyncio.sleep(0)


async def test_backup_while_games_run_is_consistent(tmp_path: Path) -> None:
    path = tmp_path / "live.sqlite3"
    db, service = await open_service(path, 1)
    await busy_tables(service, 3)
    writer = asyncio.create_task(busy_tables(service, 60))
    copies = []
    for n in range(3):  # copies taken at different moments of the writing
        target = tmp_path / f"copy{n}.sqlite3"
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "backup", str(target), "--database", str(path),
            env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        out, err = await proc.communicate()
        assert proc.returncode == 0, err.decode()
        assert out.decode().count("\n") == 1 and "ok" in out.decode()
        copies.append(target)
    await writer
    await db.close()
    for target in copies:
        copy = await Database.open(target)  # integrity check included
        try:
            assert (await wallets.check_invariant(copy)).ok
            # Whole changes only: each version bump came with exactly one log entry.
            torn = await copy.fetchall(
                "SELECT g.id FROM games g WHERE g.version + 1 <> "
                "(SELECT COUNT(*) FROM game_log l WHERE l.game_id = g.id)"
            )
            assert torn == []
        finally:
            await copy.close()
    again = bot_command(tmp_path, "backup", str(copies[0]), "--database", str(path))
    assert again.returncode == 2 and "already exists" in again.stderr


async def test_forget_removes_a_member_and_keeps_the_sums(make_env: MakeEnv) -> None:
    env = await make_env(seed=6)
    zelda = await env.h.member("Zelda Quux")
    bo = await env.h.member("Bo")
    mod = await env.h.member("Mod", manage_guild=True)
    lobby = (await zelda.slash("sequences start", rounds=1, stake=50)).message
    await bo.click(lobby, "Join")
    await zelda.click(lobby, "Start")
    for _ in range(10):
        if (await env.bot.tables.get(1)).status != "running":
            break
        await env.tick(env.settings.turn_timeout_seconds + 1)
    assert (await env.bot.tables.get(1)).status == "finished"
    await mod.slash("chips grant", member=zelda, amount=25, reason="for Zelda Quux, nice game")
    await zelda.slash("pay", member=bo, amount=10)
    db = env.bot.db
    bo_results = [dict(r) for r in await db.fetchall(
        "SELECT * FROM game_results WHERE user_id = ?", (bo.id,))]  # fmt: skip
    balances = await db.fetchone("SELECT SUM(balance), COUNT(*) FROM wallets")
    ledger_rows = await db.fetchone("SELECT COUNT(*), SUM(delta) FROM ledger")
    assert str(zelda.id) in await dump(db) and "Zelda Quux" in await dump(db)

    # Seated at a live table: refused, nothing changed.
    await zelda.slash("sequences start")
    before = await dump(db)
    with pytest.raises(UserError, match="live games"):
        await forget_member(db, zelda.id)
    assert await dump(db) == before
    await zelda.slash("sequences end")

    # Another table, without Zelda, whose text holds her name inside another member's.
    fan = await env.h.member("Zelda Quux Fan")
    other = (await fan.slash("sequences start")).message
    await bo.click(other, "Join")
    await fan.click(other, "Cancel")
    other_game = await db.fetchone("SELECT id, state_json FROM games ORDER BY id DESC")

    report = await forget_member(db, zelda.id)
    text = (await dump(db)).replace("Zelda Quux Fan", "")
    assert str(zelda.id) not in text and "Zelda" not in text and "Quux" not in text
    untouched = await db.fetchone("SELECT state_json FROM games WHERE id = ?", (other_game[0],))
    assert untouched[0] == other_game[1]  # other members' games are left as they were
    assert DELETED in text and report.tombstone < 0
    assert [dict(r) for r in await db.fetchall(
        "SELECT * FROM game_results WHERE user_id = ?", (bo.id,))] == bo_results  # fmt: skip
    assert tuple(await db.fetchone("SELECT SUM(balance), COUNT(*) FROM wallets")) == tuple(balances)
    assert tuple(await db.fetchone("SELECT COUNT(*), SUM(delta) FROM ledger")) == tuple(ledger_rows)
    assert (await wallets.check_invariant(db)).ok
    # The append-only guards are back.
    with pytest.raises(Exception, match="append-only"):
        async with db.transaction() as conn:
            await conn.execute("UPDATE ledger SET delta = delta WHERE id = 1")
    board = await bo.slash("leaderboard")
    assert "Zelda" not in board.text


async def dump(db: Database) -> str:
    """Every value in every table, as text."""
    parts = []
    for name in await db.tables():
        rows = await db.fetchall(f'SELECT * FROM "{name}"')  # test-only, the schema's names
        parts.append(json.dumps([list(r) for r in rows], ensure_ascii=False))
    return "\n".join(parts)


# Member ids in columns the name rule above does not catch (a match's two sides).
MEMBER_IDS_NAMED_OTHERWISE = {
    ("tournament_matches", "a_id"),
    ("tournament_matches", "b_id"),
    ("tournament_matches", "winner_id"),
    ("quick_blocks", "blocked_id"),
}


async def test_every_member_id_column_is_forgotten(db_target: DbTarget) -> None:
    """A migration that adds a column holding a member id must add it to ID_COLUMNS."""
    db = await Database.open(db_target("schema"))
    try:
        found = set()
        for table in await db.tables():
            for name in await db.columns(table):
                if (
                    name in ("user_id", "actor_id", "host_id")
                    or name.endswith("_by")
                    or (table, name) in MEMBER_IDS_NAMED_OTHERWISE
                ):
                    found.add((table, name))
    finally:
        await db.close()
    listed = {(t, c) for t, columns in ID_COLUMNS.items() for c in columns}
    assert found == listed


def test_forget_cli_refuses_clearly(tmp_path: Path) -> None:
    result = bot_command(tmp_path, "forget", "-5", "--database", str(tmp_path / "none.db"))
    assert result.returncode == 2 and "no database" in result.stderr
    sqlite3.connect(tmp_path / "empty.db").close()
    result = bot_command(tmp_path, "forget", "0", "--database", str(tmp_path / "empty.db"))
    assert result.returncode == 2 and "positive" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


async def test_privacy_command_explains_and_stays_private(make_env: MakeEnv) -> None:
    env = await make_env()
    ana = await env.h.member("Ana")
    reply = await ana.slash("privacy")
    assert reply.ephemeral and f"python -m bot forget {ana.id}" in reply.text
    assert "Deleted member" in reply.text


async def test_forget_rewrites_by_member_not_by_word(make_env: MakeEnv) -> None:
    """Forgetting "Ann" leaves "Ann Lee" whole, in their game and in every ledger reason
    that is not Ann's own."""
    env = await make_env(seed=6)
    ann = await env.h.member("Ann", manage_guild=True)
    lee = await env.h.member("Ann Lee", manage_guild=True)
    lobby = (await ann.slash("sequences start", rounds=1)).message
    await lee.click(lobby, "Join")
    await ann.click(lobby, "Start")
    for _ in range(10):
        if (await env.bot.tables.get(1)).status != "running":
            break
        await env.tick(env.settings.turn_timeout_seconds + 1)
    assert (await env.bot.tables.get(1)).status == "finished"
    await ann.slash("chips grant", member=lee, amount=5, reason="Ann Lee won; Ann says well done")
    await lee.slash("chips grant", member=ann, amount=5, reason="Ann lost to Ann Lee")
    db = env.bot.db
    # The events are values naming seats (issue 21): their lines take the seats' names.
    before = event_lines(await env.bot.tables.get(1))
    assert any("Ann Lee" in e for e in before) and any(
        "Ann " in e.replace("Ann Lee", "") for e in before
    )

    await forget_member(db, ann.id)
    state = json.loads((await db.fetchone("SELECT state_json FROM games WHERE id = 1"))[0])
    text = await dump(db)
    assert "Deleted member Lee" not in text
    assert [s["name"] for s in state["seats"]] == [DELETED, "Ann Lee"]
    assert state["seats"][1]["user_id"] == lee.id
    for old, new in zip(before, event_lines(await env.bot.tables.get(1)), strict=True):
        assert new.count("Ann Lee") == old.count("Ann Lee"), (old, new)
        assert "Ann" not in new.replace("Ann Lee", ""), new
    reasons = [r[0] for r in await db.fetchall("SELECT reason FROM ledger WHERE kind = 'grant'")]
    # Ann Lee's row keeps what the grant said; Ann's own row loses Ann, not Ann Lee.
    assert reasons == ["Ann Lee won; Ann says well done", f"{DELETED} lost to Ann Lee"]
    results = await db.fetchall("SELECT name FROM game_results ORDER BY name")
    assert sorted(r[0] for r in results) == ["Ann Lee", DELETED]


async def make_database(path: Path) -> None:
    db, service = await open_service(path, 3)
    await busy_tables(service, 2)
    await db.close()


async def test_backup_of_a_path_with_question_mark_and_hash(tmp_path: Path) -> None:
    folder = tmp_path / "odd?name#1"
    source = folder / "bot?.sqlite3"
    target = folder / "copies#" / "copy?.sqlite3"
    await make_database(source)

    def files() -> list[str]:  # the source's -wal and -shm come and go with readers
        return sorted(p.name for p in tmp_path.rglob("*") if not p.name.endswith(("-wal", "-shm")))

    before = files()
    result = bot_command(tmp_path, "backup", str(target), "--database", str(source))
    assert result.returncode == 0, result.stderr
    assert f"written to {target}" in result.stdout
    # The copy and its folder are the only new files: nothing at a path cut at "?" or "#".
    assert sorted([*before, "copies#", "copy?.sqlite3"]) == files()
    copy = sqlite3.connect(target)
    original = sqlite3.connect(source)
    try:
        count = "SELECT COUNT(*), SUM(version) FROM games"
        assert copy.execute(count).fetchone() == original.execute(count).fetchone()
    finally:
        copy.close()
        original.close()


async def test_a_failed_backup_leaves_nothing_behind(tmp_path: Path) -> None:
    source = tmp_path / "bot.sqlite3"
    source.write_bytes(b"not a database at all" * 300)
    target = tmp_path / "copies" / "copy.sqlite3"
    result = bot_command(tmp_path, "backup", str(target), "--database", str(source))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert not target.exists() and list(target.parent.iterdir()) == []
    source.unlink()
    await make_database(source)
    retry = bot_command(tmp_path, "backup", str(target), "--database", str(source))
    assert retry.returncode == 0, retry.stderr  # nothing left over blocks the retry
    assert [p.name for p in target.parent.iterdir()] == ["copy.sqlite3"]
