"""Quick play's matcher (issue 36): one pass of the pure matcher over a full queue, in one
server and spread over 50, with blocks among the members. No harness and no database: the
pass the claiming transaction runs (``bot.store.queue.claim_pass``) between its read and
its writes."""

from __future__ import annotations

import random
import time

from bench.report import Report, Sizes, quantile
from bot.tables.quickplay_match import Entry, match

GAMES = ("sequences", "heartsdue", "board", "oneroll")
PASSES = 7  # timed passes a layout; the row is their median


def queue(size: int, servers: int, seed: int) -> tuple[list[Entry], set[tuple[int, int]]]:
    """``size`` waiting members over ``servers`` servers and four games, ratings around
    1,000, queued over the last two minutes, with one block for every five members."""
    rng = random.Random(seed)
    entries = [
        Entry(
            user_id=10_000 + i,
            guild_id=1 + i % servers,
            channel_id=100 + i % servers,
            game_key=GAMES[rng.randrange(len(GAMES))],
            rating=int(rng.gauss(1_000, 200)),
            queued_at=rng.uniform(0.0, 120.0),
        )
        for i in range(size)
    ]
    blocks = {
        (10_000 + rng.randrange(size), 10_000 + rng.randrange(size)) for _ in range(size // 5)
    }
    return entries, blocks


def quickplay_section(sizes: Sizes, report: Report, seed: int) -> None:
    for servers, key in ((1, "one_server"), (50, "servers")):
        entries, blocks = queue(sizes.queued, servers, seed)
        times: list[float] = []
        for _ in range(PASSES):
            started = time.perf_counter()
            match(entries, 120.0, blocks)
            times.append((time.perf_counter() - started) * 1000)
        where = "one server" if servers == 1 else f"{servers} servers"
        report.add(
            f"quickplay.pass.{key}",
            f"quick play: a matcher pass over {sizes.queued:,} queued members, {where}",
            "ms",
            quantile(times, 0.5),
            goal="≤ 50 ms",
        )
