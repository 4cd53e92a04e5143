"""The wallet service (RULINGS §5), one module of async functions as Red's ``bank``: each change one
transaction with its ledger rows; ``conn`` functions join the caller's transaction, ``db`` ones open
their own."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.errors import UserError
from bot.records import DAY, WalletView, utc_day
from bot.store import games
from bot.store import wallets as store
from bot.store.db import Connection, Database
from bot.store.wallets import InvariantReport, LedgerKind, check_invariant, game_chips

__all__ = [
    "DAILY_CHIPS",
    "MAX_AMOUNT",
    "MAX_REASON",
    "START_CHIPS",
    "DailyAlreadyClaimed",
    "InsufficientChips",
    "InvalidAmount",
    "InvariantReport",
    "Payout",
    "WalletError",
    "balance",
    "check_invariant",
    "claim_daily",
    "escrow",
    "game_chips",
    "get_wallet",
    "grant",
    "next_daily",
    "pay",
    "refund_all",
    "refund_seat",
    "remember",
    "settle_pot",
    "split_pot",
    "take",
]

START_CHIPS = 1_000
DAILY_CHIPS = 100
# Per operation; keeps every sum far from SQLite's 64-bit limit.
MAX_AMOUNT = 1_000_000_000
MAX_REASON = 200


class WalletError(UserError):
    """A chip operation refused because of what the user asked for."""


class InsufficientChips(WalletError):
    """The balance is short for a stake, a payment or a removal."""


class DailyAlreadyClaimed(WalletError):
    """``/daily`` was already claimed this UTC day."""

    def __init__(self, next_due: float) -> None:
        super().__init__(code="wallet.daily_taken", daily=DAILY_CHIPS, next_due=int(next_due))
        self.next_due = next_due


class InvalidAmount(WalletError):
    """An amount that is zero, negative, too large, or a payment to oneself."""


def _check_amount(amount: int, what: str = "amount") -> None:
    """``what``: the amount checked ("amount", "stake")."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise InvalidAmount(code="wallet.whole", what=what)
    if amount <= 0:
        raise InvalidAmount(code="wallet.at_least_1", what=what)
    if amount > MAX_AMOUNT:
        raise InvalidAmount(code="wallet.at_most", what=what, most=MAX_AMOUNT)


def _reason(reason: str) -> str:
    return reason[:MAX_REASON]


def split_pot(pot: int, winners: list[int]) -> dict[int, int]:
    """Equal shares; the remainder goes to ``winners[0]``, the seat that went first."""
    share, remainder = divmod(pot, len(winners))
    shares = dict.fromkeys(winners, share)
    shares[winners[0]] += remainder
    return shares


def next_daily(now: float) -> float:
    """When the next daily chips are due after ``now``: the next UTC midnight (unix time)."""
    return float((utc_day(now) + 1) * DAY)


# --- composed steps (inside a transaction) -----------------------------------------------


async def _ensure(conn: Connection, guild_id: int, user_id: int, now: float) -> None:
    await store.ensure_wallet(conn, guild_id, user_id, now, start=START_CHIPS)


async def _credit(
    conn: Connection,
    guild_id: int,
    user_id: int,
    amount: int,
    kind: LedgerKind,
    now: float,
    **extra: Any,
) -> None:
    await _ensure(conn, guild_id, user_id, now)
    await store.credit(conn, guild_id, user_id, amount, kind, now, **extra)


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
    await _ensure(conn, guild_id, user_id, now)
    if await store.debit(conn, guild_id, user_id, amount, kind, now, **extra):
        return None
    return await store.balance_in(conn, guild_id, user_id)


# --- reads -------------------------------------------------------------------------------


async def get_wallet(
    db: Database, guild_id: int, user_id: int, *, now: float, entries: int = 5
) -> WalletView:
    """The member's wallet (created on first use) and their latest ledger entries."""
    async with db.transaction() as conn:
        await _ensure(conn, guild_id, user_id, now)
        return await store.read_wallet(conn, guild_id, user_id, entries)


async def balance(db: Database, guild_id: int, user_id: int) -> int:
    """The balance, or the starting amount for a member who has no wallet yet."""
    stored = await store.stored_balance(db, guild_id, user_id)
    return START_CHIPS if stored is None else stored


# --- member-facing operations (own transaction) ------------------------------------------


