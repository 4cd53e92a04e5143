"""The table's sizes (full and ``--quick``), its numbers, and how a report is printed."""

from __future__ import annotations

import math
import os
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from bench.machine import DISTURBED_SHARE

T0 = 1_780_000_000.0
LATENCY = 0.05  # seconds per Discord request in the "slow Discord" rows


@dataclass(frozen=True)
class Sizes:
    live: tuple[int, int, int] = (1, 1_000, 10_000)
    clicks: int = 300
    slow_clicks: int = 40
    board_live: tuple[int, int] = (1, 1_000)
    board_moves: int = 60
    bursts: tuple[int, int] = (200, 1_000)
    db_clicks: int = 40
    commits: int = 3_000
    restart: tuple[int, int] = (1_000, 10_000)
    timers: int = 1_000
    timers_big: int = 10_000
    finished: tuple[int, int] = (10, 10_000)
    opens: int = 40
    memory: tuple[int, int] = (10_000, 1_000)
    closed: int = 500
    frames: int = 200
    ai_games: int = 4
    odds_repeat: int = 200  # cached advice calls per state
    store_games: int = 100_000
    store_members: int = 10_000
    store_runs: int = 200  # timed runs per store measurement
    tables_games: int = 20  # demo games per game, played by bots through the service
    queued: int = 10_000  # quick play's waiting members in one matcher pass


QUICK = Sizes(
    live=(1, 5, 20),
    clicks=5,
    slow_clicks=3,
    board_live=(1, 5),
    board_moves=2,
    bursts=(5, 10),
    db_clicks=3,
    commits=50,
    restart=(5, 20),
    timers=5,
    timers_big=20,
    finished=(10, 30),
    opens=3,
    memory=(20, 3),
    closed=5,
    frames=3,
    ai_games=1,
    odds_repeat=1,
    store_games=300,
    store_members=40,
    store_runs=3,
    tables_games=1,
    queued=20,
)


# --- numbers ---------------------------------------------------------------------------


