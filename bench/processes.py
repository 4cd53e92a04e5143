"""One burst, and 10,000 timers expiring at once, split across processes (shards of one
bot) on one PostgreSQL database."""

from __future__ import annotations

import asyncio
import queue
import time
from dataclasses import dataclass
from typing import Any

from bench.clicks import throw_button, throw_clicks
from bench.env import Env, burst_figures, deliver, import_harness
from bench.report import Report, Sizes
from bench.scale import same_second
from bench.targets import Targets

# --- one burst split across processes on one PostgreSQL database -----------------------

BARRIER_TIMEOUT = 3600.0  # seconds a ready process waits for the others


@dataclass(frozen=True)
class Part:
    """One process's share of a burst split across ``processes`` processes."""

    target: str
    index: int
    processes: int
    clicks: int  # its tables: as many clicks, or as many timers
    seed: int
    timers: bool = False  # its tables' timers expire at once, instead of clicks


def burst_part(part: Part, barrier: Any, results: Any) -> None:
    """The body of one process (spawned): its own bot, harness and ``part.clicks`` tables on
    the shared database; once every process is ready (``barrier``), one click on each of its
    tables, all delivered together (or every table's timer expired, ``timers_part``). Puts
    (index, (started, answered)) on ``results``, or (index, the error's text)."""
    try:
        work = timers_part_async if part.timers else burst_part_async
        outcome: Any = asyncio.run(work(part, barrier))
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


async def timers_part_async(part: Part, barrier: Any) -> tuple[float, list[float]]:
    """One shard's process with ``part.clicks`` tables whose deadlines fall in one second;
    once every process is ready, its clock moved past them and one ``run_due`` (the timer
    loop's tick, without showing): (started, [every timer committed])."""
    H = import_harness()
    shard = None if part.processes == 1 else (part.index, part.processes)
    env = Env(H, None, "", part.seed, timers=False, target=part.target, shard=shard)
    await env.start()
    try:
        table_id = await env.start_game("sequences start", rounds=10)
        due = env.clock.now + 30
        await env.copies(table_id, part.clicks, same_second(due, part.clicks))
        await asyncio.to_thread(barrier.wait, BARRIER_TIMEOUT)
        env.clock.now = due + 1
        started = time.perf_counter()
        fired = await env.bot.peers.timers.run_due()
        finished = time.perf_counter()
        # Each fires its own shard's timers only, each once (a test's claim, checked here too).
        assert len(fired) == part.clicks, f"{len(fired)} of {part.clicks} timers fired"
        env.clock.now += 600  # the next deadlines stay in the future while it stops
        return started, [finished]
    finally:
        await env.stop()


def split_burst(
    target: str, processes: int, clicks: int, seed: int, timers: bool = False
) -> list[Any]:
    """Run ``clicks`` split across ``processes`` new processes on ``target`` (or as many
    timers, ``timers``); each one's (started, answered times). ``time.perf_counter`` is
    CLOCK_MONOTONIC on Linux, one clock for every process, so the times compare across
    them."""
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")  # not fork: this process has threads
    barrier = ctx.Barrier(processes)
    results = ctx.Queue()
    shares = [clicks // processes + (i < clicks % processes) for i in range(processes)]
    workers = [
        ctx.Process(
            target=burst_part,
            args=(Part(target, i, processes, shares[i], seed + i, timers), barrier, results),
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
    await timers_across_processes(dbs, sizes, report, seed, processes)


async def timers_across_processes(
    dbs: Targets, sizes: Sizes, report: Report, seed: int, processes: int
) -> None:
    """``sizes.timers_big`` timers expiring in one second on one PostgreSQL database, fired
    by one process, then by ``processes`` shards' processes (each its own tables' timers):
    seconds from the first process's tick until the last committed its last."""
    from bot.store.db import Database

    size = sizes.timers_big
    for count in sorted({1, processes}):
        target = dbs.new(f"timers{count}")
        try:
            await (await Database.open(target)).close()
            parts = await asyncio.to_thread(split_burst, target, count, size, seed, True)
        finally:
            dbs.drop(target)
        seconds = max(done for _, (done,) in parts) - min(started for started, _ in parts)
        where = f"{count} process{'es' if count > 1 else ''}"
        report.add(
            f"procs.{count}.timers",
            f"{size:,} timers expiring at once, {where} ({size // count:,} each): all committed",
            "s",
            seconds,
            goal="≤ 1 s",
        )
