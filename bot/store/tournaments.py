"""Tournaments, their entries and matches: the SQL side of ``bot.tables.tournaments``."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

from bot.store.db import Connection, Database

Format = Literal["swiss", "elimination", "round_robin"]
FORMATS: tuple[Format, ...] = ("swiss", "elimination", "round_robin")
Status = Literal["signup", "running", "finished", "cancelled"]


@dataclass(frozen=True, slots=True)
class Tournament:
    id: int
    guild_id: int
    channel_id: int
    kind: str
    settings: dict[str, Any]
    game_key: str
    format: Format
    rounds: int
    round: int
    status: Status
    fee: int
    prize: str
    best_of: int
    final_best_of: int
    created_by: int
    created_at: float
    started_at: float | None
    finished_at: float | None
    message_id: int | None = None
    starts_at: float | None = None  # it starts by itself then (None: the organiser starts it)
    checkin_at: float | None = None  # check-in opens then (None: no check-in)
    seats: int = 2  # players a table

    def checkin_open(self, now: float) -> bool:
        return self.status == "signup" and self.checkin_at is not None and now >= self.checkin_at


@dataclass(frozen=True, slots=True)
class Entry:
    user_id: int
    name: str
    rating: float | None
    seed: int | None
    removed: bool = False
    checked_in: bool = False


@dataclass(frozen=True, slots=True)
class Match:
    id: int
    tournament_id: int
    round: int
    slot: int
    a_id: int
    b_id: int | None
    status: Literal["pending", "opening", "playing", "done"]
    game_id: int | None
    winner_id: int | None
    a_wins: int = 0
    b_wins: int = 0
    games: int = 0
    players: tuple[int, ...] = ()  # everyone at the table, in seat order (a bye: just a)
    places: tuple[tuple[int, int], ...] | None = None  # a table of 3+ once done

    @property
    def seated(self) -> tuple[int, ...]:
        return self.players or ((self.a_id,) if self.b_id is None else (self.a_id, self.b_id))


_T_COLUMNS = (
    "id, guild_id, channel_id, kind, settings_json, game_key, format, rounds, round, status,"
    " fee, prize, best_of, final_best_of, created_by, created_at, started_at, finished_at,"
    " message_id, starts_at, checkin_at, seats"
)
_M_COLUMNS = (
    "id, tournament_id, round, slot, a_id, b_id, status, game_id, winner_id, a_wins, b_wins,"
    " games, players_json, places_json"
)
_M_COLUMNS_OF_M = ", ".join("m." + column for column in _M_COLUMNS.split(", "))


def _tournament(row: Any) -> Tournament:
    return Tournament(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        kind=row["kind"],
        settings=json.loads(row["settings_json"]),
        game_key=row["game_key"],
        format=row["format"],
        rounds=int(row["rounds"]),
        round=int(row["round"]),
        status=row["status"],
        fee=int(row["fee"]),
        prize=row["prize"],
        best_of=int(row["best_of"]),
        final_best_of=int(row["final_best_of"]),
        created_by=int(row["created_by"]),
        created_at=float(row["created_at"]),
        started_at=row["started_at"],
        finished_at=row["finished_at"],
        message_id=None if row["message_id"] is None else int(row["message_id"]),
        starts_at=row["starts_at"],
        checkin_at=row["checkin_at"],
        seats=int(row["seats"]),
    )


def _match(row: Any) -> Match:
    return Match(
        id=int(row["id"]),
        tournament_id=int(row["tournament_id"]),
        round=int(row["round"]),
        slot=int(row["slot"]),
        a_id=int(row["a_id"]),
        b_id=None if row["b_id"] is None else int(row["b_id"]),
        status=row["status"],
        game_id=None if row["game_id"] is None else int(row["game_id"]),
        winner_id=None if row["winner_id"] is None else int(row["winner_id"]),
        a_wins=int(row["a_wins"]),
        b_wins=int(row["b_wins"]),
        games=int(row["games"]),
        players=tuple(json.loads(row["players_json"])) if row["players_json"] else (),
        places=(
            tuple((int(u), int(p)) for u, p in json.loads(row["places_json"]))
            if row["places_json"]
            else None
        ),
    )


async def create(
    db: Database,
    *,
    guild_id: int,
    channel_id: int,
    kind: str,
    settings: dict[str, Any],
    game_key: str,
    format: Format,
    rounds: int,
    fee: int = 0,
    prize: str = "winner",
    best_of: int = 1,
    final_best_of: int = 1,
    actor_id: int,
    now: float,
    starts_at: float | None = None,
    checkin_at: float | None = None,
    seats: int = 2,
) -> Tournament:
    async with db.transaction() as conn:
        cursor = await conn.execute(
            "INSERT INTO tournaments (guild_id, channel_id, kind, settings_json, game_key,"
            " format, rounds, round, status, fee, prize, best_of, final_best_of, created_by,"
            " created_at, starts_at, checkin_at, seats) VALUES (?, ?, ?, ?, ?, ?, ?, 0, 'signup',"
            f" ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING {_T_COLUMNS}",
            (
                guild_id, channel_id, kind, json.dumps(settings, sort_keys=True), game_key,
                format, rounds, fee, prize, best_of, final_best_of, actor_id, now,
                starts_at, checkin_at, seats,
            ),
        )  # fmt: skip
        row = await cursor.fetchone()
        assert row is not None
        return _tournament(row)


async def get(db: Database | Connection, tournament_id: int) -> Tournament | None:
    row = await db.fetchone(f"SELECT {_T_COLUMNS} FROM tournaments WHERE id = ?", (tournament_id,))
    return None if row is None else _tournament(row)


async def listed(db: Database, guild_id: int, limit: int = 25) -> list[Tournament]:
    """The server's tournaments, newest first."""
    rows = await db.fetchall(
        f"SELECT {_T_COLUMNS} FROM tournaments WHERE guild_id = ? ORDER BY id DESC LIMIT ?",
        (guild_id, limit),
    )
    return [_tournament(row) for row in rows]


