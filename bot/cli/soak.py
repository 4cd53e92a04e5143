"""``python -m bot soak --ops N --seed S``: a seeded random mix of everything players and timers do,
with injected faults and restarts, checking the chip invariant, escrows against seats and single
payouts after every operation (docs/reliability.md, "Soak figures"; the same world drives
tests/reliability's state machine)."""

from __future__ import annotations

import argparse
import asyncio
import time
from pathlib import Path

from bot.sim.soak import report, soak


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ops", type=int, default=10_000, help="operations to run")
    parser.add_argument("--seed", type=int, default=1, help="seed of the whole run")
    parser.add_argument(
        "--database", type=Path, default=None, help="keep the database here (default: temp)"
    )


def run(args: argparse.Namespace) -> int:
    import logging

    # Injected faults are logged where they land (timers, rollbacks); the report counts them.
    logging.getLogger("bot").setLevel(logging.CRITICAL)
    started = time.perf_counter()
    tally, failure = asyncio.run(soak(args.ops, args.seed, args.database))
    print(report(tally, failure, args.ops, args.seed, time.perf_counter() - started))
    return 1 if failure else 0
