"""``python -m bot bench``: the performance table of issue 13, measured in one run.

Every row is measured through the offline interaction harness (``tests/harness``: discord.py's
own dispatch against a fake Discord), next to a floor measured in the same run through the
same harness where there is one: a no-op ``DynamicItem`` click answered by
``interaction.response.edit_message`` on a bare ``commands.Bot``. The harness lives in the
checkout's ``tests/`` folder, so this command runs from a checkout with the dev extras
installed (``make bench``). Nothing is asserted: it prints numbers. ``--quick`` runs a tiny
version of every row in seconds (``make test`` runs it so it cannot rot); ``--json`` prints
one JSON object instead of the table.

The N live games are copies of one game really opened, joined and started through the
harness, written through the store's repositories in one transaction
(``bot.sim.live_games``). The other benchmarks (``bench-tables``, ``bench-odds``,
``bench-render``, ``bench-store``) stay separate commands.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import functools
import gc
import importlib
import io
import json
import math
import os
import queue
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.cli.bench_db import BenchDatabaseError, Targets
from bot.store.db import is_postgresql

HELP_NOTE = (
    "Needs the offline test harness: run it from a checkout (it imports tests.harness, and "
    "dpytest from the dev extras: pip install -e '.[dev]'). N up to 10,000 takes minutes; "
    "--quick runs every row tiny, in seconds."
)

T0 = 1_780_000_000.0
LATENCY = 0.05  # seconds per Discord request in the "slow Discord" rows
SECTIONS = (
    "floor", "click", "board", "burst", "processes", "timers", "open", "memory", "frame"
)  # fmt: skip


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


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = f"{parser.description or ''}. {HELP_NOTE}"
    parser.add_argument("--quick", action="store_true", help="a tiny version of every row")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--only",
        default=None,
        help=f"comma-separated sections to run: {','.join(SECTIONS)} (ratios need floor; "
        "processes needs --database)",
    )
    parser.add_argument(
        "--database",
        metavar="URL",
        default=None,
        help="run on PostgreSQL: postgresql://... of a server where this role may CREATE "
        "DATABASE; each section gets a new database bench_<pid>_<n>, dropped after it (the "
        "URL's own database is only connected to). Default: new SQLite files in a temp folder",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=2,
        metavar="P",
        help="the processes section: the biggest burst split across P processes on one "
        "PostgreSQL database, beside the same burst from 1 process (default 2)",
    )


# --- numbers ---------------------------------------------------------------------------


def _p(values: list[float], q: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def _ms(start: float, end: float | None) -> float:
    return ((end if end is not None else time.perf_counter()) - start) * 1000


def _rss() -> int:
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

    @property
    def ratio(self) -> float | None:
        """How many times slower than the floor (>1: slower)."""
        if self.floor is None or not self.floor or not self.bot:
            return None
        return self.floor / self.bot if self.higher_is_better else self.bot / self.floor

    def as_json(self) -> dict[str, Any]:
        ratio = self.ratio
        return {
            "label": self.label,
            "unit": self.unit,
            "floor": self.floor,
            "bot": self.bot,
            "ratio": None if ratio is None else round(ratio, 2),
            "goal": self.goal,
        }


@dataclass
class Report:
    rows: list[Row] = field(default_factory=list)
    floor: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def add(self, key: str, label: str, unit: str, bot: float, **kw: Any) -> None:
        self.rows.append(Row(key, label, unit, bot, **kw))


def _fmt(value: float | None, unit: str) -> str:
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


def render_table(report: Report) -> str:
    head = ("measurement", "floor", "bot", "ratio", "goal")
    lines = [
        [
            r.label,
            _fmt(r.floor, r.unit),
            _fmt(r.bot, r.unit),
            "—" if r.ratio is None else f"{r.ratio:.1f}x",
            r.goal,
        ]
        for r in report.rows
    ]
    widths = [max(len(head[i]), *(len(line[i]) for line in lines)) for i in range(4)]
    out = ["  ".join(h.ljust(w) for h, w in zip(head[:4], widths, strict=True)) + "  goal"]
    out.append("  ".join("-" * w for w in widths) + "  ----")
    for line in lines:
        cells = [line[0].ljust(widths[0])] + [
            c.rjust(w) for c, w in zip(line[1:4], widths[1:], strict=True)
        ]
        out.append("  ".join(cells) + "  " + line[4])
    out += [f"note: {n}" for n in report.notes]
    return "\n".join(out)


# --- the harness and the environments ---------------------------------------------------


def _import_harness() -> Any:
    return importlib.import_module("tests.harness")


class _Clock:
    """The bots' clock: still unless a section moves it, so no timer fires by itself."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        return self.now


def _noop_bot() -> Any:
    """A bare ``commands.Bot`` whose one ``DynamicItem`` answers a click by editing the
    message: discord.py's own dispatch and nothing else (the floor)."""
    import re

    import discord
    from discord.ext import commands

    class NoopButton(
        discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bench:(?P<n>[0-9]+)"
    ):
        def __init__(self, n: int) -> None:
            super().__init__(discord.ui.Button(label="Noop", custom_id=f"bench:{n}"))
            self.n = n

        @classmethod
        async def from_custom_id(
            cls,
            interaction: discord.Interaction[Any],
            item: discord.ui.Item[Any],
            match: re.Match[str],
            /,
        ) -> NoopButton:
            return cls(int(match["n"]))

        async def callback(self, interaction: discord.Interaction[Any]) -> None:
            await interaction.response.edit_message(content=f"clicked {self.n}")

    class FloorBot(commands.Bot):
        async def setup_hook(self) -> None:
            self.add_dynamic_items(NoopButton)

    return FloorBot(command_prefix="!", intents=discord.Intents.default())


