"""``python -m bot bench``: the performance table, measured through the offline harness.

The measuring code needs the test harness (``tests/harness``), so it lives outside the bot,
in the checkout's ``bench/`` package; this module holds only the command's arguments and
finds that package. An installed bot without the checkout (the Docker image, a wheel) has
neither folder and says so in one line.
"""

from __future__ import annotations

import argparse
import importlib
import sys

HELP_NOTE = (
    "Needs a checkout of the repository (the bench/ package and the offline test harness, "
    "tests/harness) and dpytest from the dev extras: pip install -e '.[dev]'. N up to 10,000 "
    "takes minutes; --quick runs every row tiny, in seconds."
)
CHECKOUT_ONLY = "error: bench needs a checkout of the repository (tests/harness)"
# Missing when the checkout is missing: the bench package, or the tests beside it.
CHECKOUT = ("bench", "tests", "tests.harness")
SECTIONS = (
    "floor", "click", "board", "burst", "processes", "timers", "open", "memory", "frame",
    "thinking", "web",
)  # fmt: skip


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = f"{parser.description or ''}. {HELP_NOTE}"
    parser.add_argument("--quick", action="store_true", help="a tiny version of every row")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--only",
        default=None,
        help=f"comma-separated sections to run: {','.join(SECTIONS)} (ratios need floor; "
        "processes needs --database)",
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
