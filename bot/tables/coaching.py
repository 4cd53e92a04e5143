"""A member asks the board game's coach for a move: on their own turn, with no stake, where the
server allows it; the table notes it, so the result is not rated (docs/board-rules.md, "Suggest and
Review")."""

from __future__ import annotations

from bot.errors import StaleAction, UserError
from bot.records import NO_GUILD
from bot.store import games
from bot.tables.kernel import TableKernel
from bot.tables.model import Place, Table


async def ask_suggestion(
    kernel: TableKernel, table_id: int, user_id: int, version: int, place: Place | None
) -> Table:
    """Note that ``user_id`` asked for a suggestion on this turn of the table and return
    the table; ``UserError`` (``coach.*``) if they may not."""
    async with kernel.locked(table_id, place) as table:
        if table.status != "running" or table.rules is None:
            raise StaleAction(code="table.changed")
        if version != table.version:
            raise StaleAction(code="table.changed")
        seat = table.seat_of(user_id)
        current = table.game.current_seat(table.rules)
        if seat is None or current != seat:
            raise UserError(code="coach.turn")
        if table.row.stake > 0:
            raise UserError(code="coach.staked")
        guild = table.row.guild_id
        if guild != NO_GUILD and not await games.guild_suggestions(kernel.db, guild):
            raise UserError(code="coach.off")
        if user_id not in table.coached:
            table.coached.append(user_id)
            try:
                await kernel.save_aside(table)
            except games.VersionConflict:
                raise StaleAction(code="table.changed") from None
        return table
