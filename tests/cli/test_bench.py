"""`python -m bot bench --quick --json` runs every row of the performance table, tiny, so the
benchmark cannot rot, on SQLite and on PostgreSQL (``--database``, with the burst split across
two processes). Nothing here is about time: only that every row has its numbers, each run's
value, and how busy the machine was in each run (``bench/machine.py``)."""

from __future__ import annotations

import contextlib
import importlib.abc
import io
import json
import math
import os
import re
import sqlite3
import statistics
import sys
from pathlib import Path
from typing import Any

import psycopg
import pytest

from bench.machine import Snapshot, between
from bench.odds import builds
from bench.report import Report, render_table
from bot.__main__ import main
from bot.games.board.samples import SAMPLES
from bot.games.registry import Games
from bot.rules import pushluck as pl
from bot.store import stats

ROWS = {
    *(f"click.{slot}.{q}" for slot in range(3) for q in ("p50", "p99")),
    "slow_click.p50",
    "slow_click.p99",
    *(f"board.{slot}.{q}" for slot in range(2) for q in ("p50", "p99")),
    *(f"board.{slot}.card.{q}" for slot in range(2) for q in ("p50", "p99")),
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
    "burst.single.rate",  # the biggest burst again without group commit
    "burst.single.p99",
    "db.store_burst_single",
    "frame.base",
    *(
        f"frame.{name}{what}"
        for name in SAMPLES
        for what in ("", ".p99", ".max", ".cpu", ".size", ".chips")
    ),
    *(f"odds.build.{name}" for name, _ in builds()),
    *(
        f"odds.advice.{variant}.{what}"
        for variant in pl.VARIANTS
        for what in ("first", "cold", "cached")
    ),
    "odds.everything",
    "odds.worst.cold",
    "odds.worst.cached",
    "store.populate",
    "store.rebuild",
    *(
        f"store.board.{scope}.{sort}.{q}"
        for scope in stats.SCOPES
        for sort in stats.SORTS
        for q in ("p50", "p99")
    ),
    *(f"store.{what}.{q}" for what in ("escrow", "finish") for q in ("p50", "p99")),
    *(
        f"tables.{what}.{q}"
        for what in (
            "open",
            "seat",
            *(f"{g.name}.{step}" for g in Games().values() for step in ("move", "redraw")),
        )
        for q in ("p50", "p99")
    ),
    "ai.p50",
    "ai.p99",
    "thinking.none.p99",
    "thinking.busy.p99",
    # the web companion (bench/web.py)
    "web.board.p50",
    "web.board.p99",
    "web.step.p50",
    "web.step.p99",
    "web.picture",
    "web.clicks.quiet",
    "web.clicks.busy",
    # quick play's matcher (bench/quickplay.py)
    "quickplay.pass.one_server",
    "quickplay.pass.servers",
}
# Only on PostgreSQL: the biggest burst from 1 process and split across 2 on one database.
PROCESSES = {
    f"procs.{count}.{what}" for count in (1, 2) for what in ("rate", "p50", "p99", "timers")
}
WITH_FLOOR = {
    *(
        key
        for key in ROWS
        if key.startswith(("click.", "slow_click.", "board.", "burst."))
        and not key.startswith("burst.single.")
    ),
    "db.store_commits",
    "db.store_burst",
    "db.store_burst_single",
    *(f"frame.{name}" for name in SAMPLES),
    "thinking.busy.p99",  # beside the same click with no bot thinking
    "web.clicks.busy",  # beside the same clicks with no page requests
}


# Rows beside the work floor too (bench/workfloor.py): read, commit durably, answer.
WITH_WORK_FLOOR = {
    key for key in ROWS if key.startswith(("click.", "slow_click.", "board.", "burst."))
}
# Run once whatever --repeat says: they count, their setup dwarfs their timings, or (the
# timers at 50 ms a request) they measure the bot's pace of requests.
# The web rows fill a store of 100,000 games first, as the store rows do.
ONCE = ("memory.", "store.", "timers.50ms.", "web.")
MACHINE = {
    "run", "seconds", "cores", "own_cores", "other_cores", "stolen_cores", "load_before",
    "load_after", "disturbed",
}  # fmt: skip
REPEAT = 2  # --repeat in these tests (3 by default): the median and the spread of 2 runs


def _number(value: object) -> bool:
    return isinstance(value, int | float) and math.isfinite(value)


