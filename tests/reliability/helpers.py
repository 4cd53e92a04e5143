"""Tools for breaking the bot on purpose: crashes around a commit, database snapshots,
forged clicks."""

from __future__ import annotations

import json
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

from bot.store.db import AFTER_COMMIT, Connection, Database
from tests.discord.conftest import Env
from tests.harness import Message, Player, Reply
from tests.harness import payloads as P


class CrashBeforeCommit(Exception):
    """Stands for the process dying after a transaction's last statement, before COMMIT."""


class CrashAfterCommit(Exception):
    """Stands for the process dying right after COMMIT, before Discord hears of it."""


@contextmanager
def crash_at_commit(db: Database, when: str) -> Iterator[list[str]]:
    """The next write on ``db`` runs all its statements, then the "process dies" just
    before (``when="before"``) or just after (``"after"``) its COMMIT. The write is either
    an async ``db.transaction()`` (a change with hooks) or a ``db.write`` batch (a click:
    every job of the batch dies with it, committed or not). Yields the crashes, each named
    "transaction" or "write", so a test can check the crash really happened, and where."""
    original = db.transaction
    hooked = db.on_statement
    crashes: list[str] = []

    @asynccontextmanager
    async def transaction() -> AsyncIterator[Connection]:
        if crashes:  # one crash per arming: later transactions run normally
            async with original() as conn:
                yield conn
            return
        crashes.append("transaction")
        if when == "before":
            async with original() as conn:
                yield conn
                # Every statement ran; dying now must roll all of them back.
                raise CrashBeforeCommit("simulated crash before COMMIT")
        async with original() as conn:
            yield conn
        raise CrashAfterCommit("simulated crash after COMMIT")

    def on_statement(sql: str) -> None:
        if hooked is not None:
            hooked(sql)
        if crashes or threading.current_thread() is threading.main_thread():
            return  # a crash per arming; a transaction's statements run on the event loop
        if when == "before" and sql == "COMMIT":
            crashes.append("write")
            raise CrashBeforeCommit("simulated crash before COMMIT")
        if when == "after" and sql == AFTER_COMMIT:
            crashes.append("write")
            raise CrashAfterCommit("simulated crash after COMMIT")

    db.transaction = transaction  # type: ignore[method-assign]
    db.on_statement = on_statement
    try:
        yield crashes
    finally:
        del db.transaction
        db.on_statement = hooked


def watch(db: Database, statement: Callable[[str], None]) -> Callable[[], None]:
    """Call ``statement(sql)`` before every SQL statement run on ``db`` (the statement hook
    sees reads, async transactions and the batches of ``Database.write``). Whatever it
    raises, the statement does not run. Returns the undo."""

    def on_statement(sql: str) -> None:
        if sql != AFTER_COMMIT:
            statement(sql)

    db.on_statement = on_statement

    def undo() -> None:
        db.on_statement = None

    return undo


TABLES = ("games", "game_log", "game_results", "members")


async def snapshot(db: Database, *, with_messages: bool = False) -> dict[str, list[Any]]:
    """Every row the game layer keeps, comparable with ==. Message ids, the version a
    message shows and the revision (which a repost moves) are left out unless asked for: a
    restart may repost or redraw a message, which is not a game change."""
    out: dict[str, list[Any]] = {}
    for name in await db.tables():
        columns = await db.columns(name)
        rows = await db.fetchall(f'SELECT * FROM "{name}"')  # test-only SQL, the schema's names
        cleaned = []
        for row in rows:
            data = dict(zip(columns, row, strict=True))
            if name == "games" and not with_messages:
                for key in (
                    "thread_id",
                    "lobby_message_id",
                    "message_id",
                    "shown_version",
                    "revision",
                ):
                    data.pop(key)
            cleaned.append(data)
        out[name] = sorted(cleaned, key=repr)  # some tables are WITHOUT ROWID
    return out


async def table_row(env: Env, table_id: int = 1) -> dict[str, Any]:
    row = await env.bot.db.fetchone("SELECT * FROM games WHERE id = ?", (table_id,))
    assert row is not None
    data = dict(zip(await env.bot.db.columns("games"), row, strict=True))
    data["state"] = json.loads(data.pop("state_json"))
    return data


async def log_count(env: Env, table_id: int = 1) -> int:
    row = await env.bot.db.fetchone("SELECT COUNT(*) FROM game_log WHERE game_id = ?", (table_id,))
    assert row is not None
    return int(row[0])


async def forge_click(
    env: Env, player: Player, message: Message | Reply, custom_id: str, *, channel_id: int = 0
) -> Reply:
    """A click on ``custom_id`` as if ``message`` carried such a button: what a modified
    client, a replayed request or a button copied from elsewhere would send."""
    msg = message.message if isinstance(message, Reply) else message
    payload = dict(msg.payload)
    payload["components"] = [
        {"type": 1, "components": [{"type": 2, "style": 2, "label": "x", "custom_id": custom_id}]}
    ]
    snapshot_msg = _Forged(msg.id, channel_id or msg.channel_id, payload)
    data = P.component_data(custom_id, component_type=P.BUTTON)
    return await env.h._interact(
        player,
        P.MESSAGE_COMPONENT,
        data,
        channel_id or msg.channel_id,
        message=snapshot_msg,  # type: ignore[arg-type]
    )


class _Forged:
    def __init__(self, message_id: int, channel_id: int, payload: dict[str, Any]) -> None:
        self.id = message_id
        self.channel_id = channel_id
        self.payload = payload
