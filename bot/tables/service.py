"""The table service: opening a table, the lobby's buttons, the turn's, and where a table
is shown. A peer of ``bot.tables.kernel``, through which every change goes (the lock, one
read, one compare-and-set save); the timers are another (``bot.tables.timers``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import math
from collections.abc import Awaitable, Callable
from typing import Any

from bot.errors import Forbidden, NotYourTurn, StaleAction, UserError
from bot.records import EVERYWHERE, NO_GUILD
from bot.store import games, places
from bot.store.db import Connection
from bot.store.games import GameRow
from bot.store.places import TablePlace
from bot.tables import events as ev
from bot.tables.kernel import TableKernel
from bot.tables.kind import GameKind
from bot.tables.model import (
    Change,
    Place,
    Table,
    cancel_reminder,
    drop_held,
    take_held,
)
from bot.tables.names import clean_name
from bot.tables.seat import Seat
from bot.tables.teams import next_team

log = logging.getLogger(__name__)

BOT_NAMES = (
    "Ada",
    "Babbage",
    "Curie",
    "Dijkstra",
    "Euler",
    "Fermat",
    "Gauss",
    "Hopper",
    "Iverson",
    "Jacobi",
    "Knuth",
    "Lovelace",
)

# A lobby outside a server closes within this, while the token of the command that opened
# it (15 minutes) can still show it closed.
NO_GUILD_LOBBY_SECONDS = 14 * 60


class TableService:
    """Opens tables and runs their lobbies and turns, through the kernel."""

    def __init__(self, kernel: TableKernel) -> None:
        self.kernel = kernel
        # The kernel's values, read here by the ui and the cogs.
        self.db = kernel.db
        self.bots = kernel.bots
        self.kinds = kernel.kinds
        self.settings = kernel.settings
        self.clock = kernel.clock
        self.rng = kernel.rng
        self.hooks = kernel.hooks
        self.shards = kernel.shards
        # Opens one at a time in this process (a burst of commands waits here, not holding
        # a database connection each); across processes the transaction serializes them.
        self._open_lock = asyncio.Lock()

    def kind(self, name: str) -> GameKind[Any]:
        return self.kernel.kind(name)

    async def get(self, table_id: int, place: Place | None = None) -> Table:
        """The table as the database has it; ``place``: a click's, checked (see ``Place``)."""
        return await self.kernel.get(table_id, place)

    def busy(self, table_id: int) -> bool:
        """Whether a change of this table is under way here (a new one would wait for it)."""
        return self.kernel.busy(table_id)

    def live_locks(self) -> int:
        """How many tables hold a lock (a change under way)."""
        return self.kernel.live_locks()

    # --- lobby -----------------------------------------------------------------------

    async def open_lobby(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        kind: str,
        settings: dict[str, Any],
        stake: int = 0,
        turn_timeout: int | None = None,
        seat_host: bool = True,
        then: Callable[[Connection, Table], Awaitable[None]] | None = None,
        held: list[int] = (),  # type: ignore[assignment]
        limits: bool = True,
    ) -> Table:
        """``then``: more of the same transaction, once the table is inserted (a rematch
        seats its players); what it raises rolls the whole opening back. ``limits`` False:
        no host cooldown nor channel or server caps (a tournament's match, opened by the
        event for members it seats, not by a member asking)."""
        game = self.kind(kind)
        game.check_settings(settings)
        if stake and guild_id == EVERYWHERE:  # chips belong to a server; this table to none
            raise UserError(code="stake.everywhere")
        held = [u for u in dict.fromkeys(held) if u != host_id]
        _, high = game.seat_limits(settings)
        if len(held) + 1 > high:
            raise UserError(code="table.invite_max", high=high)
        # A game's thread tells that game's story: a second table there would interleave
        # two games in one thread, so a new one starts in the channel the thread belongs to.
        owner = await games.in_thread(self.db, channel_id)
        if owner is not None:
            raise UserError(code="table.thread_taken", channel_id=owner.channel_id, game=owner.id)
        # One open at a time per server: the checks below and the insert must not
        # interleave, or a burst of simultaneous commands passes the cooldown and the caps
        # together. In this process the lock does it; another process on the same database
        # (PostgreSQL) waits at ``serialize_on`` until this transaction commits, then counts
        # the table it inserted (on SQLite, BEGIN IMMEDIATE already lets one writer in).
        async with self._open_lock, self.db.transaction() as conn:
            await conn.serialize_on(f"open:{guild_id}")
            checks = await games.open_checks(conn, guild_id, channel_id, host_id)
            cap = self.settings.max_stake
            if checks.max_stake is not None:
                cap = min(cap, checks.max_stake)
            if stake > 0 and cap == 0:
                raise UserError(code="stake.off", server=bool(self.settings.max_stake))
            if stake < 0 or stake > cap:
                raise UserError(code="stake.range", cap=cap)
            if limits:
                self._check_open_limits(checks, in_server=guild_id != NO_GUILD)
            table = await self._open(
                conn,
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                host_name=host_name,
                kind=kind,
                settings=settings,
                stake=stake,
                turn_timeout=turn_timeout or checks.turn_timeout,
                seat_host=seat_host,
                held=held,
            )
            if then is not None:
                await then(conn, table)
            return table

    def _check_open_limits(self, checks: games.OpenChecks, in_server: bool = True) -> None:
        now = self.clock()
        # From the database, not memory: a restart must not reset everyone's cooldown.
        last = checks.host_last_opened
        cooldown = self.settings.start_cooldown_seconds
        if last is not None and now - last < cooldown:
            wait = math.ceil(cooldown - (now - last))
            raise UserError(code="table.cooldown", wait=wait)
        limits = self.settings
        if checks.lobbies_in_channel >= limits.max_lobbies_per_channel:
            raise UserError(code="cap.channel_lobbies")
        if checks.running_in_channel >= limits.max_games_per_channel:
            raise UserError(code="cap.channel_games")
        if not in_server:  # every DM shares NO_GUILD: only the per-channel caps apply there
            return
        if checks.lobbies_in_guild >= limits.max_lobbies_per_guild:
            raise UserError(code="cap.guild_lobbies")
        if checks.live_in_guild >= limits.max_games_per_guild:
            raise UserError(code="cap.guild_games")

    async def _open(
        self,
        conn: Connection,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        kind: str,
        settings: dict[str, Any],
        stake: int,
        turn_timeout: int | None,
        seat_host: bool,
        held: list[int] = (),  # type: ignore[assignment]
    ) -> Table:
        game = self.kind(kind)
        now = self.clock()
        timeout = turn_timeout or self.settings.turn_timeout_seconds
        lobby_seconds = self.settings.lobby_timeout_seconds
        if guild_id == NO_GUILD:
            # Outside a server the table shows only through interaction tokens (15 minutes):
            # no turn timer (0: off) and a lobby that closes while its message can say so.
            timeout, lobby_seconds = 0, min(lobby_seconds, NO_GUILD_LOBBY_SECONDS)
        settings = {**settings, "turn_timeout": timeout}
        host = Seat(host_id, clean_name(host_name))
        table = Table(
            row=GameRow(
                id=0,
                guild_id=guild_id,
                channel_id=channel_id,
                thread_id=None,
                lobby_message_id=None,
                message_id=None,
                game_key=game.game_key(settings),
                status="lobby",
                host_id=host_id,
                stake=stake,
                state={},
                version=0,
                deadline=now + lobby_seconds,
                created_at=now,
                updated_at=now,
                finished_at=None,
            ),
            game=game,
            settings=settings,
            seats=[],
            held=[Seat(u, "") for u in held],  # invited: the name comes with their Join
        )
        if seat_host:
            table.seats.append(self._auto_team(table, host))
        table.row.state = table.to_state()
        table.row.id = await games.insert(conn, table.row)
        await games.upsert_member(conn, guild_id, host_id, host.name, now)
        await games.append_log(
            table.id,
            now,
            host_id,
            "open",
            {"kind": kind, "settings": settings, "stake": stake, "held": list(held)},
        ).run(conn)
        if seat_host:
            await self.hooks.on_join(conn, table, host)
        return table

    async def set_lobby_message(self, table_id: int, message_id: int) -> int:
        """Record the lobby's message; returns the table's new version."""
        async with self.kernel.locked(table_id) as table:
            table.row.lobby_message_id = message_id
            await self.kernel.save(table, None, "lobby_message", {"message_id": message_id})
            return table.version

    async def join(
        self, table_id: int, user_id: int, name: str, place: Place | None = None
    ) -> Change:
        async with self.kernel.locked(table_id, place) as table:
            self.kernel.require_lobby(table)
            # A seat held for the member (a rematch, an invitation, a stake asked again) is
            # theirs: Join takes it, back in its place.
            seat = take_held(table, user_id, clean_name(name))
            answered = seat is not None and self._invites_answered(table)
            if seat is None:
                if table.seat_of(user_id) is not None:
                    raise UserError(code="lobby.seated")
                _, high = table.game.seat_limits(table.settings)
                if len(table.seats) + len(table.held) >= high:
                    raise UserError(code="lobby.full", high=high, held=len(table.held))
                seat = Seat(user_id, clean_name(name))
                table.seats.append(self._auto_team(table, seat))
            table.watchers = [u for u in table.watchers if u != user_id]  # seated: no watching

            async def money(conn: Connection) -> None:
                await games.upsert_member(
                    conn, table.row.guild_id, user_id, seat.name, self.clock()
                )
                await self.hooks.on_join(conn, table, seat)

            await self.kernel.save(table, user_id, "join", {"name": seat.name}, money)
            return Change(table, invites_answered=answered)

    async def leave(self, table_id: int, user_id: int, place: Place | None = None) -> Change:
        async with self.kernel.locked(table_id, place) as table:
            self.kernel.require_lobby(table)
            index = table.seat_of(user_id)
            if index is None:
                if drop_held(table, user_id):  # a held seat given up: nothing was taken
                    await self.kernel.save(table, user_id, "decline", {})
                    return Change(table, invites_answered=self._invites_answered(table))
                raise UserError(code="lobby.not_seated")
            detail: dict[str, Any] = {"seat": index}
            if user_id == table.row.host_id:
                # The next member seated after the host (bot players can't host) takes over;
                # only a lobby with no other member closes.
                after = table.seats[index + 1 :] + table.seats[:index]
                heir = next((s for s in after if not s.is_bot), None)
                if heir is None or heir.user_id is None:
                    closed = ev.Closed(ev.HOST_LEFT, user_id)
                    return await self.kernel.close(table, "cancelled", user_id, closed)
                table.row.host_id = heir.user_id
                detail["host"] = heir.user_id
                table.add_event(ev.HostChanged(table.seats[index].name, heir.user_id))
            seat = table.seats.pop(index)

            async def money(conn: Connection) -> None:
                await self.hooks.on_leave(conn, table, seat)

            await self.kernel.save(table, user_id, "leave", detail, money)
            return Change(table)

    async def add_bot(
        self, table_id: int, user_id: int, level: str | None = None, place: Place | None = None
    ) -> Change:
        async with self.kernel.locked(table_id, place) as table:
            self.kernel.require_lobby(table)
            game = table.game
            if user_id != table.row.host_id:
                raise Forbidden(code="lobby.host_bots")
            if table.row.stake > 0:
                raise UserError(code="lobby.staked_bots")
            bots = sum(1 for s in table.seats if s.is_bot)
            if bots >= self.settings.max_bot_players:
                raise UserError(code="lobby.bots_max", most=self.settings.max_bot_players)
            _, high = game.seat_limits(table.settings)
            if len(table.seats) + len(table.held) >= high:
                raise UserError(code="lobby.full", high=high, held=len(table.held))
            levels = list(game.bot_levels)
            default = game.default_bot_level or ("optimal" if "optimal" in levels else levels[-1])
            level = level or default
            level = game.old_bot_levels.get(level, level)  # a button from before a rename
            if level not in game.bot_levels:
                raise UserError(code="lobby.bot_level", levels=levels)
            taken = {s.name for s in table.seats}
            name = next(
                (f"{n} 🤖" for n in BOT_NAMES if f"{n} 🤖" not in taken), f"Bot {bots + 1} 🤖"
            )
            bot_seat = Seat(None, name, bot_level=level)
            table.seats.append(self._auto_team(table, bot_seat))
            await self.kernel.save(table, user_id, "add_bot", {"level": level})
            return Change(table)

    async def switch_team(self, table_id: int, user_id: int, place: Place | None = None) -> Change:
        async with self.kernel.locked(table_id, place) as table:
            self.kernel.require_lobby(table)
            n_teams, _ = table.game.lobby_teams(table.settings, len(table.seats))
            if n_teams < 2:
                raise UserError(code="lobby.no_teams")
            index = table.seat_of(user_id)
            if index is None:
                raise UserError(code="lobby.join_first")
            seat = table.seats[index]
            # From the team the lobby shows (where Start would put the seat), not only
            # from an earlier pick: a seat shown in team A moves to B.
            shown, problem = table.game.lobby_order(table.settings, table.seats)
            current = seat.team if problem else next(s for s in shown if s.user_id == user_id).team
            if current is None and not problem:
                raise UserError(code="lobby.alone", seats=len(table.seats))
            target = next_team(current, n_teams)
            detail: dict[str, Any] = {"seat": index, "team": target}
            if problem:
                table.seats[index] = dataclasses.replace(seat, team=target)
            else:
                # Every seat keeps the team the lobby shows (so the others do not shift
                # round the presser), and where the new team would be two bigger than
                # the old one, its last seat takes the presser's place: a swap, so the
                # presser really has other partners (issue 31).
                teams = {(s.user_id, s.name): s.team for s in shown}
                table.seats = [
                    dataclasses.replace(s, team=teams[(s.user_id, s.name)]) for s in table.seats
                ]
                table.seats[index] = dataclasses.replace(table.seats[index], team=target)
                sizes = [sum(1 for s in table.seats if s.team == t) for t in range(n_teams)]
                if current is not None and sizes[target] - sizes[current] >= 2:
                    other = max(
                        i for i, s in enumerate(table.seats) if s.team == target and i != index
                    )
                    table.seats[other] = dataclasses.replace(table.seats[other], team=current)
                    detail["swapped"] = other
                    table.add_event(
                        ev.TeamsSwapped(seat.name, table.seats[other].name, target, current)
                    )
            await self.kernel.save(table, user_id, "team", detail)
            return Change(table)

    async def cancel(
        self, table_id: int, user_id: int, is_admin: bool, place: Place | None = None
    ) -> Change:
        async with self.kernel.locked(table_id, place) as table:
            self.kernel.require_lobby(table)
            if user_id != table.row.host_id and not is_admin:
                raise Forbidden(code="lobby.host_cancel")
            by_host = user_id == table.row.host_id
            reason = ev.CANCELLED_BY_HOST if by_host else ev.CANCELLED_BY_ADMIN
            return await self.kernel.close(table, "cancelled", user_id, ev.Closed(reason, user_id))

    async def start(
        self, table_id: int, user_id: int, is_admin: bool = False, place: Place | None = None
    ) -> Change:
        async with self.kernel.locked(table_id, place) as table:
            self.kernel.require_lobby(table)
            if user_id != table.row.host_id and not is_admin:
                raise Forbidden(code="lobby.host_start")
            game = table.game
            low, _ = game.seat_limits(table.settings)
            if table.held and len(table.seats) < low:
                # The lobby lists the held seats too: name who has not pressed Join, not
                # a bare count of the seats taken (issue 31).
                waiting = [s.user_id for s in table.held]
                raise UserError(code="lobby.held_waiting", waiting=waiting, low=low)
            table.seats = game.arrange(table.settings, table.seats)
            table.rules = game.start(table.settings, table.seats, self.rng)
            table.row.status = "running"
            table.expiries = [0] * len(table.seats)
            table.add_event(ev.Started(len(table.seats)))
            self.kernel.set_turn_deadline(table, turn_changed=True)
            detail: dict[str, Any] = {
                "seats": [s.dump() for s in table.seats],
                "rules": game.dump(table.rules),
            }
            if table.held:  # seats held for members who did not take them: left out
                detail["left_out"] = [s.user_id for s in table.held]
                table.held = []
            await self.kernel.save(table, user_id, "start", detail)
            return Change(table, turn_changed=True)

    @staticmethod
    def _invites_answered(table: Table) -> bool:
        """Whether a held seat just taken or given up was the last an invitation held (a
        rematch's call names who was asked, which stays true: not that)."""
        return not table.held and table.rematch is None

    def _auto_team(self, table: Table, seat: Seat) -> Seat:
        """A new seat in the smallest team, so the lobby shows balanced teams."""
        n_teams, balance = table.game.lobby_teams(table.settings, len(table.seats) + 1)
        if balance and n_teams >= 2:
            sizes = [sum(1 for s in table.seats if s.team == t) for t in range(n_teams)]
            return dataclasses.replace(seat, team=min(range(n_teams), key=lambda t: (sizes[t], t)))
        return seat

    # --- play ------------------------------------------------------------------------

    async def set_game_message(
        self, table_id: int, *, thread_id: int | None, message_id: int | None
    ) -> None:
        """Where the game is shown; not a game change, so the version stays (the revision
        moves: ``TableKernel.set_location``)."""
        await self.kernel.set_location(table_id, thread_id, message_id)

    async def places(self, table_id: int) -> list[TablePlace]:
        """A cross-server table's places, the first first (none: a table of one server)."""
        return await places.of_game(self.db, table_id)

    async def set_place_message(
        self, table_id: int, place: TablePlace, *, thread_id: int | None, message_id: int
    ) -> None:
        """Where a cross-server table is shown in one of its places; the first place's is
        the games row's too (every lookup by the row's thread or message finds it)."""
        await places.set_message(self.db, table_id, place.guild_id, thread_id, message_id)
        if place.position == 0:
            await self.set_game_message(table_id, thread_id=thread_id, message_id=message_id)

    def check_turn(
        self, table: Table, user_id: int, version: int, stale_text: str | None = None
    ) -> int:
        """The seat ``user_id`` plays, if this click may act now; otherwise a UserError
        (``stale_text``: the words of a stale click, from the game's presentation; None:
        the table layer's own)."""
        if table.status != "running":
            raise StaleAction(
                code="table.over" if table.status == "finished" else "table.not_running"
            )
        # The version first: a button from an earlier throw is over for everyone, even
        # for the player whose turn it was once the turn has passed.
        if version != table.version:
            raise StaleAction(stale_text) if stale_text else StaleAction(code="turn.stale")
        game = table.game
        assert table.rules is not None
        current = game.current_seat(table.rules)
        seat = table.seat_of(user_id)
        if current is None:
            raise StaleAction(code="table.over")
        if seat != current:
            who = table.seats[current].name
            if seat is None:
                raise NotYourTurn(code="turn.not_playing", name=who)
            raise NotYourTurn(code="turn.not_yours", name=who)
        return seat

    async def act(
        self,
        table_id: int,
        user_id: int,
        version: int,
        action: str,
        stale_text: str | None = None,
        place: Place | None = None,
    ) -> Change:
        """A turn button pressed (``place``: where, see ``Place``), played on the copy of the
        table this process keeps, if it does (``TableKernel.change``)."""

        async def move(table: Table) -> Change:
            seat = self.check_turn(table, user_id, version, stale_text)
            game = table.game
            assert table.rules is not None
            steps = game.resolve(table.rules, action)
            table.expiries[seat] = 0
            cancel_reminder(table)  # they are here: no reminder this turn
            return await self.kernel.play(table, steps, user_id, "action")

        return await self.kernel.change(table_id, place, move)

    async def close_unseen(self, table_id: int, closed: ev.Closed) -> Change | None:
        """End a table Discord can no longer show (its message or thread is gone, or the
        bot may not post): stakes refunded, no result. None if it was already over."""
        async with self.kernel.locked(table_id) as table:
            if table.status not in ("lobby", "running"):
                return None
            return await self.kernel.close(table, "ended", None, closed)

    # --- restore ---------------------------------------------------------------------

    async def running_with_message(self, message_id: int) -> Table | None:
        row = await games.running_with_message(self.db, message_id)
        return None if row is None else self.kernel.table_of(row)

    async def location(self, table_id: int) -> tuple[int | None, int | None] | None:
        """Where the game is shown now (thread id, message id), as the database has it."""
        return await games.location(self.db, table_id)

    async def record_shown(self, shown: list[tuple[int, int]]) -> None:
        """Which version each table's message shows (table id, version), in one transaction."""
        async with self.db.transaction() as conn:
            await games.set_shown_versions(conn, shown)

    async def behind_on_discord(self) -> list[int]:
        """Live tables of this process's guilds whose message may show an older version,
        soonest deadline first."""
        return await games.behind_on_discord(self.db, self.kernel.shard_filter)

    async def live_in_guild(self, guild_id: int) -> list[int]:
        """The ids of a server's live tables, soonest deadline first."""
        return await games.live_in_guild(self.db, guild_id)

    async def live_in_channel(self, channel_id: int) -> list[Table]:
        rows = await games.live_in_channel(self.db, channel_id)
        return [self.kernel.table_of(row) for row in rows]

    async def live_tables(self) -> list[Table]:
        return [self.kernel.table_of(row) for row in await games.live(self.db)]