async def claim_daily(db: Database, guild_id: int, user_id: int, *, now: float) -> int:
    """Grant the daily chips once per UTC day; returns the new balance."""
    async with db.transaction() as conn:
        await _ensure(conn, guild_id, user_id, now)
        if not await store.credit_daily(conn, guild_id, user_id, DAILY_CHIPS, utc_day(now), now):
            next_due = next_daily(now)
            raise DailyAlreadyClaimed(next_due)
        return await store.balance_in(conn, guild_id, user_id)


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
        raise InvalidAmount(code="wallet.pay_self")
    _check_amount(amount)
    reason = None if reason is None else _reason(reason)
    async with db.transaction() as conn:
        short = await _debit(
            conn, guild_id, from_id, amount, "pay_out", now, reason=reason, actor_id=to_id
        )
        if short is not None:
            raise InsufficientChips(code="wallet.short_pay", have=short, amount=amount)
        await _credit(conn, guild_id, to_id, amount, "pay_in", now, reason=reason, actor_id=from_id)
        return await store.balance_in(conn, guild_id, from_id)


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
            reason=_reason(reason), actor_id=actor_id,
        )  # fmt: skip
        return await store.balance_in(conn, guild_id, user_id)


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
            reason=_reason(reason), actor_id=actor_id,
        )  # fmt: skip
        if short is not None:
            raise InsufficientChips(code="wallet.short_take", have=short, amount=amount)
        return await store.balance_in(conn, guild_id, user_id)


# --- stakes (inside the table layer's transaction) ---------------------------------------


async def escrow(
    conn: Connection, game_id: int, guild_id: int, user_id: int, amount: int, *, now: float
) -> bool:
    """Hold ``amount`` as the member's stake in ``game_id``, in the transaction that seats them; a
    stake already held changes nothing (False). :class:`InsufficientChips` rolls back the seat too.
    """
    if amount == 0:
        return False
    _check_amount(amount, "stake")
    if await store.held_stake(conn, game_id, user_id) is not None:
        return False
    short = await _debit(conn, guild_id, user_id, amount, "escrow", now, game_id=game_id)
    if short is not None:
        raise InsufficientChips(code="wallet.short_stake", have=short, amount=amount)
    await store.hold_stake(conn, game_id, guild_id, user_id, amount, now)
    return True


async def refund_seat(conn: Connection, game_id: int, user_id: int, *, now: float) -> int:
    """Return one member's held stake (they left the lobby); returns the chips refunded."""
    total = 0
    for guild_id, amount in await store.release_seat(conn, game_id, user_id, now):
        await _credit(conn, guild_id, user_id, amount, "refund", now, game_id=game_id)
        total += amount
    return total


async def refund_all(conn: Connection, game_id: int, *, now: float) -> dict[int, int]:
    """Return every held stake of the game; ``{user_id: chips}``, empty if already settled."""
    rows = sorted(await store.release_all(conn, game_id, now), key=lambda r: r[1])
    refunded: dict[int, int] = {}
    for guild_id, user_id, amount in rows:
        await _credit(conn, guild_id, user_id, amount, "refund", now, game_id=game_id)
        refunded[user_id] = refunded.get(user_id, 0) + amount
    return refunded


@dataclass(frozen=True, slots=True)
class Payout:
    pot: int
    shares: dict[int, int]  # user_id -> chips paid; empty if the pot was already settled


async def settle_pot(conn: Connection, game_id: int, winners: list[int], *, now: float) -> Payout:
    """Pay the pot to ``winners`` (member ids from the seat that went first) in the finishing
    transaction; nothing held, nothing paid, so a retry never pays twice."""
    winners = list(dict.fromkeys(winners))
    if not winners:
        raise ValueError("settle_pot needs at least one winner; use refund_all for no result")
    rows = await store.collect_pot(conn, game_id, now)
    if not rows:
        return Payout(0, {})
    guilds = {row[0] for row in rows}
    if len(guilds) != 1:
        raise RuntimeError(f"game {game_id} holds stakes from several servers: {guilds}")
    guild_id = guilds.pop()
    pot = sum(row[1] for row in rows)
    shares = split_pot(pot, winners)
    for user_id, amount in shares.items():
        if amount > 0:
            await _credit(conn, guild_id, user_id, amount, "payout", now, game_id=game_id)
    return Payout(pot, shares)


# --- members -----------------------------------------------------------------------------


async def remember(
    db: Database, guild_id: int, members: list[tuple[int, str]], *, now: float
) -> None:
    """Keep members' names (id, clean display name), so wallets and leaderboards can name
    them after they leave."""
    async with db.transaction() as conn:
        for user_id, name in members:
            await games.upsert_member(conn, guild_id, user_id, name, now)
