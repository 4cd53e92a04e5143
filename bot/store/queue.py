"""Repository for quick play (issue 36): the queue, blocks, no-shows, ready checks and each
server's choice. All SQL for quick play; the rules of it are in ``bot.tables.quickplay``.

A matching pass (``claim_pass``) reads the waiting entries and claims the ones it groups in
one transaction: on PostgreSQL it reads them ``FOR UPDATE SKIP LOCKED``, so a second
process's pass at the same moment sees none of them; on SQLite the one writer does the same.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.ratings import display_rating
from bot.records import EVERYWHERE
from bot.store import jsontext
from bot.store.db import Connection, Database, Row
from bot.store.games import ShardFilter, of_shards

DEFAULT_MODE = "here"
MODES = ("off", "here", "everywhere")


@dataclass(frozen=True, slots=True)
class QueueRow:
    user_id: int
    guild_id: int
    channel_id: int
    game_key: str
    rating: int
    queued_at: float
    bot_after: float
    bot_offered: bool
    match_id: int | None
    everywhere: bool = False  # where: everywhere (matched across servers), else here


@dataclass(frozen=True, slots=True)
class MatchSeat:
    user_id: int
    seat: int
    channel_id: int
    message_id: int | None
    ready: bool
    guild_id: int = 0  # the server the member queued from (0: before migration 021)


@dataclass(frozen=True, slots=True)
class MatchRow:
    id: int
    guild_id: int
    game_key: str
    created_at: float
    deadline: float
    status: str
    table_id: int | None
    seats: tuple[MatchSeat, ...]


# A group as the matcher returns it: (user_id, channel_id) of each member, in seat order.
Group = Sequence[tuple[int, int]]

_Q_COLUMNS = (
    "user_id, guild_id, channel_id, game_key, rating, queued_at, bot_after, bot_offered, match_id,"
    " everywhere"
)


def _queue_row(r: Row) -> QueueRow:
    return QueueRow(
        user_id=int(r["user_id"]),
        guild_id=int(r["guild_id"]),
        channel_id=int(r["channel_id"]),
        game_key=str(r["game_key"]),
        rating=int(r["rating"]),
        queued_at=float(r["queued_at"]),
        bot_after=float(r["bot_after"]),
        bot_offered=bool(r["bot_offered"]),
        match_id=None if r["match_id"] is None else int(r["match_id"]),
        everywhere=bool(r["everywhere"]),
    )


# --- a server's choice ------------------------------------------------------------------


async def guild_mode(db: Database, guild_id: int) -> tuple[str, int | None]:
    """(off | here | everywhere, the quick-play channel or None)."""
    row = await db.fetchone(
        "SELECT mode, channel_id FROM quick_guilds WHERE guild_id = ?", (guild_id,)
    )
    if row is None:
        return DEFAULT_MODE, None
    return str(row["mode"]), None if row["channel_id"] is None else int(row["channel_id"])


async def set_guild_mode(
    db: Database, guild_id: int, mode: str, actor_id: int, now: float
) -> list[QueueRow]:
    """Set the mode; turning it off takes the server's waiting members out of the queue,
    turning it to ``here`` those waiting across servers (returned, to be told), in the same
    transaction."""
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO quick_guilds (guild_id, mode, channel_id, updated_at, updated_by)"
            " VALUES (?, ?, NULL, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
            " mode = excluded.mode, updated_at = excluded.updated_at,"
            " updated_by = excluded.updated_by",
            (guild_id, mode, now, actor_id),
        )
        if mode == "everywhere":
            return []
        across = " AND everywhere = 1" if mode == "here" else ""
        rows = await conn.fetchall(
            f"DELETE FROM quick_queue WHERE guild_id = ? AND match_id IS NULL{across}"
            f" RETURNING {_Q_COLUMNS}",
            (guild_id,),
        )
        return [_queue_row(r) for r in rows]


async def set_guild_channel(
    db: Database, guild_id: int, channel_id: int | None, actor_id: int, now: float
) -> None:
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO quick_guilds (guild_id, mode, channel_id, updated_at, updated_by)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
            " channel_id = excluded.channel_id, updated_at = excluded.updated_at,"
            " updated_by = excluded.updated_by",
            (guild_id, DEFAULT_MODE, channel_id, now, actor_id),
        )


# --- the queue --------------------------------------------------------------------------


async def rating_of(db: Database, scope: int, game_key: str, user_id: int) -> int:
    """The member's shown rating for the game in the scope (a newcomer's 1,000 if unrated)."""
    row = await db.fetchone(
        "SELECT ordinal FROM player_stats WHERE scope = ? AND game_key = ? AND user_id = ?"
        " AND rated_games > 0",
        (scope, game_key, user_id),
    )
    return display_rating(0.0 if row is None else float(row[0]))


async def seated_at(db: Database, user_id: int) -> tuple[int, int, int | None, int] | None:
    """(game id, channel id, thread id, guild id) of a running table the member plays at."""
    needle = f'"user_id":{int(user_id)},'
    mentions = db.dialect.contains("state_json", "?")
    rows = await db.fetchall(
        "SELECT id, channel_id, thread_id, guild_id, state_json FROM games"
        f" WHERE status = 'running' AND {mentions} ORDER BY id",
        (needle,),
    )
    for row in rows:
        state = jsontext.loads(row["state_json"])
        if any(seat.get("user_id") == user_id for seat in state.get("seats", ())):
            return int(row["id"]), int(row["channel_id"]), row["thread_id"], int(row["guild_id"])
    return None


async def enqueue(
    db: Database,
    *,
    user_id: int,
    guild_id: int,
    channel_id: int,
    game_key: str,
    rating: int,
    now: float,
    bot_after: float,
    everywhere: bool = False,
) -> bool:
    """Queue the member; False when they already have an entry (here or in any server)."""
    async with db.transaction() as conn:
        cursor = await conn.execute(
            "INSERT INTO quick_queue (user_id, guild_id, channel_id, game_key, rating,"
            " queued_at, bot_after, bot_offered, match_id, everywhere)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, 0, NULL, ?) ON CONFLICT (user_id) DO NOTHING",
            (user_id, guild_id, channel_id, game_key, rating, now, bot_after, int(everywhere)),
        )
        return cursor.rowcount == 1


async def entry(db: Database, user_id: int) -> QueueRow | None:
    row = await db.fetchone(f"SELECT {_Q_COLUMNS} FROM quick_queue WHERE user_id = ?", (user_id,))
    return None if row is None else _queue_row(row)


async def leave(db: Database, user_id: int) -> QueueRow | None:
    """Take the member's waiting entry out (None: no entry, or one in a ready check)."""
    async with db.transaction() as conn:
        row = await conn.fetchone(
            "DELETE FROM quick_queue WHERE user_id = ? AND match_id IS NULL"
            f" RETURNING {_Q_COLUMNS}",
            (user_id,),
        )
        return None if row is None else _queue_row(row)


