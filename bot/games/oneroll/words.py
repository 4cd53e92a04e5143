"""The recent-events lines of one-roll Sequences and Hearts Due, made when drawn."""

from __future__ import annotations

from bot.games.oneroll.events import Thrown
from bot.games.terms import dice_text, seat_name
from bot.rules import oneroll as one
from bot.tables.model import Seat
from bot.tables.names import md_name


def throw_line(event: Thrown, seats: list[Seat]) -> str:
    record = event.record
    who = md_name(seat_name(seats, record.seat))
    faces = dice_text(record.dice)
    if record.phase == "opening":
        return f"{who}'s opening throw {faces}: sum {record.value}"
    said = one.describe(record.score, event.ruleset)
    if record.phase == "tiebreak":
        return f"{who}'s tie-break throw {faces}: {said}"
    if record.score.wiped:
        return f"💥 {who} threw {faces}: **{said}** ({record.total_before} → 0)"
    return f"{who} threw {faces}: {said} (total {record.total_after})"