class _Env:
    """The real bot on a fresh database inside the harness, with two members.

    ``dbs`` makes the database (``dbs.new(name)``) and drops it at ``stop``; ``target``
    names one that already exists instead (a database shared by several processes).
    ``shard`` = (index, count): the bot runs that one of ``count`` shards, as one of
    several processes, and its guild is on that shard."""

    def __init__(
        self,
        H: Any,
        dbs: Targets | None,
        name: str,
        seed: int,
        *,
        timers: bool,
        target: str | None = None,
        shard: tuple[int, int] | None = None,
    ) -> None:
        self.H = H
        self.dbs = dbs
        self.name = name
        self.target = target or ""
        self.seed = seed
        self.timers = timers
        self.shard = shard
        self.clock = _Clock()
        # Database work made by clicks (not the timer loop), while _db_work counts it:
        # "hops" to aiosqlite's thread (SQLite only) and "statements" (both engines).
        self.counts = {"hops": 0, "statements": 0}
        self.last_counts = dict(self.counts)

    async def start(self) -> _Env:
        from bot.app import make_bot
        from bot.config import Settings
        from bot.store.db import Database

        if not self.target:
            assert self.dbs is not None
            self.target = self.dbs.new(self.name)
        many = 10_000_000
        options: dict[str, Any] = {}
        guild_id = None
        if not is_postgresql(self.target):
            options["database_path"] = Path(self.target)
        if self.shard is not None:
            index, count = self.shard
            options.update(shard_count=count, shard_ids=[index])
            guild_id = ((1_000_000 * count + index) << 22) | 0x3E8  # on shard ``index``
        self.settings = Settings(  # type: ignore[call-arg]
            _env_file=None,
            start_cooldown_seconds=0,
            max_lobbies_per_channel=many,
            max_games_per_channel=many,
            max_lobbies_per_guild=many,
            max_games_per_guild=many,
            **options,
        )
        db = await Database.open(self.target)
        self.bot = make_bot(
            self.settings,
            db,
            clock=self.clock,
            rng=random.Random(self.seed),
            run_timers=self.timers,
        )
        # Answer times are measured here, not held to Discord's deadline (bursts exceed it).
        self.h = await self.H.Harness.start(
            self.bot, settle_timeout=3600.0, guild_id=guild_id, answer_deadline=None
        )
        self.h.ignore_tasks("table-timers")  # the bot's endless timer loop runs alongside
        self.ana = await self.h.member("Ana")
        self.bo = await self.h.member("Bo")
        self.players = {self.ana.id: self.ana, self.bo.id: self.bo}
        return self

    async def stop(self) -> None:
        try:
            await self.h.stop()
        finally:
            await self.bot.db.close()
            if self.dbs is not None:
                self.dbs.drop(self.target)

    @staticmethod
    def _table_id(message: Any) -> int:
        return int(message.buttons[0].custom_id.split(":")[1])

    async def start_game(self, command: str, **options: Any) -> int:
        """A game opened, joined and started by clicks; returns its id."""
        lobby = (await self.ana.slash(command, **options)).message
        table_id = self._table_id(lobby)
        lobby = (await self.bo.click(lobby, "Join")).message
        await self.ana.click(lobby, "Start")
        return table_id

    async def copies(
        self, table_id: int, count: int, deadline: Callable[[int], float | None]
    ) -> list[int]:
        """``count`` copies of a running table, each shown by its own message in the
        channel (a copy of the original's, with the copy's id in its buttons)."""
        from bot.sim.live_games import insert_live_copies

        if count <= 0:
            return []
        table = await self.bot.tables.get(table_id)
        shown = self.h.message(table.row.message_id).payload
        components = json.dumps(shown.get("components") or [])
        fake = self.h.fake
        author = fake._bot_author()  # private to the harness: the bot as message author
        channel = self.h.channel_id

        def show(i: int, game_id: int) -> int:
            fields = {
                "content": shown.get("content") or "",
                "embeds": shown.get("embeds") or [],
                "components": json.loads(components.replace(f'"t:{table_id}:', f'"t:{game_id}:')),
            }
            return int(
                fake.create_message(channel_id=channel, author=author, fields=fields, files=[]).id
            )

        return await insert_live_copies(
            self.bot.db,
            table.row,
            count,
            place=lambda i: (channel, None),
            deadline=deadline,
            show=show,
        )

    def spread(self, count: int) -> Callable[[int], float]:
        """Deadlines spread over the next turn timeout, as on a busy server: the timer
        loop always has one coming and ticks at its fastest."""
        span = self.settings.turn_timeout_seconds
        return lambda i: self.clock.now + 0.01 + span * i / max(1, count)

    async def dice_click(self, table_id: int) -> float | None:
        """The player to move presses one of the turn's buttons (throw, bank, push, lock;
        not the private Odds); ms until the click was answered. None: the game is over."""
        table = await self.bot.tables.get(table_id)
        if table.status != "running":
            return None
        seat = table.game.current_seat(table.rules)
        assert seat is not None
        player = self.players[table.seats[seat].user_id]
        message = self.h.message(table.row.message_id)
        choices = [
            b
            for b in message.buttons
            if b.custom_id
            and not b.disabled
            and b.custom_id.startswith(f"t:{table_id}:{table.version}:")
            and not table.game.is_private(b.custom_id.rsplit(":", 1)[1])  # type: ignore[attr-defined]
        ]
        button = self.rng.choice(choices)
        before = dict(self.counts)
        started = time.perf_counter()
        reply = await player.click(message, custom_id=button.custom_id)
        self.last_counts = {k: v - before[k] for k, v in self.counts.items()}
        return _ms(started, reply.answered_at)

    @property
    def rng(self) -> random.Random:
        if not hasattr(self, "_rng"):
            self._rng = random.Random(self.seed)
        return self._rng

    async def dice_clicks(self, count: int, table_id: int) -> tuple[list[float], int]:
        samples: list[float] = []
        while len(samples) < count:
            ms = await self.dice_click(table_id)
            if ms is None:  # finished: the next game takes its place
                table_id = await self.start_game("sequences start", rounds=10)
            else:
                samples.append(ms)
        return samples, table_id

    async def board_move(self, table_id: int) -> float | None:
        """One move through the private hand: My hand (not timed), then a card and a space
        (each timed until answered). None when this turn was not card-then-space (a pass,
        a trade, a one-eyed jack's choice...), or the game is over."""
        table = await self.bot.tables.get(table_id)
        if table.status != "running":
            return None
        player = self.players[table.seats[table.rules.turn].user_id]
        hand = (await player.click(self.h.message(table.row.message_id), "My hand")).message
        usable = [b for b in hand.buttons if b.custom_id and not b.disabled]
        odd = [b for b in usable if (b.label or "").startswith(("Pass", "Trade"))]
        if odd:
            await player.click(hand, custom_id=odd[0].custom_id)
            return None
        cards = [b for b in usable if b.label not in ("Refresh", "Back")]
        started = time.perf_counter()
        first = await player.click(hand, custom_id=cards[0].custom_id)
        card_ms = _ms(started, first.answered_at)
        spaces = [
            b
            for b in first.message.buttons
            if b.custom_id and not b.disabled and b.label not in ("Refresh", "Back")
        ]
        if "choose" not in first.text or not spaces:
            return None
        started = time.perf_counter()
        second = await player.click(first.message, custom_id=spaces[0].custom_id)
        space_ms = _ms(started, second.answered_at)
        for _ in range(3):  # a further choice (a row): finish the move, not timed
            if "choose" not in second.text:
                return card_ms + space_ms
            more = [
                b
                for b in second.message.buttons
                if b.custom_id and not b.disabled and b.label not in ("Refresh", "Back")
            ]
            if not more:
                break
            second = await player.click(second.message, custom_id=more[0].custom_id)
        return None

    async def restart(self) -> tuple[float, int]:
        """A new bot instance on the same database (a process restart): seconds until its
        restore finished, and the Discord requests sent meanwhile."""
        from bot.app import make_bot
        from bot.store.db import Database

        old = self.bot
        db = await Database.open(self.target)
        new = make_bot(
            self.settings, db, clock=self.clock, rng=random.Random(self.seed), run_timers=False
        )
        done: list[float] = []
        restore = new.shell.publisher.restore

        async def timed_restore() -> int:
            restored = await restore()
            done.append(time.perf_counter())
            return restored

        setattr(new.shell.publisher, "restore", timed_restore)  # noqa: B010
        before = len(self.h.requests)
        started = time.perf_counter()
        await self.h.restart(new)
        await old.db.close()
        self.bot = new
        return (done[0] if done else time.perf_counter()) - started, len(self.h.requests) - before

    async def timed_tick(self) -> tuple[float, float]:
        """One tick of the timer loop: seconds until every due change was committed, and
        until every one was shown."""
        committed: list[float] = []
        tables = self.bot.tables
        run_due = tables.run_due

        async def timed_run_due(on_change: Any = None) -> Any:
            changes = await run_due(on_change)
            committed.append(time.perf_counter())
            return changes

        setattr(tables, "run_due", timed_run_due)  # noqa: B010
        started = time.perf_counter()
        try:
            await self.bot.tick()
            await self.h.settle()
        finally:
            delattr(tables, "run_due")
        return committed[0] - started, time.perf_counter() - started


