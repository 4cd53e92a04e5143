"""Wallets, the chip ledger and stake escrows (RULINGS §5).

Every balance change is a conditional ``UPDATE wallets ... WHERE balance >= ?`` plus one
ledger row, in one transaction, so the balance and the ledger cannot disagree and no wallet
can go below zero. Functions taking ``conn`` run inside the CALLER's transaction
(``async with db.transaction() as conn``); functions taking ``db`` open their own.

Invariant, checked by :func:`check_invariant`::

    sum(balances) + sum(held escrows) == sum(start + daily + grant + take ledger deltas)

because only those four kinds create or destroy chips; pay, escrow, refund and payout only
move them. Each escrow row leaves ``held`` exactly once (a trigger enforces it), so a payout
or refund that is retried after a crash or an exception is a no-op.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Literal

from bot.errors import UserError
from bot.records import DAY, LedgerEntry, WalletView, utc_day
from bot.store.db import Connection, Database

START_CHIPS = 1_000
DAILY_CHIPS = 100
# Per operation; keeps every sum far from SQLite's 64-bit limit.
MAX_AMOUNT = 1_000_000_000
MAX_REASON = 200

LedgerKind = Literal[
    "start", "daily", "grant", "take", "pay_in", "pay_out", "escrow", "refund", "payout"
]


class WalletError(UserError):
    """A chip operation refused because of what the user asked for."""


class InsufficientChips(WalletError):
    """The balance is short for a stake, a payment or a removal."""


class DailyAlreadyClaimed(WalletError):
    """``/daily`` was already claimed this UTC day."""

    def __init__(self, message: str, next_due: float) -> None:
        super().__init__(message)
        self.next_due = next_due


class InvalidAmount(WalletError):
    """An amount that is zero, negative, too large, or a payment to oneself."""


def chips(amount: int) -> str:
    """``1234`` -> ``'1,234 chips'`` (``'1 chip'``)."""
    return f"{amount:,} chip" + ("" if amount == 1 else "s")


def _now(now: float | None) -> float:
    # Callers in the table layer may omit the clock; tests always pass it.
    return time.time() if now is None else now


def _check_amount(amount: int, what: str = "The amount") -> None:
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise InvalidAmount(f"{what} must be a whole number of chips.")
    if amount <= 0:
        raise InvalidAmount(f"{what} must be at least 1 chip.")
    if amount > MAX_AMOUNT:
        raise InvalidAmount(f"{what} can be at most {chips(MAX_AMOUNT)}.")


async def _one(conn: Connection, sql: str, params: tuple[Any, ...]) -> Any:
    cursor = await conn.execute(sql, params)
    return await cursor.fetchone()


async def _balance(conn: Connection, guild_id: int, user_id: int) -> int:
    row = await _one(
        conn,
        "SELECT balance FROM wallets WHERE guild_id = ? AND user_id = ?",
        (guild_id, user_id),
    )
    return int(row[0])


async def _append(
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
    await conn.execute(
        "INSERT INTO ledger (guild_id, user_id, delta, kind, reason, game_id, actor_id, at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (guild_id, user_id, delta, kind, reason, game_id, actor_id, now),
    )


async def ensure_wallet(conn: Connection, guild_id: int, user_id: int, now: float) -> None:
    """Create the member's wallet with the starting chips if it does not exist yet."""
    cursor = await conn.execute(
        "INSERT INTO wallets (guild_id, user_id, balance, created_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (guild_id, user_id) DO NOTHING",
        (guild_id, user_id, START_CHIPS, now),
    )
    if cursor.rowcount == 1:
        await _append(conn, guild_id, user_id, START_CHIPS, "start", now, reason="welcome")


async def _credit(
    conn: Connection,
    guild_id: int,
    user_id: int,
    amount: int,
    kind: LedgerKind,
    now: float,
    **extra: Any,
) -> None:
    await ensure_wallet(conn, guild_id, user_id, now)
    await conn.execute(
        "UPDATE wallets SET balance = balance + ? WHERE guild_id = ? AND user_id = ?",
        (amount, guild_id, user_id),
    )
    await _append(conn, guild_id, user_id, amount, kind, now, **extra)


async def _debit(
    conn: Connection,
    guild_id: int,
    user_id: int,
    amount: int,
    kind: LedgerKind,
    now: float,
    **extra: Any,
) -> int | None:
    """Take ``amount`` if the balance covers it; returns None on success, else the balance."""
    await ensure_wallet(conn, guild_id, user_id, now)
    cursor = await conn.execute(
        "UPDATE wallets SET balance = balance - ?"
        " WHERE guild_id = ? AND user_id = ? AND balance >= ?",
        (amount, guild_id, user_id, amount),
    )
    if cursor.rowcount != 1:
        return await _balance(conn, guild_id, user_id)
    await _append(conn, guild_id, user_id, -amount, kind, now, **extra)
    return None


# --- reads -------------------------------------------------------------------------------


