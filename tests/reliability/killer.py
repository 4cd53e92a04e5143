"""A child process that dies with SIGKILL semantics (``os._exit``) at a chosen statement.

    python -m tests.reliability.killer DB OP KILL_AT

runs OP ("join": Cy joins table 1; "throw": the seat to move throws on table 1) through the
real TableService, and ``os._exit(137)`` just before the KILL_AT-th SQL statement of it
(counting BEGIN and COMMIT, as the database's statement hook sees them), so nothing after it
runs: no rollback, no clean close; KILL_AT 0 dies right after the step's COMMIT. With
KILL_AT beyond the last statement it exits 0 and prints how many statements ran.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys

from bot.config import Settings
from bot.games.registry import Games
from bot.store.db import AFTER_COMMIT, Database
from bot.tables.kernel import TableKernel
from bot.tables.service import TableService

CY = 3


async def main(path: str, op: str, kill_at: int) -> int:
    db = await Database.open(path)
    count = 0

    def statement() -> None:
        nonlocal count
        count += 1
        if count == kill_at:
            os._exit(137)  # the process dies here: no rollback, no close, no flush

    def on_statement(sql: str) -> None:
        if sql != AFTER_COMMIT:  # killed after COMMIT is KILL_AT 0
            statement()

    db.on_statement = on_statement
    settings = Settings(_env_file=None, start_cooldown_seconds=0)
    service = TableService(
        TableKernel(db, Games(), settings.table_limits(), lambda: 1_700_000_100.0, random.Random(7))
    )
    if op == "join":
        await service.join(1, CY, "Cy")
    else:
        table = await service.get(1)
        seat = table.rules.current if table.rules else 0
        user = table.seats[seat].user_id
        assert user is not None
        await service.act(1, user, table.version, "throw")
    if kill_at == 0:
        os._exit(137)  # right after the COMMIT: the Discord update would come next
    print(count)
    await db.close()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]))))