class _Floor:
    """The floor: a bare bot whose no-op button edits its message, in the same harness."""

    def __init__(self, H: Any) -> None:
        self.H = H

    async def start(self) -> _Floor:
        self.h = await self.H.Harness.start(
            _noop_bot(), settle_timeout=3600.0, answer_deadline=None
        )
        self.player = await self.h.member("Ana")
        self.made = 0
        return self

    def message(self) -> Any:
        self.made += 1
        button = {"type": 2, "style": 1, "label": "Noop", "custom_id": f"bench:{self.made}"}
        stored = self.h.fake.create_message(
            channel_id=self.h.channel_id,
            author=self.h.fake._bot_author(),
            fields={"content": "floor", "components": [{"type": 1, "components": [button]}]},
            files=[],
        )
        return self.h.message(stored.id)

    async def click(self, message: Any) -> float:
        started = time.perf_counter()
        reply = await self.player.click(message, custom_id=message.buttons[0].custom_id)
        return _ms(started, reply.answered_at)

    async def clicks(self, count: int) -> list[float]:
        message = self.message()
        return [await self.click(message) for _ in range(count)]

    async def burst(self, size: int) -> tuple[float, float, float]:
        messages = [self.message() for _ in range(size)]
        return await _burst(self.h, [(self.player, m, m.buttons[0].custom_id) for m in messages])

    async def stop(self) -> None:
        await self.h.stop()


