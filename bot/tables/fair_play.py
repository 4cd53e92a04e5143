"""Fair play (RULINGS §4, docs/rules.md "Forfeits" and "/… end"): resigning, the forfeit of a seat
whose turns keep running out, and ending a game early. A peer of the table kernel; the end request's
timer shares the row's deadline (``model.set_deadline``)."""

from __future__ import annotations

from bot.errors import Forbidden, StaleAction, UserError
from bot.tables import events as ev
from bot.tables.kernel import TableKernel
from bot.tables.model import Change, Place, Table, request_over, set_deadline
from bot.tables.names import clean_name, md_name

END_VOTE_SECONDS = 120  # how long the others have to agree to end a staked game early


class FairPlay:
    def __init__(self, kernel: TableKernel) -> None:
        self.kernel = kernel

    async def set_end_request_message(
        self, table_id: int, until: float, channel_id: int, message_id: int
    ) -> Change | None:
        """Where the request to end early (the one running out at ``until``) is shown, so
        that its message can be shown as over when it is, after a restart too. None if that
        request is over already (the caller shows its message so)."""
        async with self.kernel.locked(table_id) as table:
            request = table.pending_request
            if table.status != "running" or request is None or request["until"] != until:
                return None
            request["message"] = [channel_id, message_id]
            await self.kernel.save(table, None, "end_request_message", {"message_id": message_id})
            return Change(table)

    async def end(
        self, table_id: int, user_id: int, is_admin: bool, name: str | None = None
    ) -> Change:
        """End a table early (RULINGS §4): a staked running game needs every other member still
        playing to agree, so the host's end opens a request instead. ``name``: who ends it, if
        seatless."""
        kernel = self.kernel
        async with kernel.locked(table_id) as table:
            if table.status not in ("lobby", "running"):
                raise StaleAction(code="end.over")
            # Who ended it is named from their seat when drawn; a moderator has none.
            unseated = table.seat_of(user_id) is None and name
            ended = ev.Closed(ev.ENDED, user_id, clean_name(name) if unseated and name else None)
            if is_admin:
                return await kernel.close(table, "ended", user_id, ended)
            if user_id != table.row.host_id:
                raise Forbidden(code="end.host")
            others = [
                table.seats[i].user_id
                for i in table.humans_playing()
                if table.seats[i].user_id != user_id
            ]
            if table.status == "lobby" or table.row.stake == 0 or not others:
                return await kernel.close(table, "ended", user_id, ended)
            now = kernel.clock()
            if table.open_request(now) is not None:
                raise UserError(code="end.asked")
            request_over(table, "expired")  # ran out, its timer not fired yet
            until = now + END_VOTE_SECONDS
            table.end_request = {"by": user_id, "until": until, "agreed": []}
            set_deadline(table, table.row.deadline)
            table.add_event(ev.EndRequested(user_id))
            await kernel.save(table, user_id, "end_request", {"until": until})
            return Change(table, end_requested=True)

    async def agree_to_end(self, table_id: int, user_id: int, place: Place | None = None) -> Change:
        """A member still playing agrees to the host's request to end early; the last
        agreement ends the game with every stake refunded."""
        kernel = self.kernel
        async with kernel.locked(table_id, place) as table:
            if table.status != "running":
                raise StaleAction(code="end.over")
            request = table.open_request(kernel.clock())
            if request is None:
                raise StaleAction(code="end.no_request")
            index = table.seat_of(user_id)
            if index is None or not table.playing(index):
                raise UserError(code="end.not_playing")
            if user_id == request["by"] or user_id in request["agreed"]:
                raise UserError(code="end.agreed")
            request["agreed"] = [*request["agreed"], user_id]
            waiting = self.waiting_to_agree(table)
            if not waiting:
                agreed = ev.Closed(ev.AGREED, request["by"])
                return await kernel.close(table, "ended", user_id, agreed)
            await kernel.save(table, user_id, "agree_end", {"seat": index})
            return Change(table, end_requested=True)

    @staticmethod
    def waiting_to_agree(table: Table) -> list[str]:
        """Who still has to agree to the open request to end the game."""
        request = table.end_request or {}
        done = {request.get("by"), *request.get("agreed", [])}
        return [
            md_name(table.seats[i].name)
            for i in table.humans_playing()
            if table.seats[i].user_id not in done
        ]

    async def resign(self, table_id: int, user_id: int, place: Place | None = None) -> Change:
        """A player gives up their seat (RULINGS §4): it forfeits; their stake stays in the
        pot."""
        async with self.kernel.locked(table_id, place) as table:
            if table.status != "running":
                raise StaleAction(code="resign.not_running")
            index = table.seat_of(user_id)
            if index is None:
                raise UserError(code="resign.not_playing")
            if not table.playing(index):
                raise UserError(code="resign.left")
            return await self.kernel.forfeit(table, index, ev.Resigned(index), user_id, "resign")
