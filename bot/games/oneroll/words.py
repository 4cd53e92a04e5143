"""The recent-events lines of one-roll Sequences and Hearts Due, and a throw's score in
words (the rules core keeps its parts and points as values), made when drawn."""

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
    said = describe(record.score, event.ruleset)
    if record.phase == "tiebreak":
        return f"{who}'s tie-break throw {faces}: {said}"
    if record.score.wiped:
        return f"💥 {who} threw {faces}: **{said}** ({record.total_before} → 0)"
    return f"{who} threw {faces}: {said} (total {record.total_after})"


# The words of a throw's score (the rules core keeps the parts and points as values).
_NUMBER_WORDS = {4: "four", 5: "five", 6: "six"}


def breakdown(score: one.ThrowScore, ruleset: one.Ruleset) -> str:
    """The scoring parts of a throw: ``"1-2-3"``, or with two parts or more each one's
    points, ``"1-2 (5) + 1-2-3 (10)"``, so the sum reads as arithmetic. Empty if none."""
    parts = [_part_name(run) for run in score.runs]
    if len(parts) == 1 and score.runs[0] == (1,):
        return "a lone 1"
    if len(parts) < 2:
        return "".join(parts)
    return " + ".join(
        f"{name} ({one.part_points(ruleset, run)})"
        for name, run in zip(parts, score.runs, strict=True)
    )


def describe(score: one.ThrowScore, ruleset: one.Ruleset) -> str:
    """One line for players: ``"1-2 (5) + 1-2-3 (10) = 15"``, ``"1-2-3 = 10"``,
    ``"no score"``, ``"four 1s: total wiped!"``."""
    if score.penalty:
        ones = score.dice.count(1)
        word = _NUMBER_WORDS.get(ones, "four or more")
        return f"{word} 1s: total wiped!"
    if not score.runs:
        return "no score"
    return f"{breakdown(score, ruleset)} = {score.points}"


def _part_name(run: tuple[int, ...]) -> str:
    if len(run) > 1 and run[0] == 6:
        return f"{_NUMBER_WORDS[len(run)]} 6s"
    return "-".join(str(face) for face in run)
