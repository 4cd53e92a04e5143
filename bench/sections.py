"""The bench's sections, in the order they run and print: one list. A new section is a
module of ``bench/`` with an async function taking a ``Bench``, and one line here."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bench.clicks import board_section, burst_section, click_section
from bench.database import database_section
from bench.floor import floor_section
from bench.frame import frame_section
from bench.odds import odds_section
from bench.processes import process_section
from bench.quickplay import quickplay_section
from bench.report import Report, Sizes
from bench.scale import memory_section, open_section, timer_section
from bench.store import store_section
from bench.tables import tables_section
from bench.targets import Targets
from bench.thinking import thinking_section
from bench.web import web_section
from bench.workfloor import work_floor_section


@dataclass(frozen=True)
class Bench:
    """What every section is given."""

    H: Any  # the offline harness (tests.harness)
    dbs: Targets  # new databases, one per section run
    sizes: Sizes
    report: Report
    seed: int
    processes: int  # the processes section's P


@dataclass(frozen=True)
class Section:
    name: str
    about: str
    run: Callable[[Bench], Awaitable[None]]
    # Run --repeat times (the median and the spread printed); once if it only counts, or
    # if its setup dwarfs its timings (which are already p50/p99 of many samples).
    repeat: bool = True
    postgresql_only: bool = False


async def floors(b: Bench) -> None:
    await floor_section(b.H, b.sizes, b.report)
    await work_floor_section(b.H, b.dbs, b.sizes, b.report, b.seed)


async def frames(b: Bench) -> None:
    frame_section(b.sizes, b.report)


async def odds(b: Bench) -> None:
    odds_section(b.sizes, b.report)


async def quickplay(b: Bench) -> None:
    quickplay_section(b.sizes, b.report, b.seed)


SECTIONS: tuple[Section, ...] = (
    Section("floor", "the no-op floor and the work floor (every ratio needs it)", floors),
    # Before the other sections of the bot: the cleanest resident memory.
    Section(
        "memory",
        "memory per live game",
        lambda b: memory_section(b.H, b.dbs, b.sizes, b.report, b.seed),
        repeat=False,
    ),
    Section(
        "click",
        "push-your-luck clicks beside N live games, a slow Discord, restarts",
        lambda b: click_section(b.H, b.dbs, b.sizes, b.report, b.seed),
    ),
    Section(
        "database",
        "round trips and statements per click; commits/s, with and without group commit",
        lambda b: database_section(b.H, b.dbs, b.sizes, b.report, b.seed),
    ),
    Section(
        "board",
        "board moves beside N live games",
        lambda b: board_section(b.H, b.dbs, b.sizes, b.report, b.seed),
    ),
    Section(
        "burst",
        "bursts of clicks on as many tables (with and without group commit), locks left",
        lambda b: burst_section(b.H, b.dbs, b.sizes, b.report, b.seed),
    ),
    Section(
        "thinking",
        "a click while 8 expert board bots think",
        lambda b: thinking_section(b.H, b.dbs, b.sizes, b.report, b.seed),
    ),
    Section(
        "processes",
        "the biggest burst split across processes on one database",
        lambda b: process_section(b.dbs, b.sizes, b.report, b.seed, b.processes),
        postgresql_only=True,
    ),
    Section(
        "timers",
        "timers expiring at once: committed and shown",
        lambda b: timer_section(b.H, b.dbs, b.sizes, b.report, b.seed),
    ),
    Section(
        "open",
        "opening a table beside many finished games",
        lambda b: open_section(b.H, b.dbs, b.sizes, b.report, b.seed),
    ),
    Section(
        "tables",
        "the table service alone: lobbies, seats, bot moves, redraws",
        lambda b: tables_section(b.H, b.dbs, b.sizes, b.report, b.seed),
    ),
    Section(
        "store",
        "leaderboards, escrows and payouts on a big database",
        lambda b: store_section(b.dbs, b.sizes, b.report, b.seed),
        repeat=False,
    ),
    Section(
        "web",
        "the web pages with 100,000 games; clicks while 200 page requests run",
        lambda b: web_section(b.H, b.dbs, b.sizes, b.report, b.seed),
        repeat=False,
    ),
    Section("frame", "board pictures and the strong bot's move time", frames),
    Section("odds", "the exact odds: cold, cached, everything", odds),
    Section("quickplay", "quick play's matcher: one pass over 10,000 queued members", quickplay),
)

NAMES = tuple(section.name for section in SECTIONS)
