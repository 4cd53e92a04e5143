"""``python -m bot reports [--since DAYS]``: the tables members reported (``/play report``),
oldest first: the table, when, who, from where, the table's places and the reason as the
member wrote it. Only the operator reads these; the bot never posts them."""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import sys
import time
from typing import TYPE_CHECKING

from bot.cli.run import add_database_option

if TYPE_CHECKING:
    from bot.store.reports import TableReport

DEFAULT_DAYS = 7.0
MAX_DAYS = 36_500.0


def days(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of days: {text!r}") from None
    if not 0 < value <= MAX_DAYS:
        raise argparse.ArgumentTypeError(f"give a number of days above 0 (at most {MAX_DAYS:,.0f})")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--since",
        type=days,
        default=DEFAULT_DAYS,
        metavar="DAYS",
        help=f"reports of the last DAYS days (default {DEFAULT_DAYS:g})",
    )
    add_database_option(parser)


def shown(text: str) -> str:
    """A member's text for a terminal: its line breaks indented under the report, any other
    control character (an escape sequence) replaced, so it cannot pass for the tool's own
    output or move the cursor."""
    kept = "".join(c if c == "\n" or c.isprintable() else "\ufffd" for c in text)
    return kept.replace("\n", "\n          ")


def report_lines(reports: list[TableReport]) -> list[str]:
    """Each report as a few lines: the table and when, who and from where, where the table
    is shown (each server's channel and thread), the reason."""
    out: list[str] = []
    for r in reports:
        at = dt.datetime.fromtimestamp(r.at, dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
        out.append(
            f"table #{r.game_id} · {at} · reported by member {r.user_id}"
            f" from server {r.guild_id}, channel {r.channel_id}"
        )
        for place in r.places:
            thread = "no thread" if place.thread_id is None else f"thread {place.thread_id}"
            out.append(f"  shown in server {place.guild_id}: channel {place.channel_id}, {thread}")
        out.append(f"  reason: {shown(r.reason)}")
    return out


def run(args: argparse.Namespace) -> int:
    from bot.cli.run import existing_database
    from bot.store.db import Database, DatabaseUnusable
    from bot.store.reports import since

    target = existing_database(args.database)
    if target is None:
        return 2

    async def go() -> list[str]:
        async with await Database.open(target) as db:
            return report_lines(await since(db, time.time() - args.since * 86_400))

    try:
        found = asyncio.run(go())
    except DatabaseUnusable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print("\n".join(found) if found else f"no table reported in the last {args.since:g} days")
    return 0
