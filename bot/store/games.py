"""Repository for tables: live state, the action log and finished results. All SQL for games."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.records import SeatResult
from bot.store import jsontext
from bot.store.db import Connection, Database, Row, Statement, Statements, no_conflict

LIVE = ("lobby", "running")


class VersionConflict(RuntimeError):
    """The row was changed since it was read (by another click, timer or process)."""


@dataclass
class GameRow:
    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    lobby_message_id: int | None
    message_id: int | None
    game_key: str
    status: str
    host_id: int
    stake: int
    state: dict[str, Any]
    version: int
    deadline: float | None
    created_at: float
    updated_at: float
    finished_at: float | None
    # When the player to move is reminded (NULL: no reminder pending). A save writes it only
    # when its change decided it (``remind_set``): otherwise the database's value stands, as
    # a reminder claimed since this row was read must not come back (``claim_reminder``).
    remind_at: float | None = None
    remind_set: bool = False
    rematch_id: int | None = None  # the rematch lobby this finished game opened, once
    # Changes within this version that leave it as it is (a spectator's): a save expects
    # the one it read, so such a change is never lost to another process's save.
    revision: int = 0


def game_row(row: Row) -> GameRow:
    return GameRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        thread_id=row["thread_id"],
        lobby_message_id=row["lobby_message_id"],
        message_id=row["message_id"],
        game_key=row["game_key"],
        status=row["status"],
        host_id=row["host_id"],
        stake=row["stake"],
        state=jsontext.loads(row["state_json"]),
        version=row["version"],
        deadline=row["deadline"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        finished_at=row["finished_at"],
        remind_at=row["remind_at"],
        rematch_id=row["rematch_id"],
        revision=row["revision"],
    )


async def insert(conn: Connection, row: GameRow) -> int:
    cursor = await conn.execute(
        "INSERT INTO games (guild_id, channel_id, thread_id, lobby_message_id, message_id, "
        "game_key, status, host_id, stake, state_json, version, deadline, created_at, "
        "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (
            row.guild_id,
            row.channel_id,
            row.thread_id,
            row.lobby_message_id,
            row.message_id,
            row.game_key,
            row.status,
            row.host_id,
            row.stake,
            jsontext.dumps(row.state),
            row.version,
            row.deadline,
            row.created_at,
            row.updated_at,
        ),
    )
    created = await cursor.fetchone()
    return int(created[0])


_UPDATE = (
    "UPDATE games SET lobby_message_id = ?, game_key = ?, host_id = ?, "
    "status = ?, stake = ?, state_json = ?, version = ?, deadline = ?, updated_at = ?, "
    "finished_at = ?, remind_at = CASE WHEN ? = 1 THEN ? ELSE remind_at END, revision = 0 "
    "WHERE id = ? AND version = ? AND revision = ?"
)


def _conflict(game_id: int, expected_version: int) -> Callable[[], VersionConflict]:
    return lambda: VersionConflict(f"game {game_id} changed underneath (v{expected_version})")


def _update(row: GameRow, expected_version: int, text: str | None = None) -> Statement:
    params = (
        row.lobby_message_id,
        row.game_key,
        row.host_id,  # a lobby's host who leaves hands the table to the next member seated
        row.status,
        row.stake,
        jsontext.dumps(row.state) if text is None else text,
        row.version,
        row.deadline,
        row.updated_at,
        row.finished_at,
        int(row.remind_set),
        row.remind_at,
        row.id,
        expected_version,
        row.revision,
    )
    return Statement(_UPDATE, params, 1)


def update(row: GameRow, expected_version: int) -> Statements:
    """Write the row back: a compare-and-set on the version and the revision it was read at,
    so a lost update is impossible (``VersionConflict``). Where the game is shown (thread
    and message) is not written here: ``set_location`` owns it."""
    return Statements((_update(row, expected_version),), _conflict(row.id, expected_version))


_APPEND_LOG = (
    "INSERT INTO game_log (game_id, seq, at, actor_id, kind, detail_json) "
    "VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM game_log WHERE game_id = ?), "
    "?, ?, ?, ?)"
)


def _log(
    game_id: int, at: float, actor_id: int | None, kind: str, detail: dict[str, Any]
) -> Statement:
    return Statement(_APPEND_LOG, (game_id, game_id, at, actor_id, kind, jsontext.dumps(detail)))


def append_log(
    game_id: int, at: float, actor_id: int | None, kind: str, detail: dict[str, Any]
) -> Statements:
    """The game's next log entry."""
    return Statements((_log(game_id, at, actor_id, kind, detail),), no_conflict)


