"""``python -m bot bench-render``: time board image rendering; ``--write-docs DIR`` for pictures."""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--frames", type=int, default=200, help="frames timed per position (default 200)"
    )
    parser.add_argument(
        "--base-runs", type=int, default=3, help="cold base draws to time (default 3)"
    )
    parser.add_argument(
        "--write-docs",
        metavar="DIR",
        type=Path,
        help="write board-<position>.png for each sample position into DIR and stop",
    )


def _percentile(sorted_ms: list[float], fraction: float) -> float:
    return sorted_ms[min(len(sorted_ms) - 1, round(fraction * (len(sorted_ms) - 1)))]


def _write_docs(directory: Path) -> int:
    from bot.games.board import picture as board
    from bot.games.board.samples import SAMPLES

    directory.mkdir(parents=True, exist_ok=True)
    for name, build in SAMPLES.items():
        path = directory / f"board-{name}.png"
        data = board.render_board(build())
        path.write_bytes(data)
        print(f"wrote {path} ({len(data) / 1024:.1f} KB)")
    return 0


def run(args: argparse.Namespace) -> int:
    if args.write_docs is not None:
        return _write_docs(args.write_docs)
    # Imported here, like the other subcommands do, so `python -m bot` starts without Pillow.
    from bot.games.board import picture as board
    from bot.games.board.samples import SAMPLES

    if args.frames < 1 or args.base_runs < 1:
        print("error: --frames and --base-runs must be at least 1")
        return 2

    base_ms = []
    for _ in range(args.base_runs):
        board.clear_cache()
        start = time.perf_counter()
        board.prepare()
        base_ms.append((time.perf_counter() - start) * 1000)
    print(
        f"base draw (cold, {args.base_runs} runs): "
        f"median {statistics.median(base_ms):.0f} ms, min {min(base_ms):.0f} ms"
    )

    # Wall-clock time is what a player waits for; CPU time shows the renderer's own cost when
    # other processes share the machine.
    print(
        f"{'position':<12} {'chips':>5} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} "
        f"{'cpu p50':>7} {'PNG KB':>7}"
    )
    for name, build in SAMPLES.items():
        picture = build()
        data = board.render_board(picture)  # warm the legend cache, as a live game would be
        wall, cpu = [], []
        for _ in range(args.frames):
            start, start_cpu = time.perf_counter(), time.process_time()
            board.render_board(picture)
            wall.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
        wall.sort()
        print(
            f"{name:<12} {len(picture.chips):>5} {_percentile(wall, 0.5):>7.2f} "
            f"{_percentile(wall, 0.99):>7.2f} {wall[-1]:>7.2f} "
            f"{statistics.median(cpu):>7.2f} {len(data) / 1024:>7.1f}"
        )
    return 0
