"""Board frames (render time and PNG size, beside a paste-and-save floor) and the strong
board bot's move time: no harness needed."""

from __future__ import annotations

import io
import statistics
import time

from bench.report import Report, Sizes, ms_since


def frame_section(sizes: Sizes, report: Report) -> None:
    from PIL import Image

    from bot.games.board import picture as board
    from bot.games.board.samples import SAMPLES
    from bot.sim.board import simulate

    board.prepare()
    for name in ("empty", "midgame"):
        picture = SAMPLES[name]()
        data = board.render_board(picture)
        wall = []
        for _ in range(sizes.frames):
            started = time.perf_counter()
            data = board.render_board(picture)
            wall.append(ms_since(started, None))
        image = Image.open(io.BytesIO(data))
        image.load()
        floor = []
        for _ in range(sizes.frames):
            started = time.perf_counter()
            canvas = Image.new(image.mode, image.size)
            canvas.paste(image, (0, 0))
            canvas.save(io.BytesIO(), "PNG")
            floor.append(ms_since(started, None))
        report.add(
            f"frame.{name}",
            f"board frame, {name}",
            "ms",
            statistics.median(wall),
            floor=statistics.median(floor),
            goal="keep it",
        )
        report.add(
            f"frame.{name}.size",
            f"board frame, {name}: PNG size",
            "KB",
            len(data) / 1024,
            goal="keep it",
        )
    result = simulate(["strong", "strong"], sizes.ai_games, seed=1)
    moves = result["move_ms"]["strong"]
    report.add(
        "ai.p50", "strong board bot: move time p50", "ms", float(moves["p50"]), goal="keep it"
    )
    report.add(
        "ai.p99", "strong board bot: move time p99", "ms", float(moves["p99"]), goal="keep it"
    )
