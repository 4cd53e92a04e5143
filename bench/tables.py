"""Inside the bot, without Discord (was ``bench-tables``): the table service of the real bot
of the click section (``Env``), called directly: opening a lobby, seating a bot player, and
for each game's demo table a bot's move (its thinking and the save, fired by ``run_due``)
and the redraw of the public message. The click rows time the same service through
Discord's dispatch; these split a click's cost into its parts."""

from __future__ import annotations

import time
from typing import Any

from bench.env import Env
from bench.report import Report, Sizes, ms_since, quantile
from bench.targets import Targets


async def tables_section(H: Any, dbs: Targets, sizes: Sizes, report: Report, seed: int) -> None:
    env = await Env(H, dbs, "tables", seed, timers=False).start()
    try:
        timings = await play_demos(env, sizes.tables_games)
    finally:
        await env.stop()
    for key, (label, samples) in timings.items():
        for q in (0.5, 0.99):
            name = f"p{round(q * 100)}"
            report.add(
                f"tables.{key}.{name}", f"{label} {name}", "ms", quantile(samples, q), goal=""
            )


async def play_demos(env: Env, games: int) -> dict[str, tuple[str, list[float]]]:
    """``games`` of each game's demo table with two of its bot players, played to the end."""
    service, clock = env.bot.tables, env.clock
    timings: dict[str, tuple[str, list[float]]] = {}

    def note(key: str, label: str, started: float) -> None:
        timings.setdefault(key, (label, []))[1].append(ms_since(started, None))

    host = 10
    for game in env.bot.games.presentations():
        if not game.demos:
            continue
        demo = game.demos[0]
        for _ in range(games):
            host += 1
            started = time.perf_counter()
            table = await service.open_lobby(
                guild_id=env.h.guild_id, channel_id=env.h.channel_id, host_id=host,
                host_name="Host", kind=game.name, settings=demo.settings, seat_host=False,
            )  # fmt: skip
            note("open", "service: open a lobby", started)
            for level in demo.bot_levels[:2]:
                started = time.perf_counter()
                await service.add_bot(table.id, host, level)
                note("seat", "service: seat a bot player", started)
            change = await service.start(table.id, host)
            while change.table.status == "running":
                clock.now = (change.table.row.deadline or clock.now) + 0.01
                started = time.perf_counter()
                [change] = await env.bot.peers.timers.run_due()
                note(f"{game.name}.move", f"service: {game.name}, a bot's move (thinking + save)",
                     started)  # fmt: skip
                started = time.perf_counter()
                game.turn_view(change.table.snapshot())
                note(f"{game.name}.redraw", f"{game.name}: redraw the public message", started)
    return timings
