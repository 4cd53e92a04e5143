"""``python -m bot bench`` once ``bot/cli/bench.py`` has found this package: checks the
arguments, runs the sections wanted, prints the table (or ``--json``)."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bench.clicks import board_section, burst_section, click_section
from bench.env import import_harness
from bench.floor import floor_section
from bench.frame import frame_section
from bench.processes import process_section
from bench.report import LATENCY, QUICK, Report, Sizes, render_table
from bench.scale import memory_section, open_section, timer_section
from bench.thinking import thinking_section
from bench.web import web_section
from bench.workfloor import work_floor_section
from bot.cli.bench import SECTIONS
from bot.cli.bench_db import BenchDatabaseError, Targets
from bot.store.db import is_postgresql


async def bench_all(
    H: Any, args: argparse.Namespace, sizes: Sizes, wanted: set[str], report: Report
) -> None:
    seed = args.seed
    with tempfile.TemporaryDirectory() as tmp_name:
        dbs = Targets(args.database, Path(tmp_name))
        # (section, what its note calls it, the part): the floor section runs both floors.
        parts: list[tuple[str, str, Callable[[], Awaitable[None]]]] = [
            ("floor", "floor", lambda: floor_section(H, sizes, report)),
            ("floor", "work floor", lambda: work_floor_section(H, dbs, sizes, report, seed)),
            # first of the bot's: cleanest RSS
            ("memory", "memory", lambda: memory_section(H, dbs, sizes, report, seed)),
            ("click", "click", lambda: click_section(H, dbs, sizes, report, seed)),
            ("board", "board", lambda: board_section(H, dbs, sizes, report, seed)),
            ("burst", "burst", lambda: burst_section(H, dbs, sizes, report, seed)),
            (
                "processes",
                "processes",
                lambda: process_section(dbs, sizes, report, seed, args.processes),
            ),
            ("timers", "timers", lambda: timer_section(H, dbs, sizes, report, seed)),
            ("open", "open", lambda: open_section(H, dbs, sizes, report, seed)),
            ("thinking", "thinking", lambda: thinking_section(H, dbs, sizes, report, seed)),
            ("web", "web", lambda: web_section(H, dbs, sizes, report, seed)),
        ]
        try:
            for name, label, part in parts:
                if name in wanted:
                    started = time.perf_counter()
                    await part()
                    report.notes.append(f"{label} took {time.perf_counter() - started:.1f} s")
        finally:
            dbs.close()
    if "frame" in wanted:
        started = time.perf_counter()
        frame_section(sizes, report)
        report.notes.append(f"frame took {time.perf_counter() - started:.1f} s")


def run(args: argparse.Namespace) -> int:
    H = import_harness()
    postgresql = args.database is not None
    if postgresql and not is_postgresql(args.database):
        print(f"error: --database takes a postgresql:// URL, not {args.database!r}")
        return 2
    everything = set(SECTIONS) if postgresql else set(SECTIONS) - {"processes"}
    wanted = set(args.only.split(",")) if args.only else everything
    unknown = wanted - set(SECTIONS)
    if unknown:
        print(f"error: unknown sections {sorted(unknown)}; use {','.join(SECTIONS)}")
        return 2
    if "processes" in wanted and not postgresql:
        print("error: the processes section needs --database postgresql://...")
        return 2
    if args.processes < 2:
        print("error: --processes is at least 2 (1 process is measured beside it anyway)")
        return 2
    sizes = QUICK if args.quick else Sizes()
    report = Report()
    started = time.perf_counter()
    try:
        asyncio.run(bench_all(H, args, sizes, wanted, report))
    except BenchDatabaseError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    report.notes.append(f"total {time.perf_counter() - started:.1f} s")
    # The first section's order matters only for memory: the click rows are sorted first.
    order = [
        "click",
        "slow_click",
        "board",
        "burst",
        "thinking",
        "procs",
        "db",
        "restart",
        "timers",
        "open",
        "memory",
        "locks",
        "frame",
        "ai",
        "web",
    ]
    report.rows.sort(key=lambda r: order.index(r.key.split(".")[0]))
    if args.json:
        print(
            json.dumps(
                {
                    "quick": bool(args.quick),
                    "engine": "postgresql" if postgresql else "sqlite",
                    "latency_ms": LATENCY * 1000,
                    "sizes": sizes.__dict__,
                    "floor": report.floor,
                    "work_floor": report.work_floor,
                    "rows": {r.key: r.as_json() for r in report.rows},
                    "notes": report.notes,
                },
                indent=2,
            )
        )
    else:
        print(render_table(report))
    return 0
