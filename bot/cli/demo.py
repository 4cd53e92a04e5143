"""``python -m bot demo [game]``: a whole game among bot players, offline, in seconds.

No token and no Discord: a temporary database, the real table service and rules, each move
printed as the thread would show it, then the result table. ``demo board --out FILE.png``
also writes the final board picture.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

from bot.config import Settings
from bot.render.common import embed_as_text
from bot.store.db import Database
from bot.tables.model import Table
from bot.tables.service import TableService

DEMO_GUILD = 1
DEMO_CHANNEL = 2
HOST = 100

GAMES: dict[str, tuple[str, dict[str, Any], list[str]]] = {
    # game: (kind, settings, bot levels)
    "sequences": (
        "sequences",
        {"variant": "standard", "rounds": 3, "target": None, "soft_last_die": False},
        ["optimal", "bold", "cautious"],
    ),
    "classic": ("oneroll", {"ruleset": "classic", "target": 100}, ["thrower"] * 3),
    "heartsdue": ("oneroll", {"ruleset": "heartsdue", "target": 100}, ["thrower"] * 3),
    "board": (
        "board",
        {"seats": None, "teams": None, "first_sequence_wins": False},
        ["strong", "greedy"],
    ),
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "game",
        nargs="?",
        default="sequences",
        choices=sorted(GAMES),
        help="which game to play (default: sequences)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help="seed the dice and cards: the same seed plays the same game",
    )
    parser.add_argument(
        "--variant",
        default=None,
        help="push-your-luck variant: standard, reverse, sudden, extended, team",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help="board: write the final board picture to this PNG file",
    )
    parser.add_argument("--quiet", action="store_true", help="print only the result")
    parser.add_argument(
        "--stake",
        type=int,
        default=250,
        help="sequences: then a staked game between two members (0: skip)",
    )


def run(args: argparse.Namespace) -> int:
    return asyncio.run(_demo(args))


class _Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


def _plain(text: str) -> str:
    return re.sub(r"\*\*|<t:\d+:R>", "", text)


async def _demo(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed) if args.seed is not None else random.SystemRandom()
    kind, settings, levels = GAMES[args.game]
    settings = dict(settings)
    if args.variant:
        if kind != "sequences":
            print("error: --variant is for the push-your-luck game", file=sys.stderr)
            return 2
        settings["variant"] = args.variant
        if args.variant == "sudden":
            settings["rounds"] = None
        if args.variant == "team":
            settings.update(rounds=None, target=15)
            levels = ["optimal", "bold", "cautious", "optimal"]
    clock = _Clock()
    with tempfile.TemporaryDirectory() as tmp:
        settings_obj = Settings(  # type: ignore[call-arg]
            _env_file=None, database_path=Path(tmp) / "demo.sqlite3", start_cooldown_seconds=0
        )
        db = await Database.open(settings_obj.database_path)
        try:
            from bot.tables.wallet_hooks import WalletHooks

            service = TableService(db, settings_obj, clock, rng, WalletHooks(clock))
            table = await service.open_lobby(
                guild_id=DEMO_GUILD,
                channel_id=DEMO_CHANNEL,
                host_id=HOST,
                host_name="Demo",
                kind=kind,
                settings=settings,
                seat_host=False,
            )
            for level in levels:
                await service.add_bot(table.id, HOST, level)
            change = await service.start(table.id, HOST)
            names = ", ".join(s.name for s in change.table.seats)
            print(f"{change.table.seats and _title(change.table)} #{table.id}: {names}\n")
            seen = len(change.table.events)
            for _ in range(20_000):
                if change.table.status != "running":
                    break
                clock.now = (change.table.row.deadline or clock.now) + 0.01
                for fired in await service.run_due():
                    change = fired
                    events = fired.table.events
                    fresh = events[-(len(events) - seen) :] if len(events) > seen else []
                    if not args.quiet:
                        for line in fresh or events[-1:]:
                            print(_plain(line))
                    seen = len(events)
            final = change.table
            print()
            print(_plain(_final_text(final)))
            if args.out is not None and final.kind == "board":
                from bot.render.board_game import board_embed

                _, file = board_embed(final)
                args.out.write_bytes(file.fp.read())
                print(f"\nboard picture written to {args.out}")
            if args.game == "sequences" and args.stake > 0:
                await _staked_game(service, db, clock, rng, args)
            return 0 if final.status == "finished" else 1
        finally:
            await db.close()


async def _staked_game(
    service: TableService, db: Database, clock: _Clock, rng: random.Random, args: argparse.Namespace
) -> None:
    """Two members stake chips, play by the optimal policy (as if clicking), and the pot is
    paid: balances before and after, then the leaderboard."""
    from bot.rules import pushluck as pl
    from bot.rules.dice import NoDice
    from bot.rules.dice_bots import choose_push_action
    from bot.store import stats, wallets

    members = {201: "Ana", 202: "Bo"}
    print(f"\n== A staked game: {args.stake:,} chips each ==")
    for user, name in members.items():
        print(f"{name:<4} before: {await wallets.balance(db, DEMO_GUILD, user):>6,} chips")
    table = await service.open_lobby(
        guild_id=DEMO_GUILD,
        channel_id=DEMO_CHANNEL,
        host_id=201,
        host_name="Ana",
        kind="sequences",
        stake=args.stake,
        settings=dict(GAMES["sequences"][1]),
    )
    await service.join(table.id, 202, "Bo")
    change = await service.start(table.id, 201)
    while change.table.status == "running":
        state = pl.load(change.table.rules or {})
        seat = change.table.seats[state.current]
        action = choose_push_action(state, "optimal", rng)
        button = {pl.Throw: "throw", pl.Bank: "bank", pl.Push: "push", pl.BonusThrow: "bonus"}.get(
            type(action), ""
        )
        if isinstance(action, pl.Lock):
            button = f"lock{action.count}" if action.count < len(state.extending) else "bank"
            if button == "bank":
                after = choose_push_action(pl.apply(state, action, NoDice()), "optimal", rng)
                button = (
                    "push"
                    if isinstance(after, pl.Push)
                    else ("bonus" if isinstance(after, pl.BonusThrow) else "bank")
                )
        assert seat.user_id is not None
        change = await service.act(table.id, seat.user_id, change.table.version, button)
        if change.turn_changed and not args.quiet:
            print(_plain(change.table.events[-1]))
    for user, name in members.items():
        print(f"{name:<4} after:  {await wallets.balance(db, DEMO_GUILD, user):>6,} chips")
    page = await stats.leaderboard(db, "sequences:standard", "server", DEMO_GUILD, "rating")
    print("\n== Leaderboard · Sequences (standard) · this server ==")
    print(f"{'#':>2} {'player':<8} {'rating':>6} {'won':>4} {'games':>5} {'chips':>7}")
    for row in page.rows:
        print(
            f"{row.rank:>2} {row.name or '?':<8} {row.rating:>6} {row.wins:>4} "
            f"{row.games:>5} {row.chips_net:>+7,}"
        )
    report = await wallets.check_invariant(db)
    print(
        f"ledger check: balances {report.balances:,} + held {report.held:,} = granted "
        f"{report.minted:,}: {'ok' if report.ok else 'BROKEN'}"
    )


def _title(table: Table) -> str:
    from bot.tables.registry import kind_for

    return kind_for(table.kind).title(table.settings)


def _final_text(table: Table) -> str:
    if table.kind == "board":
        from bot.render.board_game import board_embed

        embed, _ = board_embed(table)
    elif table.kind == "oneroll":
        from bot.render.oneroll import turn_embed

        embed = turn_embed(table)
    else:
        from bot.render.sequences import turn_embed as seq_embed

        embed = seq_embed(table)
    return embed_as_text(embed)
