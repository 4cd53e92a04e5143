"""The words of a table's events and notices, made when a message is drawn (issue 21), with names
from the seats as they are then; a game's own events are worded by ``Game.event_words``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.games.base import presented
from bot.i18n.speaking import N_, _, plural
from bot.tables import events as ev
from bot.tables.model import Table, TableSnapshot
from bot.tables.names import md_name
from bot.tables.teams import TEAM_NAMES

Shown = Table | TableSnapshot  # a table, or the frozen copy a message is drawn from

DRAW_LINE = N_("🤝 A draw: nobody won.")

# How a line about a refused post ends (``Notice.then``; a close says it ended the game).
# Keys: ``refusal_line`` words each ending with its whole sentence.
THEN = {
    "runs_in_channel": "runs_in_channel",
    "goes_on_here": "goes_on_here",
    "ended": "ended",
    "rematch_off": "rematch_off",
}

_CLOSED = {
    ev.HOST_LEFT: N_("The host left and nobody else is seated, so the table is closed."),
    ev.CANCELLED_BY_HOST: N_("The host cancelled this table."),
    ev.CANCELLED_BY_ADMIN: N_("A member with Manage Server cancelled this table."),
    ev.EXPIRED: N_("Nobody started this table in time."),
    ev.ABANDONED: N_("No player is left in the game: it is abandoned."),
    ev.LOBBY_UNPOSTED: N_("The lobby message could not be posted."),
    ev.THREAD_DELETED: N_("The game's thread was deleted, so the game ended; stakes are refunded."),
}


def event_line(event: ev.Event, table: Shown) -> str:
    """One event as the line the table's messages show."""
    line = _table_line(event, table)
    game = None if table.game is None else presented(table.game)
    if line is None and game is not None:
        line = game.event_words(event, list(table.seats))
    if line is None:
        raise TypeError(f"no words for the event {event!r} of a {table.kind} table")
    return line


def event_lines(table: Shown, events: Iterable[ev.Event] | None = None) -> list[str]:
    """The lines of ``events`` (by default the table's recent events), in order."""
    return [event_line(e, table) for e in (table.events if events is None else events)]


def last_line(table: Shown) -> str | None:
    """The line of the table's last event (None: it has none)."""
    return event_line(table.events[-1], table) if table.events else None


def ranked_seats(table: Shown) -> list[int]:
    """The seats in the order a score list shows them: once the game is over, by place, as
    the result line ranks them (place, then score, then seat; issue 31), else as seated."""
    seats = list(range(len(table.seats)))
    if table.rules is None or table.game is None:
        return seats
    results = table.game.results(table.rules, list(table.seats))
    if not results:
        return seats
    by_seat = {r.seat: r for r in results}
    return sorted(seats, key=lambda i: (by_seat[i].place, -by_seat[i].score, i))


def _name(table: Shown, seat: int) -> str:
    if 0 <= seat < len(table.seats):
        return md_name(table.seats[seat].name)
    return _("Seat %(number)s", number=seat + 1)


def _member(table: Shown, user_id: int | None, name: str | None = None) -> str:
    """A member by their seat's name, else the name they had (a moderator has no seat)."""
    index = None if user_id is None else table.seat_of(user_id)
    if index is not None:
        return _name(table, index)
    return md_name(name) if name else _("a moderator")