async def get_wallet(
    db: Database, guild_id: int, user_id: int, *, now: float, entries: int = 5
) -> WalletView:
    """The member's wallet (created on first use) and their latest ledger entries."""
    async with db.transaction() as conn:
        await ensure_wallet(conn, guild_id, user_id, now)
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


async def balance(db: Database, guild_id: int, user_id: int) -> int:
    """The balance, or the starting amount for a member who has no wallet yet."""
    row = await db.fetchone(
        "SELECT balance FROM wallets WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
    )
    return START_CHIPS if row is None else int(row[0])


# --- member-facing operations (own transaction) ------------------------------------------


async def claim_daily(db: Database, guild_id: int, user_id: int, *, now: float) -> int:
    """Grant the daily chips once per UTC day; returns the new balance."""
    day = utc_day(now)
    async with db.transaction() as conn:
        await ensure_wallet(conn, guild_id, user_id, now)
        # The day check and the credit are one statement: two clicks cannot both pass.
        cursor = await conn.execute(
            "UPDATE wallets SET balance = balance + ?, daily_day = ?"
            " WHERE guild_id = ? AND user_id = ? AND (daily_day IS NULL OR daily_day < ?)",
            (DAILY_CHIPS, day, guild_id, user_id, day),
        )
        if cursor.rowcount != 1:
            next_due = float((day + 1) * DAY)
            raise DailyAlreadyClaimed(
                f"You already took today's {chips(DAILY_CHIPS)}; the next ones are due "
                f"<t:{int(next_due)}:R>.",
                next_due,
            )
        await _append(conn, guild_id, user_id, DAILY_CHIPS, "daily", now)
        balance = await _balance(conn, guild_id, user_id)
    return balance


async def pay(
    db: Database,
    guild_id: int,
    from_id: int,
    to_id: int,
    amount: int,
    *,
    now: float,
    reason: str | None = None,
) -> int:
    """Move chips from one member to another; returns the payer's new balance."""
    if from_id == to_id:
        raise InvalidAmount("You cannot pay yourself.")
    _check_amount(amount)
    reason = None if reason is None else reason[:MAX_REASON]
    async with db.transaction() as conn:
        short = await _debit(
            conn, guild_id, from_id, amount, "pay_out", now, reason=reason, actor_id=to_id
        )
        if short is not None:
            raise InsufficientChips(f"You have {chips(short)}; you cannot pay {chips(amount)}.")
        await _credit(conn, guild_id, to_id, amount, "pay_in", now, reason=reason, actor_id=from_id)
        balance = await _balance(conn, guild_id, from_id)
    return balance


async def grant(
    db: Database,
    guild_id: int,
    user_id: int,
    amount: int,
    *,
    actor_id: int,
    reason: str,
    now: float,
) -> int:
    """An admin adds chips; returns the member's new balance."""
    _check_amount(amount)
    async with db.transaction() as conn:
        await _credit(
            conn, guild_id, user_id, amount, "grant", now,
            reason=reason[:MAX_REASON], actor_id=actor_id,
        )  # fmt: skip
        balance = await _balance(conn, guild_id, user_id)
    return balance


async def take(
    db: Database,
    guild_id: int,
    user_id: int,
    amount: int,
    *,
    actor_id: int,
    reason: str,
    now: float,
) -> int:
    """An admin removes chips (refused if the member has fewer); returns the new balance."""
    _check_amount(amount)
    async with db.transaction() as conn:
        short = await _debit(
            conn, guild_id, user_id, amount, "take", now,
            reason=reason[:MAX_REASON], actor_id=actor_id,
        )  # fmt: skip
        if short is not None:
            raise InsufficientChips(f"They have {chips(short)}; you cannot take {chips(amount)}.")
        balance = await _balance(conn, guild_id, user_id)
    return balance


# --- stakes (inside the table layer's transaction) ---------------------------------------


async def escrow(
    conn: Connection,
    game_id: int,
    guild_id: int,
    user_id: int,
    amount: int,
    *,
    now: float | None = None,
) -> bool:
    """Hold ``amount`` of the member's chips as their stake in ``game_id``.

    Call it in the same transaction that adds the seat. A stake of 0 holds nothing. If the
    member already has a stake held in this game nothing changes (returns False), so a
    repeated join cannot take the stake twice. Raises :class:`InsufficientChips` if the
    balance is short; the caller's transaction then rolls back the seat as well.
    """
    if amount == 0:
        return False
    _check_amount(amount, "The stake")
    at = _now(now)
    held = await _one(
        conn,
        "SELECT amount FROM escrows WHERE game_id = ? AND user_id = ? AND status = 'held'",
        (game_id, user_id),
    )
    if held is not None:
        return False
    short = await _debit(conn, guild_id, user_id, amount, "escrow", at, game_id=game_id)
    if short is not None:
        raise InsufficientChips(f"You have {chips(short)}; this table's stake is {amount:,}.")
    await conn.execute(
        "INSERT INTO escrows (game_id, guild_id, user_id, amount, created_at)"
        " VALUES (?, ?, ?, ?, ?)",
        (game_id, guild_id, user_id, amount, at),
    )
    return True


