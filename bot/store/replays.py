"""Finished games as a server's history (``/history``, ``/replay``'s autocomplete): who
played, who won, the pot and the length, read from ``games``, ``game_results``, ``escrows``
and ``game_log``. All the SQL of replays."""

from __future__ import annotations

from dataclasses import dataclass

from bot.store import jsontext
from bot.store.db import Database


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """One finished game as a history row."""

    id: int
    game_key: str
    finished_at: float
    players: list[str]  # by seat
    winners: list[str]
    pot: int
    moves: int  # logged steps
    # A game won because every other side left: each beaten seat that left, and how (the
    # result event's ``left``: (seat, "resigned" | "timed_out")).
    left: tuple[tuple[int, str], ...] = ()


def _filters(
    guild_id: int, user_id: int | None, game_key: str | None
) -> tuple[str, list[int | str]]:
    where = "g.guild_id = ? AND g.status = 'finished'"
    params: list[int | str] = [guild_id]
    if game_key is not None:
        where += " AND g.game_key = ?"
        params.append(game_key)
    if user_id is not None:
        where += (
            " AND EXISTS (SELECT 1 FROM game_results r WHERE r.game_id = g.id AND r.user_id = ?)"
        )
        params.append(user_id)
    return where, params


async def count_finished(
    db: Database, guild_id: int, user_id: int | None = None, game_key: str | None = None
) -> int:
    where, params = _filters(guild_id, user_id, game_key)
    row = await db.fetchone(f"SELECT COUNT(*) AS n FROM games g WHERE {where}", params)
    return 0 if row is None else int(row["n"])


async def recent_finished(
    db: Database,
    guild_id: int,
    *,
    user_id: int | None = None,
    game_key: str | None = None,
    limit: int = 10,
    offset: int = 0,
) -> list[FinishedGame]:
    """A server's finished games (of one member, of one game), newest first."""
    where, params = _filters(guild_id, user_id, game_key)
    steps = db.dialect.json_array_length("l.detail_json", "steps")
    events = db.dialect.json_text("g.state_json", "events")
    rows = await db.fetchall(
        "SELECT g.id, g.game_key, COALESCE(g.finished_at, g.updated_at) AS finished_at,"
        " (SELECT COALESCE(SUM(e.amount), 0) FROM escrows e"
        "   WHERE e.game_id = g.id AND e.status != 'refunded') AS pot,"
        f" (SELECT COALESCE(SUM({steps}), 0) FROM game_log l WHERE l.game_id = g.id) AS moves,"
        f" {events} AS events"
        f" FROM games g WHERE {where} ORDER BY g.id DESC LIMIT ? OFFSET ?",
        [*params, limit, offset],
    )
    ids = [r["id"] for r in rows]
    seats: dict[int, list[tuple[str, bool]]] = {i: [] for i in ids}
    if ids:
        marks = ", ".join("?" * len(ids))
        for r in await db.fetchall(
            f"SELECT game_id, name, won FROM game_results WHERE game_id IN ({marks})"
            " ORDER BY game_id, seat",
            ids,
        ):
            seats[r["game_id"]].append((r["name"], bool(r["won"])))
    return [
        FinishedGame(
            id=r["id"],
            game_key=r["game_key"],
            finished_at=float(r["finished_at"]),
            players=[name for name, _ in seats[r["id"]]],
            winners=[name for name, won in seats[r["id"]] if won],
            pot=int(r["pot"]),
            moves=int(r["moves"]),
            left=_left(r["events"]),
        )
        for r in rows
    ]


def _left(events: str | None) -> tuple[tuple[int, str], ...]:
    """Who left a game won by forfeit, from its stored events (the last ``won`` one)."""
    if not events:
        return ()
    won = [e for e in jsontext.loads(events) if isinstance(e, dict) and e.get("type") == "won"]
    if not won:
        return ()
    return tuple((int(seat), str(how)) for seat, how in won[-1].get("left", ()))