async def entries(db: Database | Connection, tournament_id: int) -> list[Entry]:
    rows = await db.fetchall(
        "SELECT user_id, name, rating, seed, removed_at, checked_in_at FROM tournament_entries"
        " WHERE tournament_id = ? ORDER BY seed IS NULL, seed, joined_at, user_id",
        (tournament_id,),
    )
    return [
        Entry(
            int(r["user_id"]),
            r["name"],
            r["rating"],
            r["seed"],
            r["removed_at"] is not None,
            r["checked_in_at"] is not None,
        )
        for r in rows
    ]


async def add_entry(
    conn: Connection, tournament_id: int, user_id: int, name: str, now: float, cap: int
) -> bool:
    """Sign a member up while sign-up is open and the field has room (call it under
    ``lock``); False if it was not open, was full, or they were in already."""
    t = await get(conn, tournament_id)
    if t is None or t.status != "signup":
        return False
    count = await conn.fetchone(
        "SELECT COUNT(*) FROM tournament_entries WHERE tournament_id = ?", (tournament_id,)
    )
    if count is not None and int(count[0]) >= cap:
        return False
    # Joining once check-in is open checks in too: whoever presses Join then is here.
    checked_in = now if t.checkin_open(now) else None
    cursor = await conn.execute(
        "INSERT INTO tournament_entries (tournament_id, user_id, name, joined_at, checked_in_at)"
        " VALUES (?, ?, ?, ?, ?) ON CONFLICT (tournament_id, user_id) DO NOTHING",
        (tournament_id, user_id, name[:100], now, checked_in),
    )
    return cursor.rowcount == 1


async def check_in(conn: Connection, tournament_id: int, user_id: int, now: float) -> bool:
    """A signed-up member checks in (under ``lock``, while check-in is open); False if they
    are not signed up or had checked in already."""
    cursor = await conn.execute(
        "UPDATE tournament_entries SET checked_in_at = ?"
        " WHERE tournament_id = ? AND user_id = ? AND checked_in_at IS NULL",
        (now, tournament_id, user_id),
    )
    return cursor.rowcount == 1


async def drop_unchecked(conn: Connection, tournament_id: int) -> list[tuple[int, str]]:
    """At the start of a tournament with check-in: the entries of those who did not check
    in are taken off (their fees are refunded by the caller); their ids and names."""
    cursor = await conn.execute(
        "DELETE FROM tournament_entries WHERE tournament_id = ? AND checked_in_at IS NULL"
        " RETURNING user_id, name",
        (tournament_id,),
    )
    return sorted((int(row[0]), str(row[1])) for row in await cursor.fetchall())


async def due_starts(db: Database, now: float) -> list[Tournament]:
    """Tournaments in sign-up whose start time has come."""
    rows = await db.fetchall(
        f"SELECT {_T_COLUMNS} FROM tournaments WHERE status = 'signup' AND starts_at <= ?"
        " ORDER BY id",
        (now,),
    )
    return [_tournament(row) for row in rows]


