"""A table as the session layer sees it: seats, settings, rules state, recent events."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from bot.errors import StaleAction
from bot.records import EVERYWHERE
from bot.store.games import GameRow
from bot.store.places import TablePlace as TablePlace  # re-exported: the shell reads it here
from bot.tables import events as ev
from bot.tables.events import Event, Legacy, Notice, load_event
from bot.tables.seat import Seat as Seat  # re-exported: most modules import it from here

if TYPE_CHECKING:
    from bot.tables.kind import GameKind

MAX_EVENTS = 6


@dataclass
class Table:
    """The live state of one game table, loaded from and saved to its ``games`` row."""

    row: GameRow
    game: GameKind[Any]
    settings: dict[str, Any]
    seats: list[Seat]
    rules: Any = None  # the game's own rules state (``game.load`` of the stored JSON)
    events: list[Event] = field(default_factory=list)  # values, worded when drawn
    expiries: list[int] = field(default_factory=list)
    turn_started_at: float | None = None
    notice: Notice | None = None  # one-off line for the next render (e.g. thread fallback)
    # A host's request to end a staked game early (RULINGS §4, "Ending early"): {"by": user
    # id, "until": unix time, "agreed": [user ids], "turn_deadline": the turn's own deadline
    # (the row's deadline is the sooner of it and "until", so the timer fires at either),
    # "message": [channel id, message id] once posted}; once it is over it stays, with
    # "over" saying why ("expired", "left", "finished", "closed", "agreed"), so that its
    # message can be shown as over, after a restart too.
    end_request: dict[str, Any] | None = None
    # Seats kept in a lobby for members who have not taken them yet (a rematch's players,
    # members invited with ``with:``, members asked again after the host changed the stake:
    # Join takes one, its stake taken then; Leave gives it up). They count as taken for the
    # seat limit but are not seated: no stake held, left out at Start.
    held: list[Seat] = field(default_factory=list)
    # A rematch lobby: {"of": the finished game's id, "order": its seats' keys in order
    # (``Seat.key``), so that a held seat taken goes back to its place}.
    rematch: dict[str, Any] | None = None
    # Members watching the game from its thread (spectators: never seated).
    watchers: list[int] = field(default_factory=list)
    # Members who asked for a suggested move (the board game's coach): the game is unrated.
    coached: list[int] = field(default_factory=list)
    # How each forfeited seat left (``events.RESIGNED``, ``events.TIMED_OUT``), kept for the
    # result: the recent events roll over, and an early resignation may be gone by the end.
    forfeits: dict[int, str] = field(default_factory=dict)
    # The request this change ended (its message must now say so); not stored.
    ended_request: dict[str, Any] | None = field(default=None, compare=False, repr=False)
    # The events this read of the table has added, every one (``events`` keeps the last few).
    fresh_events: list[Event] = field(default_factory=list)
    # A cross-server table's places (``bot.store.places``), read with it by the kernel: one
    # per server its players come from. Empty for a table of one server. Not in its state.
    places: tuple[TablePlace, ...] = field(default=(), compare=False)

    @property
    def kind(self) -> str:
        return self.game.name

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def status(self) -> str:
        return self.row.status

    @property
    def version(self) -> int:
        return self.row.version

    @property
    def game_channel_id(self) -> int:
        return self.row.thread_id or self.row.channel_id

    @property
    def crosses_servers(self) -> bool:
        """A quick-play table of members of several servers (``where: everywhere``): it
        belongs to no server and is shown in each of its places (a place's own drawing of
        it, ``bot.ui.everywhere.at``, has that server's id and the places)."""
        return self.row.guild_id == EVERYWHERE or bool(self.places)

    @property
    def pending_request(self) -> dict[str, Any] | None:
        """The request to end early that is not over yet (it may have run out just now:
        ``open_request`` says whether it can still be agreed to)."""
        request = self.end_request
        return request if request is not None and not request.get("over") else None

    def open_request(self, now: float) -> dict[str, Any] | None:
        request = self.pending_request
        return request if request is not None and request["until"] > now else None

    @property
    def turn_deadline(self) -> float | None:
        """When the current turn's timer runs out (the row's deadline may be a pending end
        request's, which is sooner)."""
        request = self.pending_request
        if request is not None and "turn_deadline" in request:
            return request["turn_deadline"]  # type: ignore[no-any-return]
        return self.row.deadline

    def playing(self, index: int) -> bool:
        """Whether the seat still plays (has not forfeited)."""
        return self.rules is None or index not in self.game.forfeited(self.rules)

    def humans_playing(self) -> list[int]:
        """The seats of members (not bot players) still playing."""
        return [i for i, s in enumerate(self.seats) if not s.is_bot and self.playing(i)]

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return index
        return None

    def held_seat(self, user_id: int) -> Seat | None:
        return next((s for s in self.held if s.user_id == user_id), None)

    def snapshot(self) -> TableSnapshot:
        """The table as its messages show it now, frozen: what every renderer reads."""
        row = self.row
        return TableSnapshot(
            id=row.id,
            kind=self.kind,
            status=row.status,
            version=row.version,
            game_key=row.game_key,
            host_id=row.host_id,
            guild_id=row.guild_id,
            stake=row.stake,
            channel_id=row.channel_id,
            thread_id=row.thread_id,
            settings=MappingProxyType(dict(self.settings)),
            seats=tuple(self.seats),
            rules=self.rules,
            events=tuple(self.events),
            deadline=row.deadline,
            turn_deadline=self.turn_deadline,
            turn_started_at=self.turn_started_at,
            notice=self.notice,
            held=tuple(self.held),
            watchers=tuple(self.watchers),
            coached=tuple(self.coached),
            rematch=None if self.rematch is None else MappingProxyType(dict(self.rematch)),
            forfeited=frozenset() if self.rules is None else self.game.forfeited(self.rules),
            game=self.game,
        )

    def add_event(self, event: Event) -> None:
        self.events = [*self.events, event][-MAX_EVENTS:]
        self.fresh_events.append(event)

    def to_state(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "settings": self.settings,
            "seats": [s.dump() for s in self.seats],
            "rules": None if self.rules is None else self.game.dump(self.rules),
            # Lines saved as text by an older version are shown, never saved again.
            "events": [e.stored() for e in self.events if not isinstance(e, Legacy)],
            "expiries": self.expiries,
            "turn_started_at": self.turn_started_at,
            "end_request": self.end_request,
            **({"held": [s.dump() for s in self.held]} if self.held else {}),
            **({"rematch": self.rematch} if self.rematch else {}),
            **({"watchers": self.watchers} if self.watchers else {}),
            **({"coached": self.coached} if self.coached else {}),
            **(
                {"forfeits": {str(k): v for k, v in self.forfeits.items()}} if self.forfeits else {}
            ),
        }

    @classmethod
    def from_row(cls, row: GameRow, game: GameKind[Any]) -> Table:
        s = row.state
        rules = s.get("rules")
        return cls(
            row=row,
            game=game,
            settings=s["settings"],
            seats=[Seat.load(x) for x in s["seats"]],
            rules=None if rules is None else game.load(rules),
            events=[load_event(e) for e in s.get("events", [])],
            expiries=list(s.get("expiries", [])),
            turn_started_at=s.get("turn_started_at"),
            end_request=s.get("end_request"),
            held=[Seat.load(x) for x in s.get("held", [])],
            rematch=s.get("rematch"),
            watchers=list(s.get("watchers", [])),
            coached=list(s.get("coached", [])),
            forfeits={int(k): v for k, v in s.get("forfeits", {}).items()},
        )


@dataclass(frozen=True)
class TableSnapshot:
    """One table frozen for its messages: the lobby and every game renderer read this (its
    seats, settings, rules state, recent events and deadlines), never the store row, and
    nothing they do can change the table."""

    id: int
    kind: str
    status: str
    version: int
    game_key: str
    host_id: int
    guild_id: int  # NO_GUILD (0) for a table in a DM or group DM
    stake: int
    channel_id: int
    thread_id: int | None
    settings: Mapping[str, Any]
    seats: tuple[Seat, ...]
    rules: Any  # the game's own rules state (a frozen value)
    events: tuple[Event, ...]
    deadline: float | None  # when the lobby closes, or the sooner of the turn's and a request's
    turn_deadline: float | None  # when the current turn's timer runs out
    turn_started_at: float | None
    notice: Notice | None
    held: tuple[Seat, ...] = ()  # seats kept in a lobby for members who have not taken them
    watchers: tuple[int, ...] = ()  # members watching from the thread
    coached: tuple[int, ...] = ()  # members who asked for a suggested move: unrated
    rematch: Mapping[str, Any] | None = None  # a rematch lobby: the game it follows
    forfeited: frozenset[int] = frozenset()
    # The table's game (its kind: code, no state), for the words of its own events.
    game: GameKind[Any] | None = field(default=None, compare=False, repr=False)

    @property
    def game_channel_id(self) -> int:
        return self.thread_id or self.channel_id

    def playing(self, index: int) -> bool:
        """Whether the seat still plays (has not forfeited)."""
        return index not in self.forfeited

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return index
        return None


@dataclass(frozen=True)
class Change:
    """What an operation did, so the Discord layer knows what to redraw."""

    table: Table
    turn_changed: bool = False
    finished: bool = False
    closed: bool = False  # lobby or game closed without a result (cancel, expiry, end)
    end_requested: bool = False  # the host asked the others to agree to end the game
    # The seat whose turn the game message showed, when that seat did not make the change
    # (a forfeit): the finished turn's summary is titled with it, not the last mover.
    shown_seat: int | None = None
    # The change took or gave up the last seat held for an invited member (``with:``): the
    # lobby's call to them is over.
    invites_answered: bool = False


@dataclass(frozen=True)
class Place:
    """Where a click comes from: its server and channel. A table's buttons work only in its
    own channel or thread, so a custom_id copied elsewhere, or forged, changes nothing.

    ``message_id`` and ``on``: the public message clicked and which of the table's messages
    the button belongs on (``"lobby"``, ``"table"``: the game message, ``"request"``: the
    request to end early, ``"panel"``: the host's private panel, so no public message). A
    button's id pressed on another message of the channel (another lobby, a tournament's
    sign-up, the lobby of a game now running) would redraw that message as this table's
    and take its own buttons away. None: no public message (a command, a private
    message's button, a table outside servers)."""

    guild_id: int | None
    channel_id: int | None
    message_id: int | None = None
    on: str = ""

    def check(self, table: Table) -> None:
        row = table.row
        if table.places:  # a cross-server table: a click from any of its places plays it
            place = next((p for p in table.places if p.guild_id == self.guild_id), None)
            if place is None or self.channel_id not in (place.channel_id, place.thread_id):
                raise StaleAction(code="table.elsewhere")
            home = place.message_id if self.on == "table" else self._home(table)
            if self.message_id is not None and self.on != "panel" and self.message_id != home:
                raise StaleAction(code="table.not_this_message")
            return
        if self.guild_id != row.guild_id or self.channel_id not in (
            row.channel_id,
            row.thread_id,
        ):
            raise StaleAction(code="table.elsewhere")
        if self.message_id is not None and self.message_id != self._home(table):
            raise StaleAction(code="table.not_this_message")

    def _home(self, table: Table) -> int | None:
        if self.on == "lobby":
            return table.row.lobby_message_id
        if self.on == "request":
            where = (table.end_request or {}).get("message")
            return int(where[1]) if where else None
        if self.on == "panel":
            return None
        return table.row.message_id


# --- pure helpers on a table: deadlines, end requests, held seats, reminders ---------------

REMINDER_LEFT = 1 / 3  # the share of the turn's time left when the turn reminder comes


def set_deadline(table: Table, turn_deadline: float | None) -> None:
    """The row's deadline: the turn's, or a pending end request's if that is sooner
    (one timer per row: the timer tells them apart)."""
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


def take_held(table: Table, user_id: int, name: str) -> Seat | None:
    """Seat a member whose seat is held (Join in a rematch lobby), back in its place in the
    finished game's order; None if no seat is held for them."""
    seat = table.held_seat(user_id)
    if seat is None:
        return None
    table.held.remove(seat)
    seat = replace(seat, name=name)
    table.seats.append(seat)
    order = (table.rematch or {}).get("order", [])
    place = {key: i for i, key in enumerate(order)}
    table.seats.sort(key=lambda s: place.get(s.key, len(order)))  # newcomers after
    return seat


def drop_held(table: Table, user_id: int) -> bool:
    """Give up a member's held seat (Leave in a rematch lobby); False if none was held."""
    seat = table.held_seat(user_id)
    if seat is None:
        return False
    table.held.remove(seat)
    return True


def plan_reminder(
    table: Table, now: float, turn_deadline: float | None, timeout: float | None
) -> None:
    """A new turn began: remind its player when a third of ``timeout`` is left before
    ``turn_deadline``; no reminder for a bot's seat, with no turn timer, or a game over."""
    table.row.remind_set = True
    table.row.remind_at = None
    rules = table.rules
    if rules is None or turn_deadline is None or not timeout or timeout <= 0:
        return
    current = table.game.current_seat(rules)
    if current is None or table.seats[current].is_bot:
        return
    table.row.remind_at = max(now, turn_deadline - timeout * REMINDER_LEFT)


def cancel_reminder(table: Table) -> None:
    """No reminder for this turn any more: its player acted, or the game is over."""
    table.row.remind_set = True
    table.row.remind_at = None
