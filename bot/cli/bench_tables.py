"""``python -m bot bench-tables``: how long a click takes inside the bot, without Discord.

Measures the table service on a real SQLite file (WAL): opening a lobby, joining, and each
game action (load, rules, save with its log entry in one transaction), for the dice game and
the board game, and rendering the public message each action redraws.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from bot.config import Settings
from bot.games.registry import Games
from bot.store.db import Database
from bot.tables.service import TableService


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=20, help="games per kind (default 20)")
    parser.add_argument("--seed", type=int, default=1)


def run(args: argparse.Namespace) -> int:
    return asyncio.run(_bench(args.games, args.seed))


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class _Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


async def _bench(games: int, seed: int) -> int:
    rng = random.Random(seed)
    clock = _Clock()
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(  # type: ignore[call-arg]
            _env_file=None,
            database_path=Path(tmp) / "bench.sqlite3",
            start_cooldown_seconds=0,
            max_lobbies_per_channel=10_000,
            max_games_per_guild=10_000,
        )
        db = await Database.open(settings.database_path)
        registry = Games()
        service = TableService(db, registry, settings.table_limits(), clock, rng)
        timings: dict[str, list[float]] = {}

        def note(name: str, started: float) -> None:
            timings.setdefault(name, []).append((time.perf_counter() - started) * 1000)

        # Each game's own demo table, with two of its bot players.
        kinds = [(game, game.demos[0]) for game in registry.values() if game.demos]
        for game, demo in kinds:
            kind, game_settings, levels = game.name, demo.settings, demo.bot_levels[:2]
            for g in range(games):
                started = time.perf_counter()
                table = await service.open_lobby(
                    guild_id=1,
                    channel_id=2,
                    host_id=10 + g,
                    host_name="Host",
                    kind=kind,
                    settings=game_settings,
                    seat_host=False,
                )
                note("open lobby", started)
                for level in levels:
                    started = time.perf_counter()
                    await service.add_bot(table.id, 10 + g, level)
                    note("add seat", started)
                change = await service.start(table.id, 10 + g)
                while change.table.status == "running":
                    clock.now = (change.table.row.deadline or clock.now) + 0.01
                    started = time.perf_counter()
                    [change] = await service.run_due()
                    note(f"{kind}: one move (bot thinking + save)", started)
                    started = time.perf_counter()
                    game.turn_view(change.table.snapshot())
                    note(f"{kind}: redraw the public message", started)
        await db.close()
    print(f"{'operation':<44} {'n':>6} {'p50 ms':>8} {'p99 ms':>8} {'mean ms':>8}")
    for name, values in timings.items():
        print(
            f"{name:<44} {len(values):>6} {_pct(values, 0.5):>8.2f} {_pct(values, 0.99):>8.2f} "
            f"{statistics.fmean(values):>8.2f}"
        )
    return 0
