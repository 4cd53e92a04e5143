"""Forgetting a member (``python -m bot forget USER_ID``): their id and names become a tombstone (a
negative id, "Deleted member") in one transaction; rows stay, so results and the ledger still add
up."""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass
from typing import Any

from bot.errors import UserError
from bot.store.db import Connection, Database

DELETED = "Deleted member"

# Every column that holds a member's id, by table. tests/reliability/test_operator.py checks
# the schema against this list, so a migration adding such a column cannot be forgotten here.
ID_COLUMNS: dict[str, tuple[str, ...]] = {
    "guild_settings": ("updated_by",),
    "members": ("user_id",),
    "games": ("host_id",),
    "game_log": ("actor_id",),
    "game_results": ("user_id",),
    "wallets": ("user_id",),
    "ledger": ("user_id", "actor_id"),
    "escrows": ("user_id",),
    "player_stats": ("user_id",),
    "rating_history": ("user_id",),
    "notify_choices": ("user_id",),
    "seasons": ("started_by",),
    "season_stats": ("user_id",),
    "tournaments": ("created_by",),
    "tournament_entries": ("user_id",),
    "tournament_matches": ("a_id", "b_id", "winner_id"),
    "tournament_fees": ("user_id",),
    "tournament_log": ("actor_id",),
    "web_players": ("user_id",),
    "quick_queue": ("user_id",),
    "quick_blocks": ("user_id", "blocked_id"),
    "quick_no_shows": ("user_id",),
    "quick_timeouts": ("user_id",),
    "quick_match_seats": ("user_id",),
    "quick_guilds": ("updated_by",),
    "table_reports": ("user_id",),
}
# Append-only guards that would refuse the id change; re-created unchanged afterwards.
GUARD_TRIGGERS = ("ledger_no_update", "escrows_settle_once", "tournament_fees_settle_once")

_UPDATES = {
    (table, column): f"UPDATE {table} SET {column} = ? WHERE {column} = ?"  # names from above
    for table, columns in ID_COLUMNS.items()
    for column in columns
}


@dataclass(frozen=True)
class ForgetReport:
    tombstone: int
    rows: int
    names: tuple[str, ...]


def _scrub(value: Any, user_id: int, tombstone: int, names: Names) -> Any:
    """The JSON value with the member's seats renamed and ids replaced, and their names in
    its text (see ``_rename``)."""
    if isinstance(value, dict):
        out = {k: _scrub(v, user_id, tombstone, names) for k, v in value.items()}
        if value.get("user_id") == user_id:
            out["user_id"] = tombstone
            if "name" in out:
                out["name"] = DELETED
        return out
    if isinstance(value, list):
        return [_scrub(v, user_id, tombstone, names) for v in value]
    if isinstance(value, str):
        value = _rename(value, names)
        return value.replace(f"<@{user_id}>", DELETED).replace(str(user_id), str(tombstone))
    if value == user_id and isinstance(value, int) and not isinstance(value, bool):
        return tombstone
    return value


@dataclass(frozen=True)
class Names:
    """The member's names and everyone else's in one place (a game, a server), each known by
    the id it belongs to. In text only the member's are replaced, and never inside a longer
    name of someone else ("Ann" in "Ann Lee"), nor a name someone else has too."""

    mine: frozenset[str]
    others: frozenset[str]

    @classmethod
    def of(cls, mine: set[str], others: set[str]) -> Names:
        # One or two letters ("Bo", "I") are left alone: too likely a word of the text.
        return cls(frozenset(n for n in mine if len(n) >= 3 and n != DELETED), frozenset(others))


def _rename(text: str, names: Names) -> str:
    if not names.mine:
        return text
    everyone = sorted(names.mine | names.others, key=len, reverse=True)  # longest name wins
    pattern = "|".join(re.escape(name) for name in everyone if name)
    return re.sub(
        rf"(?<!\w)(?:{pattern})(?!\w)",
        lambda m: DELETED if m[0] in names.mine and m[0] not in names.others else m[0],
        text,
    )


async def _strings(conn: Connection, sql: str, args: tuple[Any, ...]) -> set[str]:
    return {str(r[0]) for r in await conn.fetchall(sql, args) if r[0] is not None}


async def _names(conn: Connection, user_id: int) -> set[str]:
    """Every name the member went by: in a server, and at the end of a game."""
    return await _strings(
        conn,
        "SELECT display_name FROM members WHERE user_id = ?"
        " UNION SELECT name FROM game_results WHERE user_id = ?",
        (user_id, user_id),
    )


async def _game_names(conn: Connection, game_id: int, state: dict[str, Any], user_id: int) -> Names:
    """Who was who in one game, by id: its seats, its results, the names logged at joins."""
    mine: set[str] = set()
    others: set[str] = set()
    for seat in state.get("seats", []):
        (mine if seat.get("user_id") == user_id else others).add(str(seat.get("name", "")))
    for row in await conn.fetchall(
        "SELECT user_id, name FROM game_results WHERE game_id = ?", (game_id,)
    ):
        (mine if row[0] == user_id else others).add(str(row[1]))
    name = conn.dialect.json_text("detail_json", "name")
    for row in await conn.fetchall(
        f"SELECT actor_id, {name} FROM game_log WHERE game_id = ? AND kind = 'join'", (game_id,)
    ):
        if row[1] is not None:
            (mine if row[0] == user_id else others).add(str(row[1]))
    return Names.of(mine, others - {""})


