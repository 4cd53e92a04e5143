"""`python -m bot bench --quick --json` runs every row of the performance table, tiny, so the
benchmark cannot rot. Nothing here is about time: only that every row has its numbers."""

from __future__ import annotations

import json
import math

import pytest

from bot.__main__ import main

ROWS = {
    *(f"click.{slot}.{q}" for slot in range(3) for q in ("p50", "p99")),
    "slow_click.p50",
    "slow_click.p99",
    *(f"board.{slot}.{q}" for slot in range(2) for q in ("p50", "p99")),
    *(f"burst.{slot}.{what}" for slot in range(2) for what in ("rate", "p50", "p99")),
    "db.round_trips",
    "db.raw_commits",
    "db.raw_batched",
    "db.store_commits",
    "db.store_burst",
    *(f"restart.{slot}.{what}" for slot in range(2) for what in ("seconds", "requests")),
    *(f"timers.{tag}.{what}" for tag in ("0ms", "50ms") for what in ("committed", "shown")),
    "timers.big.committed",
    "open.0",
    "open.1",
    "memory.per_game",
    "locks.service",
    "locks.publisher",
    "frame.empty",
    "frame.empty.size",
    "frame.midgame",
    "frame.midgame.size",
    "ai.p50",
    "ai.p99",
}
WITH_FLOOR = {
    *(key for key in ROWS if key.startswith(("click.", "slow_click.", "board.", "burst."))),
    "db.store_commits",
    "db.store_burst",
    "frame.empty",
    "frame.midgame",
}


def _number(value: object) -> bool:
    return isinstance(value, int | float) and math.isfinite(value)


def test_quick_bench_prints_every_row_with_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--quick", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["quick"] is True
    rows = report["rows"]
    assert set(rows) == ROWS
    for key, row in rows.items():
        assert _number(row["bot"]), (key, row)
        if key in WITH_FLOOR:
            assert _number(row["floor"]) and _number(row["ratio"]), (key, row)
        assert row["label"] and "unit" in row and "goal" in row
