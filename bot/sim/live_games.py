"""Many games in the database at once, fast, for the bench: copies of one real table's row in one
transaction (a second, where playing 10,000 lobbies takes over a minute), each a game the bot can
load and play."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import replace

from bot.store import games
from bot.store.db import Database
from bot.store.games import GameRow

# (copy number) -> (channel id, thread id or None): where copy ``i`` is played.
Place = Callable[[int], tuple[int, int | None]]
# (copy number, game id) -> the id of the message that shows it, or None.
Show = Callable[[int, int], int | None]


async def insert_live_copies(
    db: Database,
    template: GameRow,
    count: int,
    *,
    place: Place,
    deadline: Callable[[int], float | None],
    show: Show | None = None,
) -> list[int]:
    """``count`` copies of ``template`` (state, status, seats, version), each in the place
    ``place(i)`` with its own deadline; ``show(i, game_id)`` may name the message that shows
    copy ``i`` (created by the caller once its id is known). Returns the new ids."""
    ids: list[int] = []
    shown: list[tuple[int, int]] = []
    async with db.transaction() as conn:
        for i in range(count):
            channel_id, thread_id = place(i)
            row = replace(
                template,
                id=0,
                channel_id=channel_id,
                thread_id=thread_id,
                lobby_message_id=None,
                message_id=None,
                state=copy.deepcopy(template.state),
                deadline=deadline(i),
            )
            game_id = await games.insert(conn, row)
            ids.append(game_id)
            message_id = show(i, game_id) if show is not None else None
            if message_id is not None or thread_id is not None:
                await games.set_location(game_id, thread_id, message_id).run(conn)
            if message_id is not None:  # its message shows this version, as after a redraw
                shown.append((game_id, template.version))
        await games.set_shown_versions(conn, shown)
    return ids


async def insert_finished(
    db: Database, template: GameRow, count: int, *, host_ids: list[int], at: float
) -> list[int]:
    """``count`` finished games like ``template`` in its server, hosted in turn by
    ``host_ids``: the history a busy server accumulates."""
    ids: list[int] = []
    async with db.transaction() as conn:
        for i in range(count):
            row = replace(
                template,
                id=0,
                status="running",
                host_id=host_ids[i % len(host_ids)],
                lobby_message_id=None,
                message_id=None,
                version=1,
                revision=0,
                deadline=None,
                created_at=at - count + i,
                updated_at=at - count + i,
            )
            row.id = await games.insert(conn, row)
            row.status, row.version, row.finished_at = "finished", 2, at - count + i
            await games.update(row, 1).run(conn)
            ids.append(row.id)
    return ids