async def waiting(
    db: Database, guild_id: int, game_key: str, everywhere: bool = False
) -> list[QueueRow]:
    """The server's waiting entries for the game (``everywhere``: those of every server
    waiting across servers), longest waiting first."""
    if everywhere:
        rows = await db.fetchall(
            f"SELECT {_Q_COLUMNS} FROM quick_queue WHERE everywhere = 1 AND game_key = ?"
            " AND match_id IS NULL ORDER BY queued_at, user_id",
            (game_key,),
        )
    else:
        rows = await db.fetchall(
            f"SELECT {_Q_COLUMNS} FROM quick_queue WHERE guild_id = ? AND game_key = ?"
            " AND everywhere = 0 AND match_id IS NULL ORDER BY queued_at, user_id",
            (guild_id, game_key),
        )
    return [_queue_row(r) for r in rows]


async def sizes(db: Database, guild_id: int) -> dict[str, int]:
    """Members queued per game in the server (waiting or in a ready check)."""
    rows = await db.fetchall(
        "SELECT game_key, COUNT(*) FROM quick_queue WHERE guild_id = ? GROUP BY game_key",
        (guild_id,),
    )
    return {str(r[0]): int(r[1]) for r in rows}


async def timeout_until(db: Database, user_id: int, now: float) -> float | None:
    row = await db.fetchone(
        "SELECT until FROM quick_timeouts WHERE user_id = ? AND until > ?", (user_id, now)
    )
    return None if row is None else float(row[0])


# --- blocks -----------------------------------------------------------------------------


async def block(db: Database, user_id: int, blocked_id: int, now: float) -> bool:
    """False when the member had already blocked them."""
    async with db.transaction() as conn:
        cursor = await conn.execute(
            "INSERT INTO quick_blocks (user_id, blocked_id, at) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id, blocked_id) DO NOTHING",
            (user_id, blocked_id, now),
        )
        return cursor.rowcount == 1


async def unblock(db: Database, user_id: int, blocked_id: int) -> bool:
    async with db.transaction() as conn:
        cursor = await conn.execute(
            "DELETE FROM quick_blocks WHERE user_id = ? AND blocked_id = ?", (user_id, blocked_id)
        )
        return cursor.rowcount == 1


async def blocked(db: Database, user_id: int, limit: int) -> list[int]:
    rows = await db.fetchall(
        "SELECT blocked_id FROM quick_blocks WHERE user_id = ? ORDER BY at, blocked_id LIMIT ?",
        (user_id, limit),
    )
    return [int(r[0]) for r in rows]


async def block_count(db: Database, user_id: int) -> int:
    row = await db.fetchone("SELECT COUNT(*) FROM quick_blocks WHERE user_id = ?", (user_id,))
    return int(row[0]) if row else 0


