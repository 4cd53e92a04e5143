"""The recent-events lines of push-your-luck Sequences, made when a message is drawn."""

from __future__ import annotations

from bot.games.sequences.events import TurnEnded
from bot.games.terms import dice_text, seat_name
from bot.i18n.speaking import _, number
from bot.rules import pushluck as pl
from bot.tables.model import Seat
from bot.tables.names import md_name

# TRANSLATORS (every line here): %(who)s is a player's name, %(dice)s and %(run)s dice
# faces as "1-2-3", %(needed)s the face the throw needed; "busted": the throw extended
# nothing.


def turn_line(event: TurnEnded, seats: list[Seat]) -> str:
    who = md_name(seat_name(seats, event.seat))
    points = number(event.points)
    if event.kind == "bank":
        return _(
            "%(who)s banked **%(points)s** (run %(run)s)",
            who=who,
            points=points,
            run=dice_text(event.run),
        )
    if event.kind == "full_run":
        return _("%(who)s reached 6 with six dice: **%(points)s** points!", who=who, points=points)
    if event.kind == "bonus":
        return _(
            "%(who)s hit the bonus throw (%(dice)s): **%(points)s** points!",
            who=who,
            dice=dice_text(event.dice),
            points=points,
        )
    if event.kind == "overshoot":
        return _overshoot_line(event, who)
    return _bust_line(event, who)


def _overshoot_line(event: TurnEnded, who: str) -> str:
    """Sudden: the turn would have taken the total past 21, so it scored nothing."""
    values = {
        "who": who,
        "points": number(event.added),
        "run": dice_text(event.run),
        "dice": dice_text(event.dice),
        "target": number(pl.SUDDEN_TARGET),
        "total": number(event.total),
        "sum": number(event.total + event.added),
    }
    if event.via == "bank":
        return _(
            "%(who)s banked %(points)s (run %(run)s) and went over %(target)s "
            "(%(total)s + %(points)s = %(sum)s): no points",
            **values,
        )
    if event.via == "bonus":
        return _(
            "%(who)s hit the bonus throw (%(dice)s) for %(points)s and went over %(target)s "
            "(%(total)s + %(points)s = %(sum)s): no points",
            **values,
        )
    return _(
        "%(who)s busted on %(dice)s (soft last die: %(points)s) and went over %(target)s "
        "(%(total)s + %(points)s = %(sum)s): no points",
        **values,
    )


def _bust_line(event: TurnEnded, who: str) -> str:
    """A bust with its story: what was held and the number the throw needed."""
    values = {
        "who": who,
        "dice": dice_text(event.dice),
        "run": dice_text(event.run),
        "needed": event.needed,
        "points": number(event.points),
    }
    if event.bonus_throw:
        if event.points:
            return _(
                "%(who)s missed the bonus throw (%(dice)s), needed a %(needed)s: "
                "soft last die keeps **%(points)s**",
                **values,
            )
        return _(
            "%(who)s missed the bonus throw (%(dice)s), needed a %(needed)s: no points", **values
        )
    if event.run:
        if event.points:
            return _(
                "%(who)s busted on %(dice)s holding %(run)s, needed a %(needed)s: "
                "soft last die keeps **%(points)s**",
                **values,
            )
        return _(
            "%(who)s busted on %(dice)s holding %(run)s, needed a %(needed)s: no points", **values
        )
    if event.points:
        return _(
            "%(who)s busted on %(dice)s, needed a %(needed)s: soft last die keeps **%(points)s**",
            **values,
        )
    return _("%(who)s busted on %(dice)s, needed a %(needed)s: no points", **values)
