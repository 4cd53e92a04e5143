"""The words of a table's events and notices, made when a message is drawn (issue 21).

The table service stores what happened as values (``bot.tables.events``); this module
turns the table's own events into the lines players read, and asks the table's game for
the lines of its own events (``Game.event_words``). Names come from the seats as they are
when the line is drawn.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.games.base import Game
from bot.tables import events as ev
from bot.tables.model import Table, TableSnapshot
from bot.tables.names import md_name

Shown = Table | TableSnapshot  # a table, or the frozen copy a message is drawn from

DRAW_LINE = "🤝 A draw: nobody won."

# How a line about a refused post ends (``Notice.then``; a close says it ended the game).
THEN = {
    "runs_in_channel": "so the game runs in the channel",
    "goes_on_here": "so the game goes on here",
    "ended": "so the game was ended; stakes are refunded",
    "rematch_off": "so the rematch is called off; stakes are refunded",
}

_CLOSED = {
    ev.HOST_LEFT: "The host left and nobody else is seated, so the table is closed.",
    ev.CANCELLED_BY_HOST: "The host cancelled this table.",
    ev.CANCELLED_BY_ADMIN: "A member with Manage Server cancelled this table.",
    ev.EXPIRED: "Nobody started this table in time.",
    ev.ABANDONED: "No player is left in the game: it is abandoned.",
    ev.LOBBY_UNPOSTED: "The lobby message could not be posted.",
    ev.THREAD_DELETED: "The game's thread was deleted, so the game ended; stakes are refunded.",
}


def event_line(event: ev.Event, table: Shown) -> str:
    """One event as the line the table's messages show."""
    line = _table_line(event, table)
    if line is None and isinstance(table.game, Game):
        line = table.game.event_words(event, list(table.seats))
    if line is None:
        raise TypeError(f"no words for the event {event!r} of a {table.kind} table")
    return line


def event_lines(table: Shown, events: Iterable[ev.Event] | None = None) -> list[str]:
    """The lines of ``events`` (by default the table's recent events), in order."""
    return [event_line(e, table) for e in (table.events if events is None else events)]


def last_line(table: Shown) -> str | None:
    """The line of the table's last event (None: it has none)."""
    return event_line(table.events[-1], table) if table.events else None


def is_result(event: ev.Event) -> bool:
    """Whether the event is a game's result (the win or draw after its last move)."""
    return isinstance(event, ev.Won | ev.Draw) or (
        isinstance(event, ev.Legacy) and event.text.startswith(("🏆", "🤝"))
    )


def _name(table: Shown, seat: int) -> str:
    return md_name(table.seats[seat].name) if 0 <= seat < len(table.seats) else f"Seat {seat + 1}"


def _member(table: Shown, user_id: int | None, name: str | None = None) -> str:
    """A member by their seat's name, else the name they had (a moderator has no seat)."""
    index = None if user_id is None else table.seat_of(user_id)
    if index is not None:
        return _name(table, index)
    return md_name(name) if name else "a moderator"


def _table_line(event: ev.Event, table: Shown) -> str | None:
    if isinstance(event, ev.Legacy):
        return event.text
    if isinstance(event, ev.Started):
        return f"Game started with {event.players} players."
    if isinstance(event, ev.HostChanged):
        return f"👑 {md_name(event.left)} left, so {_member(table, event.host)} is the host now."
    if isinstance(event, ev.Won):
        return f"🏆 {' & '.join(_name(table, s) for s in event.seats)} won!"
    if isinstance(event, ev.Draw):
        return DRAW_LINE
    if isinstance(event, ev.EndRequested):
        who = _member(table, event.by)
        return f"{who} asks to end the game early; everyone still playing must agree."
    if isinstance(event, ev.TimedOut):
        return f"⏰ {_name(table, event.seat)} ran out of time; the bot played that turn."
    if isinstance(event, ev.Resigned):
        return f"🏳️ {_name(table, event.seat)} resigned."
    if isinstance(event, ev.Forfeited):
        return f"⏰ {_name(table, event.seat)} missed {event.missed} turns in a row and forfeits."
    if isinstance(event, ev.Closed):
        return closed_line(event, table)
    return None


def closed_line(event: ev.Closed, table: Shown) -> str:
    if event.reason == ev.ENDED:
        return f"Ended early by {_member(table, event.by, event.name)}."
    if event.reason == ev.AGREED:
        return f"Ended early: {_member(table, event.by)} asked and everyone agreed."
    if event.reason == ev.CANNOT_POST and event.refusal is not None:
        return refusal_line(event.refusal, THEN["ended"])
    if event.reason == ev.REMATCH_UNPOSTED and event.refusal is not None:
        return refusal_line(event.refusal, THEN["rematch_off"])
    return _CLOSED.get(event.reason, "This table was closed.")


def refusal_line(refusal: ev.Refusal, then: str) -> str:
    """One line naming the permissions the bot lacks in a channel (or Discord's answer)."""
    if refusal.missing:
        missing = ", ".join(refusal.missing)
        return f"⚠️ I can't post in <#{refusal.channel}> (missing {missing}), {then}."
    why = f"Discord said {refusal.status}" if refusal.status is not None else "Discord refused"
    return f"⚠️ I couldn't post in <#{refusal.channel}> ({why}), {then}."


def notice_line(notice: ev.Notice) -> str:
    if notice.code == "no_thread_permission":
        return (
            "I can't create threads here (Create Public Threads is missing), "
            "so the game runs in this channel."
        )
    if notice.code == "thread_failed":
        return f"I couldn't open a thread ({notice.status}), so the game runs here."
    assert notice.refusal is not None
    return refusal_line(notice.refusal, THEN[notice.then])