# --- matching and ready checks ------------------------------------------------------------


async def claim_pass(
    db: Database,
    now: float,
    deadline: float,
    grouper: Callable[[list[QueueRow], set[tuple[int, int]]], list[Group]],
    shards: ShardFilter = None,
) -> list[int]:
    """One matching pass: the waiting entries (this process's servers) and the blocks among
    them go to ``grouper``; each group it returns becomes a ready check until ``deadline``,
    its entries claimed. Returns the new checks' ids. Entries waiting across servers are
    matched by the process that runs shard 0, where cross-server tables live (EVERYWHERE's
    shard): the others leave them alone."""
    where, params = of_shards(shards)
    if shards is not None:
        ours = where.removeprefix(" AND ")
        runs_zero = 0 in shards[1]
        where = f" AND (everywhere = 1 OR {ours})" if runs_zero else f" AND everywhere = 0{where}"
    lock = " FOR UPDATE SKIP LOCKED" if db.dialect.name == "postgresql" else ""
    async with db.transaction() as conn:
        rows = await conn.fetchall(
            f"SELECT {_Q_COLUMNS} FROM quick_queue WHERE match_id IS NULL{where}{lock}", params
        )
        entries = [_queue_row(r) for r in rows]
        if len(entries) < 2:
            return []
        pairs = await conn.fetchall(
            "SELECT b.user_id, b.blocked_id FROM quick_blocks b"
            " JOIN quick_queue q ON q.user_id = b.user_id WHERE q.match_id IS NULL"
        )
        groups = grouper(entries, {(int(p[0]), int(p[1])) for p in pairs})
        by_user = {e.user_id: e for e in entries}
        made: list[int] = []
        for group in groups:
            first = by_user[group[0][0]]
            row = await conn.fetchone(
                "INSERT INTO quick_matches (guild_id, game_key, created_at, deadline, status)"
                " VALUES (?, ?, ?, ?, 'asking') RETURNING id",
                (EVERYWHERE if first.everywhere else first.guild_id, first.game_key, now, deadline),
            )
            match_id = int(row[0])
            await conn.executemany(
                "INSERT INTO quick_match_seats (match_id, user_id, seat, channel_id, ready,"
                " guild_id) VALUES (?, ?, ?, ?, 0, ?)",
                [
                    (match_id, user, i, channel, by_user[user].guild_id)
                    for i, (user, channel) in enumerate(group)
                ],
            )
            await conn.executemany(
                "UPDATE quick_queue SET match_id = ? WHERE user_id = ? AND match_id IS NULL",
                [(match_id, user) for user, _ in group],
            )
            made.append(match_id)
        return made


async def match(db: Database | Connection, match_id: int) -> MatchRow | None:
    row = await db.fetchone(
        "SELECT id, guild_id, game_key, created_at, deadline, status, table_id"
        " FROM quick_matches WHERE id = ?",
        (match_id,),
    )
    if row is None:
        return None
    seats = await db.fetchall(
        "SELECT user_id, seat, channel_id, message_id, ready, guild_id FROM quick_match_seats"
        " WHERE match_id = ? ORDER BY seat",
        (match_id,),
    )
    return MatchRow(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        game_key=str(row["game_key"]),
        created_at=float(row["created_at"]),
        deadline=float(row["deadline"]),
        status=str(row["status"]),
        table_id=None if row["table_id"] is None else int(row["table_id"]),
        seats=tuple(
            MatchSeat(
                user_id=int(s["user_id"]),
                seat=int(s["seat"]),
                channel_id=int(s["channel_id"]),
                message_id=None if s["message_id"] is None else int(s["message_id"]),
                ready=bool(s["ready"]),
                guild_id=int(s["guild_id"] or row["guild_id"]),
            )
            for s in seats
        ),
    )


async def set_ready_message(db: Database, match_id: int, user_id: int, message_id: int) -> None:
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE quick_match_seats SET message_id = ? WHERE match_id = ? AND user_id = ?",
            (message_id, match_id, user_id),
        )


async def press_ready(db: Database, match_id: int, user_id: int, now: float) -> tuple[bool, bool]:
    """(this press counted, it was the last: the caller opens the table). Of every
    member's last press, exactly one is told it was the last."""
    async with db.transaction() as conn:
        cursor = await conn.execute(
            "UPDATE quick_match_seats SET ready = 1 WHERE match_id = ? AND user_id = ?"
            " AND ready = 0 AND EXISTS (SELECT 1 FROM quick_matches m WHERE m.id = ?"
            " AND m.status = 'asking' AND m.deadline > ?)",
            (match_id, user_id, match_id, now),
        )
        if cursor.rowcount != 1:
            return False, False
        last = await conn.fetchone(
            "UPDATE quick_matches SET status = 'opening' WHERE id = ? AND status = 'asking'"
            " AND NOT EXISTS (SELECT 1 FROM quick_match_seats s WHERE s.match_id = ?"
            " AND s.ready = 0) RETURNING id",
            (match_id, match_id),
        )
        return True, last is not None


