"""``python -m bot demo``: a whole game among bot players, offline, in ten seconds.

No token and no Discord: a temporary database, the real table service and rules, and the
turn messages printed as the thread would show them, then the leaderboard.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
from pathlib import Path

from bot.config import Settings
from bot.render import sequences as seq_render
from bot.render.common import embed_as_text
from bot.store import games
from bot.store.db import Database
from bot.tables.service import TableService

DEMO_GUILD = 1
DEMO_CHANNEL = 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "game",
        nargs="?",
        default="sequences",
        choices=["sequences"],
        help="which game to play (default: sequences)",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed the dice (repeatable game)")
    parser.add_argument("--players", type=int, default=3, help="bot players (2-4)")
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quiet", action="store_true", help="print only the result")


def run(args: argparse.Namespace) -> int:
    return asyncio.run(_demo(args))


class _Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


async def _demo(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed) if args.seed is not None else random.SystemRandom()
    clock = _Clock()
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(database_path=Path(tmp) / "demo.sqlite3", _env_file=None)  # type: ignore[call-arg]
        db = await Database.open(settings.database_path)
        try:
            service = TableService(db, settings, clock, rng)
            levels = ["optimal", "bold", "cautious", "optimal"]
            variant = args.variant
            rounds = None if variant == "sudden" else args.rounds
            target = None
            players = 4 if variant == "team" else max(2, min(4, args.players))
            if variant == "team":
                rounds, target = None, 15
            table = await service.open_lobby(
                guild_id=DEMO_GUILD,
                channel_id=DEMO_CHANNEL,
                host_id=100,
                host_name="Demo",
                kind="sequences",
                seat_host=False,
                settings={
                    "variant": variant,
                    "rounds": rounds,
                    "target": target,
                    "soft_last_die": False,
                },
            )
            for i in range(players):
                await service.add_bot(table.id, 100, levels[i % len(levels)])
            change = await service.start(table.id, 100)
            print(f"Table #{table.id}: {', '.join(s.name for s in change.table.seats)}\n")
            steps = 0
            while change.table.status == "running" and steps < 5000:
                clock.now = (change.table.row.deadline or clock.now) + 0.01
                fired = await service.run_due()
                steps += 1
                for c in fired:
                    change = c
                    if c.turn_changed and not args.quiet and c.table.events:
                        print(c.table.events[-1].replace("**", ""))
            final = change.table
            print()
            print(embed_as_text(seq_render.turn_embed(final)).replace("**", ""))
            rows = await games.simple_leaderboard(db, DEMO_GUILD, "sequences")
            print("\n== Leaderboard (human players only; bots are not ranked) ==")
            if not rows:
                print("(bot-only games rank nobody: play one on Discord!)")
            bot_rows = await db.fetchall(
                "SELECT name, score, won FROM game_results WHERE game_id = ? ORDER BY place, "
                "score DESC",
                (final.id,),
            )
            for r in bot_rows:
                print(f"{'🏆' if r['won'] else '  '} {r['name']:<28} {r['score']:>4}")
            return 0 if final.status == "finished" else 1
        finally:
            await db.close()
