"""Fixtures for driving the real bot through the interaction harness."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.app import SequencesBot
from bot.config import Settings
from bot.games.registry import Games
from bot.store import games
from bot.store.db import Database
from bot.tables.history import verify_all
from tests.fakes import FakeClock
from tests.harness import Harness, Message


@dataclass
class Env:
    """A running bot inside a fake Discord, with its clock and where its database is (a
    SQLite path or a PostgreSQL URL)."""

    h: Harness
    bot: SequencesBot
    clock: FakeClock
    database: str
    settings: Settings
    seed: int
    bot_class: type[SequencesBot] = SequencesBot
    games: Games | None = None

    async def tick(self, seconds: float = 0.0) -> int:
        """Move the clock and fire due timers (bot moves, timeouts, lobby expiry)."""
        self.clock.advance(seconds)
        fired = await self.bot.tick()
        await self.h.settle()
        return fired

    async def run_bots(self, limit: int = 500) -> None:
        """Let bot players move until a human is to play or the game is over."""
        for _ in range(limit):
            deadline = await self.bot.peers.timers.next_deadline()
            if deadline is None or deadline - self.clock() > self.settings.bot_turn_delay_seconds:
                return
            self.clock.now = max(self.clock.now, deadline)
            await self.bot.tick()
            await self.h.settle()

    async def restart(self, seed: int | None = None) -> SequencesBot:
        """Stop this bot and start a new instance on the same database (a process restart)."""
        old_db = self.bot.db
        db = await Database.open(self.database)
        bot = self.bot_class(
            self.settings,
            db,
            clock=self.clock,
            rng=random.Random(seed if seed is not None else self.seed + 1),
            run_timers=False,
            games=self.games,
        )
        await self.h.restart(bot)
        pace_on_discords_clock(bot, self.h)
        await old_db.close()
        self.bot = bot
        return bot

    def thread_messages(self) -> list[Message]:
        """The public messages of the game's thread, in order."""
        [thread] = self.h.threads
        return [m for m in self.h.messages(thread) if not m.ephemeral]

    def turn_message(self) -> Message:
        """The game's table message: the thread's last message that is more than a line of
        text (not the ping of the member to move, nor a pot line)."""
        return [m for m in self.thread_messages() if m.components or m.embeds][-1]

    def ping(self) -> Message | None:
        """The thread's mention of the member to move, if one stands."""
        pings = [m for m in self.thread_messages() if "your turn" in m.content]
        return pings[-1] if pings else None

    def ping_text(self) -> str:
        """The content of the standing ping ("" when nobody is pinged)."""
        ping = self.ping()
        return ping.content if ping is not None else ""


MakeEnv = Callable[..., Awaitable[Env]]


def pace_on_discords_clock(bot: SequencesBot, h: Harness) -> None:
    """The bot paces its REST requests (bot.ui.pacing) on the fake Discord's clock, the one
    its rate limits count on, whose waits are skipped: a burst's pace costs no real time."""
    bot.shell.publisher.pace.clock = h.fake.clock


def env_factory(database: Callable[[int], str], make_harness: Any) -> tuple[MakeEnv, list[Env]]:
    """``make_env`` over databases named by ``database(n)`` for the n-th bot of a test."""
    opened: list[Env] = []

    async def make(
        seed: int = 1,
        rng: random.Random | None = None,
        channels: tuple[str, ...] = ("general",),
        bot_class: type[SequencesBot] = SequencesBot,
        games: Games | None = None,
        guild_id: int | None = None,
        more_guilds: tuple[str, ...] = (),
        **overrides: Any,
    ) -> Env:
        target = database(len(opened))
        values: dict[str, Any] = {"start_cooldown_seconds": 0, "bot_turn_delay_seconds": 1.0}
        values["bot_workers"] = 0  # searching bots think inline: the same moves, in order
        values.update(overrides)
        settings = Settings(_env_file=None, **values)
        db = await Database.open(target)
        clock = FakeClock()
        bot = bot_class(
            settings,
            db,
            clock=clock,
            rng=rng or random.Random(seed),
            run_timers=False,
            games=games,
        )
        h = await make_harness(bot, channels=channels, guild_id=guild_id, more_guilds=more_guilds)
        pace_on_discords_clock(bot, h)
        env = Env(h, bot, clock, target, settings, seed, bot_class, games)
        opened.append(env)
        return env

    return make, opened


async def close_envs(opened: list[Env]) -> None:
    for env in opened:
        # The log is the truth (issue 15): every game a test finished replays from its log,
        # but for those whose position a test wrote outside the rules ("test-position").
        db = env.bot.db
        verdicts = await verify_all(db, env.bot.tables.kinds)
        set_up = [
            v.game_id
            for v in verdicts
            if any(e["kind"] == "test-position" for e in await games.log_entries(db, v.game_id))
        ]
        await db.close()
        wrong = [v for v in verdicts if v.status != "ok" and v.game_id not in set_up]
        assert not wrong, f"games that do not replay from their log: {wrong}"


@pytest.fixture
async def make_env(tmp_path: Path, make_harness: Any) -> AsyncIterator[MakeEnv]:
    """Bots on SQLite files (tests/reliability runs the same on both engines)."""
    make, opened = env_factory(lambda n: str(tmp_path / f"bot{n}.sqlite3"), make_harness)
    yield make
    await close_envs(opened)
