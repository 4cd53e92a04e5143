"""Wallets, the chip ledger and stake escrows: the SQL only (the rules are
:mod:`bot.tables.wallets`'s); storage alone keeps balances at or above zero and each escrow settled
once (docs/wallets-and-ratings.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from bot.records import LedgerEntry, WalletView
from bot.store.db import Connection, Database

LedgerKind = Literal[
    "start", "daily", "grant", "take", "pay_in", "pay_out", "escrow", "refund", "payout"
]


async def _one(conn: Connection, sql: str, params: tuple[Any, ...]) -> Any:
    cursor = await conn.execute(sql, params)
    return await cursor.fetchone()


async def balance_in(conn: Connection, guild_id: int, user_id: int) -> int:
    """The balance of an existing wallet, as the caller's transaction sees it."""
    row = await _one(
        conn, "SELECT balance FROM wallets WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
    )
    return int(row[0])


async def append(
    conn: Connection,
    guild_id: int,
    user_id: int,
    delta: int,
    kind: LedgerKind,
    now: float,
    *,
    reason: str | None = None,
    game_id: int | None = None,
    actor_id: int | None = None,
) -> None:
    """One ledger row."""
    await conn.execute(
        "INSERT INTO ledger (guild_id, user_id, delta, kind, reason, game_id, actor_id, at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (guild_id, user_id, delta, kind, reason, game_id, actor_id, now),
    )


async def ensure_wallet(
    conn: Connection, guild_id: int, user_id: int, now: float, *, start: int
) -> None:
    """Create the member's wallet holding ``start`` chips (ledger kind ``start``) if it does
    not exist yet."""
    cursor = await conn.execute(
        "INSERT INTO wallets (guild_id, user_id, balance, created_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (guild_id, user_id) DO NOTHING",
        (guild_id, user_id, start, now),
    )
    if cursor.rowcount == 1:
        await append(conn, guild_id, user_id, start, "start", now, reason="welcome")


async def credit(
    conn: Connection,
    guild_id: int,
    user_id: int,
    amount: int,
    kind: LedgerKind,
    now: float,
    **extra: Any,
) -> None:
    """Add ``amount`` to an existing wallet, with its ledger row."""
    await conn.execute(
        "UPDATE wallets SET balance = balance + ? WHERE guild_id = ? AND user_id = ?",
        (amount, guild_id, user_id),
    )
    await append(conn, guild_id, user_id, amount, kind, now, **extra)


async def debit(
    conn: Connection,
    guild_id: int,
    user_id: int,
    amount: int,
    kind: LedgerKind,
    now: float,
    **extra: Any,
) -> bool:
    """Take ``amount`` from an existing wallet if its balance covers it, with its ledger row;
    False (and nothing written) if it does not."""
    cursor = await conn.execute(
        "UPDATE wallets SET balance = balance - ?"
        " WHERE guild_id = ? AND user_id = ? AND balance >= ?",
        (amount, guild_id, user_id, amount),
    )
    if cursor.rowcount != 1:
        return False
    await append(conn, guild_id, user_id, -amount, kind, now, **extra)
    return True


async def credit_daily(
    conn: Connection, guild_id: int, user_id: int, amount: int, day: int, now: float
) -> bool:
    """Credit ``amount`` (ledger kind ``daily``) and mark ``day`` claimed, unless the wallet
    already claimed ``day`` or later; False (and nothing written) then. The day check and the
    credit are one statement: two clicks cannot both pass."""
    cursor = await conn.execute(
        "UPDATE wallets SET balance = balance + ?, daily_day = ?"
        " WHERE guild_id = ? AND user_id = ? AND (daily_day IS NULL OR daily_day < ?)",
        (amount, day, guild_id, user_id, day),
    )
    if cursor.rowcount != 1:
        return False
    await append(conn, guild_id, user_id, amount, "daily", now)
    return True


# --- reads -------------------------------------------------------------------------------


async def read_wallet(conn: Connection, guild_id: int, user_id: int, entries: int) -> WalletView:
    """An existing wallet, its held stakes and its latest ``entries`` ledger rows."""
    row = await _one(
        conn,
        "SELECT balance, daily_day FROM wallets WHERE guild_id = ? AND user_id = ?",
        (guild_id, user_id),
    )
    held = await _one(
        conn,
        "SELECT COALESCE(SUM(amount), 0) FROM escrows"
        " WHERE guild_id = ? AND user_id = ? AND status = 'held'",
        (guild_id, user_id),
    )
    cursor = await conn.execute(
        "SELECT id, delta, kind, reason, game_id, actor_id, at FROM ledger"
        " WHERE guild_id = ? AND user_id = ? ORDER BY id DESC LIMIT ?",
        (guild_id, user_id, entries),
    )
    rows = await cursor.fetchall()
    return WalletView(
        guild_id=guild_id,
        user_id=user_id,
        balance=int(row[0]),
        held=int(held[0]),
        daily_day=row[1],
        entries=[LedgerEntry(*r) for r in rows],
    )


async def stored_balance(db: Database, guild_id: int, user_id: int) -> int | None:
    """The balance, or None for a member who has no wallet yet."""
    row = await db.fetchone(
        "SELECT balance FROM wallets WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
    )
    return None if row is None else int(row[0])


# --- escrows (inside the table layer's transaction) --------------------------------------


async def held_stake(conn: Connection, game_id: int, user_id: int) -> int | None:
    """The member's stake held in the game, or None."""
    row = await _one(
        conn,
        "SELECT amount FROM escrows WHERE game_id = ? AND user_id = ? AND status = 'held'",
        (game_id, user_id),
    )
    return None if row is None else int(row[0])


