"""``python -m bot soak --ops N --seed S``: hammer the table service and the wallet together.

A seeded random mix of everything players and timers do (open staked and unstaked tables of
every game, join, leave, add bot players, cancel, start, play, stale clicks, timers, early
ends, payments, grants, daily chips), with injected faults (an exception just before a
random SQL statement of an operation) and restarts (the database closed and reopened, a
fresh service with no memory). After every operation it checks:

- the ledger invariant (RULINGS §5): balances + held stakes = chips created, every wallet
  equals its ledger, every pot paid equals its stakes;
- escrows agree with seats: a live table holds exactly one stake per seated member, a
  closed table holds none, only a finished table has paid stakes;
- nothing is paid twice: a game has at most one payout entry per winner.

The same world drives the hypothesis state machine in tests/reliability.
"""

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