# ``save`` as one statement (PostgreSQL): the log entry is written only if the
# version-checked UPDATE changed the row, so its row count (1 or 0) is the check.
_SAVE_ONE = (
    "WITH saved AS ("
    + _UPDATE
    + " RETURNING id) INSERT INTO game_log (game_id, seq, at, actor_id, kind, detail_json) "
    "SELECT saved.id, (SELECT COALESCE(MAX(seq), 0) + 1 FROM game_log WHERE game_id = saved.id), "
    "CAST(? AS DOUBLE PRECISION), CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS TEXT) FROM saved"
)


def save(
    row: GameRow,
    expected_version: int,
    at: float,
    actor_id: int | None,
    kind: str,
    detail: dict[str, Any],
    text: str | None = None,
) -> Statements:
    """``update`` and its log entry, one change, its values taken now: the log entry is
    written only with the row (a batch sends its saves together, each still a
    compare-and-set). ``text``: the state's JSON, if the caller made it already."""
    written = _update(row, expected_version, text)
    logged = _log(row.id, at, actor_id, kind, detail)
    single = Statement(_SAVE_ONE, (*written.params, *logged.params[2:]), 1)
    return Statements((written, logged), _conflict(row.id, expected_version), single)


_SET_STATE = (
    "UPDATE games SET state_json = ?, revision = revision + 1 "
    "WHERE id = ? AND version = ? AND revision = ?"
)


def set_state(row: GameRow, text: str | None = None) -> Statements:
    """Write the state of a change that leaves the version as it is (a spectator came or
    went: the turn buttons, drawn at the version, must stay live); a compare-and-set on
    the version and the revision the change was made on, so of two such changes at the
    same moment (two processes) the second is refused, never lost. The caller counts the
    revision on (``row.revision + 1``) once it is written."""
    state = jsontext.dumps(row.state) if text is None else text
    params = (state, row.id, row.version, row.revision)
    return Statements((Statement(_SET_STATE, params, 1),), _conflict(row.id, row.version))


# Where the game is shown moves the revision as a spectator's change does: a save of a copy
# read before it (another process's, or a cached one) is refused, and reads it again. The
# write sets values and reads none, so it needs no expected revision of its own.
_SET_LOCATION = (
    "UPDATE games SET thread_id = COALESCE(?, thread_id), message_id = ?, "
    "revision = revision + 1 WHERE id = ?"
)


def set_location(game_id: int, thread_id: int | None, message_id: int | None) -> Statements:
    """Where the game is shown: its thread (kept when None) and its live message."""
    step = Statement(_SET_LOCATION, (thread_id, message_id, game_id))
    return Statements((step,), no_conflict, step)


async def claim_rematch(conn: Connection, game_id: int, rematch_id: int) -> bool:
    """Record ``rematch_id`` as the finished game's rematch, if it has none yet: a
    compare-and-set, so of two transactions (two processes) claiming it one wins; on
    PostgreSQL the second waits for the first's commit, then finds the column set."""
    cursor = await conn.execute(
        "UPDATE games SET rematch_id = ? "
        "WHERE id = ? AND status = 'finished' AND rematch_id IS NULL",
        (rematch_id, game_id),
    )
    return bool(cursor.rowcount == 1)


async def get(db: Database | Connection, game_id: int) -> GameRow | None:
    row = await db.fetchone("SELECT * FROM games WHERE id = ?", (game_id,))
    return None if row is None else game_row(row)


async def location(db: Database, game_id: int) -> tuple[int | None, int | None] | None:
    """Where a game is shown: its thread and its live message (None: no such game)."""
    row = await db.fetchone("SELECT thread_id, message_id FROM games WHERE id = ?", (game_id,))
    return None if row is None else (row["thread_id"], row["message_id"])


async def live(db: Database) -> list[GameRow]:
    rows = await db.fetchall("SELECT * FROM games WHERE status IN ('lobby', 'running') ORDER BY id")
    return [game_row(r) for r in rows]


ShardFilter = tuple[int, tuple[int, ...]] | None  # (shard count, ids run here); None: every guild