async def _deliver(h: Any, clicks: list[tuple[Any, Any, str]]) -> tuple[float, list[float]]:
    """Deliver every click before any handler runs (``together``): when they were
    delivered, and when each was answered (``time.perf_counter``)."""
    started = time.perf_counter()
    replies = await h.together(*(p.click(m, custom_id=c) for p, m, c in clicks))
    return started, [r.answered_at or time.perf_counter() for r in replies]


def _burst_figures(starts: list[float], answered: list[float]) -> tuple[float, float, float]:
    """Clicks/s from the first delivery until the last answer, and p50/p99 ms of
    ``answered`` (each from the start of its own process's burst, ``starts``[i] per click)."""
    latencies = [_ms(s, a) for s, a in zip(starts, answered, strict=True)]
    rate = len(answered) / max(1e-9, max(answered) - min(starts))
    return rate, _p(latencies, 0.5), _p(latencies, 0.99)


async def _burst(h: Any, clicks: list[tuple[Any, Any, str]]) -> tuple[float, float, float]:
    """Clicks/s until the last was answered, p50 and p99 ms until each was answered."""
    started, answered = await _deliver(h, clicks)
    return _burst_figures([started] * len(answered), answered)


# --- sections ---------------------------------------------------------------------------


async def _floor(H: Any, sizes: Sizes, report: Report) -> None:
    floor = await _Floor(H).start()
    try:
        samples = await floor.clicks(max(sizes.clicks, 20))
        report.floor["click_p50"], report.floor["click_p99"] = _p(samples, 0.5), _p(samples, 0.99)
        pairs = [a + b for a, b in zip(samples[::2], samples[1::2], strict=False)]
        report.floor["two_p50"], report.floor["two_p99"] = _p(pairs, 0.5), _p(pairs, 0.99)
        for size in sizes.bursts:
            rate, p50, p99 = await floor.burst(size)
            report.floor[f"burst{size}"] = rate
            report.floor[f"burst{size}_p50"], report.floor[f"burst{size}_p99"] = p50, p99
        floor.h.set_latency(LATENCY)
        slow = await floor.clicks(sizes.slow_clicks)
        floor.h.set_latency(0)
        report.floor["slow_p50"], report.floor["slow_p99"] = _p(slow, 0.5), _p(slow, 0.99)
    finally:
        await floor.stop()


def _goal_click() -> str:
    return "≤ 2x at p50 and p99, at 10,000 live games with timers running"


async def _click(H: Any, dbs: Targets, sizes: Sizes, report: Report, seed: int) -> None:
    f = report.floor
    for slot, n in enumerate(sizes.live):
        env = await _Env(H, dbs, f"click{n}", seed, timers=True).start()
        try:
            table_id = await env.start_game("sequences start", rounds=10)
            await env.copies(table_id, n - 1, env.spread(n))
            samples, table_id = await env.dice_clicks(sizes.clicks, table_id)
            for q in ("p50", "p99"):
                value = _p(samples, 0.5 if q == "p50" else 0.99)
                report.add(
                    f"click.{slot}.{q}",
                    f"push-your-luck click {q}, N={n:,}, timers on",
                    "ms",
                    value,
                    floor=f.get(f"click_{q}"),
                    goal=_goal_click(),
                )
            if slot == 0:
                await _slow_click(env, table_id, sizes, report)
                await _db_work(env, table_id, sizes, report)
            if n in sizes.restart:
                seconds, requests = await env.restart()
                which = sizes.restart.index(n)
                report.add(
                    f"restart.{which}.seconds",
                    f"restart, {n:,} live games: until restored",
                    "s",
                    seconds,
                    goal="≤ 2 s of bot-side work for 10,000",
                )
                report.add(
                    f"restart.{which}.requests",
                    f"restart, {n:,} live games: Discord requests",
                    "count",
                    requests,
                    goal="no burst beyond the rate limits",
                )
        finally:
            await env.stop()


async def _slow_click(env: _Env, table_id: int, sizes: Sizes, report: Report) -> None:
    env.h.set_latency(LATENCY)
    try:
        samples, _ = await env.dice_clicks(sizes.slow_clicks, table_id)
    finally:
        env.h.set_latency(0)
    f = report.floor
    for q in ("p50", "p99"):
        value = _p(samples, 0.5 if q == "p50" else 0.99)
        report.add(
            f"slow_click.{q}",
            f"click {q}, {LATENCY * 1000:.0f} ms per Discord request",
            "ms",
            value,
            floor=f.get(f"slow_{q}"),
            goal="answer first",
        )


def _in_timer_loop() -> bool:
    """Whether the caller is the bot's timer loop. A write batch's statements run on the
    engine's worker thread, outside any task: they are the click's own (the clock is still,
    so the timer loop writes nothing)."""
    try:
        task = asyncio.current_task()
    except RuntimeError:  # no event loop in this thread: the writer
        return False
    return task is not None and task.get_name().startswith("table-timers")


