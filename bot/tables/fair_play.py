"""Fair play (RULINGS §4, docs/rules.md "Forfeits" and "/… end"): resigning, the forfeit of
a seat whose turns keep running out, and ending a game early, by a moderator at once or, for
a staked game, by the host's request that everyone still playing agrees to.

``FairPlay`` is owned by the table service and works through it: the same lock, the same
saves with their log entries, the same close and commit of a game as every other change.
The end request's own timer shares the row's deadline with the turn's (``set_deadline``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.errors import Forbidden, StaleAction, UserError
from bot.tables import events as ev
from bot.tables.model import Change, Place, Table
from bot.tables.names import clean_name, md_name

if TYPE_CHECKING:
    from bot.tables.service import TableService

MAX_EXPIRIES = 3
END_VOTE_SECONDS = 120  # how long the others have to agree to end a staked game early


def set_deadline(table: Table, turn_deadline: float | None) -> None:
    """The row's deadline: the turn's, or a pending end request's if that is sooner
    (one timer per row: ``fire`` tells them apart)."""
    request = table.pending_request
    if request is None:
        table.row.deadline = turn_deadline
        return
    request["turn_deadline"] = turn_deadline
    until = float(request["until"])
    table.row.deadline = until if turn_deadline is None else min(turn_deadline, until)


def request_over(table: Table, why: str) -> None:
    """The pending request to end early is over (it ran out, its asker left, the game
    ended): it stays in the state, marked, and this change shows its message so."""
    request = table.pending_request
    if request is None:
        return
    turn_deadline = request.pop("turn_deadline", table.row.deadline)
    request["over"] = why
    table.row.deadline = turn_deadline
    table.ended_request = request


def forfeit_how(table: Table, seat: int) -> ev.LeftHow:
    """How ``seat`` left the game: kept since forfeits were (``Table.forfeits``), else read
    from the recent events of a game saved before."""
    how = table.forfeits.get(seat)
    if how is not None:
        return how
    for event in reversed(table.events):
        if isinstance(event, ev.Resigned) and event.seat == seat:
            return ev.RESIGNED
        if isinstance(event, ev.Forfeited) and event.seat == seat:
            return ev.TIMED_OUT
    return ev.FORFEITED


class FairPlay:
    def __init__(self, tables: TableService) -> None:
        self._tables = tables

    async def set_end_request_message(
        self, table_id: int, until: float, channel_id: int, message_id: int
    ) -> Change | None:
        """Where the request to end early (the one running out at ``until``) is shown, so
        that its message can be shown as over when it is, after a restart too. None if that
        request is over already (the caller shows its message so)."""
        async with self._tables._locked(table_id) as table:
            request = table.pending_request
            if table.status != "running" or request is None or request["until"] != until:
                return None
            request["message"] = [channel_id, message_id]
            await self._tables._save(table, None, "end_request_message", {"message_id": message_id})
            return Change(table)

    async def end(
        self, table_id: int, user_id: int, is_admin: bool, name: str | None = None
    ) -> Change:
        """End a table early (RULINGS §4): Manage Server always can; the host can close a
        lobby or end an unstaked game; a staked running game needs every other member still
        playing to agree, so the host's end opens a request (``end_requested``) instead.
        ``name``: who ends it, as shown when they have no seat (a moderator)."""
        tables = self._tables
        async with tables._locked(table_id) as table:
            if table.status not in ("lobby", "running"):
                raise StaleAction(code="end.over")
            # Who ended it is named from their seat when drawn; a moderator has none.
            unseated = table.seat_of(user_id) is None and name
            ended = ev.Closed(ev.ENDED, user_id, clean_name(name) if unseated and name else None)
            if is_admin:
                return await tables._close(table, "ended", user_id, ended)
            if user_id != table.row.host_id:
                raise Forbidden(code="end.host")
            others = [
                table.seats[i].user_id
                for i in table.humans_playing()
                if table.seats[i].user_id != user_id
            ]
            if table.status == "lobby" or table.row.stake == 0 or not others:
                return await tables._close(table, "ended", user_id, ended)
            now = tables.clock()
            if table.open_request(now) is not None:
                raise UserError(code="end.asked")
            request_over(table, "expired")  # ran out, its timer not fired yet
            until = now + END_VOTE_SECONDS
            table.end_request = {"by": user_id, "until": until, "agreed": []}
            set_deadline(table, table.row.deadline)
            table.add_event(ev.EndRequested(user_id))
            await tables._save(table, user_id, "end_request", {"until": until})
            return Change(table, end_requested=True)

    async def agree_to_end(self, table_id: int, user_id: int, place: Place | None = None) -> Change:
        """A member still playing agrees to the host's request to end early; the last
        agreement ends the game with every stake refunded."""
        tables = self._tables
        async with tables._locked(table_id, place) as table:
            if table.status != "running":
                raise StaleAction(code="end.over")
            request = table.open_request(tables.clock())
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
                return await tables._close(table, "ended", user_id, agreed)
            await tables._save(table, user_id, "agree_end", {"seat": index})
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

    async def request_ran_out(self, table: Table) -> Change:
        """The pending request's timer fired: its message says so; the turn's own timer,
        restored to the row, fires at the next tick if it is due too."""
        request_over(table, "expired")
        await self._tables._save(table, None, "end_request_over", {"why": "expired"})
        return Change(table)

    async def resign(self, table_id: int, user_id: int, place: Place | None = None) -> Change:
        """A player gives up their seat (RULINGS §4): it forfeits; their stake stays in the
        pot."""
        async with self._tables._locked(table_id, place) as table:
            if table.status != "running":
                raise StaleAction(code="resign.not_running")
            index = table.seat_of(user_id)
            if index is None:
                raise UserError(code="resign.not_playing")
            if not table.playing(index):
                raise UserError(code="resign.left")
            return await self.forfeit(table, index, ev.Resigned(index), user_id, "resign")

    async def turn_ran_out(self, table: Table, current: int) -> Change:
        """The timer of ``current``, a member's seat, fired: a third expiry in a row forfeits
        the seat; before that the bot plays the rest of the turn for them."""
        tables = self._tables
        game = table.game
        assert table.rules is not None
        table.expiries[current] += 1
        if table.expiries[current] >= MAX_EXPIRIES:
            forfeited = ev.Forfeited(current, MAX_EXPIRIES)
            return await self.forfeit(table, current, forfeited, None, "forfeit")
        table.add_event(ev.TimedOut(current))
        # Play the rest of the absent seat's turn (RULINGS §4), one step at a time with
        # the real dice, since what comes next depends on how they fall.
        turn = game.turn_index(table.rules)
        details: list[dict[str, Any]] = []
        while game.current_seat(table.rules) == current and game.turn_index(table.rules) == turn:
            tables._apply(table, game.timeout_step(table.rules, tables.rng), details)
        return await tables._commit(table, turn, details, None, "timeout")

    async def forfeit(
        self, table: Table, seat: int, event: ev.Event, actor_id: int | None, why: str
    ) -> Change:
        """``seat`` forfeits; the game goes on among the rest, the last side standing wins,
        and with no member left playing (or none present) it is abandoned."""
        tables = self._tables
        game = table.game
        assert table.rules is not None
        before_turn = game.turn_index(table.rules)
        shown = game.current_seat(table.rules)
        table.rules = game.forfeit(table.rules, seat)
        table.forfeits[seat] = ev.RESIGNED if isinstance(event, ev.Resigned) else ev.TIMED_OUT
        table.add_event(event)
        request = table.pending_request
        if request is not None and request["by"] == table.seats[seat].user_id:
            request_over(table, "left")  # nobody is left who asked
        playing = table.humans_playing()
        # Nobody left to play for: every member still seated also let their last turn run
        # out (docs/rules.md, "Forfeits"); a rated win or a pot for an absent seat is wrong.
        present = [i for i in playing if table.expiries[i] == 0]
        if not present:
            humans = [i for i, s in enumerate(table.seats) if not s.is_bot]
            closed = ev.Closed(
                ev.ABANDONED,
                left=tuple((i, table.forfeits[i]) for i in humans if i in table.forfeits),
                missed=tuple((i, table.expiries[i]) for i in humans if table.expiries[i]),
            )
            return await tables._close(table, "abandoned", actor_id, closed)
        return await tables._commit(
            table, before_turn, [{"forfeit": seat, "why": why}], actor_id, why, shown
        )
