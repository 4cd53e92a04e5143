"""The real bot on a fresh database inside the offline harness, driven by clicks; and a
burst of clicks delivered together."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import tests.harness as harness  # the offline harness: in a checkout, with the dev extras
from bench.report import T0, ms_since, quantile
from bench.targets import Targets
from bot.games.base import presentation
from bot.store.db import is_postgresql

# A person's look at their hand before tapping a card: far quicker than anyone reads, and
# still the time the bot has to draw the boards the cards will show (bot/games/board/hand.py
# draws them ahead). The bench's other clicks follow each other with no pause.
READ_HAND = 0.05


def import_harness() -> Any:
    """The harness module, handed to each section (``H``)."""
    return harness


class Clock:
    """The bots' clock: still unless a section moves it, so no timer fires by itself."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        return self.now


class Env:
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
        self.clock = Clock()
        # Database work made by clicks (not the timer loop), while db_work counts it:
        # "hops" to aiosqlite's thread (SQLite only) and "statements" (both engines).
        self.counts = {"hops": 0, "statements": 0, "trips": 0}
        self.last_counts = dict(self.counts)
        self.last_card_ms = 0.0  # board_move: the card click alone

    async def start(self) -> Env:
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
            web_port=0,  # bench/web.py serves the pages itself, on a port of its own
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
        # The bot's pace of REST requests runs on the fake Discord's clock, as its rate limits
        # do: a burst's pace is counted there and costs no real time.
        self.bot.shell.publisher.pace.clock = self.h.fake.clock
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
        author = fake.bot_author()
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
            and not presentation(table.game).is_private(b.custom_id.rsplit(":", 1)[1])
        ]
        button = self.rng.choice(choices)
        before = dict(self.counts)
        started = time.perf_counter()
        reply = await player.click(message, custom_id=button.custom_id)
        self.last_counts = {k: v - before[k] for k, v in self.counts.items()}
        return ms_since(started, reply.answered_at)

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
        """One move through the private hand: My hand (not timed), a pause while the player
        reads it (``READ_HAND``, not timed), then a card and a space (each timed until
        answered; the card click's own time is kept in ``last_card_ms``). None when this
        turn was not card-then-space (a pass, a trade, a one-eyed jack's choice...), or the
        game is over."""
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
        await asyncio.sleep(READ_HAND)
        started = time.perf_counter()
        first = await player.click(hand, custom_id=cards[0].custom_id)
        card_ms = self.last_card_ms = ms_since(started, first.answered_at)
        spaces = [
            b
            for b in first.message.buttons
            if b.custom_id and not b.disabled and b.label not in ("Refresh", "Back")
        ]
        if "choose" not in first.text or not spaces:
            return None
        started = time.perf_counter()
        second = await player.click(first.message, custom_id=spaces[0].custom_id)
        space_ms = ms_since(started, second.answered_at)
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
        tables = self.bot.peers.timers
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


async def deliver(h: Any, clicks: list[tuple[Any, Any, str]]) -> tuple[float, list[float]]:
    """Deliver every click before any handler runs (``together``): when they were
    delivered, and when each was answered (``time.perf_counter``)."""
    started = time.perf_counter()
    replies = await h.together(*(p.click(m, custom_id=c) for p, m, c in clicks))
    return started, [r.answered_at or time.perf_counter() for r in replies]


def burst_figures(starts: list[float], answered: list[float]) -> tuple[float, float, float]:
    """Clicks/s from the first delivery until the last answer, and p50/p99 ms of
    ``answered`` (each from the start of its own process's burst, ``starts``[i] per click)."""
    latencies = [ms_since(s, a) for s, a in zip(starts, answered, strict=True)]
    rate = len(answered) / max(1e-9, max(answered) - min(starts))
    return rate, quantile(latencies, 0.5), quantile(latencies, 0.99)


async def burst_clicks(h: Any, clicks: list[tuple[Any, Any, str]]) -> tuple[float, float, float]:
    """Clicks/s until the last was answered, p50 and p99 ms until each was answered."""
    started, answered = await deliver(h, clicks)
    return burst_figures([started] * len(answered), answered)


# --- sections ---------------------------------------------------------------------------