async def _db_work(env: _Env, table_id: int, sizes: Sizes, report: Report) -> None:
    """Database round trips and statements per click, and commits per second."""
    from bot.store.db import AFTER_COMMIT
    from bot.store.sqlite import SqliteDatabase

    db = env.bot.db

    def on_statement(sql: str) -> None:
        if sql != AFTER_COMMIT and not _in_timer_loop():
            env.counts["statements"] += 1

    db.on_statement = on_statement
    conn: Any = db.conn if isinstance(db, SqliteDatabase) else None
    if conn is not None:
        real: Any = conn._execute  # private: aiosqlite's one hop to its thread, every call

        async def counting(fn: Any, *args: Any, **kwargs: Any) -> Any:
            task = asyncio.current_task()
            if task is None or not task.get_name().startswith("table-timers"):
                env.counts["hops"] += 1  # the click's own work, not the timer loop's ticks
            return await real(fn, *args, **kwargs)

        setattr(conn, "_execute", counting)  # noqa: B010
    counts: list[dict[str, int]] = []
    try:
        while len(counts) < sizes.db_clicks:
            if await env.dice_click(table_id) is None:
                table_id = await env.start_game("sequences start", rounds=10)
            else:
                counts.append(env.last_counts)
    finally:
        db.on_statement = None
        if conn is not None:
            delattr(conn, "_execute")
    statements = statistics.fmean(c["statements"] for c in counts)
    if conn is not None:
        trips, what = statistics.fmean(c["hops"] for c in counts), "hops to aiosqlite's thread"
    else:  # every statement is one round trip to the server
        trips, what = statements, "one per statement"
    report.add(
        "db.round_trips",
        f"database round trips per click ({what})",
        "count",
        trips,
        goal="a few round trips, one transaction",
    )
    report.add(
        "db.statements",
        "database statements per click (BEGIN and COMMIT included)",
        "count",
        statements,
        goal="",
    )

    dbs, name = env.dbs, env.bot.db.engine
    assert dbs is not None
    raw_one = await _raw_commits(dbs, sizes.commits, 1)
    raw_batch = await _raw_commits(dbs, sizes.commits * 10, 100)
    store = await _store_commits(env, table_id, sizes.commits)
    burst = await _store_burst(env, table_id, sizes.commits)
    engine, driver = dbs.label, "sqlite3" if name == "sqlite" else "psycopg"
    report.add(
        "db.raw_commits",
        f"{engine}: raw {driver}, one change per commit",
        "/s",
        raw_one,
        higher_is_better=True,
        goal="(the disk's floor)",
    )
    report.add(
        "db.raw_batched",
        f"{engine}: raw {driver}, 100 changes per commit",
        "/s",
        raw_batch,
        higher_is_better=True,
        goal="(group commit's floor)",
    )
    report.add(
        "db.store_commits",
        f"{engine}: the bot's store, one change at a time",
        "/s",
        store,
        floor=raw_one,
        higher_is_better=True,
        goal="(one hop per change)",
    )
    report.add(
        "db.store_burst",
        f"{engine}: the bot's store, {sizes.commits:,} changes at once (group commit)",
        "/s",
        burst,
        floor=raw_batch,
        higher_is_better=True,
        goal="≥ 10,000 durable changes/s under a burst",
    )


async def _raw_commits(dbs: Targets, changes: int, per_commit: int) -> float:
    """The plain driver's commits/s on a new database of the same engine and server."""
    target = dbs.new(f"raw{per_commit}")
    try:
        return await asyncio.to_thread(dbs.raw_commits, target, changes, per_commit)
    finally:
        dbs.drop(target)


async def _store_commits(env: _Env, table_id: int, changes: int) -> float:
    """The store's write path of a click (``games.update_sync`` with its version check, in
    one ``Database.write``), one change after another, on a copy nobody plays."""

    [copy_id] = await env.copies(table_id, 1, lambda i: None)
    row = (await env.bot.tables.get(copy_id)).row
    db = env.bot.db
    started = time.perf_counter()
    for _ in range(changes):
        row.version += 1
        await db.write(functools.partial(_bump_job, row=dataclasses.replace(row)))
    return changes / (time.perf_counter() - started)


def _bump_job(conn: Any, *, row: Any) -> None:
    from bot.store import games

    games.update_sync(conn, row, row.version - 1)


async def _store_burst(env: _Env, table_id: int, changes: int) -> float:
    """The same change on ``changes`` copies at once: group commit writes them together."""
    ids = await env.copies(table_id, changes, lambda i: None)
    rows = [dataclasses.replace((await env.bot.tables.get(i)).row) for i in ids]
    for row in rows:
        row.version += 1
    db = env.bot.db
    started = time.perf_counter()
    await asyncio.gather(*(db.write(functools.partial(_bump_job, row=row)) for row in rows))
    return changes / (time.perf_counter() - started)


async def _board(H: Any, dbs: Targets, sizes: Sizes, report: Report, seed: int) -> None:
    f = report.floor
    for slot, n in enumerate(sizes.board_live):
        env = await _Env(H, dbs, f"board{n}", seed, timers=True).start()
        try:
            board_id = await env.start_game("board start")
            if n > 1:
                dice_id = await env.start_game("sequences start", rounds=10)
                await env.copies(dice_id, n - 2, env.spread(n))
            samples: list[float] = []
            for _ in range(sizes.board_moves * 4):
                if len(samples) >= sizes.board_moves:
                    break
                if (await env.bot.tables.get(board_id)).status != "running":
                    board_id = await env.start_game("board start")
                ms = await env.board_move(board_id)
                if ms is not None:
                    samples.append(ms)
            for q in ("p50", "p99"):
                value = _p(samples, 0.5 if q == "p50" else 0.99)
                report.add(
                    f"board.{slot}.{q}",
                    f"board move (card, then space) {q}, N={n:,}",
                    "ms",
                    value,
                    floor=f.get(f"two_{q}"),
                    goal="≤ 2x",
                )
        finally:
            await env.stop()


