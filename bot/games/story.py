"""Shared pieces of a replay's text story (``Game.replay_text``): plain lines, no markdown."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.terms import seat_name
from bot.games.words import how_left
from bot.i18n.speaking import N_, _
from bot.tables import events as ev
from bot.tables.model import Seat
from bot.tables.names import unescape_markdown

# A forfeit's log entry says why (``"why"``): how the seat left, as the result says it.
_HOW = {"resign": ev.RESIGNED, "forfeit": ev.TIMED_OUT}


def forfeit_line(detail: Mapping[str, Any], seats: Sequence[Seat]) -> str:
    """A forfeit's step: "Bo resigned", "Bo ran out of time" (a log without its why:
    "Bo forfeited")."""
    seat = int(detail["forfeit"])
    names = [seat_name(list(seats), i) for i in range(max(len(seats), seat + 1))]
    return how_left(((seat, _HOW.get(str(detail.get("why")), ev.FORFEITED)),), names)


def plain(line: str) -> str:
    """An event line as the thread shows it, without Discord's bold marks and with the
    names as they are (a name's markdown is escaped in the thread)."""
    return unescape_markdown(line.replace("**", ""))


def score_table(rows: Sequence[tuple[str, int]], title: str = N_("Scores")) -> list[str]:
    """``title:`` (a catalogue message, or words already translated) then one aligned line
    per (name, score), highest first."""
    ordered = sorted(rows, key=lambda r: -r[1])
    width = max((len(name) for name, __ in ordered), default=0)
    return [
        _("%(title)s:", title=_(title)),
        *(f"  {name.ljust(width)}  {score:>4}" for name, score in ordered),
    ]