def of_shards(shards: ShardFilter) -> tuple[str, tuple[int, ...]]:
    """The condition on ``guild_id`` that keeps the guilds of these shards (Discord's
    ``(guild_id >> 22) % shard_count``): integer operators SQLite and PostgreSQL share."""
    if shards is None:
        return "", ()
    count, ids = shards
    return f" AND ((guild_id >> 22) % ?) IN ({', '.join('?' * len(ids))})", (count, *ids)


async def due(
    db: Database, now: float, limit: int = 10_000, shards: ShardFilter = None
) -> list[int]:
    """The tables whose timer has passed, soonest first (a closed table has no deadline:
    the deadline index holds only live timers); only those of ``shards``' guilds."""
    where, params = of_shards(shards)
    rows = await db.fetchall(
        f"SELECT id FROM games WHERE deadline IS NOT NULL AND deadline <= ?{where} "
        "ORDER BY deadline LIMIT ?",
        (now, *params, limit),
    )
    return [r["id"] for r in rows]


async def rows(db: Database, game_ids: list[int]) -> list[GameRow]:
    """These tables, whole, in one query (those that exist), by id: a tick that fires
    hundreds of timers reads them at once instead of one read each."""
    if not game_ids:
        return []
    marks = ", ".join("?" * len(game_ids))
    found = await db.fetchall(f"SELECT * FROM games WHERE id IN ({marks}) ORDER BY id", game_ids)
    return [game_row(r) for r in found]


async def next_deadline(db: Database, shards: ShardFilter = None) -> float | None:
    where, params = of_shards(shards)
    row = await db.fetchone(
        f"SELECT MIN(deadline) FROM games WHERE deadline IS NOT NULL{where}", params
    )
    return None if row is None or row[0] is None else float(row[0])


@dataclass(frozen=True)
class OpenChecks:
    """What opening a table at a server checks, read in one query."""

    lobbies_in_channel: int
    running_in_channel: int
    lobbies_in_guild: int
    live_in_guild: int
    host_last_opened: float | None
    turn_timeout: int | None
    max_stake: int | None


async def open_checks(
    db: Database | Connection, guild_id: int, channel_id: int, host_id: int
) -> OpenChecks:
    row = await db.fetchone(
        "SELECT"
        " COUNT(*) FILTER (WHERE channel_id = ? AND status = 'lobby'),"
        " COUNT(*) FILTER (WHERE channel_id = ? AND status = 'running'),"
        " COUNT(*) FILTER (WHERE status = 'lobby'),"
        " COUNT(*),"
        " (SELECT MAX(created_at) FROM games WHERE guild_id = ? AND host_id = ?),"
        " (SELECT turn_timeout_seconds FROM guild_settings WHERE guild_id = ?),"
        " (SELECT max_stake FROM guild_settings WHERE guild_id = ?)"
        " FROM games WHERE guild_id = ? AND status IN ('lobby', 'running')",
        (channel_id, channel_id, guild_id, host_id, guild_id, guild_id, guild_id),
    )
    assert row is not None
    return OpenChecks(
        int(row[0]),
        int(row[1]),
        int(row[2]),
        int(row[3]),
        None if row[4] is None else float(row[4]),
        None if row[5] is None else int(row[5]),
        None if row[6] is None else int(row[6]),
    )


async def set_shown_versions(conn: Connection, shown: list[tuple[int, int]]) -> None:
    """Record which version each game's Discord message shows (game id, version)."""
    await conn.executemany(
        "UPDATE games SET shown_version = ?"
        " WHERE id = ? AND (shown_version IS NULL OR shown_version < ?)",
        [(version, game_id, version) for game_id, version in shown],
    )


async def behind_on_discord(db: Database, shards: ShardFilter = None) -> list[int]:
    """Live tables whose message may show an older version than the database holds,
    soonest deadline first (a restart redraws only these); only those of ``shards``' guilds."""
    where, params = of_shards(shards)
    rows = await db.fetchall(
        "SELECT id FROM games WHERE status IN ('lobby', 'running')"
        f" AND (shown_version IS NULL OR shown_version < version){where}"
        " ORDER BY deadline IS NULL, deadline, id",
        params,
    )
    return [r["id"] for r in rows]


