"""``python -m bot verify-log``: rebuild every finished game from its log alone
(bot/tables/history.py) and name each that differs, with its first differing step; exit 0 when none
does, 1 otherwise, 2 without a database."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections import Counter
from typing import TYPE_CHECKING

from bot.cli.run import add_database_option

if TYPE_CHECKING:
    from bot.tables.history import Verdict

MAX_SHOWN = 20  # games listed per status; the counts cover the rest


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_database_option(parser)


def run(args: argparse.Namespace) -> int:
    from bot.cli.run import existing_database
    from bot.games.registry import Games
    from bot.store.db import Database, DatabaseUnusable
    from bot.tables.history import verify_all

    target = existing_database(args.database)
    if target is None:
        return 2

    async def go() -> list[Verdict]:
        async with await Database.open(target) as db:
            return await verify_all(db, Games())

    try:
        verdicts = asyncio.run(go())
    except DatabaseUnusable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(report(verdicts))
    return 1 if any(v.status == "differs" for v in verdicts) else 0


def report(verdicts: list[Verdict]) -> str:
    checked = Counter(v.game_key for v in verdicts)
    status = Counter(v.status for v in verdicts)
    steps = sum(v.steps for v in verdicts)
    lines = [
        f"verify-log: {len(verdicts):,} finished games checked ({steps:,} steps replayed): "
        f"{status['ok']:,} match, {status['differs']:,} differ, "
        f"{status['not replayable']:,} not replayable",
    ]
    if checked:
        lines.append("  by game: " + ", ".join(f"{k} {n:,}" for k, n in sorted(checked.items())))
    for name in ("differs", "not replayable"):
        shown = [v for v in verdicts if v.status == name]
        for v in shown[:MAX_SHOWN]:
            lines.append(f"  game {v.game_id} ({v.game_key}) {name.upper()}: {v.why}")
        if len(shown) > MAX_SHOWN:
            lines.append(f"  … and {len(shown) - MAX_SHOWN:,} more that {name}")
    return "\n".join(lines)
