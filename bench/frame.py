"""Board pictures (was also ``bench-render``): the cold base draw, then every sample
position's frame (wall and CPU time, PNG size) beside a paste-and-save floor, and the strong
board bot's move time. No harness needed. ``write_pictures`` redraws the docs' samples."""

from __future__ import annotations

import io
import statistics
import time
from pathlib import Path

from bench.report import Report, Sizes, ms_since, quantile


def write_pictures(directory: Path) -> None:
    """board-<position>.png for each sample position (the README's and docs' pictures)."""
    from bot.games.board import picture as board
    from bot.games.board.samples import SAMPLES

    directory.mkdir(parents=True, exist_ok=True)
    for name, build in SAMPLES.items():
        path = directory / f"board-{name}.png"
        data = board.render_board(build())
        path.write_bytes(data)
        print(f"wrote {path} ({len(data) / 1024:.1f} KB)")


def paste_floor(data: bytes, frames: int) -> float:
    """Median ms of Pillow making a same-size image, pasting the frame and saving a PNG."""
    from PIL import Image

    image = Image.open(io.BytesIO(data))
    image.load()
    floor = []
    for _ in range(frames):
        started = time.perf_counter()
        canvas = Image.new(image.mode, image.size)
        canvas.paste(image, (0, 0))
        canvas.save(io.BytesIO(), "PNG")
        floor.append(ms_since(started, None))
    return statistics.median(floor)


def frame_section(sizes: Sizes, report: Report) -> None:
    from bot.games.board import picture as board
    from bot.games.board.samples import SAMPLES
    from bot.sim.board import simulate

    board.clear_cache()
    started = time.perf_counter()
    board.prepare()
    report.add("frame.base", "board base draw, cold", "ms", ms_since(started, None))
    for name, build in SAMPLES.items():
        picture = build()
        data = board.render_board(picture)  # the legend's cache warm, as in a live game
        wall, cpu = [], []
        for _ in range(sizes.frames):
            started, started_cpu = time.perf_counter(), time.process_time()
            data = board.render_board(picture)
            wall.append(ms_since(started, None))
            cpu.append((time.process_time() - started_cpu) * 1000)
        where = f"board frame, {name}"
        report.add(
            f"frame.{name}",
            where,
            "ms",
            statistics.median(wall),
            floor=paste_floor(data, sizes.frames),
            goal="keep it",
        )
        report.add(f"frame.{name}.p99", f"{where}: p99", "ms", quantile(wall, 0.99))
        report.add(f"frame.{name}.max", f"{where}: slowest", "ms", max(wall))
        report.add(f"frame.{name}.cpu", f"{where}: CPU p50", "ms", statistics.median(cpu))
        report.add(
            f"frame.{name}.size", f"{where}: PNG size", "KB", len(data) / 1024, goal="keep it"
        )
        report.add(f"frame.{name}.chips", f"{where}: chips on the board", "count",
                   len(picture.chips))  # fmt: skip
    result = simulate(["strong", "strong"], sizes.ai_games, seed=1)
    moves = result["move_ms"]["strong"]
    report.add(
        "ai.p50", "strong board bot: move time p50", "ms", float(moves["p50"]), goal="keep it"
    )
    report.add(
        "ai.p99", "strong board bot: move time p99", "ms", float(moves["p99"]), goal="keep it"
    )
