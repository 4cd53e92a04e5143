"""What the host of an open lobby may do besides Start and Cancel (docs/rules.md, "The lobby's
host"): remove a seat, hand over the host role, change the settings, hold seats; spectators too. A
peer of the table kernel."""

from __future__ import annotations

from typing import Any

from bot.errors import Forbidden, StaleAction, UserError
from bot.store import games
from bot.store.db import Connection
from bot.store.games import VersionConflict
from bot.tables.kernel import TableKernel
from bot.tables.model import Change, Table

MAX_WATCHERS = 50  # spectators noted on one table (each is one thread-member call)


def seat_key(table: Table, index: int) -> str:
    """How a seat is named in the host's panel: ``u<id>`` for a member, ``b<name>`` for a
    bot player (bot names are unique at a table): a key that still names the same seat
    when others joined or left since the panel was drawn."""
    return table.seats[index].key


def find_seat(table: Table, key: str) -> int | None:
    return next((i for i in range(len(table.seats)) if seat_key(table, i) == key), None)


class LobbyHost:
    def __init__(self, kernel: TableKernel) -> None:
        self.kernel = kernel

    def _require_host(self, table: Table, user_id: int, what: str) -> None:
        """``what``: the host's action refused ("remove", "host", "settings")."""
        self.kernel.require_lobby(table)
        if user_id != table.row.host_id:
            raise Forbidden(code="host.only", what=what)

    async def remove_seat(self, table_id: int, user_id: int, key: str) -> tuple[Change, str]:
        """The host removes a seat (a bot player's, or a member's, whose stake goes back);
        returns the change and the seat's name."""
        kernel = self.kernel
        async with kernel.locked(table_id) as table:
            self._require_host(table, user_id, "remove")
            index = find_seat(table, key)
            if index is None:
                raise StaleAction(code="host.seat_gone")
            if table.seats[index].user_id == user_id:
                raise UserError(code="host.own_seat")
            seat = table.seats.pop(index)

            async def money(conn: Connection) -> None:
                await kernel.hooks.on_leave(conn, table, seat)

            detail = {"seat": index, "user": seat.user_id, "name": seat.name}
            await kernel.save(table, user_id, "remove_seat", detail, money)
            return Change(table), seat.name

    async def make_host(self, table_id: int, user_id: int, new_host: int) -> tuple[Change, str]:
        """The host hands the role to another member seated; returns the new host's name."""
        kernel = self.kernel
        async with kernel.locked(table_id) as table:
            self._require_host(table, user_id, "host")
            if new_host == user_id:
                raise UserError(code="host.already")
            index = table.seat_of(new_host)
            if index is None:
                raise StaleAction(code="host.member_gone")
            table.row.host_id = new_host
            table.events = []  # a lobby's one line said who took over when a host left
            await kernel.save(table, user_id, "host", {"host": new_host})
            return Change(table), table.seats[index].name

    async def change_settings(
        self, table_id: int, user_id: int, settings: dict[str, Any], stake: int
    ) -> tuple[Change, list[int]]:
        """New settings for an open lobby, checked as a new table's are; a new stake refunds every
        seat, the host pays it at once, and the others' seats are held until each pays by pressing
        Join. Returns the change and the members asked again."""
        kernel = self.kernel
        async with kernel.locked(table_id) as table:
            self._require_host(table, user_id, "settings")
            game = table.game
            game.check_settings(settings)
            settings = {**settings, "turn_timeout": table.settings.get("turn_timeout")}
            if settings == table.settings and stake == table.row.stake:
                raise UserError(code="host.same_settings")
            _, high = game.seat_limits(settings)
            taken = len(table.seats) + len(table.held)
            if taken > high:
                raise UserError(code="host.too_many", taken=taken, high=high)
            old_stake = table.row.stake
            if stake != old_stake:
                await self._check_stake(table, stake)
            table.settings = settings
            table.row.game_key = game.game_key(settings)
            asked: list[int] = []
            members = [s for s in table.seats if s.user_id is not None]
            if stake != old_stake and stake > 0:
                asked = [s.user_id for s in members if s.user_id != user_id and s.user_id]
                table.seats = [s for s in table.seats if s.user_id not in asked]
                held = {s.user_id for s in table.held}
                again = [s for s in members if s.user_id in asked and s.user_id not in held]
                table.held = [*table.held, *again]  # Join puts each back in their seat
            table.row.stake = stake
            host = next((s for s in table.seats if s.user_id == user_id), None)

            async def money(conn: Connection) -> None:
                if stake == old_stake:
                    return
                for seat in members:  # the old stake goes back to every member seated
                    await kernel.hooks.on_leave(conn, table, seat)
                if host is not None:
                    await kernel.hooks.on_join(conn, table, host)

            detail = {"settings": settings, "stake": stake, "asked": asked}
            await kernel.save(table, user_id, "settings", detail, money)
            return Change(table), asked

    async def stake_cap(self, table: Table) -> int:
        """The largest stake this table may ask: the bot's limit, or the server's lower one
        (``/settings max-stake``); 0: no staked tables here."""
        kernel = self.kernel
        row = table.row
        checks = await games.open_checks(kernel.db, row.guild_id, row.channel_id, row.host_id)
        cap = kernel.settings.max_stake
        if checks.max_stake is not None:
            cap = min(cap, checks.max_stake)
        return cap

    async def _check_stake(self, table: Table, stake: int) -> None:
        if stake > 0 and table.crosses_servers:  # chips belong to a server: such a table has none
            raise UserError(code="stake.everywhere")
        cap = await self.stake_cap(table)
        if stake > 0 and cap == 0:
            raise UserError(code="host.stake_off")
        if not 0 <= stake <= cap:
            raise UserError(code="stake.range", cap=cap)
        if stake > 0 and any(s.is_bot for s in table.seats):
            raise UserError(code="host.staked_bots")

    # --- spectators -------------------------------------------------------------------

    async def watch(self, table_id: int, user_id: int, watching: bool) -> Change:
        """Note (or forget) a spectator. The version stays: a turn's buttons stay live. A
        compare-and-set all the same (``save_aside``): a change another process saved in
        between is read again and this one tried once more on it, so none is lost."""
        for attempt in (1, 2):
            try:
                return await self._watch(table_id, user_id, watching)
            except VersionConflict:
                if attempt == 2:
                    break
        raise StaleAction(code="table.changed")

    async def _watch(self, table_id: int, user_id: int, watching: bool) -> Change:
        kernel = self.kernel
        async with kernel.locked(table_id) as table:
            if table.status not in ("lobby", "running"):
                raise StaleAction(code="watch.over")
            if watching:
                if table.seat_of(user_id) is not None:
                    raise UserError(code="watch.playing")
                if user_id in table.watchers:
                    raise UserError(code="watch.already")
                if len(table.watchers) >= MAX_WATCHERS:
                    raise UserError(code="watch.full", most=MAX_WATCHERS)
                table.watchers = [*table.watchers, user_id]
            else:
                if user_id not in table.watchers:
                    raise UserError(code="watch.not")
                table.watchers = [u for u in table.watchers if u != user_id]
            await kernel.save_aside(table)
            return Change(table)