async def _throw_button(env: _Env) -> tuple[int, Any, str]:
    """A game started for the burst: its id, the player to move, and its Throw button."""
    table_id = await env.start_game("sequences start", rounds=10)
    table = await env.bot.tables.get(table_id)
    seat = table.game.current_seat(table.rules)
    assert seat is not None
    throw = next(
        b.custom_id
        for b in env.h.message(table.row.message_id).buttons
        if b.custom_id and b.custom_id.endswith(":throw")
    )
    return table_id, env.players[table.seats[seat].user_id], throw


async def _throw_clicks(
    env: _Env, table_id: int, player: Any, throw: str, count: int
) -> list[tuple[Any, Any, str]]:
    """``count`` copies of the table, and a click on each one's Throw."""
    ids = await env.copies(table_id, count, env.spread(count))
    clicks = []
    for game_id in ids:
        row = (await env.bot.tables.get(game_id)).row
        custom_id = throw.replace(f"t:{table_id}:", f"t:{game_id}:")
        clicks.append((player, env.h.message(row.message_id), custom_id))
    return clicks


async def _bursts(H: Any, dbs: Targets, sizes: Sizes, report: Report, seed: int) -> None:
    env = await _Env(H, dbs, "burst", seed, timers=True).start()
    f = report.floor
    try:
        table_id, player, throw = await _throw_button(env)
        for slot, size in enumerate(sizes.bursts):
            clicks = await _throw_clicks(env, table_id, player, throw, size)
            rate, p50, p99 = await _burst(env.h, clicks)
            report.add(
                f"burst.{slot}.rate",
                f"burst of {size:,} clicks on {size:,} tables",
                "/s",
                rate,
                floor=f.get(f"burst{size}"),
                higher_is_better=True,
                goal="≥ 1,000 clicks/s",
            )
            report.add(
                f"burst.{slot}.p50",
                f"burst of {size:,}: p50 until answered",
                "ms",
                p50,
                floor=f.get(f"burst{size}_p50"),
                goal="",
            )
            report.add(
                f"burst.{slot}.p99",
                f"burst of {size:,}: p99 until answered",
                "ms",
                p99,
                floor=f.get(f"burst{size}_p99"),
                goal="p99 ≤ 1 s",
            )
        await _locks(env, table_id, throw, player, sizes, report)
    finally:
        await env.stop()


async def _locks(
    env: _Env, table_id: int, throw: str, player: Any, sizes: Sizes, report: Report
) -> None:
    """Per-table locks left behind by tables that were played once and then closed."""
    service, publisher = env.bot.tables, env.bot.shell.publisher
    before = service.live_locks(), publisher.live_locks()
    ids = await env.copies(table_id, sizes.closed, env.spread(sizes.closed))
    clicks = []
    for game_id in ids:
        row = (await service.get(game_id)).row
        clicks.append(
            (
                player,
                env.h.message(row.message_id),
                throw.replace(f"t:{table_id}:", f"t:{game_id}:"),
            )
        )
    await _burst(env.h, clicks)
    for game_id in ids:
        change = await service.close_unseen(game_id, "Closed by the benchmark.")
        if change is not None:
            await publisher.publish(change)
    await env.h.settle()
    n = sizes.closed
    report.add(
        "locks.service",
        f"table-service locks left by {n} closed tables",
        "count",
        service.live_locks() - before[0],
        goal="0",
    )
    report.add(
        "locks.publisher",
        f"publisher locks left by {n} closed tables",
        "count",
        publisher.live_locks() - before[1],
        goal="0",
    )


def _same_second(due: float, count: int) -> Callable[[int], float]:
    return lambda i: due + 0.9 * i / count


async def _timers(H: Any, dbs: Targets, sizes: Sizes, report: Report, seed: int) -> None:
    env = await _Env(H, dbs, "timers", seed, timers=False).start()
    n = sizes.timers
    try:
        table_id = await env.start_game("sequences start", rounds=10)
        for latency in (0.0, LATENCY):
            due = env.clock.now + 30
            await env.copies(table_id, n, _same_second(due, n))
            env.clock.now = due + 1
            env.h.set_latency(latency)
            try:
                committed, shown = await env.timed_tick()
            finally:
                env.h.set_latency(0)
            tag = f"{latency * 1000:.0f}ms"
            where = f"{n:,} timers expiring at once, {latency * 1000:.0f} ms/request"
            report.add(
                f"timers.{tag}.committed", f"{where}: all committed", "s", committed, goal="≤ 1 s"
            )
            report.add(
                f"timers.{tag}.shown",
                f"{where}: all shown",
                "s",
                shown,
                goal="as fast as the rate limits allow",
            )
        big = sizes.timers_big
        due = env.clock.now + 30
        await env.copies(table_id, big, _same_second(due, big))
        env.clock.now = due + 1
        started = time.perf_counter()
        await env.bot.tables.run_due()  # committed only: showing 10,000 is not timed
        report.add(
            "timers.big.committed",
            f"{big:,} timers expiring at once: all committed",
            "s",
            time.perf_counter() - started,
            goal="committed together",
        )
        env.clock.now += 600  # the copies' next deadlines stay in the future of this clock
    finally:
        await env.stop()