async def opened(db: Database, match_id: int, table_id: int) -> None:
    """Every member pressed and their table is open: out of the queue."""
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE quick_matches SET status = 'opened', table_id = ? WHERE id = ?",
            (table_id, match_id),
        )
        await conn.execute("DELETE FROM quick_queue WHERE match_id = ?", (match_id,))


async def not_opened(db: Database, match_id: int) -> None:
    """The table could not be opened (a server's cap): everyone back, at the front."""
    async with db.transaction() as conn:
        await conn.execute("UPDATE quick_matches SET status = 'failed' WHERE id = ?", (match_id,))
        await conn.execute("UPDATE quick_queue SET match_id = NULL WHERE match_id = ?", (match_id,))


@dataclass(frozen=True, slots=True)
class Failed:
    """A ready check that ran out: who pressed (back at the front), who did not (back at
    the end, or ``timed_out`` of the queue until ``until``)."""

    match: MatchRow
    no_shows: tuple[int, ...]
    timed_out: tuple[int, ...]
    until: float


async def expire_checks(
    db: Database,
    now: float,
    *,
    window: float,
    strikes: int,
    timeout: float,
    shards: ShardFilter = None,
) -> list[Failed]:
    """Close every ready check past its deadline (each once, across processes): members who
    pressed go back to the front (their place kept), members who did not go to the back,
    or out for ``timeout`` seconds at their ``strikes``-th no-show within ``window``."""
    where, params = of_shards(shards)
    out: list[Failed] = []
    async with db.transaction() as conn:
        rows = await conn.fetchall(
            "UPDATE quick_matches SET status = 'failed' WHERE status = 'asking'"
            f" AND deadline <= ?{where} RETURNING id",
            (now, *params),
        )
        for row in rows:
            found = await match(conn, int(row[0]))
            assert found is not None
            missing = [s.user_id for s in found.seats if not s.ready]
            out_now: list[int] = []
            for user in missing:
                await conn.execute(
                    "INSERT INTO quick_no_shows (user_id, at) VALUES (?, ?)"
                    " ON CONFLICT (user_id, at) DO NOTHING",
                    (user, now),
                )
                count = await conn.fetchone(
                    "SELECT COUNT(*) FROM quick_no_shows WHERE user_id = ? AND at > ?",
                    (user, now - window),
                )
                if int(count[0]) >= strikes:
                    out_now.append(user)
                    await conn.execute(
                        "DELETE FROM quick_queue WHERE user_id = ? AND match_id = ?",
                        (user, found.id),
                    )
                    await conn.execute(
                        "INSERT INTO quick_timeouts (user_id, until) VALUES (?, ?)"
                        " ON CONFLICT (user_id) DO UPDATE SET until = excluded.until",
                        (user, now + timeout),
                    )
                else:
                    await conn.execute(
                        "UPDATE quick_queue SET match_id = NULL, queued_at = ?, bot_offered = 0"
                        " WHERE user_id = ? AND match_id = ?",
                        (now, user, found.id),
                    )
            await conn.execute(
                "UPDATE quick_queue SET match_id = NULL WHERE match_id = ?", (found.id,)
            )
            out.append(Failed(found, tuple(missing), tuple(out_now), now + timeout))
    return out


async def next_deadline(db: Database) -> float | None:
    row = await db.fetchone("SELECT MIN(deadline) FROM quick_matches WHERE status = 'asking'")
    return None if row is None or row[0] is None else float(row[0])


async def bot_offers_due(db: Database, now: float, shards: ShardFilter = None) -> list[QueueRow]:
    """Waiting entries whose wait for a bot offer has passed, each returned once."""
    where, params = of_shards(shards)
    async with db.transaction() as conn:
        rows = await conn.fetchall(
            "UPDATE quick_queue SET bot_offered = 1 WHERE match_id IS NULL AND bot_offered = 0"
            f" AND queued_at + bot_after <= ?{where} RETURNING {_Q_COLUMNS}",
            (now, *params),
        )
        return [_queue_row(r) for r in rows]


async def names(db: Database, guild_id: int, user_ids: Sequence[int]) -> dict[int, str]:
    """The members' names in the server, as they last queued (``members``)."""
    if not user_ids:
        return {}
    marks = ", ".join("?" * len(user_ids))
    rows = await db.fetchall(
        f"SELECT user_id, display_name FROM members WHERE guild_id = ? AND user_id IN ({marks})",
        (guild_id, *user_ids),
    )
    return {int(r[0]): str(r[1]) for r in rows}
