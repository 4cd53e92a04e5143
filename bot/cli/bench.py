"""``python -m bot bench``: every benchmark in one go, printing numbers (nothing is asserted).

Runs ``bench-tables``, ``bench-odds``, ``bench-render``, ``bench-store`` (when the wallet
layer is present) and a short ``board-sim``; each can also be run on its own with options.
"""

from __future__ import annotations

import argparse
import importlib

PARTS = [
    ("bench-tables", "bot.cli.bench_tables", []),
    ("bench-odds", "bot.cli.bench_odds", []),
    ("bench-render", "bot.cli.bench_render", []),
    ("bench-store", "bot.cli.bench_store", []),
    ("board-sim", "bot.cli.board_sim", ["--games", "40", "--seats", "strong,greedy"]),
]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--only", default=None, help="comma-separated parts to run")


def run(args: argparse.Namespace) -> int:
    wanted = set(args.only.split(",")) if args.only else None
    status = 0
    for name, module_name, argv in PARTS:
        if wanted is not None and name not in wanted:
            continue
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError:
            continue
        print(f"\n### {name} {' '.join(argv)}")
        parser = argparse.ArgumentParser(prog=name)
        module.add_arguments(parser)
        status |= int(module.run(parser.parse_args(argv)))
    return status