def quantile(values: list[float], q: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def ms_since(start: float, end: float | None) -> float:
    return ((end if end is not None else time.perf_counter()) - start) * 1000


def rss() -> int:
    """Resident memory of this process in bytes (Linux), 0 elsewhere."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return 0


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


@dataclass
class Row:
    """One measurement: the value of each run of its section (``runs``), the floors each run
    was compared with, and how busy the machine was in each run (``machines``)."""

    key: str
    label: str
    unit: str  # ms, s, /s, KB, count
    section: str = ""
    goal: str = ""
    higher_is_better: bool = False
    runs: list[float] = field(default_factory=list)
    floors: list[float] = field(default_factory=list)
    # The work a click cannot avoid (bench/workfloor.py), where the row has one.
    work_floors: list[float] = field(default_factory=list)
    machines: list[dict[str, Any]] = field(default_factory=list)

    @property
    def bot(self) -> float:
        """The median of the runs."""
        return statistics.median(self.runs)

    @property
    def floor(self) -> float | None:
        return _median(self.floors)

    @property
    def work_floor(self) -> float | None:
        return _median(self.work_floors)

    @property
    def spread(self) -> float | None:
        """(slowest − fastest run) / the median, in %; None for a single run (or runs that
        differ around a median of 0)."""
        if len(self.runs) < 2:
            return None
        width = max(self.runs) - min(self.runs)
        if not width:
            return 0.0
        return width / abs(self.bot) * 100 if self.bot else None

    @property
    def disturbed(self) -> bool:
        """Whether the machine was busy in any of the row's runs (bench/machine.py)."""
        return any(m.get("disturbed") for m in self.machines)

    def _times(self, floor: float | None) -> float | None:
        """How many times slower than ``floor`` (>1: slower)."""
        if floor is None or not floor or not self.bot:
            return None
        return floor / self.bot if self.higher_is_better else self.bot / floor

    @property
    def ratio(self) -> float | None:
        """How many times slower than the no-op floor."""
        return self._times(self.floor)

    @property
    def work_ratio(self) -> float | None:
        """How many times slower than the work floor."""
        return self._times(self.work_floor)

    def as_json(self) -> dict[str, Any]:
        ratio, work_ratio, spread = self.ratio, self.work_ratio, self.spread
        return {
            "label": self.label,
            "unit": self.unit,
            "section": self.section,
            "floor": self.floor,
            "bot": self.bot,
            "ratio": None if ratio is None else round(ratio, 2),
            "work_floor": self.work_floor,
            "work_ratio": None if work_ratio is None else round(work_ratio, 2),
            "goal": self.goal,
            "runs": self.runs,
            "spread_pct": None if spread is None else round(spread, 1),
            "disturbed": self.disturbed,
            "machine": self.machines,
        }


@dataclass
class Report:
    rows: list[Row] = field(default_factory=list)
    floor: dict[str, float] = field(default_factory=dict)
    work_floor: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    section: str = ""  # the section running now: its rows are marked with it
    run: int = 1  # which run of it (1 to --repeat)
    touched: list[Row] = field(default_factory=list)  # rows the section's run added to
    machine: list[dict[str, Any]] = field(default_factory=list)  # each section run's

    def add(
        self,
        key: str,
        label: str,
        unit: str,
        bot: float,
        *,
        floor: float | None = None,
        work_floor: float | None = None,
        goal: str = "",
        higher_is_better: bool = False,
    ) -> None:
        """One run's value of a row: the first run makes the row, the others add to it."""
        row = next((r for r in self.rows if r.key == key), None)
        if row is None:
            row = Row(key, label, unit, self.section, goal, higher_is_better)
            self.rows.append(row)
        row.runs.append(bot)
        if floor is not None:
            row.floors.append(floor)
        if work_floor is not None:
            row.work_floors.append(work_floor)
        self.touched.append(row)

    def discard_run(self) -> None:
        """The section's run failed: what it added goes (a row it made, a run it added)."""
        for row in {id(r): r for r in self.touched}.values():
            kept = len(row.machines)  # one per finished run
            del row.runs[kept:], row.floors[kept:], row.work_floors[kept:]
        self.rows = [r for r in self.rows if r.runs]
        self.touched = []

    def end_run(self, machine: dict[str, Any]) -> None:
        """The section's run is over: how busy the machine was goes beside its rows."""
        for row in {id(r): r for r in self.touched}.values():  # once each, in order
            row.machines.append(machine)
        self.touched = []


def fmt(value: float | None, unit: str) -> str:
    if value is None:
        return "—"
    if unit == "count":
        return f"{value:,.0f}"
    if unit == "/s":
        return f"{value:,.0f}/s"
    if unit == "s":
        return f"{value:.2f} s"
    if unit == "KB":
        return f"{value:,.1f} KB"
    if unit == "µs":
        return f"{value:,.2f} µs"
    return f"{value:,.2f} ms"


def times(ratio: float | None, disturbed: bool = False) -> str:
    """A ratio; a star when a run was disturbed (its ratio is the machine's too)."""
    return "—" if ratio is None else f"{ratio:.1f}x{'*' if disturbed else ''}"


def runs_cell(row: Row) -> str:
    """How many runs, and how many of them were disturbed."""
    busy = sum(1 for m in row.machines if m.get("disturbed"))
    return f"{len(row.runs)}, {busy} disturbed" if busy else f"{len(row.runs)}, quiet"


DISTURBED_NOTE = (
    f"*: a run of this row was disturbed (other processes used ≥ {DISTURBED_SHARE:.0%} of the "
    "cores meanwhile): read its ratio as the machine's, not the bot's"
)


def render_table(report: Report) -> str:
    head = (
        "measurement", "floor", "work floor", "bot", "spread", "ratio", "work ratio", "runs",
        "goal",
    )  # fmt: skip
    lines = [
        [
            r.label,
            fmt(r.floor, r.unit),
            fmt(r.work_floor, r.unit),
            fmt(r.bot, r.unit),
            "—" if r.spread is None else f"{r.spread:.0f}%",
            times(r.ratio, r.disturbed),
            times(r.work_ratio, r.disturbed),
            runs_cell(r),
            r.goal,
        ]
        for r in report.rows
    ]
    n = len(head) - 1  # every column but the goal is padded
    widths = [max(len(head[i]), *(len(line[i]) for line in lines)) for i in range(n)]
    out = ["  ".join(h.ljust(w) for h, w in zip(head[:n], widths, strict=True)) + "  goal"]
    out.append("  ".join("-" * w for w in widths) + "  ----")
    for line in lines:
        cells = [line[0].ljust(widths[0])] + [
            c.rjust(w) for c, w in zip(line[1:n], widths[1:], strict=True)
        ]
        out.append("  ".join(cells) + "  " + line[n])
    if any(r.disturbed and (r.ratio or r.work_ratio) for r in report.rows):
        out.append(DISTURBED_NOTE)
    out += [f"note: {n}" for n in report.notes]
    return "\n".join(out)
