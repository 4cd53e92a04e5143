"""``python -m bot forget USER_ID``: a member's id and names become a tombstone everywhere
(bot/store/privacy.py); refused while they sit at a live table."""

from __future__ import annotations

import argparse
import asyncio
import sys

from bot.cli.run import add_database_option


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("user_id", type=int, help="the member's Discord user id")
    add_database_option(parser)


def run(args: argparse.Namespace) -> int:
    from bot.cli.run import existing_database
    from bot.errors import UserError
    from bot.store.db import Database, DatabaseUnusable
    from bot.store.privacy import forget_member

    target = existing_database(args.database)
    if target is None:
        return 2

    async def go() -> str:
        async with await Database.open(target) as db:
            report = await forget_member(db, args.user_id)
        return (
            f"forgot member {args.user_id}: {report.rows} rows now say {report.tombstone} "
            f"and 'Deleted member' ({len(report.names)} names removed)"
        )

    try:
        print(asyncio.run(go()))
    except (UserError, DatabaseUnusable) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0
