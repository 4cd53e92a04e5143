"""What happened at a table, as values: state holds events and notices, never sentences (issue 21),
and the words are made where a message is drawn. Each dumps to JSON with a ``type`` tag; a game's
own events subclass ``Event``."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

from bot.tables import values

_TYPES: dict[str, type[Event]] = {}


class Event:
    """A value of something that happened; subclasses are frozen dataclasses that name their
    tag: ``class Started(Event, tag="started")``."""

    tag: ClassVar[str] = ""

    def __init_subclass__(cls, tag: str = "", **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if tag:
            if tag in _TYPES and _TYPES[tag].__qualname__ != cls.__qualname__:
                raise ValueError(f"event tag {tag!r} is taken by {_TYPES[tag].__name__}")
            cls.tag = tag
            _TYPES[tag] = cls

    def dump(self) -> dict[str, Any]:
        """The value as JSON: ``{"type": tag, field: value, ...}``."""
        assert dataclasses.is_dataclass(self)
        fields = {n: values.to_json(getattr(self, n)) for n in values.field_names(type(self))}
        return {"type": self.tag, **fields}

    def stored(self) -> Any:
        """``dump``, made once per value: a value is frozen, so its JSON never changes (a
        value loaded from the store keeps the JSON it was loaded from)."""
        data = self.__dict__.get("_stored")
        if data is None:
            data = self.dump()
            object.__setattr__(self, "_stored", data)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Event:
        """The value from its JSON (``dump`` without the tag); subclasses holding a rules
        record override this and ``dump``."""
        assert dataclasses.is_dataclass(cls)
        return values.decoder(cls)(data)


@dataclass(frozen=True)
class Legacy(Event, tag="legacy"):
    """A line a game saved as text before events were values (issue 21): shown as it was, never
    saved again, so no sentence outlives the upgrade."""

    text: str


def load_event(data: Any) -> Event:
    """An event from its stored JSON; a string is an event saved before values (Legacy)."""
    if isinstance(data, str):
        return Legacy(data)
    fields = dict(data)
    tag = fields.pop("type")
    try:
        kind = _TYPES[tag]
    except KeyError:
        raise ValueError(f"unknown event type {tag!r}") from None
    event = kind.from_json(fields)
    object.__setattr__(event, "_stored", data)  # what it was loaded from is its JSON
    return event


def event_types() -> dict[str, type[Event]]:
    """Every event type registered so far, by tag (tests check stored states with it)."""
    return dict(_TYPES)


# --- the table's own events -----------------------------------------------------------


@dataclass(frozen=True)
class Started(Event, tag="started"):
    players: int


@dataclass(frozen=True)
class HostChanged(Event, tag="host_changed"):
    """The host left a lobby and the next member took over. ``left`` is the name of the
    member who left (their seat is gone), ``host`` the new host's user id."""

    left: str
    host: int


@dataclass(frozen=True)
class TeamsSwapped(Event, tag="teams_swapped"):
    """``who`` pressed Switch team into the full team ``team``, so its last seat ``other``
    moved to ``who``'s old team ``other_team`` (names: seats in a lobby come and go)."""

    who: str
    other: str
    team: int
    other_team: int


# How a seat left a game before its end (``Won.left``, ``Table.forfeits``).
LeftHow = str
RESIGNED = "resigned"
TIMED_OUT = "timed_out"  # its timer ran out too many turns in a row
FORFEITED = "forfeited"  # a game saved before the how was kept


@dataclass(frozen=True)
class Won(Event, tag="won"):
    """The winners' seats; ``left``, for a win by every other side forfeiting, each beaten seat that
    left and how, so the result says how it was won."""

    seats: tuple[int, ...]
    left: tuple[tuple[int, LeftHow], ...] = ()


@dataclass(frozen=True)
class Draw(Event, tag="draw"):
    """A game over with no winner (the board game's blocked or stalled game)."""


@dataclass(frozen=True)
class EndRequested(Event, tag="end_requested"):
    by: int  # the host's user id


@dataclass(frozen=True)
class TimedOut(Event, tag="timed_out"):
    """The seat's timer ran out; the bot played that turn for it."""

    seat: int


@dataclass(frozen=True)
class Resigned(Event, tag="resigned"):
    seat: int


@dataclass(frozen=True)
class Forfeited(Event, tag="forfeited"):
    """The seat missed ``missed`` turns in a row and forfeits."""

    seat: int
    missed: int


# Why a table closed without a result (``Closed.reason``, and the close's log entry).
CloseReason = str
HOST_LEFT = "host_left"  # the host left and no other member is seated
CANCELLED_BY_HOST = "cancelled_by_host"
CANCELLED_BY_ADMIN = "cancelled_by_admin"
EXPIRED = "expired"  # nobody started the lobby in time
ENDED = "ended"  # ended early by ``by`` (the host, or a moderator named ``name``)
AGREED = "agreed"  # the host ``by`` asked to end early and everyone agreed
ABANDONED = "abandoned"  # no member left playing
LOBBY_UNPOSTED = "lobby_unposted"  # the lobby message could not be posted
THREAD_DELETED = "thread_deleted"
CANNOT_POST = "cannot_post"  # Discord refused the game's first message (``refusal``)
REMATCH_UNPOSTED = "rematch_unposted"  # Discord refused a rematch's lobby (``refusal``)


@dataclass(frozen=True)
class Refusal:
    """Discord refused to post in a channel: the permissions the bot lacks there, or the
    HTTP status it answered (None: it refused without one)."""

    channel: int
    missing: tuple[str, ...] = ()
    status: int | None = None


@dataclass(frozen=True)
class Closed(Event, tag="closed"):
    """The table closed without a result for ``reason``: ``by`` who closed it, ``name`` theirs if
    seatless, ``refusal`` what Discord refused."""

    reason: CloseReason
    by: int | None = None
    name: str | None = None
    refusal: Refusal | None = None
    # ``ABANDONED``: each member's seat that left (and how) or missed turns in a row, so the
    # line says who was away.
    left: tuple[tuple[int, LeftHow], ...] = ()
    missed: tuple[tuple[int, int], ...] = ()


# --- notices: one-off lines the next render shows above the turn ------------------------


@dataclass(frozen=True)
class Notice:
    """Why the game is not where it would be: ``code`` is "no_thread_permission" (Create
    Public Threads missing), "thread_failed" (``status``), or "cannot_post" (``refusal``,
    then ``then``: "runs_in_channel" or "goes_on_here")."""

    code: str
    status: int | None = None
    refusal: Refusal | None = None
    then: str = ""