def _check(report: dict[str, Any], engine: str, rows: set[str]) -> None:
    assert report["quick"] is True and report["engine"] == engine
    assert report["repeat"] == REPEAT
    assert set(report["rows"]) == rows
    for key, row in report["rows"].items():
        assert _number(row["bot"]), (key, row)
        runs = 1 if key.startswith(ONCE) else REPEAT
        assert len(row["runs"]) == runs and all(_number(v) for v in row["runs"]), (key, row)
        assert row["bot"] == statistics.median(row["runs"]), (key, row)
        # Beside each row: how busy the machine was in each of its runs.
        assert [m["run"] for m in row["machine"]] == list(range(1, runs + 1)), (key, row)
        assert all(set(m) == MACHINE for m in row["machine"]), (key, row)
        assert row["disturbed"] == any(m["disturbed"] for m in row["machine"]), (key, row)
        if runs == 1:
            assert row["spread_pct"] is None, (key, row)
        elif row["bot"] or len(set(row["runs"])) == 1:
            assert _number(row["spread_pct"]), (key, row)
        if key in WITH_FLOOR:
            assert _number(row["floor"]) and _number(row["ratio"]), (key, row)
        if key in WITH_WORK_FLOOR:
            assert _number(row["work_floor"]) and _number(row["work_ratio"]), (key, row)
            # bot / work floor; for a rate (clicks/s), work floor / bot: >1 is slower.
            a, b = (
                (row["work_floor"], row["bot"])
                if row["unit"] == "/s"
                else (row["bot"], row["work_floor"])
            )
            assert row["work_ratio"] == round(a / b, 2), (key, row)
        else:
            assert row["work_floor"] is None and row["work_ratio"] is None, (key, row)
        assert row["label"] and "unit" in row and "goal" in row


def test_quick_bench_prints_every_row_with_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--quick", "--json", "--repeat", str(REPEAT)]) == 0
    _check(json.loads(capsys.readouterr().out), "sqlite", ROWS)


