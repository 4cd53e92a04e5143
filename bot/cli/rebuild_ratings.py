"""``python -m bot rebuild-ratings``: recompute every statistic and rating from game results.

Safe to run while the bot is stopped or running: the rebuild is one transaction, so readers
see either the old tables or the new ones.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--database", type=Path, default=None, help="database file (default: from settings)"
    )


def run(args: argparse.Namespace) -> int:
    from bot.cli.run import existing_database
    from bot.store.db import Database
    from bot.store.stats import rebuild_ratings

    path = existing_database(args.database)
    if path is None:
        return 2

    async def go() -> None:
        started = time.perf_counter()
        async with await Database.open(path) as db:
            report = await rebuild_ratings(db)
        print(
            f"rebuilt {report.stat_rows:,} stat rows and {report.rated_points:,} rating points "
            f"from {report.games:,} games in {time.perf_counter() - started:.1f} s"
        )

    asyncio.run(go())
    return 0
