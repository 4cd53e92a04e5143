"""The soak: a seeded random walk of operations over the real table service and store,
with injected faults and restarts, checking the invariants after each. ``python -m bot soak``
and the reliability tests drive it."""

from __future__ import annotations

import json
import random
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.config import Settings
from bot.errors import UserError
from bot.games.registry import Games
from bot.store import audit
from bot.store.db import Database
from bot.tables import wallets
from bot.tables.fair_play import FairPlay
from bot.tables.kernel import TableKernel
from bot.tables.service import TableService
from bot.tables.timers import TableTimers
from bot.tables.wallet_hooks import WalletHooks

GUILD = 1
CHANNELS = (10, 11, 12)
USERS = tuple(range(101, 107))
ADMIN = 100
STAKES = (0, 0, 5, 20, 100)
OPS = {  # operation: weight
    "open": 6,
    "join": 14,
    "leave": 4,
    "bot": 2,
    "cancel": 1,
    "start": 6,
    "act": 40,
    "stale": 3,
    "tick": 10,
    "end": 1,
    "pay": 3,
    "grant": 1,
    "daily": 1,
    "restart": 1,
}
GAMES: list[tuple[str, dict[str, Any]]] = [
    ("sequences", {"variant": "standard", "rounds": 1, "target": None, "soft_last_die": False}),
    ("sequences", {"variant": "sudden", "rounds": None, "target": None, "soft_last_die": False}),
    ("oneroll", {"ruleset": "heartsdue", "target": 20}),
    ("board", {"seats": None, "teams": None, "first_sequence_wins": True}),
]


class InjectedFault(Exception):
    """Raised just before a chosen SQL statement: a crash in the middle of an operation."""


class Violation(AssertionError):
    """An invariant did not hold."""


@dataclass
class Tally:
    ops: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)
    faults: int = 0
    restarts: int = 0
    left_open: int = 0  # transactions a faulted ROLLBACK left open (healed at next BEGIN)
    checks: int = 0
    closed: Counter[str] = field(default_factory=Counter)
    pots_paid: int = 0
    chips_paid: int = 0


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


