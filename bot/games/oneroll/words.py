"""The recent-events lines of one-roll Sequences and Hearts Due, and a throw's score in
words (the rules core keeps its parts and points as values), made when drawn."""

from __future__ import annotations

from bot.games.oneroll.events import Thrown
from bot.games.terms import dice_text, seat_name
from bot.i18n.speaking import _, number
from bot.rules import oneroll as one
from bot.tables.model import Seat
from bot.tables.names import md_name

# TRANSLATORS (the throw lines): %(who)s is a player's name, %(dice)s the six faces
# ("1-1-2-3-5-6"), %(said)s what the throw scored ("1-2 (5) + 1-2-3 (10) = 15").


def throw_line(event: Thrown, seats: list[Seat]) -> str:
    record = event.record
    who = md_name(seat_name(seats, record.seat))
    faces = dice_text(record.dice)
    if record.phase == "opening":
        return _(
            "%(who)s's opening throw %(dice)s: sum %(sum)s",
            who=who,
            dice=faces,
            sum=number(record.value),
        )
    said = describe(record.score, event.ruleset)
    if record.phase == "tiebreak":
        return _("%(who)s's tie-break throw %(dice)s: %(said)s", who=who, dice=faces, said=said)
    if record.score.wiped:
        return _(
            "💥 %(who)s threw %(dice)s: **%(said)s** (%(total)s → 0)",
            who=who,
            dice=faces,
            said=said,
            total=number(record.total_before),
        )
    return _(
        "%(who)s threw %(dice)s: %(said)s (total %(total)s)",
        who=who,
        dice=faces,
        said=said,
        total=number(record.total_after),
    )


def breakdown(score: one.ThrowScore, ruleset: one.Ruleset) -> str:
    """The scoring parts of a throw: ``"1-2-3"``, or with two parts or more each one's
    points, ``"1-2 (5) + 1-2-3 (10)"``, so the sum reads as arithmetic. Empty if none."""
    parts = [_part_name(run) for run in score.runs]
    if len(parts) == 1 and score.runs[0] == (1,):
        # TRANSLATORS: a throw whose only scoring run is a single 1 (Hearts Due scores it).
        return _("a lone 1")
    if len(parts) < 2:
        return "".join(parts)
    return " + ".join(
        f"{name} ({number(one.part_points(ruleset, run))})"
        for name, run in zip(parts, score.runs, strict=True)
    )


def describe(score: one.ThrowScore, ruleset: one.Ruleset) -> str:
    """One line for players: ``"1-2 (5) + 1-2-3 (10) = 15"``, ``"1-2-3 = 10"``,
    ``"no score"``, ``"four 1s: total wiped!"``."""
    if score.penalty:
        ones = score.dice.count(1)
        if ones == 4:
            return _("four 1s: total wiped!")
        if ones == 5:
            return _("five 1s: total wiped!")
        if ones == 6:
            return _("six 1s: total wiped!")
        return _("four or more 1s: total wiped!")
    if not score.runs:
        return _("no score")
    return f"{breakdown(score, ruleset)} = {number(score.points)}"


def _part_name(run: tuple[int, ...]) -> str:
    if len(run) > 1 and run[0] == 6:
        # TRANSLATORS: five (six) dice showing 6, a scoring part of a throw.
        return _("six 6s") if len(run) == 6 else _("five 6s")
    return "-".join(str(face) for face in run)