def _table_line(event: ev.Event, table: Shown) -> str | None:
    if isinstance(event, ev.Legacy):
        return event.text
    if isinstance(event, ev.Started):
        return plural(
            "Game started with %(count)s player.",
            "Game started with %(count)s players.",
            event.players,
        )
    if isinstance(event, ev.HostChanged):
        return _(
            "👑 %(left)s left, so %(host)s is the host now.",
            left=md_name(event.left),
            host=_member(table, event.host),
        )
    if isinstance(event, ev.TeamsSwapped):
        return _(
            "🔁 %(who)s switched to team %(team)s, so %(other)s moves to team %(other_team)s.",
            who=md_name(event.who),
            team=TEAM_NAMES[event.team],
            other=md_name(event.other),
            other_team=TEAM_NAMES[event.other_team],
        )
    if isinstance(event, ev.Won):
        winners = " & ".join(_name(table, s) for s in event.seats)
        if event.left:
            # TRANSLATORS: %(how)s says who left and how: "Bo resigned", "Bo ran out of time".
            how = how_left(event.left, [_name(table, i) for i in range(len(table.seats))])
            return _("🏆 %(winners)s won: %(how)s.", winners=winners, how=how)
        return _("🏆 %(winners)s won!", winners=winners)
    if isinstance(event, ev.Draw):
        return _(DRAW_LINE)
    if isinstance(event, ev.EndRequested):
        who = _member(table, event.by)
        return _("%(who)s asks to end the game early; everyone still playing must agree.", who=who)
    if isinstance(event, ev.TimedOut):
        return _(
            "⏰ %(who)s ran out of time; the bot played that turn.", who=_name(table, event.seat)
        )
    if isinstance(event, ev.Resigned):
        return _("🏳️ %(who)s resigned.", who=_name(table, event.seat))
    if isinstance(event, ev.Forfeited):
        return plural(
            "⏰ %(who)s missed %(count)s turn in a row and forfeits.",
            "⏰ %(who)s missed %(count)s turns in a row and forfeits.",
            event.missed,
            who=_name(table, event.seat),
        )
    if isinstance(event, ev.Closed):
        return closed_line(event, table)
    return None


def how_left(left: Sequence[tuple[int, str]], names: Sequence[str]) -> str:
    """Who left a game won by forfeit, and how, as one clause: "Bo resigned", "Bo & Cy ran
    out of time", "Bo resigned, Cy ran out of time" (``Won.left``; ``names`` by seat)."""
    groups: dict[str, list[str]] = {}
    for seat, how in left:
        name = names[seat] if 0 <= seat < len(names) else _("Seat %(number)s", number=seat + 1)
        groups.setdefault(how, []).append(name)
    clauses = []
    for how, who in groups.items():
        # TRANSLATORS: %(who)s is one name or several joined by "&" ("Bo & Cy"); the
        # clause follows "Ana won:" in a result line, so it has no full stop.
        if how == ev.RESIGNED:
            clause = plural("%(who)s resigned", "%(who)s resigned", len(who), who=" & ".join(who))
        elif how == ev.TIMED_OUT:
            clause = plural(
                "%(who)s ran out of time", "%(who)s ran out of time", len(who), who=" & ".join(who)
            )
        else:
            clause = plural("%(who)s forfeited", "%(who)s forfeited", len(who), who=" & ".join(who))
        clauses.append(clause)
    return ", ".join(clauses)


def won_by_forfeit(table: Shown) -> str | None:
    """How a game won because every other side left was won ("Bo resigned"), from its
    result event; None: the game was played to its end (or is not over)."""
    won = next((e for e in reversed(table.events) if isinstance(e, ev.Won)), None)
    if won is None or not won.left:
        return None
    return how_left(won.left, [_name(table, i) for i in range(len(table.seats))])


def closed_line(event: ev.Closed, table: Shown) -> str:
    if event.reason == ev.ENDED:
        return _("Ended early by %(who)s.", who=_member(table, event.by, event.name))
    if event.reason == ev.AGREED:
        return _("Ended early: %(who)s asked and everyone agreed.", who=_member(table, event.by))
    if event.reason == ev.ABANDONED and (event.left or event.missed):
        return _(
            "%(story)s: nobody is left to play, so the game is abandoned (no result).",
            story=abandoned_story(event, table),
        )
    if event.reason == ev.CANNOT_POST and event.refusal is not None:
        return refusal_line(event.refusal, THEN["ended"])
    if event.reason == ev.REMATCH_UNPOSTED and event.refusal is not None:
        return refusal_line(event.refusal, THEN["rematch_off"])
    return _(_CLOSED.get(event.reason, N_("This table was closed.")))