class SoakWorld:
    """One database, one table service at a time, and a seeded stream of operations."""

    def __init__(self, path: Path, seed: int) -> None:
        self.path = path
        self.rng = random.Random(seed)
        self.clock = Clock()
        self.settings = Settings(
            _env_file=None,  # type: ignore[call-arg]  # pydantic-settings' init-only option
            start_cooldown_seconds=0,
            max_lobbies_per_channel=4,
            max_games_per_guild=12,
            bot_turn_delay_seconds=1,
            turn_timeout_seconds=60,
        )
        self.tally = Tally()
        self.fault_at: int | None = None
        self.statements = 0
        self._seen: dict[int, int] = {}  # game id -> version last checked
        self.db: Database | None = None
        self.service: TableService | None = None

    # --- lifecycle -------------------------------------------------------------------

    async def open(self) -> None:
        self.db = await Database.open(self.path)

        def statement(sql: str) -> None:
            self.statements += 1
            if self.fault_at is not None and self.statements >= self.fault_at:
                self.fault_at = None  # one fault per arming; the ROLLBACK must run
                self.tally.faults += 1  # counted here: run_due logs and swallows its own
                raise InjectedFault(f"injected before: {sql[:40]}")

        # The hook sees every statement on every path, and once after each COMMIT (a fault
        # there: committed, but the caller hears an error).
        self.db.on_statement = statement
        self.service = TableService(
            TableKernel(
                self.db,
                Games(),
                self.settings.table_limits(),
                self.clock,
                random.Random(self.rng.random()),
                WalletHooks(self.clock),
            )
        )

    async def close(self) -> None:
        if self.db is not None:
            await self.db.close()
        self.db = self.service = None

    async def restart(self) -> None:
        """A new process: the old one's locks, cooldowns and caches are gone."""
        await self.close()
        await self.open()
        self.tally.restarts += 1

    # --- operations ------------------------------------------------------------------

    async def step(self, op: str | None = None, fault_at: int | None = None) -> str:
        """One operation (random unless given), optionally with a fault armed at its
        ``fault_at``-th SQL statement; then every check. Returns the operation's name."""
        op = op or self.rng.choices(list(OPS), weights=list(OPS.values()))[0]
        if self._db.left_open():
            self.tally.left_open += 1
        self.statements = 0
        self.fault_at = fault_at
        self.tally.ops[op] += 1
        try:
            await getattr(self, f"_op_{op}")()
        except InjectedFault:
            pass  # counted where it was raised
        except UserError:
            self.tally.refused[op] += 1
        finally:
            self.fault_at = None
        await self.check()
        return op

    @property
    def _svc(self) -> TableService:
        assert self.service is not None
        return self.service

    @property
    def _db(self) -> Database:
        assert self.db is not None
        return self.db

    async def _live(self, status: str) -> list[Any]:
        return [t for t in await self._svc.live_tables() if t.status == status]

    async def _pick(self, status: str) -> Any:
        tables = await self._live(status)
        return self.rng.choice(tables) if tables else None

    async def _op_open(self) -> None:
        kind, settings = self.rng.choice(GAMES)
        if kind == "board" and self.rng.random() < 0.7:  # long games: fewer of them
            kind, settings = GAMES[0]
        await self._svc.open_lobby(
            guild_id=GUILD,
            channel_id=self.rng.choice(CHANNELS),
            host_id=self.rng.choice(USERS),
            host_name="Host",
            kind=kind,
            settings=dict(settings),
            stake=self.rng.choice(STAKES),
        )

    async def _op_join(self) -> None:
        table = await self._pick("lobby")
        if table is not None:
            user = self.rng.choice(USERS)
            await self._svc.join(table.id, user, f"P{user}")

    async def _op_leave(self) -> None:
        table = await self._pick("lobby")
        if table is not None and table.seats:
            seat = self.rng.choice(table.seats)
            await self._svc.leave(table.id, seat.user_id or USERS[0])

    async def _op_bot(self) -> None:
        table = await self._pick("lobby")
        if table is not None:
            level = self.rng.choice(list(table.game.bot_levels))
            await self._svc.add_bot(table.id, table.row.host_id, level)

    async def _op_cancel(self) -> None:
        table = await self._pick("lobby")
        if table is not None:
            await self._svc.cancel(table.id, table.row.host_id, False)

    async def _op_start(self) -> None:
        table = await self._pick("lobby")
        if table is not None:
            await self._svc.start(table.id, table.row.host_id)

    async def _op_end(self) -> None:
        table = await self._pick("running")
        if table is not None:
            await FairPlay(self._svc.kernel).end(table.id, table.row.host_id, False)

    async def _op_act(self, stale: bool = False) -> None:
        table = await self._pick("running")
        if table is None or table.rules is None:
            return
        game = table.game
        seat = game.current_seat(table.rules)
        if seat is None or table.seats[seat].is_bot:
            return
        action = self.rng.choice(game.playable_actions(table.rules))
        version = table.version - 1 if stale else table.version
        user = table.seats[seat].user_id
        assert user is not None
        await self._svc.act(table.id, user, version, action)
        if stale:
            raise Violation(f"a click on an old version of game {table.id} was applied")

    async def _op_stale(self) -> None:
        await self._op_act(stale=True)

    async def _op_tick(self) -> None:
        self.clock.now += self.rng.choice((1, 2, 30, 61, 200, 1000))
        await TableTimers(self._svc.kernel).run_due()

    async def _op_pay(self) -> None:
        a, c = self.rng.sample(USERS, 2)
        await wallets.pay(self._db, GUILD, a, c, self.rng.choice((1, 50, 5000)), now=self.clock())

    async def _op_grant(self) -> None:
        user = self.rng.choice(USERS)
        await wallets.grant(
            self._db, GUILD, user, 200, actor_id=ADMIN, reason="soak", now=self.clock()
        )

    async def _op_daily(self) -> None:
        self.clock.now += 3600 * self.rng.choice((1, 25))
        await wallets.claim_daily(self._db, GUILD, self.rng.choice(USERS), now=self.clock())

    async def _op_restart(self) -> None:
        await self.restart()

    # --- checks ----------------------------------------------------------------------

    async def check(self) -> None:
        db = self._db
        self.tally.checks += 1
        report = await wallets.check_invariant(db)
        if not report.ok:
            raise Violation(f"ledger invariant broken: {report}")
        # Escrows change only with their game's version: re-check only the games that moved,
        # or a long soak re-reads every finished game after each operation.
        versions = await audit.game_versions(db)
        changed = [g for g, v in versions.items() if self._seen.get(g) != v]
        for start in range(0, len(changed), 500):
            await self._check_games(changed[start : start + 500])
        self._seen.update(versions)

    async def _check_games(self, ids: list[int]) -> None:
        db = self._db
        rows = await audit.game_money(db, ids)
        held = await audit.held_escrows(db, ids)
        holding: dict[int, dict[int, int]] = {}
        for game_id, user_id, amount in held:
            holding.setdefault(game_id, {})[user_id] = amount
        for game_id, status, stake, state_json, paid, payouts in rows:
            state = json.loads(state_json)
            humans = {s["user_id"] for s in state.get("seats", []) if s["user_id"] is not None}
            expected = {u: stake for u in humans} if status in ("lobby", "running") else {}
            if stake == 0:
                expected = {}
            if holding.get(game_id, {}) != expected:
                raise Violation(
                    f"game {game_id} ({status}) holds {holding.get(game_id)} for seats {expected}"
                )
            if paid and status != "finished":
                raise Violation(f"game {game_id} ({status}) has paid stakes")
            winners = sum(1 for s in state.get("seats", []) if s["user_id"] is not None)
            if payouts > max(winners, 1):
                raise Violation(f"game {game_id} paid {payouts} times for {winners} seats")

    async def summary(self) -> None:
        self.tally.closed = Counter(await audit.status_counts(self._db))
        self.tally.pots_paid, self.tally.chips_paid = await audit.payouts(self._db)


