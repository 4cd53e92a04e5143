"""Push-your-luck Sequences replayed as text: every throw, lock, bank and bust, then the
scores (``python -m bot replay``)."""

from __future__ import annotations

from bot.games.base import Moments
from bot.games.sequences.events import turn_ended
from bot.games.sequences.render import tiebreak_note
from bot.games.sequences.words import turn_line
from bot.games.story import forfeit_line, plain, score_table
from bot.games.terms import dice_text, seat_name
from bot.i18n.speaking import _, number, plural
from bot.rules import pushluck as pl
from bot.tables.model import Seat


def story(moments: Moments, seats: list[Seat]) -> str:
    lines: list[str] = []
    before: pl.PushState = moments[0][1]
    for step, after in moments[1:]:
        assert step is not None
        if "forfeit" in step.detail:
            lines.append(forfeit_line(step.detail, seats))
        else:
            event = after.last
            if event is not None and event is not before.last:
                lines.extend(_lines(after, event, seats))
        before = after
    state: pl.PushState = moments[-1][1]
    lines.append("")
    if state.config.variant == "team":
        teams = [
            (" & ".join(seat_name(seats, s) for s in range(state.n_seats) if s % 2 == t), total)
            for t, total in enumerate(state.side_totals())
        ]
        lines.extend(score_table(teams, _("Team scores")))
    else:
        rows = [(seat_name(seats, s), state.totals[s]) for s in range(state.n_seats)]
        lines.extend(score_table(rows, _("Scores")))
    if state.outcome is not None:
        won = state.outcome.winners
        winners = " & ".join(seat_name(seats, s) for s in won)
        note = tiebreak_note(state, [seat_name(seats, s) for s in range(state.n_seats)])
        lines.extend([note] if note else [])
        if winners:
            lines.append(plural("Winner: %(winners)s", "Winners: %(winners)s", len(won),
                                winners=winners))  # fmt: skip
        else:
            lines.append(_("No winner"))
    return "\n".join(lines)


def _lines(state: pl.PushState, event: pl.Event, seats: list[Seat]) -> list[str]:
    who = seat_name(seats, event.seat)
    if event.kind == "throw":
        values = {
            "who": who,
            "dice": dice_text(event.dice),
            "run": dice_text(event.run),
            "extending": dice_text(event.extending),
        }
        # TRANSLATORS: a replay's line: the throw, the run held, the dice that extend it.
        if event.run:
            return [_("%(who)s threw %(dice)s (run %(run)s): %(extending)s extends it", **values)]
        return [_("%(who)s threw %(dice)s (run nothing yet): %(extending)s extends it", **values)]
    if event.kind == "lock":
        return [
            _(
                "%(who)s locked %(extending)s: run %(run)s",
                who=who,
                extending=dice_text(event.extending),
                run=dice_text(event.run),
            )
        ]
    ended = turn_ended(state, event)
    out = [plain(turn_line(ended, seats))] if ended else []
    if event.turn_over:
        total = number(state.totals[event.seat])
        out.append("  " + _("%(who)s: total %(total)s", who=who, total=total))
    return out
