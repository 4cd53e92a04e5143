"""The web companion's reads and its two writes (migration 017): which servers made their
pages public and under which opaque id, each player's opaque id in a server's pages, and the
reads no other repository has (a searched leaderboard, head-to-head records). Every value
from a request is a parameter."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from bot.ratings import display_rating
from bot.records import LeaderboardRow
from bot.store.db import Database
from bot.store.stats import MAX_PAGE_SIZE

TokenMaker = Callable[[], str]


async def set_public(
    db: Database, guild_id: int, public: bool, actor_id: int, at: float, new_id: str
) -> str:
    """Turn a server's pages on or off; its web id (``new_id`` the first time), kept after."""
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO guild_settings (guild_id, web_public, web_id, updated_by, updated_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
            " web_public = excluded.web_public,"
            " web_id = COALESCE(guild_settings.web_id, excluded.web_id),"
            " updated_by = excluded.updated_by, updated_at = excluded.updated_at",
            (guild_id, int(public), new_id, actor_id, at),
        )
        cursor = await conn.execute(
            "SELECT web_id FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        row = await cursor.fetchone()
    assert row is not None
    return str(row[0])


async def public_guild(db: Database, web_id: str) -> int | None:
    """The server whose public pages have this id; None for one unknown or not public."""
    row = await db.fetchone(
        "SELECT guild_id FROM guild_settings WHERE web_id = ? AND web_public = 1", (web_id,)
    )
    return None if row is None else int(row[0])


async def web_id_of(db: Database, guild_id: int) -> str | None:
    """A server's web id when its pages are public."""
    row = await db.fetchone(
        "SELECT web_id FROM guild_settings WHERE guild_id = ? AND web_public = 1", (guild_id,)
    )
    return None if row is None or row[0] is None else str(row[0])


async def public_guilds(db: Database, limit: int = 100) -> list[tuple[str, int]]:
    """(web id, guild id) of the servers whose pages are public, longest public first."""
    rows = await db.fetchall(
        "SELECT web_id, guild_id FROM guild_settings WHERE web_public = 1 AND web_id IS NOT NULL"
        " ORDER BY updated_at, guild_id LIMIT ?",
        (limit,),
    )
    return [(str(r[0]), int(r[1])) for r in rows]


async def player_ids(
    db: Database, guild_id: int, user_ids: Iterable[int], token: TokenMaker
) -> dict[int, str]:
    """Each member's opaque id in the server's pages, given now to those who had none."""
    wanted = sorted(set(user_ids))
    if not wanted:
        return {}
    marks = ", ".join("?" * len(wanted))
    found = await _player_ids(db, guild_id, wanted, marks)
    missing = [u for u in wanted if u not in found]
    if missing:
        async with db.transaction() as conn:
            for user_id in missing:
                await conn.execute(
                    "INSERT INTO web_players (guild_id, user_id, public_id) VALUES (?, ?, ?)"
                    " ON CONFLICT (guild_id, user_id) DO NOTHING",
                    (guild_id, user_id, token()),
                )
        found = await _player_ids(db, guild_id, wanted, marks)
    return found


async def _player_ids(db: Database, guild_id: int, wanted: list[int], marks: str) -> dict[int, str]:
    rows = await db.fetchall(
        f"SELECT user_id, public_id FROM web_players WHERE guild_id = ? AND user_id IN ({marks})",
        (guild_id, *wanted),
    )
    return {int(r[0]): str(r[1]) for r in rows}


async def player_of(db: Database, guild_id: int, public_id: str) -> tuple[int, str] | None:
    """(Discord id, display name) of the server's player with this opaque id."""
    row = await db.fetchone(
        "SELECT w.user_id, (SELECT m.display_name FROM members m"
        " WHERE m.guild_id = w.guild_id AND m.user_id = w.user_id)"
        " FROM web_players w WHERE w.guild_id = ? AND w.public_id = ?",
        (guild_id, public_id),
    )
    return None if row is None else (int(row[0]), str(row[1] or ""))


def _escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


async def searched_leaderboard(
    db: Database,
    guild_id: int,
    game_key: str,
    query: str,
    *,
    season_id: int | None = None,
    page: int = 1,
    page_size: int = 25,
) -> tuple[list[LeaderboardRow], int]:
    """The rating leaderboard's rows whose name holds ``query`` (case-insensitive), each
    with its rank on the whole board; and how many match."""
    page_size = max(1, min(page_size, MAX_PAGE_SIZE))
    if season_id is None:
        source, key, guild = "player_stats s WHERE s.scope = ?", guild_id, "s.scope"
    else:
        source, key, guild = "season_stats s WHERE s.season_id = ?", season_id, "s.guild_id"
    ranked = (
        "SELECT s.user_id, s.games, s.wins, s.win_rate, s.best_turn, s.chips_won,"
        " s.chips_lost, s.chips_net, s.streak, s.ordinal, s.rated_games,"
        " ROW_NUMBER() OVER (ORDER BY s.ordinal DESC, s.user_id) AS rank,"
        " (SELECT m.display_name FROM members m"
        f"  WHERE m.guild_id = {guild} AND m.user_id = s.user_id) AS name"
        f" FROM {source} AND s.game_key = ? AND s.rated_games > 0"
    )
    pattern = "%" + _escape_like(query.casefold()) + "%"
    where = "WHERE LOWER(COALESCE(t.name, '')) LIKE ? ESCAPE '\\'"
    count = await db.fetchone(
        f"SELECT COUNT(*) FROM ({ranked}) t {where}", (key, game_key, pattern)
    )
    total = int(count[0]) if count else 0
    pages = max(1, -(-total // page_size))
    page = max(1, min(page, pages))
    rows = await db.fetchall(
        f"SELECT * FROM ({ranked}) t {where} ORDER BY t.rank LIMIT ? OFFSET ?",
        (key, game_key, pattern, page_size, (page - 1) * page_size),
    )
    return [
        LeaderboardRow(
            rank=int(r["rank"]),
            user_id=r["user_id"],
            name=r["name"],
            games=r["games"],
            wins=r["wins"],
            win_rate=r["win_rate"],
            best_turn=r["best_turn"],
            chips_won=r["chips_won"],
            chips_lost=r["chips_lost"],
            chips_net=r["chips_net"],
            streak=r["streak"],
            rating=display_rating(r["ordinal"]),
            rated_games=r["rated_games"],
        )
        for r in rows
    ], total


@dataclass(frozen=True, slots=True)
class Rival:
    """A player met in the server's games: how often, and who won."""

    user_id: int
    name: str
    games: int
    wins: int  # the player's wins in those games
    losses: int  # the rival's wins in them


async def head_to_head(db: Database, guild_id: int, user_id: int, limit: int = 5) -> list[Rival]:
    """The players ``user_id`` met most in this server's finished games, with the results."""
    rows = await db.fetchall(
        "SELECT o.user_id, MAX(o.name) AS name, COUNT(*) AS games,"
        " SUM(CASE WHEN me.won = 1 AND o.won = 0 THEN 1 ELSE 0 END) AS wins,"
        " SUM(CASE WHEN o.won = 1 AND me.won = 0 THEN 1 ELSE 0 END) AS losses"
        " FROM game_results me JOIN game_results o"
        " ON o.game_id = me.game_id AND o.user_id <> me.user_id"
        " WHERE me.guild_id = ? AND me.user_id = ? AND o.user_id IS NOT NULL"
        " GROUP BY o.user_id ORDER BY games DESC, o.user_id LIMIT ?",
        (guild_id, user_id, limit),
    )
    return [
        Rival(
            int(r["user_id"]),
            str(r["name"] or ""),
            int(r["games"]),
            int(r["wins"] or 0),
            int(r["losses"] or 0),
        )
        for r in rows
    ]


@dataclass(frozen=True, slots=True)
class LiveTable:
    """A server's open lobby or running game, and where it is in Discord (for the
    redirect into it: these ids never appear in a page)."""

    id: int
    game_key: str
    status: str  # 'lobby' | 'running'
    channel_id: int
    thread_id: int | None
    message_id: int | None  # the lobby's message, or the running game's turn message
    created_at: float


async def live_tables(db: Database, guild_id: int, limit: int = 25) -> list[LiveTable]:
    """A server's open lobbies and running games, newest first (``games_guild_live``)."""
    rows = await db.fetchall(
        "SELECT id, game_key, status, channel_id, thread_id, lobby_message_id, message_id,"
        " created_at FROM games WHERE guild_id = ? AND status IN ('lobby', 'running')"
        " ORDER BY id DESC LIMIT ?",
        (guild_id, limit),
    )
    return [
        LiveTable(
            int(r["id"]),
            str(r["game_key"]),
            str(r["status"]),
            int(r["channel_id"]),
            None if r["thread_id"] is None else int(r["thread_id"]),
            _message_of(r["status"], r["lobby_message_id"], r["message_id"]),
            float(r["created_at"]),
        )
        for r in rows
    ]


def _message_of(status: str, lobby: int | None, turn: int | None) -> int | None:
    found = lobby if status == "lobby" else turn
    return None if found is None else int(found)


async def live_counts(db: Database) -> dict[str, int]:
    """Lobbies and running games, by game (``/metrics``)."""
    rows = await db.fetchall(
        "SELECT game_key, COUNT(*) FROM games WHERE status IN ('lobby', 'running')"
        " GROUP BY game_key"
    )
    return {str(r[0]): int(r[1]) for r in rows}


async def timers_behind(db: Database, now: float, late_after: float) -> tuple[int, int]:
    """Timers whose deadline has passed (due), and of those, the ones more than
    ``late_after`` seconds past it (late): ``/metrics`` (the ``games_deadline`` index)."""
    row = await db.fetchone(
        "SELECT COUNT(*), COALESCE(SUM(CASE WHEN deadline < ? THEN 1 ELSE 0 END), 0)"
        " FROM games WHERE deadline IS NOT NULL AND deadline <= ?"
        " AND status IN ('lobby', 'running')",
        (now - late_after, now),
    )
    return (0, 0) if row is None else (int(row[0]), int(row[1]))


async def ping(db: Database) -> None:
    """One round trip to the database (``/readyz``); raises when it does not answer."""
    await db.fetchone("SELECT 1")
