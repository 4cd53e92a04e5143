"""`python -m bot bench --quick --json` runs every row of the performance table, tiny, so the
benchmark cannot rot, on SQLite and on PostgreSQL (``--database``, with the burst split across
two processes). Nothing here is about time: only that every row has its numbers."""

from __future__ import annotations

import importlib.abc
import json
import math
import os
import sys
from typing import Any

import psycopg
import pytest

from bot.__main__ import main

ROWS = {
    *(f"click.{slot}.{q}" for slot in range(3) for q in ("p50", "p99")),
    "slow_click.p50",
    "slow_click.p99",
    *(f"board.{slot}.{q}" for slot in range(2) for q in ("p50", "p99")),
    *(f"burst.{slot}.{what}" for slot in range(2) for what in ("rate", "p50", "p99")),
    "db.round_trips",
    "db.statements",
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
# Only on PostgreSQL: the biggest burst from 1 process and split across 2 on one database.
PROCESSES = {f"procs.{count}.{what}" for count in (1, 2) for what in ("rate", "p50", "p99")}
WITH_FLOOR = {
    *(key for key in ROWS if key.startswith(("click.", "slow_click.", "board.", "burst."))),
    "db.store_commits",
    "db.store_burst",
    "frame.empty",
    "frame.midgame",
}


def _number(value: object) -> bool:
    return isinstance(value, int | float) and math.isfinite(value)


def _check(report: dict[str, Any], engine: str, rows: set[str]) -> None:
    assert report["quick"] is True and report["engine"] == engine
    assert set(report["rows"]) == rows
    for key, row in report["rows"].items():
        assert _number(row["bot"]), (key, row)
        if key in WITH_FLOOR:
            assert _number(row["floor"]) and _number(row["ratio"]), (key, row)
        assert row["label"] and "unit" in row and "goal" in row


def test_quick_bench_prints_every_row_with_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--quick", "--json"]) == 0
    _check(json.loads(capsys.readouterr().out), "sqlite", ROWS)


def test_quick_bench_on_postgresql_leaves_the_given_database_alone(
    postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bench", "--quick", "--json", "--database", postgres_url]) == 0
    _check(json.loads(capsys.readouterr().out), "postgresql", ROWS | PROCESSES)
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        # Every section ran in a database of its own (bench_<pid>_<n>), dropped after it;
        # the URL's own database was only connected to.
        left = conn.execute(
            "SELECT datname FROM pg_database WHERE datname LIKE %s", (f"bench\\_{os.getpid()}\\_%",)
        ).fetchall()
        assert left == []
        tables = conn.execute(
            "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'public'"
        ).fetchone()
        assert tables == (0,)


def test_bench_refuses_what_is_not_a_postgresql_url(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--quick", "--database", "bot.sqlite3"]) == 2
    assert "postgresql://" in capsys.readouterr().out
    assert main(["bench", "--quick", "--only", "processes"]) == 2
    assert "needs --database" in capsys.readouterr().out


class _Missing(importlib.abc.MetaPathFinder):
    """An install without the checkout: these modules are not there."""

    def __init__(self, *names: str) -> None:
        self.names = names

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> None:
        if fullname in self.names:
            raise ModuleNotFoundError(f"No module named {fullname!r}", name=fullname)
        return None


@pytest.mark.parametrize("missing", [("bench",), ("tests.harness",)])
def test_bench_without_a_checkout_says_so_in_one_line(
    missing: tuple[str, ...], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The Docker image and a wheel hold bot/ and cogs/ only: no bench/, no tests/."""
    for name in [n for n in sys.modules if n.split(".")[0] == "bench" or n in missing]:
        monkeypatch.delitem(sys.modules, name)
    if "tests.harness" in missing:
        monkeypatch.delattr(sys.modules["tests"], "harness")
    monkeypatch.setattr(sys, "meta_path", [_Missing(*missing), *sys.meta_path])
    assert main(["bench", "--quick"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "error: bench needs a checkout of the repository (tests/harness)\n"