async def claim_checkin_shown(db: Database, now: float) -> list[Tournament]:
    """Tournaments in sign-up whose check-in has just opened, claimed (compare-and-set) so
    one process redraws each sign-up message with its Check in button, once."""
    async with db.transaction() as conn:
        cursor = await conn.execute(
            "UPDATE tournaments SET checkin_shown = 1 WHERE status = 'signup'"
            f" AND checkin_at <= ? AND checkin_shown = 0 RETURNING {_T_COLUMNS}",
            (now,),
        )
        return sorted((_tournament(row) for row in await cursor.fetchall()), key=lambda t: t.id)


async def remove_entry(conn: Connection, tournament_id: int, user_id: int) -> bool:
    """Take a member off the list while sign-up is open (under ``lock``)."""
    t = await get(conn, tournament_id)
    if t is None or t.status != "signup":
        return False
    cursor = await conn.execute(
        "DELETE FROM tournament_entries WHERE tournament_id = ? AND user_id = ?",
        (tournament_id, user_id),
    )
    return cursor.rowcount == 1


# --- entry fees (the chips move through bot.store.wallets, in the same transaction) -------


async def hold_fee(
    conn: Connection, tournament_id: int, guild_id: int, user_id: int, amount: int, now: float
) -> None:
    await conn.execute(
        "INSERT INTO tournament_fees (tournament_id, guild_id, user_id, amount, created_at)"
        " VALUES (?, ?, ?, ?, ?)",
        (tournament_id, guild_id, user_id, amount, now),
    )


async def release_fees(
    conn: Connection, tournament_id: int, now: float, user_id: int | None = None
) -> list[tuple[int, int, int]]:
    """Mark held fees (one member's, or all) refunded; their (guild, user, amount)."""
    sql = (
        "UPDATE tournament_fees SET status = 'refunded', settled_at = ?"
        " WHERE tournament_id = ? AND status = 'held'"
    )
    params: tuple[Any, ...] = (now, tournament_id)
    if user_id is not None:
        sql += " AND user_id = ?"
        params = (*params, user_id)
    cursor = await conn.execute(sql + " RETURNING guild_id, user_id, amount", params)
    return [(int(g), int(u), int(a)) for g, u, a in await cursor.fetchall()]


async def collect_fees(conn: Connection, tournament_id: int, now: float) -> list[tuple[int, int]]:
    """Mark every held fee paid into the prizes; their (guild, amount) rows (empty once
    paid: a retry pays nothing)."""
    cursor = await conn.execute(
        "UPDATE tournament_fees SET status = 'paid', settled_at = ?"
        " WHERE tournament_id = ? AND status = 'held' RETURNING guild_id, amount",
        (now, tournament_id),
    )
    return [(int(g), int(a)) for g, a in await cursor.fetchall()]


async def seed_ratings(
    conn: Connection, guild_id: int, game_key: str, users: list[int]
) -> dict[int, float]:
    """The members' server ratings (ordinal) of the game; a newcomer has none."""
    if not users:
        return {}
    marks = ", ".join("?" * len(users))
    cursor = await conn.execute(
        f"SELECT user_id, ordinal FROM player_stats WHERE scope = ? AND game_key = ?"
        f" AND rated_games > 0 AND user_id IN ({marks})",
        (guild_id, game_key, *users),
    )
    return {int(row[0]): float(row[1]) for row in await cursor.fetchall()}


async def set_seeds(conn: Connection, tournament_id: int, seeds: list[tuple[int, float]]) -> None:
    """(user, rating) in seed order."""
    for seed, (user, rating) in enumerate(seeds, 1):
        await conn.execute(
            "UPDATE tournament_entries SET seed = ?, rating = ?"
            " WHERE tournament_id = ? AND user_id = ?",
            (seed, rating, tournament_id, user),
        )


async def move_to_round(
    conn: Connection,
    tournament_id: int,
    from_round: int,
    *,
    status: Status,
    rounds: int | None = None,
    now: float,
) -> bool:
    """Compare-and-set: the tournament moves from ``from_round`` to the next (or to
    ``status``) only if it is still at ``from_round``; False if another did it first."""
    if status == "running":
        cursor = await conn.execute(
            "UPDATE tournaments SET round = round + 1, status = 'running',"
            " rounds = COALESCE(?, rounds), started_at = COALESCE(started_at, ?)"
            " WHERE id = ? AND round = ? AND status IN ('signup', 'running')",
            (rounds, now, tournament_id, from_round),
        )
    else:
        cursor = await conn.execute(
            "UPDATE tournaments SET status = ?, finished_at = ?"
            " WHERE id = ? AND round = ? AND status IN ('signup', 'running')",
            (status, now, tournament_id, from_round),
        )
    return cursor.rowcount == 1