async def _open(H: Any, dbs: Targets, sizes: Sizes, report: Report, seed: int) -> None:
    from bot.sim.live_games import insert_finished

    env = await _Env(H, dbs, "open", seed, timers=False).start()
    try:
        table_id = await env.start_game("sequences start", rounds=10)
        template = (await env.bot.tables.get(table_id)).row
        hosts = [env.ana.id, env.bo.id, *range(10_000, 10_050)]
        have = 0
        for slot, n in enumerate(sizes.finished):
            await insert_finished(env.bot.db, template, n - have, host_ids=hosts, at=T0)
            have = n
            samples = []
            for _ in range(sizes.opens):
                started = time.perf_counter()
                reply = await env.ana.slash("sequences start", rounds=5)
                samples.append(_ms(started, reply.answered_at))
            report.add(
                f"open.{slot}",
                f"opening a table, {n:,} finished games on the server",
                "ms",
                statistics.median(samples),
                goal="flat",
            )
    finally:
        await env.stop()


async def _memory(H: Any, dbs: Targets, sizes: Sizes, report: Report, seed: int) -> None:
    dice, board = sizes.memory
    env = await _Env(H, dbs, "memory", seed, timers=False).start()
    try:
        dice_id = await env.start_game("sequences start", rounds=10)
        board_id = await env.start_game("board start")
        gc.collect()
        before = _rss()
        await env.copies(dice_id, dice - 1, env.spread(dice))
        await env.copies(board_id, board - 1, env.spread(board))
        await env.restart()
        gc.collect()
        per_game = (_rss() - before) / (dice + board) / 1024
        report.add(
            "memory.per_game",
            f"memory per live game ({dice:,} dice + {board:,} board, after a restart)",
            "KB",
            per_game,
            goal="≤ 30 KB, flat over time",
        )
    finally:
        await env.stop()


# --- one burst split across processes on one PostgreSQL database -----------------------

BARRIER_TIMEOUT = 3600.0  # seconds a ready process waits for the others


@dataclass(frozen=True)
class _Part:
    """One process's share of a burst split across ``processes`` processes."""

    target: str
    index: int
    processes: int
    clicks: int
    seed: int


def _burst_part(part: _Part, barrier: Any, results: Any) -> None:
    """The body of one process (spawned): its own bot, harness and ``part.clicks`` tables on
    the shared database; once every process is ready (``barrier``), one click on each of its
    tables, all delivered together. Puts (index, (started, answered)) on ``results``, or
    (index, the error's text)."""
    try:
        outcome: Any = asyncio.run(_burst_part_async(part, barrier))
    except BaseException as exc:  # reported to the parent, which raises it
        barrier.abort()  # the others stop waiting
        outcome = f"{type(exc).__name__}: {exc}"
    results.put((part.index, outcome))


async def _burst_part_async(part: _Part, barrier: Any) -> tuple[float, list[float]]:
    H = _import_harness()
    # Several processes are shards of one bot (each fires the timers and redraws the
    # tables of its own guild only); one process is the plain bot.
    shard = None if part.processes == 1 else (part.index, part.processes)
    env = _Env(H, None, "", part.seed, timers=True, target=part.target, shard=shard)
    await env.start()
    try:
        table_id, player, throw = await _throw_button(env)
        clicks = await _throw_clicks(env, table_id, player, throw, part.clicks)
        await asyncio.to_thread(barrier.wait, BARRIER_TIMEOUT)
        return await _deliver(env.h, clicks)
    finally:
        await env.stop()


