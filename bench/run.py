"""``python -m bot bench`` once ``bot/cli/bench.py`` has found this package: checks the
arguments, runs the sections wanted (each ``--repeat`` times, the machine's business noted
before and after each run), prints the table (or ``--json``)."""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

from bench import machine
from bench.env import import_harness
from bench.frame import write_pictures
from bench.report import LATENCY, QUICK, Report, Sizes, render_table
from bench.sections import NAMES, SECTIONS, Bench, Section
from bench.targets import BenchDatabaseError, Targets
from bot.store.db import is_postgresql


async def run_section(section: Section, b: Bench, runs: int, also: tuple[int, ...]) -> bool:
    """``runs`` runs of one section; the floors it sets are the median of its runs. False if
    a run failed: its traceback is printed, the note says so, the section's other runs are
    not made, and the rows keep the runs that were (a full-size run on a loaded machine can
    fail where a quiet one does not; the bench still prints what it measured)."""
    report = b.report
    floors: dict[str, list[float]] = {}
    works: dict[str, list[float]] = {}
    took = 0.0
    for run in range(1, runs + 1):
        report.section, report.run = section.name, run
        before = machine.snapshot(also)
        try:
            await section.run(b)
        except (Exception, asyncio.CancelledError) as exc:
            if isinstance(exc, BenchDatabaseError):
                raise
            traceback.print_exc()
            report.discard_run()
            report.notes.append(
                f"{section.name}, run {run} of {runs}: FAILED ({type(exc).__name__}: "
                f"{str(exc).splitlines()[0] if str(exc) else ''})"
            )
            return False
        seen = machine.between(before, machine.snapshot(also))
        took += seen["seconds"]
        report.end_run({"run": run, **seen})
        report.machine.append({"section": section.name, "run": run, **seen})
        for key, value in report.floor.items():
            floors.setdefault(key, []).append(value)
        for key, value in report.work_floor.items():
            works.setdefault(key, []).append(value)
        report.notes.append(f"{section.name}, run {run} of {runs}: {machine.describe(seen)}")
    report.floor.update({k: statistics.median(v) for k, v in floors.items()})
    report.work_floor.update({k: statistics.median(v) for k, v in works.items()})
    report.notes.append(f"{section.name} took {took:.1f} s")
    return True


async def bench_all(H: Any, args: argparse.Namespace, sizes: Sizes, report: Report) -> bool:
    """Every section wanted; False if a run of one failed."""
    wanted = [s for s in SECTIONS if s.name in args.wanted]
    ok = True
    with tempfile.TemporaryDirectory() as tmp_name:
        dbs = Targets(args.database, Path(tmp_name))
        try:
            also = dbs.server_pids()  # the PostgreSQL server's CPU is the bench's own
            b = Bench(H, dbs, sizes, report, args.seed, args.processes)
            for section in wanted:
                runs = args.repeat if section.repeat else 1
                ok = await run_section(section, b, runs, also) and ok
        finally:
            dbs.close()
    return ok


def sort_rows(report: Report) -> None:
    """In the sections' order; inside one, grouped by the key's first word, as first seen."""
    first: dict[tuple[str, str], int] = {}
    for i, row in enumerate(report.rows):
        first.setdefault((row.section, row.key.split(".")[0]), i)
    report.rows.sort(
        key=lambda r: (NAMES.index(r.section), first[(r.section, r.key.split(".")[0])])
    )


def check(args: argparse.Namespace) -> str | None:
    """What is wrong with the arguments, or None; sets ``args.wanted``."""
    postgresql = args.database is not None
    if postgresql and not is_postgresql(args.database):
        return f"--database takes a postgresql:// URL, not {args.database!r}"
    everything = {s.name for s in SECTIONS if postgresql or not s.postgresql_only}
    args.wanted = set(args.only.split(",")) if args.only else everything
    unknown = args.wanted - set(NAMES)
    if unknown:
        return f"unknown sections {sorted(unknown)}; use {','.join(NAMES)}"
    if not postgresql and any(s.postgresql_only for s in SECTIONS if s.name in args.wanted):
        return "the processes section needs --database postgresql://..."
    if args.processes < 2:
        return "--processes is at least 2 (1 process is measured beside it anyway)"
    if args.repeat < 1:
        return "--repeat is at least 1"
    return None


def run(args: argparse.Namespace) -> int:
    if args.list:
        for section in SECTIONS:
            print(f"{section.name:<10} {section.about}")
        return 0
    if args.write_pictures is not None:
        write_pictures(args.write_pictures)
        return 0
    H = import_harness()
    problem = check(args)
    if problem is not None:
        print(f"error: {problem}")
        return 2
    sizes = QUICK if args.quick else Sizes()
    report = Report()
    started = time.perf_counter()
    try:
        ok = asyncio.run(bench_all(H, args, sizes, report))
    except BenchDatabaseError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    report.notes.append(f"total {time.perf_counter() - started:.1f} s")
    report.notes = list(dict.fromkeys(report.notes))  # a note each run repeats, once
    sort_rows(report)
    if args.json:
        print(
            json.dumps(
                {
                    "quick": bool(args.quick),
                    "engine": "sqlite" if args.database is None else "postgresql",
                    "repeat": args.repeat,
                    "latency_ms": LATENCY * 1000,
                    "sizes": sizes.__dict__,
                    "floor": report.floor,
                    "work_floor": report.work_floor,
                    "disturbed_share": machine.DISTURBED_SHARE,
                    "machine": report.machine,
                    "rows": {r.key: r.as_json() for r in report.rows},
                    "notes": report.notes,
                },
                indent=2,
            )
        )
    else:
        print(render_table(report))
    return 0 if ok else 1
