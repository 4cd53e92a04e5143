"""The recent-events lines of push-your-luck Sequences, made when a message is drawn."""

from __future__ import annotations

from bot.games.sequences.events import TurnEnded
from bot.games.terms import dice_text, seat_name
from bot.rules import pushluck as pl
from bot.tables.model import Seat
from bot.tables.names import md_name


def turn_line(event: TurnEnded, seats: list[Seat]) -> str:
    who = md_name(seat_name(seats, event.seat))
    faces = dice_text(event.dice)
    if event.kind == "bank":
        return f"{who} banked **{event.points}** (run {dice_text(event.run)})"
    if event.kind == "full_run":
        return f"{who} reached 6 with six dice: **{event.points}** points!"
    if event.kind == "bonus":
        return f"{who} hit the bonus throw ({faces}): **{event.points}** points!"
    if event.kind == "overshoot":
        return _overshoot_line(event, who)
    return _bust_line(event, who)


def _overshoot_line(event: TurnEnded, who: str) -> str:
    """Sudden: the turn would have taken the total past 21, so it scored nothing."""
    points = event.added
    if event.via == "bank":
        what = f"banked {points} (run {dice_text(event.run)})"
    elif event.via == "bonus":
        what = f"hit the bonus throw ({dice_text(event.dice)}) for {points}"
    else:
        what = f"busted on {dice_text(event.dice)}, soft last die {points}"
    total = event.total
    return (
        f"{who} {what} and went over {pl.SUDDEN_TARGET} "
        f"({total} + {points} = {total + points}): no points"
    )


def _bust_line(event: TurnEnded, who: str) -> str:
    """A bust with its story: what was held and the number the throw needed."""
    if event.bonus_throw:
        story = f"{who} missed the bonus throw ({dice_text(event.dice)}), needed a {event.needed}"
    else:
        held = f" holding {dice_text(event.run)}" if event.run else ""
        story = f"{who} busted on {dice_text(event.dice)}{held}, needed a {event.needed}"
    if event.points:
        return f"{story}: soft last die keeps **{event.points}**"
    return f"{story}: no points"