async def insert_matches(
    conn: Connection,
    tournament_id: int,
    round_number: int,
    pairs: list[tuple[int, int | None]],
    now: float,
    removed: frozenset[int] = frozenset(),
) -> None:
    """A round's matches; a bye is done at once, won by its player, and so is a match of a
    removed player, won by the other (neither, if both were removed)."""
    for slot, (a, b) in enumerate(pairs):
        done = b is None or a in removed or b in removed
        winner = a if b is None else next((p for p in (a, b) if p not in removed), None)
        await conn.execute(
            "INSERT INTO tournament_matches (tournament_id, round, slot, a_id, b_id, status,"
            " winner_id, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                tournament_id, round_number, slot, a, b, "done" if done else "pending",
                winner if done else None, now if done else None,
            ),
        )  # fmt: skip


async def insert_tables(
    conn: Connection,
    tournament_id: int,
    round_number: int,
    tables: list[tuple[int, ...]],
    removed: frozenset[int] = frozenset(),
    now: float = 0.0,
) -> None:
    """A round at tables of three or more: each a pending match of its players (a_id and
    b_id its first two). A table whose players were all removed but one is not paired
    (Swiss pairs only those still in)."""
    for slot, players in enumerate(tables):
        await conn.execute(
            "INSERT INTO tournament_matches (tournament_id, round, slot, a_id, b_id, status,"
            " players_json) VALUES (?, ?, ?, ?, ?, 'pending', ?)",
            (tournament_id, round_number, slot, players[0], players[1], json.dumps(players)),
        )


async def finish_table(
    conn: Connection,
    match_id: int,
    places: list[tuple[int, int]],
    now: float,
    *,
    only_playing: bool = True,
) -> bool:
    """Compare-and-set: a table of three or more is done once, with its places (the
    winner, if one place 1 is alone, as winner_id)."""
    firsts = [u for u, p in places if p == 1]
    winner = firsts[0] if len(firsts) == 1 else None
    cursor = await conn.execute(
        "UPDATE tournament_matches SET status = 'done', winner_id = ?, finished_at = ?,"
        " places_json = ?, games = games + 1 WHERE id = ?"
        + (" AND status = 'playing'" if only_playing else " AND status <> 'done'"),
        (winner, now, json.dumps([list(p) for p in places]), match_id),
    )
    return cursor.rowcount == 1


async def matches(db: Database | Connection, tournament_id: int) -> list[Match]:
    rows = await db.fetchall(
        f"SELECT {_M_COLUMNS} FROM tournament_matches WHERE tournament_id = ? ORDER BY round, slot",
        (tournament_id,),
    )
    return [_match(row) for row in rows]


async def match_of_game(conn: Connection, game_id: int) -> Match | None:
    cursor = await conn.execute(
        f"SELECT {_M_COLUMNS} FROM tournament_matches WHERE game_id = ?", (game_id,)
    )
    row = await cursor.fetchone()
    return None if row is None else _match(row)


async def finish_match(conn: Connection, match_id: int, winner_id: int | None, now: float) -> bool:
    """Compare-and-set: a playing match is done once."""
    cursor = await conn.execute(
        "UPDATE tournament_matches SET status = 'done', winner_id = ?, finished_at = ?"
        " WHERE id = ? AND status = 'playing'",
        (winner_id, now, match_id),
    )
    return cursor.rowcount == 1


async def count_game(conn: Connection, match_id: int, a_won: bool | None) -> Match | None:
    """One game of a playing match is over (``a_won`` None: a draw or no result): counted
    once, as the match's game count moves by a compare-and-set on its status."""
    cursor = await conn.execute(
        "UPDATE tournament_matches SET games = games + 1,"
        " a_wins = a_wins + ?, b_wins = b_wins + ?"
        f" WHERE id = ? AND status = 'playing' RETURNING {_M_COLUMNS}",
        (int(a_won is True), int(a_won is False), match_id),
    )
    row = await cursor.fetchone()
    return None if row is None else _match(row)


async def play_again(conn: Connection, match_id: int) -> None:
    """The match goes on with another game: its table is opened afresh."""
    await conn.execute(
        "UPDATE tournament_matches SET status = 'pending', claimed_at = NULL"
        " WHERE id = ? AND status = 'playing'",
        (match_id,),
    )