def abandoned_story(event: ev.Closed, table: Shown) -> str:
    """Who left an abandoned game, and who was away, seat by seat, as one clause: "Ana missed
    3 turns in a row and forfeited, Bo missed 2 turns in a row" (``Closed.left/missed``)."""
    left, missed = dict(event.left), dict(event.missed)
    clauses = []
    for seat in sorted(set(left) | set(missed)):
        who, count = _name(table, seat), missed.get(seat, 0)
        how = left.get(seat)
        # TRANSLATORS: clauses joined by commas before ": nobody is left to play": no full stop.
        if how == ev.RESIGNED:
            clauses.append(plural("%(who)s resigned", "%(who)s resigned", 1, who=who))
        elif how is not None:
            clauses.append(
                plural(
                    "%(who)s missed %(count)s turn in a row and forfeited",
                    "%(who)s missed %(count)s turns in a row and forfeited",
                    count,
                    who=who,
                )
            )
        else:
            clauses.append(
                plural(
                    "%(who)s missed %(count)s turn in a row",
                    "%(who)s missed %(count)s turns in a row",
                    count,
                    who=who,
                )
            )
    return ", ".join(clauses)


def refusal_line(refusal: ev.Refusal, then: str) -> str:
    """One line naming the permissions the bot lacks in a channel (or Discord's answer),
    ending with what became of the game (``THEN``'s key ``then``)."""
    channel = refusal.channel
    if refusal.missing:
        # The permissions' names as Discord shows them (stored in English, as labelled).
        missing = ", ".join(_(name) for name in refusal.missing)
        if then == "runs_in_channel":
            return _(
                "⚠️ I can't post in <#%(channel)s> (missing %(missing)s), "
                "so the game runs in the channel.",
                channel=channel,
                missing=missing,
            )
        if then == "goes_on_here":
            return _(
                "⚠️ I can't post in <#%(channel)s> (missing %(missing)s), so the game goes on here.",
                channel=channel,
                missing=missing,
            )
        if then == "rematch_off":
            return _(
                "⚠️ I can't post in <#%(channel)s> (missing %(missing)s), "
                "so the rematch is called off; stakes are refunded.",
                channel=channel,
                missing=missing,
            )
        return _(
            "⚠️ I can't post in <#%(channel)s> (missing %(missing)s), "
            "so the game was ended; stakes are refunded.",
            channel=channel,
            missing=missing,
        )
    # TRANSLATORS: %(why)s is "Discord said 403" or "Discord refused".
    why = (
        _("Discord said %(status)s", status=refusal.status)
        if refusal.status is not None
        else _("Discord refused")
    )
    if then == "runs_in_channel":
        return _(
            "⚠️ I couldn't post in <#%(channel)s> (%(why)s), so the game runs in the channel.",
            channel=channel,
            why=why,
        )
    if then == "goes_on_here":
        return _(
            "⚠️ I couldn't post in <#%(channel)s> (%(why)s), so the game goes on here.",
            channel=channel,
            why=why,
        )
    if then == "rematch_off":
        return _(
            "⚠️ I couldn't post in <#%(channel)s> (%(why)s), "
            "so the rematch is called off; stakes are refunded.",
            channel=channel,
            why=why,
        )
    return _(
        "⚠️ I couldn't post in <#%(channel)s> (%(why)s), "
        "so the game was ended; stakes are refunded.",
        channel=channel,
        why=why,
    )


def notice_line(notice: ev.Notice) -> str:
    if notice.code == "no_thread_permission":
        return _(
            "I can't create threads here (Create Public Threads is missing), "
            "so the game runs in this channel."
        )
    if notice.code == "thread_failed":
        return _(
            "I couldn't open a thread (%(status)s), so the game runs here.", status=notice.status
        )
    assert notice.refusal is not None
    return refusal_line(notice.refusal, THEN[notice.then])
