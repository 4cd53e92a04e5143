"""Helpers for store tests: games and results written the way the table layer writes them."""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.db import Connection, Database

GUILD = 111
OTHER_GUILD = 222
T0 = 1_780_000_000.0  # a fixed clock: 2026-05-28 20:26:40 UTC


@dataclass(frozen=True)
class S:
    """One seat of a finished game."""

    user_id: int | None
    place: int
    team: int | None = None
    best_turn: int = 0
    score: int = 0
    drawn: bool = False  # a draw: placed first with the others, not a winner

    @property
    def won(self) -> bool:
        return self.place == 1 and not self.drawn


async def create_game(
    conn: Connection,
    *,
    guild_id: int = GUILD,
    game_key: str = "sequences:standard",
    stake: int = 0,
    now: float = T0,
) -> int:
    cursor = await conn.execute(
        "INSERT INTO games (guild_id, channel_id, game_key, status, host_id, stake, state_json,"
        " created_at, updated_at) VALUES (?, 1, ?, 'lobby', 1, ?, '{}', ?, ?) RETURNING id",
        (guild_id, game_key, stake, now, now),
    )
    return int((await cursor.fetchone())[0])


async def new_game(db: Database, **kwargs: object) -> int:
    async with db.transaction() as conn:
        return await create_game(conn, **kwargs)  # type: ignore[arg-type]


async def write_results(conn: Connection, game_id: int, seats: list[S], *, now: float = T0) -> None:
    row = await (
        await conn.execute("SELECT guild_id, game_key FROM games WHERE id = ?", (game_id,))
    ).fetchone()
    assert row is not None
    guild_id, game_key = row
    await conn.execute(
        "UPDATE games SET status = 'finished', finished_at = ? WHERE id = ?", (now, game_id)
    )
    for i, s in enumerate(seats):
        await conn.execute(
            "INSERT INTO game_results (game_id, seat, guild_id, game_key, user_id, name, team,"
            " score, place, won, best_turn, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
            " ?, ?)",
            (
                game_id, i, guild_id, game_key, s.user_id, f"p{s.user_id}", s.team, s.score,
                s.place, int(s.won), s.best_turn, now,
            ),
        )  # fmt: skip
