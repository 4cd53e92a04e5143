"""The thinking section: a push-your-luck click while 8 expert board bots think in the bot's
worker processes (``bot.tables.thinking``), against the same click with none thinking.

The 8 searches are the jobs the table service hands the pool for 8 expert seats whose turns
came at once (the seat's view and a seed, ``bot.rules.board.bot_steps``), each sent again
as soon as it is answered, so 8 are waiting or thinking the whole time the clicks are timed.
"""

from __future__ import annotations

import asyncio
import random
from functools import partial
from typing import Any

from bench.env import Env
from bench.report import Report, Sizes, quantile
from bench.targets import Targets
from bot.rules import board as b

THINKERS = 8


def expert_views(seed: int, count: int) -> list[b.SeatView]:
    """Views of the seat to move from the middle of games ``strong`` plays against itself."""
    rng = random.Random(seed)
    views: list[b.SeatView] = []
    while len(views) < count:
        state = b.new_game(b.BoardConfig(seats=2), rng)
        turn = 0
        while state.outcome is None:
            view = b.view_for(state, state.turn)
            if turn >= 10 and turn % 5 == 0 and len(views) < count:
                views.append(view)
            state = b.apply(state, b.choose_action(view, "strong", rng), rng)
            turn += 1
    return views


async def thinking_section(H: Any, dbs: Targets, sizes: Sizes, report: Report, seed: int) -> None:
    env = await Env(H, dbs, "thinking", seed, timers=True).start()
    pool = env.bot.tables.bots
    try:
        assert pool.running, "the bot's worker pool was not started with the bot"
        table_id = await env.start_game("sequences start", rounds=10)
        idle, table_id = await env.dice_clicks(sizes.clicks, table_id)
        views = expert_views(seed, THINKERS)
        stop = asyncio.Event()
        moves = [0]

        async def think(index: int) -> None:
            n = 0
            while not stop.is_set():
                view = views[(index + n) % len(views)]
                await pool.run(partial(b.bot_steps, view, "expert", seed + index * 1000 + n))
                n += 1
                moves[0] += 1

        env.h.ignore_tasks("bench-thinking")
        tasks = [asyncio.create_task(think(i), name=f"bench-thinking-{i}") for i in range(THINKERS)]
        try:
            await asyncio.sleep(0.5)  # the workers busy and the queue full before timing
            busy, table_id = await env.dice_clicks(sizes.clicks, table_id)
        finally:
            stop.set()
            await asyncio.gather(*tasks)
        base = quantile(idle, 0.99)
        value = quantile(busy, 0.99)
        report.add(
            "thinking.none.p99",
            "push-your-luck click p99, no bot thinking",
            "ms",
            base,
            goal="",
        )
        report.add(
            "thinking.busy.p99",
            f"the same click p99 while {THINKERS} expert bots think "
            f"({pool.workers} worker process{'es' if pool.workers != 1 else ''})",
            "ms",
            value,
            floor=base,
            goal="≤ 1.5x the click with none thinking",
        )
        report.notes.append(f"thinking: {moves[0]} expert moves made while the clicks ran")
    finally:
        await env.stop()