async def live_in_guild(db: Database, guild_id: int) -> list[int]:
    """The ids of a server's live tables (lobbies and games), soonest deadline first, then
    the live cross-server tables shown in one of its places (its language changed: they
    are redrawn too)."""
    rows = await db.fetchall(
        "SELECT id FROM games WHERE guild_id = ? AND status IN ('lobby', 'running')"
        " ORDER BY deadline IS NULL, deadline, id",
        (guild_id,),
    )
    placed = await db.fetchall(
        "SELECT g.id FROM games g JOIN table_places p ON p.game_id = g.id"
        " WHERE p.guild_id = ? AND g.status IN ('lobby', 'running') ORDER BY g.id",
        (guild_id,),
    )
    return [r["id"] for r in rows] + [r["id"] for r in placed]


async def live_in_channel(db: Database, channel_id: int) -> list[GameRow]:
    """The live games shown in the channel or thread (a cross-server table's in any of its
    places too)."""
    rows = await db.fetchall(
        "SELECT * FROM games WHERE status IN ('lobby', 'running') "
        "AND (channel_id = ? OR thread_id = ?) ORDER BY id",
        (channel_id, channel_id),
    )
    placed = await db.fetchall(
        "SELECT g.* FROM games g JOIN table_places p ON p.game_id = g.id"
        " WHERE g.status IN ('lobby', 'running') AND p.position > 0"
        " AND (p.channel_id = ? OR p.thread_id = ?) ORDER BY g.id",
        (channel_id, channel_id),
    )
    seen = {int(r["id"]) for r in rows}
    return [game_row(r) for r in [*rows, *(r for r in placed if int(r["id"]) not in seen)]]


async def running_with_message(db: Database, message_id: int) -> GameRow | None:
    """The running game whose live turn message is ``message_id`` (in any of a cross-server
    table's places), if any."""
    row = await db.fetchone(
        "SELECT * FROM games WHERE message_id = ? AND status = 'running'", (message_id,)
    )
    if row is None:  # a cross-server table's message in another place than its first
        row = await db.fetchone(
            "SELECT g.* FROM games g JOIN table_places p ON p.game_id = g.id"
            " WHERE p.message_id = ? AND g.status = 'running'",
            (message_id,),
        )
    return None if row is None else game_row(row)


async def in_thread(db: Database, thread_id: int) -> GameRow | None:
    """The game whose thread ``thread_id`` is (the latest, whatever its status; in any of a
    cross-server table's places), if any."""
    row = await db.fetchone(
        "SELECT * FROM games WHERE thread_id = ? ORDER BY id DESC LIMIT 1", (thread_id,)
    )
    if row is None:  # a cross-server table's thread in another place than its first
        row = await db.fetchone(
            "SELECT g.* FROM games g JOIN table_places p ON p.game_id = g.id"
            " WHERE p.thread_id = ? ORDER BY g.id DESC LIMIT 1",
            (thread_id,),
        )
    return None if row is None else game_row(row)


async def log_entries(db: Database, game_id: int) -> list[dict[str, Any]]:
    rows = await db.fetchall(
        "SELECT seq, at, actor_id, kind, detail_json FROM game_log WHERE game_id = ? ORDER BY seq",
        (game_id,),
    )
    return [
        {
            "seq": r["seq"],
            "at": r["at"],
            "actor_id": r["actor_id"],
            "kind": r["kind"],
            "detail": jsontext.loads(r["detail_json"]),
        }
        for r in rows
    ]


async def finished_ids(db: Database) -> list[int]:
    """Every finished game (one with results), oldest first."""
    rows = await db.fetchall("SELECT id FROM games WHERE status = 'finished' ORDER BY id")
    return [r["id"] for r in rows]


async def results_of(db: Database, game_id: int) -> list[SeatResult]:
    """A finished game's stored results, by seat."""
    rows = await db.fetchall(
        "SELECT seat, user_id, name, team, score, place, won, best_turn FROM game_results "
        "WHERE game_id = ? ORDER BY seat",
        (game_id,),
    )
    return [
        SeatResult(
            seat=r["seat"],
            user_id=r["user_id"],
            name=r["name"],
            team=r["team"],
            score=r["score"],
            place=r["place"],
            won=bool(r["won"]),
            best_turn=r["best_turn"],
        )
        for r in rows
    ]