async def claim_match(db: Database, match_id: int, now: float, grace: float) -> bool:
    """Compare-and-set: one process opens a pending match's table. A claim older than
    ``grace`` whose table was never linked (its process died) may be taken over."""
    async with db.transaction() as conn:
        cursor = await conn.execute(
            "UPDATE tournament_matches SET status = 'opening', claimed_at = ?"
            " WHERE id = ? AND (status = 'pending'"
            " OR (status = 'opening' AND game_id IS NULL AND claimed_at < ?))",
            (now, match_id, now - grace),
        )
        return cursor.rowcount == 1


async def set_match_game(db: Database, match_id: int, game_id: int) -> None:
    async with db.transaction() as conn:
        cursor = await conn.execute(
            "UPDATE tournament_matches SET status = 'playing', game_id = ?"
            " WHERE id = ? AND status = 'opening'",
            (game_id, match_id),
        )
        if cursor.rowcount == 1:  # each of its games' tables stays the match's
            await conn.execute(
                "INSERT INTO tournament_match_games (game_id, match_id) VALUES (?, ?)"
                " ON CONFLICT (game_id) DO NOTHING",
                (game_id, match_id),
            )


async def pending_matches(
    db: Database, now: float, grace: float, tournament_id: int | None = None
) -> list[Match]:
    """Matches whose table is to be opened: pending, or claimed ``grace`` ago by a process
    that never linked a table."""
    sql = (
        f"SELECT {_M_COLUMNS} FROM tournament_matches WHERE (status = 'pending'"
        " OR (status = 'opening' AND game_id IS NULL AND claimed_at < ?))"
    )
    params: tuple[Any, ...] = (now - grace,)
    if tournament_id is not None:
        sql += " AND tournament_id = ?"
        params = (*params, tournament_id)
    rows = await db.fetchall(sql + " ORDER BY tournament_id, round, slot", params)
    return [_match(row) for row in rows]


async def unstarted_matches(db: Database, now: float, grace: float) -> list[Match]:
    """Playing matches whose table is still a lobby ``grace`` after the claim (its process
    died between linking the table and starting it)."""
    rows = await db.fetchall(
        f"SELECT {_M_COLUMNS_OF_M}"
        " FROM tournament_matches m JOIN games g ON g.id = m.game_id"
        " WHERE m.status = 'playing' AND g.status = 'lobby' AND m.claimed_at < ?"
        " ORDER BY m.id",
        (now - grace,),
    )
    return [_match(row) for row in rows]


async def live_match_games(conn: Connection, tournament_id: int) -> list[int]:
    cursor = await conn.execute(
        "SELECT game_id FROM tournament_matches WHERE tournament_id = ? AND status = 'playing'",
        (tournament_id,),
    )
    return [int(row[0]) for row in await cursor.fetchall()]


async def lock(conn: Connection, tournament_id: int) -> None:
    """From here to COMMIT, no other transaction changes this tournament's rounds: two
    processes that see a round's last two matches end one after the other, so the second
    sees the first's result (and the round advances once)."""
    await conn.serialize_on(f"tournament:{tournament_id}")


async def due_posts(db: Database) -> list[Tournament]:
    """Tournaments whose current round (or final standings) has not been posted yet."""
    rows = await db.fetchall(
        f"SELECT {_T_COLUMNS} FROM tournaments WHERE (status = 'running' AND posted_round < round)"
        " OR (status = 'finished' AND posted_round <= round) ORDER BY id"
    )
    return [_tournament(row) for row in rows]


async def claim_post(db: Database, tournament_id: int, value: int) -> bool:
    """Compare-and-set: one process posts a round's standings."""
    async with db.transaction() as conn:
        cursor = await conn.execute(
            "UPDATE tournaments SET posted_round = ? WHERE id = ? AND posted_round < ?",
            (value, tournament_id, value),
        )
        return cursor.rowcount == 1


async def mark_unshown(conn: Connection, tournament_id: int) -> None:
    """The live message is behind though no match or game was added (a finished result
    changed): the next ``claim_redraws`` redraws it."""
    await conn.execute("UPDATE tournaments SET shown_done = 0 WHERE id = ?", (tournament_id,))


