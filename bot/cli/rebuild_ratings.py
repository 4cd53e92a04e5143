"""``python -m bot rebuild-ratings``: recompute every statistic and rating from game results, in one
transaction, so it is safe while the bot runs."""

from __future__ import annotations

import argparse
import asyncio
import sys
import time

from bot.cli.run import add_database_option


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_database_option(parser)


def run(args: argparse.Namespace) -> int:
    from bot.cli.run import existing_database
    from bot.store.db import Database, DatabaseUnusable
    from bot.store.stats import rebuild_ratings

    target = existing_database(args.database)
    if target is None:
        return 2

    async def go() -> None:
        started = time.perf_counter()
        async with await Database.open(target) as db:
            report = await rebuild_ratings(db)
        print(
            f"rebuilt {report.stat_rows:,} stat rows and {report.rated_points:,} rating points "
            f"from {report.games:,} games in {time.perf_counter() - started:.1f} s"
        )

    try:
        asyncio.run(go())
    except DatabaseUnusable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0