async def forget_member(db: Database, user_id: int) -> ForgetReport:
    if user_id <= 0:
        raise UserError("A Discord user id is a positive number.")
    async with db.transaction() as conn:
        live = [
            row["id"]
            for row in await conn.fetchall(
                "SELECT id, state_json FROM games WHERE status IN ('lobby', 'running')"
            )
            if any(s.get("user_id") == user_id for s in json.loads(row[1]).get("seats", []))
        ]
        if live:
            ids = ", ".join(f"#{g}" for g in live)
            raise UserError(f"Member {user_id} is seated in live games ({ids}); end them first.")
        names = await _names(conn, user_id)
        tombstone = -(secrets.randbits(52) + 1)
        # Games first, while seats, results and the log still say which name was whose.
        rows = await _scrub_json(conn, user_id, tombstone)
        async with conn.lift_guards(GUARD_TRIGGERS):
            rows += await _forget_ids(conn, user_id, tombstone, names)
    return ForgetReport(tombstone, rows, tuple(sorted(Names.of(names, set()).mine)))


async def _forget_ids(conn: Connection, user_id: int, tombstone: int, names: set[str]) -> int:
    """Every id column, name and ledger reason of the member's, with the guards lifted."""
    rows = 0
    for sql in _UPDATES.values():
        cursor = await conn.execute(sql, (tombstone, user_id))
        rows += max(cursor.rowcount, 0)
    await conn.execute(
        "UPDATE members SET display_name = ? WHERE user_id = ?", (DELETED, tombstone)
    )
    await conn.execute("UPDATE game_results SET name = ? WHERE user_id = ?", (DELETED, tombstone))
    await conn.execute(
        "UPDATE tournament_entries SET name = ? WHERE user_id = ?", (DELETED, tombstone)
    )
    # Reasons on the member's own ledger rows; a row of someone else's that the member
    # only caused (a payment to them, a grant they made) keeps its text.
    reasons = [
        (r[0], r[1])
        for r in await conn.fetchall(
            "SELECT id, reason FROM ledger WHERE reason IS NOT NULL AND user_id = ?", (tombstone,)
        )
    ]
    if reasons:
        others = await _strings(
            conn,
            "SELECT display_name FROM members WHERE user_id <> ?"
            " UNION SELECT name FROM game_results WHERE user_id IS DISTINCT FROM ?",
            (tombstone, tombstone),
        )
        known = Names.of(names, others)
        for ledger_id, reason in reasons:
            cleaned = _scrub(reason, user_id, tombstone, known)
            if cleaned != reason:
                await conn.execute(
                    "UPDATE ledger SET reason = ? WHERE id = ?", (cleaned, ledger_id)
                )
                rows += 1
    return rows


async def _scrub_json(conn: Connection, user_id: int, tombstone: int) -> int:
    """Seats, events and log details of the games the member took part in (seated, hosted,
    acted, or had a result): other games are left alone. Inside a game, names are told
    apart by the ids of the seats, results and joins that carry them."""
    mentions = conn.dialect.contains("state_json", "?")
    game_ids = [
        int(r[0])
        for r in await conn.fetchall(
            f"SELECT id FROM games WHERE host_id = ? OR {mentions}"
            " UNION SELECT game_id FROM game_log WHERE actor_id = ?"
            " UNION SELECT game_id FROM game_results WHERE user_id = ?",
            (user_id, str(user_id), user_id, user_id),
        )
    ]
    changed = 0
    for game_id in game_ids:
        found = await conn.fetchone("SELECT state_json FROM games WHERE id = ?", (game_id,))
        state = json.loads(found[0]) if found else {}
        names = await _game_names(conn, game_id, state, user_id)

        def scrubbed(value: Any, names: Names = names) -> str | None:
            """The value's JSON with the member scrubbed, or None if nothing changed."""
            text = json.dumps(_scrub(value, user_id, tombstone, names))
            return None if text == json.dumps(value) else text

        if found is not None and (text := scrubbed(state)) is not None:
            # The revision moves, as for every write of the row: a change made on a copy
            # read before (another process's, or one a process keeps) is refused, read again.
            await conn.execute(
                "UPDATE games SET state_json = ?, revision = revision + 1 WHERE id = ?",
                (text, game_id),
            )
            changed += 1
        for seq, detail in await conn.fetchall(
            "SELECT seq, detail_json FROM game_log WHERE game_id = ?", (game_id,)
        ):
            if (text := scrubbed(json.loads(detail))) is not None:
                await conn.execute(
                    "UPDATE game_log SET detail_json = ? WHERE game_id = ? AND seq = ?",
                    (text, game_id, seq),
                )
                changed += 1
    return changed
