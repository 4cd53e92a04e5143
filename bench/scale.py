"""What grows with a server: timers expiring at once, opening a table beside many finished
games, and memory per live game."""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable
from typing import Any

from bench.env import Env
from bench.report import LATENCY, T0, Report, Sizes, ms_since, rss
from bench.targets import Targets


def same_second(due: float, count: int) -> Callable[[int], float]:
    return lambda i: due + 0.9 * i / count


async def timer_section(H: Any, dbs: Targets, sizes: Sizes, report: Report, seed: int) -> None:
    env = await Env(H, dbs, "timers", seed, timers=False).start()
    n = sizes.timers
    try:
        table_id = await env.start_game("sequences start", rounds=10)
        # The 50 ms rows once: their "shown" is the bot's pace of 20 requests a second,
        # which repeating would only measure again (minutes of a run).
        for latency in (0.0, LATENCY) if report.run == 1 else (0.0,):
            due = env.clock.now + 30
            await env.copies(table_id, n, same_second(due, n))
            env.clock.now = due + 1
            env.h.set_latency(latency)
            try:
                committed, shown = await env.timed_tick()
            finally:
                env.h.set_latency(0)
            tag = f"{latency * 1000:.0f}ms"
            where = f"{n:,} timers expiring at once, {latency * 1000:.0f} ms/request"
            report.add(
                f"timers.{tag}.committed", f"{where}: all committed", "s", committed, goal="≤ 1 s"
            )
            report.add(
                f"timers.{tag}.shown",
                f"{where}: all shown",
                "s",
                shown,
                goal="as fast as the rate limits allow",
            )
        big = sizes.timers_big
        due = env.clock.now + 30
        await env.copies(table_id, big, same_second(due, big))
        env.clock.now = due + 1
        started = time.perf_counter()
        await env.bot.peers.timers.run_due()  # committed only: showing 10,000 is not timed
        report.add(
            "timers.big.committed",
            f"{big:,} timers expiring at once: all committed",
            "s",
            time.perf_counter() - started,
            goal="committed together",
        )
        env.clock.now += 600  # the copies' next deadlines stay in the future of this clock
    finally:
        await env.stop()


async def open_section(H: Any, dbs: Targets, sizes: Sizes, report: Report, seed: int) -> None:
    from bot.sim.live_games import insert_finished

    env = await Env(H, dbs, "open", seed, timers=False).start()
    try:
        table_id = await env.start_game("sequences start", rounds=10)
        template = (await env.bot.tables.get(table_id)).row
        hosts = [env.ana.id, env.bo.id, *range(10_000, 10_050)]
        have = 0
        for slot, n in enumerate(sizes.finished):
            await insert_finished(env.bot.db, template, n - have, host_ids=hosts, at=T0)
            have = n
            samples = []
            for _ in range(sizes.opens):
                started = time.perf_counter()
                reply = await env.ana.slash("sequences start", rounds=5)
                samples.append(ms_since(started, reply.answered_at))
            report.add(
                f"open.{slot}",
                f"opening a table, {n:,} finished games on the server",
                "ms",
                statistics.median(samples),
                goal="flat",
            )
    finally:
        await env.stop()


async def memory_section(H: Any, dbs: Targets, sizes: Sizes, report: Report, seed: int) -> None:
    dice, board = sizes.memory
    env = await Env(H, dbs, "memory", seed, timers=False).start()
    try:
        dice_id = await env.start_game("sequences start", rounds=10)
        board_id = await env.start_game("board start")
        gc.collect()
        before = rss()
        await env.copies(dice_id, dice - 1, env.spread(dice))
        await env.copies(board_id, board - 1, env.spread(board))
        await env.restart()
        gc.collect()
        per_game = (rss() - before) / (dice + board) / 1024
        report.add(
            "memory.per_game",
            f"memory per live game ({dice:,} dice + {board:,} board, after a restart)",
            "KB",
            per_game,
            goal="≤ 30 KB, flat over time",
        )
    finally:
        await env.stop()