async def hold_stake(
    conn: Connection, game_id: int, guild_id: int, user_id: int, amount: int, now: float
) -> None:
    """The escrow row of a stake the caller has just debited."""
    await conn.execute(
        "INSERT INTO escrows (game_id, guild_id, user_id, amount, created_at)"
        " VALUES (?, ?, ?, ?, ?)",
        (game_id, guild_id, user_id, amount, now),
    )


async def release_seat(
    conn: Connection, game_id: int, user_id: int, now: float
) -> list[tuple[int, int]]:
    """Mark the member's held stakes in the game refunded; their (guild_id, amount) rows, to
    be credited by the caller in the same transaction."""
    cursor = await conn.execute(
        "UPDATE escrows SET status = 'refunded', settled_at = ?"
        " WHERE game_id = ? AND user_id = ? AND status = 'held'"
        " RETURNING guild_id, amount",
        (now, game_id, user_id),
    )
    return [(int(g), int(a)) for g, a in await cursor.fetchall()]


async def release_all(conn: Connection, game_id: int, now: float) -> list[tuple[int, int, int]]:
    """Mark every held stake of the game refunded; their (guild_id, user_id, amount) rows."""
    cursor = await conn.execute(
        "UPDATE escrows SET status = 'refunded', settled_at = ?"
        " WHERE game_id = ? AND status = 'held' RETURNING guild_id, user_id, amount",
        (now, game_id),
    )
    return [(int(g), int(u), int(a)) for g, u, a in await cursor.fetchall()]


async def collect_pot(conn: Connection, game_id: int, now: float) -> list[tuple[int, int]]:
    """Mark every held stake of the game paid; their (guild_id, amount) rows (empty if the
    pot was already settled), to be paid out by the caller in the same transaction."""
    cursor = await conn.execute(
        "UPDATE escrows SET status = 'paid', settled_at = ?"
        " WHERE game_id = ? AND status = 'held' RETURNING guild_id, amount",
        (now, game_id),
    )
    return [(int(g), int(a)) for g, a in await cursor.fetchall()]


async def game_chips(conn: Connection | Database, game_id: int) -> dict[int, int]:
    """Net chips per member from a settled game: payout minus stake (paid escrows only)."""
    net: dict[int, int] = {}
    for user_id, amount in await conn.fetchall(
        "SELECT user_id, SUM(amount) FROM escrows WHERE game_id = ? AND status = 'paid'"
        " GROUP BY user_id",
        (game_id,),
    ):
        net[user_id] = net.get(user_id, 0) - int(amount)
    for user_id, amount in await conn.fetchall(
        "SELECT user_id, SUM(delta) FROM ledger WHERE game_id = ? AND kind = 'payout'"
        " GROUP BY user_id",
        (game_id,),
    ):
        net[user_id] = net.get(user_id, 0) + int(amount)
    return net


# --- the invariant -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class InvariantReport:
    balances: int
    held: int  # table stakes and tournament entry fees held
    minted: int  # start + daily + grant + take
    ledger_total: int  # sum of every ledger delta
    wallets_off_ledger: int  # wallets whose balance differs from their ledger sum
    pots_off: int  # games (tournaments) whose payouts differ from their paid stakes (fees)

    @property
    def ok(self) -> bool:
        return (
            self.balances + self.held == self.minted
            and self.balances == self.ledger_total
            and self.wallets_off_ledger == 0
            and self.pots_off == 0
        )


async def check_invariant(db: Database | Connection) -> InvariantReport:
    """The RULINGS §5 sums, plus per-wallet and per-pot cross-checks; on a connection, as its
    transaction sees them (migrate-db checks its copy before it commits)."""
    row = await db.fetchone(
        "SELECT"
        " (SELECT COALESCE(SUM(balance), 0) FROM wallets),"
        " (SELECT COALESCE(SUM(amount), 0) FROM escrows WHERE status = 'held')"
        " + (SELECT COALESCE(SUM(amount), 0) FROM tournament_fees WHERE status = 'held'),"
        " (SELECT COALESCE(SUM(delta), 0) FROM ledger"
        "   WHERE kind IN ('start', 'daily', 'grant', 'take')),"
        " (SELECT COALESCE(SUM(delta), 0) FROM ledger),"
        " (SELECT COUNT(*) FROM wallets w WHERE w.balance <> (SELECT COALESCE(SUM(delta), 0)"
        "   FROM ledger l WHERE l.guild_id = w.guild_id AND l.user_id = w.user_id)),"
        " (SELECT COUNT(*) FROM (SELECT e.game_id FROM escrows e WHERE e.status = 'paid'"
        "   GROUP BY e.game_id HAVING SUM(e.amount) <> (SELECT COALESCE(SUM(delta), 0)"
        "   FROM ledger l WHERE l.game_id = e.game_id AND l.kind = 'payout')) AS off)"
        # A tournament's paid fees are its prizes (ledger payouts with its reason).
        " + (SELECT COUNT(*) FROM (SELECT f.tournament_id FROM tournament_fees f"
        "   WHERE f.status = 'paid' GROUP BY f.tournament_id"
        "   HAVING SUM(f.amount) <> (SELECT COALESCE(SUM(delta), 0) FROM ledger l"
        "   WHERE l.kind = 'payout' AND l.game_id IS NULL"
        "   AND l.reason = 'tournament:' || f.tournament_id)) AS t_off)"
    )
    assert row is not None
    return InvariantReport(*(int(value) for value in row))