async def insert_results(
    conn: Connection,
    game_id: int,
    guild_id: int,
    game_key: str,
    results: list[SeatResult],
    at: float,
) -> None:
    await conn.executemany(
        "INSERT INTO game_results (game_id, seat, guild_id, game_key, user_id, name, team, "
        "score, place, won, best_turn, finished_at, coached)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                game_id,
                r.seat,
                guild_id,
                game_key,
                r.user_id,
                r.name,
                r.team,
                r.score,
                r.place,
                int(r.won),
                r.best_turn,
                at,
                int(r.coached),
            )
            for r in results
        ],
    )


async def upsert_member(
    conn: Connection, guild_id: int, user_id: int, display_name: str, at: float
) -> None:
    await conn.execute(
        "INSERT INTO members (guild_id, user_id, display_name, updated_at) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (guild_id, user_id) DO UPDATE SET display_name = excluded.display_name, "
        "updated_at = excluded.updated_at",
        (guild_id, user_id, display_name, at),
    )


async def set_guild_turn_timeout(
    db: Database, guild_id: int, seconds: int, actor_id: int, at: float
) -> None:
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO guild_settings (guild_id, turn_timeout_seconds, updated_by, updated_at) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
            "turn_timeout_seconds = excluded.turn_timeout_seconds, "
            "updated_by = excluded.updated_by, updated_at = excluded.updated_at",
            (guild_id, seconds, actor_id, at),
        )


async def set_guild_max_stake(
    db: Database, guild_id: int, amount: int, actor_id: int, at: float
) -> None:
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO guild_settings (guild_id, max_stake, updated_by, updated_at) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
            "max_stake = excluded.max_stake, "
            "updated_by = excluded.updated_by, updated_at = excluded.updated_at",
            (guild_id, amount, actor_id, at),
        )


async def set_guild_lobby_role(
    db: Database, guild_id: int, role_id: int | None, actor_id: int, at: float
) -> None:
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO guild_settings (guild_id, lobby_role_id, updated_by, updated_at) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
            "lobby_role_id = excluded.lobby_role_id, "
            "updated_by = excluded.updated_by, updated_at = excluded.updated_at",
            (guild_id, role_id, actor_id, at),
        )


async def set_guild_organiser_role(
    db: Database, guild_id: int, role_id: int | None, actor_id: int, at: float
) -> None:
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO guild_settings (guild_id, organiser_role_id, updated_by, updated_at) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
            "organiser_role_id = excluded.organiser_role_id, "
            "updated_by = excluded.updated_by, updated_at = excluded.updated_at",
            (guild_id, role_id, actor_id, at),
        )


async def guild_organiser_role(db: Database, guild_id: int) -> int | None:
    """The role whose members may run tournaments on this server, if the server named one."""
    row = await db.fetchone(
        "SELECT organiser_role_id FROM guild_settings WHERE guild_id = ?", (guild_id,)
    )
    return None if row is None or row[0] is None else int(row[0])


async def set_guild_language(
    db: Database, guild_id: int, language: str | None, actor_id: int, at: float
) -> None:
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO guild_settings (guild_id, language, updated_by, updated_at) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
            "language = excluded.language, "
            "updated_by = excluded.updated_by, updated_at = excluded.updated_at",
            (guild_id, language, actor_id, at),
        )


async def set_guild_suggestions(
    db: Database, guild_id: int, allowed: bool, actor_id: int, at: float
) -> None:
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO guild_settings (guild_id, suggestions, updated_by, updated_at) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
            "suggestions = excluded.suggestions, "
            "updated_by = excluded.updated_by, updated_at = excluded.updated_at",
            (guild_id, int(allowed), actor_id, at),
        )


async def guild_suggestions(db: Database, guild_id: int) -> bool:
    """Whether members may ask for suggested moves on this server (the default: yes)."""
    row = await db.fetchone(
        "SELECT suggestions FROM guild_settings WHERE guild_id = ?", (guild_id,)
    )
    return row is None or bool(row[0])


async def guild_language(db: Database, guild_id: int) -> str | None:
    """The language of the server's public messages, if the server chose one."""
    row = await db.fetchone("SELECT language FROM guild_settings WHERE guild_id = ?", (guild_id,))
    return None if row is None or row[0] is None else str(row[0])


async def guild_lobby_role(db: Database, guild_id: int) -> int | None:
    """The role a new lobby on this server calls, if the server chose one."""
    row = await db.fetchone(
        "SELECT lobby_role_id FROM guild_settings WHERE guild_id = ?", (guild_id,)
    )
    return None if row is None or row[0] is None else int(row[0])
