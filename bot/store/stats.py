"""Statistics, ratings and leaderboards: the SQL side of ``bot.ratings``.

``record_finished_game`` runs in the transaction that writes a game's ``game_results``
(after ``bot.tables.wallets.settle_pot``, whose payouts it reads for chips won and lost).
Leaderboards read the ``player_stats`` table through one index per sort, never aggregating
results.

Scopes: a server's games count on its scope (the guild id) and on the pooled "all servers"
scope 0 (``GLOBAL_SCOPE``). A quick-play table whose players came from several servers
(guild id ``EVERYWHERE``, issue 36) counts on the everywhere ladder only, the scope
``EVERYWHERE``: on no server's board and not on the pooled one, since its players' servers
did not host it. Ratings, streaks, best turns and rating history there are kept as on any
scope, and rebuilt the same way; no season touches it and it counts no chips (those tables
carry no stake). Tables outside servers (``NO_GUILD``) count nowhere.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Literal

from bot.ratings import (
    GLOBAL_SCOPE,
    RatingPoint,
    Seat,
    StatKey,
    StatLine,
    apply_game,
    apply_season_game,
    display_rating,
    scopes_of,
    stat_keys,
)
from bot.records import (
    EVERYWHERE,
    NO_GUILD,
    WIN_RATE_MIN_GAMES,
    LeaderboardPage,
    LeaderboardRow,
    Season,
)
from bot.store.db import Connection, Database
from bot.store.seasons import all_seasons, running_at
from bot.store.wallets import game_chips

# This server's board, the pooled one of all servers, the everywhere ladder.
Scope = Literal["server", "global", "everywhere"]
Sort = Literal["rating", "wins", "win_rate", "chips"]
SORTS: tuple[Sort, ...] = ("rating", "wins", "win_rate", "chips")
SCOPES: tuple[Scope, ...] = ("server", "global", "everywhere")
# A win rate over two or three games says nothing; below this a member is not ranked by it.
# Migration 002's partial index stats_by_win_rate repeats this number.
MAX_PAGE_SIZE = 25

_STAT_COLUMNS = (
    "scope, game_key, user_id, games, wins, best_turn, chips_won, chips_lost, streak,"
    " rated_games, mu, sigma, last_game_id, updated_at"
)


def _line(row: Any) -> StatLine:
    return StatLine(*row)


def _stat_params(line: StatLine) -> tuple[Any, ...]:
    return (
        line.scope, line.game_key, line.user_id, line.games, line.wins, line.best_turn,
        line.chips_won, line.chips_lost, line.chips_net, line.streak, line.win_rate,
        line.rated_games, line.mu, line.sigma, line.ordinal, line.last_game_id, line.updated_at,
    )  # fmt: skip


_UPSERT_STATS = (
    "INSERT INTO player_stats (scope, game_key, user_id, games, wins, best_turn,"
    " chips_won, chips_lost, chips_net, streak, win_rate, rated_games, mu, sigma, ordinal,"
    " last_game_id, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (scope, game_key, user_id) DO UPDATE SET games = excluded.games,"
    " wins = excluded.wins, best_turn = excluded.best_turn, chips_won = excluded.chips_won,"
    " chips_lost = excluded.chips_lost, chips_net = excluded.chips_net,"
    " streak = excluded.streak, win_rate = excluded.win_rate,"
    " rated_games = excluded.rated_games, mu = excluded.mu, sigma = excluded.sigma,"
    " ordinal = excluded.ordinal, last_game_id = excluded.last_game_id,"
    " updated_at = excluded.updated_at"
)
# A season's rows: the same columns keyed by season, and the server for the members' names.
_SEASON_COLUMNS = _STAT_COLUMNS.replace("scope,", "season_id,", 1)
_UPSERT_SEASON = (
    "INSERT INTO season_stats (season_id, game_key, user_id, games, wins, best_turn,"
    " chips_won, chips_lost, chips_net, streak, win_rate, rated_games, mu, sigma, ordinal,"
    " last_game_id, updated_at, guild_id)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    + _UPSERT_STATS[_UPSERT_STATS.index(" ON CONFLICT") :].replace("(scope,", "(season_id,")
)
_INSERT_POINT = (
    "INSERT INTO rating_history (scope, game_key, user_id, game_id, mu, sigma, ordinal, at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)


def _point_params(p: RatingPoint) -> tuple[Any, ...]:
    return (p.scope, p.game_key, p.user_id, p.game_id, p.mu, p.sigma, p.mu - 3 * p.sigma, p.at)


def _seat(row: Any) -> Seat:
    return Seat(
        seat=row["seat"],
        user_id=row["user_id"],
        team=row["team"],
        place=row["place"],
        won=bool(row["won"]),
        best_turn=row["best_turn"],
        coached=bool(row["coached"]),
    )


async def record_finished_game(conn: Connection, game_id: int) -> bool:
    """Fold a finished game's ``game_results`` into stats and ratings, once.

    Call it in the transaction that inserts the game's results, after ``settle_pot``.
    Returns False if the game was already recorded (a retry) or has no results.
    """
    # A read-modify-write of rows that may not exist yet: one game at a time, across
    # processes too, and in the order recorded_games.seq gives.
    await conn.serialize("recorded_games")
    cursor = await conn.execute("SELECT 1 FROM recorded_games WHERE game_id = ?", (game_id,))
    if await cursor.fetchone() is not None:
        return False
    cursor = await conn.execute(
        "SELECT seat, guild_id, game_key, user_id, team, place, won, best_turn, finished_at,"
        " coached FROM game_results WHERE game_id = ? ORDER BY seat",
        (game_id,),
    )
    rows = list(await cursor.fetchall())
    if not rows or rows[0]["guild_id"] == NO_GUILD:  # played outside servers: no stats
        return False
    first = rows[0]
    guild_id, game_key, finished_at = first["guild_id"], first["game_key"], first["finished_at"]
    seats = [_seat(row) for row in rows]
    lines: dict[StatKey, StatLine] = {}
    keys = stat_keys(guild_id, game_key, seats)
    users = sorted({key[2] for key in keys})
    if users:
        marks = ", ".join("?" * len(users))
        scopes = scopes_of(guild_id)
        where = f"scope IN ({', '.join('?' * len(scopes))})"
        cursor = await conn.execute(
            f"SELECT {_STAT_COLUMNS} FROM player_stats"
            f" WHERE {where} AND game_key = ? AND user_id IN ({marks})",
            (*scopes, game_key, *users),
        )
        for row in await cursor.fetchall():
            line = _line(row)
            lines[(line.scope, line.game_key, line.user_id)] = line
    chips = await game_chips(conn, game_id)
    # A server's season; the everywhere ladder has none.
    season = None if guild_id == EVERYWHERE else await running_at(conn, guild_id, finished_at)
    season_lines: dict[StatKey, StatLine] = {}
    if season is not None and users:
        # Before apply_game: a member new to the season starts from the rating before this game.
        cursor = await conn.execute(
            f"SELECT {_SEASON_COLUMNS} FROM season_stats"
            f" WHERE season_id = ? AND game_key = ? AND user_id IN ({marks})",
            (season.id, game_key, *users),
        )
        for row in await cursor.fetchall():
            line = _line(row)
            season_lines[(line.scope, line.game_key, line.user_id)] = line
        apply_season_game(
            season_lines, lines, season_id=season.id, soft=season.soft_reset, game_id=game_id,
            guild_id=guild_id, game_key=game_key, seats=seats, chips=chips,
            finished_at=finished_at,
        )  # fmt: skip
    points = apply_game(
        lines,
        game_id=game_id,
        guild_id=guild_id,
        game_key=game_key,
        seats=seats,
        chips=chips,
        finished_at=finished_at,
    )
    for key in keys:
        await conn.execute(_UPSERT_STATS, _stat_params(lines[key]))
    for line in season_lines.values():
        await conn.execute(_UPSERT_SEASON, (*_stat_params(line), guild_id))
    for point in points:
        await conn.execute(_INSERT_POINT, _point_params(point))
    await conn.execute(
        "INSERT INTO recorded_games (seq, game_id, finished_at)"
        " VALUES ((SELECT COALESCE(MAX(seq), 0) + 1 FROM recorded_games), ?, ?)",
        (game_id, finished_at),
    )
    return True


@dataclass(frozen=True, slots=True)
class RebuildReport:
    games: int
    rated_points: int
    stat_rows: int


async def rebuild_ratings(db: Database) -> RebuildReport:
    """Recompute every stat and rating from ``game_results``, in the order the games were
    recorded (finish order for any never recorded), in one transaction: the live tables are
    replaced only if the whole rebuild succeeds."""
    async with db.transaction() as conn:
        await conn.serialize("recorded_games")
        # Games recorded live are replayed in the order they were recorded; any others
        # (e.g. results written before stats existed) follow in finish order.
        cursor = await conn.execute(
            "SELECT r.game_id, r.seat, r.guild_id, r.game_key, r.user_id, r.team, r.place,"
            " r.won, r.best_turn, r.finished_at, r.coached FROM game_results r"
            " LEFT JOIN recorded_games d ON d.game_id = r.game_id"
            " WHERE r.guild_id <> ?"  # games outside servers count on no leaderboard
            " ORDER BY d.seq IS NULL, d.seq, r.finished_at, r.game_id, r.seat",
            (NO_GUILD,),
        )
        games: dict[int, list[Any]] = {}
        for row in await cursor.fetchall():
            games.setdefault(row["game_id"], []).append(row)
        chips: dict[int, dict[int, int]] = defaultdict(dict)
        cursor = await conn.execute(
            "SELECT game_id, user_id, -SUM(amount) FROM escrows WHERE status = 'paid'"
            " GROUP BY game_id, user_id"
        )
        for game_id, user_id, amount in await cursor.fetchall():
            chips[game_id][user_id] = chips[game_id].get(user_id, 0) + int(amount)
        cursor = await conn.execute(
            "SELECT game_id, user_id, SUM(delta) FROM ledger WHERE kind = 'payout'"
            " GROUP BY game_id, user_id"
        )
        for game_id, user_id, amount in await cursor.fetchall():
            chips[game_id][user_id] = chips[game_id].get(user_id, 0) + int(amount)

        seasons: dict[int, list[Season]] = defaultdict(list)
        for season in await all_seasons(conn):
            seasons[season.guild_id].append(season)
        season_lines: dict[StatKey, StatLine] = {}
        season_guild: dict[int, int] = {}

        lines: dict[StatKey, StatLine] = {}
        points: list[RatingPoint] = []
        recorded: list[tuple[int, float]] = []
        for game_id, rows in games.items():
            first = rows[0]
            guild_id, at = first["guild_id"], first["finished_at"]
            running = [x for x in seasons[guild_id] if x.running(at)]
            if running and guild_id != EVERYWHERE:  # the everywhere ladder has no season
                season = running[-1]
                season_guild[season.id] = guild_id
                apply_season_game(
                    season_lines, lines, season_id=season.id, soft=season.soft_reset,
                    game_id=game_id, guild_id=guild_id, game_key=first["game_key"],
                    seats=[_seat(row) for row in rows], chips=chips.get(game_id, {}),
                    finished_at=at,
                )  # fmt: skip
            points += apply_game(
                lines,
                game_id=game_id,
                guild_id=first["guild_id"],
                game_key=first["game_key"],
                seats=[_seat(row) for row in rows],
                chips=chips.get(game_id, {}),
                finished_at=first["finished_at"],
            )
            recorded.append((game_id, first["finished_at"]))

        await conn.execute("DELETE FROM player_stats")
        await conn.execute("DELETE FROM rating_history")
        await conn.execute("DELETE FROM recorded_games")
        await conn.execute("DELETE FROM season_stats")
        await conn.executemany(
            _UPSERT_SEASON,
            [(*_stat_params(line), season_guild[line.scope]) for line in season_lines.values()],
        )
        await conn.executemany(_UPSERT_STATS, [_stat_params(line) for line in lines.values()])
        await conn.executemany(_INSERT_POINT, [_point_params(p) for p in points])
        await conn.executemany(
            "INSERT INTO recorded_games (seq, game_id, finished_at) VALUES (?, ?, ?)",
            [(seq, game_id, at) for seq, (game_id, at) in enumerate(recorded, 1)],
        )
    return RebuildReport(games=len(games), rated_points=len(points), stat_rows=len(lines))


# --- reads -------------------------------------------------------------------------------


# sort -> (ORDER BY, "ranks ahead of the viewer" condition on (key, key, user_id), filter)
_SORT_SQL: dict[str, tuple[str, str, str]] = {
    "rating": (
        "s.ordinal DESC, s.user_id",
        "(s.ordinal > ? OR (s.ordinal = ? AND s.user_id < ?))",
        "s.rated_games > 0",
    ),
    "wins": (
        "s.wins DESC, s.user_id",
        "(s.wins > ? OR (s.wins = ? AND s.user_id < ?))",
        "TRUE",
    ),
    "win_rate": (
        "s.win_rate DESC, s.user_id",
        "(s.win_rate > ? OR (s.win_rate = ? AND s.user_id < ?))",
        f"s.games >= {WIN_RATE_MIN_GAMES}",
    ),
    "chips": (
        "s.chips_net DESC, s.user_id",
        "(s.chips_net > ? OR (s.chips_net = ? AND s.user_id < ?))",
        "TRUE",
    ),
}
_SORT_KEY_COLUMN = {
    "rating": "ordinal",
    "wins": "wins",
    "win_rate": "win_rate",
    "chips": "chips_net",
}
_ROW_COLUMNS = (
    "s.user_id, s.games, s.wins, s.win_rate, s.best_turn, s.chips_won, s.chips_lost,"
    " s.chips_net, s.streak, s.ordinal, s.rated_games"
)


def scope_of(scope: Scope, guild_id: int) -> int:
    """The player_stats scope a board of ``scope`` reads, asked from server ``guild_id``."""
    if scope == "server":
        return guild_id
    return GLOBAL_SCOPE if scope == "global" else EVERYWHERE


def _name_sql(scope: Scope) -> str:
    if scope == "server":
        return (
            "(SELECT m.display_name FROM members m"
            " WHERE m.guild_id = s.scope AND m.user_id = s.user_id)"
        )
    # Global and everywhere: the most recent name the member had in any server.
    return (
        "(SELECT m.display_name FROM members m WHERE m.user_id = s.user_id"
        " ORDER BY m.updated_at DESC LIMIT 1)"
    )


def _board_row(rank: int, row: Any) -> LeaderboardRow:
    return LeaderboardRow(
        rank=rank,
        user_id=row["user_id"],
        name=row["name"],
        games=row["games"],
        wins=row["wins"],
        win_rate=row["win_rate"],
        best_turn=row["best_turn"],
        chips_won=row["chips_won"],
        chips_lost=row["chips_lost"],
        chips_net=row["chips_net"],
        streak=row["streak"],
        rating=display_rating(row["ordinal"]),
        rated_games=row["rated_games"],
    )


async def leaderboard(
    db: Database,
    game_key: str,
    scope: Scope,
    guild_id: int,
    sort: Sort,
    page: int = 1,
    page_size: int = 10,
    viewer_id: int | None = None,
    season_id: int | None = None,
) -> LeaderboardPage:
    """One page of a leaderboard (1-based ``page``), its size, and the viewer's own row:
    all-time, or of one season of the server (``season_id``, with the server scope)."""
    if sort not in _SORT_SQL:
        raise ValueError(f"unknown sort {sort!r}")
    if scope not in SCOPES:
        raise ValueError(f"unknown scope {scope!r}")
    page_size = max(1, min(page_size, MAX_PAGE_SIZE))
    scope_id = scope_of(scope, guild_id)
    order, ahead, keep = _SORT_SQL[sort]
    name = _name_sql(scope)
    table, where = "player_stats", f"s.scope = ? AND s.game_key = ? AND {keep}"
    if season_id is not None:
        if scope != "server":
            raise ValueError("a season belongs to one server")
        scope_id, table = season_id, "season_stats"
        where = f"s.season_id = ? AND s.game_key = ? AND {keep}"
        name = name.replace("m.guild_id = s.scope", "m.guild_id = s.guild_id")
    count = await db.fetchone(
        f"SELECT COUNT(*) FROM {table} s WHERE {where}",
        (scope_id, game_key),
    )
    total = int(count[0]) if count else 0
    pages = max(1, -(-total // page_size))
    page = max(1, min(page, pages))
    offset = (page - 1) * page_size
    rows = await db.fetchall(
        f"SELECT {_ROW_COLUMNS}, {name} AS name FROM {table} s"
        f" WHERE {where} ORDER BY {order} LIMIT ? OFFSET ?",
        (scope_id, game_key, page_size, offset),
    )
    board = [_board_row(offset + i + 1, row) for i, row in enumerate(rows)]
    viewer_row = None
    if viewer_id is not None:
        mine = await db.fetchone(
            f"SELECT {_ROW_COLUMNS}, {name} AS name FROM {table} s WHERE {where} AND s.user_id = ?",
            (scope_id, game_key, viewer_id),
        )
        if mine is not None:
            key = mine[_SORT_KEY_COLUMN[sort]]
            ahead_count = await db.fetchone(
                f"SELECT COUNT(*) FROM {table} s WHERE {where} AND {ahead}",
                (scope_id, game_key, key, key, viewer_id),
            )
            viewer_row = _board_row(int(ahead_count[0]) + 1 if ahead_count else 1, mine)
    return LeaderboardPage(
        rows=board, total=total, viewer_row=viewer_row, page=page, page_size=page_size
    )


async def player_stats(
    db: Database, scope_id: int, user_id: int, game_key: str | None = None
) -> list[StatLine]:
    """A member's stat lines in one scope (guild id, GLOBAL_SCOPE or EVERYWHERE), busiest
    game first."""
    sql = f"SELECT {_STAT_COLUMNS} FROM player_stats WHERE scope = ? AND user_id = ?"
    params: list[Any] = [scope_id, user_id]
    if game_key is not None:
        sql += " AND game_key = ?"
        params.append(game_key)
    rows = await db.fetchall(sql + " ORDER BY games DESC, game_key", params)
    return [_line(row) for row in rows]


async def rating_points(
    db: Database, scope_id: int, game_key: str, user_id: int, limit: int = 50
) -> list[tuple[int, float]]:
    """(game number, display rating) after each of the member's last ``limit`` rated games;
    game numbers count the member's rated games from 1."""
    total = await db.fetchone(
        "SELECT COUNT(*) FROM rating_history WHERE scope = ? AND game_key = ? AND user_id = ?",
        (scope_id, game_key, user_id),
    )
    count = int(total[0]) if total else 0
    rows = await db.fetchall(
        "SELECT ordinal FROM rating_history WHERE scope = ? AND game_key = ? AND user_id = ?"
        " ORDER BY at DESC, game_id DESC LIMIT ?",
        (scope_id, game_key, user_id, limit),
    )
    values = [float(display_rating(row[0])) for row in reversed(rows)]
    first = count - len(values) + 1
    return [(first + i, value) for i, value in enumerate(values)]


async def remember_member(
    db: Database, guild_id: int, user_id: int, display_name: str, *, now: float
) -> None:
    """Keep the member's display name, so boards can name members who have left."""
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO members (guild_id, user_id, display_name, updated_at)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET"
            " display_name = excluded.display_name, updated_at = excluded.updated_at"
            " WHERE members.display_name <> excluded.display_name",
            (guild_id, user_id, display_name[:100], now),
        )


async def game_keys(db: Database, scope_id: int) -> list[str]:
    """Game keys with at least one stat line in the scope (for command autocomplete)."""
    rows = await db.fetchall(
        "SELECT DISTINCT game_key FROM player_stats WHERE scope = ? ORDER BY game_key",
        (scope_id,),
    )
    return [row[0] for row in rows]


async def season_game_keys(db: Database, season_id: int) -> list[str]:
    """Game keys with at least one stat line in the season."""
    rows = await db.fetchall(
        "SELECT DISTINCT game_key FROM season_stats WHERE season_id = ? ORDER BY game_key",
        (season_id,),
    )
    return [row[0] for row in rows]
