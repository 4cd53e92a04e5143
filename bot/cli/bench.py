"""``python -m bot bench``: the checkout's ``bench/`` package measures (it needs the test harness,
so it lives outside the bot); an installed bot without it says so in one line."""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

HELP_NOTE = (
    "Needs a checkout of the repository (the bench/ package and the offline test harness, "
    "tests/harness) and dpytest from the dev extras: pip install -e '.[dev]'. N up to 10,000 "
    "and three runs of each section take many minutes; --quick runs every row tiny, in "
    "seconds."
)
CHECKOUT_ONLY = "error: bench needs a checkout of the repository (tests/harness)"
# Missing when the checkout is missing: the bench package, or the tests beside it.
CHECKOUT = ("bench", "tests", "tests.harness")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = f"{parser.description or ''}. {HELP_NOTE}"
    parser.add_argument("--quick", action="store_true", help="a tiny version of every row")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--only",
        default=None,
        metavar="SECTIONS",
        help="comma-separated sections to run (--list names them; ratios need floor, "
        "processes needs --database)",
    )
    parser.add_argument("--list", action="store_true", help="name every section and stop")
    parser.add_argument(
        "--repeat",
        type=int,
        default=3,
        metavar="R",
        help="runs of each timed section: the table gives their median and spread (default 3)",
    )
    parser.add_argument(
        "--database",
        metavar="URL",
        default=None,
        help="run on PostgreSQL: postgresql://... of a server where this role may CREATE "
        "DATABASE; each section gets a new database bench_<pid>_<n>, dropped after it (the "
        "URL's own database is only connected to). Default: new SQLite files in a temp folder",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=2,
        metavar="P",
        help="the processes section: the biggest burst split across P processes on one "
        "PostgreSQL database, beside the same burst from 1 process (default 2)",
    )
    parser.add_argument(
        "--write-pictures",
        metavar="DIR",
        type=Path,
        default=None,
        help="write board-<position>.png for each sample board position into DIR and stop "
        "(the docs' pictures: --write-pictures docs)",
    )


def run(args: argparse.Namespace) -> int:
    # By name, at run time: the bot's own modules never import the bench or the tests.
    try:
        bench = importlib.import_module("bench.run")
    except ModuleNotFoundError as exc:
        name = exc.name or ""
        if name in CHECKOUT:
            print(CHECKOUT_ONLY, file=sys.stderr)
            return 2
        if name.split(".")[0] in ("bench", "tests", "bot", "cogs"):
            raise  # a module of the checkout itself is missing: a bug, not a setup
        print(
            f"error: bench needs the dev extras (pip install -e '.[dev]'): {exc}", file=sys.stderr
        )
        return 2
    result: int = bench.run(args)
    return result