async def soak(ops: int, seed: int, path: Path | None = None) -> tuple[Tally, str | None]:
    """Run ``ops`` operations; returns the tally and the first violation (None if none)."""
    with tempfile.TemporaryDirectory() as tmp:
        world = SoakWorld(path or Path(tmp) / "soak.sqlite3", seed)
        await world.open()
        failure = None
        try:
            for index in range(ops):
                fault = world.rng.randint(1, 14) if world.rng.random() < 0.08 else None
                try:
                    await world.step(fault_at=fault)
                except Violation as exc:
                    failure = f"after op {index + 1}: {exc}"
                    break
            await world.summary()
        finally:
            await world.close()
    return world.tally, failure


def report(tally: Tally, failure: str | None, ops: int, seed: int, seconds: float) -> str:
    done = sum(tally.ops.values())
    lines = [f"soak: {done:,} of {ops:,} ops, seed {seed}, {seconds:.1f} s"]
    lines.append(
        "  ops: "
        + ", ".join(
            f"{name} {count:,} ({tally.refused[name]:,} refused)"
            for name, count in tally.ops.most_common()
        )
    )
    lines.append(
        f"  faults injected mid-operation: {tally.faults:,} ({tally.left_open:,} hit a "
        f"ROLLBACK and left a transaction open, rolled back at the next BEGIN); "
        f"restarts: {tally.restarts:,}"
    )
    lines.append("  tables: " + ", ".join(f"{s} {n:,}" for s, n in sorted(tally.closed.items())))
    lines.append(f"  pots paid: {tally.pots_paid:,} ({tally.chips_paid:,} chips)")
    lines.append(
        f"  checked after each of {tally.checks:,} ops: ledger invariant, escrows = seated "
        "members' stakes, no stake paid on an unfinished table, no pot paid twice"
    )
    lines.append(f"  result: {'FAILED ' + failure if failure else 'OK'}")
    return "\n".join(lines)