def _split_burst(target: str, processes: int, clicks: int, seed: int) -> list[Any]:
    """Run ``clicks`` split across ``processes`` new processes on ``target``; each one's
    (started, answered times). ``time.perf_counter`` is CLOCK_MONOTONIC on Linux, one clock
    for every process, so the times compare across them."""
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")  # not fork: this process has threads
    barrier = ctx.Barrier(processes)
    results = ctx.Queue()
    shares = [clicks // processes + (i < clicks % processes) for i in range(processes)]
    workers = [
        ctx.Process(
            target=_burst_part,
            args=(_Part(target, i, processes, shares[i], seed + i), barrier, results),
            name=f"bench-burst-{i}",
        )
        for i in range(processes)
    ]
    for worker in workers:
        worker.start()
    outcomes: dict[int, Any] = {}
    try:
        while len(outcomes) < processes:
            try:
                index, outcome = results.get(timeout=1.0)
            except queue.Empty:
                dead = [w.name for w in workers if w.exitcode not in (None, 0)]
                if dead and results.empty():  # killed before it could report
                    raise RuntimeError(f"the split burst failed: {dead} exited") from None
                continue
            outcomes[index] = outcome
    finally:
        for worker in workers:
            worker.join(timeout=60)
            if worker.is_alive():
                worker.kill()
                worker.join()
    failed = [f"process {i}: {o}" for i, o in sorted(outcomes.items()) if isinstance(o, str)]
    if failed:
        raise RuntimeError("the split burst failed: " + "; ".join(failed))
    return [outcomes[i] for i in range(processes)]


async def _processes(dbs: Targets, sizes: Sizes, report: Report, seed: int, processes: int) -> None:
    """The biggest burst on one PostgreSQL database, from 1 process, then split across
    ``processes``: each process a bot (a shard) with its own harness and tables."""
    from bot.store.db import Database

    size = sizes.bursts[-1]
    for count in sorted({1, processes}):
        target = dbs.new(f"processes{count}")
        try:
            await (await Database.open(target)).close()  # migrated once, before they start
            parts = await asyncio.to_thread(_split_burst, target, count, size, seed)
        finally:
            dbs.drop(target)
        starts = [started for started, answered in parts for _ in answered]
        answered = [a for _, times in parts for a in times]
        rate, p50, p99 = _burst_figures(starts, answered)
        where = f"burst of {size:,}, {count} process{'es' if count > 1 else ''}"
        each = f"{size // count:,} tables each" if count > 1 else f"{size:,} tables"
        report.add(
            f"procs.{count}.rate",
            f"{where} on one database ({each})",
            "/s",
            rate,
            higher_is_better=True,
            goal="≥ 1,000 clicks/s",
        )
        report.add(f"procs.{count}.p50", f"{where}: p50 until answered", "ms", p50)
        report.add(
            f"procs.{count}.p99", f"{where}: p99 until answered", "ms", p99, goal="p99 ≤ 1 s"
        )


def _frame(sizes: Sizes, report: Report) -> None:
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
            wall.append(_ms(started, None))
        image = Image.open(io.BytesIO(data))
        image.load()
        floor = []
        for _ in range(sizes.frames):
            started = time.perf_counter()
            canvas = Image.new(image.mode, image.size)
            canvas.paste(image, (0, 0))
            canvas.save(io.BytesIO(), "PNG")
            floor.append(_ms(started, None))
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


async def _bench(
    H: Any, args: argparse.Namespace, sizes: Sizes, wanted: set[str], report: Report
) -> None:
    seed = args.seed
    with tempfile.TemporaryDirectory() as tmp_name:
        dbs = Targets(args.database, Path(tmp_name))
        parts: list[tuple[str, Callable[[], Awaitable[None]]]] = [
            ("floor", lambda: _floor(H, sizes, report)),
            ("memory", lambda: _memory(H, dbs, sizes, report, seed)),  # first: cleanest RSS
            ("click", lambda: _click(H, dbs, sizes, report, seed)),
            ("board", lambda: _board(H, dbs, sizes, report, seed)),
            ("burst", lambda: _bursts(H, dbs, sizes, report, seed)),
            ("processes", lambda: _processes(dbs, sizes, report, seed, args.processes)),
            ("timers", lambda: _timers(H, dbs, sizes, report, seed)),
            ("open", lambda: _open(H, dbs, sizes, report, seed)),
        ]
        try:
            for name, part in parts:
                if name in wanted:
                    started = time.perf_counter()
                    await part()
                    report.notes.append(f"{name} took {time.perf_counter() - started:.1f} s")
        finally:
            dbs.close()
    if "frame" in wanted:
        started = time.perf_counter()
        _frame(sizes, report)
        report.notes.append(f"frame took {time.perf_counter() - started:.1f} s")


def run(args: argparse.Namespace) -> int:
    try:
        H = _import_harness()
    except ImportError as exc:
        print(
            f"error: python -m bot bench needs the test harness (tests/harness): run it "
            f"from a checkout with the dev extras installed ({exc})",
            file=sys.stderr,
        )
        return 2
    postgresql = args.database is not None
    if postgresql and not is_postgresql(args.database):
        print(f"error: --database takes a postgresql:// URL, not {args.database!r}")
        return 2
    everything = set(SECTIONS) if postgresql else set(SECTIONS) - {"processes"}
    wanted = set(args.only.split(",")) if args.only else everything
    unknown = wanted - set(SECTIONS)
    if unknown:
        print(f"error: unknown sections {sorted(unknown)}; use {','.join(SECTIONS)}")
        return 2
    if "processes" in wanted and not postgresql:
        print("error: the processes section needs --database postgresql://...")
        return 2
    if args.processes < 2:
        print("error: --processes is at least 2 (1 process is measured beside it anyway)")
        return 2
    sizes = QUICK if args.quick else Sizes()
    report = Report()
    started = time.perf_counter()
    try:
        asyncio.run(_bench(H, args, sizes, wanted, report))
    except BenchDatabaseError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    report.notes.append(f"total {time.perf_counter() - started:.1f} s")
    # The first section's order matters only for memory: the click rows are sorted first.
    order = [
        "click",
        "slow_click",
        "board",
        "burst",
        "procs",
        "db",
        "restart",
        "timers",
        "open",
        "memory",
        "locks",
        "frame",
        "ai",
    ]
    report.rows.sort(key=lambda r: order.index(r.key.split(".")[0]))
    if args.json:
        print(
            json.dumps(
                {
                    "quick": bool(args.quick),
                    "engine": "postgresql" if postgresql else "sqlite",
                    "latency_ms": LATENCY * 1000,
                    "sizes": sizes.__dict__,
                    "floor": report.floor,
                    "rows": {r.key: r.as_json() for r in report.rows},
                    "notes": report.notes,
                },
                indent=2,
            )
        )
    else:
        print(render_table(report))
    return 0