async def refund_seat(
    conn: Connection, game_id: int, user_id: int, *, now: float | None = None
) -> int:
    """Return one member's held stake (they left the lobby); returns the chips refunded."""
    at = _now(now)
    cursor = await conn.execute(
        "UPDATE escrows SET status = 'refunded', settled_at = ?"
        " WHERE game_id = ? AND user_id = ? AND status = 'held'"
        " RETURNING guild_id, amount",
        (at, game_id, user_id),
    )
    rows = list(await cursor.fetchall())
    total = 0
    for guild_id, amount in rows:
        await _credit(conn, guild_id, user_id, amount, "refund", at, game_id=game_id)
        total += amount
    return total


async def refund_all(conn: Connection, game_id: int, *, now: float | None = None) -> dict[int, int]:
    """Return every held stake of the game (cancelled, lobby expired, abandoned).

    Returns {user_id: chips refunded}; empty if nothing was held (already settled).
    """
    at = _now(now)
    cursor = await conn.execute(
        "UPDATE escrows SET status = 'refunded', settled_at = ?"
        " WHERE game_id = ? AND status = 'held' RETURNING guild_id, user_id, amount",
        (at, game_id),
    )
    rows = sorted(await cursor.fetchall(), key=lambda r: r[1])
    refunded: dict[int, int] = {}
    for guild_id, user_id, amount in rows:
        await _credit(conn, guild_id, user_id, amount, "refund", at, game_id=game_id)
        refunded[user_id] = refunded.get(user_id, 0) + amount
    return refunded


@dataclass(frozen=True, slots=True)
class Payout:
    pot: int
    shares: dict[int, int]  # user_id -> chips paid; empty if the pot was already settled


def split_pot(pot: int, winners: list[int]) -> dict[int, int]:
    """Equal shares; the remainder goes to ``winners[0]``, the seat that went first."""
    share, remainder = divmod(pot, len(winners))
    shares = dict.fromkeys(winners, share)
    shares[winners[0]] += remainder
    return shares


async def settle_pot(
    conn: Connection,
    game_id: int,
    winners: list[int],
    *,
    now: float | None = None,
) -> Payout:
    """Pay the game's pot to its winners, in the transaction that finishes the game.

    ``winners``: the winning members' ids in seat order, the seat that went first first
    (a winning team lists all its members). Every held stake of the game is marked paid and
    the pot is split by :func:`split_pot`. If nothing is held (already paid or refunded)
    nothing happens, so a retry never pays twice.
    """
    winners = list(dict.fromkeys(winners))
    if not winners:
        raise ValueError("settle_pot needs at least one winner; use refund_all for no result")
    at = _now(now)
    cursor = await conn.execute(
        "UPDATE escrows SET status = 'paid', settled_at = ?"
        " WHERE game_id = ? AND status = 'held' RETURNING guild_id, amount",
        (at, game_id),
    )
    rows = list(await cursor.fetchall())
    if not rows:
        return Payout(0, {})
    guilds = {row[0] for row in rows}
    if len(guilds) != 1:
        raise RuntimeError(f"game {game_id} holds stakes from several servers: {guilds}")
    guild_id = guilds.pop()
    pot = sum(int(row[1]) for row in rows)
    shares = split_pot(pot, winners)
    for user_id, amount in shares.items():
        if amount > 0:
            await _credit(conn, guild_id, user_id, amount, "payout", at, game_id=game_id)
    return Payout(pot, shares)


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
    held: int
    minted: int  # start + daily + grant + take
    ledger_total: int  # sum of every ledger delta
    wallets_off_ledger: int  # wallets whose balance differs from their ledger sum
    pots_off: int  # games whose payouts differ from their paid stakes

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
        " (SELECT COALESCE(SUM(amount), 0) FROM escrows WHERE status = 'held'),"
        " (SELECT COALESCE(SUM(delta), 0) FROM ledger"
        "   WHERE kind IN ('start', 'daily', 'grant', 'take')),"
        " (SELECT COALESCE(SUM(delta), 0) FROM ledger),"
        " (SELECT COUNT(*) FROM wallets w WHERE w.balance <> (SELECT COALESCE(SUM(delta), 0)"
        "   FROM ledger l WHERE l.guild_id = w.guild_id AND l.user_id = w.user_id)),"
        " (SELECT COUNT(*) FROM (SELECT e.game_id FROM escrows e WHERE e.status = 'paid'"
        "   GROUP BY e.game_id HAVING SUM(e.amount) <> (SELECT COALESCE(SUM(delta), 0)"
        "   FROM ledger l WHERE l.game_id = e.game_id AND l.kind = 'payout')) AS off)"
    )
    assert row is not None
    return InvariantReport(*(int(value) for value in row))
