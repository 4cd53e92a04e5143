"""The table's sizes (full and ``--quick``), its numbers, and how a report is printed."""

from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass, field
from typing import Any

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
    frames: int = 100
    ai_games: int = 4


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


@dataclass
class Row:
    key: str
    label: str
    unit: str  # ms, s, /s, KB, count
    bot: float
    floor: float | None = None
    goal: str = ""
    higher_is_better: bool = False
    # The work a click cannot avoid (bench/workfloor.py), where the row has one.
    work_floor: float | None = None

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
        ratio, work_ratio = self.ratio, self.work_ratio
        return {
            "label": self.label,
            "unit": self.unit,
            "floor": self.floor,
            "bot": self.bot,
            "ratio": None if ratio is None else round(ratio, 2),
            "work_floor": self.work_floor,
            "work_ratio": None if work_ratio is None else round(work_ratio, 2),
            "goal": self.goal,
        }


@dataclass
class Report:
    rows: list[Row] = field(default_factory=list)
    floor: dict[str, float] = field(default_factory=dict)
    work_floor: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def add(self, key: str, label: str, unit: str, bot: float, **kw: Any) -> None:
        self.rows.append(Row(key, label, unit, bot, **kw))


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
    return f"{value:,.2f} ms"


def times(ratio: float | None) -> str:
    return "—" if ratio is None else f"{ratio:.1f}x"


def render_table(report: Report) -> str:
    head = ("measurement", "floor", "work floor", "bot", "ratio", "work ratio", "goal")
    lines = [
        [
            r.label,
            fmt(r.floor, r.unit),
            fmt(r.work_floor, r.unit),
            fmt(r.bot, r.unit),
            times(r.ratio),
            times(r.work_ratio),
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
    out += [f"note: {n}" for n in report.notes]
    return "\n".join(out)