def test_the_table_shows_both_floors_both_ratios_and_the_runs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["bench", "--quick", "--only", "floor,click", "--repeat", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    columns = [
        "measurement", "floor", "work floor", "bot", "spread", "ratio", "work ratio", "runs",
        "goal",
    ]  # fmt: skip
    assert re.split(r"\s{2,}", lines[0].strip()) == columns
    row = next(line for line in lines if line.startswith("push-your-luck click p50, N=1,"))
    cells = re.split(r"\s{2,}", row.strip())
    assert [c.endswith(" ms") for c in cells[1:4]] == [True] * 3, row
    assert re.fullmatch(r"[0-9]+%", cells[4]), row
    # A star on the ratios when a run was disturbed; the runs column says how many.
    star = cells[7] != "2, quiet"
    assert re.fullmatch(r"2, (quiet|[12] disturbed)", cells[7]), row
    ratio = r"[0-9.]+x\*" if star else r"[0-9.]+x"
    assert [re.fullmatch(ratio, c) is not None for c in cells[5:7]] == [True] * 2, row
    assert any(line.startswith("note: click, run 2 of 2: ") for line in lines)


def _snapshot(at: float, busy: float, own: float, steal: float = 0.0) -> Snapshot:
    return Snapshot(at=at, load=(1.0, 1.0, 1.0), busy=busy, steal=steal, own=own)


def test_a_run_is_disturbed_when_other_processes_took_a_tenth_of_the_cores() -> None:
    """Over 10 s: the bench used 9 CPU seconds of all the busy time; what is left is the
    other processes'. At 2 cores, 2 CPU seconds by others (0.2 cores) is the line."""
    cores = os.cpu_count() or 1
    line = 0.1 * cores * 10  # CPU seconds others may use in 10 s before the run is disturbed
    quiet = between(_snapshot(0, 100, 50), _snapshot(10, 100 + 9 + line * 0.9, 59))
    assert quiet["disturbed"] is False and quiet["own_cores"] == 0.9
    busy = between(_snapshot(0, 100, 50), _snapshot(10, 100 + 9 + line * 1.1, 59))
    assert busy["disturbed"] is True
    assert busy["other_cores"] == round(line * 1.1 / 10, 2)
    stolen = between(_snapshot(0, 100, 50), _snapshot(10, 109, 59, steal=line * 1.1))
    assert stolen["disturbed"] is True and stolen["other_cores"] == 0.0


def test_a_disturbed_run_stars_its_ratios_and_the_median_of_three_is_the_bot() -> None:
    report = Report()
    report.section = "click"
    quiet = between(_snapshot(0, 100, 50), _snapshot(10, 110, 60))
    busy = {**quiet, "disturbed": True}
    for value, seen in ((3.0, quiet), (1.0, busy), (2.0, quiet)):
        report.add("click.0.p50", "a click", "ms", value, work_floor=1.0)
        report.end_run(seen)
    [row] = report.rows
    assert (row.bot, row.runs, row.spread) == (2.0, [3.0, 1.0, 2.0], 100.0)
    assert row.disturbed and row.as_json()["disturbed"] is True
    table = render_table(report)
    assert "2.0x*" in table and "3, 1 disturbed" in table
    assert "read its ratio as the machine's" in table


def test_quick_bench_on_postgresql_leaves_the_given_database_alone(
    postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(["bench", "--quick", "--json", "--repeat", str(REPEAT), "--database", postgres_url])
        == 0
    )
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


def _read_back(target: str, row_id: int) -> tuple[int, str]:
    """The row's version and state as a new connection sees them: only what was committed."""
    if target.startswith("postgresql://"):
        with psycopg.connect(target) as conn:
            found = conn.execute(
                "SELECT version, state_json FROM games WHERE id = %s", (row_id,)
            ).fetchone()
    else:
        with contextlib.closing(sqlite3.connect(target)) as lite:
            found = lite.execute(
                "SELECT version, state_json FROM games WHERE id = ?", (row_id,)
            ).fetchone()
    assert found is not None
    return int(found[0]), str(found[1])


async def test_a_work_floor_click_commits_its_row_before_it_answers_like_the_turn_message(
    engine: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """The work floor's click reads a live game's row, writes it back in a committed
    transaction, and only then answers with the bot's turn message's shape; the board's
    first click also attaches a frame of the bot's board picture's size."""
    from PIL import Image

    from bench.env import import_harness
    from bench.targets import Targets
    from bench.workfloor import WorkFloor, measure_shape
    from bot.store import jsontext

    server = None if engine == "sqlite" else request.getfixturevalue("postgres_url")
    dbs = Targets(server, tmp_path)
    try:
        H = import_harness()
        shape = await measure_shape(H, dbs, 1)
        floor = await WorkFloor(H, dbs, shape, 2).start()
        try:
            row_id = floor.dice_ids[1]
            version, state = _read_back(floor.target, row_id)
            assert len(state) == len(jsontext.dumps(shape.dice_row.state))  # the store's text
            _, shown = await floor.click(floor.message(row_id))
            assert _read_back(floor.target, row_id) == (version + 1, state)
            _, shown = await floor.click(shown)
            assert _read_back(floor.target, row_id) == (version + 2, state)
            [embed] = shown.payload["embeds"]
            assert [f["name"] for f in embed["fields"]] == [
                f["name"] for f in shape.embed["fields"]
            ]
            assert shown.payload["content"] == shape.content
            assert [b.label for b in shown.buttons] == [b["label"] for _, b in shape.buttons]
            assert all(
                b.custom_id.startswith(f"work:{row_id}:0:{version + 2}:") for b in shown.buttons
            )

            board, _ = _read_back(floor.target, floor.board_id)
            _, card = await floor.click(floor.message(floor.board_id, frame=True))
            assert _read_back(floor.target, floor.board_id)[0] == board + 1
            [picture] = card.attachments
            assert (
                Image.open(io.BytesIO(picture.data)).size
                == Image.open(io.BytesIO(shape.frame)).size
            )
        finally:
            await floor.stop()
    finally:
        dbs.close()


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


async def test_a_failed_run_keeps_the_runs_before_it_and_says_so(tmp_path: Path) -> None:
    """A full-size run on a loaded machine can fail (a burst refused by the fake Discord's
    rate limits); the section stops there, its rows keep the runs made, and the note says
    which run failed."""
    from bench.report import QUICK
    from bench.run import run_section
    from bench.sections import Bench, Section
    from bench.targets import Targets

    calls: list[int] = []

    async def flaky(b: Bench) -> None:
        calls.append(len(calls) + 1)
        b.report.add("flaky.0", "a flaky row", "ms", float(len(calls)))
        if len(calls) == 2:
            b.report.add("flaky.1", "a row only the failed run made", "ms", 1.0)
            raise RuntimeError("refused\nand more")

    report = Report()
    b = Bench(None, Targets(None, tmp_path), QUICK, report, 1, 2)
    assert await run_section(Section("flaky", "a test", flaky), b, 3, ()) is False
    assert calls == [1, 2]
    [row] = report.rows
    assert row.runs == [1.0] and [m["run"] for m in row.machines] == [1]
    assert "flaky, run 2 of 3: FAILED (RuntimeError: refused)" in report.notes