async def claim_redraws(db: Database) -> list[Tournament]:
    """Started tournaments with a sign-up message showing less progress (done matches and
    games played) than there is: claimed (compare-and-set on the count), so one process
    redraws each, once per change."""
    async with db.transaction() as conn:
        cursor = await conn.execute(
            # Progress: each done match and each game of a best of 3 played (both only
            # grow), so the live message follows every game (a best of 3's score).
            "UPDATE tournaments SET shown_done ="
            " (SELECT COALESCE(SUM(m.games), 0) + COALESCE(SUM(CASE WHEN m.status = 'done'"
            " THEN 1 ELSE 0 END), 0) FROM tournament_matches m"
            " WHERE m.tournament_id = tournaments.id)"
            # Finished ones only until their final standings are posted (``post_due``
            # redraws first): the scan stays on the few tournaments still going.
            " WHERE message_id IS NOT NULL AND (status = 'running'"
            " OR (status = 'finished' AND posted_round <= round))"
            " AND shown_done < (SELECT COALESCE(SUM(m.games), 0) + COALESCE(SUM(CASE"
            " WHEN m.status = 'done' THEN 1 ELSE 0 END), 0) FROM tournament_matches m"
            " WHERE m.tournament_id = tournaments.id)"
            f" RETURNING {_T_COLUMNS}"
        )
        return sorted((_tournament(row) for row in await cursor.fetchall()), key=lambda t: t.id)


async def set_message(db: Database, tournament_id: int, message_id: int) -> None:
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE tournaments SET message_id = ? WHERE id = ?", (message_id, tournament_id)
        )


async def remove_player(conn: Connection, tournament_id: int, user_id: int, now: float) -> bool:
    cursor = await conn.execute(
        "UPDATE tournament_entries SET removed_at = ?"
        " WHERE tournament_id = ? AND user_id = ? AND removed_at IS NULL",
        (now, tournament_id, user_id),
    )
    return cursor.rowcount == 1


async def forfeit_open_matches(
    conn: Connection, tournament_id: int, user_id: int, now: float
) -> list[Match]:
    """The member's matches not yet over are done, won by the other side; returns them as
    they were (their tables, if any, are to be ended by the caller)."""
    cursor = await conn.execute(
        f"SELECT {_M_COLUMNS} FROM tournament_matches WHERE tournament_id = ? AND status <> 'done'",
        (tournament_id,),
    )
    # A table of three or more seats them anywhere in players_json, not only as a or b.
    found = [m for m in map(_match, await cursor.fetchall()) if user_id in m.seated]
    for match in found:
        if len(match.players) > 2:
            continue  # a table of three or more: its places are set by the caller
        other = match.b_id if match.a_id == user_id else match.a_id
        await conn.execute(
            "UPDATE tournament_matches SET status = 'done', winner_id = ?, finished_at = ?"
            " WHERE id = ? AND status <> 'done'",
            (other, now, match.id),
        )
    return found


async def set_result(conn: Connection, match_id: int, winner_id: int | None, now: float) -> None:
    await conn.execute(
        "UPDATE tournament_matches SET status = 'done', winner_id = ?, finished_at = ?"
        " WHERE id = ?",
        (winner_id, now, match_id),
    )


async def match_by_id(conn: Connection, match_id: int) -> Match | None:
    cursor = await conn.execute(
        f"SELECT {_M_COLUMNS} FROM tournament_matches WHERE id = ?", (match_id,)
    )
    row = await cursor.fetchone()
    return None if row is None else _match(row)


async def log(
    conn: Connection,
    tournament_id: int,
    actor_id: int,
    action: str,
    detail: dict[str, Any],
    now: float,
) -> None:
    await conn.execute(
        "INSERT INTO tournament_log (tournament_id, actor_id, action, detail_json, at)"
        " VALUES (?, ?, ?, ?, ?)",
        (tournament_id, actor_id, action, json.dumps(detail, sort_keys=True), now),
    )


async def log_entries(db: Database, tournament_id: int) -> list[tuple[int, str, dict[str, Any]]]:
    rows = await db.fetchall(
        "SELECT actor_id, action, detail_json FROM tournament_log WHERE tournament_id = ?"
        " ORDER BY id",
        (tournament_id,),
    )
    return [(int(r[0]), r[1], json.loads(r[2])) for r in rows]


async def match_for_game(db: Database, game_id: int) -> Match | None:
    """The match a table (any of its games' tables) belongs to."""
    row = await db.fetchone(
        f"SELECT {_M_COLUMNS} FROM tournament_matches WHERE game_id = ? OR id IN"
        " (SELECT match_id FROM tournament_match_games WHERE game_id = ?)",
        (game_id, game_id),
    )
    return None if row is None else _match(row)
