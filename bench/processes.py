"""One burst split across processes (shards of one bot) on one PostgreSQL database."""

from __future__ import annotations

import asyncio
import queue
from dataclasses import dataclass
from typing import Any

from bench.clicks import throw_button, throw_clicks
from bench.env import Env, burst_figures, deliver, import_harness
from bench.report import Report, Sizes
from bench.targets import Targets

# --- one burst split across processes on one PostgreSQL database -----------------------

BARRIER_TIMEOUT = 3600.0  # seconds a ready process waits for the others


@dataclass(frozen=True)
class Part:
    """One process's share of a burst split across ``processes`` processes."""

    target: str
    index: int
    processes: int
    clicks: int
    seed: int


def burst_part(part: Part, barrier: Any, results: Any) -> None:
    """The body of one process (spawned): its own bot, harness and ``part.clicks`` tables on
    the shared database; once every process is ready (``barrier``), one click on each of its
    tables, all delivered together. Puts (index, (started, answered)) on ``results``, or
    (index, the error's text)."""
    try:
        outcome: Any = asyncio.run(burst_part_async(part, barrier))
    except BaseException as exc:  # reported to the parent, which raises it
        barrier.abort()  # the others stop waiting
        outcome = f"{type(exc).__name__}: {exc}"
    results.put((part.index, outcome))


async def burst_part_async(part: Part, barrier: Any) -> tuple[float, list[float]]:
    H = import_harness()
    # Several processes are shards of one bot (each fires the timers and redraws the
    # tables of its own guild only); one process is the plain bot.
    shard = None if part.processes == 1 else (part.index, part.processes)
    env = Env(H, None, "", part.seed, timers=True, target=part.target, shard=shard)
    await env.start()
    try:
        table_id, player, throw = await throw_button(env)
        clicks = await throw_clicks(env, table_id, player, throw, part.clicks)
        await asyncio.to_thread(barrier.wait, BARRIER_TIMEOUT)
        return await deliver(env.h, clicks)
    finally:
        await env.stop()


def split_burst(target: str, processes: int, clicks: int, seed: int) -> list[Any]:
    """Run ``clicks`` split across ``processes`` new processes on ``target``; each one's
    (started, answered times). ``time.perf_counter`` is CLOCK_MONOTONIC on Linux, one clock
    for every process, so the times compare across them."""
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")  # not fork: this process has threads
    barrier = ctx.Barrier(processes)
    results = ctx.Queue()
    shares = [clicks // processes + (i < clicks % processes) for i in range(processes)]
    workers = [
        ctx.Process(
            target=burst_part,
            args=(Part(target, i, processes, shares[i], seed + i), barrier, results),
            name=f"bench-burst-{i}",
        )
        for i in range(processes)
    ]
    for worker in workers:
        worker.start()
    outcomes: dict[int, Any] = {}
    try:
        while len(outcomes) < processes:
            try:
                index, outcome = results.get(timeout=1.0)
            except queue.Empty:
                dead = [w.name for w in workers if w.exitcode not in (None, 0)]
                if dead and results.empty():  # killed before it could report
                    raise RuntimeError(f"the split burst failed: {dead} exited") from None
                continue
            outcomes[index] = outcome
    finally:
        for worker in workers:
            worker.join(timeout=60)
            if worker.is_alive():
                worker.kill()
                worker.join()
    failed = [f"process {i}: {o}" for i, o in sorted(outcomes.items()) if isinstance(o, str)]
    if failed:
        raise RuntimeError("the split burst failed: " + "; ".join(failed))
    return [outcomes[i] for i in range(processes)]


async def process_section(
    dbs: Targets, sizes: Sizes, report: Report, seed: int, processes: int
) -> None:
    """The biggest burst on one PostgreSQL database, from 1 process, then split across
    ``processes``: each process a bot (a shard) with its own harness and tables."""
    from bot.store.db import Database

    size = sizes.bursts[-1]
    for count in sorted({1, processes}):
        target = dbs.new(f"processes{count}")
        try:
            await (await Database.open(target)).close()  # migrated once, before they start
            parts = await asyncio.to_thread(split_burst, target, count, size, seed)
        finally:
            dbs.drop(target)
        starts = [started for started, answered in parts for _ in answered]
        answered = [a for _, times in parts for a in times]
        rate, p50, p99 = burst_figures(starts, answered)
        where = f"burst of {size:,}, {count} process{'es' if count > 1 else ''}"
        each = f"{size // count:,} tables each" if count > 1 else f"{size:,} tables"
        report.add(
            f"procs.{count}.rate",
            f"{where} on one database ({each})",
            "/s",
            rate,
            higher_is_better=True,
            goal="≥ 1,000 clicks/s",
        )
        report.add(f"procs.{count}.p50", f"{where}: p50 until answered", "ms", p50)
        report.add(
            f"procs.{count}.p99", f"{where}: p99 until answered", "ms", p99, goal="p99 ≤ 1 s"
        )
